"""Typos in card markup stop `validate` at file:line, a card's text may show its own props, and a
spreadsheet row chooses its card's layout and back."""

from __future__ import annotations

from PIL import Image

from generator.deck.loader import load_deck
from tests.designer.tidepool import make


def _edit(path, old, new):
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")


def test_props_in_card_text_are_filled_and_an_unknown_one_is_an_error(tmp_path, run_cli):
    deck = make(tmp_path / "tidepool")
    _edit(deck, 'text = "Worth {icon:shell}{icon:shell}."', 'text = "Costs {props.cost}: worth {icon:shell}."')
    assert load_deck(deck).find_card("CO").text == "Costs 2: worth {icon:shell}."
    _edit(deck, "{props.cost}", "{props.colour}")
    result = run_cli("validate", deck)
    assert result.exit_code == 1
    line = deck.read_text(encoding="utf-8").splitlines().index('text = "Costs {props.colour}: worth {icon:shell}."') + 1
    assert f"tidepool.toml:{line}: error: cards[0].text: {{props.colour}}: card 'Conch' has no prop 'colour'; " \
           "it has: cost" in result.stdout


def test_a_props_typo_in_a_sheet_names_the_cell(tmp_path, run_cli):
    deck = make(tmp_path / "tidepool")
    _edit(deck.parent / "fish.csv", "Worth {icon:shell}.", "Costs {props.cots}.")
    result = run_cli("validate", deck)
    assert result.exit_code == 1
    assert "fish.csv" in result.stdout and "no prop 'cots'" in result.stdout
    assert "Traceback" not in result.stdout + result.stderr


def test_an_unknown_markup_tag_is_an_error_at_its_line(tmp_path, run_cli):
    deck = make(tmp_path / "tidepool")
    _edit(deck, "Every player discards a {icon:wave} card.", "Every player discards a {crd:CO}.")
    result = run_cli("validate", deck)
    assert result.exit_code == 1
    line = next(n for n, text in enumerate(deck.read_text(encoding="utf-8").splitlines(), 1) if "{crd:CO}" in text)
    assert f"tidepool.toml:{line}: error: cards[1].text: broken markup: {{crd:…}} is not a reference" in result.stdout


def test_a_sheet_row_chooses_its_layout_and_back(tmp_path, run_cli):
    deck = make(tmp_path / "tidepool")
    sheet = deck.parent / "fish.csv"
    rows = sheet.read_text(encoding="utf-8").splitlines()
    rows[0] += ",layout,back_layout"
    rows[1] += ",,"
    rows[2] += ",text,tide-back"  # the Grouper: a text face and the tide kind's back
    sheet.write_text("\n".join(rows) + "\n", encoding="utf-8")
    loaded = load_deck(deck)
    grouper = loaded.find_card("GR")
    assert (grouper.layout, grouper.back_layout) == ("text", "tide-back")
    assert loaded.find_card("SA").layout == ""
    result = run_cli("images", deck, "-o", tmp_path / "out", "--dpi", "60")
    assert result.exit_code == 0, result.stdout + result.stderr
    images = tmp_path / "out" / "tidepool" / "images"
    back = Image.open(images / "backs" / "gr.png").convert("RGB")
    assert back.getpixel((back.width // 2, back.height // 2)) == (0x2e, 0x7d, 0x4f)
    face = Image.open(images / "gr.png").convert("RGB")
    sardine = Image.open(images / "sa.png").convert("RGB")
    edge = (face.width // 20, face.height // 2)  # the text layout's kind-coloured frame; the sardine's art
    assert face.getpixel(edge) != sardine.getpixel(edge)
    assert sardine.getpixel(edge) == (120, 170, 230)


def test_an_unknown_layout_in_a_sheet_names_the_cell(tmp_path, run_cli):
    deck = make(tmp_path / "tidepool")
    sheet = deck.parent / "fish.csv"
    rows = sheet.read_text(encoding="utf-8").splitlines()
    sheet.write_text("\n".join([rows[0] + ",layout", rows[1] + ",pooll", rows[2] + ","]) + "\n", encoding="utf-8")
    result = run_cli("validate", deck)
    assert result.exit_code == 1
    assert "fish.csv" in result.stdout and "pooll" in result.stdout, result.stdout


def test_a_failing_sheet_reports_itself_once_not_as_unknown_cards(tmp_path, run_cli):
    deck = make(tmp_path / "tidepool")
    _edit(deck, "Every player discards a {icon:wave} card.", "Every player discards a {card:SA}.")
    (deck.parent / "fish.csv").unlink()
    missing = run_cli("validate", deck)
    assert missing.exit_code == 1
    assert "spreadsheet 'fish.csv' does not exist" in missing.stdout
    assert "unknown card" not in missing.stdout and "1 error(s)" in missing.stdout
    (deck.parent / "fish.csv").write_text("name,code,count\nSardine,SA,x\n", encoding="utf-8")
    bad_row = run_cli("validate", deck)
    assert "fish.csv:C2: error: count: expected a whole number, found 'x'" in bad_row.stdout
    assert "unknown card" not in bad_row.stdout and "1 error(s)" in bad_row.stdout
