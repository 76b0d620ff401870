"""What the Quidditch v2 engine declares for the tools around play: what its deck must hold
(`deckgen validate`'s composition), the table an export sets up (the Quaffle in the centre,
the Golden Snitch on the discard pile), and how the playtest reads a match: which cards an
action puts into play, the card that ends the game, the cards nobody plays.
"""

from __future__ import annotations

from .profile import PlaytestProfile, TableKit
from .questions import Question
from .quidditch_v2_cards import KNOWN_CARDS, QUAFFLE, SNITCH, Play, Reveal

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing at start-up
if TYPE_CHECKING:
    from typing import Any, Hashable, Iterable, Mapping, Sequence

    from .requirements import Checker

    from ..deck.model import Card, Deck
    from .base import Game, GameState


def _card_plays(game: "Game", state: "GameState", player: int, action: Any) -> Sequence[str]:
    """A card played from hand; the Golden Snitch, however it came (from hand or by a Search),
    counts once per showdown for the player whose turn it is, when that player shows Seekers."""
    if isinstance(action, Play) and action.card != SNITCH:
        return (game.facts[action.card].code,)
    if isinstance(action, Reveal) and player == state.active:
        return (game.facts[SNITCH].code,)
    return ()


def _never_played(card: "Card") -> bool:
    return card.kind == "seeker" or card.id == QUAFFLE


def _scores(state: "GameState") -> Sequence[int]:
    return state.score


def _seat_hand(state: "GameState", seat: int) -> "Iterable[Hashable]":
    return state.hands[seat]


def _code(game: "Game", key: "Hashable") -> str:
    return game.facts[key].code


def _set_aside(deck: "Deck", params: Mapping[str, Any]) -> tuple[tuple["Card", ...], tuple["Card", ...]]:
    """The Quaffle starts in the centre; the Golden Snitch on the discard pile, unless the deck
    starts it in the draw pile."""
    centre = tuple(card for card in deck.cards if card.props.get("ball") == "quaffle")
    discard = tuple(card for card in deck.cards if card.props.get("ball") == "snitch")
    return centre, discard if params.get("snitch_start", "discard") == "discard" else ()


def _answer(game, words: Sequence[str]) -> dict:
    return game.answer_question(words)


QUESTIONS = (
    Question("manoeuvres", "other",
             "manoeuvres dominance D1 D2 [...] [quaffle Pn|centre] [Pn CODE ...] [dopplebeater] [feint]",
             "which manoeuvres P1 may make now, and what bars the others",
             "manoeuvres dominance 5 1 quaffle P1 P2 SUREHAND", _answer,
             aliases=("manoeuvre", "maneuvers", "maneuver")),
    Question("play", "play", "play CODE [Pn|Pn:CODE] hand CODE ... [dominance D1 D2 ...] [quaffle Pn|centre] "
             "[Pn CODE ...]", "whether P1 may play the card in the play step of their turn, and the legal plays",
             "play SUREHAND hand SUREHAND CRACK", _answer),
)
PLAYTEST = PlaytestProfile(card_plays=_card_plays, ending_card=SNITCH, never_played=_never_played,
                           scores=_scores, hand=_seat_hand, code=_code)
TABLE = TableKit(counters=("score", "dominance"), stats=("Points", "Dominance"), set_aside=_set_aside)


def requirements(check: Checker) -> None:
    """The card ids the engine has rules for, the two balls as Things, Seekers, and a deal and a turn
    cap that let the Golden Snitch come into play."""
    deck, params = check.deck, check.params
    ids = {card.id for card in deck.cards}
    missing, unknown = sorted(KNOWN_CARDS - ids), sorted(ids - KNOWN_CARDS)
    if missing:
        check.error("cards", f"the quidditch-v2 engine has rules for card ids the deck lacks: {', '.join(missing)}",
                    hint="each card's rules live in the engine under its id; restore the ids")
    for card in deck.cards:
        if card.id in unknown:
            check.error(check.locate.card_field(card, "id"), f"card {card.name!r} has id {card.id!r}, which the "
                        "quidditch-v2 engine has no rules for", hint="use one of the engine's card ids")
    for ball, why in ((QUAFFLE, "the Quaffle starts in the centre and every goal needs it"),
                      (SNITCH, "catching the Golden Snitch is the only way the game ends")):
        card = check.require_card(f"card with id {ball!r}", lambda c, ball=ball: c.id == ball, why)
        if card is not None and card.kind != "thing":
            check.error(check.locate.card_field(card, "kind"),
                        f"the {card.name} is of kind {card.kind!r}; a ball is a Thing", hint='set kind = "thing"')
    if not check.copies(lambda c: c.kind == "seeker"):
        check.warning("cards", "the deck has no Seeker cards, so every Snitch showdown ties unless someone has "
                      "a Seeker bonus in play", hint="Seeker cards have kind = \"seeker\"")
    hand, cap, search = params["hand_size"], params["turn_cap"], params["search_reveal"]
    in_pile = deck.total - check.copies(lambda c: c.id == QUAFFLE or
                                         (c.id == SNITCH and params["snitch_start"] == "discard"))
    for players in check.player_counts:
        pile = in_pile - hand * players
        check.figure(players, "cards dealt", hand * players)
        check.figure(players, "draw pile", pile)
        if pile < 0:
            check.error("engine.hand_size", f"with {players} players the deal needs {hand * players} cards, but "
                        f"only {in_pile} start in the draw pile", hint="deal fewer cards or allow fewer players")
            continue
        if params["snitch_start"] != "discard":
            continue
        # Before the cap each player has `cap` turns; a turn takes one card off the draw pile, and
        # a Search `search` more (cards that draw extra are left out of this bound).
        turns = cap * players
        if pile > turns * (1 + search):
            check.error("engine.turn_cap", f"with {players} players the turn cap ends the game after {turns} turns, "
                        f"which take at most {turns * (1 + search)} cards off the {pile}-card draw pile even with "
                        "a Search every turn: the first reshuffle never comes, so the Golden Snitch waiting in the "
                        "discard pile can never enter play",
                        hint=f"raise turn_cap to at least {-(-pile // (players * (1 + search)))} "
                        "or start the Snitch in the draw pile (snitch_start = \"draw\")")
        elif pile > turns:
            check.warning("engine.turn_cap", f"with {players} players the {pile}-card draw pile outlasts the "
                          f"{turns} draws before the turn cap: the Golden Snitch can enter play only after "
                          "Searches dig through the deck", hint=f"raise turn_cap to at least {-(-pile // players)}")
