"""Games that did not end well, explained: an engine failure sorted into its kind (a dead end,
a game past its declared length, an error with the line it came from), and for games stopped by
the length cap, the position that kept repeating.

A capped game is replayed from its seed (the playtest keeps the first few of each run) with the
same players, noting at every decision the engine's `GameState.situation()`: what stands
between that position and the end of the game, in words that name no seat. The situation the
capped games spent most of their decisions in is the stall the report names.
"""

from __future__ import annotations

import sys
import sysconfig
import traceback
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping, Sequence

from ..core.errors import DeckgenError
from ..deck.model import Deck
from ..games.base import GameState, game_for
from ..games.simulate import play_game


@dataclass(frozen=True)
class Failure:
    kind: str  # "setting", "engine error", "no legal action", "endless"; CAPPED for a kept capped game
    index: int
    seed: int
    message: str


FAILURE_KINDS = ("setting", "engine error", "no legal action", "endless")
CAPPED = "capped"  # not a failure: a game stopped by the length cap, kept to explain the stall


def _where(error: BaseException) -> str:
    """The innermost frame outside Python's own library in a traceback: file:line function."""
    libraries = tuple({sys.prefix, sys.base_prefix, sysconfig.get_paths()["purelib"]})
    frames = [f for f in traceback.extract_tb(error.__traceback__) if not f.filename.startswith(libraries)]
    if not frames:
        return ""
    frame = frames[-1]
    return f" at {Path(frame.filename).name}:{frame.lineno} in {frame.name}"


def classify(error: Exception, state: GameState | None, index: int, seed: int) -> Failure:
    """What kind of failure an exception raised while playing a game is."""
    if state is not None and state.current_player() >= 0:
        try:
            stuck = not state.legal_actions()
        except Exception:  # noqa: BLE001 - a state that cannot even list its actions is itself the finding
            stuck = False
        if stuck:
            summary = state.summary()
            return Failure("no legal action", index, seed,
                           f"{state.player_name(state.current_player())} is to act but has no legal action "
                           f"(scores {summary.get('scores')})")
    if isinstance(error, DeckgenError) and "declared length" in str(error):
        return Failure("endless", index, seed, str(error))
    return Failure("engine error", index, seed, f"{type(error).__name__}: {error}{_where(error)}")


def stall_note(deck: Deck, params: Mapping[str, Any], players: int, bot: str, examples: Sequence[Failure]) -> str:
    """`; the position that repeats: ...` for the capped games among `examples`, replayed with
    `bot` in every seat ("" when there are none, or the engine does not describe positions)."""
    capped = [example for example in examples if example.kind == CAPPED]
    if not capped or bot == "mixed":
        return ""
    game = game_for(deck, params)
    seen: Counter[str] = Counter()

    def note(state: GameState, player: int, action: Any) -> None:
        if player >= 0:
            seen[state.situation()] += 1

    for example in capped:
        play_game(game, players, example.seed, [bot] * players, index=example.index, observe=note)
    if not seen:
        return ""
    situation, count = seen.most_common(1)[0]
    if not situation:
        return ""
    games = ", ".join(str(example.index + 1) for example in capped)
    return (f"; the position that repeats (in games {games}, {count / sum(seen.values()):.0%} of their decisions): "
            f"{situation}")
