"""What a rulebook contains, in reading order, independent of PDF, HTML or Markdown.

Every format walks the same `Book`, so the three outputs carry the same
headings, anchors and words. Anchors: a rule or section keeps its own id
exactly (a referee's ruling cites `wizard.trick.winner`, and that is where
the link lands); everything the rulebook adds gets a prefixed anchor that
never takes a deck id away.
"""

from __future__ import annotations

import string
from dataclasses import dataclass, field
from typing import Iterator

from ..deck.model import Card, Deck, QuickRef, Rule, Ruling, Section, Variant
from ..faces import paint


@dataclass(frozen=True, slots=True)
class Heading:
    """A heading as every format shows it: level 1 chapters, level 2 rules and groups."""

    level: int
    number: str
    title: str
    anchor: str
    rule_id: str = ""  # shown next to rule headings, e.g. "[wizard.trick.winner]"

    @property
    def label(self) -> str:
        return f"{self.number} {self.title}" if self.number else self.title


@dataclass(frozen=True, slots=True)
class RulingLink:
    anchor: str
    label: str  # "Ruling B.1"


@dataclass(frozen=True, slots=True)
class RuleEntry:
    heading: Heading
    rule: Rule
    rulings: tuple[RulingLink, ...]


@dataclass(frozen=True, slots=True)
class ComponentRow:
    """One kind of card in the components table: how many, split by suit, and a few samples."""

    name: str
    description: str  # markup
    count: int
    by_suit: tuple[tuple[str, int], ...]  # (suit id, copies)
    samples: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class VariantEntry:
    variant: Variant
    anchor: str
    options: tuple[tuple[str, str], ...]  # referee options as (name, value)


@dataclass(frozen=True, slots=True)
class Chapter:
    """One of the deck's own sections, numbered as the deck numbers it."""

    heading: Heading
    section: Section
    rules: tuple[RuleEntry, ...]
    components: tuple[ComponentRow, ...] = ()
    variants: tuple[VariantEntry, ...] = ()


@dataclass(frozen=True, slots=True)
class CardEntry:
    card: Card
    anchor: str
    ruling: RulingLink | None


@dataclass(frozen=True, slots=True)
class CardGroup:
    """Cards shown together: full entries for cards with text, a grid of pictures for plain ones."""

    heading: Heading
    intro: str  # markup
    layout: str  # "entries" or "grid"
    cards: tuple[CardEntry, ...]


@dataclass(frozen=True, slots=True)
class RulingEntry:
    ruling: Ruling
    number: str  # "B.1"
    anchor: str
    rules: tuple[Heading, ...]
    cards: tuple[CardEntry, ...]


@dataclass(frozen=True, slots=True)
class Appendix:
    heading: Heading
    intro: str  # markup
    card_groups: tuple[CardGroup, ...] = ()
    rulings: tuple[RulingEntry, ...] = ()
    variants: tuple[VariantEntry, ...] = ()


@dataclass(frozen=True, slots=True)
class QuickReference:
    """The last page: the deck's own summary, then the kinds of cards at a glance."""

    heading: Heading
    entries: tuple[QuickRef, ...]
    cards_heading: Heading
    components: tuple[ComponentRow, ...]


@dataclass(frozen=True, slots=True)
class Book:
    deck: Deck
    chapters: tuple[Chapter, ...]
    appendices: tuple[Appendix, ...]
    quickref: QuickReference | None
    cover_cards: tuple[Card, ...]
    contents_anchor: str
    card_anchors: dict[str, str] = field(default_factory=dict)  # card id -> anchor

    @property
    def theme(self) -> str:
        """The deck's back colour, darkened if needed so headings in it read on white paper
        and white titles read on it."""
        color = self.deck.back.color
        while paint.luminance(color) > 0.3:
            color = paint.darken(color, 0.15)
        return color

    @property
    def players(self) -> str:
        low, high = self.deck.min_players, self.deck.max_players
        return f"{low}" if low == high else f"{low}–{high}"

    def headings(self) -> Iterator[Heading]:
        """Every heading in reading order (the table of contents, outline and running heads)."""
        for chapter in self.chapters:
            yield chapter.heading
            for entry in chapter.rules:
                yield entry.heading
        for appendix in self.appendices:
            yield appendix.heading
            for group in appendix.card_groups:
                yield group.heading
        if self.quickref:
            yield self.quickref.heading

    def card_anchor(self, card: Card) -> str:
        return self.card_anchors[card.id]


class _Anchors:
    """Hands out unique anchors; the deck's own ids are claimed first so they stay exact."""

    def __init__(self) -> None:
        self.taken: set[str] = set()

    def claim(self, wanted: str) -> str:
        anchor, suffix = wanted, 2
        while anchor in self.taken:
            anchor, suffix = f"{wanted}-{suffix}", suffix + 1
        self.taken.add(anchor)
        return anchor


def has_own_entry(card: Card) -> bool:
    """Cards with words of their own get a full entry; plain suit cards share a picture grid."""
    return bool(card.text.strip() or card.flavor.strip())


def build_book(deck: Deck) -> Book:
    anchors = _Anchors()
    for section in deck.sections:
        anchors.claim(section.id)
        for rule in section.rules:
            anchors.claim(rule.id)
    contents_anchor = anchors.claim("contents")
    card_anchors = {card.id: anchors.claim(f"card-{card.id}") for card in deck.cards}
    letters = iter(string.ascii_uppercase)

    card_letter = next(letters)
    ruling_letter = next(letters) if deck.rulings else ""
    ruling_entries = _ruling_entries(deck, ruling_letter, anchors, card_anchors)
    rulings_by_rule: dict[str, list[RulingLink]] = {}
    for entry in ruling_entries:
        for rule_id in entry.ruling.rules:
            rulings_by_rule.setdefault(rule_id, []).append(RulingLink(entry.anchor, deck.phrase("Ruling {number}", number=entry.number)))
    ruling_links = {entry.ruling.id: RulingLink(entry.anchor, deck.phrase("Ruling {number}", number=entry.number))
                    for entry in ruling_entries}

    variant_entries = tuple(
        VariantEntry(v, anchors.claim(f"variant-{v.id}"), tuple((k, _option_value(v.params[k])) for k in sorted(v.params)))
        for v in deck.variants
    )
    components = _components(deck)
    components_home = _home_section(deck, "components") or (deck.sections[0] if deck.sections else None)
    variants_home = _home_section(deck, "variants")

    chapters = []
    for section in deck.sections:
        rules = tuple(
            RuleEntry(Heading(2, rule.number, rule.title, rule.id, rule_id=rule.id), rule,
                      tuple(rulings_by_rule.get(rule.id, ())))
            for rule in section.rules
        )
        chapters.append(Chapter(
            heading=Heading(1, section.number, section.title, section.id),
            section=section,
            rules=rules,
            components=components if section is components_home else (),
            variants=variant_entries if section is variants_home else (),
        ))

    appendices = [Appendix(
        heading=Heading(1, card_letter, deck.phrase("Card reference"), anchors.claim("card-reference")),
        intro=deck.phrase("Every distinct card in the deck, {total} cards in all. A card that comes in several "
                          "copies is shown once, with the number of copies.", total=deck.total),
        card_groups=_card_groups(deck, card_letter, anchors, card_anchors, ruling_links),
    )]
    if ruling_entries:
        appendices.append(Appendix(
            heading=Heading(1, ruling_letter, deck.phrase("Rulings of this edition"), anchors.claim("rulings")),
            intro=deck.phrase("The rules this edition is based on are silent or unclear on the questions below. "
                              "These rulings are this edition's decisions, not part of the original text; "
                              "the referee program follows them."),
            rulings=ruling_entries,
        ))
    if variant_entries and variants_home is None:
        appendices.append(Appendix(
            heading=Heading(1, next(letters), deck.phrase("Variants"), anchors.claim("variants")),
            intro=deck.phrase("Agree on any variant before the game starts."),
            variants=variant_entries,
        ))
    quickref = None
    if deck.quickref:
        quickref = QuickReference(Heading(1, "", deck.phrase("Quick reference"), anchors.claim("quick-reference")),
                                  deck.quickref,
                                  Heading(2, "", deck.phrase("The cards at a glance"),
                                          anchors.claim("quick-reference-cards")),
                                  components)
    return Book(deck, tuple(chapters), tuple(appendices), quickref, cover_cards(deck),
                contents_anchor, card_anchors)


def cover_cards(deck: Deck, most: int = 5) -> tuple[Card, ...]:
    """Cards to fan out on the cover: the special cards and the top card of each suit,
    the first special card (usually the strongest) in the middle."""
    special = [card for card in deck.cards if has_own_entry(card)]
    rank_order = {rank.id: rank.order for rank in deck.ranks}
    tops = []
    for suit in deck.suits:
        in_suit = [card for card in deck.cards if card.suit == suit.id and not has_own_entry(card)]
        if in_suit:
            tops.append(max(in_suit, key=lambda card: rank_order.get(card.rank or "", -1)))
    picked = (special[:2] + tops + special[2:])[:most]
    if len(picked) >= 3:
        picked.insert(len(picked) // 2, picked.pop(0))
    return tuple(picked)


def _home_section(deck: Deck, role: str) -> Section | None:
    """The section a generated table belongs in: the first of its role."""
    return next((s for s in deck.sections if s.role == role), None)


def _option_value(value: object) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def _components(deck: Deck) -> tuple[ComponentRow, ...]:
    rows = []
    for kind in deck.kinds:
        cards = [card for card in deck.cards if card.kind == kind.id]
        if not cards:
            continue
        by_suit = tuple(
            (suit.id, sum(card.count for card in cards if card.suit == suit.id))
            for suit in deck.suits if any(card.suit == suit.id for card in cards)
        )
        rows.append(ComponentRow(kind.name, kind.description, sum(card.count for card in cards),
                                 by_suit, _samples(deck, cards)))
    return tuple(rows)


def _samples(deck: Deck, cards: list[Card], most: int = 4) -> tuple[Card, ...]:
    """A few cards that show what a kind looks like: the highest of each suit, else the first few."""
    suits = [suit.id for suit in deck.suits if any(card.suit == suit.id for card in cards)]
    if not suits:
        return tuple(cards[:most])
    rank_order = {rank.id: rank.order for rank in deck.ranks}
    samples = []
    for suit in suits[:most]:
        in_suit = [card for card in cards if card.suit == suit]
        samples.append(max(in_suit, key=lambda card: rank_order.get(card.rank or "", -1)))
    return tuple(samples)


def _card_groups(deck: Deck, letter: str, anchors: _Anchors, card_anchors: dict[str, str],
                 ruling_links: dict[str, RulingLink]) -> tuple[CardGroup, ...]:
    def entry(card: Card) -> CardEntry:
        return CardEntry(card, card_anchors[card.id], ruling_links.get(card.ruling))

    groups: list[tuple[str, str, str, str, list[Card]]] = []  # (title, anchor wish, intro, layout, cards)
    for kind in deck.kinds:
        cards = [card for card in deck.cards if card.kind == kind.id and has_own_entry(card)]
        if cards:
            groups.append((kind.name, f"cards-{kind.id}", kind.description, "entries", cards))
    rank_order = {rank.id: rank.order for rank in deck.ranks}
    for suit in deck.suits:
        cards = [card for card in deck.cards if card.suit == suit.id and not has_own_entry(card)]
        if cards:
            cards.sort(key=lambda card: rank_order.get(card.rank or "", -1))
            intro = suit.description or (deck.phrase("One card.") if len(cards) == 1 else
                                         deck.phrase("{count} cards, lowest to highest.", count=len(cards)))
            groups.append((suit.name, f"cards-{suit.id}", intro, "grid", cards))
    for kind in deck.kinds:
        cards = [card for card in deck.cards if card.kind == kind.id and card.suit is None
                 and not has_own_entry(card)]
        if cards:
            groups.append((kind.name, f"cards-{kind.id}-plain", kind.description, "grid", cards))
    return tuple(
        CardGroup(Heading(2, f"{letter}.{index}", title, anchors.claim(anchor)), intro, layout,
                  tuple(entry(card) for card in cards))
        for index, (title, anchor, intro, layout, cards) in enumerate(groups, start=1)
    )


def _ruling_entries(deck: Deck, letter: str, anchors: _Anchors,
                    card_anchors: dict[str, str]) -> tuple[RulingEntry, ...]:
    entries = []
    for index, ruling in enumerate(deck.rulings, start=1):
        rules = tuple(Heading(2, deck.rule(rule_id).number, deck.rule(rule_id).title, rule_id, rule_id=rule_id)
                      for rule_id in ruling.rules)
        cards = tuple(CardEntry(card, card_anchors[card.id], None)
                      for card in (deck.card(ref) for ref in ruling.cards))
        entries.append(RulingEntry(ruling, f"{letter}.{index}", anchors.claim(ruling.id), rules, cards))
    return tuple(entries)
