"""Black in CMYK output is black ink only: text, line art and crop marks at 100 % K, read back
from the written PDF's content streams (pikepdf), not from deckgen's own bookkeeping."""

from __future__ import annotations

import pikepdf
import pytest

from tests.conftest import DECKS
from tests.faces.test_render import deck_with_layout

TEXT_SHOWS = {"Tj", "TJ", "'", '"'}


def _inked(pdf_path):
    """(where, "text" or "line", CMYK) for every text shown and every line stroked, on every page and in every form,
    with the colour in force at that moment (q/Q respected)."""
    found = []
    seen = set()
    with pikepdf.open(pdf_path) as document:
        def walk(owner, resources, where, fill, stroke):
            stack = []
            for operands, operator in pikepdf.parse_content_stream(owner):
                op = str(operator)
                if op == "q":
                    stack.append((fill, stroke))
                elif op == "Q" and stack:
                    fill, stroke = stack.pop()
                elif op == "k":
                    fill = tuple(round(float(v), 3) for v in operands)
                elif op == "K":
                    stroke = tuple(round(float(v), 3) for v in operands)
                elif op in TEXT_SHOWS:
                    found.append((where, "text", fill))
                elif op in ("S", "s"):
                    found.append((where, "line", stroke))
                elif op == "Do":
                    xobject = (resources or {}).get("/XObject", {}).get(str(operands[0]))
                    if xobject is not None and xobject.get("/Subtype") == "/Form" and xobject.objgen not in seen:
                        seen.add(xobject.objgen)
                        walk(xobject, xobject.get("/Resources"), f"{where} {operands[0]}", fill, stroke)

        for number, page in enumerate(document.pages, 1):
            walk(page, page.obj.get("/Resources"), f"page {number}", (0, 0, 0, 1), (0, 0, 0, 1))
    return found


@pytest.mark.parametrize("deck", ["wizard", "quidditch-v2"])
def test_black_text_and_crop_marks_are_black_ink_only_in_cmyk_sheets(run_cli, tmp_path, deck):
    result = run_cli("print", DECKS / f"{deck}.toml", "-o", tmp_path, "--color", "cmyk")
    assert result.exit_code == 0, result.stderr
    (pdf,) = (tmp_path / deck).glob("*.pdf")
    inked = _inked(pdf)
    texts = [colour for _where, kind, colour in inked if kind == "text"]
    marks = [colour for where, kind, colour in inked if kind == "line" and where.startswith("page") and " /" not in where]
    assert texts and marks
    dark = [colour for colour in texts if colour[3] >= 0.5]
    assert dark, texts
    for colour in dark:  # a dark text colour built from four inks is the fault this guards against
        if max(colour[:3]) > 0:
            assert max(colour[:3]) - min(colour[:3]) > 0.15, f"rich black text {colour}"
    assert any(max(colour[:3]) > 0.3 for colour in texts)  # coloured text (red suits, gold titles) keeps its inks
    assert any(colour[:3] == (0, 0, 0) for colour in dark)  # the deck's near-black (#1a1a1a) text: K only
    # crop marks: 100 % K; the white edge under a gutter mark is no ink at all
    assert (0, 0, 0, 1) in marks and set(marks) <= {(0, 0, 0, 1), (0, 0, 0, 0)}, set(marks)


def test_a_neutral_grey_text_is_black_ink_only(run_cli, tmp_path):
    path = deck_with_layout(tmp_path, "grey", 'name = "name"\ncolor = "#808080"', cards=1)
    result = run_cli("print", path, "-o", tmp_path / "out", "--one-per-page", "--color", "cmyk")
    assert result.exit_code == 0, result.stderr
    (pdf,) = (tmp_path / "out" / "tiny").glob("*.pdf")
    texts = {colour for _where, kind, colour in _inked(pdf) if kind == "text"}
    assert (0, 0, 0, round(1 - 128 / 255, 3)) in texts, texts
