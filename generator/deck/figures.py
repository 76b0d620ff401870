"""Figures of play in rule text: a trick, a hand, a goal or a manoeuvre shown with the deck's cards.

A figure is a paragraph of its own (blank lines around it) written as

    {KIND: CARD CARD ... | OPTION VALUE ... | ... | caption WORDS}

with the cards in the deck's codes (or ids). Each kind takes its own options (`OPTIONS`;
docs/deck-format.md describes them); `caption` takes inline markup and may be quoted when it
holds a `|`. `parse` reads one figure (raising `FigureSyntaxError`), `check` tests it against
a deck (unknown cards, suits, positions), and `describe` puts it into words for alt text and
plain-text exports. Whether what a figure claims is right is the referee's business:
`generator.games.play_figures` replays it through the deck's engine.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

try:  # the C module behind hashlib.sha1, without hashlib loading OpenSSL (~5 ms) for `referee`
    from _sha1 import sha1
except ImportError:  # a Python built without it
    from hashlib import sha1

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing at start-up
if TYPE_CHECKING:
    from typing import Iterator

    from .model import Card, Deck, Suit

SEATS = tuple(f"p{number}" for number in range(1, 10))
MANOEUVRES = ("score", "bludger", "snatch", "outfly", "search")
_TARGETED = ("score", "bludger", "outfly")
QUAFFLE = "quaffle"  # the id of Quidditch v2's Quaffle card, drawn with whoever controls it
MANOEUVRE_NAMES = {"score": "Score", "bludger": "Bludger", "snatch": "Snatch", "outfly": "Outfly", "search": "Search"}

# What each option takes: "flag" nothing, "suit" a suit (id, name or code), "suit-or-none",
# "card-or-none", "position" a card's place in the figure (1..n), "positions" several,
# "integer", "integers", "names" words, "held" a position then cards, "cards" cards,
# "seat" an optional player P1..P9, "holder" a player or centre, "variant" a deck variant's id, "caption" inline markup.
OPTIONS: dict[str, dict[str, str]] = {
    "trick": {"trump": "suit-or-none", "shun": "suit", "winner": "position", "players": "names",
              "held": "held", "points": "integer", "first": "flag", "variant": "variant", "caption": "caption"},
    "hand": {"mark": "positions", "caption": "caption"},
    "goal": {"keeper": "card-or-none", "house": "suit", "rival": "suit", "scores": "flag", "blocked": "flag",
             "variant": "variant", "caption": "caption"},
    "manoeuvre": {**{kind: "seat" for kind in MANOEUVRES}, "dominance": "integers", "quaffle": "holder",
                  **{seat: "cards" for seat in SEATS[1:]}, "allowed": "flag", "refused": "flag",
                  "dopplebeater": "flag", "feint": "flag", "variant": "variant", "caption": "caption"},
}
KINDS = tuple(OPTIONS)
_REPEATABLE = {"held"}
# Options of which a figure states one at most: the claims that contradict each other.
_EXCLUSIVE = (("scores", "blocked"), ("allowed", "refused"), MANOEUVRES)

FIGURE_START = re.compile(r"\{\s*(" + "|".join(KINDS) + r")\s*:")
_WHOLE = re.compile(r"\{\s*(?P<kind>[a-z]+)\s*:(?P<body>.*)\}", re.S)


class FigureSyntaxError(ValueError):
    """A figure that cannot be read; the message says what is wrong and what is allowed."""


@dataclass(frozen=True, slots=True)
class Figure:
    """One figure as written: its kind, the cards after the colon, and the options in order."""

    kind: str
    cards: tuple[str, ...]
    options: tuple[tuple[str, tuple[str, ...]], ...]
    caption: str = ""  # inline markup
    text: str = ""  # the figure as written, for messages

    def has(self, name: str) -> bool:
        return any(key == name for key, _ in self.options)

    def value(self, name: str) -> str | None:
        values = self.values(name)
        return values[0] if values else None

    def values(self, name: str) -> tuple[str, ...]:
        return next((values for key, values in self.options if key == name), ())

    def every(self, name: str) -> list[tuple[str, ...]]:
        return [values for key, values in self.options if key == name]

    @property
    def key(self) -> str:
        """A name for the figure's picture file, the same whenever the figure is the same."""
        return sha1(self.text.encode("utf-8")).hexdigest()[:12]

    @property
    def manoeuvre(self) -> tuple[str, str]:
        """(manoeuvre, target seat as "P2" or "") of a manoeuvre figure."""
        kind = next(key for key, _ in self.options if key in MANOEUVRES)
        target = self.value(kind)
        return kind, (target.upper() if target else "P2" if kind in _TARGETED else "")


def is_figure(text: str) -> bool:
    """Whether a paragraph (its lines joined) is written as a figure, well formed or not."""
    return bool(FIGURE_START.match(text.strip()))


def parse(text: str) -> Figure:
    """One figure paragraph; raises `FigureSyntaxError`."""
    source = " ".join(text.split())
    whole = _WHOLE.fullmatch(source)
    if not whole:
        raise FigureSyntaxError("a figure is one paragraph {KIND: CARDS | OPTION ...}: it must end with '}' "
                                "and have nothing after it")
    kind = whole.group("kind")
    if kind not in OPTIONS:
        raise FigureSyntaxError(f"unknown figure {kind!r}; figures are {', '.join(KINDS)}")
    segments = _split(whole.group("body"))
    cards = tuple(_words(segments[0]))
    if not cards and kind != "manoeuvre":
        raise FigureSyntaxError(f"a {kind} figure shows cards: list their codes after '{kind}:', "
                                f"e.g. {{{kind}: 7H JE QS}}")
    allowed = OPTIONS[kind]
    options: list[tuple[str, tuple[str, ...]]] = []
    caption = ""
    for segment in segments[1:]:
        name, _, rest = segment.strip().partition(" ")
        key = name.casefold()
        if not key:
            raise FigureSyntaxError("an empty option between two '|'")
        if key not in allowed:
            raise FigureSyntaxError(f"{kind} figures have no option {name!r}; they take "
                                    f"{', '.join(_option_names(kind))}")
        given = caption if key == "caption" else any(existing == key for existing, _ in options)
        if given and key not in _REPEATABLE:
            raise FigureSyntaxError(f"option {key!r} is given twice")
        if key == "caption":
            caption = _unquote(rest.strip())
            if not caption:
                raise FigureSyntaxError("caption needs words after it")
            continue
        options.append((key, _values(kind, key, allowed[key], _words(rest))))
    for group in _EXCLUSIVE:
        given = [key for key, _ in options if key in group]
        if len(given) > 1:
            raise FigureSyntaxError(f"{' and '.join(given)} contradict each other: state one")
    if kind == "manoeuvre":
        if not any(key in MANOEUVRES for key, _ in options):
            raise FigureSyntaxError(f"say which manoeuvre the figure shows: one of {', '.join(MANOEUVRES)}, "
                                    "e.g. {manoeuvre: QUAFFLE | score P2 | dominance 6 2 | allowed}")
        if not any(key == "dominance" for key, _ in options):
            raise FigureSyntaxError("a manoeuvre depends on dominance: add `dominance D1 D2 ...`, "
                                    "one number per player from P1")
    return Figure(kind, cards, tuple(options), caption, source)


def _option_names(kind: str) -> list[str]:
    names = list(OPTIONS[kind])
    if kind == "manoeuvre":
        names = [name for name in names if name not in SEATS] + ["P2 ... P9"]
    return names


def _split(body: str) -> list[str]:
    """The body cut at each '|' outside double quotes."""
    segments, current, quoted = [], [], False
    for char in body:
        if char == '"':
            quoted = not quoted
        if char == "|" and not quoted:
            segments.append("".join(current))
            current = []
        else:
            current.append(char)
    if quoted:
        raise FigureSyntaxError('a caption\'s opening " has no closing "')
    segments.append("".join(current))
    return segments


_SEPARATORS = re.compile(r"[\s,]+")


def _words(text: str) -> list[str]:
    return [word for word in _SEPARATORS.split(text) if word]


def _unquote(text: str) -> str:
    return text[1:-1].strip() if len(text) >= 2 and text[0] == text[-1] == '"' else text


def _values(kind: str, key: str, takes: str, words: list[str]) -> tuple[str, ...]:
    def need(count: str) -> FigureSyntaxError:
        return FigureSyntaxError(f"option {key!r} takes {count}")

    if takes == "flag":
        if words:
            raise need("no value")
        return ()
    if takes == "holder":
        if len(words) != 1 or words[0].casefold() not in SEATS + ("centre", "center"):
            raise need("one player, P1 to P9, or centre")
        return tuple(words)
    if takes == "seat":
        if len(words) > 1 or (words and words[0].casefold() not in SEATS):
            raise need("at most one player, P1 to P9 (the target; P2 when not said)")
        return tuple(words)
    if not words:
        raise need({"suit": "a suit", "suit-or-none": "a suit or none", "card-or-none": "a card or none",
                    "position": "a card's position, 1 for the first", "positions": "card positions",
                    "integer": "a whole number", "integers": "whole numbers", "names": "names",
                    "held": "a position and the cards that player also held, e.g. held 3 9S 2S",
                    "cards": "card codes", "variant": "a variant id"}[takes])
    if takes in ("suit", "suit-or-none", "card-or-none", "variant", "position", "integer") and len(words) > 1:
        raise need("one value")
    if takes in ("position", "positions", "integer", "integers", "held"):
        numbers = words[:1] if takes == "held" else words
        for word in numbers:
            if not re.fullmatch(r"[+-]?\d{1,3}", word) or (takes != "integer" and takes != "integers" and int(word) < 1):
                raise need("a whole number" + ("" if takes.startswith("integer") else " from 1"))
        if takes == "held" and len(words) < 2:
            raise need("a position and the cards that player also held, e.g. held 3 9S 2S")
    return tuple(words)


# -- figures in a text ------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Found:
    """A figure paragraph in a text: its line (0 for the text's first), and the figure or what is wrong."""

    line: int
    figure: Figure | None
    error: str = ""


_PARAGRAPHS = re.compile(r"(\n\s*\n)")  # the blank-line separators are kept, to count lines


def find(text: str) -> Iterator[Found]:
    """Every figure in a text, and every figure start that is not a paragraph of its own."""
    line = 0
    for piece in _PARAGRAPHS.split(text):
        if piece.strip():
            leading = piece[:len(piece) - len(piece.lstrip())].count("\n")
            joined = " ".join(piece.split())
            if is_figure(joined):
                try:
                    yield Found(line + leading, parse(joined))
                except FigureSyntaxError as error:
                    yield Found(line + leading, None, str(error))
            else:
                for match in FIGURE_START.finditer(piece):
                    yield Found(line + piece[:match.start()].count("\n"), None,
                                f"a {{{match.group(1)}:...}} figure must be a paragraph of its own, "
                                "with a blank line before and after it")
        line += piece.count("\n")


# Where figures may stand: the rulebook's block texts, which every format draws pictures in.
_FIGURE_FIELDS = re.compile(r"sections\[\d+\](?:\.rules\[\d+\])?\.text|variants\[\d+\]\.text"
                            r"|rulings\[\d+\]\.(?:decision|reason)")
HINT = "see 'Figures of play' in docs/deck-format.md"


def may_hold_figures(field: str) -> bool:
    """Whether a deck file's field (sections[2].rules[0].text) is a text figures may stand in."""
    return bool(_FIGURE_FIELDS.fullmatch(field))


def problems(text: str, deck: "Deck", allowed: bool = True) -> Iterator[tuple[int, str]]:
    """(line within the text, message) for every figure in a text that cannot be drawn:
    malformed, not a paragraph of its own, in a text that shows no figures (`allowed` False),
    or naming what the deck does not have."""
    if not FIGURE_START.search(text):
        return  # the common case, and a quick one: the loader asks this of every text
    for found in find(text):
        if found.figure is None:
            yield found.line, found.error
        elif not allowed:
            yield found.line, (f"a {found.figure.kind} figure can stand only in rule text (sections, rules, "
                               "variants, ruling decisions and reasons), not here")
        else:
            yield from ((found.line, message) for message in check(found.figure, deck))


def rule_texts(deck: "Deck") -> Iterator[tuple[str, str, str]]:
    """(what, id, text) of every deck text that may hold figures: what is "section", "rule",
    "variant", or "decision" or "reason" for a ruling's."""
    for section in deck.sections:
        yield "section", section.id, section.text
        for rule in section.rules:
            yield "rule", rule.id, rule.text
    for variant in deck.variants:
        yield "variant", variant.id, variant.text
    for ruling in deck.rulings:
        yield "decision", ruling.id, ruling.decision
        yield "reason", ruling.id, ruling.reason


def in_deck(deck: "Deck") -> list[Figure]:
    """Every well-formed figure in the deck's rule texts, in reading order."""
    return [found.figure for _, _, text in rule_texts(deck) for found in find(text) if found.figure]


# -- checked against the deck -------------------------------------------------------------------

def find_suit(deck: "Deck", word: str) -> "Suit | None":
    folded = word.casefold()
    return next((suit for suit in deck.suits if folded in (suit.id.casefold(), suit.name.casefold(),
                                                           suit.code.casefold()) or word == suit.symbol), None)


def check(figure: Figure, deck: "Deck") -> list[str]:
    """What in a figure the deck does not have: cards, suits, variants, positions past the last card."""
    problems: list[str] = []
    codes = ", ".join(card.code for card in deck.cards[:4])

    def card(word: str, what: str = "card") -> "Card | None":
        found = deck.find_card(word)
        if found is None:
            problems.append(f"unknown {what} {word!r} in the {figure.kind} figure (cards are written by "
                            f"their codes, e.g. {codes}; `deckgen show {deck.id}` lists them)")
        return found

    shown = [card(word) for word in figure.cards]
    for key, values in figure.options:
        takes = OPTIONS[figure.kind][key]
        if takes in ("suit", "suit-or-none") and not (takes == "suit-or-none" and values[0].casefold() == "none"):
            if find_suit(deck, values[0]) is None:
                known = ", ".join(f"{s.code} ({s.name})" for s in deck.suits) or "none: the deck has no suits"
                problems.append(f"unknown suit {values[0]!r} in `{key}`; known: {known}"
                                + (", or none" if takes == "suit-or-none" else ""))
        elif takes == "card-or-none" and values[0].casefold() != "none":
            card(values[0], f"{key} card")
        elif takes == "cards":
            for word in values:
                card(word)
        elif takes == "held":
            for word in values[1:]:
                card(word)
        elif takes == "variant" and values[0] not in {v.id for v in deck.variants}:
            problems.append(f"unknown variant {values[0]!r}; known: {', '.join(v.id for v in deck.variants) or 'none'}")
        if takes in ("position", "positions", "held"):
            for word in (values[:1] if takes == "held" else values):
                if int(word) > len(figure.cards):
                    problems.append(f"`{key} {word}`: the figure shows {len(figure.cards)} cards")
        if key == "players" and len(values) != len(figure.cards):
            problems.append(f"`players` gives {len(values)} name(s) for {len(figure.cards)} cards: one name per card")
    if figure.kind == "manoeuvre":
        players = len(figure.values("dominance"))
        seats = [seat for seat, _ in figure.options if seat in SEATS] + [figure.manoeuvre[1].casefold()]
        seats += [word.casefold() for word in figure.values("quaffle") if word.casefold() in SEATS]
        for seat in seats:
            if seat and int(seat[1:]) > players:
                problems.append(f"{seat.upper()} is named, but `dominance` gives {players} players")
    if figure.kind == "manoeuvre" and any(found is not None and found.id == QUAFFLE for found in shown):
        problems.append("the Quaffle is not a card in play: say who controls it with `quaffle P1` (or centre)")
    if figure.kind == "goal" and len(figure.cards) != 2:
        problems.append(f"a goal is two cards; the figure shows {len(figure.cards)}")
    # A figure cannot show more copies of a card than the deck holds.
    counted = Counter(found.id for found in shown if found is not None)
    for values in figure.every("held"):
        counted.update(found.id for found in map(deck.find_card, values[1:]) if found is not None)
    for card_id, count in counted.items():
        held = next(c for c in deck.cards if c.id == card_id)
        if count > held.count:
            problems.append(f"the figure shows {count} × {held.name}, but the deck has {held.count}")
    return problems


# -- in words ---------------------------------------------------------------------------------

def card_label(deck: "Deck", card: "Card") -> str:
    """Short words for a card: 7♥ for a numbered suit card, its name otherwise."""
    if card.suit and card.rank:
        rank = deck.rank(card.rank)
        if rank.value is not None:
            return f"{rank.index or rank.code}{deck.suit(card.suit).symbol}"
    return card.name


def ordinal(number: int, language: str) -> str:
    """1st, 2nd, 3rd, 4th in English; 1., 2. in the other languages a deck may be in."""
    if not language.casefold().startswith("en"):
        return f"{number}."
    suffix = "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"


def winner(figure: Figure) -> int | None:
    """The 0-based position a trick figure says wins, or a hand figure marks first."""
    word = figure.value("winner")
    return int(word) - 1 if word else None


def marked(figure: Figure) -> set[int]:
    """0-based positions drawn raised and outlined: a trick's winner, a hand's marks."""
    if figure.kind == "trick":
        return {winner(figure)} if figure.has("winner") else set()
    if figure.kind == "hand":
        return {int(word) - 1 for word in figure.values("mark")}
    return set()


TITLES = {"trick": "Trick", "hand": "Hand", "goal": "Goal", "manoeuvre": "Manoeuvre"}


def title(figure: Figure, deck: "Deck") -> str:
    return deck.phrase(TITLES[figure.kind])


def facts(figure: Figure, deck: "Deck", drawn: bool = False) -> list[str]:
    """What the figure states, each as a short phrase in the deck's language: ["trump ♥", "the 4th card wins"].
    `drawn`: leave out what the drawing labels already (a goal's Keeper and houses, a manoeuvre's
    dominance and the Quaffle)."""
    out: list[str] = []

    def suit_words(word: str) -> str:
        suit = find_suit(deck, word)
        return suit.symbol if suit else word

    def named(word: str) -> str:
        card = deck.find_card(word)
        return card_label(deck, card) if card else word

    variant = next((v for v in deck.variants if v.id == figure.value("variant")), None)
    if variant is not None:
        out.append(deck.phrase("with the variant {name}", name=variant.name))
    if figure.kind == "trick":
        trump = figure.value("trump")
        if trump is not None:
            out.append(deck.phrase("no trump") if trump.casefold() == "none"
                       else deck.phrase("trump {suit}", suit=suit_words(trump)))
        if figure.has("shun"):
            out.append(deck.phrase("Shun suit {suit}", suit=suit_words(figure.value("shun"))))
        if figure.has("first"):
            out.append(deck.phrase("the first trick of the hand"))
        for values in figure.every("held"):
            out.append(deck.phrase("{player} also held {cards}", player=_player(figure, deck, int(values[0]) - 1),
                                   cards=" ".join(named(word) for word in values[1:])))
        if figure.has("winner"):
            position = winner(figure)
            out.append(deck.phrase("the {ordinal} card wins", ordinal=ordinal(position + 1, deck.language))
                       if not figure.has("players") else
                       deck.phrase("{player} wins", player=figure.values("players")[position]))
        if figure.has("points"):
            out.append(deck.phrase("the trick is worth {points} points", points=_signed(figure.value("points"))))
    elif figure.kind == "goal" and drawn:
        if figure.has("scores") or figure.has("blocked"):
            out.append(deck.phrase("it scores") if figure.has("scores") else deck.phrase("it may not score"))
    elif figure.kind == "goal":
        keeper = figure.value("keeper")
        if keeper is None or keeper.casefold() == "none":
            out.append(deck.phrase("no Keeper"))
        else:
            out.append(deck.phrase("against the Keeper {card}", card=named(keeper)))
        if figure.has("house"):
            out.append(deck.phrase("scorer's house {suit}", suit=suit_words(figure.value("house"))))
        if figure.has("rival"):
            out.append(deck.phrase("defender's house {suit}", suit=suit_words(figure.value("rival"))))
        if figure.has("scores") or figure.has("blocked"):
            out.append(deck.phrase("it scores") if figure.has("scores") else deck.phrase("it may not score"))
    elif figure.kind == "manoeuvre":
        dominance = figure.values("dominance")
        holder = figure.value("quaffle")
        if not drawn:
            out.append(deck.phrase("dominance {list}", list=", ".join(f"P{seat} {value}" for seat, value
                                                                     in enumerate(dominance, start=1))))
            out.append(deck.phrase("{player} controls the Quaffle", player=holder.upper())
                       if holder and holder.casefold() in SEATS else deck.phrase("the Quaffle is in the centre"))
            for seat, values in figure.options:
                if seat in SEATS:
                    out.append(deck.phrase("{player} has {cards}", player=seat.upper(),
                                           cards=", ".join(named(word) for word in values)))
        kind, target = figure.manoeuvre
        what = deck.phrase(MANOEUVRE_NAMES[kind])
        if target:
            what = deck.phrase("{manoeuvre} against {target}", manoeuvre=what, target=target)
        if figure.has("allowed") or figure.has("refused"):
            out.append(deck.phrase("P1 may choose {manoeuvre}", manoeuvre=what) if figure.has("allowed")
                       else deck.phrase("P1 may not choose {manoeuvre}", manoeuvre=what))
        else:
            out.append(what)
    return out


def _player(figure: Figure, deck: "Deck", position: int) -> str:
    names = figure.values("players")
    return names[position] if names else deck.phrase("the {ordinal} player", ordinal=ordinal(position + 1, deck.language))


def _signed(word: str) -> str:
    number = int(word)
    return f"+{number}" if number > 0 else str(number).replace("-", "−")


def shown_cards(figure: Figure, deck: "Deck") -> str:
    """The figure's own cards in words: '7♥, Jester, Q♠, Wizard' (a goal: '7♥ + 5♥')."""
    labels = [card_label(deck, card) if card else word
              for word, card in ((word, deck.find_card(word)) for word in figure.cards)]
    return (" + " if figure.kind == "goal" else ", ").join(labels)


def describe(figure: Figure, deck: "Deck") -> str:
    """The figure in one line of words, for alt text and plain text:
    'Trick: 7♥, Jester, Q♠, Wizard; trump ♥; the 4th card wins'."""
    head = title(figure, deck)
    cards = shown_cards(figure, deck)
    if figure.kind == "manoeuvre" and cards:
        cards = deck.phrase("P1 has {cards}", cards=cards)
    return f"{head}: " + "; ".join(([cards] if cards else []) + facts(figure, deck))
