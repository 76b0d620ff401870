"""Random playouts in compiled code: whole games between uniformly random players, move for
move the games the rules engine plays from the same generators, many times faster.

The C extension `generator.games._playout` (built with the package when a compiler is there)
implements two shapes of trick-taking game: Wizard's (hands growing by one, a turned trump
with cards that win, lose or let the dealer choose, bids with a last-bidder restriction, the
exact-bid score) and Wizard Hearts' (a round suit, passing, a lead card, a clean first trick,
card points, a target score). `shape` reads a rules-engine game's [rules] and, when they are
one of those shapes, the parameters the extension takes: sizes, card tables, which bidding
restriction, the passing offsets, the points of each card. Rules of any other shape, or a
subclass of the engine, play in Python; the results are the same either way
(tests/games/test_games_fastpath.py checks thousands of seeds against the Python engine).
`playout` returns None when it cannot play a game exactly.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Sequence

from . import playout_shapes as shapes

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
    """Whether games of this game's rules can be played compiled here."""
    return _playout is not None and shape(game) is not None


@dataclass(frozen=True, slots=True)
class Playout:
    """What `play_game` records of a game."""

    scores: tuple[int, ...]
    winners: tuple[int, ...]
    actions: int
    decisions: int
    rounds: int
    reason: str = "finished"


PASS_OFFSETS = {"left": 1, "right": -1, "hold": 1000}  # "across" is half the table; 1000: nobody passes


def playout(game, num_players: int, chance_rng: random.Random, bot_rngs: Sequence[random.Random],
            rounds: int | None = None, trace: list | None = None) -> Playout | None:
    """Play one game of `game` between random players drawing from `bot_rngs` (one per
    seat), chance from `chance_rng`, as `play_game` would; None when the compiled playout
    cannot. `rounds` cuts a Wizard-shaped game short (the benchmark's rounds 1..12); `trace`,
    if given, receives every decision as the engine's action int."""
    if _playout is None or type(chance_rng) is not random.Random or any(type(r) is not random.Random for r in bot_rngs):
        return None
    found = shape(game)
    if found is None:
        return None
    kind, tables = found
    play = _wizard if kind == "wizard" else _wizard_hearts
    return play(game, tables, num_players, chance_rng, bot_rngs, rounds, trace)


def shape(game) -> tuple[str, tuple] | None:
    """("wizard" | "hearts", the extension's tables) for a game whose rules it implements, else None;
    worked out once per game."""
    if "_playout_shape" not in game.__dict__:
        game._playout_shape = shapes.wizard_shape(game) or shapes.hearts_shape(game)
    return game._playout_shape


def _wizard(game, tables, num_players, chance_rng, bot_rngs, rounds, trace) -> Playout:
    restriction, tie_break_on_bids, physical, suit, rank, turned_trump = tables
    total_rounds = game.num_rounds(num_players) if rounds is None else rounds
    totals, bid_sums, actions, decisions, played, _ = _playout.wizard(
        num_players, total_rounds, restriction, game.num_suits, physical, suit, rank,
        turned_trump, chance_rng, list(bot_rngs), trace)
    best = max(totals)
    winners = [seat for seat, total in enumerate(totals) if total == best]
    if len(winners) > 1 and tie_break_on_bids:
        most = max(bid_sums[seat] for seat in winners)
        winners = [seat for seat in winners if bid_sums[seat] == most]
    return Playout(totals, tuple(winners), actions, decisions, played)


def _wizard_hearts(game, tables, num_players, chance_rng, bot_rngs, rounds, trace) -> Playout | None:
    skip, lead_card, pass_count, directions, broken, physical, suit, rank, queen, points = tables
    offsets = [num_players // 2 if direction == "across" else PASS_OFFSETS[direction]
               for direction in directions[num_players]]
    totals, _, actions, decisions, hands, capped = _playout.wizard_hearts(
        num_players, game.max_rounds, game.target, pass_count, offsets, skip, lead_card,
        game.leftover_to_first_trick, broken, game.num_suits, physical, suit, rank,
        queen, points, chance_rng, list(bot_rngs), trace)
    low = min(totals)
    return Playout(totals, tuple(seat for seat, total in enumerate(totals) if total == low), actions, decisions,
                   hands, "turn-cap" if capped else "finished")
