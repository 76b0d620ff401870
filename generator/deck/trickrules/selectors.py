"""Card selectors of the rules language: which cards a role, a restriction or a count means.

A selector is text: `key:value` terms joined by spaces (every term must hold) into
alternatives joined by commas (any alternative may hold):

    "kind:wizard, kind:jester"               every Wizard and every Jester
    "rank:queen suit:opposite-round"         the Queen of the suit opposite the round's suit
    "suit:round"                             every card of the round's suit
    "card:2-luck"                            one card, by id or code
    "none"                                   no card

Keys: card, kind, suit, rank. A suit may also be `trump`, `opposite-trump` (the suit paired
with trump by [[suits]] opposite: Euchre's suit of the same colour), `round` (the suit revealed
for the round, [rules.round_suit]) or `opposite-round` (its opposite, [[suits]] opposite).
Those four depend on the round, so cards are selected for a given trump and round suit.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..model import Deck

KEYS = ("card", "kind", "suit", "rank")
ROUND_SUITS = ("trump", "opposite-trump", "round", "opposite-round")  # suit values known only during a round
NO_SUIT = -1


@dataclass(frozen=True, slots=True)
class Selector:
    """A parsed selector: alternatives of (key, value) terms, and its text for messages."""

    alternatives: tuple[tuple[tuple[str, str], ...], ...]
    text: str

    @property
    def dynamic(self) -> bool:
        """Whether what it selects depends on the round (trump or round suit)."""
        return any(key == "suit" and value in ROUND_SUITS for terms in self.alternatives for key, value in terms)

    @property
    def empty(self) -> bool:
        return not self.alternatives


NOTHING = Selector((), "none")


def parse_selector(text: str) -> Selector:
    """A selector from its text; `ValueError` saying what is wrong."""
    if not isinstance(text, str):
        raise ValueError(f"a card selector is text such as \"kind:wizard\", not {text!r}")
    if text.strip().casefold() == "none":
        return NOTHING
    alternatives = []
    for part in text.split(","):
        terms = []
        for term in part.split():
            key, colon, value = term.partition(":")
            if not colon or not value:
                raise ValueError(f"{term!r} is not a key:value term; keys: {', '.join(KEYS)} (e.g. suit:hearts)")
            if key not in KEYS:
                raise ValueError(f"unknown key {key!r} in {term!r}; known: {', '.join(KEYS)}")
            if any(seen == key for seen, _ in terms):
                raise ValueError(f"{key}: appears twice in {part.strip()!r}; join alternatives with a comma")
            terms.append((key, value))
        if not terms:
            raise ValueError(f"an empty alternative in {text!r}; write `none` for no card")
        alternatives.append(tuple(terms))
    return Selector(tuple(alternatives), text.strip())


def unknown_values(selector: Selector, deck: Deck, round_suit: bool) -> list[str]:
    """What the selector names that the deck lacks (or a round suit the rules do not reveal)."""
    suits = {suit.id for suit in deck.suits}
    ranks = {rank.id for rank in deck.ranks}
    kinds = {kind.id for kind in deck.kinds}
    problems = []
    for terms in selector.alternatives:
        for key, value in terms:
            if key == "card" and deck.find_card(value) is None:
                problems.append(f"no card {value!r} (use a card's id or code)")
            elif key == "kind" and value not in kinds:
                problems.append(f"no kind {value!r}; known: {', '.join(sorted(kinds))}")
            elif key == "rank" and value not in ranks:
                problems.append(f"no rank {value!r}; known: {', '.join(rank.id for rank in deck.ranks)}")
            elif key == "suit" and value in ("round", "opposite-round") and not round_suit:
                problems.append(f"suit:{value} needs a [rules.round_suit]")
            elif key == "suit" and value not in suits and value not in ROUND_SUITS:
                problems.append(f"no suit {value!r}; known: {', '.join(s.id for s in deck.suits)}, "
                                f"{', '.join(ROUND_SUITS)}")
    return problems


def select(selector: Selector, deck: Deck, trump: int = NO_SUIT, round_suit: int = NO_SUIT) -> frozenset[int]:
    """The indices into `deck.cards` of the cards selected, for this trump and round suit
    (suit indices into `deck.suits`, `NO_SUIT` for none)."""
    suit_ids = [suit.id for suit in deck.suits]
    named = {"trump": trump, "opposite-trump": _opposite(deck, trump, suit_ids), "round": round_suit,
             "opposite-round": _opposite(deck, round_suit, suit_ids)}
    chosen = set()
    for index, card in enumerate(deck.cards):
        card_suit = suit_ids.index(card.suit) if card.suit else NO_SUIT
        for terms in selector.alternatives:
            if all(_holds(key, value, card, card_suit, deck, named, suit_ids) for key, value in terms):
                chosen.add(index)
                break
    return frozenset(chosen)


def _opposite(deck: Deck, suit: int, suit_ids: list[str]) -> int:
    """The suit paired with `suit` by [[suits]] opposite (NO_SUIT for none)."""
    if suit != NO_SUIT and deck.suits[suit].opposite:
        return suit_ids.index(deck.suits[suit].opposite)
    return NO_SUIT


def _holds(key: str, value: str, card, card_suit: int, deck: Deck, named: dict, suit_ids: list[str]) -> bool:
    if key == "card":
        found = deck.find_card(value)
        return found is not None and found.id == card.id
    if key == "kind":
        return card.kind == value
    if key == "rank":
        return card.rank == value
    if value in named:
        return card_suit != NO_SUIT and card_suit == named[value]
    return card.suit == value
