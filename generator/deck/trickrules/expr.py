"""The scoring expressions of a trick-taking deck's `[rules]`: a tokenizer and a parser into
a small tree, and a type check against the names a context offers. No `eval`: the tree is
plain tuples, read by `generator.games.trick.compile`, and bounded in length, size and depth.

Grammar (lowest precedence first):

    expr    := or
    or      := and ("or" and)*
    and     := not ("and" not)*
    not     := "not" not | compare
    compare := sum (("==" | "!=" | "<" | "<=" | ">" | ">=") sum)?
    sum     := product (("+" | "-") product)*
    product := unary (("*" | "//" | "%") unary)*
    unary   := "-" unary | atom
    atom    := INTEGER | "true" | "false" | STRING | NAME | NAME "(" [expr ("," expr)*] ")" | "(" expr ")"

Values are whole numbers, true/false and text (only compared with == and !=). Division and
remainder by zero give 0, so an expression always has a value.

A tree node is a tuple whose first item is its kind:
("int", n) ("bool", b) ("str", s) ("name", id) ("call", function, (args...))
("unary", "-" | "not", operand) ("binary", op, left, right) for + - * // % and comparisons,
("and", left, right) ("or", left, right).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing at start-up
if TYPE_CHECKING:
    from typing import Callable, Mapping

MAX_LENGTH = 1000  # characters in one expression
MAX_NODES = 200  # nodes in its tree
MAX_DEPTH = 24  # nesting of its tree

INT, BOOL, STR = "a number", "true or false", "text"

_TOKEN = re.compile(r"""
    (?P<space>\s+)
  | (?P<int>\d+)
  | (?P<str>"[^"\\]*"|'[^'\\]*')
  | (?P<name>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<op>//|==|!=|<=|>=|[-+*%<>(),])
""", re.VERBOSE)

KEYWORDS = {"and", "or", "not", "true", "false"}
COMPARISONS = ("==", "!=", "<", "<=", ">", ">=")


class ExprError(ValueError):
    """What is wrong with an expression, and where (0-based column, or None)."""

    def __init__(self, message: str, column: int | None = None):
        super().__init__(message)
        self.message = message
        self.column = column

    def __str__(self) -> str:
        return self.message if self.column is None else f"{self.message} (at column {self.column + 1})"


@dataclass(frozen=True, slots=True)
class Function:
    """A function an expression may call: its argument types and result type. `each` names the
    group an aggregate evaluates its argument over ("" for a plain function); `literal` says
    the argument must be written as text (a card selector)."""

    args: tuple[str, ...]
    result: str
    each: str = ""
    literal: bool = False
    variadic: bool = False  # the last argument type repeats (min, max)


def tokenize(text: str) -> list[tuple[str, str, int]]:
    """(kind, text, column) for each token, ending with ("end", "", len)."""
    if len(text) > MAX_LENGTH:
        raise ExprError(f"the expression is {len(text):,} characters long; the limit is {MAX_LENGTH:,}")
    tokens = []
    position = 0
    while position < len(text):
        match = _TOKEN.match(text, position)
        if match is None:
            raise ExprError(f"unexpected character {text[position]!r}; an expression uses numbers, names, "
                            "'text', + - * // %, comparisons, and, or, not, if(...) and brackets", position)
        kind = match.lastgroup
        if kind != "space":
            tokens.append((kind, match.group(), position))
        position = match.end()
    tokens.append(("end", "", len(text)))
    return tokens


class _Parser:
    def __init__(self, text: str):
        self.tokens = tokenize(text)
        self.position = 0
        self.nodes = 0
        self.depth = 0

    def peek(self) -> tuple[str, str, int]:
        return self.tokens[self.position]

    def take(self) -> tuple[str, str, int]:
        token = self.tokens[self.position]
        self.position += 1
        return token

    def expect(self, text: str) -> None:
        kind, found, column = self.take()
        if found != text:
            shown = "the end" if kind == "end" else repr(found)
            raise ExprError(f"expected {text!r}, found {shown}", column)

    def node(self, *parts) -> tuple:
        self.nodes += 1
        if self.nodes > MAX_NODES:
            raise ExprError(f"the expression has more than {MAX_NODES} parts; split it with [rules.scoring.let]")
        return parts

    def nested(self, parse: Callable[[], tuple]) -> tuple:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise ExprError(f"the expression nests deeper than {MAX_DEPTH} levels", self.peek()[2])
        try:
            return parse()
        finally:
            self.depth -= 1

    def parse(self) -> tuple:
        tree = self.expr()
        kind, found, column = self.peek()
        if kind != "end":
            raise ExprError(f"unexpected {found!r} after a complete expression", column)
        return tree

    def expr(self) -> tuple:
        return self.nested(self.disjunction)

    def disjunction(self) -> tuple:
        left = self.conjunction()
        while self.peek()[1] == "or":
            self.take()
            left = self.node("or", left, self.conjunction())
        return left

    def conjunction(self) -> tuple:
        left = self.negation()
        while self.peek()[1] == "and":
            self.take()
            left = self.node("and", left, self.negation())
        return left

    def negation(self) -> tuple:
        if self.peek()[1] == "not":
            self.take()
            return self.node("unary", "not", self.nested(self.negation))
        return self.comparison()

    def comparison(self) -> tuple:
        left = self.sum()
        if self.peek()[1] in COMPARISONS:
            op = self.take()[1]
            left = self.node("binary", op, left, self.sum())
            if self.peek()[1] in COMPARISONS:
                raise ExprError("comparisons do not chain; join them with `and`", self.peek()[2])
        return left

    def sum(self) -> tuple:
        left = self.product()
        while self.peek()[1] in ("+", "-"):
            op = self.take()[1]
            left = self.node("binary", op, left, self.product())
        return left

    def product(self) -> tuple:
        left = self.unary()
        while self.peek()[1] in ("*", "//", "%"):
            op = self.take()[1]
            left = self.node("binary", op, left, self.unary())
        return left

    def unary(self) -> tuple:
        if self.peek()[1] == "-":
            self.take()
            return self.node("unary", "-", self.nested(self.unary))
        return self.atom()

    def atom(self) -> tuple:
        kind, text, column = self.take()
        if kind == "int":
            return self.node("int", int(text))
        if kind == "str":
            return self.node("str", text[1:-1])
        if text == "(":
            inner = self.expr()
            self.expect(")")
            return inner
        if kind == "name":
            if text in ("true", "false"):
                return self.node("bool", text == "true")
            if text in KEYWORDS:
                raise ExprError(f"{text!r} needs something before it", column)
            if self.peek()[1] == "(":
                self.take()
                args = []
                if self.peek()[1] != ")":
                    args.append(self.expr())
                    while self.peek()[1] == ",":
                        self.take()
                        args.append(self.expr())
                self.expect(")")
                return self.node("call", text, tuple(args), column)
            return self.node("name", text, column)
        shown = "the end of the expression" if kind == "end" else repr(text)
        raise ExprError(f"expected a number, a name or '(', found {shown}", column)


def parse(text: str) -> tuple:
    """The tree of an expression; `ExprError` for text that is not one."""
    if not isinstance(text, str):
        raise ExprError(f"an expression is text in quotes, not {text!r}")
    if not text.strip():
        raise ExprError("the expression is empty")
    return _Parser(text).parse()


def number_or_parse(value: int | str) -> tuple:
    """A field that takes a whole number or an expression: either as a tree."""
    if isinstance(value, bool):
        raise ExprError(f"expected a whole number or an expression, not {value!r}")
    if isinstance(value, int):
        return ("int", value)
    return parse(value)


@dataclass(frozen=True)
class Context:
    """The names and functions an expression may use where it is written, with their types."""

    names: Mapping[str, str]
    functions: Mapping[str, Function]
    # for an aggregate over a group other than "all" (every scorer, evaluated in this same
    # context): the context its argument is evaluated in, e.g. "members" of a team
    groups: Mapping[str, "Context"] | None = None

    def with_names(self, extra: Mapping[str, str]) -> "Context":
        return Context({**self.names, **extra}, self.functions, self.groups)


FUNCTIONS: dict[str, Function] = {
    "if": Function(("bool", "same", "same"), "same"),
    "min": Function(("int", "int"), "int", variadic=True),
    "max": Function(("int", "int"), "int", variadic=True),
    "abs": Function(("int",), "int"),
}

TYPE_WORDS = {"int": INT, "bool": BOOL, "str": STR}


def check(tree: tuple, context: Context) -> str:
    """The type of the tree ("int", "bool" or "str"), or `ExprError` naming what does not fit."""
    kind = tree[0]
    if kind == "int":
        return "int"
    if kind == "bool":
        return "bool"
    if kind == "str":
        return "str"
    if kind == "name":
        name, column = tree[1], tree[2]
        if name not in context.names:
            raise ExprError(f"unknown name {name!r}; known here: {', '.join(sorted(context.names)) or 'none'}",
                            column)
        return context.names[name]
    if kind == "unary":
        wanted = "bool" if tree[1] == "not" else "int"
        _want(check(tree[2], context), wanted, f"`{tree[1]}`")
        return wanted
    if kind in ("and", "or"):
        _want(check(tree[1], context), "bool", f"`{kind}`")
        _want(check(tree[2], context), "bool", f"`{kind}`")
        return "bool"
    if kind == "binary":
        op, left, right = tree[1], check(tree[2], context), check(tree[3], context)
        if op in ("==", "!="):
            if left != right:
                raise ExprError(f"`{op}` compares {TYPE_WORDS[left]} with {TYPE_WORDS[right]}")
            return "bool"
        _want(left, "int", f"`{op}`")
        _want(right, "int", f"`{op}`")
        return "bool" if op in COMPARISONS else "int"
    if kind == "call":
        return _check_call(tree, context)
    raise ExprError(f"unknown expression part {kind!r}")


def _check_call(tree: tuple, context: Context) -> str:
    name, args, column = tree[1], tree[2], tree[3]
    function = context.functions.get(name)
    if function is None:
        raise ExprError(f"unknown function {name!r}; known here: {', '.join(sorted(context.functions))}", column)
    wanted = list(function.args)
    if function.variadic:
        if len(args) < len(wanted):
            raise ExprError(f"{name}() takes at least {len(wanted)} values, found {len(args)}", column)
        wanted += [wanted[-1]] * (len(args) - len(wanted))
    elif len(args) != len(wanted):
        raise ExprError(f"{name}() takes {len(wanted)} value(s), found {len(args)}", column)
    if function.literal:
        if args[0][0] != "str":
            raise ExprError(f"{name}() takes a card selector in quotes, e.g. {name}('suit:hearts')", column)
        return function.result
    inner = context.groups[function.each] if function.each and function.each != "all" else context
    types = [check(arg, inner) for arg in args]
    same = None
    for type_, want in zip(types, wanted):
        if want == "same":
            if same is not None and type_ != same:
                raise ExprError(f"{name}() gives {TYPE_WORDS[same]} in one branch and "
                                f"{TYPE_WORDS[type_]} in the other", column)
            same = type_
        else:
            _want(type_, want, f"{name}()")
    return same if function.result == "same" else function.result


def _want(found: str, wanted: str, where: str) -> None:
    if found != wanted:
        raise ExprError(f"{where} needs {TYPE_WORDS[wanted]}, found {TYPE_WORDS[found]}")


def names_in(tree: tuple) -> set[str]:
    """Every name the tree reads, aggregates' arguments included."""
    kind = tree[0]
    if kind == "name":
        return {tree[1]}
    if kind == "call":
        return set().union(*(names_in(arg) for arg in tree[2])) if tree[2] else set()
    if kind == "unary":
        return names_in(tree[2])
    if kind in ("and", "or", "binary"):
        return names_in(tree[-2]) | names_in(tree[-1])
    return set()


def literals(tree: tuple, function: str) -> list[str]:
    """The text arguments of every call of `function` in the tree (the selectors of `caught`)."""
    kind = tree[0]
    found: list[str] = []
    if kind == "call":
        if tree[1] == function and tree[2] and tree[2][0][0] == "str":
            found.append(tree[2][0][1])
        for arg in tree[2]:
            found += literals(arg, function)
    elif kind == "unary":
        found += literals(tree[2], function)
    elif kind in ("and", "or", "binary"):
        found += literals(tree[-2], function) + literals(tree[-1], function)
    return found


def calls_in(tree: tuple) -> set[str]:
    """Every function the tree calls."""
    kind = tree[0]
    if kind == "call":
        return {tree[1]}.union(*(calls_in(arg) for arg in tree[2]))
    if kind == "unary":
        return calls_in(tree[2])
    if kind in ("and", "or", "binary"):
        return calls_in(tree[-2]) | calls_in(tree[-1])
    return set()
