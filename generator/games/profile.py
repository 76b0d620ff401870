"""What an engine declares for the tools around play, beyond the moves themselves: how the
playtest reads a game cheaply (`PlaytestProfile`) and what a virtual table needs before play
starts (`TableKit`). A `Game` class sets them as the class attributes `playtest` and `table_kit`;
the defaults suit any engine, so declaring them is a refinement, never a requirement.
"""

from __future__ import annotations

from dataclasses import dataclass, field

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing at start-up
if TYPE_CHECKING:
    from typing import Any, Callable, Hashable, Iterable, Mapping, Sequence

    from ..deck.model import Card, Deck
    from .base import Game, GameState


def _summary_scores(state: "GameState") -> Sequence[int]:
    return state.summary()["scores"]


def _never(card: "Card") -> bool:
    return False


def _same_key(game: "Game", key: Hashable) -> str:
    return str(key)


@dataclass(frozen=True)
class PlaytestProfile:
    """What `deckgen validate`'s playtest reads of a game beyond the generic API. Each field is
    optional: without it the playtest still plays, counts wins and lengths, and watches scores."""

    # Compare the leader after each round the summary lists with totals (games of rounds, such
    # as trick games), rather than at the start of each cycle of turns (one long match).
    lead_by_rounds: bool = False
    # function(game, state, player, action) -> codes of the cards that action puts into play;
    # set where playing a card is a choice among many (Dvorak decks), to count card usage.
    card_plays: Callable[["Game", "GameState", int, Any], Sequence[str]] | None = None
    # The id of the card whose entry into play is the only way a game ends.
    ending_card: str | None = None
    # Cards the rules never let anyone play (shown, or always in play).
    never_played: Callable[["Card"], bool] = _never
    # The scores so far; the summary's by default, a cheaper read where the state keeps them
    # (sampled once per cycle of turns, it is the watcher's main cost).
    scores: Callable[["GameState"], Sequence[int]] = _summary_scores
    # The cards in a seat's hand by the engine's own key (a list, or a key -> copies mapping),
    # and that key's card code: for the card figures (hands as dealt; held and played).
    hand: Callable[["GameState", int], Iterable[Hashable]] | None = None
    code: Callable[["Game", Hashable], str] = _same_key
    # The round a state is in, for engines that deal new hands every round (trick games): card
    # effects are then measured per round, from each round's deal; None for a single deal.
    round_of: Callable[["GameState"], int] | None = None


def _nothing_set_aside(deck: "Deck", params: Mapping[str, Any]) -> tuple[tuple["Card", ...], tuple["Card", ...]]:
    return (), ()


@dataclass(frozen=True)
class TableKit:
    """What a virtual table (the MUSH table, the Lackey plugin, the Tabletop Simulator save)
    sets up for this engine's game."""

    # Per-player counters, one lower-case word each (a MUSH command takes them as arguments).
    counters: tuple[str, ...] = ("score",)
    # The same as Lackey shows them as player stats; None: a Score when the deck has a scoring
    # section, as for a deck with no engine.
    stats: tuple[str, ...] | None = None
    # Per-player face-up zones besides hand, discard and play (a pile of won tricks).
    piles: tuple[str, ...] = ()
    # Cards go to the centre one trick at a time and a round is dealt at once.
    trick_game: bool = False
    # A trick game that turns up a card for trump after the deal.
    turns_up_trump: bool = False
    # function(deck, params) -> (cards face up in the centre, the discard pile bottom first)
    # at the start of play.
    set_aside: Callable[["Deck", Mapping[str, Any]], tuple[tuple["Card", ...], tuple["Card", ...]]] = field(
        default=_nothing_set_aside)
