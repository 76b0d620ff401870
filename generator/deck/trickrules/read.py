"""Read a deck's `[rules]` table, for one set of parameters, into `TrickRules`, or say what is
wrong with it: every problem with its field path (`rules.deal.hand`), what is wrong and what is
allowed, before any game is played. Structure (field names, types) was checked against
`generator.deck.trickrules.schema` already; this checks meaning: parameters, cards, suits,
rule ids, expressions, and whether the deal, the passes and the bids fit the deck for every
player count (`checks`)."""

from __future__ import annotations

import re

from dataclasses import dataclass

from ..model import Deck
from . import expr
from .compile import constant
from .checks import check_game
from .selectors import NOTHING, Selector, parse_selector, unknown_values
from .spec import (Bidding, CardPoints, Deal, End, FirstLead, Forbid, Passing, Play, Restriction, Role, RoundSuit,
                   Scoring, TrickRules, Trump)
from .vocabulary import (DEAL_NAMES, END_NAMES, MAKER_NAMES, MEMBER_NAMES, RANGE_NAMES, SCORE_NAMES, SIT_OUT_NAMES,
                         STATIC_NAMES, bid_context,
                         param_names, score_functions)

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing at start-up
if TYPE_CHECKING:
    from typing import Any, Mapping

_PARAM = re.compile(r"\$([A-Za-z_][A-Za-z0-9_]*)")
DIRECTIONS = ("left", "right", "across", "hold")
# the answers of `deckgen rule` a deck may word itself ([rules.explain]; docs/rules-language.md)
EXPLAIN_KEYS = ("always_wins", "always_loses", "trump", "led", "lead", "first_lead", "first_lead_otherwise", "open",
                "no_suit", "follow", "void")


@dataclass(frozen=True, slots=True)
class RuleProblem:
    field: str  # e.g. rules.deal.hand
    message: str
    hint: str = ""
    severity: str = "error"  # or "warning": the game is still played


class Problems(list):
    """`RuleProblem`s, in the order found."""

    def add(self, field: str, message: str, hint: str = "", severity: str = "error") -> None:
        self.append(RuleProblem(field, message, hint, severity))

    @property
    def errors(self) -> list[RuleProblem]:
        return [problem for problem in self if problem.severity == "error"]


def read_rules(raw: Mapping[str, Any], deck: Deck, params: Mapping[str, Any]) -> tuple[TrickRules | None, Problems]:
    """The rules for these parameters (None when an error keeps them from being played), and the problems."""
    reader = _Reader(raw, deck, params)
    rules = reader.read()
    return (None if reader.problems.errors else rules), reader.problems


class _Reader:
    def __init__(self, raw: Mapping[str, Any], deck: Deck, params: Mapping[str, Any]):
        self.raw = raw
        self.deck = deck
        self.params = dict(params)
        self.problems = Problems()
        self.rule_ids = {rule.id for rule in deck.rules()}
        self.ruling_ids = {ruling.id for ruling in deck.rulings}
        self.suit_ids = [suit.id for suit in deck.suits]
        self.param_types = param_names(self.params)
        self.choices = self.read_choices(raw.get("choices", {}))

    def read_choices(self, table: Mapping[str, Any]) -> dict[str, list]:
        """`[rules.choices]`: the values each parameter may take; a parameter set to another is refused."""
        for name, allowed in table.items():
            field = f"rules.choices.{name}"
            if name not in self.params:
                self.problems.add(field, f"{name} is not a parameter of [engine]; known: "
                                         f"{', '.join(sorted(self.params)) or 'none'}")
            elif self.params[name] not in allowed:
                shown = ", ".join(map(str, allowed))
                self.problems.add(field, f"{name} = {self.params[name]!r} is not one of its choices; allowed: {shown}",
                                  hint=f"set {name} to one of {shown} ([engine], a variant's or a log's params)")
        return dict(table)

    def check_literals(self, tree: tuple, field: str) -> None:
        """A parameter compared with text it can never be (a choice misspelt) is an error."""
        kind = tree[0]
        if kind == "binary" and tree[1] in ("==", "!="):
            for name_side, text_side in ((tree[2], tree[3]), (tree[3], tree[2])):
                if name_side[0] == "name" and text_side[0] == "str" and name_side[1] in self.choices \
                        and text_side[1] not in self.choices[name_side[1]]:
                    self.problems.add(field, f"{name_side[1]} is never {text_side[1]!r}; its choices: "
                                             f"{', '.join(map(str, self.choices[name_side[1]]))}")
        for part in tree[1:]:
            if isinstance(part, tuple) and part and isinstance(part[0], str):
                self.check_literals(part, field)
            elif isinstance(part, tuple):
                for item in part:
                    if isinstance(item, tuple) and item:
                        self.check_literals(item, field)

    # -- values ---------------------------------------------------------------------------------
    def value(self, table: Mapping[str, Any], key: str, field: str, default: Any = None) -> Any:
        """A field's value with a whole-value parameter ("$name") put in."""
        value = table.get(key, default)
        if isinstance(value, str) and value.startswith("$"):
            name = value[1:]
            if name not in self.params:
                self.problems.add(field, f"{value} names no parameter; the deck's [engine] table has "
                                         f"{', '.join(sorted(self.params)) or 'none'}",
                                  hint=f"add {name} = ... to [engine], or write the value here")
                return default
            return self.params[name]
        return value

    def choice(self, table, key: str, field: str, choices: tuple[str, ...], default: str) -> str:
        value = self.value(table, key, field, default)
        if value not in choices:
            self.problems.add(field, f"{value!r} is not allowed here; allowed: {', '.join(choices)}")
            return default
        return value

    def flag(self, table, key: str, field: str) -> bool:
        value = self.value(table, key, field, False)
        if not isinstance(value, bool):
            self.problems.add(field, f"expected true or false, found {value!r}")
            return False
        return value

    def rule(self, table, key: str, field: str, required: bool = True) -> str:
        """A rule id the referee cites; [rules] rule = ... stands in for any not given."""
        value = table.get(key, "") or (self.raw.get("rule", "") if required else "")
        if not value:
            if required:
                self.problems.add(field, "the rule the referee cites here is missing",
                                  hint="give the id of the [[sections.rules]] entry that says this, or one "
                                       "rule for all in [rules] rule = \"...\"")
            return ""
        if value not in self.rule_ids:
            self.problems.add(field, f"unknown rule {value!r}", hint="rule ids are the 'id' fields under [[sections.rules]]")
        return value

    def ruling(self, table, key: str, field: str) -> str:
        """A ruling cited with a rule; an unknown one is left out (a warning: the rule still decides)."""
        value = table.get(key, "")
        if value and value not in self.ruling_ids:
            self.problems.add(field, f"unknown ruling {value!r}, so it is not cited; known: "
                                     f"{', '.join(sorted(self.ruling_ids)) or 'none'}", severity="warning")
            return ""
        return value

    def selector(self, table, key: str, field: str, default: Selector = NOTHING) -> Selector:
        text = table.get(key)
        if text is None:
            return default
        text = self.substitute(text, field)
        try:
            selector = parse_selector(text)
        except ValueError as error:
            self.problems.add(field, str(error))
            return default
        for problem in unknown_values(selector, self.deck, "round_suit" in self.raw):
            self.problems.add(field, problem)
        return selector

    def substitute(self, text: str, field: str) -> str:
        """Parameters inside a selector's text (suit:$luck_suit)."""
        def put(match: re.Match) -> str:
            name = match.group(1)
            if name not in self.params or not isinstance(self.params[name], str):
                self.problems.add(field, f"${name} is not a text parameter of [engine]")
                return name
            return self.params[name]
        return _PARAM.sub(put, text)

    def expression(self, table, key: str, field: str, names: Mapping[str, str], wanted: str | None = "int",
                   functions: Mapping[str, expr.Function] | None = None, groups=None) -> tuple | None:
        """The checked tree of an expression field giving `wanted` (any type for None)."""
        value = self.value(table, key, field)
        if value is None:
            return None
        context = expr.Context({**self.param_types, **names}, functions or expr.FUNCTIONS, groups)
        tree = None
        try:
            tree = self.schedule(value, field) if isinstance(value, (list, dict)) else expr.number_or_parse(value)
            found = expr.check(tree, context) if tree[0] not in ("schedule", "table") else "int"
        except expr.ExprError as error:
            self.problems.add(field, str(error) + self.params_read(tree),
                              hint="docs/rules-language.md lists the names each field may read")
            return None
        self.check_literals(tree, field)
        if wanted is not None and found != wanted:
            self.problems.add(field, f"the expression gives {expr.TYPE_WORDS[found]}{self.params_read(tree)}; "
                                     f"{expr.TYPE_WORDS[wanted]} is needed here")
            return None
        return tree

    def params_read(self, tree: tuple | None) -> str:
        """The parameters an expression reads, with their values, for a message."""
        read = sorted(name for name in expr.names_in(tree) if name in self.params) if tree else []
        return f" (it reads {', '.join(f'{name} = {self.params[name]!r}' for name in read)})" if read else ""

    def schedule(self, value: Any, field: str) -> tuple:
        """A list of hand sizes by round, or a table of them by player count."""
        if isinstance(value, list):
            if not value or not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
                raise expr.ExprError("a schedule lists whole numbers, one per round")
            return ("schedule", tuple(value))
        table = {}
        for key, item in value.items():
            if not key.isdigit() or not isinstance(item, int) or isinstance(item, bool):
                raise expr.ExprError('a table by player count reads "4" = 13: a count in quotes and a number')
            table[int(key)] = item
        return ("table", table)

    def constant(self, tree: tuple | None, field: str, names: Mapping[str, Any] = {}) -> Any:
        """The value of an expression that reads only parameters (and `names`)."""
        if tree is None:
            return None
        from_names = {**self.params, **names}
        try:
            return constant(tree, from_names)
        except LookupError:
            self.problems.add(field, "this value may read only the parameters of [engine]")
            return None

    # -- the parts --------------------------------------------------------------------------------
    def read(self) -> TrickRules | None:
        raw, deck = self.raw, self.deck
        players = raw.get("players", {"min": deck.min_players, "max": deck.max_players})
        if players["min"] > players["max"]:
            self.problems.add("rules.players", f"min ({players['min']}) is greater than max ({players['max']})")
        teams = self.choice(raw, "teams", "rules.teams", ("none", "partners"), "none")
        round_suit = self.round_suit(raw.get("round_suit"))
        parts = dict(deal=self.deal(raw["deal"]), trump=self.trump(raw.get("trump", {"kind": "none"})),
                     play=self.play(raw["play"]), passing=self.passing(raw.get("passing")),
                     bidding=self.bidding(raw.get("bidding")), points=self.points(raw.get("points", [])))
        roles = raw.get("cards", {})
        always_wins = self.role(roles.get("always_wins"), "rules.cards.always_wins")
        always_loses = self.role(roles.get("always_loses"), "rules.cards.always_loses")
        any_time = self.selector(roles, "any_time", "rules.cards.any_time")
        named = parts["trump"].kind == "highest-bidder"  # the scoring may read who named trump, and the bid
        scoring = self.scoring(raw["scoring"], parts["bidding"] is not None, teams, bool(parts["points"]), named)
        end = self.end(raw["end"], parts["bidding"] is not None, scoring)
        if parts["trump"].kind == "highest-bidder" and parts["bidding"] is None:
            self.problems.add("rules.trump.kind", "a trump named by the highest bidder needs bids: add [rules.bidding], "
                              "or choose another kind (none, fixed, turn-up, dealer-card)")
        if self.problems.errors:
            return None
        rules = TrickRules(min_players=players["min"], max_players=players["max"],
                           round_name=raw.get("round_name", "round"), teams=teams, round_suit=round_suit,
                           always_wins=always_wins, always_loses=always_loses, any_time=any_time,
                           scoring=scoring, end=end, explain=self.explain(raw.get("explain", {})), params=self.params,
                           **parts)
        check_game(rules, deck, self.problems)
        return rules

    def deal(self, raw) -> Deal:
        field = "rules.deal"
        hand = self.expression(raw, "hand", f"{field}.hand", DEAL_NAMES)
        rule = self.rule(raw, "rule", f"{field}.rule")
        leftover = self.choice(raw, "leftover", f"{field}.leftover", ("set-aside", "first-trick", "stock"), "set-aside")
        stock = leftover == "stock"
        if "turned_in_stock" in raw and not stock:
            self.problems.add(f"{field}.turned_in_stock", "only a stock holds the turned card; set leftover = \"stock\"")
        return Deal(hand=hand or ("int", 1),
                    last_round_deals_all=self.flag(raw, "last_round_deals_all", f"{field}.last_round_deals_all"),
                    first_dealer=self.choice(raw, "first_dealer", f"{field}.first_dealer", ("any", "high-card", "first-seat"),
                                             "any"),
                    leftover=leftover,
                    dealer_sits_out=self.sits_out(raw, f"{field}.dealer_sits_out"),
                    turned_in_stock=self.choice(raw, "turned_in_stock", f"{field}.turned_in_stock", ("top", "bottom"),
                                                "bottom"),
                    rotation=1 if self.choice(raw, "rotation", f"{field}.rotation", ("left", "right"), "left") == "left"
                    else -1,
                    packets=self.packets(raw, f"{field}.packets"),
                    leftover_name=raw.get("leftover_name", "the stock" if stock else "the cards left over"),
                    leftover_key=raw.get("leftover_key", "stock" if stock else "aside"),
                    rule=rule,
                    dealer_rule=self.rule(raw, "dealer_rule", f"{field}.dealer_rule", False) or rule,
                    first_dealer_rule=self.rule(raw, "first_dealer_rule", f"{field}.first_dealer_rule", False) or rule,
                    deck_rule=self.rule(raw, "deck_rule", f"{field}.deck_rule"))

    def sits_out(self, raw, field: str) -> tuple | None:
        """[rules.deal] dealer_sits_out: true, false or a condition on players and round (None: never)."""
        value = raw.get("dealer_sits_out")
        if value is None:
            return None
        text = str(value).lower() if isinstance(value, bool) else value
        tree = self.expression({"x": text}, "x", field, SIT_OUT_NAMES, "bool")
        return None if tree is None or tree == ("bool", False) else tree

    def packets(self, raw, field: str) -> tuple[tuple[int, ...], ...]:
        """[rules.deal] packets: per lap of the deal, the cards each seat in turn is given at once."""
        laps = self.value(raw, "packets", field, [])
        found = []
        for index, lap in enumerate(laps if isinstance(laps, list) else [laps]):
            sizes = lap if isinstance(lap, list) else [lap]
            if not sizes or not all(isinstance(size, int) and not isinstance(size, bool) and size >= 1 for size in sizes):
                self.problems.add(field, f"lap {index + 1}: {lap!r} is not a packet size: give a whole number of "
                                         "cards (1 or more), or a list of them taken seat by seat")
                return ()
            found.append(tuple(sizes))
        return tuple(found)

    def round_suit(self, raw) -> RoundSuit | None:
        if raw is None:
            return None
        field = "rules.round_suit"
        skip = self.value(raw, "skip", f"{field}.skip", [])
        skip = [skip] if isinstance(skip, str) else skip
        indices = []
        for suit in skip:
            if suit not in self.suit_ids:
                self.problems.add(f"{field}.skip", f"no suit {suit!r}; known: {', '.join(self.suit_ids)}")
            else:
                indices.append(self.suit_ids.index(suit))
        if len(set(indices)) >= len(self.suit_ids):
            self.problems.add(f"{field}.skip", "every suit is skipped, so no suit can ever be revealed")
        named = tuple((name, self.selector(raw["cards"], name, f"{field}.cards.{name}")) for name in raw.get("cards", {}))
        return RoundSuit(raw["name"], raw.get("key", "round_suit"), tuple(sorted(set(indices))),
                         self.rule(raw, "rule", f"{field}.rule"), named)

    def trump(self, raw) -> Trump:
        field = "rules.trump"
        kind = self.choice(raw, "kind", f"{field}.kind", ("none", "fixed", "turn-up", "dealer-card", "highest-bidder"),
                           "none")
        suit = -1
        if kind == "fixed":
            named = self.value(raw, "suit", f"{field}.suit")
            if named not in self.suit_ids:
                self.problems.add(f"{field}.suit", f"a fixed trump needs a suit of the deck; known: {', '.join(self.suit_ids)}")
            else:
                suit = self.suit_ids.index(named)
        elif "suit" in raw:
            self.problems.add(f"{field}.suit", f"only kind = \"fixed\" names a suit; this trump is {kind!r}")
        turned = kind in ("turn-up", "dealer-card")
        for key in ("no_trump", "dealer_chooses"):
            if key in raw and not turned:
                self.problems.add(f"{field}.{key}", "only a turned-up trump card can do this; set kind = \"turn-up\"")
        dealer_chooses = self.selector(raw, "dealer_chooses", f"{field}.dealer_chooses")
        may_name_none = self.flag(raw, "may_name_none", f"{field}.may_name_none")
        if may_name_none and kind != "highest-bidder" and dealer_chooses.empty:
            self.problems.add(f"{field}.may_name_none", "nobody names trump in this game: no trump may be named only "
                                                        "where the highest bidder (kind = \"highest-bidder\") or the "
                                                        "dealer (dealer_chooses) names it")
        top = tuple(self.selector({"cards": text}, "cards", f"{field}.top[{index}]")
                    for index, text in enumerate(raw.get("top", ())))
        if top and kind == "none":
            self.problems.add(f"{field}.top", "cards above the other trumps need a trump suit; this game has none "
                                              "(kind = \"none\")")
        return Trump(kind, suit, self.selector(raw, "no_trump", f"{field}.no_trump"), dealer_chooses, may_name_none, top,
                     self.rule(raw, "rule", f"{field}.rule", required=kind != "none"),
                     self.ruling(raw, "choose_ruling", f"{field}.choose_ruling"))

    def role(self, raw, field: str) -> Role | None:
        if raw is None:
            return None
        return Role(self.selector(raw, "cards", f"{field}.cards"),
                    self.choice(raw, "among_equals", f"{field}.among_equals", ("first", "last"), "first"),
                    self.rule(raw, "lead_rule", f"{field}.lead_rule", False),
                    self.ruling(raw, "lead_ruling", f"{field}.lead_ruling"))

    def play(self, raw) -> Play:
        field = "rules.play"
        lead = raw.get("first_lead", {"by": "left-of-dealer"})
        by = self.choice(lead, "by", f"{field}.first_lead.by", ("left-of-dealer", "dealer", "holder"), "left-of-dealer")
        card = -1
        if by == "holder":
            ref = self.value(lead, "card", f"{field}.first_lead.card")
            found = self.deck.find_card(ref) if isinstance(ref, str) else None
            if found is None:
                self.problems.add(f"{field}.first_lead.card", f"by = \"holder\" needs the card its holder leads; "
                                                              f"{ref!r} is no card of the deck")
            else:
                card = [c.id for c in self.deck.cards].index(found.id)
        otherwise = self.choice(lead, "otherwise", f"{field}.first_lead.otherwise", ("", "lowest-of-suit"), "")
        lead_rule = self.rule(raw, "lead_rule", f"{field}.lead_rule")
        first_lead = FirstLead(by, card, otherwise,
                               self.rule(lead, "rule", f"{field}.first_lead.rule", False) or lead_rule,
                               self.ruling(lead, "ruling", f"{field}.first_lead.ruling"))
        restrictions = tuple(filter(None, (self.restriction(item, f"{field}.restrict[{index}]")
                                           for index, item in enumerate(raw.get("restrict", ())))))
        must_trump = self.flag(raw, "must_trump", f"{field}.must_trump")
        must_overtake = self.flag(raw, "must_overtake", f"{field}.must_overtake")
        return Play(first_lead, must_trump, must_overtake, restrictions,
                    lead_rule=lead_rule,
                    follow_rule=self.rule(raw, "follow_rule", f"{field}.follow_rule"),
                    follow_ruling=self.ruling(raw, "follow_ruling", f"{field}.follow_ruling"),
                    void_ruling=self.ruling(raw, "void_ruling", f"{field}.void_ruling"),
                    own_cards_rule=self.rule(raw, "own_cards_rule", f"{field}.own_cards_rule"),
                    winner_rule=self.rule(raw, "winner_rule", f"{field}.winner_rule"),
                    trump_rule=self.rule(raw, "trump_rule", f"{field}.trump_rule", must_trump or must_overtake))

    def restriction(self, raw, field: str) -> Restriction | None:
        when = self.expression(raw, "when", f"{field}.when", {}, "bool")
        if when is not None:
            if self.constant(when, f"{field}.when") is False:
                return None  # a variant that is off
        cards = self.selector(raw, "cards", f"{field}.cards")
        names = raw.get("name", "a card of that kind")
        names = (names,) if isinstance(names, str) else tuple(names)
        if len(names) not in (1, len(cards.alternatives)):
            self.problems.add(f"{field}.name", f"{len(names)} names for the {len(cards.alternatives)} alternatives "
                                               "of `cards`: give one name, or one per alternative")
        return Restriction(field, self.choice(raw, "to", f"{field}.to", ("lead", "follow", "any"), "any"),
                           self.choice(raw, "trick", f"{field}.trick", ("first", "later", "any"), "any"),
                           cards, names, self.flag(raw, "until_broken", f"{field}.until_broken"),
                           self.selector(raw, "breaks", f"{field}.breaks", cards), self.rule(raw, "rule", f"{field}.rule"),
                           self.ruling(raw, "ruling", f"{field}.ruling"), raw.get("message", ""), raw.get("explain", ""))

    def passing(self, raw) -> Passing | None:
        if raw is None:
            return None
        field = "rules.passing"
        count = self.constant(self.expression(raw, "count", f"{field}.count", {}), f"{field}.count")
        table = self.value(raw, "directions", f"{field}.directions", {})
        directions: dict[int, tuple[str, ...]] = {}
        if not isinstance(table, dict):
            self.problems.add(f"{field}.directions", "expected a table by player count, e.g. \"4\" = [\"left\", \"hold\"]")
            table = {}
        for key, cycle in table.items():
            where = f'{field}.directions."{key}"'
            if not str(key).isdigit():
                self.problems.add(where, f"{key!r} is not a player count")
                continue
            if not isinstance(cycle, list) or not cycle or any(d not in DIRECTIONS for d in cycle):
                self.problems.add(where, f"list directions from {', '.join(DIRECTIONS)}")
                continue
            directions[int(key)] = tuple(cycle)
        return Passing(count if isinstance(count, int) else 0, directions, self.flag(raw, "optional", f"{field}.optional"),
                       self.rule(raw, "rule", f"{field}.rule"), self.ruling(raw, "ruling", f"{field}.ruling"))

    def bidding(self, raw) -> Bidding | None:
        if raw is None:
            return None
        field = "rules.bidding"
        context = bid_context(self.param_types)
        forbids = []
        for index, item in enumerate(raw.get("forbid", ())):
            where = f"{field}.forbid[{index}]"
            when = self.expression(item, "when", f"{where}.when", context.names, "bool", context.functions)
            if when is not None:
                forbids.append(Forbid(where, item.get("id", f"restriction {index + 1}"), when,
                                      self.rule(item, "rule", f"{where}.rule"), self.ruling(item, "ruling", f"{where}.ruling"),
                                      item.get("message", ""), item.get("why", "")))
        return Bidding(self.expression(raw, "min", f"{field}.min", RANGE_NAMES) or ("int", 0),
                       self.expression(raw, "max", f"{field}.max", RANGE_NAMES) or ("int", 0),
                       self.choice(raw, "style", f"{field}.style", ("open", "hidden", "delayed"), "open"),
                       self.rule(raw, "rule", f"{field}.rule"),
                       self.rule(raw, "unrestricted_rule", f"{field}.unrestricted_rule", False), tuple(forbids))

    def points(self, raw) -> tuple[CardPoints, ...]:
        found = []
        for index, item in enumerate(raw):
            where = f"rules.points[{index}]"
            value = self.constant(self.expression(item, "points", f"{where}.points", {}), f"{where}.points")
            found.append(CardPoints(self.selector(item, "cards", f"{where}.cards"), value or 0))
        return tuple(found)

    def scoring(self, raw, bidding: bool, teams: str, points: bool, named: bool = False) -> Scoring:
        """The scoring; its rule is cited only by answers that show a trick's points, so it is
        needed only where cards are worth points."""
        field = "rules.scoring"
        by = self.choice(raw, "by", f"{field}.by", ("player", "team"), "player")
        if by == "team" and teams == "none":
            self.problems.add(f"{field}.by", "teams score only when there are teams; set [rules] teams = \"partners\"")
        carries = dict(raw.get("carry", {}))
        maker = MAKER_NAMES if named else {}
        names = {**SCORE_NAMES, **({"bid": "int"} if bidding else {}), **maker, **{name: "int" for name in carries}}
        members = expr.Context({**self.param_types, **MEMBER_NAMES, **({"bid": "int"} if bidding else {}), **maker},
                               score_functions(), None)
        groups = {"members": members}
        lets = []
        for name, text in raw.get("let", {}).items():
            where = f"{field}.let.{name}"
            if name in names or name in self.param_types:
                self.problems.add(where, f"{name!r} is already a name here; choose another")
                continue
            tree = self.expression({"x": text}, "x", where, names, None, score_functions(), groups)
            if tree is not None:  # a number or a condition
                names[name] = expr.check(tree, expr.Context({**self.param_types, **names}, score_functions(), groups))
                lets.append((name, tree))
        round_tree = self.expression(raw, "round", f"{field}.round", names, "int", score_functions(), groups)
        carried = []
        for name, text in carries.items():
            tree = self.expression({"x": text}, "x", f"{field}.carry.{name}", names, "int", score_functions(), groups)
            if tree is not None:
                carried.append((name, tree))
        selectors = []
        for tree in [tree for _, tree in lets] + [round_tree or ("int", 0)] + [tree for _, tree in carried]:
            for text in expr.literals(tree, "caught"):
                selector = self.selector({"cards": text}, "cards", field)
                if selector not in selectors:
                    selectors.append(selector)
        return Scoring(by, tuple(lets), tuple(carried), round_tree or ("int", 0),
                       self.rule(raw, "rule", f"{field}.rule", required=points), tuple(selectors))

    def explain(self, raw: Mapping[str, str]) -> dict[str, str]:
        unknown = sorted(set(raw) - set(EXPLAIN_KEYS))
        for key in unknown:
            self.problems.add(f"rules.explain.{key}", f"no answer of deckgen rule is called {key!r}; "
                                                      f"known: {', '.join(EXPLAIN_KEYS)}")
        return dict(raw)

    def end(self, raw, bidding: bool, scoring: Scoring) -> End:
        field = "rules.end"
        rounds = self.expression(raw, "rounds", f"{field}.rounds", STATIC_NAMES)
        target = self.constant(self.expression(raw, "target", f"{field}.target", {}), f"{field}.target")
        max_rounds = self.constant(self.expression(raw, "max_rounds", f"{field}.max_rounds", {}), f"{field}.max_rounds")
        if max_rounds is not None and max_rounds < 1:
            self.problems.add(f"{field}.max_rounds", f"max_rounds is {max_rounds}; allowed: 1 or more")
        if rounds is None and target is None:
            self.problems.add(field, "the game never ends: give rounds (a fixed number) or target (a score)")
        if target is not None and max_rounds is None and rounds is None:
            self.problems.add(f"{field}.max_rounds", "a game played to a target score needs max_rounds, a safety stop "
                                                     "for simulations in which nobody reaches it")
        tie_names = {**END_NAMES, **({"total_bids": "int"} if bidding else {}),
                     **{name: "int" for name, _ in scoring.carries}}
        return End(rounds, target, max_rounds,
                   self.choice(raw, "winner", f"{field}.winner", ("highest", "lowest"), "highest"),
                   self.expression(raw, "tie_break", f"{field}.tie_break", tie_names),
                   self.rule(raw, "rule", f"{field}.rule"))

