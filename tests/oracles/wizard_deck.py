"""What the Wizard and Wizard Hearts engines declare for the tools around play: what their decks
must hold (`deckgen validate`'s composition), the table an export sets up, and how the
playtest reads a trick game (a card is its index in `deck.cards`, a seat's hand a list of them).
"""

from __future__ import annotations

from generator.games.profile import TableKit
from generator.games.trick.declarations import PLAYTEST as TRICK_PLAYTEST  # noqa: F401 - the oracles' profile

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing at start-up
if TYPE_CHECKING:
    from generator.games.requirements import Checker


WIZARD_TABLE = TableKit(counters=("bid", "tricks", "score"), stats=("Score", "Bid"), piles=("Tricks",),
                        trick_game=True, turns_up_trump=True)
WIZARD_HEARTS_TABLE = TableKit(counters=("score",), stats=("Points",), piles=("Tricks",), trick_game=True)


def wizard_requirements(check: Checker) -> None:
    """A full grid of suit cards, four Wizards and four Jesters, and a deck every player count divides."""
    deck = check.deck
    number_suits = [s.id for s in deck.suits]
    check.require_grid(number_suits, [r.id for r in deck.ranks])
    check.require_count("Wizards (kind 'wizard')", lambda c: c.kind == "wizard", 4,
                        "a Wizard wins the trick and lets the dealer choose trump")
    check.require_count("Jesters (kind 'jester')", lambda c: c.kind == "jester", 4,
                        "a Jester turned up means no trump")
    total = deck.total
    uneven = []
    for players in check.player_counts:
        check.figure(players, "rounds", total // players)
        check.figure(players, "left over", total % players)
        if total % players:
            uneven.append(players)
    if uneven:
        shown = ", ".join(f"{total}/{p} = {total / p:.2f}" for p in uneven)
        check.error("cards", f"the deck has {total} cards, and Wizard plays (cards / players) rounds so that the "
                    f"last round deals the whole deck; that is not whole for {_players(uneven)} ({shown})",
                    hint="the published deck has 60 cards: 52 suit cards, 4 Wizards and 4 Jesters; "
                         "every count from 3 to 6 divides 60")


def _players(counts: list[int]) -> str:
    words = [str(n) for n in counts]
    return (", ".join(words[:-1]) + " and " + words[-1] if len(words) > 1 else words[0]) + " players"


def wizard_hearts_requirements(check: Checker) -> None:
    """A full grid, an opposite suit (and its Queen) for every Shun suit, the first lead's card,
    points that can end the game, and hands large enough to pass."""
    deck, params = check.deck, check.params
    check.require_grid([s.id for s in deck.suits], [r.id for r in deck.ranks])
    suit_ids = [s.id for s in deck.suits]
    luck = params["luck_suit"]
    if luck not in suit_ids:
        check.error("engine.luck_suit", f"luck_suit = {luck!r} is not a suit of the deck; known: {', '.join(suit_ids)}")
    shun_suits = [s for s in deck.suits if s.id != luck]
    for suit in shun_suits:
        if suit.opposite is None:
            check.error(f"suits[{suit_ids.index(suit.id)}].opposite",
                        f"suit {suit.id!r} can be the Shun suit but has no opposite, so it has no Opposite Queen",
                        hint="pair every suit but the Luck suit with an opposite")
    queens = {c.suit for c in deck.cards if c.rank == params["queen_rank"]}
    for suit in shun_suits:
        if suit.opposite and suit.opposite not in queens:
            check.error(check.locate.cards_field, f"no {params['queen_rank']!r} card in suit {suit.opposite!r}: "
                        f"the Opposite Queen when {suit.name} is the Shun suit")
    lead = next((c for c in deck.cards if c.id == params["lead_card"]), None)
    if lead is None:
        check.error("engine.lead_card", f"lead_card = {params['lead_card']!r} is not a card id of the deck",
                    hint="the card that leads the first trick, e.g. \"2-luck\"")
    elif lead.suit != luck:
        check.warning("engine.lead_card", f"the first lead {lead.name} is not of the Luck suit {luck!r}",
                      hint="the rules lead the Two of Luck")
    per_shun_suit = [check.copies(lambda c, s=s.id: c.suit == s) for s in shun_suits]
    most_points = max(per_shun_suit, default=0) * params["shun_points"] + max(params["queen_points"], 0)
    if most_points <= 0:
        check.error("engine.target_score", f"no hand can raise anyone's score (Shun cards {params['shun_points']}, "
                    f"Opposite Queen {params['queen_points']}), so nobody reaches {params['target_score']} and "
                    "the game cannot end", hint="give the Shun cards or the Opposite Queen positive points")
    for players in check.player_counts:
        hand, cauldron = divmod(deck.total, players)
        check.figure(players, "hand", hand)
        check.figure(players, "Cauldron", cauldron)
        if hand <= params["pass_count"]:
            check.error("engine.pass_count", f"with {players} players each hand holds {hand} card(s), too few to "
                        f"pass {params['pass_count']}", hint="pass fewer cards or allow fewer players")
