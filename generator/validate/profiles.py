"""What the playtest knows about each engine beyond the generic Game API: how its scores are
read cheaply, where a seat's hand is, which actions put cards into play, and which cards the
rules never let anyone play. One entry per engine; an engine without one gets the defaults."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Hashable, Iterable, Sequence

from ..deck.model import Card
from ..games.base import Game, GameState
from ..games.quidditch_v2_cards import SNITCH, Play, Reveal


def _quidditch_v2_plays(game: Game, state: GameState, player: int, action: Any) -> Sequence[str]:
    """A card played from hand; the Golden Snitch, however it came (from hand or by a Search),
    counts once per showdown for the player whose turn it is, when that player shows Seekers."""
    if isinstance(action, Play) and action.card != SNITCH:
        return (game.facts[action.card].code,)
    if isinstance(action, Reveal) and player == state.active:
        return (game.facts[SNITCH].code,)
    return ()


@dataclass(frozen=True)
class EngineProfile:
    """What the playtest knows about an engine beyond the generic Game API."""

    # Compare the leader after each round the summary lists with totals (trick games), rather
    # than at the start of each cycle of turns (one long match).
    lead_by_rounds: bool = False
    # function(game, state, player, action) -> codes of the cards that action puts into play;
    # set for games where playing a card is a choice (Dvorak decks), to count card usage.
    card_plays: Callable[[Game, GameState, int, Any], Sequence[str]] | None = None
    # The card whose entry into play is the only way a game ends.
    ending_card: str | None = None
    # Cards the rules never let anyone play (shown, or always in play).
    never_played: Callable[[Card], bool] = lambda card: False
    # How the seats stand so far, for tension and lead changes: the engine's summary() scores
    # by default, a cheaper read where the state keeps them (sampled once per cycle of turns, it
    # is the watcher's main cost), or the engine's own `standing()` where points alone miss the
    # state of play (Quidditch v2: dominance and the Quaffle).
    scores: Callable[[GameState], Sequence[int]] = lambda state: state.summary()["scores"]
    # The cards in a seat's hand, by the engine's own key (a list or a key -> copies mapping),
    # and that key's card code: for the card figures (hands as dealt; held and played).
    hand: Callable[[GameState, int], Iterable[Hashable]] | None = None
    code: Callable[[Game, Hashable], str] = lambda game, key: key
    # The round a state is in, for engines that deal new hands every round (trick games): card
    # effects are then measured per round, from each round's deal; None for a single deal.
    round_of: Callable[[GameState], int] | None = None


def _seat_hand(state: GameState, seat: int) -> Iterable[Hashable]:
    return state.hands[seat]


def _deck_code(game: Game, index: Hashable) -> str:
    return game.deck.cards[index].code


def _trick_round(state: GameState) -> int:
    return state.round


PROFILES: dict[str, EngineProfile] = {
    "wizard": EngineProfile(lead_by_rounds=True, hand=_seat_hand, code=_deck_code, round_of=_trick_round),
    "wizard-hearts": EngineProfile(lead_by_rounds=True, hand=_seat_hand, code=_deck_code, round_of=_trick_round),
    "muggle-quidditch": EngineProfile(scores=lambda state: [state.score(seat) for seat in (0, 1)], hand=_seat_hand),
    "quidditch-v2": EngineProfile(card_plays=_quidditch_v2_plays, ending_card="golden-snitch",
                                  never_played=lambda card: card.kind == "seeker" or card.id == "quaffle",
                                  scores=lambda state: state.standing(), hand=_seat_hand,
                                  code=lambda game, key: game.facts[key].code),
}
