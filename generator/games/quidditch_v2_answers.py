"""Quidditch v2: what each answer to a decision does to the game (a mixin of
`QuidditchV2State`: `apply` finds the answer to the step it asked by the step's name)."""

from __future__ import annotations

from bisect import bisect_left

from .base import CHANCE
from .quidditch_v2_cards import (BLAG, CAPTAIN, PASS, SAVED, Decline, Discard, Draw, EndPlays, FirstPlayer, Manoeuvre,
                                 RandomPick, Reveal)
from .quidditch_v2_steps import PLAYS_STEP


class Answers:
    """`_answer_<step>(action, chance, *args)`: the effect of answering the step `<step>` asked."""

    def _answer_first(self, action: FirstPlayer, _chance: int) -> None:
        self.active = action.seat

    def _answer_draw(self, action: Draw, _chance: int, seat: int, dest: str) -> None:
        card = action.card
        draw = self.draw
        draw[card] -= 1
        if not draw[card]:
            del draw[card]
        cards = self.draw_cards
        if cards is not None:
            del cards[bisect_left(cards, card)]
        self.draw_total -= 1
        if dest == "hand":
            hand = self.hands[seat]  # `_to_hand`, inlined
            hand[card] = hand.get(card, 0) + 1
        else:
            self.revealed.append(card)

    def _answer_random_discard(self, action: RandomPick, _chance: int, seat: int) -> None:
        self._discard_from_hand(seat, action.card)

    def _answer_play(self, action, seat: int) -> None:
        if isinstance(action, EndPlays):
            return
        self.stack.append(PLAYS_STEP)
        self._play_card(seat, action)

    def _answer_manoeuvre(self, action: Manoeuvre, seat: int) -> None:
        kind, target = action.kind, action.target
        if kind == "skip":
            return
        self._gain(seat, -1)
        if kind == "score":
            self._gain(seat, -1)
            self.stack.append(("goal", seat, target))
        elif kind == "bludger":
            if not self.hands[target]:
                return
            if action.random:
                self._ask("random_discard", CHANCE, target)
            else:
                self.stack.append(("discard_n", target, 1, "any", "qv2.manoeuvre.bludger"))
        elif kind == "snatch":
            self.stack.append(("quaffle", seat, seat, True))
        elif kind == "outfly":
            self._gain(target, -1)
            self._gain(seat, 1)
            if self.has(seat, CAPTAIN) and (self.draw_total or self.discard):
                self._ask("captain", seat)
        elif kind == "search":
            self._push(*[("draw", seat, "reveal")] * self.params["search_reveal"], ("search_done", seat))

    def _answer_discard(self, action: Discard, seat: int, which: str, rule: str) -> None:
        self._discard_from_hand(seat, action.card)

    def _answer_saved(self, action, defender: int, scorer: int) -> None:
        if isinstance(action, Decline):
            self.stack.append(("keeper", scorer, defender))
            return
        self._discard_from_hand(defender, SAVED)
        self._gain(scorer, -self.game.facts[SAVED].props.get("dominance_loss", 1))
        self.stack.append(("quaffle", defender, defender, True))

    def _answer_pass(self, action, holder: int, to: int | None) -> None:
        if isinstance(action, Decline):
            self.quaffle = to
        else:
            self._discard_from_hand(holder, PASS)

    def _answer_blag(self, action, holder: int, moment: str) -> None:
        if isinstance(action, Decline):
            return
        self._discard_from_hand(holder, BLAG)
        self._blagging(holder, action.player, deferred=(moment == "snitch"))

    def _answer_reveal(self, action: Reveal, seat: int) -> None:
        for card in action.cards:
            self._take_from_hand(seat, card)
        self.committed[seat] = action.cards
