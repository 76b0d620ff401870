"""Player programs for simulations: the protocol, the random player, and the base of the
engines' heuristic players.

A bot is any object with `choose(state) -> action`, called only when a seat (not chance)
is to act, returning one of `state.legal_actions()`. It may read everything the state
holds; a bot that peeks at other hands would be cheating, so heuristic bots read only
their own hand and what is public. Each bot owns its seeded `random.Random`, so a game
replays exactly from its seed.
"""

from __future__ import annotations

import random

from ..core.errors import OptionError
from .base import Action, Bot, Game, GameState

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing at start-up
if TYPE_CHECKING:
    from typing import Sequence

BOT_KINDS = ("random", "heuristic")


class RandomBot(Bot):
    """Picks uniformly among the legal actions."""

    def choose(self, state: GameState) -> Action:
        legal = state.legal_actions()
        return legal[int(self.rng.random() * len(legal))]


class HeuristicBot(Bot):
    """Base of a game's simple strategic player: subclasses implement `choose` from the
    state's public information and their own hand; `pick` breaks ties at random."""

    def pick(self, options: Sequence[Action]) -> Action:
        return options[0] if len(options) == 1 else options[self.rng.randrange(len(options))]


def make_bot(game: Game, kind: str, rng: random.Random) -> Bot:
    """A bot of `kind` ("random" or "heuristic") for `game`."""
    if kind == "random":
        return RandomBot(rng)
    if kind not in BOT_KINDS:
        raise OptionError(f"unknown bot {kind!r}; known: {', '.join(BOT_KINDS)}")
    return game.bot(kind, rng)


def parse_bot_kinds(text: str, num_players: int) -> list[str]:
    """`heuristic` (every seat) or `heuristic,random,random` (one per seat)."""
    kinds = [part.strip() for part in text.split(",") if part.strip()]
    for kind in kinds:
        if kind not in BOT_KINDS:
            raise OptionError(f"unknown bot {kind!r}; known: {', '.join(BOT_KINDS)}")
    if len(kinds) == 1:
        return kinds * num_players
    if len(kinds) != num_players:
        raise OptionError(f"--bot lists {len(kinds)} bots for {num_players} players; give one, or one per seat")
    return kinds
