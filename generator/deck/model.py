"""The typed deck model every other part of deckgen reads.

A `Deck` is built by `generator.deck.loader` from a deck's TOML file and is immutable
afterwards: renderers, exporters, the rulebook, the validator and the game
engines all read the same object.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing at start-up
if TYPE_CHECKING:
    from typing import Any, Iterator, Mapping

# Trim sizes in millimetres for the card sizes the print services sell.
CARD_SIZES_MM: Mapping[str, tuple[float, float]] = MappingProxyType(
    {
        "poker": (63.0, 88.0),
        "bridge": (57.0, 89.0),
        "tarot": (70.0, 120.0),
        "mini": (44.0, 63.0),
        "square": (70.0, 70.0),
        "poker-in": (63.5, 88.9),  # 2.5×3.5 in exactly, the size US print services sell
    }
)

SECTION_ROLES = ("overview", "components", "setup", "play", "scoring", "end", "variants", "other")


@dataclass(frozen=True, slots=True)
class CardSize:
    """A card's trim size, by name (`CARD_SIZES_MM`)."""

    name: str
    width_mm: float
    height_mm: float


@dataclass(frozen=True, slots=True)
class Suit:
    """One of the deck's suits."""

    id: str
    name: str
    symbol: str
    code: str
    color: str
    opposite: str | None = None
    description: str = ""
    layout: str = ""  # face layout for cards of this suit


@dataclass(frozen=True, slots=True)
class Rank:
    """One of the deck's ranks, `order` its place from low to high."""

    id: str
    name: str
    code: str
    order: int  # position in the deck's rank list, low to high
    value: int | None = None
    kind: str | None = None
    index: str = ""  # corner index label; defaults to the code
    layout: str = ""  # face layout for cards of this rank


@dataclass(frozen=True, slots=True)
class Kind:
    """A kind of card (number card, trump, special...)."""

    id: str
    name: str
    description: str = ""
    color: str = ""
    layout: str = ""  # face layout for cards of this kind
    back_layout: str = ""  # back layout for cards of this kind


@dataclass(frozen=True, slots=True)
class Card:
    """One distinct card; `count` copies of it are in the deck."""

    id: str
    name: str
    code: str
    kind: str
    type_line: str
    count: int = 1
    suit: str | None = None
    rank: str | None = None
    corner: str = ""
    text: str = ""
    flavor: str = ""
    art: Path | None = None
    props: Mapping[str, Any] = field(default_factory=dict)
    ruling: str = ""  # id of the ruling that decided something about this card
    layout: str = ""  # this card's own face layout
    back_layout: str = ""  # this card's own back layout


@dataclass(frozen=True, slots=True)
class Rule:
    """One numbered rule with a stable id."""

    id: str
    title: str
    text: str
    number: str  # "3.2": section number, then position in the section


@dataclass(frozen=True, slots=True)
class Section:
    """A numbered section of the rules and the rules in it."""

    id: str
    title: str
    role: str
    text: str
    number: str
    rules: tuple[Rule, ...]


@dataclass(frozen=True, slots=True)
class Ruling:
    """A decision this edition made where the source rules were silent."""

    id: str
    question: str
    decision: str
    reason: str
    rules: tuple[str, ...] = ()
    cards: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Variant:
    """A named variant: its rules text and the engine parameters it changes."""

    id: str
    name: str
    text: str
    params: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class QuickRef:
    """One entry of the rulebook's quick reference."""

    title: str
    text: str


@dataclass(frozen=True, slots=True)
class Back:
    """The built-in card back's design."""

    title: str
    subtitle: str
    pattern: str
    color: str
    accent: str


@dataclass(frozen=True, slots=True)
class FontFamily:
    """A deck's own font: a family name and its TTF/OTF files by style (regular, bold, italic, bolditalic)."""

    family: str
    files: Mapping[str, Path]


@dataclass(frozen=True, slots=True)
class Icon:
    """A designer's icon, drawn by layouts and inline in text as {icon:NAME}."""

    name: str
    path: Path
    tint: bool = False  # one-colour: painted in the colour of the text it sits in


@dataclass(frozen=True, slots=True)
class SkillTarget:
    """A skill gap the designer wants: `player` finishes ahead of `beats` at least `at_least`
    of the time, in games with one `player` seat and `beats` in every other."""

    player: str  # a player as `deckgen simulate --bot` names it; search players add "-BUDGET"
    beats: str
    at_least: float
    players: tuple[int, ...] = ()  # the player counts it is for; () = those of [playtest]
    field: str = ""  # where it is written, e.g. "playtest.skill[0]"


@dataclass(frozen=True, slots=True)
class PlaytestTargets:
    """What the designer wants the playtest to show ([playtest]); `deckgen validate` checks each
    for every player count it is for (all of the deck's when `players` is empty)."""

    players: tuple[int, ...] = ()
    first_seat_win: tuple[float, float] | None = None  # band for seat 1's share of wins
    median_length: tuple[int, int] | None = None  # band for the median moves per game
    timeouts_below: float | None = None  # most share of games the length cap may stop
    skill: tuple[SkillTarget, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.first_seat_win or self.median_length or self.timeouts_below is not None or self.skill)


@dataclass(frozen=True, slots=True)
class TuckBox:
    """[tuck_box]: how the deck's box is made (generator.printing.tuckbox draws it)."""

    stock_mm: float = 0.32  # one card's thickness: 300 gsm card stock is about 0.3 mm
    clearance_mm: float = 1.5  # room around the cards on each side, so the deck slides in
    title: str = ""  # on the front and the lid; default the deck's name
    subtitle: str = ""  # below the title; default players and play time


@dataclass(frozen=True, slots=True)
class Token:
    """One [[tokens]] entry: a counter drawn by a layout like a card face (generator.printing.tokens)."""

    id: str
    name: str
    count: int = 1
    shape: str = "circle"  # circle or square
    size_mm: float = 25.0  # diameter or side
    text: str = ""
    color: str = ""  # '' = its kind's colour
    kind: str = ""
    layout: str = "token"
    props: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Deck:
    """A loaded, checked deck: everything the deck file and its included files say."""

    id: str
    name: str
    version: str
    designer: str
    credits: tuple[str, ...]
    description: str
    min_players: int
    max_players: int
    play_time: str
    card_size: CardSize
    engine: str | None
    params: Mapping[str, Any]
    suits: tuple[Suit, ...]
    ranks: tuple[Rank, ...]
    kinds: tuple[Kind, ...]
    cards: tuple[Card, ...]
    sections: tuple[Section, ...]
    rulings: tuple[Ruling, ...]
    variants: tuple[Variant, ...]
    quickref: tuple[QuickRef, ...]
    back: Back
    source: Path | None = None
    base_url: str | None = None  # where the exports will be served ([publish] base_url or build --base-url)
    papers: tuple[str, ...] = ("a4",)  # the papers a build prints sheets on (build --paper)
    inputs: tuple[Path, ...] = ()  # further files the deck reads: spreadsheets of [[card_sources]]
    lang: str = ""  # the language of a translated deck (generator.deck.translate); "" for the deck's own
    # The rulebook's own words in this language, keyed by their English wording
    # (generator/deck/phrases.py); empty for the deck's own language.
    phrases: Mapping[str, str] = field(default_factory=dict)
    language: str = "en"  # BCP 47 tag of the deck's own language
    layout: str = ""  # the deck's default face layout ('' = chosen by what each card has)
    back_layout: str = ""  # the deck's default back layout ('' = the built-in back)
    layouts: Any = None  # generator.deck.layouts.LayoutBook: built-in, shared and the deck's own layouts
    fonts: tuple["FontFamily", ...] = ()
    # The deck's [rules] table as written: a trick-taking game the rules engine plays
    # (generator.deck.trickrules reads it for a set of parameters); None without one.
    trick_rules: Mapping[str, Any] | None = None
    icons: tuple["Icon", ...] = ()
    playtest: PlaytestTargets = PlaytestTargets()  # [playtest]: the targets `deckgen validate` checks
    date: str = ""  # [deck] date, YYYY-MM-DD: this edition's release date ('' = not given)
    version_mark: bool = False  # [deck] version_mark: layouts' {version_mark} shows "v<version> · <code>"
    tuck_box: TuckBox = TuckBox()
    tokens: tuple[Token, ...] = ()

    @property
    def total(self) -> int:
        return sum(card.count for card in self.cards)

    @property
    def folder(self) -> Path:
        return self.source.parent if self.source else Path.cwd()

    def phrase(self, english: str, **values: Any) -> str:
        """One of the rulebook's own words in the deck's language, `{names}` filled in."""
        return self.phrases.get(english, english).format(**values)

    def suit(self, suit_id: str) -> Suit:
        return _by_id(self.suits, suit_id, "suit")

    def rank(self, rank_id: str) -> Rank:
        return _by_id(self.ranks, rank_id, "rank")

    def kind(self, kind_id: str) -> Kind:
        return _by_id(self.kinds, kind_id, "kind")

    def card(self, ref: str) -> Card:
        """A card by code (case-insensitive), id or exact name."""
        found = self.find_card(ref)
        if found is None:
            raise KeyError(f"no card {ref!r} in deck {self.id!r}")
        return found

    def find_card(self, ref: str) -> Card | None:
        wanted = ref.strip()
        upper = wanted.upper()
        for card in self.cards:
            if card.code.upper() == upper or card.id == wanted or card.name == wanted:
                return card
        folded = wanted.casefold()
        for card in self.cards:
            if card.name.casefold() == folded:
                return card
        return None

    def rules(self) -> Iterator[Rule]:
        for section in self.sections:
            yield from section.rules

    def rule(self, rule_id: str) -> Rule:
        for rule in self.rules():
            if rule.id == rule_id:
                return rule
        raise KeyError(f"no rule {rule_id!r} in deck {self.id!r}")

    def ruling(self, ruling_id: str) -> Ruling:
        return _by_id(self.rulings, ruling_id, "ruling")

    def variant(self, variant_id: str) -> Variant:
        return _by_id(self.variants, variant_id, "variant")

    def copies(self) -> Iterator[Card]:
        """Every physical card, in deck order: one item per copy."""
        for card in self.cards:
            for _ in range(card.count):
                yield card


def _by_id(items, wanted: str, what: str):
    for item in items:
        if item.id == wanted:
            return item
    known = ", ".join(item.id for item in items) or "none"
    raise KeyError(f"unknown {what} {wanted!r}; known: {known}")
