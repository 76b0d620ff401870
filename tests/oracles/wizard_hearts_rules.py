"""Wizard Hearts' rules as plain data and pure functions, shared by the engine
(generator.games.wizard_hearts) and the quick rulings (generator.games.wizard_hearts_questions):
rule ids, action offsets and who wins a trick."""

from __future__ import annotations

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing at start-up
if TYPE_CHECKING:
    from typing import Sequence

PASS = 1000
PASSING = 101  # player phase: choosing cards to pass
EMPTY_TRICK = -2  # the led suit before a trick's first card (NO_SUIT, -1, is the suit of a card without one)

DIRECTIONS = ("left", "right", "across", "hold")

# Rule ids of decks/wizard-hearts.toml
R_DECK = "wh.components.deck"
R_DEALER = "wh.setup.dealer"
R_SHUN = "wh.setup.shun"
R_DEAL = "wh.setup.deal"
R_PASSING = "wh.setup.passing"
R_FIRST_LEAD = "wh.play.first-lead"
R_FOLLOW = "wh.play.follow"
R_FIRST_TRICK = "wh.play.first-trick"
R_WINNER = "wh.play.winner"
R_LEAD = "wh.play.lead"
R_OWN_CARDS = "wh.play.own-cards"
R_HAND = "wh.scoring.hand"
R_END = "wh.scoring.end"
R_BROKEN = "wh.variants.broken"


def trick_winner(cards: Sequence[int], strengths: Sequence[int]) -> int:
    """Position of the highest card of the led suit (wh.play.winner), given the strengths
    for the suit of the first card (the first of equal cards wins)."""
    claims = [strengths[card] for card in cards]
    return claims.index(max(claims))
