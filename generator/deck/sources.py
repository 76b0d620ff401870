"""Cards from spreadsheets: `[[card_sources]]` turns CSV and XLSX rows into card tables.

The loader hands each source's rows to the same card checks as `[[cards]]` tables;
`SheetCards.problem` maps a field such as `cards[41].kind` back to the cell it came
from (`cards.xlsx:Actions!C14`), so a designer is told the row and column they see. The files themselves are read, within
bounds, by `generator.deck.spreadsheets`.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable

from ..core.errors import Problem
from .schema import CARD, check
from .spreadsheets import SheetError, UnsavedFormula, read_table

# Card fields a column can fill, in the order `export cards` writes them.
CARD_FIELDS = ("id", "name", "code", "kind", "type_line", "count", "suit", "rank", "corner",
               "text", "flavor", "art", "ruling", "layout", "back_layout")
_INTEGER_FIELDS = {"count"}
_PROPS_PREFIX = "props."


@dataclass(frozen=True, slots=True)
class Cell:
    """Where a value sits as a designer sees it: `cards.xlsx:Actions!C14`."""

    file: Path
    sheet: str | None
    column: int  # 0-based
    row: int  # 1-based, as the spreadsheet numbers rows (records, for CSV)

    @property
    def ref(self) -> str:
        ref = f"{column_letter(self.column)}{self.row}"
        return f"{self.sheet}!{ref}" if self.sheet else ref


@dataclass
class _Row:
    source: int  # index in [[card_sources]]
    file: Path
    sheet: str | None
    row: int
    cells: dict[str, Cell]  # card field (or props.X) -> the cell it came from
    columns: dict[str, int] = field(default_factory=dict)  # field -> column, empty cells included


@dataclass
class SheetCards:
    """The card tables read from every source, with where each came from."""

    cards: list[dict] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    files: list[Path] = field(default_factory=list)
    first_index: int = 0  # index of the first sheet card among the deck's [[cards]]
    rows: list[_Row] = field(default_factory=list)
    dropped: set[str] = field(default_factory=set)  # names, codes and ids of rows left out for their errors
    failed: bool = False  # a whole source could not be read

    def may_hold(self, reference: str) -> bool:
        """Whether a card named nowhere may be one a failed source or a dropped row would have given
        (already reported there, so not reported again as an unknown card)."""
        return self.failed or reference.strip().casefold() in self.dropped

    def place(self, field_path: str) -> str | None:
        """`cards.xlsx:Actions row 14` for a card read from a row, else None."""
        match = re.match(r"cards\[(\d+)\]", field_path)
        if not match or int(match.group(1)) < self.first_index:
            return None
        row = self.rows[int(match.group(1)) - self.first_index]
        return f"{row.file.name}:{row.sheet + ' ' if row.sheet else ''}row {row.row}"

    def problem(self, field_path: str, message: str, hint: str = "",
                severity: str = "error") -> Problem | None:
        """The loader's problem at `cards[N].FIELD`, placed at its cell when card N is a row."""
        match = re.match(r"cards\[(\d+)\](?:\.([A-Za-z_]+))?", field_path)
        if not match or int(match.group(1)) < self.first_index:
            return None
        row = self.rows[int(match.group(1)) - self.first_index]
        name = match.group(2) or ""
        return _row_problem(row, name, message, hint, severity)


def _row_problem(row: _Row, name: str, message: str, hint: str = "", severity: str = "error") -> Problem:
    cell = row.cells.get(name)
    if cell is None and name in row.columns:  # an empty cell
        cell = Cell(row.file, row.sheet, row.columns[name], row.row)
    if cell is None:  # a default filled it, or the sheet has no such column: point at the row
        ref = f"{row.sheet} row {row.row}" if row.sheet else f"row {row.row}"
        return Problem(f"{name + ': ' if name else ''}{message}", file=row.file, cell=ref,
                       hint=hint, severity=severity)
    return Problem(f"{name}: {message}", file=row.file, cell=Cell(row.file, row.sheet, cell.column, row.row).ref,
                   hint=hint, severity=severity)


def column_letter(index: int) -> str:
    letters = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return letters


def read_card_sources(data: dict, deck_path: Path, first_index: int,
                      locate: Callable[[str], int | None] = lambda field: None) -> SheetCards:
    """Read every `[[card_sources]]` entry of checked deck data into card tables;
    `locate` gives the deck file's line of a field such as `card_sources[0].sheet`."""
    result = SheetCards(first_index=first_index)
    for index, source in enumerate(data.get("card_sources", ())):
        where = f"card_sources[{index}]"
        path = deck_path.parent / source["file"]
        try:
            sheet_name, table = read_table(path, source, where, deck_path.parent)
        except SheetError as error:
            result.problems.append(Problem(error.message, field=error.field, file=deck_path, hint=error.hint))
            result.failed = True
            continue
        result.files.append(path)
        _rows_to_cards(result, index, path, sheet_name, table, source, deck_path)
    result.problems = [replace(p, line=locate(p.field)) if p.file == deck_path and p.field else p
                       for p in result.problems]
    return result


# --- rows to card tables ---------------------------------------------------------------------

def _blank(value: Any) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


def _rows_to_cards(result: SheetCards, index: int, path: Path, sheet: str | None,
                   table: list[list[Any]], source: dict, deck_path: Path) -> None:
    where = f"card_sources[{index}]"
    header_at = next((n for n, row in enumerate(table) if not all(map(_blank, row))), None)
    if header_at is None:
        result.problems.append(Problem(f"{_label(path, sheet)} is empty: no header row", field=f"{where}.file",
                                       file=deck_path, hint="the first row names the columns: name, code, kind..."))
        return
    header = [("" if _blank(h) else str(h).strip()) for h in table[header_at]]
    columns = _column_map(result, header, source, where, path, sheet, deck_path, header_at + 1)
    if columns is None:
        return
    defaults = dict(source.get("defaults", {}))
    default_props = defaults.pop("props", {}) or {}
    unknown = [name for name in defaults if name not in CARD_FIELDS]
    for name in unknown:
        result.problems.append(Problem(f"unknown card field {name!r}; allowed: {', '.join(CARD_FIELDS)}, props",
                                       field=f"{where}.defaults.{name}", file=deck_path))
    if unknown or not isinstance(default_props, dict):
        return
    for row_index in range(header_at + 1, len(table)):
        values = table[row_index]
        number = row_index + 1
        if all(_blank(values[c]) for c in columns.values() if c < len(values)):
            continue  # a blank row: spacing between groups of cards
        row = _Row(index, path, sheet, number, {}, columns)
        card: dict[str, Any] = {}
        props: dict[str, Any] = dict(default_props)
        bad = False
        for name, column in columns.items():
            value = values[column] if column < len(values) else None
            if _blank(value):
                continue
            row.cells[name] = Cell(path, sheet, column, number)
            if isinstance(value, UnsavedFormula):
                result.problems.append(_row_problem(
                    row, name, f"formula {value.formula} has no saved value",
                    "open the file in your spreadsheet app and save it, so the result is stored"))
                bad = True
                continue
            try:
                converted = _convert(name, value)
            except ValueError as error:
                result.problems.append(_row_problem(row, name, str(error)))
                bad = True
                continue
            if name.startswith(_PROPS_PREFIX):
                props[name[len(_PROPS_PREFIX):]] = converted
            else:
                card[name] = converted
        for name, value in defaults.items():
            card.setdefault(name, value)
        if props:
            card["props"] = props
        if bad:
            _drop(result, card)
            continue
        if card.get("count") == 0:
            continue  # a card the designer keeps in the sheet but leaves out of this deck
        structural = [(f, m) for f, m in check(card, CARD)]
        for field_path, message in structural:
            result.problems.append(_row_problem(row, field_path.split(".")[0], message))
        if structural:
            _drop(result, card)
            continue
        result.cards.append(card)
        result.rows.append(row)


def _drop(result: SheetCards, card: dict) -> None:
    result.dropped |= {str(card[name]).strip().casefold() for name in ("name", "code", "id") if card.get(name)}


def _label(path: Path, sheet: str | None) -> str:
    return f"{path.name}:{sheet}" if sheet else path.name


def _column_map(result: SheetCards, header: list[str], source: dict, where: str, path: Path,
                sheet: str | None, deck_path: Path, header_row: int) -> dict[str, int] | None:
    """Card field -> column index, from the `columns` map and the header's own names."""
    positions = {h.casefold(): n for n, h in reversed(list(enumerate(header))) if h}
    mapped: dict[str, int] = {}
    ok = True
    for name, title in source.get("columns", {}).items():
        if name not in CARD_FIELDS and not name.startswith(_PROPS_PREFIX):
            result.problems.append(Problem(
                f"unknown card field {name!r}; allowed: {', '.join(CARD_FIELDS)}, props.NAME",
                field=f"{where}.columns.{name}", file=deck_path))
            ok = False
        elif str(title).casefold() not in positions:
            result.problems.append(Problem(
                f"no column {title!r} in {_label(path, sheet)}; found: {', '.join(h for h in header if h)}",
                field=f"{where}.columns.{name}", file=deck_path))
            ok = False
        else:
            mapped[name] = positions[str(title).casefold()]
    taken = set(mapped.values())
    for title, column in positions.items():
        if column in taken:
            continue
        if title in CARD_FIELDS and title not in mapped:
            mapped[title] = column
        elif title.startswith(_PROPS_PREFIX) and len(title) > len(_PROPS_PREFIX):
            mapped.setdefault(header[column][:len(_PROPS_PREFIX)].lower() + header[column][len(_PROPS_PREFIX):],
                              column)
        else:
            result.problems.append(Problem(
                f"column {header[column]!r} is not a card field and is not read; "
                f"allowed: {', '.join(CARD_FIELDS)}, props.NAME, or map it in 'columns'",
                file=path, cell=Cell(path, sheet, column, header_row).ref, severity="warning"))
    return mapped if ok else None


_WHOLE = re.compile(r"[+-]?\d+")


def _convert(name: str, value: Any) -> Any:
    """A cell's value as the card field wants it (CSV cells are all text; XLSX cells are typed)."""
    if name in _INTEGER_FIELDS:
        if isinstance(value, bool):
            raise ValueError(f"expected a whole number, found {value!r}")
        if isinstance(value, float) and value.is_integer():
            return int(value)
        if isinstance(value, int):
            return value
        text = str(value).strip()
        if _WHOLE.fullmatch(text):
            return int(text)
        raise ValueError(f"expected a whole number, found {text!r}")
    if name.startswith(_PROPS_PREFIX):
        return _prop_value(value)
    if isinstance(value, float) and value.is_integer():
        value = int(value)  # a code typed as 7 in a spreadsheet cell is the text "7"
    text = str(value)
    return text.strip() if name != "text" else text.strip("\n ").replace("\r\n", "\n")


def _prop_value(value: Any) -> Any:
    """Engine facts keep their TOML types: 3, 1.5, true, [5, 6], "text"; anything else is text."""
    if not isinstance(value, str):
        return int(value) if isinstance(value, float) and value.is_integer() else value
    text = value.strip()
    try:
        return tomllib.loads(f"v = {text}")["v"]
    except tomllib.TOMLDecodeError:
        return text


def prop_cell(value: Any) -> Any:
    """The inverse of `_prop_value`: what `export cards` writes so that reading it back is equal."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return value
    if isinstance(value, str):
        return value if _prop_value(value) == value else _toml_value(value)
    return _toml_value(value)


_TOML_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):  # a TOML basic string: every control character escaped
        return '"' + "".join(_TOML_ESCAPES.get(char) or (f"\\u{ord(char):04x}" if ord(char) < 32 or ord(char) == 127
                                                         else char) for char in value) + '"'
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {_toml_value(v)}" for k, v in value.items()) + " }"
    raise ValueError(f"cannot write {value!r} in a cell")

