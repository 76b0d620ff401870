"""`export cards`: a deck's cards as a CSV or XLSX spreadsheet that `[[card_sources]]` reads back.

One row per distinct card, one column per card field the deck uses, then `props.NAME`
columns for engine facts (lists and other non-scalar values written as TOML, e.g. `[5, 6]`).
Reading the file back through `[[card_sources]]` gives the same cards (tests prove it), even
cards whose text a spreadsheet would take for a formula (`=…`, `+…`, `@…`): CSV cells get a
leading apostrophe that the reader takes off again, XLSX cells are written as text
(`generator.deck.spreadsheets`).
"""

from __future__ import annotations

import csv
import io
import re
import zipfile
from datetime import datetime
from pathlib import Path
from typing import Any

from ..core.output import write_bytes
from ..deck.model import Card, Deck
from ..deck.sources import CARD_FIELDS, prop_cell
from ..deck.spreadsheets import FORMULA_STARTS, csv_cell
from .common import ExportError, inside

FORMATS = ("csv", "xlsx")
_ALWAYS = ("id", "name", "code", "kind")
_EPOCH = (1980, 1, 1, 0, 0, 0)  # fixed zip and document dates: same deck, same bytes


def card_table(deck: Deck) -> tuple[list[str], list[list[Any]]]:
    """The header and rows `export cards` writes."""
    values = [_fields(deck, card) for card in deck.cards]
    columns = [name for name in CARD_FIELDS if name in _ALWAYS or any(v.get(name) not in ("", None) for v in values)]
    prop_names: list[str] = []
    for card in deck.cards:
        prop_names.extend(name for name in card.props if name not in prop_names)
    header = columns + [f"props.{name}" for name in prop_names]
    rows = []
    for card, fields in zip(deck.cards, values):
        row = [fields.get(name, "") for name in columns]
        row += [prop_cell(card.props[name]) if name in card.props else "" for name in prop_names]
        rows.append(row)
    return header, rows


def _fields(deck: Deck, card: Card) -> dict[str, Any]:
    fields = {name: getattr(card, name) for name in CARD_FIELDS if name != "art"}
    fields["suit"] = card.suit or ""
    fields["rank"] = card.rank or ""
    fields["text"] = card.text.strip("\n ")
    if card.art is not None:
        fields["art"] = card.art.relative_to(deck.folder.resolve()).as_posix()
    return fields


def export_cards(deck: Deck, out_dir: Path, fmt: str = "csv") -> Path:
    """Write output/<deck>/<deck>-cards.csv or .xlsx; return its path."""
    if fmt not in FORMATS:
        raise ExportError(f"--format {fmt!r}: allowed: {', '.join(FORMATS)}")
    header, rows = card_table(deck)
    path = inside(out_dir, f"{deck.id}-cards.{fmt}")
    return write_bytes(path, _csv_bytes(header, rows) if fmt == "csv" else _xlsx_bytes(deck, header, rows))


def _csv_bytes(header: list[str], rows: list[list[Any]]) -> bytes:
    buffer = io.StringIO(newline="")
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow(header)
    writer.writerows([csv_cell(value) for value in row] for row in rows)
    # The byte-order mark makes Excel read the file as UTF-8 (suit symbols, accents).
    return buffer.getvalue().encode("utf-8-sig")


def _xlsx_bytes(deck: Deck, header: list[str], rows: list[list[Any]]) -> bytes:
    from openpyxl import Workbook
    from openpyxl.styles import Alignment, Font

    book = Workbook()
    sheet = book.active
    sheet.title = "Cards"
    sheet.append(header)
    for row in rows:
        sheet.append([value if value != "" else None for value in row])
        for cell in sheet[sheet.max_row]:
            if isinstance(cell.value, str) and cell.value.startswith(FORMULA_STARTS):
                # Text stays text: openpyxl would make "=1+1" a live formula, and a spreadsheet
                # keeps a cell typed as text (quotePrefix) text when it is edited.
                cell.data_type = "s"
                cell.quotePrefix = True
    for cell in sheet[1]:
        cell.font = Font(bold=True)
    sheet.freeze_panes = "A2"
    wrap = Alignment(wrap_text=True, vertical="top")
    for name in ("text", "flavor"):
        if name in header:
            letter = sheet.cell(1, header.index(name) + 1).column_letter
            sheet.column_dimensions[letter].width = 60
            for cell in sheet[letter][1:]:
                cell.alignment = wrap
    book.properties.creator = "deckgen"
    book.properties.title = f"{deck.name} cards"
    book.properties.created = book.properties.modified = datetime(*_EPOCH)
    raw = io.BytesIO()
    book.save(raw)
    return _fixed_dates(raw.getvalue())


def _fixed_dates(data: bytes) -> bytes:
    """The same zip with every entry and the document dated 1980-01-01, so two exports are
    byte-identical."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as source, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for item in source.infolist():
            info = zipfile.ZipInfo(item.filename, date_time=_EPOCH)
            info.compress_type = zipfile.ZIP_DEFLATED
            data = source.read(item.filename)
            if item.filename == "docProps/core.xml":  # openpyxl stamps the save time here
                data = re.sub(rb"(<dcterms:modified[^>]*>)[^<]*", rb"\g<1>1980-01-01T00:00:00Z", data)
            target.writestr(info, data)
    return out.getvalue()
