"""Games stopped by the length cap, explained: the position that kept repeating.

A capped game is replayed from its seed (the playtest keeps the first few of each run) with the
same players, noting at every decision the engine's `GameState.situation()`: what stands
between that position and the end of the game, in words that name no seat. The situation the
capped games spent most of their decisions in is the stall the report names.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Mapping, Sequence

from ..deck.model import Deck
from ..games.base import GameState, game_for
from ..games.simulate import play_game
from .tally import CAPPED, Failure


def stall_note(deck: Deck, params: Mapping[str, Any], players: int, bot: str, examples: Sequence[Failure]) -> str:
    """`; the position that repeats: ...` for the capped games among `examples`, replayed with
    `bot` in every seat ("" when there are none, or the engine does not describe positions)."""
    capped = [example for example in examples if example.kind == CAPPED]
    if not capped or "/" in bot:  # a mix of players: the runs' own players are one kind
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
