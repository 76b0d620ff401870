"""A deck's layouts, fonts and icons, read for the loader and checked against its cards.

`read(data, path, text)` gives the deck's `LayoutBook`, fonts and icons with every
problem in the layout tables (file:line, field path, what was found, what is allowed).
`check(deck, ...)` then checks what needs the whole deck: layout names the deck chooses,
card fields layouts name, image files, and every element's box against the bleed and
safe area on every card that draws it.
"""

from __future__ import annotations

from io import BytesIO
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...core.errors import Problem, UnreadableInput
from ...core.files import RefusedInput, input_problem, read_input
from ..model import FontFamily, Icon
from .artfiles import image_path, unreadable
from .fontfiles import truetype_data
from .book import LayoutBook, Source, build_book, builtin_book, builtin_sources, read_source
from .choose import choose_back, choose_face
from .lines import TomlLines
from .place import place
from .ranges import value_problem
from .units import POINTS_PER_MM
from .values import CardValues, template_paths

if TYPE_CHECKING:
    from ..model import Deck

FONT_SUFFIXES = (".ttf", ".otf")
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".svg")


class DeckLayouts:
    """What `read` found: the book, fonts, icons, the problems, and where each field is."""

    def __init__(self, path: Path, text: str):
        self.path = path
        self.lines = TomlLines(text)
        self.problems: list[Problem] = []
        self.book = LayoutBook()
        self.fonts: tuple[FontFamily, ...] = ()
        self.icons: tuple[Icon, ...] = ()
        self.files: list[Path] = []  # shared layouts, fonts and icons the deck reads (a rebuild hashes them)

    def problem(self, field: str, message: str, hint: str = "", severity: str = "error", file: Path | None = None,
                line: int | None = None) -> None:
        self.problems.append(Problem(message, field=field, line=line or self.lines(field), file=file or self.path,
                                     hint=hint, severity=severity))


def read(data: dict, path: Path, text: str) -> DeckLayouts:
    found = DeckLayouts(path, text)
    folder = path.parent
    sources: list[Source] = list(builtin_sources())
    for index, name in enumerate(data.get("deck", {}).get("layouts", ())):
        file = (folder / name).resolve()
        try:
            source, problems = read_source(file, within=folder)
        except RefusedInput as error:
            found.problem(f"deck.layouts[{index}]", f"layouts file {name!r} {error.reason}",
                          hint=error.problem.hint or f"looked for {file}")
            continue
        except UnreadableInput as error:  # not UTF-8: the problem names the file and its line
            found.problems.append(error.problem)
            continue
        found.problems.extend(problems)
        if source is not None:
            sources.append(source)
            found.files.append(file)
    own = data.get("layouts", {})
    if isinstance(own, dict) and own:
        sources.append(Source(own, path, found.lines))
    if len(sources) == len(builtin_sources()):  # only the shipped layouts: one book for every such deck
        found.book = builtin_book()
    else:
        found.book, problems = build_book(sources)
        found.problems.extend(problems)
    found.fonts = _fonts(found, data.get("fonts", ()), folder)
    found.icons = read_icons(found, data.get("icons", {}), folder)
    return found


def _fonts(found: DeckLayouts, raw: list, folder: Path) -> tuple[FontFamily, ...]:
    families = []
    for index, entry in enumerate(raw):
        where = f"fonts[{index}]"
        files: dict[str, Path] = {}
        for style in ("regular", "bold", "italic", "bolditalic"):
            name = entry.get(style)
            if name is None:
                continue
            file = (folder / name).resolve()
            reason = _font_unusable(file, folder)
            if reason:
                found.problem(f"{where}.{style}", f"font file {name!r} {reason}",
                              hint="give a TrueType or OpenType font (.ttf or .otf) next to the deck")
                continue
            files[style] = file
            found.files.append(file)
        if "regular" not in files:
            if "regular" not in entry:
                found.problem(f"{where}.regular", "required field is missing: every font family needs a regular file")
            continue
        if entry["family"] in ("serif", "sans") or entry["family"] in [f.family for f in families]:
            found.problem(f"{where}.family", f"font family {entry['family']!r} is already defined; "
                          "give each family its own name (serif and sans are the built-in DejaVu)")
            continue
        families.append(FontFamily(entry["family"], files))
    return tuple(families)


def _font_unusable(file: Path, folder: Path) -> str:
    from reportlab.pdfbase.ttfonts import TTFontFile  # reportlab's font code costs ~40 ms to import

    reason = input_problem(file, "font", within=folder)
    if reason:
        return reason
    if file.suffix.lower() not in FONT_SUFFIXES:
        return "is not a .ttf or .otf file"
    try:
        data = BytesIO(truetype_data(read_input(file, "font", within=folder)))
        data.name = str(file)  # what reportlab names the font by in its messages
        TTFontFile(data)
    except Exception as error:  # reportlab raises its own TTFError and plain errors for broken files
        return f"cannot be embedded: {error}"
    return ""


def read_icons(found: DeckLayouts, raw: dict, folder: Path) -> tuple[Icon, ...]:
    """The icons of an `[icons]` table (a deck's, or a translation overlay's), each file checked."""
    icons = []
    for name, entry in raw.items():
        where = f"icons.{name}"
        file_name, tint = (entry, False) if isinstance(entry, str) else (entry.get("file"), entry.get("tint", False))
        if not isinstance(file_name, str):
            found.problem(where, "an icon is a file name, or a table { file = \"...\", tint = true }")
            continue
        file = (folder / file_name).resolve()
        if file.suffix.lower() not in IMAGE_SUFFIXES:
            found.problem(where, f"icon file {file_name!r} is not a PNG, JPEG or SVG")
            continue
        reason = unreadable(file, folder)
        if reason:
            found.problem(where, f"icon file {file_name!r} {reason}")
            continue
        found.files.append(file)
        icons.append(Icon(name, file, bool(tint)))
    return tuple(icons)


# Checks against the deck ---------------------------------------------------------------------

def check(deck: "Deck", found: DeckLayouts, data: dict) -> None:
    """Add to `found.problems` what needs the built deck."""
    book = found.book

    def choose(field: str, name: Any, side: str) -> None:
        if not name:
            return
        layout = book.get(name)
        if layout is None:
            found.problem(field, f"unknown layout {name!r}; known: {', '.join(book.names())}",
                          hint="define it as [layouts.NAME] in the deck or in a file listed in [deck] layouts")
        elif layout.side != side and layout.builtin:
            found.problem(field, f"layout {name!r} is a {layout.side} layout; a {side} layout is needed here")

    meta = data.get("deck", {})
    choose("deck.layout", meta.get("layout"), "face")
    choose("deck.back_layout", meta.get("back_layout"), "back")
    for table in ("kinds", "suits", "ranks", "cards"):
        for index, raw in enumerate(data.get(table, ())):
            choose(f"{table}[{index}].layout", raw.get("layout"), "face")
            if table in ("kinds", "cards"):
                choose(f"{table}[{index}].back_layout", raw.get("back_layout"), "back")
    _check_geometry(deck, found)


def _used_layouts(deck: "Deck"):
    """(layout, card) pairs: every card with its face layout and its back layout."""
    for card in deck.cards:
        for layout in (choose_face(deck, card), choose_back(deck, card)):
            if not layout.builtin:  # the shipped layouts are checked by deckgen's own tests
                yield layout, card


def _check_geometry(deck: "Deck", found: DeckLayouts) -> None:
    """Elements outside the bleed (error) or the safe area (warning), fields no card has,
    missing images, and layouts that draw nothing for a card."""

    def pt(mm: float) -> float:
        return mm * POINTS_PER_MM

    width, height, bleed = pt(deck.card_size.width_mm), pt(deck.card_size.height_mm), pt(3.0)
    reported: set[tuple[str, str]] = set()
    own = {name for name, layout in found.book.layouts.items() if not layout.builtin}
    if not own:
        return
    samples = [CardValues(deck, card) for card in deck.cards]

    def report(key: tuple[str, str], element, message: str, severity: str = "error", hint: str = "") -> None:
        if key in reported:
            return
        reported.add(key)
        found.problem(element.where, message, hint=hint, severity=severity, file=element.source, line=element.line)

    for layout_name in sorted(own):
        layout = found.book.layouts[layout_name]
        for element in layout.elements:
            paths = [p for key, value in element.props.items() if key not in ("when", "unless")
                     for p in template_paths(value)]
            if element.type == "text" and "text" not in element.props:
                paths.append(element.props.get("field", element.name))
            for path in paths:
                if path.split(".")[0] in ("deck", "back"):
                    continue
                if not any(values.lookup(path) not in ("", None) or path in values.values for values in samples) \
                        and not _always_known(path):
                    report((element.where, path), element,
                           f"layout {layout_name!r} element {element.name!r} names {path!r}, which no card in the "
                           "deck has", hint="card fields: name, code, kind, type_line, corner, text, flavor, art, "
                           "suit.*, rank.*, kind.*, props.NAME, deck.*, back.*")
    for layout, card in _used_layouts(deck):
        values = CardValues(deck, card)
        if not _filled_values_hold(layout, values, card, report):
            continue  # the card's values cannot be drawn (reported): nothing to place
        placed = place(deck, layout, card, width, height, bleed, values)
        if not placed:
            found.problem(f"layouts.{layout.name}", f"layout {layout.name!r} draws nothing for card {card.name!r} "
                          f"({card.code})", severity="warning", hint="check its elements' when/unless conditions")
        safe = layout.safe_mm * 72 / 25.4
        for item in placed:
            box, element = item.box, item.element
            if element.type == "image":
                _check_image(item, report, deck.folder)
            if element.type == "shape" and item.get("shape") == "line":
                continue
            tolerance = 0.01
            if box.x < -bleed - tolerance or box.y < -bleed - tolerance or box.right > width + bleed + tolerance \
                    or box.top > height + bleed + tolerance:
                report((element.where, "bleed"), element,
                       f"layout {layout.name!r} element {element.name!r} reaches outside the bleed edge "
                       f"(3 mm beyond the trim) on card {card.name!r} ({card.code})",
                       hint="keep x, y, width and height inside frame = \"bleed\"")
            elif (item.values.get("frame") or "trim") != "bleed" and element.type in ("text", "icon", "index") and (
                    box.x < safe - tolerance or box.y < safe - tolerance or box.right > width - safe + tolerance
                    or box.top > height - safe + tolerance):
                report((element.where, "safe"), element,
                       f"layout {layout.name!r} element {element.name!r} strays outside the safe area "
                       f"({layout.safe_mm:g} mm inside the trim) on card {card.name!r} ({card.code}); "
                       "a cut a little off may clip it", severity="warning")


def _filled_values_hold(layout, values: CardValues, card, report) -> bool:
    """Whether every `{variable}` value this card fills into the layout is in range (each
    problem reported once per element and field)."""
    ok = True
    for element in layout.elements:
        if not values.holds(element.props.get("when")) or \
                ("unless" in element.props and values.holds(element.props["unless"])):
            continue
        for key, template in element.split[1]:
            filled = values.fill(template)
            reason = value_problem(element.type, key, filled, filled=True)
            if reason:
                ok = False
                report((element.where, key), element,
                       f"layout {layout.name!r} element {element.name!r}: {key} = {template!r} is {filled!r} "
                       f"on card {card.name!r} ({card.code}): {reason}")
    return ok


def _always_known(path: str) -> bool:
    return path in ("name", "code", "kind", "type_line", "id", "count", "kind.id", "kind.name", "kind.color",
                    "kind.initial", "kind.crest") or path.startswith("card.")


def _check_image(item, report, folder: Path) -> None:
    path = image_path(item)
    if path is None:
        return
    reason = unreadable(path, folder)
    if reason:
        report((item.element.where, "image"), item.element,
               f"image {str(path)!r} of element {item.element.name!r} {reason}",
               hint="image paths are relative to the file that defines the layout; use PNG, JPEG or SVG")
