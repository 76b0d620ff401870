"""Wizard's rules as plain data and pure functions, shared by the engine (generator.games.wizard)
and the quick rulings (generator.games.wizard_questions): rule ids, action offsets, who may
bid what, which suit a trick follows and who wins it."""

from __future__ import annotations

from .tricks import NO_SUIT

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing at start-up
if TYPE_CHECKING:
    from typing import Sequence

BID = 1000
TRUMP = 2000
WIZARD_LED = -2  # a Wizard set the trick: nobody follows suit
CHOOSE_TRUMP = 101  # player phases beside the trick-taking core's PLAY
BIDDING = 102

RESTRICTIONS = ("none", "every-round", "final-round", "never-even")
BID_STYLES = ("open", "hidden", "delayed")
TIE_BREAKS = ("shared", "sum-of-bids")
NO_TRUMP_WORDS = ("none", "no trump", "no", "notrump", "no-trump")

# Rule ids of decks/wizard.toml
R_COUNTS = "wizard.components.deck"
R_FIRST_DEALER = "wizard.setup.first-dealer"
R_ROUNDS = "wizard.setup.rounds"
R_DEAL = "wizard.setup.deal"
R_TRUMP = "wizard.setup.trump"
R_BID_RANGE = "wizard.bidding.order"
R_RESTRICTION = "wizard.bidding.restriction"
R_RESTRICTION_VARIANTS = "wizard.variants.bidding"
R_LEAD = "wizard.play.lead"
R_OWN_CARDS = "wizard.play.own-cards"
R_FOLLOW = "wizard.play.follow"
R_WIZARD_LEAD = "wizard.play.wizard-lead"
R_JESTER_LEAD = "wizard.play.jester-lead"
R_WINNER = "wizard.trick.winner"
R_SCORING = "wizard.scoring.round"
R_END = "wizard.scoring.end"


def forbidden_bid(restriction: str, tricks: int, earlier_total: int, last: bool, strictly_ahead: bool,
                  final_round: bool) -> tuple[int | None, str]:
    """The one bid the restriction forbids the current bidder (or None), and the rule saying so;
    `earlier_total` is the sum of the bids made before theirs."""
    if restriction == "none" or not last:
        return None, ""
    even = tricks - earlier_total
    if not 0 <= even <= tricks:  # wizard.ruling.leader: an impossible number forbids nothing
        return None, ""
    if restriction == "never-even":
        return even, R_RESTRICTION_VARIANTS
    if restriction == "final-round" and not final_round:
        return None, ""
    if not strictly_ahead or even == 0:  # zero is always allowed
        return None, ""
    return even, R_RESTRICTION if restriction == "every-round" else R_RESTRICTION_VARIANTS


def trick_led_suit(cards: Sequence[int], is_wizard, is_jester, suit_of) -> int:
    """The suit to follow: set by the first card that is not a Jester; none if it is a Wizard."""
    for card in cards:
        if is_wizard[card]:
            return WIZARD_LED
        if not is_jester[card]:
            return suit_of[card]
    return NO_SUIT


def card_strengths(trump: int, led: int, is_wizard, suit_of, rank_of) -> tuple[int, ...]:
    """Each card's claim on a trick with this trump and suit led (wizard.trick.winner): a
    Wizard beats everything, a trump beats the suit led, the suit led beats the rest by
    rank; Jesters and other suits have no claim (-1)."""
    def strength(card: int) -> int:
        if is_wizard[card]:
            return 1000
        suit = suit_of[card]
        if suit == NO_SUIT:
            return -1
        if suit == trump:
            return 100 + rank_of[card]
        return rank_of[card] if suit == led else -1

    return tuple(strength(card) for card in range(len(suit_of)))


def trick_winner(cards: Sequence[int], strengths: Sequence[int]) -> int:
    """Position of the winning card: the first of the greatest strength (so the first Wizard,
    and the first Jester of a trick of Jesters)."""
    claims = [strengths[card] for card in cards]
    return claims.index(max(claims))


# Player phases (chance and terminal use base.CHANCE / base.TERMINAL)
