"""Wizard Hearts: chance's moves at each deal (the shuffle, the Shun turn-up), checked and applied;
a mixin of `WizardHeartsState`, with the turn-up's action."""

from __future__ import annotations

import random
from dataclasses import dataclass
from itertools import chain

from generator.games.base import Action, IllegalAction
from generator.games.deal_checks import check_hand_sizes, overdealt
from generator.games.tricks import ChooseSeat, Deal, cards_left, deal_hands, random_below, shuffled
from tests.oracles.wizard_hearts_rules import EMPTY_TRICK, PASSING, R_DEAL, R_DEALER, R_DECK, R_SHUN


@dataclass(frozen=True, slots=True)
class Shun:
    """Chance: the suit revealed as this hand's Shun suit."""

    suit: int


class WizardHeartsChance:
    """Chance's moves at a deal: what it may do, and what it does."""

    def _chance(self, action: Action) -> None:
        where = {"round": self.round + 1}
        if self.chance == "dealer":
            if not isinstance(action, ChooseSeat) or not 0 <= action.seat < self.num_players:
                raise IllegalAction("the game starts by choosing the first dealer", R_DEALER, where=where)
            self.dealer = action.seat
            self.chance = "shun"
        elif self.chance == "shun":
            if not isinstance(action, Shun) or action.suit not in self.game.opposite_queen:
                suit = (self.game.deck.suits[action.suit].name if isinstance(action, Shun)
                        and 0 <= action.suit < len(self.game.deck.suits) else "that")
                raise IllegalAction(f"{suit} cannot be the Shun suit: Luck is skipped when revealing", R_SHUN,
                                    [self.game.deck.suits[s].name for s in self.game.shun_suits], where)
            self.shun = action.suit
            self.queen = self.game.opposite_queen[action.suit]
            self.points = self.game._points[action.suit]
            self.chance = "deal"
        else:
            if not isinstance(action, Deal):
                raise IllegalAction("after the Shun suit is revealed the cards are dealt", R_DEAL, where=where)
            self._deal(action, where)

    def _deal(self, deal: Deal, where: dict) -> None:
        size = self.game.hand_size(self.num_players)
        checked = deal is self.sampled
        self.sampled = None
        if not checked and (len(deal.hands) != self.num_players or set(map(len, deal.hands)) != {size}):
            check_hand_sizes(self, deal, size, f"with {self.num_players} players each player is dealt {size}", R_DEAL, where)
        if not checked and sorted(chain(*deal.hands, deal.aside)) != self.table.physical:  # not every copy once
            copies = self.table.copies
            left = cards_left(copies, (*deal.hands, deal.aside))
            if min(left) < 0:
                raise IllegalAction(overdealt(self, deal.hands, deal.aside, "the Cauldron"), R_DECK, where=where)
            card = next((card for card, count in enumerate(left) if count > 0), None)
            if card is None:  # the counts add up, so something dealt is no card index (-1, say)
                raise IllegalAction("the deal holds something that is not a card of the deck", R_DECK, where=where)
            raise IllegalAction(f"{self.table.name[card]} is neither dealt nor in the Cauldron", R_DEAL, where=where)
        self.hands = list(map(list, deal.hands))
        self.cauldron = tuple(deal.aside)
        self.trick = []
        self.led = EMPTY_TRICK
        self.trick_number = 0
        self.won = [0] * self.num_players
        self.hand_points = [0] * self.num_players
        self.captured = [0] * self.num_players
        self.broken = False
        self.passed = [[] for _ in range(self.num_players)]
        self.passes_made = 0
        if self.direction == "hold" or self.game.pass_count == 0:
            self._start_play()
        else:
            self.phase = PASSING
            self.turn = (self.dealer + 1) % self.num_players

    def sample_chance(self, rng: random.Random) -> Action:
        if self.chance == "dealer":
            return self.game.seat_choices[random_below(rng, self.num_players)]
        physical = self.table.physical
        if self.chance == "shun":
            suit_of, luck = self.table.suit, self.game.luck
            while True:  # turn cards until one is not Luck
                card = physical[random_below(rng, len(physical))]
                if suit_of[card] != luck:
                    return Shun(suit_of[card])
        order = tuple(shuffled(physical, rng))
        size = self.game.hand_size(self.num_players)
        hands = deal_hands(order, self.num_players, size, (self.dealer + 1) % self.num_players)  # slices: tuples
        deal = self.sampled = Deal(tuple(hands), order[size * self.num_players:])
        return deal
