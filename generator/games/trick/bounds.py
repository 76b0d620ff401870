"""What a rules-engine game promises about every game it plays, for the generic checks: the
longest game in actions, and the lowest and highest final score, worked out from the rules
by interval arithmetic over the scoring expressions (each count between its least and most
in a round, a carried count between what its expression can give). Where an expression
cannot be bounded this way the bound is `UNBOUNDED`."""

from __future__ import annotations

from ...deck.trickrules.compile import fold
from ...deck.trickrules.selectors import NO_SUIT

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing at start-up
if TYPE_CHECKING:
    from typing import Mapping

UNBOUNDED = 10 ** 12
Interval = tuple[int, int]
WIDE = (-UNBOUNDED, UNBOUNDED)


def rounds_played(game, num_players: int) -> int:
    rounds = game.num_rounds(num_players)
    return rounds if rounds is not None else game.max_rounds


def max_actions(game, num_players: int) -> int:
    rules = game.rules
    total = 1  # the first dealer
    for number in range(1, rounds_played(game, num_players) + 1):
        hand = game.tricks(num_players, number)  # the cards each plays (a stock's included)
        total += 4  # round suit, deal, turned card, trump choice
        if rules.passing is not None:
            total += num_players * (rules.passing.count + 1)
        if rules.bidding is not None:
            total += num_players
        total += hand * num_players
    return total


def _round_suits(game) -> list[int]:
    suit = game.rules.round_suit
    return [s for s in range(game.num_suits) if s not in suit.skip] if suit else [NO_SUIT]


def _point_range(game) -> Interval:
    """The least and most card points one player can catch in a round: every negative card, or
    every positive one (the leftover included), whatever the round suit."""
    low = high = 0
    for suit in _round_suits(game):
        points = game.round_tables[NO_SUIT, suit].points
        copies = game.table.copies
        low = min(low, sum(p * c for p, c in zip(points, copies) if p < 0))
        high = max(high, sum(p * c for p, c in zip(points, copies) if p > 0))
    return low, high


def _caught_range(game, text: str) -> Interval:
    index = [selector.text for selector in game.rules.scoring.selectors].index(text)
    most = 0
    for suit in _round_suits(game):
        for trump in range(-1, game.num_suits):
            cards = game.round_tables[trump, suit].counted[index]
            most = max(most, sum(game.table.copies[card] for card in cards))
    return 0, most


def best_round(game, num_players: int) -> int:
    """The most any scorer can gain in one round (an upper bound)."""
    return round_ranges(game, num_players)[1]


def score_bounds(game, num_players: int) -> tuple[int, int]:
    lows, highs, worst_round = round_ranges(game, num_players, totals=True)
    if game.num_rounds(num_players) is None and game.target is not None:
        # the game stops after the round in which someone reaches the target
        highs = min(highs, game.target - 1 + max(0, worst_round[1]))
    return max(-UNBOUNDED, min(0, lows)), min(UNBOUNDED, max(0, highs))


def round_ranges(game, num_players: int, totals: bool = False):
    """The sums of the rounds' least and most points and the widest round; with `totals` False,
    the least and most of any one round."""
    rules = game.rules
    scorers = game.scorer_seats(num_players)
    members = len(scorers[0])
    points = _point_range(game)
    carried = {name: (0, 0) for name, _ in rules.scoring.carries}
    total = (0, 0)
    lows = highs = 0
    worst_round = (0, 0)
    for number in range(1, rounds_played(game, num_players) + 1):
        hand, tricks = game.hand(num_players, number), game.tricks(num_players, number)
        names = {"tricks": (0, tricks * members), "points": (points[0] * members, points[1] * members),
                 "hand": (hand, hand), "round": (number, number), "players": (num_players, num_players),
                 "playing": (game.playing(num_players, number),) * 2,
                 "score": total, **carried}
        if game.bidding is not None:
            env = {"hand": hand, "round": number, "players": num_players,
                   "playing": game.playing(num_players, number)}
            names["bid"] = (game.bidding.low(env) * members, game.bidding.high(env) * members)
        if game.trump_kind == "highest-bidder":  # who named trump, and their bid
            names["maker"] = (0, 1)
            names["contract"] = (game.bidding.low(env), game.bidding.high(env))
        member = {**names, "tricks": (0, tricks), "points": points}
        if game.bidding is not None:
            member["bid"] = (names["bid"][0] // members, names["bid"][1] // members)
        context = _Context(game, names, member, len(scorers), members)
        for name, tree in rules.scoring.lets:
            names[name] = context.interval(tree)
        got = context.interval(rules.scoring.round)
        for name, tree in rules.scoring.carries:
            new = context.interval(tree)
            carried[name] = (min(carried[name][0], new[0]), max(carried[name][1], new[1]))
        lows, highs = lows + got[0], highs + got[1]
        total = (max(-UNBOUNDED, lows), min(UNBOUNDED, highs))
        worst_round = (min(worst_round[0], got[0]), max(worst_round[1], got[1]))
    return (lows, highs, worst_round) if totals else worst_round


class _Context:
    """Intervals of the names of one round's scoring."""

    def __init__(self, game, names: Mapping[str, Interval], member: Mapping[str, Interval], scorers: int,
                 members: int):
        self.game = game
        self.members = members
        self.names = names
        self.member = member
        self.scorers = scorers

    def interval(self, tree: tuple, names: Mapping[str, Interval] | None = None) -> Interval:
        names = self.names if names is None else names
        tree = fold(tree, self.game.params)
        kind = tree[0]
        if kind == "int":
            return tree[1], tree[1]
        if kind == "bool":
            return int(tree[1]), int(tree[1])
        if kind == "name":
            return names.get(tree[1], WIDE)
        if kind == "unary":
            low, high = self.interval(tree[2], names)
            return (0, 1) if tree[1] == "not" else (-high, -low)
        if kind in ("and", "or") or (kind == "binary" and tree[1] in ("==", "!=", "<", "<=", ">", ">=")):
            return 0, 1
        if kind == "binary":
            return _arithmetic(tree[1], self.interval(tree[2], names), self.interval(tree[3], names))
        if kind == "call":
            return self.call(tree[1], tree[2], names)
        return WIDE

    def call(self, name: str, args: tuple, names) -> Interval:
        if name == "caught":
            return _caught_range(self.game, args[0][1])
        if name == "if":
            a, b = self.interval(args[1], names), self.interval(args[2], names)
            return min(a[0], b[0]), max(a[1], b[1])
        if name in ("min", "max"):
            parts = [self.interval(arg, names) for arg in args]
            pick = min if name == "min" else max
            return pick(p[0] for p in parts), pick(p[1] for p in parts)
        if name == "abs":
            low, high = self.interval(args[0], names)
            return (0 if low <= 0 <= high else min(abs(low), abs(high))), max(abs(low), abs(high))
        kind, _, group = name.partition("_")  # sum_all, count_members...
        inner = self.interval(args[0], self.member if group == "members" else names)
        count = self.members if group == "members" else self.scorers
        if kind == "count":
            return 0, count
        if kind == "sum":
            return inner[0] * count, inner[1] * count
        return inner


def _arithmetic(op: str, a: Interval, b: Interval) -> Interval:
    if op == "+":
        return a[0] + b[0], a[1] + b[1]
    if op == "-":
        return a[0] - b[1], a[1] - b[0]
    if op == "*":
        products = [x * y for x in a for y in b]
        return min(products), max(products)
    if op in ("//", "%") and b[0] == b[1] and b[0] > 0:
        divisor = b[0]
        return (a[0] // divisor, a[1] // divisor) if op == "//" else (0, divisor - 1)
    return WIDE
