"""Every PDF deckgen writes embeds every font it refers to: a print shop's preflight rejects any other."""

from __future__ import annotations

import shutil

import pypdf
import pytest

from tests.conftest import DECK_PATHS, DECKS
from tests.pdf_support import font_problems


def test_every_pdf_a_build_writes_embeds_its_fonts(run_cli, tmp_path):
    decks = tmp_path / "decks"
    decks.mkdir()
    shutil.copy(DECKS / "wizard.toml", decks)
    out = tmp_path / "out"
    assert run_cli("build", "--decks-dir", decks, "-o", out, "--jobs", "1").exit_code == 0
    pdfs = sorted(out.rglob("*.pdf"))
    assert {p.name for p in pdfs} >= {"wizard-print-a4.pdf", "wizard-rules.pdf"}
    for pdf in pdfs:
        assert font_problems(pypdf.PdfReader(pdf)) == [], pdf


@pytest.mark.parametrize("args", [
    ["--calibration", "--paper", "letter"], ["--fold"], ["--proof", "--shared-cuts", "--bleed", "0"],
    ["--sides", "backs"], ["--one-per-page"],
])
def test_every_kind_of_print_pdf_embeds_its_fonts(run_cli, tmp_path, args):
    result = run_cli("print", DECKS / "quidditch-v2.toml", "-o", tmp_path, "--json", *args)
    assert result.exit_code == 0, result.stderr
    (pdf,) = (tmp_path / "quidditch-v2").glob("*.pdf")
    assert font_problems(pypdf.PdfReader(pdf)) == [], pdf


@pytest.mark.parametrize("deck_path", DECK_PATHS, ids=[p.stem for p in DECK_PATHS])
def test_every_rulebook_embeds_its_fonts(run_cli, tmp_path, deck_path):
    assert run_cli("rulebook", deck_path, "-o", tmp_path, "--format", "pdf").exit_code == 0
    (pdf,) = tmp_path.rglob("*-rules.pdf")
    problems = font_problems(pypdf.PdfReader(pdf))
    assert problems == [], problems[:3]
