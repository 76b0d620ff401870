"""Spreadsheet files read into rows of cells, within bounds, and the cell spelling that keeps a
spreadsheet app from evaluating a card's text.

Reading (for `[[card_sources]]`): a CSV, TSV or XLSX file inside the deck's folder, opened by
`generator.core.files`. An XLSX file is a zip of XML: its members and their unpacked sizes are
checked before anything is unpacked (a small file can unpack to gigabytes), and its sheet may
span at most `MAX_ROWS` rows, `MAX_COLUMNS` columns and `MAX_CELLS` cells (one cell at
XFD1048576 would otherwise make a million rows of sixteen thousand cells).

Writing (for `export cards`): a spreadsheet evaluates a cell typed as `=…`, `+…`, `-…`, `@…`
or beginning with a tab or a carriage return, so a card text `=HYPERLINK(…)` or `=cmd|…`
would run. In CSV such a cell is written behind an apostrophe, as a spreadsheet's own
"this is text" mark (`csv_cell`), and `csv_value` takes the apostrophe off when it is read
back, so the round trip is exact. In XLSX a text cell is never a formula (the exporter writes
it as text, marked as typed-as-text).
"""

from __future__ import annotations

import csv
import io
import re
import zipfile
from pathlib import Path
from typing import Any

from ..core.files import RefusedInput, read_input

MAX_ROWS = 200_000  # twice the most cards a deck may hold (schema.MAX_DECK_CARDS)
MAX_COLUMNS = 1_000
MAX_CELLS = 10_000_000  # rows times columns of the used range
MAX_UNPACKED = 256 * 1024 * 1024  # bytes of XML an .xlsx file may unpack to
MAX_MEMBERS = 10_000  # files inside an .xlsx zip
SUFFIXES = (".xlsx", ".csv", ".tsv", ".txt")
# What makes a spreadsheet evaluate a cell: a formula's first characters and DDE's.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
_PLAIN_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")


class SheetError(Exception):
    """A source that cannot be read: the `[[card_sources]]` field to blame, what, and what helps."""

    def __init__(self, field_path: str, message: str, hint: str = ""):
        super().__init__(message)
        self.field, self.message, self.hint = field_path, message, hint


class UnsavedFormula:
    """A formula cell the file holds no value for (written by a script, never recalculated)."""

    def __init__(self, formula: str):
        self.formula = formula


def csv_cell(value: Any) -> Any:
    """A value as `export cards` writes it into a CSV cell: text a spreadsheet would evaluate
    gets an apostrophe in front (and so does text that already starts with apostrophes before
    such a character, so that `csv_value` can tell them apart); a plain number stays."""
    if not isinstance(value, str) or _PLAIN_NUMBER.fullmatch(value):
        return value
    return "'" + value if value.lstrip("'").startswith(FORMULA_STARTS) else value


def csv_value(text: str) -> str:
    """A CSV cell as `[[card_sources]]` reads it: `csv_cell`'s apostrophe taken off."""
    if text.startswith("'") and text.lstrip("'").startswith(FORMULA_STARTS):
        return text[1:]
    return text


def read_table(path: Path, source: dict, where: str, folder: Path) -> tuple[str | None, list[list[Any]]]:
    """(Sheet name or None for CSV, rows of cell values) of a `[[card_sources]]` file."""
    suffix = path.suffix.lower()
    if suffix not in SUFFIXES:
        raise SheetError(f"{where}.file", f"unknown spreadsheet type {path.suffix or '(none)'!r}; "
                                          "allowed: .csv, .tsv, .txt (CSV) or .xlsx")
    if suffix == ".xlsx" and "delimiter" in source:
        raise SheetError(f"{where}.delimiter", "a delimiter applies to CSV files only")
    if suffix != ".xlsx" and "sheet" in source:
        raise SheetError(f"{where}.sheet", "a CSV file has no sheets; remove 'sheet'")
    try:
        raw = read_input(path, "spreadsheet", within=folder)
    except RefusedInput as error:
        raise SheetError(f"{where}.file", f"spreadsheet {source['file']!r} {error.reason}", error.problem.hint) from None
    if suffix == ".xlsx":
        return _read_xlsx(raw, path, source.get("sheet"), where)
    return None, _read_csv(raw, path, source.get("delimiter"), where)


def _read_csv(raw: bytes, path: Path, delimiter: str | None, where: str) -> list[list[Any]]:
    try:
        text = raw.decode("utf-8-sig")  # with or without the byte-order mark Excel writes
    except UnicodeDecodeError as error:
        record = raw[: error.start].count(b"\n") + 1
        raise SheetError(f"{where}.file", f"{path.name} is not UTF-8: byte 0x{raw[error.start]:02x} "
                                          f"on line {record} cannot be decoded",
                         "save the CSV as 'CSV UTF-8'") from None
    if delimiter is None:
        delimiter = _sniff_delimiter(text, path)
    elif len(delimiter) != 1:
        raise SheetError(f"{where}.delimiter", f"found {delimiter!r}; allowed: one character such as ',', ';' or '\\t'")
    try:
        rows = [[csv_value(cell) for cell in row] for row in csv.reader(io.StringIO(text, newline=""),
                                                                         delimiter=delimiter)]
    except csv.Error as error:
        raise SheetError(f"{where}.file", f"{path.name}: unreadable CSV: {error}") from None
    _check_size(len(rows), max(map(len, rows), default=0), path, where)
    return rows


def _sniff_delimiter(text: str, path: Path) -> str:
    if path.suffix.lower() == ".tsv":
        return "\t"
    header = text.split("\n", 1)[0]
    try:
        return csv.Sniffer().sniff(header, delimiters=",;\t|").delimiter
    except csv.Error:  # one column, or nothing to tell by: count the header's candidates
        return max(",;\t|", key=header.count) if any(c in header for c in ",;\t|") else ","


def _read_xlsx(raw: bytes, path: Path, sheet: str | None, where: str) -> tuple[str, list[list[Any]]]:
    from openpyxl import load_workbook

    _check_archive(raw, path, where)
    try:
        # Streaming (read-only) and data_only: a formula cell reads as the value the
        # spreadsheet app saved with it.
        book = load_workbook(io.BytesIO(raw), read_only=True, data_only=True)
    except (zipfile.BadZipFile, KeyError, OSError, ValueError, TypeError) as error:
        raise SheetError(f"{where}.file", f"{path.name} is not a readable .xlsx workbook ({error})",
                         "save it from your spreadsheet app as Excel Workbook (.xlsx)") from None
    try:
        if sheet is None:
            worksheet = book.worksheets[0]
        elif sheet in book.sheetnames:
            worksheet = book[sheet]
        else:
            raise SheetError(f"{where}.sheet", f"no sheet {sheet!r} in {path.name}; "
                                               f"found: {', '.join(book.sheetnames)}")
        rows = _bounded_rows(worksheet, path, where)
        title = worksheet.title
        with zipfile.ZipFile(io.BytesIO(raw)) as archive:  # what streaming does not read: merges, formulas
            xml = archive.read(worksheet._worksheet_path)
    except (zipfile.BadZipFile, KeyError, OSError, ValueError, TypeError) as error:
        raise SheetError(f"{where}.file", f"{path.name}: a sheet deckgen cannot read ({error})",
                         "save it from your spreadsheet app as Excel Workbook (.xlsx)") from None
    finally:
        book.close()
    _fill_merged(rows, xml)
    if re.search(rb"<(?:\w+:)?f[\s>/]", xml):
        _mark_unsaved_formulas(raw, title, rows)
    return title, rows


def _check_archive(raw: bytes, path: Path, where: str) -> None:
    """Refuse a zip that would unpack past the limits, before anything is unpacked. (Python's
    zipfile never unpacks a member past the size its directory states.)"""
    try:
        with zipfile.ZipFile(io.BytesIO(raw)) as archive:
            members = archive.infolist()
    except (zipfile.BadZipFile, OSError, ValueError) as error:
        raise SheetError(f"{where}.file", f"{path.name} is not a readable .xlsx workbook ({error})",
                         "save it from your spreadsheet app as Excel Workbook (.xlsx)") from None
    unpacked = sum(member.file_size for member in members)
    if len(members) > MAX_MEMBERS or unpacked > MAX_UNPACKED:
        raise SheetError(f"{where}.file", f"{path.name} unpacks to {len(members):,} files of {unpacked:,} bytes; "
                                          f"the limit is {MAX_MEMBERS:,} files of {MAX_UNPACKED:,} bytes",
                         "a card list is far smaller: save the sheet alone as a new workbook")


def _bounded_rows(worksheet, path: Path, where: str) -> list[list[Any]]:
    """The sheet's rows, each as long as its last value, never more than the limits allow."""
    worksheet.reset_dimensions()  # the stated used range may lie: read what is there
    rows: list[list[Any]] = []
    width = 0
    for values in worksheet.iter_rows(values_only=True):  # a row is at most 16,384 cells (XFD)
        row = list(values)
        while row and row[-1] is None:
            row.pop()
        rows.append(row)
        width = max(width, len(row))
        _check_size(len(rows), width, path, where, worksheet.title)
    while rows and not rows[-1]:
        rows.pop()
    for row in rows:  # as wide as the widest: a merged range fills every cell it covers
        row.extend([None] * (width - len(row)))
    return rows


def _check_size(rows: int, columns: int, path: Path, where: str, sheet: str | None = None) -> None:
    if rows > MAX_ROWS or columns > MAX_COLUMNS or rows * columns > MAX_CELLS:
        label = f"{path.name}:{sheet}" if sheet else path.name
        raise SheetError(f"{where}.file", f"{label} reaches {columns:,} columns and {rows:,} rows; the limit is "
                                          f"{MAX_COLUMNS:,} columns, {MAX_ROWS:,} rows and {MAX_CELLS:,} cells",
                         "a value far from the card list (a stray cell) makes the sheet that large: clear it")


def _fill_merged(rows: list[list[Any]], xml: bytes) -> None:
    """A merged range shows its value across every cell it covers, so read it that way."""
    from openpyxl.utils.cell import range_boundaries

    for ref in re.findall(rb'<(?:\w+:)?mergeCell ref="([A-Z]+[0-9]+:[A-Z]+[0-9]+)"', xml):
        min_col, min_row, max_col, max_row = range_boundaries(ref.decode())
        if min_row > len(rows):
            continue
        value = rows[min_row - 1][min_col - 1] if min_col <= len(rows[min_row - 1]) else None
        for row in range(min_row - 1, min(max_row, len(rows))):
            for column in range(min_col - 1, min(max_col, len(rows[row]))):
                rows[row][column] = value


def _mark_unsaved_formulas(raw: bytes, title: str, rows: list[list[Any]]) -> None:
    from openpyxl import load_workbook

    book = load_workbook(io.BytesIO(raw), read_only=True)  # a second streaming pass, for sheets with formulas
    try:
        worksheet = book[title]
        worksheet.reset_dimensions()
        for row_index, values in enumerate(worksheet.iter_rows(values_only=True)):
            if row_index >= len(rows):
                break
            for column, value in enumerate(values[:len(rows[row_index])]):
                if isinstance(value, str) and value.startswith("=") and rows[row_index][column] is None:
                    rows[row_index][column] = UnsavedFormula(value)
    finally:
        book.close()
