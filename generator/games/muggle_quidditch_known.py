"""Muggle Quidditch: what each player knows of the other's hand, and the worlds a search player
samples from it (`GameState.determinize`), with the cheap copy it samples them from.

Every card leaves a hand face up (discarded, put in the team, scored, sent as a Bludger, laid
as the Snitch), and the only card that enters a hand face up is the top discard taken in the
draw step. So each hand's known cards are those taken from the discard pile and not played
since; the rest of the other hand and the whole draw pile are one pool of unseen cards.
"""

from __future__ import annotations

import copy
import random

from .muggle_quidditch_rules import JOKER, OVER, TurnRecord

JOKER_PROSPECT = 3  # a Joker in hand counts as many dive cards towards the Snitch


class KnownCards:
    """Mixed into `MuggleQuidditchState` (whose `hands`, `shown`, `draw_pile` it uses)."""

    def _play_from_hand(self, seat: int, card: str) -> None:
        """A card leaves a hand face up: it is no longer a known card of that hand."""
        self.hands[seat].remove(card)
        shown = self.shown[seat]
        if shown and card in shown:
            shown.remove(card)

    def clone(self):
        """An independent copy sharing the game and the immutable values (a deep copy costs five times more)."""
        other = copy.copy(self)
        other.houses = list(self.houses)
        other.hands = [list(hand) for hand in self.hands]
        other.shown = [list(cards) for cards in self.shown]
        other.teams = [dict(team) for team in self.teams]
        other.score_piles = [list(pile) for pile in self.score_piles]
        other.goals = list(self.goals)
        other.draw_pile = list(self.draw_pile)
        other.discard_pile = list(self.discard_pile)
        other.snitch = list(self.snitch)
        other.shuffle_cards = list(self.shuffle_cards)
        other.dive = None if self.dive is None else copy.deepcopy(self.dive)
        record = self.record
        other.record = TurnRecord(record.took, list(record.drew), record.draw_shuffle, list(record.dive),
                                  record.dive_shuffle)
        return other

    def determinize(self, seat: int, rng: random.Random):
        """The other hand's unknown cards and the draw pile dealt again from the cards the seat has not seen."""
        world = self.clone()
        other = 1 - seat
        hidden = list(self.hands[other])
        for card in self.shown[other]:
            hidden.remove(card)
        pool = sorted(hidden + self.draw_pile)
        rng.shuffle(pool)
        world.hands[other] = list(self.shown[other]) + pool[:len(hidden)]
        world.draw_pile = pool[len(hidden):]
        return world

    def standing(self) -> list[int]:
        return [self.score(0), self.score(1)]

    def outlook(self) -> list[float]:
        """The score, plus each seat's part of half the Snitch's points, shared by its prospects of
        catching it: a Seeker in the team (by the cards it dives with) and Jokers in hand."""
        scores = self.standing()
        if self.phase == OVER:
            return scores
        prospects = [0.0, 0.0]
        for seat in (0, 1):
            seeker = self.teams[seat].get("seeker")
            if seeker is not None:
                prospects[seat] += self.game.dive_quota(seeker, self.houses[seat], self.houses[1 - seat])
            prospects[seat] += JOKER_PROSPECT * self.hands[seat].count(JOKER)
        share = self.game.params["snitch_points"] / 2 / (sum(prospects) + 1)
        return [score + share * prospect for score, prospect in zip(scores, prospects)]

    def stage(self) -> int:
        return self.turn

    def situation(self) -> str:
        """The match ends when a Seeker catches the Snitch: spotted with one Joker, dived for with the other."""
        seekers = ["seeker" in team for team in self.teams]
        teams = ("no team has a Seeker", "one team has a Seeker", "both teams have Seekers")[sum(seekers)]
        with_seeker = sum(hand.count(JOKER) for hand, seeker in zip(self.hands, seekers) if seeker)
        held = sum(hand.count(JOKER) for hand in self.hands)
        jokers = ("no Joker in a hand" if not held else "a Joker held by a player with a Seeker" if with_seeker
                  else "Jokers held only by players without a Seeker")
        snitch = "the Snitch is spotted" if self.snitch else "the Snitch is not spotted"
        return f"{snitch}; {teams}; {jokers}"
