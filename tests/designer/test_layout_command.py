"""`deckgen layout show NAME` prints a layout with each element's resolved box on a real card."""

from __future__ import annotations

import re

from tests.designer.tidepool import make


def test_show_gives_each_elements_box_in_mm(tmp_path, run_cli):
    deck = make(tmp_path / "tidepool")
    result = run_cli("layout", "show", "pool", "--deck", deck)
    assert result.exit_code == 0, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("layout 'pool': the deck's face layout, 3 elements, on card 'Conch' (CO), 63×88 mm")
    rows = {line.split()[0]: line.split()[1:6] for line in lines[2:]}
    assert rows["art"] == ["image", "-3.0", "-3.0", "69.0", "94.0"]  # frame = "bleed"
    assert rows["name"] == ["text", "5.0", "5.0", "53.0", "10.0"]  # x, y = 5mm; width 100% - 10mm
    assert rows["text"] == ["text", "5.0", "69.0", "53.0", "14.0"]  # anchored bottom-left 5mm above the foot


def test_show_a_built_in_layout_on_a_chosen_card(tmp_path, run_cli):
    deck = make(tmp_path / "tidepool")
    result = run_cli("layout", "show", "text", "--deck", deck, "--card", "HT")
    assert result.exit_code == 0, result.stdout
    assert "built-in face layout" in result.stdout and "'High Tide' (HT)" in result.stdout
    assert re.search(r"name_by_corner\s+text\s+not drawn on this card", result.stdout)
    listing = run_cli("layout", "list", deck)
    assert re.search(r"^tide-back\s+back\s+deck\s+ground$", listing.stdout, re.M)


def test_an_unknown_layout_lists_the_known_ones(tmp_path, run_cli):
    deck = make(tmp_path / "tidepool")
    result = run_cli("layout", "show", "pooll", "--deck", deck)
    assert result.exit_code != 0
    said = result.stdout + result.stderr
    assert "no layout 'pooll'; known: back, fish-back" in said and "Traceback" not in said
