"""Quidditch v2: what each seat knows of the others' cards, the worlds a search player samples
from it (`GameState.determinize`), and how each seat stands (`GameState.standing`).

Cards enter hands face down (draws), except Flying High coming back after a goal and Seeker
cards returned after the Snitch (the "return" variant): those are known to be there until
they leave the hand. Seeker cards committed to a Snitch are face down until all are shown.
The draw pile is a multiset: nothing looks at its order except by drawing, a chance action.

A seat's standing is its points, plus what its dominance and the Quaffle are worth towards the
next goal: a Score manoeuvre needs the Quaffle and dominance `score_margin` above every
opponent, and spends two. So the Quaffle counts half a goal and each point of dominance
1/(2 * score_margin) of one: the Quaffle with a full margin is about a goal. The playtest's
tension and lead changes read this, not the points alone. Search players' playouts also count
the Seeker cards each hand holds towards the Snitch (`outlook`).
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import chain

from .quidditch_v2_cards import NIPPY, SNITCH


class KnownCards:
    """Mixed into `QuidditchV2State` (whose `hands`, `shown`, `draw`, `committed`, `dom` it reads)."""

    def determinize(self, seat: int, rng: random.Random):
        """Others' unknown cards, their face-down Seeker commitments and the draw pile dealt again
        from the cards the seat has not seen; known cards stay where they are."""
        world = self.clone()
        others = [other for other in range(self.num_players) if other != seat]
        hidden = {}
        for other in others:
            unknown = Counter(self.hands[other]) - Counter(self.shown[other])
            hidden[other] = [card for card, count in sorted(unknown.items()) for _ in range(count)]
        committed = {other: self.committed[other] for other in others if other in self.committed}
        pool = sorted(chain(*hidden.values(), *committed.values(),
                            chain.from_iterable([card] * count for card, count in self.draw.items())))
        rng.shuffle(pool)
        seekers = self.game.seekers
        for other, cards in sorted(committed.items()):  # a commitment is Seeker cards, as many as shown face down
            chosen = [card for card in pool if card in seekers][:len(cards)]
            for card in chosen:
                pool.remove(card)
            world.committed[other] = tuple(sorted(chosen))
        for other in others:
            count = len(hidden[other])
            hand = Counter(self.shown[other])
            hand.update(pool[:count])
            del pool[:count]
            world.hands[other] = dict(sorted(hand.items()))
        world.draw = dict(sorted(Counter(pool).items()))
        world.draw_cards = None
        world._legal = None
        return world

    def standing(self) -> list[float]:
        if self.over:
            return list(self.score)
        goal = self.params["goal_points"]
        per_dominance = goal / (2 * self.params["score_margin"])
        return [points + per_dominance * dominance + (goal / 2 if seat == self.quaffle else 0)
                for seat, (points, dominance) in enumerate(zip(self.score, self.dom))]

    def outlook(self) -> list[float]:
        """The standing, plus each seat's part of half the Snitch's points, shared by Seeker
        strength (Seeker cards in hand, and Nippy Seeker): whoever shows most Seekers catches it,
        and the Snitch is not in play yet. (Search players that score playouts without it discard
        Seekers and lose to the heuristic; with it, pimc-8 won 0.85 of 2-player games against it.)"""
        standing = self.standing()
        if self.over:
            return standing
        seekers = self.game.seekers
        strength = [sum(hand.get(card, 0) for card in seekers) + self.has(seat, NIPPY)
                    for seat, hand in enumerate(self.hands)]
        share = self.params["snitch_points"] / 2 / (sum(strength) + 1)
        return [points + share * held for points, held in zip(standing, strength)]

    def situation(self) -> str:
        """The game ends when the Snitch is caught: played from a hand (or found by a Search) and
        then shown the most Seeker cards."""
        seekers = self.game.seekers
        holder = next((seat for seat, hand in enumerate(self.hands) if hand.get(SNITCH)), None)
        if holder is None:
            place = self._snitch_place()
            return f"the Snitch is in the {place}" if place in ("discard pile", "draw pile") else f"the Snitch is {place}"
        held = sum(self.hands[holder].get(card, 0) for card in seekers)
        best_other = max(sum(hand.get(card, 0) for card in seekers)
                         for seat, hand in enumerate(self.hands) if seat != holder)
        behind = max(self.score) - self.score[holder] >= self.params["snitch_points"]
        return (f"the Snitch is in a hand with {min(held, 2)}{'+' if held >= 2 else ''} Seeker card(s)"
                f"{', more among the others' if best_other > held else ''}"
                f"{', its holder too far behind to win by it' if behind else ''}")

    def stage(self) -> int:
        """Full rounds of turns begun."""
        return (self.turn_slots + self.num_players - 1) // self.num_players
