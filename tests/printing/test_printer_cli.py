"""`deckgen printer save/list` and `deckgen print --printer`: a calibration remembered and applied."""

from __future__ import annotations

import json
import tomllib

import pypdf
import pytest

from tests.conftest import DECKS
from tests.pdf_support import page_content
from generator.deck.loader import load_deck
from generator.printing.printers import config_path
from generator.printing.sheets import SheetOptions

WIZARD = DECKS / "wizard.toml"


def test_save_writes_the_config_under_xdg_config_home(run_cli, config_home):
    result = run_cli("printer", "save", "office", "--back-offset", "1.5,-0.5", "--printer-margin", "5")
    assert result.exit_code == 0, result.stderr
    path = config_home / "deckgen" / "printers.toml"
    assert config_path() == path and str(path) in result.stdout
    saved = tomllib.loads(path.read_text())
    assert saved["printers"]["office"] == {"back_offset": [1.5, -0.5], "printer_margin": 5.0}
    # Saving again changes only what is given.
    assert run_cli("printer", "save", "office", "--paper", "letter").exit_code == 0
    saved = tomllib.loads(path.read_text())
    assert saved["printers"]["office"] == {"back_offset": [1.5, -0.5], "printer_margin": 5.0, "paper": "letter"}
    listed = run_cli("printer", "list", "--json")
    assert json.loads(listed.stdout)["office"]["back_offset"] == [1.5, -0.5]


def test_print_with_a_remembered_printer_is_print_with_its_settings(run_cli, tmp_path):
    assert run_cli("printer", "save", "office", "--back-offset", "1.5,-0.5", "--paper", "letter").exit_code == 0
    remembered = run_cli("print", WIZARD, "-o", tmp_path / "a", "--printer", "office", "--json")
    assert remembered.exit_code == 0, remembered.stderr
    explicit = run_cli("print", WIZARD, "-o", tmp_path / "b", "--paper", "letter", "--back-offset", "1.5,-0.5",
                       "--json")
    first, second = json.loads(remembered.stdout)["file"], json.loads(explicit.stdout)["file"]
    assert first.endswith("wizard-print-letter.pdf")
    with open(first, "rb") as a, open(second, "rb") as b:
        assert a.read() == b.read()
    # The backs really moved: compare with no offset.
    deck = load_deck(WIZARD)
    options = SheetOptions(paper="letter")
    layout = options.layout(deck)
    shift = layout.back_shift("long-edge", (1.5, -0.5))
    plain = run_cli("print", WIZARD, "-o", tmp_path / "c", "--paper", "letter", "--json")
    moved = page_content(pypdf.PdfReader(first), 1).forms
    still = page_content(pypdf.PdfReader(json.loads(plain.stdout)["file"]), 1).forms
    for a, b in zip(moved, still):
        assert a.origin == pytest.approx((b.origin[0] + shift[0], b.origin[1] + shift[1]), abs=1e-3)
    # An option on the command line wins over the remembered one.
    override = run_cli("print", WIZARD, "-o", tmp_path / "d", "--printer", "office", "--paper", "a4", "--json")
    assert json.loads(override.stdout)["file"].endswith("wizard-print-a4.pdf")


@pytest.mark.parametrize("args, needle", [
    (["save", "bad name!", "--back-offset", "1,1"], "printer name 'bad name!'"),
    (["save", "office", "--back-offset", "x,1"], "--back-offset 'x,1'"),
    (["save", "office", "--paper", "b5"], "--paper 'b5'"),
    (["save", "office", "--duplex", "sideways"], "--duplex 'sideways'"),
])
def test_bad_printer_settings_are_refused_and_nothing_is_saved(run_cli, config_home, args, needle):
    result = run_cli("printer", *args)
    assert result.exit_code == 2 and needle in result.stderr, result.stderr
    assert "Traceback" not in result.stderr
    assert not (config_home / "deckgen" / "printers.toml").exists()


def test_a_broken_config_file_is_named_in_the_error(run_cli, config_home, tmp_path):
    path = config_home / "deckgen" / "printers.toml"
    path.parent.mkdir(parents=True)
    path.write_text("[printers.office]\nback_offset = 'left'\n")
    result = run_cli("print", WIZARD, "-o", tmp_path, "--printer", "office")
    assert result.exit_code == 2 and str(path) in result.stderr and "back_offset" in result.stderr
    assert not (tmp_path / "wizard").exists()


def test_list_with_nothing_saved_says_how_to_save(run_cli):
    result = run_cli("printer", "list")
    assert result.exit_code == 0 and "deckgen printer save" in result.stdout
