"""The rulebook for printing: A4 or Letter pages, and an A5 booklet imposed on A4 for saddle-stitching."""

from __future__ import annotations

import pypdf
import pypdfium2
import pytest

from tests.conftest import DECKS
from tests.pdf_support import font_problems
from generator.rulebook.booklet import booklet_order

WIZARD = DECKS / "wizard.toml"


@pytest.mark.parametrize("paper, name, size", [("a4", "wizard-rules.pdf", (595.28, 841.89)),
                                               ("letter", "wizard-rules-letter.pdf", (612, 792))])
def test_rulebook_on_a4_and_letter(run_cli, tmp_path, paper, name, size):
    result = run_cli("rulebook", WIZARD, "-o", tmp_path, "-f", "pdf", "--paper", paper)
    assert result.exit_code == 0, result.stderr
    reader = pypdf.PdfReader(tmp_path / "wizard" / name)
    for page in reader.pages:
        assert [float(v) for v in page.mediabox[2:]] == pytest.approx(size, abs=0.01)
    assert font_problems(reader) == []
    assert "Quick reference" in reader.pages[-1].extract_text()


def test_booklet_order_folds_into_reading_order():
    assert booklet_order(8) == [(8, 1), (2, 7), (6, 3), (4, 5)]
    assert booklet_order(6) == [(8, 1), (2, 7), (6, 3), (4, 5)]  # padded with blanks 7 and 8
    # Folded, the stack's sides read 1..n: every page appears exactly once.
    assert sorted(n for side in booklet_order(18) for n in side) == list(range(1, 21))


def test_booklet_puts_a5_pages_two_to_an_a4_side_in_booklet_order(run_cli, tmp_path):
    result = run_cli("rulebook", WIZARD, "-o", tmp_path, "-f", "pdf", "--booklet")
    assert result.exit_code == 0, result.stderr
    path = tmp_path / "wizard" / "wizard-rules-booklet.pdf"
    reader = pypdf.PdfReader(path)
    assert font_problems(reader) == []
    assert reader.trailer["/Root"]["/ViewerPreferences"]["/Duplex"] == "/DuplexFlipShortEdge"
    for page in reader.pages:
        assert [float(v) for v in page.mediabox[2:]] == pytest.approx((841.89, 595.28), abs=0.01)
    # Read each half's folio (page number, printed at its foot) and compare with the order.
    pdf = pypdfium2.PdfDocument(path)
    half = 841.89 / 2
    folios = []
    for page in pdf:
        text = page.get_textpage()
        found = []
        for left in (0.0, half):
            words = text.get_text_bounded(left, 0, left + half, 40).split()
            found.append(int(words[-1]) if words and words[-1].isdigit() else None)
        folios.append(tuple(found))
    pdf.close()
    numbers = [n for side in folios for n in side if n is not None]
    a5_pages = max(numbers)  # the last page, the quick reference, carries the highest folio
    assert a5_pages > 8
    sides = booklet_order(a5_pages)
    assert len(folios) == len(sides)
    for (left, right), (found_left, found_right) in zip(sides, folios):
        for expected, found in ((left, found_left), (right, found_right)):
            if expected == 1 or expected > a5_pages:
                continue  # the cover and blanks carry no folio
            assert found == expected
    refused = run_cli("rulebook", WIZARD, "-o", tmp_path / "x", "--booklet", "--paper", "letter")
    assert refused.exit_code == 2 and "--booklet" in refused.stderr
    bad = run_cli("rulebook", WIZARD, "-o", tmp_path / "x", "--paper", "b5")
    assert bad.exit_code == 2 and "--paper 'b5'" in bad.stderr
