"""Player programs for simulations: the protocol, the random player, the base of the engines'
heuristic players, and the names players go by (`--bot`).

A bot is any object with `choose(state) -> action`, called only when a seat (not chance)
is to act, returning one of `state.legal_actions()`. It may read everything the state
holds; a bot that peeks at other hands would be cheating, so heuristic bots read only
their own hand and what is public, and search players see the others' cards only through
`GameState.determinize`. Each bot owns its seeded `random.Random`, so a game replays
exactly from its seed.

Names: `random`, `heuristic`, and the search players `pimc-N` and `ismcts-N` with a budget N
(worlds sampled, or iterations: see `generator.games.search`).
"""

from __future__ import annotations

import random
import re
from functools import partial

from ..core.errors import DeckgenError, OptionError
from .base import Action, Bot, Game, GameState
from .search import IsmctsBot, PimcBot, can_search

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing at start-up
if TYPE_CHECKING:
    from typing import Sequence

BOT_KINDS = ("random", "heuristic", "pimc-N", "ismcts-N")  # as messages and help texts name them
SEARCH_PLAYERS = {"pimc": PimcBot, "ismcts": IsmctsBot}
MAX_BUDGET = 100_000  # iterations or worlds per decision: past it a typo, not a plan
_SEARCH_NAME = re.compile(r"(pimc|ismcts)-(\d+)")


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


def check_bot(kind: str) -> str:
    """The bot name as given, or an OptionError saying which names exist."""
    if kind in ("random", "heuristic"):
        return kind
    match = _SEARCH_NAME.fullmatch(kind)
    if match is None:
        raise OptionError(f"unknown bot {kind!r}; known: {', '.join(BOT_KINDS)} (N: a budget such as 200)")
    if not 1 <= int(match[2]) <= MAX_BUDGET:
        raise OptionError(f"bot {kind!r}: the budget is 1 to {MAX_BUDGET:,}")
    return kind


def is_search(kind: str) -> bool:
    return _SEARCH_NAME.fullmatch(kind) is not None


def make_bot(game: Game, kind: str, rng: random.Random) -> Bot:
    """A bot of `kind` (see the module doc) for `game`."""
    if kind == "random":
        return RandomBot(rng)
    check_bot(kind)
    if kind == "heuristic":
        return game.bot(kind, rng)
    if not can_search(game):
        raise DeckgenError(f"the {game.id} engine cannot sample what a seat has not seen, so it has no {kind} player")
    name, budget = _SEARCH_NAME.fullmatch(kind).groups()
    return SEARCH_PLAYERS[name](game, int(budget), rng, partial(rollout_player, game))


def rollout_player(game: Game, rng: random.Random) -> Bot:
    """The player a search plays its sampled worlds out with: the engine's heuristic, else random."""
    try:
        return game.bot("heuristic", rng)
    except DeckgenError:
        return RandomBot(rng)


def parse_bot_kinds(text: str, num_players: int) -> list[str]:
    """`heuristic` (every seat) or `ismcts-200,heuristic,heuristic` (one per seat)."""
    kinds = [check_bot(part.strip()) for part in text.split(",") if part.strip()]
    if len(kinds) == 1:
        return kinds * num_players
    if len(kinds) != num_players:
        raise OptionError(f"--bot lists {len(kinds)} bots for {num_players} players; give one, or one per seat")
    return kinds
