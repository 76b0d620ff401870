"""Wizard: chance's moves at each deal (the shuffle, the first dealer's draw, the turn-up), checked
and applied; a mixin of `WizardState`, with the turn-up's action."""

from __future__ import annotations

import random
from dataclasses import dataclass
from itertools import chain, repeat
from operator import itemgetter

from generator.games.base import Action, IllegalAction
from generator.games.deal_checks import card_count, check_hand_sizes, overdealt
from generator.games.tricks import NO_SUIT, ChooseSeat, Deal, deal_hands, draw_cards, fill_by_suit, random_below
from tests.oracles.wizard_rules import CHOOSE_TRUMP, R_COUNTS, R_DEAL, R_FIRST_DEALER, R_TRUMP


@dataclass(frozen=True, slots=True)
class TurnUp:
    """Chance: the card turned after the deal to set trump."""

    card: int


class WizardChance:
    """Chance's moves at a deal: what it may do, and what it does."""

    def _chance(self, action: Action) -> None:
        chance = self.chance
        if chance == "turn" and type(action) is TurnUp:  # the common cases first
            card = action.card
            sampled, self.sampled = self.sampled, None
            if action is not sampled and card not in self.deck_left:  # one sampled here came from the deck
                name = self.table.name[card] if 0 <= card < len(self.table.code) else str(card)
                raise IllegalAction(f"the turned card {name} cannot come from the deck: every copy is already dealt",
                                    R_COUNTS, where={"round": self.round + 1})
            self.turned = card
            if self.game.is_wizard[card]:
                self.phase = CHOOSE_TRUMP
                self.turn = self.dealer
                self.trick_number = 0
                return
            self.trump = NO_SUIT if self.game.is_jester[card] else self.table.suit[card]
            self._start_bidding()
            return
        if chance == "deal" and isinstance(action, Deal):
            self._deal(action)
            return
        where = {"round": self.round + 1}
        if chance == "dealer":
            if not isinstance(action, ChooseSeat) or not 0 <= action.seat < self.num_players:
                raise IllegalAction("the game starts by choosing the first dealer", R_FIRST_DEALER,
                                    where=where)
            self.dealer = action.seat
            self.chance = "deal"
        elif chance == "deal":
            raise IllegalAction("the round starts with the deal", R_DEAL, where=where)
        else:
            raise IllegalAction("after the deal the next card is turned for trump", R_TRUMP, where=where)

    def _deal(self, deal: Deal) -> None:
        size = self.round + 1
        hands = deal.hands
        checked = deal is self.sampled
        self.sampled = None
        if not checked and (len(hands) != self.num_players or set(map(len, hands)) != {size}):
            check_hand_sizes(self, deal, size, f"round {size} deals {card_count(size)} to each player", R_DEAL,
                             {"round": size})
        table = self.table
        suit_of = table.suit
        if checked:
            by_suit = self.by_suit
            fill_by_suit(by_suit, hands, suit_of)  # the round before emptied the lists
            deck_left = self.sampled_left
        else:  # new lists, so a refused deal leaves the state as it was
            by_suit = []
            undealt = list(table.copies)
            try:  # one pass over the dealt cards counts them and sorts each hand by suit
                for hand in hands:
                    split: list[list[int]] = [[] for _ in range(self.game.num_suits + 1)]
                    for card in hand:
                        undealt[card] -= 1
                        split[suit_of[card]].append(card)
                    by_suit.append(split)
            except (IndexError, TypeError):
                raise IllegalAction("the deal holds something that is not a card of the deck", R_COUNTS,
                                    where={"round": size}) from None
            if min(undealt) < 0:
                raise IllegalAction(overdealt(self, hands), R_COUNTS, where={"round": size})
            deck_left = list(chain.from_iterable(map(repeat, range(len(undealt)), undealt)))
        self.hands = list(map(list, hands))
        self.by_suit = by_suit
        if self.game.only_free_cards_repeat:  # a set of the few Wizards and Jesters held, not of the hand
            self.repeats = [len(free) - len(set(free)) if len(free) > 1 else 0
                            for free in map(itemgetter(NO_SUIT), by_suit)]
        else:
            self.repeats = [len(hand) - len(set(hand)) for hand in hands]
        self.trump = NO_SUIT
        self.turned = None
        self.deck_left = deck_left
        if size * self.num_players < table.total:
            self.chance = "turn"
        else:  # final round: every card dealt, no trump (wizard.setup.trump)
            self._start_bidding()

    def sample_chance(self, rng: random.Random) -> Action:
        chance = self.chance
        if chance == "deal":
            size = self.round + 1
            drawn, left = draw_cards(self.table.physical, size * self.num_players, rng)
            left.sort()
            self.sampled_left = left
            deal = self.sampled = Deal(tuple(deal_hands(tuple(drawn), self.num_players, size,
                                                        (self.dealer + 1) % self.num_players)))
            return deal
        if chance == "turn":
            left = self.deck_left
            turn_up = self.sampled = self.game.turn_ups[left[random_below(rng, len(left))]]
            return turn_up
        return self.game.seat_choices[random_below(rng, self.num_players)]
