"""Cutting guides read back from `deckgen print`'s PDF: on grids of more than two columns or rows,
marks along every cut line through the gutters, so the middle cards keep theirs after the outer
strips are cut."""

from __future__ import annotations

import pypdf
import pytest

from tests.conftest import DECKS
from tests.pdf_support import page_content
from generator.deck.sizes import pt
from generator.printing.layout import MARK_OFFSET_MM, MIN_MARK_MM, sheet_layout

TOLERANCE = 0.01


def test_every_cut_line_has_marks_between_every_pair_of_neighbours(run_cli, tmp_path):
    result = run_cli("print", str(DECKS / "wizard.toml"), "-o", str(tmp_path), "--card-size", "mini")
    assert result.exit_code == 0, result.output
    layout = sheet_layout("a4", (44, 63), 3.0)
    assert layout.columns * layout.rows > 4 and max(layout.columns, layout.rows) > 2
    reader = pypdf.PdfReader(next(tmp_path.rglob("wizard-print-a4-mini.pdf")))
    lines = page_content(reader, 0).lines
    offset = pt(MARK_OFFSET_MM)
    for index, slot in enumerate(layout.slots):
        row, column = divmod(index, layout.columns)
        if row < layout.rows - 1:  # the gutter below: a mark on each of this card's side cuts
            below = layout.slots[index + layout.columns]
            for x in (slot.x, slot.right):
                assert any(abs(x0 - x) < TOLERANCE and abs(x1 - x) < TOLERANCE
                           and min(y0, y1) == pytest.approx(below.top + offset, abs=TOLERANCE)
                           and max(y0, y1) == pytest.approx(slot.y - offset, abs=TOLERANCE)
                           for x0, y0, x1, y1 in lines), (index, x)
        if column < layout.columns - 1:  # the gutter to the right: a mark on its top and bottom cuts
            for y in (slot.y, slot.top):
                assert any(abs(y0 - y) < TOLERANCE and abs(y1 - y) < TOLERANCE
                           and min(x0, x1) == pytest.approx(slot.right + offset, abs=TOLERANCE)
                           for x0, y0, x1, y1 in lines), (index, y)
    # Each gutter mark stays off every card's trim and is long enough to line a ruler up with.
    gutter = layout.gutter_marks()
    assert gutter and all(abs(x1 - x0) + abs(y1 - y0) >= pt(MIN_MARK_MM) - TOLERANCE for x0, y0, x1, y1 in gutter)
    for x0, y0, x1, y1 in gutter:
        for slot in layout.slots:
            inside = (slot.x + TOLERANCE < max(x0, x1) and min(x0, x1) < slot.right - TOLERANCE
                      and slot.y + TOLERANCE < max(y0, y1) and min(y0, y1) < slot.top - TOLERANCE)
            assert not inside


def test_no_gutter_marks_where_there_is_no_gutter_or_no_middle_card():
    assert sheet_layout("a4", (63, 88), 0.0, 0.0).gutter_marks() == ()  # shared cuts: no gutter
    two_by_two = sheet_layout("a4", (63, 88), 3.0, orientation="portrait")
    assert (two_by_two.columns, two_by_two.rows) == (2, 2) and two_by_two.gutter_marks() == ()
    assert sheet_layout("a4", (63, 88), 3.0).gutter_marks()  # 4 × 2: the middle columns need them
