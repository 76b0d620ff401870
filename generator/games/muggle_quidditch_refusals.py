"""Muggle Quidditch: why an action is refused at a moment of the match, with the rule, the
ruling and the legal choices (a mixin of `MuggleQuidditchState`, which holds the moment)."""

from __future__ import annotations

from collections import Counter
from typing import Any, Sequence

from .base import Action, IllegalAction
from .muggle_quidditch_rules import (ACTION, DEAL, DRAW, EXTRA_DISCARD, HOUSES, JOKER, OVER, POSITIONS, RESPONSE,
                                     SHUFFLING, TURN_ACTIONS, Bludger, ChooseHouse, Discard, Dive, Draw, Goal, Lose,
                                     Pass, Recruit, Refusal, Shuffle, Spot)


class MuggleQuidditchRefusals:
    """The checks `MuggleQuidditchState.apply` runs before an action changes anything."""

    def illegal(self, message: str, rule: str, ruling: str = "", legal: list[str] | None = None,
                **where: Any) -> IllegalAction:
        """The error for a move the rules forbid here, listing what was legal instead (`legal`
        when that is not the decision now pending, as for a fact the log got wrong)."""
        if legal is None and self.phase == SHUFFLING:
            legal = [f"shuffle: any order of these {len(self.shuffle_cards)} cards: "
                     + " ".join(sorted(self.shuffle_cards))]
        elif legal is None:
            legal = [self.game.format_action(self, action) for action in self.legal_actions()]
        seat = self.current_player()
        place: dict[str, Any] = {"turn": self.turn} if self.turn else {}
        if seat >= 0:
            place["player"] = seat
        place.update(where)
        return IllegalAction(message, rule, legal, place, ruling=ruling)

    def _refuse(self, refusal: Refusal) -> IllegalAction:
        return self.illegal(refusal.message, refusal.rule, refusal.ruling)

    def _check(self, action: Action) -> None:
        """Raise IllegalAction, naming the rule, unless the action is legal now."""
        refusal = self._refusal(action)
        if refusal is not None:
            raise self._refuse(refusal)

    def _shuffle_mismatch(self, order: Sequence[str]) -> str:
        """Which cards a written shuffle leaves out or adds, naming a missing Joker's way in."""
        want, got = Counter(self.shuffle_cards), Counter(order)
        missing, extra = sorted((want - got).elements()), sorted((got - want).elements())
        parts = []
        if missing:
            parts.append("leaves out " + " ".join(missing))
        if extra:
            parts.append("adds " + " ".join(extra) + ", which " + ("is" if len(extra) == 1 else "are")
                         + " not among the cards being shuffled")
        count = len(self.shuffle_cards)
        what = (f"the deal must list the deck's {count} cards" if self.shuffle_for == DEAL
                else f"the shuffle must put exactly the {count} cards being shuffled")
        message = f"{what} in order, each once; this one {' and '.join(parts)}"
        if JOKER in missing and self.shuffle_for != DEAL:
            message += f" (a Joker ({JOKER}) held in a hand goes onto the discard pile before it is shuffled)"
        return message

    def _refusal(self, action: Action) -> Refusal | None:
        phase = self.phase
        if phase == ACTION and type(action) in TURN_ACTIONS:
            return self._action_refusal(action)
        if phase == OVER:
            if self.capped:
                return Refusal("the match is over: it reached the turn cap", "mq.end.turn-cap", "mq.ruling.turn-cap")
            return Refusal("the match is over: the Snitch has been caught", "mq.end.capture")
        dealing = "mq.setup.deal" if self.shuffle_for == DEAL else "mq.deck.reshuffle"
        if isinstance(action, Shuffle):
            if phase != SHUFFLING:
                return Refusal("no shuffle is due: the draw pile is rebuilt when it runs out (or when a card must "
                               "be drawn from it empty), from a discard pile that is not empty", "mq.deck.reshuffle",
                               "mq.ruling.reshuffle")
            if sorted(action.order) != sorted(self.shuffle_cards):
                return Refusal(self._shuffle_mismatch(action.order), dealing,
                               "mq.ruling.reshuffle" if dealing == "mq.deck.reshuffle" else "")
            return None
        if phase == SHUFFLING:
            return Refusal("the cards must be shuffled before anyone acts", dealing)
        if phase == HOUSES:
            if not isinstance(action, ChooseHouse):
                return Refusal("both players choose their houses before the deal", "mq.setup.houses")
            if action.suit in self.houses:
                return Refusal(f"{action.suit} is already the other player's house", "mq.setup.houses",
                               "mq.ruling.houses")
            if action.suit not in self.game.params["houses"]:
                return Refusal(f"{action.suit} is not one of the houses", "mq.setup.houses")
            return None
        if isinstance(action, ChooseHouse):
            return Refusal("houses are chosen once, before the deal", "mq.setup.houses")
        if phase == DRAW:
            if not isinstance(action, Draw):
                return Refusal("every turn starts with the draw step", "mq.turn.order")
            if action.from_discard and not self.discard_pile:
                return Refusal("the discard pile is empty, so there is nothing to take from it",
                               "mq.turn.discard-pile", "mq.ruling.draw")
            if action.from_discard and len(self.hands[self.active]) >= self.game.params["draw_to"]:
                return Refusal("your hand is already full, so you draw nothing", "mq.turn.draw")
            return None
        if isinstance(action, Draw):
            return Refusal("you have already drawn this turn (at most one card may come from the discard pile)",
                           "mq.turn.discard-pile" if action.from_discard else "mq.turn.order")
        if phase == RESPONSE:
            if not isinstance(action, Lose):
                return Refusal("the player hit by the Bludger must first choose what leaves their team",
                               "mq.bludger.defence", "mq.ruling.bludger")
            if action not in self.legal_actions():
                return Refusal(f"{action.card} is neither the Bludger's target nor your Beater",
                               "mq.bludger.defence", "mq.ruling.bludger")
            return None
        if isinstance(action, Lose):
            return Refusal("there is no Bludger to answer", "mq.bludger.defence")
        if phase == EXTRA_DISCARD:
            if not isinstance(action, Discard):
                return Refusal("after a Bludger from your team Beater you must discard a card from your hand",
                               "mq.bludger.team")
            if action.card not in self.hands[self.active]:
                return Refusal(f"{action.card} is not in your hand", "mq.bludger.team")
            return None
        return self._action_refusal(action)

    def _action_refusal(self, action: Action) -> Refusal | None:
        me, them = self.active, 1 - self.active
        hand = self.hands[me]
        team = self.teams[me]
        kind_of = self.game.kind_of
        match action:
            case Discard(card):
                if card not in hand:
                    return Refusal(f"{card} is not in your hand", "mq.turn.actions")
            case Goal(cards):
                for card in cards:
                    if card not in hand:
                        return Refusal(f"{card} is not in your hand", "mq.goal.pair")
                refusal = self.game.goal_refusal(cards, self.houses[me], self.houses[them], None)
                if refusal is not None:
                    return refusal
                if "chaser" not in team:
                    return Refusal("your team has no Chaser, so you cannot score", "mq.goal.chaser")
                return self.game.goal_refusal(cards, self.houses[me], self.houses[them], self.teams[them].get("keeper"))
            case Recruit(card):
                if card not in hand:
                    return Refusal(f"{card} is not in your hand", "mq.team.positions")
                if kind_of[card] not in POSITIONS:
                    return Refusal(f"{card} is not a team player (an Ace, King, Queen or Jack)", "mq.team.positions")
                if card == self.fresh_jack:
                    return Refusal(f"{card} was taken from the discard pile this turn, so it cannot be played "
                                   "until your next turn", "mq.turn.discard-pile", "mq.ruling.draw")
            case Bludger(jack, target):
                if team.get("beater") != jack:
                    if jack not in hand:
                        return Refusal(f"{jack} is neither in your hand nor your team's Beater", "mq.bludger.hand")
                    if kind_of[jack] != "beater":
                        return Refusal(f"{jack} is not a Jack: only Beaters hit Bludgers", "mq.bludger.hand")
                    if jack == self.fresh_jack:
                        return Refusal(f"{jack} was taken from the discard pile this turn, so it cannot be played "
                                       "until your next turn", "mq.turn.discard-pile", "mq.ruling.draw")
                if target not in self.teams[them].values():
                    return Refusal(f"{target} is not on your opponent's team", "mq.bludger.hand", "mq.ruling.bludger")
            case Spot() | Dive():
                rule = "mq.snitch.spot" if isinstance(action, Spot) else "mq.snitch.dive"
                if JOKER not in hand:
                    return Refusal(f"you hold no Joker ({JOKER})", rule)
                if "seeker" not in team:
                    return Refusal("a Joker can only be laid while your team has a Seeker", rule)
                if isinstance(action, Spot) and self.snitch:
                    return Refusal("the Snitch is already spotted: the next Joker starts the dive", rule)
                if isinstance(action, Dive) and not self.snitch:
                    return Refusal("the Snitch has not been spotted yet: the first Joker spots it", rule)
            case Pass():
                if hand:
                    return Refusal("you may only pass with an empty hand; discard a card instead",
                                   "mq.turn.actions", "mq.ruling.hand-size")
            case _:
                return Refusal(f"{action!r} is not a Muggle Quidditch action", "mq.turn.actions")
        return None
