"""Random playouts in compiled code: whole games between uniformly random players, move for
move the games the Python engines play from the same generators, many times faster.

The Python engines stay the reference (every rule, every message); `generator.games._playout`
(a C extension built with the package when a compiler is there) plays only what
`play_game` plays with random bots and reports the record. `playout` returns None when it
cannot play a game exactly (no extension, an engine or table it does not cover, generators
that are not plain `random.Random`), and the caller plays it in Python; the results are the
same either way (tests/test_games_fastpath.py).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Sequence

try:
    from . import _playout
except ImportError as error:  # built without a C compiler, or from a plain source tree
    _playout = None
    _MISSING = f"the extension generator.games._playout is not built ({error})"
else:
    _MISSING = ""


def available() -> bool:
    return _playout is not None


def why_unavailable() -> str:
    return _MISSING


@dataclass(frozen=True, slots=True)
class Playout:
    """What `play_game` records of a game."""

    scores: tuple[int, ...]
    winners: tuple[int, ...]
    actions: int
    decisions: int
    rounds: int
    reason: str = "finished"


RESTRICTION_CODES = {"none": 0, "every-round": 1, "final-round": 2, "never-even": 3}
TURNED_WIZARD = -3  # a turned Wizard: the dealer names trump


def playout(game, num_players: int, chance_rng: random.Random, bot_rngs: Sequence[random.Random],
            rounds: int | None = None, trace: list | None = None) -> Playout | None:
    """Play one game of `game` between random players drawing from `bot_rngs` (one per
    seat), chance from `chance_rng`, as `play_game` would; None when the compiled playout
    cannot. `rounds` cuts a Wizard game short (the benchmark's rounds 1..12); `trace`, if
    given, receives every decision as the engine's action int."""
    if _playout is None or type(chance_rng) is not random.Random or any(type(r) is not random.Random for r in bot_rngs):
        return None
    if game.id == "wizard":
        return _wizard(game, num_players, chance_rng, bot_rngs, rounds, trace)
    return None


def _tables(game, build) -> tuple:
    """The engine's tables as the extension reads them, built once per game."""
    tables = game.__dict__.get("_playout_tables")
    if tables is None:
        tables = game._playout_tables = build(game)
    return tables


def _wizard_tables(game) -> tuple:
    table = game.table
    turned_trump = tuple(TURNED_WIZARD if wizard else -1 if jester else suit
                         for wizard, jester, suit in zip(game.is_wizard, game.is_jester, table.suit))
    return tuple(table.physical), table.suit, table.rank, turned_trump


def _wizard(game, num_players, chance_rng, bot_rngs, rounds, trace) -> Playout:
    physical, suit, rank, turned_trump = _tables(game, _wizard_tables)
    total_rounds = game.num_rounds(num_players) if rounds is None else rounds
    totals, bid_sums, actions, decisions, played, _ = _playout.wizard(
        num_players, total_rounds, RESTRICTION_CODES[game.restriction], game.num_suits, physical, suit, rank,
        turned_trump, chance_rng, list(bot_rngs), trace)
    best = max(totals)
    winners = [seat for seat, total in enumerate(totals) if total == best]
    if len(winners) > 1 and game.params["tie_break"] == "sum-of-bids":
        most = max(bid_sums[seat] for seat in winners)
        winners = [seat for seat in winners if bid_sums[seat] == most]
    return Playout(totals, tuple(winners), actions, decisions, played)
