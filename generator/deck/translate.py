"""Decks in several languages: overlays of translated texts keyed by the ids they translate.

An overlay `translations/<deck file stem>.<lang>.toml` next to the deck file holds, for
one language, names, type lines, texts, flavour, rule titles and texts, ruling questions,
decisions and reasons, quick reference and back text. It never repeats game facts:
counts, suits, codes and engine parameters come from the base deck. `translated` returns
the base deck with the overlay's texts in place; every text the overlay lacks keeps the
base wording and is reported as a warning, a key that names no id is an error. Whether the translated texts
fit their cards and agree with the engine is `generator.validate.translations`' to check.
"""

from __future__ import annotations

import dataclasses
import re
import string
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..core.errors import OptionError, Problem, ProblemList, UnreadableInput
from . import figures, markup
from ..core.files import read_text_input
from .files import LANG_PATTERN, TRANSLATIONS_DIR, parse_toml
from .cardids import slug
from .layouts.artfiles import unreadable
from .layouts.deck import IMAGE_SUFFIXES, DeckLayouts, read_icons
from .model import Card, Deck
from .phrases import PHRASES, needed_phrases

# Overlay table -> (fields a translation may give, the deck items it is keyed by).
_TABLES: dict[str, tuple[str, ...]] = {
    "deck": ("name", "description", "play_time"),
    "back": ("title", "subtitle"),
    "kinds": ("name", "description"),
    "suits": ("name", "description"),
    "ranks": ("name",),
    "cards": ("name", "type_line", "text", "flavor"),
    "sections": ("title", "text"),
    "rules": ("title", "text"),
    "rulings": ("question", "decision", "reason"),
    "variants": ("name", "text"),
    "quickref": ("title", "text"),
}
# Fields of an overlay's [cards.ID] that name a file (a picture with words in it, per language).
_CARD_FILES = ("art",)
_ICONS_TABLE = "icons"  # icons the language adds or replaces: the same form as the deck's [icons]
_HEADER_FIELDS = ("lang", "name", "card_set_name")
# (table, field) of the overlay texts figures of play may stand in, as in the deck file.
_FIGURE_TEXTS = {("sections", "text"), ("rules", "text"), ("variants", "text"), ("rulings", "decision"),
                 ("rulings", "reason")}
_PHRASES_TABLE = "phrases"  # the rulebook's own words, keyed by their English wording


@dataclass
class Translation(ProblemList):
    """One language of one deck: the translated deck and what the overlay lacks or gets wrong."""

    lang: str
    deck: Deck
    path: Path
    problems: list[Problem] = field(default_factory=list)
    overlay: "Overlay | None" = field(default=None, repr=False, compare=False)  # where each text came from


def overlay_paths(deck: Deck) -> dict[str, Path]:
    """Language -> overlay file, for every overlay of this deck."""
    if deck.source is None:
        return {}
    folder = deck.source.parent / TRANSLATIONS_DIR
    found = {}
    for path in sorted(folder.glob(f"{deck.source.stem}.*.toml")) if folder.is_dir() else ():
        lang = path.name[len(deck.source.stem) + 1:-len(".toml")]
        if LANG_PATTERN.fullmatch(lang):
            found[lang] = path
    return found


def languages(deck: Deck, wanted: str | None) -> list[str | None]:
    """The languages a --lang option asks for: [None] (the base deck) without it, every
    overlay and the base for 'all', else the one named (an error naming the known ones)."""
    if wanted is None:
        return [None]
    known = overlay_paths(deck)
    if wanted == "all":
        return [None, *known]
    if wanted not in known:
        listing = ", ".join(known) or "none"
        raise OptionError(f"--lang {wanted!r}: deck {deck.id!r} has no such translation; known: {listing}, all "
                          f"(overlays live in {deck.folder / TRANSLATIONS_DIR}/{deck.source.stem if deck.source else deck.id}.LANG.toml)")
    return [wanted]


def translated(deck: Deck, lang: str) -> Translation:
    """The deck in language `lang`, with every problem of its overlay."""
    path = overlay_paths(deck).get(lang)
    if path is None:
        languages(deck, lang)  # raises, naming the known languages
    text = read_text_input(path, "overlay", within=deck.folder)
    try:
        data = parse_toml(text)
    except tomllib.TOMLDecodeError as error:
        found = re.search(r"\s*\(at line (\d+), column \d+\)", str(error))
        raise UnreadableInput(Problem(f"not valid TOML: {str(error).replace(found.group(0), '') if found else error}",
                                      file=path, line=int(found.group(1)) if found else None)) from None
    builder = Overlay(deck, lang, path, data, text)
    return Translation(lang, builder.build(), path, builder.problems, builder)


class Overlay:
    def __init__(self, deck: Deck, lang: str, path: Path, data: dict, text: str):
        self.deck, self.lang, self.path, self.data = deck, lang, path, data
        self.lines = text.splitlines()
        self.problems: list[Problem] = []
        self.used: set[tuple[str, str, str]] = set()
        self.text = text
        self.files: list[Path] = []  # the icons and art this language adds: a rebuild hashes them

    # -- problems --------------------------------------------------------------------------

    def problem(self, table: str, key: str, name: str, message: str, severity: str = "error",
                hint: str = "", offset: int | None = None) -> None:
        """A problem at `[table.key] name = ...` of the overlay (key "" for [deck], [back]);
        `offset` the line within a text value it is on."""
        self.problems.append(Problem(message, field=self.field(table, key, name),
                                     line=self.line(table, key, name, offset), file=self.path,
                                     severity=severity, hint=hint))

    @staticmethod
    def field(table: str, key: str, name: str) -> str:
        return ".".join(part for part in (table, _quoted(key) if key else "", _quoted(name) if name else "") if part)

    def line(self, table: str, key: str, name: str, offset: int | None = None) -> int | None:
        line = self._line(table, key, name)
        if line is None or offset is None:
            return line
        opening = self.lines[line - 1].partition("=")[2].strip()
        return line + offset + (opening in ('"""', "'''"))

    def _line(self, table: str, key: str, name: str) -> int | None:
        wanted = [table, key] if key else [table]
        for number, line in enumerate(self.lines, start=1):
            stripped = line.strip()
            if not (stripped.startswith("[") and _header_names(stripped) == wanted):
                continue
            for offset, after in enumerate(self.lines[number:], start=number + 1):
                if after.strip().startswith("["):
                    break
                if name and re.match(rf'\s*("?){re.escape(name)}\1\s*=', after):
                    return offset
            return number
        return None

    # -- building --------------------------------------------------------------------------

    def build(self) -> Deck:
        self._check_shape()
        deck = self.deck
        kinds = tuple(self._item("kinds", k.id, k) for k in deck.kinds)
        suits = tuple(self._item("suits", s.id, s) for s in deck.suits)
        ranks = tuple(self._item("ranks", r.id, r) for r in deck.ranks)
        base_kind_names = {k.id: k.name for k in deck.kinds}
        kind_names = {k.id: k.name for k in kinds}
        cards = tuple(self._card(card, base_kind_names, kind_names, suits, ranks) for card in deck.cards)
        sections = tuple(dataclasses.replace(
            self._item("sections", s.id, s),
            rules=tuple(self._item("rules", r.id, r) for r in s.rules)) for s in deck.sections)
        rulings = tuple(self._item("rulings", r.id, r) for r in deck.rulings)
        variants = tuple(self._item("variants", v.id, v) for v in deck.variants)
        quickref = tuple(self._item("quickref", q.title, q) for q in deck.quickref)
        meta = self._fields("deck", "", {f: getattr(deck, f) for f in _TABLES["deck"]})
        back = self._item("back", "", deck.back)
        result = dataclasses.replace(
            deck, kinds=kinds, suits=suits, ranks=ranks, cards=cards, sections=sections, rulings=rulings,
            variants=variants, quickref=quickref, back=back, lang=self.lang, phrases=self._phrases(),
            icons=self._icons(), **meta)
        result = self._references(result)
        return dataclasses.replace(result, inputs=(*deck.inputs, self.path, *self.files))

    def _check_shape(self) -> None:
        header = self.data.get("translation")
        if not isinstance(header, dict):
            self.problem("translation", "", "", "missing [translation] table",
                         hint=f'start with [translation] lang = "{self.lang}"')
        else:
            for key in header:
                if key not in _HEADER_FIELDS:
                    self.problem("translation", "", key, f"unknown field; allowed: {', '.join(_HEADER_FIELDS)}")
            if header.get("lang", self.lang) != self.lang:
                self.problem("translation", "", "lang", f"found {header['lang']!r}; the file name says {self.lang!r}")
        ids = self._ids()
        for table, value in self.data.items():
            if table == "translation":
                continue
            if table == _PHRASES_TABLE:
                self._check_phrases(value)
                continue
            if table == _ICONS_TABLE:
                continue  # read, file by file, by _icons
            if table not in _TABLES:
                self.problem(table, "", "", f"unknown table; allowed: translation, {', '.join(_TABLES)}, "
                                            f"{_ICONS_TABLE}, {_PHRASES_TABLE}",
                             hint="counts, codes, suits and engine parameters come from the base deck")
                continue
            entries = {"": value} if table in ("deck", "back") else value
            if not isinstance(value, dict):
                self.problem(table, "", "", f"expected a table, found {type(value).__name__}")
                continue
            for key, entry in entries.items():
                if table not in ("deck", "back") and key not in ids[table]:
                    self.problem(table, key, "", f"names no {table[:-1] if table != 'quickref' else 'quick reference entry'} "
                                        f"of deck {self.deck.id!r}", hint=self._unknown_key_hint(table, key, ids))
                    continue
                if not isinstance(entry, dict):
                    self.problem(table, key, "", f"expected a table, found {type(entry).__name__}")
                    continue
                for name, text in entry.items():
                    if table == "cards" and name in _CARD_FILES:
                        continue  # checked as a file by _card
                    if name not in _TABLES[table]:
                        allowed = _TABLES[table] + (_CARD_FILES if table == "cards" else ())
                        self.problem(table, key, name, f"not translatable; allowed: {', '.join(allowed)}",
                                     hint="game facts come from the base deck")
                    elif not isinstance(text, str):
                        self.problem(table, key, name, f"expected text, found {type(text).__name__}")

    def _check_phrases(self, value: Any) -> None:
        if not isinstance(value, dict):
            self.problem(_PHRASES_TABLE, "", "", f"expected a table, found {type(value).__name__}")
            return
        for english, text in value.items():
            if english not in PHRASES:
                self.problem(_PHRASES_TABLE, "", english, "not one of the rulebook's phrases",
                             hint="keys are the English wording listed in generator/deck/phrases.py")
            elif not isinstance(text, str):
                self.problem(_PHRASES_TABLE, "", english, f"expected text, found {type(text).__name__}")
            elif _placeholders(text) != _placeholders(english):
                wanted = ", ".join(sorted(_placeholders(english))) or "none"
                self.problem(_PHRASES_TABLE, "", english, f"the translation must use the placeholders "
                                                          f"{{...}} of the English: {wanted}")

    def _icons(self) -> tuple:
        """The deck's icons with this language's additions and replacements (same names replace).
        Their files are named from the deck file's folder, like the deck's own [icons]."""
        raw = self.data.get(_ICONS_TABLE, {})
        if not isinstance(raw, dict):
            self.problem(_ICONS_TABLE, "", "", f"expected a table of icons, found {type(raw).__name__}")
            return self.deck.icons
        if not raw:
            return self.deck.icons
        found = DeckLayouts(self.path, self.text)
        own = {icon.name: icon for icon in read_icons(found, raw, self.deck.folder)}
        self.problems.extend(found.problems)
        self.files += found.files
        kept = tuple(own.pop(icon.name, icon) for icon in self.deck.icons)
        return kept + tuple(own.values())

    def _card_art(self, card: Card) -> dict[str, Any]:
        """A card's art in this language, when the overlay gives one (named from the deck file's folder)."""
        key = self._card_key(card)
        name = self._given("cards", key).get("art")
        if name is None:
            return {}
        if not isinstance(name, str):
            self.problem("cards", key, "art", f"expected a file name, found {type(name).__name__}")
            return {}
        file = (self.deck.folder / name).resolve()
        reason = (f"is not a PNG, JPEG or SVG" if file.suffix.lower() not in IMAGE_SUFFIXES
                  else unreadable(file, self.deck.folder))
        if reason:
            self.problem("cards", key, "art", f"art file {name!r} {reason}",
                         hint="files in an overlay are named from the deck file's folder")
            return {}
        self.files.append(file)
        return {"art": file}

    def _phrases(self) -> dict[str, str]:
        given = self.data.get(_PHRASES_TABLE, {})
        given = given if isinstance(given, dict) else {}
        phrases = {}
        deck = self.deck
        parts = {part for part, present in (("rulings", deck.rulings), ("variants", deck.variants),
                                            ("suits", deck.suits)) if present}
        needed = set(needed_phrases({figure.kind for figure in figures.in_deck(deck)}, parts))
        for english in PHRASES:
            if isinstance(given.get(english), str):
                phrases[english] = given[english]
            elif english in needed:  # a phrase of a part the rulebook lacks is not asked for
                self.problem(_PHRASES_TABLE, "", english, f"not translated into {self.lang!r}; the English is used",
                             severity="warning")
        return phrases

    def _ids(self) -> dict[str, set[str]]:
        deck = self.deck
        return {"kinds": {k.id for k in deck.kinds}, "suits": {s.id for s in deck.suits},
                "ranks": {r.id for r in deck.ranks}, "cards": {c.id for c in deck.cards} | {c.code for c in deck.cards},
                "sections": {s.id for s in deck.sections}, "rules": {r.id for r in deck.rules()},
                "rulings": {r.id for r in deck.rulings}, "variants": {v.id for v in deck.variants},
                "quickref": {q.title for q in deck.quickref}}

    def _given(self, table: str, key: str) -> dict:
        value = self.data.get(table, {})
        entry = value if table in ("deck", "back") else value.get(key, {}) if isinstance(value, dict) else {}
        return entry if isinstance(entry, dict) else {}

    def _unknown_key_hint(self, table: str, key: str, ids: dict[str, set[str]]) -> str:
        """The known keys; for a card keyed by its name's slug, once its id, the key it has now."""
        named = next((card for card in self.deck.cards if table == "cards" and slug(card.name) == key
                      and card.id == slug(card.code)), None)
        if named is None:
            return _known(ids[table])
        return (f"the card {named.name!r} has the id {named.id!r}: a card's id comes from its code, not its "
                f"name; key its table by the code, [cards.{named.code}]")

    def _card_key(self, card: Card) -> str:
        """The overlay's key for a card: its id, or its code; both survive renaming the card
        unless the card sets an id of its own (an id defaults to the code)."""
        given = self.data.get("cards", {})
        return card.code if isinstance(given, dict) and card.id not in given and card.code in given else card.id

    def _fields(self, table: str, key: str, base: dict[str, Any], quiet: tuple[str, ...] = ()) -> dict[str, Any]:
        """The translatable fields of one item: the overlay's text, else the base text with a warning."""
        given = self._given(table, key)
        out = {}
        for name in _TABLES[table]:
            if name not in base:
                continue
            text = given.get(name)
            if isinstance(text, str):
                out[name] = text.strip("\n") if "\n" in text.strip("\n") else text.strip()
            elif base[name] and name not in quiet:
                self.problem(table, key, name, f"not translated into {self.lang!r}; the base text is used",
                             severity="warning", hint=f"add {name} = \"...\" under [{table}{'.' + _quoted(key) if key else ''}]")
        return out

    def _item(self, table: str, key: str, item):
        return dataclasses.replace(item, **self._fields(table, key, dataclasses.asdict(item)))

    def _card(self, card: Card, base_kind_names, kind_names, suits, ranks) -> Card:
        quiet: list[str] = []
        changes: dict[str, Any] = {}
        if card.type_line == base_kind_names.get(card.kind):  # the kind's name: follows its translation
            changes["type_line"] = kind_names[card.kind]
            quiet.append("type_line")
        pattern = (self.data.get("translation") or {}).get("card_set_name")
        if card.suit and card.rank and pattern and card.id == f"{card.rank}-{card.suit}":
            suit = next(s for s in suits if s.id == card.suit)
            rank = next(r for r in ranks if r.id == card.rank)
            changes["name"] = pattern.format(suit=suit.name, rank=rank.name)
            quiet.append("name")
        base = {name: getattr(card, name) for name in _TABLES["cards"]}
        changes.update(self._fields("cards", self._card_key(card), base, tuple(quiet)))
        changes.update(self._card_art(card))
        return dataclasses.replace(card, **changes)

    def _references(self, deck: Deck) -> Deck:
        """Card references by base-language name would not resolve in the translated deck:
        point each at the card's code, which both share; report references that name nothing."""
        base = self.deck

        def fix(text: str, table: str, key: str, name: str) -> str:
            allowed = (table, name) in _FIGURE_TEXTS
            for offset, message in figures.problems(text, deck, allowed):
                self.problem(table, key, name, message, hint=figures.HINT, offset=offset)

            def replace(match: re.Match) -> str:
                kind, target = match.group(1), match.group(2).strip()
                if kind != "card":
                    known = (kind == "suit" and any(s.id == target for s in deck.suits)) or \
                            (kind == "rule" and any(r.id == target for r in deck.rules())) or \
                            (kind == "icon" and any(i.name == markup.icon_repeat(target)[0] for i in deck.icons))
                    if not known:
                        self.problem(table, key, name, f"unknown {kind} {target!r} in {{{kind}:{target}}}")
                    return match.group(0)
                card = deck.find_card(target) or base.find_card(target)
                if card is None:
                    self.problem(table, key, name, f"unknown card {target!r} in {{card:{target}}}",
                                 hint="use the card's code or id, or its name in either language")
                    return match.group(0)
                return f"{{card:{card.code}}}"

            return markup.REFERENCE.sub(replace, text)

        def codes(refs: tuple[str, ...]) -> tuple[str, ...]:
            found = [base.find_card(ref) for ref in refs]
            return tuple(card.code if card else ref for card, ref in zip(found, refs))

        cards = tuple(dataclasses.replace(c, text=fix(c.text, "cards", self._card_key(c), "text")) for c in deck.cards)
        sections = tuple(dataclasses.replace(
            s, text=fix(s.text, "sections", s.id, "text"),
            rules=tuple(dataclasses.replace(r, text=fix(r.text, "rules", r.id, "text")) for r in s.rules))
            for s in deck.sections)
        rulings = tuple(dataclasses.replace(r, decision=fix(r.decision, "rulings", r.id, "decision"),
                                            cards=codes(r.cards)) for r in deck.rulings)
        variants = tuple(dataclasses.replace(v, text=fix(v.text, "variants", v.id, "text")) for v in deck.variants)
        quickref = tuple(dataclasses.replace(q, text=fix(q.text, "quickref", base_q.title, "text"))
                         for q, base_q in zip(deck.quickref, base.quickref))
        kinds = tuple(dataclasses.replace(k, description=fix(k.description, "kinds", k.id, "description"))
                      for k in deck.kinds)
        return dataclasses.replace(deck, cards=cards, sections=sections, rulings=rulings, variants=variants,
                                   quickref=quickref, kinds=kinds,
                                   description=fix(deck.description, "deck", "", "description"))


def _placeholders(text: str) -> set[str]:
    try:
        return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}
    except ValueError:  # an unmatched brace
        return {"{"}


def _quoted(key: str) -> str:
    return key if re.fullmatch(r"[A-Za-z0-9_-]+", key) else f'"{key}"'


def _header_names(header: str) -> list[str]:
    """['rules', 'wizard.trick.winner'] from `[rules."wizard.trick.winner"]`."""
    inner = header.strip("[] \t")
    return [quoted or bare for quoted, bare in re.findall(r'"([^"]*)"|([^."\s]+)', inner)]


def _known(ids: set[str]) -> str:
    shown = sorted(ids)
    listing = ", ".join(shown[:12]) + (f", ... ({len(shown)} in all)" if len(shown) > 12 else "")
    return f"known: {listing}" if shown else "the deck has none"
