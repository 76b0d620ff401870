"""Random playouts in compiled code: whole games between uniformly random players, move for
move the games the Python engines play from the same generators, many times faster.

The Python engines stay the reference (every rule, every message); `generator.games._playout`
(a C extension built with the package when a compiler is there) plays only what
`play_game` plays with random bots and reports the record. `playout` returns None when it
cannot play a game exactly (no extension, an engine or table it does not cover, generators
that are not plain `random.Random`), and the caller plays it in Python; the results are the
same either way (tests/games/test_games_fastpath.py).
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


def supports(game) -> bool:
    """Whether games of this engine can be played compiled here: only the shipped engine
    classes themselves (a subclass may change the rules)."""
    return _playout is not None and _engine_key(game) in _ENGINES


def _engine_key(game) -> tuple[str, str]:
    return type(game).__module__, type(game).__qualname__


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
    play = _ENGINES.get(_engine_key(game))
    return None if play is None else play(game, num_players, chance_rng, bot_rngs, rounds, trace)


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


PASS_OFFSETS = {"left": 1, "right": -1, "hold": 1000}  # "across" is half the table; 1000: nobody passes


def _hearts_tables(game) -> tuple:
    table = game.table
    suits = range(len(table.suits))
    queen = tuple(game.opposite_queen.get(suit, -1) for suit in suits)
    points = tuple(game._points.get(suit, ()) for suit in suits)
    # every suit the reveal can show has its Opposite Queen, else the Python engine says what is wrong
    exact = all(suit in game.opposite_queen for suit in set(table.suit) if suit != game.luck)
    return exact, tuple(table.physical), table.suit, table.rank, queen, points


def _wizard_hearts(game, num_players, chance_rng, bot_rngs, rounds, trace) -> Playout | None:
    exact, physical, suit, rank, queen, points = _tables(game, _hearts_tables)
    if not exact:
        return None
    p = game.params
    offsets = [num_players // 2 if direction == "across" else PASS_OFFSETS[direction]
               for direction in p["passing"][str(num_players)]]
    totals, _, actions, decisions, hands, capped = _playout.wizard_hearts(
        num_players, p["max_hands"], p["target_score"], p["pass_count"], offsets, game.luck, game.lead_card,
        game.cauldron_to_first_trick, game.shun_must_be_broken, len(game.table.suits), physical, suit, rank,
        queen, points, chance_rng, list(bot_rngs), trace)
    low = min(totals)
    return Playout(totals, tuple(seat for seat, total in enumerate(totals) if total == low), actions, decisions,
                   hands, "turn-cap" if capped else "finished")


_ENGINES = {("generator.games.wizard", "WizardGame"): _wizard,
            ("generator.games.wizard_hearts", "WizardHeartsGame"): _wizard_hearts}
