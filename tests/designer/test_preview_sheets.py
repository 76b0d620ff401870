"""A spreadsheet save in the live preview redraws only the rows that changed."""

from __future__ import annotations

from generator.preview.session import PreviewSession
from tests.designer.tidepool import make


def test_a_one_cell_sheet_edit_redraws_that_card_alone(tmp_path):
    deck = make(tmp_path / "tidepool")
    session = PreviewSession(deck, tmp_path / "out", dpi=30)
    first = session.reload(check=False)
    assert first["type"] == "cards"
    before = {card["key"]: card["hash"] for card in first["cards"]}
    sheet = deck.parent / "fish.csv"
    sheet.write_text(sheet.read_text(encoding="utf-8").replace("Sardine,SA,3,Worth", "Sardine,SA,3,Still worth"),
                     encoding="utf-8")
    update = session.reload(check=False)
    assert update["type"] == "cards", update
    assert update["changed"] == ["face:sa"]
    after = {card["key"]: card["hash"] for card in update["cards"]}
    assert [key for key in after if after[key] != before[key]] == ["face:sa"]
    assert session.image(after["face:sa"], 30)  # the new picture is drawn


def test_a_layout_file_edit_still_redraws_every_card_using_it(tmp_path):
    deck = make(tmp_path / "tidepool")
    session = PreviewSession(deck, tmp_path / "out", dpi=30)
    before = {card["key"]: card["hash"] for card in session.reload(check=False)["cards"]}
    layouts = deck.parent / "layouts" / "tide.toml"
    layouts.write_text(layouts.read_text(encoding="utf-8").replace('size = [14, 8]', 'size = [13, 8]'),
                       encoding="utf-8")
    after = {card["key"]: card["hash"] for card in session.reload(check=False)["cards"]}
    assert {"face:co", "face:sa", "face:gr"} <= {k for k in after if after[k] != before[k]}
