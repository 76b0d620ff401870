"""Muggle Quidditch: what each player knows of the other's hand, and the worlds a search player
samples from it (`GameState.determinize`), with the cheap copy it samples them from.

Every card leaves a hand face up (discarded, put in the team, scored, sent as a Bludger, laid
as the Snitch), and the only card that enters a hand face up is the top discard taken in the
draw step. So each hand's known cards are those taken from the discard pile and not played
since; the rest of the other hand and the whole draw pile are one pool of unseen cards. When the
draw pile runs out and is rebuilt from the discards, every card a seat has not seen is in the
other hand, so from then on both hands are known but for the cards drawn from the rebuilt pile
(`KnownCards.reveal_hands`): the pool is the rebuilt pile, whose cards all passed face up.
"""

from __future__ import annotations

import copy
import random

from .muggle_quidditch_rules import JOKER, OVER, TurnRecord

# A seat ready to dive (a Seeker, a Joker in hand, the Snitch spotted): its odds of catching the
# Snitch against a rival team without a Seeker, and with one (see KnownCards.outlook)
READY_ODDS = {False: 0.92, True: 0.59}


class KnownCards:
    """Mixed into `MuggleQuidditchState` (whose `hands`, `shown`, `draw_pile` it uses)."""

    def _play_from_hand(self, seat: int, card: str) -> None:
        """A card leaves a hand face up: it is no longer a known card of that hand."""
        self.hands[seat].remove(card)
        shown = self.shown[seat]
        if shown and card in shown:
            shown.remove(card)

    def reveal_hands(self) -> None:
        """The draw pile is empty and about to be rebuilt: each seat can tell the other's hand."""
        self.shown = [list(hand) for hand in self.hands]

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
        """The score, plus the Snitch's points times each seat's measured odds of catching it: in
        1,500 heuristic matches (benchmarks/snitch_odds.py) a seat with a Seeker and a Joker in
        hand once the Snitch is spotted caught it 92% of the time against a team without a Seeker
        and 59% against one with a Seeker; teams, Jokers and the spotting otherwise moved the odds
        by a few points around a half, so they count as a half."""
        scores = self.standing()
        if self.phase == OVER:
            return scores
        prize = self.game.params["snitch_points"]
        odds = [0.5, 0.5]
        if self.snitch:
            for seat in (0, 1):
                if "seeker" in self.teams[seat] and JOKER in self.hands[seat]:
                    rival_seeker = "seeker" in self.teams[1 - seat]
                    odds[seat] = READY_ODDS[rival_seeker]
                    odds[1 - seat] = 1 - odds[seat]
                    break
        return [score + prize * chance for score, chance in zip(scores, odds)]

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
