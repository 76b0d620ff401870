"""`deckgen build --paper all` writes the print sheets on A4 and Letter; the papers are part of
what makes a build up to date, and a build back on A4 alone leaves no Letter sheets behind."""

from __future__ import annotations

import json

import pypdfium2 as pdfium

from tests.designer.tidepool import make


def _sizes(path) -> set[tuple[int, int]]:
    document = pdfium.PdfDocument(path)
    return {tuple(sorted(round(v) for v in document[i].get_size())) for i in range(len(document))}


def test_build_paper_all_writes_a4_and_letter(tmp_path, run_cli):
    decks = tmp_path / "decks"
    make(decks)
    out = tmp_path / "out"
    result = run_cli("build", "--decks-dir", decks, "-o", out, "--paper", "all", "--json", "-j", "1")
    assert result.exit_code == 0, result.stdout + result.stderr
    folder = out / "tidepool"
    assert _sizes(folder / "tidepool-print-a4.pdf") == {(595, 842)}
    assert _sizes(folder / "tidepool-print-letter.pdf") == {(612, 792)}
    again = json.loads(run_cli("build", "--decks-dir", decks, "-o", out, "--paper", "all", "--json").stdout)
    assert again[0]["built"] == [] and "print" in again[0]["reused"]
    a4_only = json.loads(run_cli("build", "--decks-dir", decks, "-o", out, "--json", "-j", "1").stdout)
    assert "print" in a4_only[0]["built"]
    assert (folder / "tidepool-print-a4.pdf").is_file() and not (folder / "tidepool-print-letter.pdf").exists()


def test_build_refuses_an_unknown_paper(tmp_path, run_cli):
    result = run_cli("build", "--decks-dir", tmp_path, "--paper", "a3")
    assert result.exit_code == 2 and "--paper 'a3'" in result.stdout + result.stderr
    assert "Traceback" not in result.stdout + result.stderr


def test_print_paper_all_writes_both_sheets(tmp_path, run_cli):
    deck = make(tmp_path / "tidepool")
    result = run_cli("print", deck, "--paper", "all", "--ink-saver", "-o", tmp_path / "out")
    assert result.exit_code == 0, result.stdout + result.stderr
    folder = tmp_path / "out" / "tidepool"
    assert _sizes(folder / "tidepool-print-a4-ink-saver.pdf") == {(595, 842)}
    assert _sizes(folder / "tidepool-print-letter-ink-saver.pdf") == {(612, 792)}
    assert result.stdout.count("print at actual size") == 2
