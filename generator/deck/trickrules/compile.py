"""Expression trees (`generator.deck.trickrules.expr`) made into Python closures, once per
game: `compile_expr(tree, constants)` folds the parameters in (so a condition on a variant
that is off disappears) and returns `f(env)`, where `env` is a dict of the names the context
offers. The reader uses it for its checks, the engine for play; no `eval` anywhere.

Special env keys: "*all" (the envs of every scorer, for the `_all` aggregates), "*members"
(the envs of a team's members, for the `_members` aggregates) and "caught:<selector>" (how
many such cards the scorer caught). A schedule of hand sizes is a tree ("schedule", values)
read by `round`, a table by player count is ("table", {players: value}).
"""

from __future__ import annotations

from operator import add, eq, ge, gt, le, lt, mul, ne, sub

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing at start-up
if TYPE_CHECKING:
    from typing import Any, Callable, Mapping

    Compiled = Callable[[dict], Any]


def _floordiv(a: int, b: int) -> int:
    return a // b if b else 0


def _mod(a: int, b: int) -> int:
    return a % b if b else 0


OPERATORS = {"+": add, "-": sub, "*": mul, "//": _floordiv, "%": _mod,
             "==": eq, "!=": ne, "<": lt, "<=": le, ">": gt, ">=": ge}

# aggregates: function name -> (the env list it runs over, how the values are combined)
AGGREGATES = {
    "sum_all": ("*all", sum), "max_all": ("*all", max), "min_all": ("*all", min),
    "count_all": ("*all", None),
    "sum_members": ("*members", sum), "max_members": ("*members", max), "min_members": ("*members", min),
    "count_members": ("*members", None),
}


def fold(tree: tuple, constants: Mapping[str, Any]) -> tuple:
    """The tree with `constants` put in for their names and every part that no longer depends
    on anything computed to a value (a false `and` drops its other side)."""
    kind = tree[0]
    if kind == "name":
        if tree[1] in constants:
            return _literal(constants[tree[1]])
        return tree
    if kind == "unary":
        operand = fold(tree[2], constants)
        if _is_value(operand):
            return _literal(not operand[1] if tree[1] == "not" else -operand[1])
        return ("unary", tree[1], operand)
    if kind in ("and", "or"):
        left, right = fold(tree[1], constants), fold(tree[2], constants)
        stop = kind == "or"  # the value that decides alone
        if _is_value(left):
            return _literal(stop) if left[1] == stop else right
        if _is_value(right):
            return _literal(stop) if right[1] == stop else left
        return (kind, left, right)
    if kind == "binary":
        left, right = fold(tree[2], constants), fold(tree[3], constants)
        if _is_value(left) and _is_value(right):
            return _literal(OPERATORS[tree[1]](left[1], right[1]))
        return ("binary", tree[1], left, right)
    if kind == "call":
        name, args = tree[1], tuple(fold(arg, constants) for arg in tree[2])
        if name == "if" and _is_value(args[0]):
            return args[1] if args[0][1] else args[2]
        if name in ("min", "max", "abs") and all(map(_is_value, args)):
            values = [arg[1] for arg in args]
            return _literal({"min": min, "max": max, "abs": lambda v: abs(v)}[name](*values))
        return ("call", name, args, *tree[3:])
    return tree


def _is_value(tree: tuple) -> bool:
    return tree[0] in ("int", "bool", "str")


def _literal(value: Any) -> tuple:
    if isinstance(value, bool):
        return ("bool", value)
    if isinstance(value, int):
        return ("int", value)
    return ("str", str(value))


def constant(tree: tuple, constants: Mapping[str, Any]) -> Any:
    """The value of a tree that reads only `constants`; `LookupError` if it reads anything else."""
    folded = fold(tree, constants)
    if not _is_value(folded):
        raise LookupError("not constant")
    return folded[1]


def compile_expr(tree: tuple, constants: Mapping[str, Any] = {}) -> Compiled:
    """`f(env)` computing the tree's value from `env` (constants folded in first)."""
    return _compile(fold(tree, constants))


def _compile(tree: tuple) -> Compiled:
    kind = tree[0]
    if kind in ("int", "bool", "str"):
        value = tree[1]
        return lambda env: value
    if kind == "name":
        name = tree[1]
        return lambda env: env[name]
    if kind == "schedule":
        values = tree[1]
        return lambda env: values[env["round"] - 1] if 0 < env["round"] <= len(values) else 0
    if kind == "table":
        by_players = tree[1]
        return lambda env: by_players.get(env["players"], 0)
    if kind == "unary":
        operand = _compile(tree[2])
        if tree[1] == "not":
            return lambda env: not operand(env)
        return lambda env: -operand(env)
    if kind == "and":
        left, right = _compile(tree[1]), _compile(tree[2])
        return lambda env: left(env) and right(env)
    if kind == "or":
        left, right = _compile(tree[1]), _compile(tree[2])
        return lambda env: left(env) or right(env)
    if kind == "binary":
        return _compile_binary(OPERATORS[tree[1]], tree[2], tree[3])
    if kind == "call":
        return _compile_call(tree[1], tree[2])
    raise ValueError(f"unknown expression part {kind!r}")


def _compile_binary(op, left_tree: tuple, right_tree: tuple) -> Compiled:
    """An operation; one whose sides are names or values reads them directly (a call less
    per side: scoring and bidding evaluate these thousands of times a second)."""
    simple = {"name", "int", "bool", "str"}
    if left_tree[0] in simple and right_tree[0] in simple:
        a, b = left_tree[1], right_tree[1]
        if left_tree[0] == "name" and right_tree[0] == "name":
            return lambda env: op(env[a], env[b])
        if left_tree[0] == "name":
            return lambda env: op(env[a], b)
        if right_tree[0] == "name":
            return lambda env: op(a, env[b])
    left, right = _compile(left_tree), _compile(right_tree)
    if right_tree[0] in ("int", "bool", "str"):
        value = right_tree[1]
        return lambda env: op(left(env), value)
    if left_tree[0] in ("int", "bool", "str"):
        value = left_tree[1]
        return lambda env: op(value, right(env))
    return lambda env: op(left(env), right(env))


def _compile_call(name: str, args: tuple) -> Compiled:
    if name == "caught":
        key = "caught:" + args[0][1]
        return lambda env: env[key]
    if name in AGGREGATES:
        over, combine = AGGREGATES[name]
        inner = _compile(args[0])
        if combine is None:  # count_...
            return lambda env: sum(1 for each in env[over] if inner(each))
        return lambda env: combine([inner(each) for each in env[over]])
    parts = [_compile(arg) for arg in args]
    if name == "if":
        test, then, otherwise = parts
        return lambda env: then(env) if test(env) else otherwise(env)
    if name == "abs":
        (value,) = parts
        return lambda env: abs(value(env))
    combine = {"min": min, "max": max}[name]
    return lambda env: combine([part(env) for part in parts])
