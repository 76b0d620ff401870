"""The names each expression of `[rules]` may read, with their types, and the functions it may
call: one table per place an expression is written (docs/rules-language.md prints them).
Every parameter of the deck's `[engine]` table that is a number, true/false or text is a
name everywhere, under its own name."""

from __future__ import annotations

from .expr import FUNCTIONS, Context, Function

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing at start-up
if TYPE_CHECKING:
    from typing import Any, Mapping

INT, BOOL = "int", "bool"

# rules.deal.dealer_sits_out: whether the dealer sits a round out
SIT_OUT_NAMES = {"round": INT, "players": INT}
# rules.deal.hand: the hand size of a round (`playing`: the players dealt in, the dealer left out
# where the dealer sits out, else `players`)
DEAL_NAMES = {"round": INT, "players": INT, "playing": INT, "cards": INT}
# rules.end.rounds
STATIC_NAMES = {"players": INT, "cards": INT}
# rules.bidding.min / max
RANGE_NAMES = {"hand": INT, "round": INT, "players": INT, "playing": INT}
# rules.bidding.forbid[].when: one bid by one player
BID_NAMES = {
    "bid": INT, "hand": INT, "round": INT, "players": INT, "playing": INT,
    "bids_before": INT,  # the sum of the bids made before this one this round
    "bidders_before": INT,
    "last": BOOL,  # the last to bid, when bids are open (hidden and delayed bids have no last bidder)
    "ahead": BOOL,  # strictly ahead of every other player on the score sheet
    "final_round": BOOL,
    "score": INT,  # the bidder's total before this round
}
# rules.scoring.*: one scorer (a player, or a team adding its members' counts)
SCORE_NAMES = {
    "tricks": INT, "points": INT,  # tricks taken; points of the cards caught ([[rules.points]])
    "score": INT,  # the total before this round
    "hand": INT, "round": INT, "players": INT, "playing": INT,
}
# rules.scoring.*, where the highest bidder names trump: whether the scorer (or a member of the
# team) named it, and the bid that let them (the "contract")
MAKER_NAMES = {"maker": BOOL, "contract": INT}
# inside sum_members(...) and the like: one member of the team
MEMBER_NAMES = {"tricks": INT, "points": INT, "hand": INT, "round": INT, "players": INT, "playing": INT}
# rules.end.tie_break: one player at the end
END_NAMES = {"score": INT, "total_tricks": INT}


def param_names(params: Mapping[str, Any]) -> dict[str, str]:
    """The parameters an expression may read, by type."""
    names = {}
    for name, value in params.items():
        if isinstance(value, bool):
            names[name] = BOOL
        elif isinstance(value, int):
            names[name] = INT
        elif isinstance(value, str):
            names[name] = "str"
    return names


def bid_context(param_types: Mapping[str, str]) -> Context:
    return Context({**param_types, **BID_NAMES}, FUNCTIONS)


def score_functions() -> dict[str, Function]:
    """The functions of scoring: the plain ones, caught('selector') and the aggregates over
    every scorer (`_all`) and over a team's members (`_members`)."""
    functions = dict(FUNCTIONS)
    functions["caught"] = Function(("str",), INT, literal=True)
    for group in ("all", "members"):
        for name in ("sum", "max", "min"):
            functions[f"{name}_{group}"] = Function((INT,), INT, each=group)
        functions[f"count_{group}"] = Function((BOOL,), INT, each=group)
    return functions
