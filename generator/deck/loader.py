"""Load a deck's TOML file into the typed model, reporting every problem at once.

Three stages, each stopping the load only when the next one cannot run:
read (bytes, UTF-8, TOML syntax: `UnreadableInput`, exit code 2), structure
(the JSON Schema in `generator.deck.schema`) and meaning (references, duplicates,
paths: both `InvalidDeck`, exit code 1).
"""

from __future__ import annotations

import re
import tomllib
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterable, Iterator

from ..core.errors import InvalidDeck, OptionError, Problem, UnreadableInput
from ..core.plugins import engine_names, unknown_engine
from . import figures, markup, trickrules
from ..core.files import read_input
from .files import DECKS_DIR, deck_paths, parse_toml, resolve_deck_path  # noqa: F401 (re-exported)
from .cardids import card_id, check_card_ids
from .components import read_tokens, read_tuck_box
from .layouts import deck as deck_layouts
from .layouts.lines import TomlLines
from .model import CARD_SIZES_MM, Back, Card, CardSize, Deck, Kind, QuickRef, Rank, Rule, Ruling, Section, Suit, Variant
from .palettes import resolve as resolve_color
from .publish import check_base_url
from .schema import DECK_SCHEMA, MAX_DECK_CARDS, check
from .sources import SheetCards, read_card_sources
from .targets import read_targets


def load_deck(ref: str | Path, decks_dir: Path = DECKS_DIR) -> Deck:
    """Load and check a deck; raise `UnreadableInput` or `InvalidDeck` listing every problem."""
    path = resolve_deck_path(ref, decks_dir)
    deck, problems = check_deck(path)
    errors = [p for p in problems if p.severity == "error"]
    if errors or deck is None:
        raise InvalidDeck(errors)
    return deck


# Within `checks_kept()`: each deck file's check, by the path as given.
_kept_checks: dict[Path, tuple[Deck | None, list[Problem]]] | None = None


@contextmanager
def checks_kept() -> Iterator[None]:
    """Within the block, each deck file is read and checked once: later checks of the same path
    answer with the first one's deck and problems. A build's steps then all see one version of
    the deck, and its validation step does not parse and check the file again."""
    global _kept_checks
    outer, _kept_checks = _kept_checks, {} if _kept_checks is None else _kept_checks
    try:
        yield
    finally:
        _kept_checks = outer


def check_deck(path: Path) -> tuple[Deck | None, list[Problem]]:
    """Load a deck, returning it (when it could be built) and every problem found."""
    if _kept_checks is None:
        return _check_deck(path)
    key = Path(path)
    if key not in _kept_checks:
        _kept_checks[key] = _check_deck(path)
    deck, problems = _kept_checks[key]
    return deck, list(problems)


def _check_deck(path: Path) -> tuple[Deck | None, list[Problem]]:
    text = _read_text(path)
    try:
        data = parse_toml(text)
    except tomllib.TOMLDecodeError as error:
        message = str(error)
        match = re.search(r"\(at line (\d+), column (\d+)\)", message)
        line = int(match.group(1)) if match else None
        reason = re.sub(r"\s*\(at line \d+, column \d+\)", "", message)
        if match and reason == "Invalid value":
            reason = f"invalid value at column {match.group(2)}"
        raise UnreadableInput(Problem(
            f"not valid TOML: {reason}", line=line, file=path,
            hint="check quotes, brackets and commas on this line or the one before",
        )) from None
    locate = _LineFinder(text)
    layout_lines = _LayoutLines(text)
    structural = [
        Problem(message, field=field, line=locate(field) or layout_lines(field), file=path)
        for field, message in check(data, DECK_SCHEMA)
    ]
    if structural:
        return None, structural
    sheets = read_card_sources(data, path, first_index=len(data.get("cards", ())), locate=locate)
    if sheets.cards:
        data = {**data, "cards": [*data.get("cards", ()), *sheets.cards]}
    layouts = deck_layouts.read(data, path, text)
    builder = _Builder(data, path, locate, sheets, layouts)
    deck = builder.build()
    if not any(p.severity == "error" for p in sheets.problems + builder.problems + layouts.problems):
        deck_layouts.check(deck, layouts, data)  # needs a consistent deck: every card's suit and rank exist
    # A layout problem of a card that came from a sheet (its layout cell, say) is shown at that cell.
    layout_problems = [sheets.problem(p.field, p.message, p.hint, p.severity) or p if p.field else p
                       for p in layouts.problems]
    return deck, sheets.problems + builder.problems + layout_problems


class _LayoutLines:
    """Lines of fields inside [layouts.NAME] tables and their [[...elements]], which the layouts'
    own line index knows; the text is indexed once, on the first such field."""

    def __init__(self, text: str):
        self.text = text
        self.lines = None

    def __call__(self, field: str) -> int | None:
        if not field.startswith("layouts."):
            return None
        if self.lines is None:
            self.lines = TomlLines(self.text)
        return self.lines(field)


def _read_text(path: Path) -> str:
    raw = read_input(path, "deck")
    if not raw.strip():
        raise UnreadableInput(Problem(
            "file is empty", file=path,
            hint="a deck needs at least a [deck] table and one [[kinds]] entry; see docs/deck-format.md",
        ))
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as error:
        line = raw[: error.start].count(b"\n") + 1
        raise UnreadableInput(Problem(
            f"not UTF-8: byte 0x{raw[error.start]:02x} cannot be decoded", line=line, file=path,
            hint="save the file as UTF-8",
        )) from None


class _LineFinder:
    """Best-effort line numbers for field paths like `cards[12].suit` (tomllib gives none)."""

    _HEADER = re.compile(r"^\s*(\[\[?)\s*([A-Za-z0-9_.\-\"]+)\s*\]\]?")
    _KEY = re.compile(r"^\s*([A-Za-z0-9_\-\"]+)\s*=")

    def __init__(self, text: str):
        self.lines = text.splitlines()

    def __call__(self, field: str) -> int | None:
        parts = re.findall(r"([A-Za-z0-9_\-]+)(?:\[(\d+)\])?", field)
        table_path: list[str] = []
        start = 0
        line_found: int | None = None
        for position, (name, index) in enumerate(parts):
            full = ".".join(table_path + [name])
            if index:
                header_line = self._nth_header(full, int(index), start)
                if header_line is None:
                    return line_found
                start = line_found = header_line
                table_path.append(name)
                continue
            key_line = self._key_in_table(name, start)
            if key_line is not None and position == len(parts) - 1:
                return key_line
            header_line = self._nth_header(full, 0, start, array=False)
            if header_line is not None:
                start = line_found = header_line
                table_path.append(name)
            elif key_line is not None:
                return key_line
            else:  # a table only its sub-tables name ([[playtest.skill]] without [playtest])
                table_path.append(name)
        return line_found

    def _nth_header(self, name: str, index: int, start: int, array: bool = True) -> int | None:
        seen = -1
        for number in range(start, len(self.lines)):
            match = self._HEADER.match(self.lines[number])
            if match and match.group(2) == name and (match.group(1) == "[[") == array:
                seen += 1
                if seen == index:
                    return number + 1
        return None

    def text_line(self, field: str, offset: int) -> int | None:
        """The line of the `offset`-th line of a text field's value: a value opening with \"\"\"
        and a line break starts on the line after its key (TOML drops that first break)."""
        line = self(field)
        if line is None:
            return None
        opening = self.lines[line - 1].partition("=")[2].strip()
        return line + offset + (opening in ('"""', "'''"))

    def _key_in_table(self, key: str, start: int) -> int | None:
        for number in range(start, len(self.lines)):
            line = self.lines[number]
            if number > start and self._HEADER.match(line) and not line.lstrip().startswith("[\""):
                return None
            match = self._KEY.match(line)
            if match and match.group(1).strip('"') == key:
                return number + 1
        return None


class _Builder:
    """Turns checked TOML data into a Deck, collecting meaning errors as it goes."""

    def __init__(self, data: dict, path: Path, locate: _LineFinder, sheets: SheetCards,
                 layouts: "deck_layouts.DeckLayouts"):
        self.data = data
        self.path = path
        self.locate = locate
        self.sheets = sheets  # cards read from [[card_sources]]; their problems name a cell
        self.layouts = layouts
        self.problems: list[Problem] = []

    def error(self, field: str, message: str, hint: str = "", severity: str = "error") -> None:
        self.problems.append(self.sheets.problem(field, message, hint, severity) or Problem(
            message, field=field, line=self.locate(field), file=self.path, hint=hint, severity=severity))

    def build(self) -> Deck:
        meta = self.data["deck"]
        players = meta["players"]
        if players["min"] > players["max"]:
            self.error("deck.players", f"min ({players['min']}) is greater than max ({players['max']})")
        if meta.get("engine") is not None and meta["engine"] not in engine_names():
            self.error("deck.engine", *unknown_engine(meta["engine"]))
        suits = self._suits()
        ranks = self._ranks()
        kinds = tuple(Kind(k["id"], k["name"], k.get("description", ""), resolve_color(k.get("color", "")),
                           k.get("layout", ""), k.get("back_layout", ""))
                      for k in self.data["kinds"])
        self._unique("kinds", [k.id for k in kinds], "id")
        cards = self._cards(suits, ranks, kinds)
        sections = self._sections()
        rulings = tuple(
            Ruling(r["id"], r["question"], r["decision"], r["reason"],
                   tuple(r.get("rules", ())), tuple(r.get("cards", ())))
            for r in self.data.get("rulings", ())
        )
        self._unique("rulings", [r.id for r in rulings], "id")
        variants = tuple(Variant(v["id"], v["name"], v["text"], dict(v.get("params", {})))
                         for v in self.data.get("variants", ()))
        self._unique("variants", [v.id for v in variants], "id")
        deck = Deck(
            id=meta["id"],
            name=meta["name"],
            version=meta.get("version", "1"),
            date=meta.get("date", ""),
            designer=meta.get("designer", ""),
            credits=tuple(meta.get("credits", ())),
            description=meta.get("description", ""),
            min_players=players["min"],
            max_players=players["max"],
            play_time=meta.get("play_time", ""),
            language=meta.get("language", "en"),
            card_size=_card_size(meta.get("card_size", "poker")),
            engine=meta.get("engine") or (trickrules.ENGINE_ID if "rules" in self.data else None),
            params=dict(self.data.get("engine", {})),
            suits=suits,
            ranks=ranks,
            kinds=kinds,
            cards=cards,
            sections=sections,
            rulings=rulings,
            variants=variants,
            quickref=tuple(QuickRef(q["title"], q["text"]) for q in self.data.get("quickref", ())),
            back=self._back(meta),
            source=self.path,
            base_url=self._base_url(),
            inputs=(*self.sheets.files, *self.layouts.files),
            layout=meta.get("layout", ""),
            back_layout=meta.get("back_layout", ""),
            layouts=self.layouts.book,
            fonts=self.layouts.fonts,
            icons=self.layouts.icons,
            trick_rules=self.data.get("rules"),
            playtest=read_targets(self.data, players["min"], players["max"], self.error),
            version_mark=meta.get("version_mark", False), tuck_box=read_tuck_box(self.data),
            tokens=read_tokens(self.data, [k.id for k in kinds], self.layouts.book, self.error),
        )
        self._check_references(deck)
        self._check_rules(deck)
        return deck

    def _check_rules(self, deck: Deck) -> None:
        """A [rules] table is read with the deck's parameters and each variant's, so rules that
        cannot be played are reported here, before any game."""
        if deck.trick_rules is None:
            return
        if self.data["deck"].get("engine"):
            self.error("deck.engine", f"the deck has [rules], which deckgen referees itself, and also names the "
                                      f"{self.data['deck']['engine']} engine", hint="keep one: remove engine = ... or [rules]")
            return
        if any(p.severity == "error" for p in self.problems):
            return  # the rules read cards, suits and rule ids: those must be right first
        for problem in trickrules.problems_of(deck):
            self.error(problem.field, problem.message, problem.hint, severity=problem.severity)
        if not any(p.severity == "error" for p in self.problems):  # a variant the rules cannot play keeps
            for problem in trickrules.variant_problems(deck):    # the deck, but not the variant
                self.error(problem.field, problem.message, problem.hint, severity="warning")

    def _suits(self) -> tuple[Suit, ...]:
        raw = self.data.get("suits", [])
        suits = tuple(Suit(s["id"], s["name"], s["symbol"], s["code"].upper(), resolve_color(s["color"]),
                           s.get("opposite"), s.get("description", ""), s.get("layout", "")) for s in raw)
        ids = [s.id for s in suits]
        self._unique("suits", ids, "id")
        self._unique("suits", [s.code for s in suits], "code")
        for index, suit in enumerate(suits):
            if suit.opposite is None:
                continue
            if suit.opposite not in ids:
                self.error(f"suits[{index}].opposite", f"unknown suit {suit.opposite!r}; known: {', '.join(ids)}")
            elif suit.opposite == suit.id:
                self.error(f"suits[{index}].opposite", "a suit cannot be its own opposite")
            else:
                other = suits[ids.index(suit.opposite)]
                if other.opposite not in (None, suit.id):
                    self.error(f"suits[{index}].opposite",
                               f"{suit.id!r} names {other.id!r} as opposite, but {other.id!r} names {other.opposite!r}")
        return suits

    def _ranks(self) -> tuple[Rank, ...]:
        ranks = tuple(
            Rank(r["id"], r["name"], r["code"].upper(), order, r.get("value"), r.get("kind"),
                 r.get("index", r["code"]), r.get("layout", ""))
            for order, r in enumerate(self.data.get("ranks", []))
        )
        self._unique("ranks", [r.id for r in ranks], "id")
        self._unique("ranks", [r.code for r in ranks], "code")
        return ranks

    def _cards(self, suits, ranks, kinds) -> tuple[Card, ...]:
        suit_ids = [s.id for s in suits]
        rank_ids = [r.id for r in ranks]
        kind_ids = [k.id for k in kinds]
        kind_names = {k.id: k.name for k in kinds}
        cards: list[Card] = []
        fields: list[str] = []  # the TOML field each card came from, for error messages
        for set_index, card_set in enumerate(self.data.get("card_sets", ())):
            where = f"card_sets[{set_index}]"
            if not suits or not ranks:
                self.error(where, "a card set needs [[suits]] and [[ranks]] in the deck")
                continue
            set_suits = self._known(card_set.get("suits", suit_ids), suit_ids, f"{where}.suits", "suit")
            set_ranks = self._known(card_set.get("ranks", rank_ids), rank_ids, f"{where}.ranks", "rank")
            for rank_id in set_ranks:
                rank = ranks[rank_ids.index(rank_id)]
                kind = card_set.get("kind") or rank.kind
                if kind is None:
                    self.error(f"{where}.kind", f"rank {rank.id!r} has no kind; give the set or the rank a kind")
                    continue
                if kind not in kind_ids:
                    self.error(f"{where}.kind", f"unknown kind {kind!r}; known: {', '.join(kind_ids)}")
                    continue
                for suit_id in set_suits:
                    suit = suits[suit_ids.index(suit_id)]
                    cards.append(Card(
                        id=f"{rank.id}-{suit.id}", name=f"{rank.name} of {suit.name}",
                        code=f"{rank.code}{suit.code}", kind=kind, type_line=kind_names[kind],
                        count=card_set.get("count", 1), suit=suit.id, rank=rank.id,
                        text=card_set.get("text", ""),
                    ))
                    fields.append(where)
        for index, raw in enumerate(self.data.get("cards", ())):
            where = f"cards[{index}]"
            kind = raw["kind"]
            if kind not in kind_ids:
                self.error(f"{where}.kind", f"unknown kind {kind!r}; known: {', '.join(kind_ids)}")
            suit = raw.get("suit")
            if suit is not None and suit not in suit_ids:
                self.error(f"{where}.suit", f"unknown suit {suit!r}; known: {', '.join(suit_ids) or 'none (the deck has no suits)'}")
            rank = raw.get("rank")
            if rank is not None and rank not in rank_ids:
                self.error(f"{where}.rank", f"unknown rank {rank!r}; known: {', '.join(rank_ids) or 'none (the deck has no ranks)'}")
            cards.append(Card(
                id=card_id(raw),
                name=raw["name"],
                code=raw["code"].upper(),
                kind=kind,
                type_line=raw.get("type_line") or kind_names.get(kind, kind),
                count=raw.get("count", 1),
                suit=suit,
                rank=rank,
                corner=raw.get("corner", ""),
                text=self._filled(raw, "text", where),
                flavor=self._filled(raw, "flavor", where),
                art=self._art(raw.get("art"), f"{where}.art"),
                props=dict(raw.get("props", {})),
                ruling=raw.get("ruling", ""),
                layout=raw.get("layout", ""),
                back_layout=raw.get("back_layout", ""),
            ))
            fields.append(where)
        self._unique_codes(cards, fields)
        own_ids = {f"cards[{index}]" for index, raw in enumerate(self.data.get("cards", ())) if raw.get("id")}
        check_card_ids(cards, fields, own_ids, self.error, lambda where: self.sheets.place(where) or where)
        total = sum(card.count for card in cards)
        if total > MAX_DECK_CARDS:
            self.error("cards", f"the deck holds {total:,} cards; the limit is {MAX_DECK_CARDS:,}",
                       hint="lower the 'count' of some cards")
        if not cards:
            self.error("cards", "the deck has no cards", hint="add [[cards]] entries or a [[card_sets]] table")
        return tuple(cards)

    def _unique_codes(self, cards: list[Card], fields: list[str]) -> None:
        seen: dict[str, str] = {}
        for card, where in zip(cards, fields):
            if card.code in seen:  # codes are stored in upper case
                self.error(f"{where}.code" if where.startswith("cards[") else where,
                           f"duplicate card code {card.code!r} (also used by {seen[card.code]})",
                           hint="card codes must be unique (codes ignore case)")
            else:
                seen[card.code] = f"{self.sheets.place(where) or where} {card.name!r}"

    def _art(self, art: str | None, field: str) -> Path | None:
        if art is None:
            return None
        folder = self.path.parent.resolve()
        try:
            target = (folder / art).resolve()
        except (OSError, RuntimeError):  # a symlink loop, a name too long
            self.error(field, f"art path {art!r} cannot be followed (a symbolic link loop?)")
            return None
        if not target.is_relative_to(folder):
            self.error(field, f"art path {art!r} points outside the deck's folder {folder}",
                       hint="keep art next to the deck file, e.g. art/card.png")
            return None
        return target

    def _sections(self) -> tuple[Section, ...]:
        sections = []
        for s_index, raw in enumerate(self.data.get("sections", ()), start=1):
            rules = tuple(
                Rule(r["id"], r["title"], r["text"], f"{s_index}.{r_index}")
                for r_index, r in enumerate(raw.get("rules", ()), start=1)
            )
            sections.append(Section(raw["id"], raw["title"], raw["role"], raw.get("text", ""),
                                    str(s_index), rules))
        seen: set[str] = set()
        for s_index, section in enumerate(sections):
            for identifier, field in [(section.id, f"sections[{s_index}].id")] + [
                (rule.id, f"sections[{s_index}].rules[{r_index}].id") for r_index, rule in enumerate(section.rules)
            ]:
                if identifier in seen:
                    self.error(field, f"duplicate rule id {identifier!r}", hint="rule and section ids must be unique")
                seen.add(identifier)
        return tuple(sections)

    def _base_url(self) -> str | None:
        """[publish] base_url, checked here so that what validate passes, build can publish."""
        url = self.data.get("publish", {}).get("base_url")
        if url is None:
            return None

        try:
            return check_base_url(url)
        except OptionError:
            self.error("publish.base_url", f"{url!r} is not an http:// or https:// address without spaces or quotes",
                       hint="the address the output folder will be served from, e.g. https://example.org/decks")
            return None

    def _back(self, meta: dict) -> Back:
        raw = self.data.get("back", {})
        return Back(
            title=raw.get("title", meta["name"]),
            subtitle=raw.get("subtitle", ""),
            pattern=raw.get("pattern", "diamonds"),
            color=resolve_color(raw.get("color", "#1f3a5f")),
            accent=resolve_color(raw.get("accent", "#c9a227")),
        )

    def _check_references(self, deck: Deck) -> None:
        """Every {card:}, {suit:} and {rule:} in any text, and every id a ruling names, must exist."""
        rule_ids = {rule.id for rule in deck.rules()}
        suit_ids = [s.id for s in deck.suits]
        icon_names = [icon.name for icon in deck.icons]

        def check_text(text: str, field: str) -> None:
            for offset, message in figures.problems(text, deck, figures.may_hold_figures(field)):
                self.problems.append(self.sheets.problem(field, message, figures.HINT, "error") or Problem(
                    message, field=field, line=self.locate.text_line(field, offset), file=self.path,
                    hint=figures.HINT))
            for kind, target in markup.references(text):
                if kind == "card" and deck.find_card(target) is None and not self.sheets.may_hold(target):
                    self.error(field, f"unknown card {target!r} in {{card:{target}}}",
                               hint="use a card's name, id or code")
                elif kind == "suit" and target not in suit_ids:
                    self.error(field, f"unknown suit {target!r} in {{suit:{target}}}; known: {', '.join(suit_ids) or 'none'}")
                elif kind == "icon" and (markup.icon_repeat(target)[0] not in icon_names
                                         or markup.icon_repeat(target)[2]):
                    name, _, problem = markup.icon_repeat(target)
                    self.error(field, problem or f"unknown icon {name!r} in {{icon:{target}}}; known: "
                               f"{', '.join(icon_names) or 'none (the deck has no [icons] table)'}")
                elif kind == "rule" and target not in rule_ids:
                    self.error(field, f"unknown rule {target!r} in {{rule:{target}}}",
                               hint="rule ids are the 'id' fields under [[sections.rules]]")
            for message, severity in markup.broken(text):
                self.error(field, f"broken markup: {message}", severity=severity,
                           hint="markup: *emphasis*, **strong**, {card:…}, {suit:…}, {rule:…}, {icon:…}")

        check_text(deck.description, "deck.description")
        for index, card in enumerate(self.data.get("cards", ())):
            check_text(card.get("text", ""), f"cards[{index}].text")
            check_text(card.get("flavor", ""), f"cards[{index}].flavor")
            ruling = card.get("ruling")
            if ruling and ruling not in {r.id for r in deck.rulings}:
                self.error(f"cards[{index}].ruling", f"unknown ruling {ruling!r}")
        for index, card_set in enumerate(self.data.get("card_sets", ())):
            check_text(card_set.get("text", ""), f"card_sets[{index}].text")
        for s_index, section in enumerate(deck.sections):
            check_text(section.text, f"sections[{s_index}].text")
            for r_index, rule in enumerate(section.rules):
                check_text(rule.text, f"sections[{s_index}].rules[{r_index}].text")
        for index, suit in enumerate(deck.suits):
            check_text(suit.description, f"suits[{index}].description")
        for index, ruling in enumerate(deck.rulings):
            check_text(ruling.question, f"rulings[{index}].question")
            check_text(ruling.decision, f"rulings[{index}].decision")
            check_text(ruling.reason, f"rulings[{index}].reason")
            for rule_id in ruling.rules:
                if rule_id not in rule_ids:
                    self.error(f"rulings[{index}].rules", f"unknown rule {rule_id!r}")
            for card_ref in ruling.cards:
                if deck.find_card(card_ref) is None and not self.sheets.may_hold(card_ref):
                    self.error(f"rulings[{index}].cards", f"unknown card {card_ref!r}")
        for index, variant in enumerate(deck.variants):
            check_text(variant.text, f"variants[{index}].text")
        for index, entry in enumerate(deck.quickref):
            check_text(entry.text, f"quickref[{index}].text")
        for index, kind in enumerate(deck.kinds):
            check_text(kind.description, f"kinds[{index}].description")

    def _filled(self, raw: dict, name: str, where: str) -> str:
        """A card's text or flavour with its {props.NAME} filled; a name the card lacks is an error."""
        props = raw.get("props", {})
        text, missing = markup.fill_props(raw.get(name, ""), props)
        for prop in dict.fromkeys(missing):
            self.error(f"{where}.{name}", f"{{props.{prop}}}: card {raw['name']!r} has no prop {prop!r}; "
                       f"it has: {', '.join(props) or 'none'}", hint="give the card props = { " + prop + " = ... }")
        for kind, target in markup.references(text):
            problem = markup.icon_repeat(target)[2] if kind == "icon" else ""
            if problem:
                self.error(f"{where}.{name}", f"card {raw['name']!r}: {problem}")
        return text

    def _known(self, values: Iterable[str], known: list[str], field: str, what: str) -> list[str]:
        result = []
        for value in values:
            if value in known:
                result.append(value)
            else:
                self.error(field, f"unknown {what} {value!r}; known: {', '.join(known)}")
        return result

    def _unique(self, table: str, values: list[str], attribute: str) -> None:
        seen: set[str] = set()
        for index, value in enumerate(values):
            key = value.upper()
            if key in seen:
                self.error(f"{table}[{index}].{attribute}", f"duplicate {attribute} {value!r}")
            seen.add(key)


def _card_size(raw: Any) -> CardSize:
    if isinstance(raw, str):
        width, height = CARD_SIZES_MM[raw]
        return CardSize(raw, width, height)
    return CardSize("custom", float(raw["width_mm"]), float(raw["height_mm"]))
