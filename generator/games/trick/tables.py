"""The card tables a game read from `[rules]` plays by: one tuple per fact, indexed by card.

What does not change during a game is built once (`GameTables`: which list of a hand each
card is kept in, who may play it any time). What depends on the round's trump and round
suit is built on first use for each pair and kept (`RoundTables`): each card's claim on a
trick by the suit led, which suit a card sets when it leads, its points, and the cards each
restriction and each scoring count names.
"""

from __future__ import annotations

from ...deck.trickrules.selectors import Selector, select
from ...deck.trickrules.spec import TrickRules
from ..tricks import NO_SUIT, CardTable

# by_suit lists of a hand: one per suit, then these two (negative, so they index from the end)
OTHER = -2  # cards without a suit that may not be played at any time
FREE = -1  # cards that may be played at any time (Wizard's Wizards and Jesters)
# the suit a trick follows, besides a suit index: nothing yet (only cards that set no suit
# so far), or an always-winning card set it (nobody has to follow)
OPEN = -2

WIN = 10_000  # the claim of an always-winning card
TRUMP_CLAIM = 1_000  # added to a trump's rank
TOP_CLAIM = 5_000  # the highest card above the trumps ([rules.trump] top); the next is one less
LOSE = -1  # the claim of an always-losing card, and of a card that can not win this trick


class GameTables:
    """Facts fixed for the whole game."""

    def __init__(self, rules: TrickRules, table: CardTable):
        deck = table.deck
        self.num_suits = len(deck.suits)
        any_time = select(rules.any_time, deck)
        self.any_time = tuple(card in any_time for card in range(len(table.code)))
        # a card's list in a hand: its suit, FREE for any-time cards without a suit, OTHER for the rest
        self.bucket = tuple(FREE if free and suit == NO_SUIT else OTHER if suit == NO_SUIT else suit
                            for free, suit in zip(self.any_time, table.suit))
        # any-time cards with a suit: following needs the slower general test
        self.suited_any_time = any(free and suit != NO_SUIT for free, suit in zip(self.any_time, table.suit))
        # the lowest and highest rank order of the deck, for the bots
        ranks = [rank for rank in table.rank if rank >= 0]
        self.top_rank = max(ranks) if ranks else 0
        self.bottom_rank = min(ranks) if ranks else 0


class RoundTables:
    """Facts for one trump and round suit (suit indices, NO_SUIT for none)."""

    def __init__(self, rules: TrickRules, table: CardTable, trump: int, round_suit: int):
        deck = table.deck
        size = len(table.code)
        cards = range(size)

        def chosen(selector) -> frozenset[int]:
            return select(selector, deck, trump, round_suit)

        wins = chosen(rules.always_wins.cards) if rules.always_wins else frozenset()
        loses = chosen(rules.always_loses.cards) if rules.always_loses else frozenset()
        self.wins, self.loses = wins, loses
        self.last_wins = set()  # claims where the last of equal cards takes the trick
        if rules.always_wins and rules.always_wins.among_equals == "last":
            self.last_wins.add(WIN)
        if rules.always_loses and rules.always_loses.among_equals == "last":
            self.last_wins.add(LOSE)
        rank_of = table.rank
        # cards above the trumps (Euchre's bowers) belong to the trump suit this round, highest first
        top: dict[int, int] = {}
        if trump != NO_SUIT:
            for place, selector in enumerate(rules.trump.top):
                for card in chosen(selector):
                    top.setdefault(card, TOP_CLAIM - place)
        # each card's suit this round, and its list in a hand (`GameTables.bucket`, a top card in trump's)
        self.suit = suit_of = tuple(trump if card in top else suit for card, suit in enumerate(table.suit))
        any_time = select(rules.any_time, deck)
        self.bucket = tuple(FREE if card in any_time and suit == NO_SUIT else OTHER if suit == NO_SUIT else suit
                            for card, suit in enumerate(suit_of))

        def claim(card: int, led: int) -> int:
            if card in wins:
                return WIN
            suit = suit_of[card]
            if card in loses or suit == NO_SUIT:
                return LOSE
            if suit == trump:
                return top.get(card) or TRUMP_CLAIM + rank_of[card]
            return rank_of[card] if suit == led else LOSE

        suits = range(len(deck.suits))
        # claims[led][card], led a suit index, OPEN (-2) or NO_SUIT (-1): negative indices from the end
        self.claims = tuple(tuple(claim(card, led) for card in cards) for led in (*suits, OPEN, NO_SUIT))
        # the suit a card sets when the trick has none yet
        self.sets_led = tuple(OPEN if card in wins else NO_SUIT if card in loses or suit_of[card] == NO_SUIT
                              else suit_of[card] for card in cards)
        points = [0] * size
        for entry in rules.points:
            for card in chosen(entry.cards):
                points[card] += entry.points
        self.points = tuple(points)
        self.restricted = tuple(chosen(restriction.cards) for restriction in rules.play.restrictions)
        # per restriction, what a message calls each card it names (the name of its first alternative)
        self.restricted_names = tuple(_names(restriction, chosen) for restriction in rules.play.restrictions)
        self.breaks = tuple(chosen(restriction.breaks) for restriction in rules.play.restrictions)
        self.counted = tuple(chosen(selector) for selector in rules.scoring.selectors)


def _names(restriction, chosen) -> dict[int, str]:
    names = restriction.names
    if len(names) == 1:
        return dict.fromkeys(chosen(restriction.cards), names[0])
    found: dict[int, str] = {}
    for terms, name in zip(restriction.cards.alternatives, names):
        for card in chosen(Selector((terms,), "")):
            found.setdefault(card, name)
    return found


def winner_position(claims: tuple[int, ...], last_wins: set[int]) -> int:
    """Which card of a trick wins, from the cards' claims: the first of the greatest, or the
    last where the rules say the last of equal cards wins."""
    best = max(claims)
    if best in last_wins:
        return len(claims) - 1 - claims[::-1].index(best)
    return claims.index(best)
