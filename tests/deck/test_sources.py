"""Cards from spreadsheets through the command line: CSV dialects, XLSX quirks, errors that
name the cell, `export cards` round trips and the shipped example spreadsheet."""

from __future__ import annotations

import dataclasses
import re
import shutil
import zipfile
from pathlib import Path

import pytest
from openpyxl import Workbook

from generator.deck.loader import load_deck
from tests.conftest import DECK_PATHS, DECKS, ROOT

HEAD = '''[deck]
id = "tiny"
name = "Tiny"
players = { min = 2, max = 4 }

[[kinds]]
id = "action"
name = "Action"
[[kinds]]
id = "thing"
name = "Thing"
'''


def deck_with(folder: Path, source: str, extra: str = "") -> Path:
    path = folder / "tiny.toml"
    path.write_text(HEAD + extra + "\n[[card_sources]]\n" + source + "\n", encoding="utf-8")
    return path


def cards_of(path: Path) -> list[tuple]:
    return [(c.name, c.code, c.kind, c.count, c.text, dict(c.props)) for c in load_deck(path).cards]


# --- CSV dialects ------------------------------------------------------------------------------

@pytest.mark.parametrize("delimiter", [",", ";", "\t"])
@pytest.mark.parametrize("bom", [b"", b"\xef\xbb\xbf"])
def test_csv_dialects_are_sniffed(tmp_path, run_cli, delimiter, bom):
    rows = [["name", "code", "kind", "count", "text", "props.speed"],
            ["Fast Broom", "FB", "thing", "2", 'Moves "fast";\nvery fast, indeed', "3"],
            ["Dive", "DV", "action", "1", "Down, down.", ""]]
    text = "\r\n".join(delimiter.join(_quote(v, delimiter) for v in row) for row in rows) + "\r\n"
    (tmp_path / "cards.csv").write_bytes(bom + text.encode("utf-8"))
    path = deck_with(tmp_path, 'file = "cards.csv"')
    assert cards_of(path) == [
        ("Fast Broom", "FB", "thing", 2, 'Moves "fast";\nvery fast, indeed', {"speed": 3}),
        ("Dive", "DV", "action", 1, "Down, down.", {}),
    ]
    result = run_cli("show", path)
    assert result.exit_code == 0, result.stderr
    assert "Fast Broom" in result.stdout and "3" in result.stdout


def _quote(value: str, delimiter: str) -> str:
    if any(c in value for c in (delimiter, '"', "\n")):
        return '"' + value.replace('"', '""') + '"'
    return value


def test_explicit_delimiter_column_map_defaults_and_skips(tmp_path):
    (tmp_path / "cards.txt").write_text(
        "Card|Qty|Effect|Abbr\n"
        "Sweep|3|Gain 3.|SW\n"
        "||||\n"  # a blank row between groups
        "\n"
        "Old Card|0|Left out of this edition.|OC\n"
        "Hoop|1|Stands there.|HP\n", encoding="utf-8")
    path = deck_with(tmp_path, 'file = "cards.txt"\ndelimiter = "|"\n'
                               'columns = { name = "Card", count = "Qty", text = "Effect", code = "Abbr" }\n'
                               'defaults = { kind = "action", props = { dominance = 1 } }')
    assert cards_of(path) == [("Sweep", "SW", "action", 3, "Gain 3.", {"dominance": 1}),
                              ("Hoop", "HP", "action", 1, "Stands there.", {"dominance": 1})]


def test_prop_cells_keep_their_toml_types(tmp_path):
    (tmp_path / "c.csv").write_text('name,code,kind,props.save_on,props.role,props.odds,props.flag,props.word\n'
                                    'Keeper,K,thing,"[5, 6]",keeper,1.5,true,"""3"""\n', encoding="utf-8")
    card = load_deck(deck_with(tmp_path, 'file = "c.csv"')).cards[0]
    assert dict(card.props) == {"save_on": [5, 6], "role": "keeper", "odds": 1.5, "flag": True, "word": "3"}


# --- XLSX ---------------------------------------------------------------------------------------

def _workbook(tmp_path: Path, rows: list[list], title: str = "Actions", name: str = "cards.xlsx"):
    book = Workbook()
    sheet = book.active
    sheet.title = title
    for row in rows:
        sheet.append(row)
    return book, sheet, tmp_path / name


def test_xlsx_merged_hidden_hyperlinks_and_numbers(tmp_path):
    book, sheet, path = _workbook(tmp_path, [
        ["name", "code", "kind", "count", "text"],
        ["Sweep", "SW", "action", 3.0, "Gain 3."],
        ["Seven", 7, None, 1, "A number code."],
        ["Hidden", "HD", None, 2, "Read all the same."],
        ["Linked", "LK", "thing", 1, "Its name links to the rules."],
    ])
    sheet.merge_cells("C2:C4")  # one 'action' cell covering three rows
    sheet.row_dimensions[4].hidden = True
    sheet["A5"].hyperlink = "https://example.invalid/linked"
    book.create_sheet("Notes").append(["not", "read"])
    book.save(path)
    deck = deck_with(tmp_path, 'file = "cards.xlsx"\nsheet = "Actions"')
    assert [(n, c, k, count) for n, c, k, count, _, _ in cards_of(deck)] == [
        ("Sweep", "SW", "action", 3), ("Seven", "7", "action", 1), ("Hidden", "HD", "action", 2),
        ("Linked", "LK", "thing", 1)]


def test_xlsx_formulas_read_as_saved_values(tmp_path, run_cli):
    book, sheet, path = _workbook(tmp_path, [["name", "code", "kind", "count"],
                                             ["Pair", "PR", "thing", "=1+1"],
                                             ["Unsaved", "UN", "thing", "=2+2"]])
    book.save(path)
    # A spreadsheet app stores each formula's result next to it; openpyxl does not, so add
    # the first one's result the way Excel would and leave the second without.
    with zipfile.ZipFile(path) as source:
        parts = {name: source.read(name) for name in source.namelist()}
    xml = parts["xl/worksheets/sheet1.xml"].decode()
    xml, replaced = re.subn(r"<f>1\+1</f><v\s*/?>(</v>)?", "<f>1+1</f><v>2</v>", xml)
    assert replaced == 1, xml
    parts["xl/worksheets/sheet1.xml"] = xml.encode()
    with zipfile.ZipFile(path, "w") as target:
        for name, data in parts.items():
            target.writestr(name, data)
    deck = deck_with(tmp_path, 'file = "cards.xlsx"')
    result = run_cli("validate", deck, "--simulate", "0")
    assert result.exit_code == 1
    assert f"{path}:Actions!D3: error: count: formula =2+2 has no saved value" in result.stdout
    assert "D2" not in result.stdout
    with zipfile.ZipFile(path, "w") as target:  # the same file without the unsaved row
        for name, data in parts.items():
            if name == "xl/worksheets/sheet1.xml":
                data = re.sub(rb'<row r="3".*?</row>', b"", data)
            target.writestr(name, data)
    assert [(c.code, c.count) for c in load_deck(deck).cards] == [("PR", 2)]


# --- errors -------------------------------------------------------------------------------------

def test_every_row_error_names_sheet_row_and_column_at_once(tmp_path, run_cli):
    rows = [["name", "code", "kind", "count", "text"]] + [
        [f"Card {n}", f"C{n}", "action", 1, "Plain."] for n in range(2, 14)]
    rows.append(["Typo", "TY", "acton", 1, "Unknown kind."])            # row 14
    rows.append(["Many", "MN", "thing", "lots", "Bad count."])           # row 15
    rows.append(["Again", "C2", "thing", 1, "Duplicate code."])          # row 16
    rows.append([None, "NN", "thing", 1, "No name."])                   # row 17
    rows.append(["Ref", "RF", "thing", 1, "See {card:Nothing}."])       # row 18
    rows.append(["Bad code!", "A B", "thing", 1, ""])                    # row 19
    book, _, path = _workbook(tmp_path, rows)
    book.save(path)
    deck = deck_with(tmp_path, 'file = "cards.xlsx"\nsheet = "Actions"')
    result = run_cli("show", deck)
    assert result.exit_code == 1
    err = result.stderr
    assert f"{path}:Actions!C14: error: kind: unknown kind 'acton'; known: action, thing" in err
    assert f"{path}:Actions!D15: error: count: expected a whole number, found 'lots'" in err
    assert f"{path}:Actions!B16: error: code: duplicate card code 'C2' (also used by cards.xlsx:Actions row 2 " \
           "'Card 2')" in err
    assert f"{path}:Actions!A17: error: name: required field is missing" in err
    assert f"{path}:Actions!E18: error: text: unknown card 'Nothing'" in err
    assert f"{path}:Actions!B19: error: code: 'A B' does not match" in err
    assert "6 problem(s) found" in err
    assert "Traceback" not in err


def test_source_level_errors(tmp_path, run_cli):
    (tmp_path / "c.csv").write_text("Card,code,kind,Notes\nA,A,thing,x\n", encoding="utf-8")
    book, _, _ = _workbook(tmp_path, [["name"]])
    book.save(tmp_path / "book.xlsx")
    (tmp_path / "latin1.csv").write_bytes("name,code,kind\nCaf\xe9,C,thing\n".encode("latin-1"))
    (tmp_path / "empty.csv").write_text("\n\n", encoding="utf-8")
    path = tmp_path / "tiny.toml"
    path.write_text(HEAD + '''
[[card_sources]]
file = "c.csv"
columns = { name = "Title", colour = "Notes" }
[[card_sources]]
file = "missing.xlsx"
[[card_sources]]
file = "book.xlsx"
sheet = "Things"
[[card_sources]]
file = "latin1.csv"
[[card_sources]]
file = "c.csv"
sheet = "A"
[[card_sources]]
file = "../outside.csv"
[[card_sources]]
file = "cards.ods"
[[card_sources]]
file = "empty.csv"
[[card_sources]]
file = "c.csv"
defaults = { colour = "red" }
''', encoding="utf-8")
    result = run_cli("show", path)
    assert result.exit_code == 1
    err = result.stderr
    expected = [
        "card_sources[0].columns.name: no column 'Title' in c.csv; found: Card, code, kind, Notes",
        "card_sources[0].columns.colour: unknown card field 'colour'; allowed: id, name",
        "card_sources[1].file: spreadsheet",
        "card_sources[2].sheet: no sheet 'Things' in book.xlsx; found: Actions",
        "card_sources[3].file: latin1.csv is not UTF-8: byte 0xe9 on line 2",
        "card_sources[4].sheet: a CSV file has no sheets",
        "card_sources[5].file: spreadsheet '../outside.csv' lies outside the folder",
        "card_sources[6].file: unknown spreadsheet type '.ods'; allowed:",
        "card_sources[7].file: empty.csv is empty: no header row",
        "card_sources[8].defaults.colour: unknown card field 'colour'",
    ]
    for line in expected:
        assert line in err, (line, err)
    assert "Traceback" not in err


def test_unknown_columns_are_warnings_that_validate_lists(tmp_path, run_cli):
    (tmp_path / "c.csv").write_text("name,code,kind,Notes\nA,A,thing,reprint later\n", encoding="utf-8")
    deck = deck_with(tmp_path, 'file = "c.csv"')
    assert run_cli("show", deck).exit_code == 0
    result = run_cli("validate", deck, "--simulate", "0")
    assert "c.csv:D1: warning: column 'Notes' is not a card field and is not read" in result.stdout


# --- export cards and the round trip -------------------------------------------------------------

def _without_cards(toml_text: str, source: str) -> str:
    """The deck's TOML with its [[cards]] and [[card_sets]] tables replaced by one card source."""
    out, skipping = [], False
    for line in toml_text.splitlines():
        if line.startswith(("[[cards]]", "[[card_sets]]")):
            skipping = True
            continue
        if skipping and line.startswith("["):
            skipping = False
        if not skipping:
            out.append(line)
    return "\n".join(out) + f"\n[[card_sources]]\n{source}\n"


def _comparable(deck):
    return dataclasses.replace(deck, source=None, inputs=(),
                               cards=tuple(dataclasses.replace(c, text=c.text.strip("\n ")) for c in deck.cards))


@pytest.mark.parametrize("fmt", ["csv", "xlsx"])
@pytest.mark.parametrize("deck_path", DECK_PATHS, ids=lambda p: p.stem)
def test_export_then_import_gives_the_same_deck(tmp_path, run_cli, deck_path, fmt):
    result = run_cli("export", "cards", deck_path, "--format", fmt, "-o", tmp_path / "out")
    assert result.exit_code == 0, result.stderr
    exported = tmp_path / "out" / deck_path.stem / f"{deck_path.stem}-cards.{fmt}"
    assert str(exported) in result.stdout
    folder = tmp_path / "deck"
    folder.mkdir()
    shutil.copy(exported, folder)
    rebuilt = folder / deck_path.name
    rebuilt.write_text(_without_cards(deck_path.read_text(encoding="utf-8"), f'file = "{exported.name}"'),
                       encoding="utf-8")
    assert _comparable(load_deck(rebuilt)) == _comparable(load_deck(deck_path))
    again = run_cli("export", "cards", deck_path, "--format", fmt, "-o", tmp_path / "again")
    assert again.exit_code == 0
    assert (tmp_path / "again" / deck_path.stem / exported.name).read_bytes() == exported.read_bytes()


def test_export_cards_rejects_unknown_format(run_cli, tmp_path):
    result = run_cli("export", "cards", "wizard", "--format", "ods", "-o", tmp_path)
    assert result.exit_code == 1
    assert "--format 'ods': allowed: csv, xlsx" in result.stderr


def test_shipped_example_spreadsheet_builds_quidditch_v2(run_cli):
    example = ROOT / "examples" / "spreadsheet" / "quidditch-v2.toml"
    from_sheet = load_deck(example)
    assert from_sheet.inputs == ((example.parent / "quidditch-v2-cards.xlsx"),)
    assert len(from_sheet.cards) == 39 and from_sheet.total == 56
    assert _comparable(from_sheet) == _comparable(load_deck(DECKS / "quidditch-v2.toml"))
    result = run_cli("validate", example, "--simulate", "0")
    assert result.exit_code == 0, result.stdout + result.stderr
