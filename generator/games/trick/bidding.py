"""Bidding by the rules' `[rules.bidding]`: the range of bids, the bids a `forbid` entry rules
out (an expression over the bid and the table, e.g. Wizard's "the last bidder, strictly
ahead, may not make the bids add up to the tricks"), and the refusal of a bid that is not
allowed, with the entry's own rule, ruling and message.

Each `forbid` condition is split at its top-level `and`s: the parts that do not read `bid`
are tested once per decision, and only when they all hold is each bid in the range tested.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...deck.trickrules.compile import compile_expr, fold
from ...deck.trickrules.expr import names_in
from ..base import IllegalAction
from .actions import BID
from .flow import after_bidding

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing at start-up
if TYPE_CHECKING:
    from typing import Any, Callable

    from ...deck.trickrules.spec import Forbid


@dataclass(frozen=True)
class CompiledForbid:
    spec: Forbid
    before: Callable[[dict], bool]  # the parts that do not read the bid
    with_bid: Callable[[dict], bool]
    before_parts: tuple[tuple, ...]  # those parts as trees, in order (deckgen rule explains the first false)


def _conjuncts(tree: tuple) -> list[tuple]:
    if tree[0] == "and":
        return _conjuncts(tree[1]) + _conjuncts(tree[2])
    return [tree]


def _all(parts: list[tuple]) -> Callable[[dict], bool]:
    """The parts joined again by `and` (tested left to right, stopping at the first false)."""
    if not parts:
        return lambda env: True
    tree = parts[0]
    for part in parts[1:]:
        tree = ("and", tree, part)
    return compile_expr(tree)


def _strictly_ahead(state) -> bool:
    totals = state.totals
    mine = totals[state.turn]
    return mine == max(totals) and totals.count(mine) == 1


# How each name of a bid's expression is read from the state, when an expression asks for it.
_READ = {
    "hand": lambda state: state.hand_size,
    "round": lambda state: state.round + 1,
    "players": lambda state: state.num_players,
    "playing": lambda state: state.info.playing,
    "bids_before": lambda state: sum(bid for bid in state.bids if bid is not None),
    "bidders_before": lambda state: state.info.bids_made,
    "last": lambda state: state.game.bidding.spec.style == "open" and state.info.bids_made == state.info.playing - 1,
    "ahead": _strictly_ahead,
    "final_round": lambda state: state.rounds_total is not None and state.round + 1 == state.rounds_total,
    "score": lambda state: state.totals[state.turn],
}


class _Table(dict):
    """The names of a bid's expressions, each read from the state the first time it is asked for."""

    __slots__ = ("state",)

    def __missing__(self, name: str):
        value = self[name] = _READ[name](self.state)
        return value


class BiddingRules:
    """The compiled bidding of one game."""

    def __init__(self, rules, params: dict):
        self.spec = rules.bidding
        self.rules = rules
        self.low = compile_expr(self.spec.low, params)
        self.high = compile_expr(self.spec.high, params)
        self.ranges: dict[tuple[int, int], tuple[int, ...]] = {}  # the bid actions from low to high
        # the range read without an expression where it is a fixed number and the hand
        low, high = fold(self.spec.low, params), fold(self.spec.high, params)
        self.fixed_low = low[1] if low[0] == "int" else None
        self.high_is_hand = high[:2] == ("name", "hand")
        self.forbids = []
        # hidden and delayed bids have no last bidder, so what binds only the last bidder never binds
        constants = {**params, **({} if self.spec.style == "open" else {"last": False})}
        for forbid in self.spec.forbids:
            folded = fold(forbid.when, constants)
            if folded == ("bool", False):
                continue  # a variant that is off
            parts = _conjuncts(folded)
            before = [part for part in parts if "bid" not in names_in(part)]
            after = [part for part in parts if "bid" in names_in(part)]
            self.forbids.append(CompiledForbid(forbid, _all(before), _all(after), tuple(before)))

    # -- the table as an expression reads it ----------------------------------------------------
    @staticmethod
    def env(state) -> dict:
        table = _Table()
        table.state = state
        return table

    def allowed(self, env: dict) -> tuple[list[int], dict[int, Forbid]]:
        """The bids allowed, and each forbidden bid with the entry that forbids it."""
        low, high = self.low(env), self.high(env)
        active = [forbid for forbid in self.forbids if forbid.before(env)]
        if not active:
            return list(range(low, high + 1)), {}
        allowed, forbidden = [], {}
        for bid in range(low, high + 1):
            env["bid"] = bid
            entry = next((forbid.spec for forbid in active if forbid.with_bid(env)), None)
            if entry is None:
                allowed.append(bid)
            else:
                forbidden[bid] = entry
        env.pop("bid", None)
        return allowed, forbidden

    def legal_actions(self, state) -> list[int]:
        """The bid actions allowed, kept on the state until the next bid (so applying one of
        them need not ask the rules again)."""
        info = state.info
        key = state.round << 8 | info.bids_made
        cached = info.bid_cache
        if cached[0] == key:
            return list(cached[1])
        env = self.env(state)
        low = self.low(env) if self.fixed_low is None else self.fixed_low
        high = state.hand_size if self.high_is_hand else self.high(env)
        for forbid in self.forbids:
            if forbid.before(env):
                break
        else:
            forbid = None
        if forbid is not None:
            actions = tuple(BID + bid for bid in self.allowed(env)[0])
        else:
            actions = self.ranges.get((low, high))
            if actions is None:
                actions = self.ranges[low, high] = tuple(range(BID + low, BID + high + 1))
        info.bid_cache = (key, actions)
        return list(actions)

    def pending_rule(self, state) -> str:
        forbidden = self.allowed(self.env(state))[1]
        return next(iter(forbidden.values())).rule if forbidden else self.spec.rule

    # -- a bid --------------------------------------------------------------------------------
    def forbidding(self, env: dict, bid: int) -> Forbid | None:
        """The entry that forbids this bid, if one does."""
        for forbid in self.forbids:
            if forbid.before(env):
                env["bid"] = bid
                found = forbid.with_bid(env)
                del env["bid"]
                if found:
                    return forbid.spec
        return None

    def apply(self, state, action: Any) -> None:
        seat = state.turn
        info = state.info
        cached = info.bid_cache
        if cached[0] != state.round << 8 | info.bids_made or action not in cached[1]:
            self.refuse(state, seat, action)  # or, if it is allowed after all, go on
        state.bids[seat] = action - BID
        info.bids_made += 1
        if info.bids_made == info.playing:
            after_bidding(state)
        else:
            state.turn = state.next_seat[seat]

    def refuse(self, state, seat: int, action: Any) -> None:
        """Raise the refusal of a bid the rules do not allow (return if they allow it)."""
        env = self.env(state)
        bid = action - BID if type(action) is int else None
        low, high = self.low(env), self.high(env)
        if bid is None or not low <= bid <= high:
            raise IllegalAction(f"a bid is a whole number from {low} to {high}, not {bid if bid is not None else action}",
                                self.spec.rule, [str(b) for b in self.allowed(env)[0]], state.where(seat))
        entry = self.forbidding(env, bid)
        if entry is not None:
            message = entry.message or "bid {bid} is not allowed here"
            values = {name: env[name] for name in _READ}  # every number a message may show
            raise IllegalAction(fill(message, {**values, "bid": bid, "player": state.player_name(seat)}), entry.rule,
                                [str(b) for b in self.allowed(env)[0]], state.where(seat), ruling=entry.ruling)
        state.info.bid_cache = (state.round << 8 | state.info.bids_made, (BID + bid,))  # allowed: apply it


def fill(template: str, values: dict) -> str:
    """A message of the deck's with {name} filled in for each value; other braces stay."""
    for key, value in values.items():
        if not key.startswith("*"):
            template = template.replace("{" + key + "}", str(value).lower() if isinstance(value, bool) else str(value))
    return template
