"""Decks in several languages through the command line: the shipped German Wizard overlay
(complete, every key used, a full build), fallback warnings, overlay errors, and rule texts
cited in the chosen language."""

from __future__ import annotations

import json
import shutil
import tomllib
from pathlib import Path

import pytest
from pypdf import PdfReader

from generator.deck.loader import load_deck
from generator.deck.phrases import PHRASES
from generator.validate.translations import checked as translated
from tests.conftest import DECKS, ROOT

OVERLAY = DECKS / "translations" / "wizard.de.toml"


@pytest.fixture
def decks(tmp_path: Path) -> Path:
    """A decks folder holding Wizard and its German overlay only."""
    folder = tmp_path / "decks"
    (folder / "translations").mkdir(parents=True)
    shutil.copy(DECKS / "wizard.toml", folder)
    shutil.copy(OVERLAY, folder / "translations")
    return folder


def test_overlay_translates_every_text_and_every_key_names_something(run_cli):
    data = tomllib.loads(OVERLAY.read_text(encoding="utf-8"))
    deck = load_deck(DECKS / "wizard.toml")
    assert set(data["cards"]) == {c.id for c in deck.cards if not (c.suit and c.rank)}  # set cards: by pattern
    assert set(data["rules"]) == {r.id for r in deck.rules()}
    assert set(data["rulings"]) == {r.id for r in deck.rulings}
    assert set(data["sections"]) == {s.id for s in deck.sections}
    assert set(data["variants"]) == {v.id for v in deck.variants}
    assert set(data["quickref"]) == {q.title for q in deck.quickref}
    assert set(data["kinds"]) == {k.id for k in deck.kinds}
    assert set(data["suits"]) == {s.id for s in deck.suits}
    assert set(data["ranks"]) == {r.id for r in deck.ranks}
    assert set(data["phrases"]) == set(PHRASES)
    result = translated(deck, "de")
    assert result.problems == []  # nothing untranslated, nothing unknown, everything fits
    german = result.deck
    assert german.lang == "de"
    assert german.card("QH").name == "Herz-Dame" and german.card("WZ").type_line == "Zauberer"
    assert german.rule("wizard.trick.winner").title == "Wer den Stich gewinnt"
    # Game facts are the base deck's: same codes, counts, suits, engine parameters.
    assert [(c.code, c.count, c.suit, c.rank) for c in german.cards] == \
        [(c.code, c.count, c.suit, c.rank) for c in deck.cards]
    assert german.params == deck.params and german.suits[0].symbol == deck.suits[0].symbol
    # Every translated text differs from the English one it replaces (none left in English).
    english = {r.id: r.text for r in deck.rules()}
    assert all(r.text != english[r.id] for r in german.rules())
    validate = run_cli("validate", "wizard", "--lang", "de", "--simulate", "0", "--json")
    report = json.loads(validate.stdout)["decks"][0]
    assert validate.exit_code == 0 and report["errors"] == 0 and report["warnings"] == 0, validate.stdout


def test_full_german_build(decks, tmp_path, run_cli):
    out = tmp_path / "out"
    result = run_cli("build", "--decks-dir", decks, "-o", out, "--jobs", "1", "--lang", "de")
    assert result.exit_code == 0, result.stdout + result.stderr
    german = out / "wizard" / "de"
    assert f"wizard [de]: built" in result.stdout and str(german) in result.stdout
    assert not (out / "wizard" / "wizard-print-a4.pdf").exists()  # only the German outputs
    pdf = PdfReader(german / "wizard-print-a4.pdf")
    assert len(pdf.pages) % 2 == 0  # faces and backs pages in turn
    faces = " ".join(page.extract_text() for page in pdf.pages[0::2])
    assert "ZAUBERER" in faces and "NARR" in faces and "Jederzeit spielbar" in faces
    back = pdf.pages[-1].extract_text()
    assert "60 Karten · 3-6 Personen" in back
    rules = (german / "wizard-rules.html").read_text(encoding="utf-8")
    assert "Wer den Stich gewinnt" in rules and "Who wins a trick" not in rules
    assert "Sechzig Karten" in rules and '<html lang="de">' in rules
    # The rulebook's own headings too: nothing of the English chrome is left.
    for german_phrase in ("Inhalt", "Entscheidungen dieser Ausgabe", "Kurzübersicht", "Spielregel · Ausgabe 1.0"):
        assert german_phrase in rules
    for english in ("Contents", "Rulings of this edition", "Quick reference", "Settled by", "Decision"):
        assert f">{english}<" not in rules and f"{english}:" not in rules
    book = PdfReader(german / "wizard-rules.pdf")
    assert "Inhalt" in book.pages[1].extract_text() and "Contents" not in book.pages[1].extract_text()
    assert (german / "images" / "wizard.png").exists() and (german / "images" / "back.png").exists()
    lackey = (german / "lackey" / "wizard" / "sets" / "carddata.txt")
    assert "Zauberer" in lackey.read_text(encoding="cp1252") and "Herz-Dame" in lackey.read_text(encoding="cp1252")
    again = run_cli("build", "--decks-dir", decks, "-o", out, "--jobs", "1", "--lang", "all")
    assert again.exit_code == 0, again.stderr
    assert "wizard: built" in again.stdout and "wizard [de]: built nothing, reused" in again.stdout
    assert (out / "wizard" / "wizard-print-a4.pdf").exists()


def _overlay_with(decks: Path, old: str, new: str) -> Path:
    path = decks / "translations" / "wizard.de.toml"
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


def test_missing_texts_fall_back_with_a_warning_each(decks, tmp_path, run_cli):
    overlay = _overlay_with(decks, '[rules."wizard.setup.deal"]\ntitle = "Geben"\n', '[rules."wizard.setup.deal"]\n')
    _overlay_with(decks, 'flavor = "Es gibt vier, und keiner teilt."\n', "")
    validate = run_cli("validate", decks / "wizard.toml", "--lang", "de", "--simulate", "0")
    assert validate.exit_code == 0, validate.stdout
    assert f"{overlay}:" in validate.stdout
    assert "warning: rules.\"wizard.setup.deal\".title: not translated into 'de'; the base text is used" \
        in validate.stdout
    assert "warning: cards.wizard.flavor: not translated into 'de'" in validate.stdout
    assert "2 warning(s)" in validate.stdout
    printed = run_cli("rulebook", decks / "wizard.toml", "--lang", "de", "-f", "md", "-o", tmp_path / "out")
    assert printed.exit_code == 0
    assert printed.stderr.count("not translated into 'de'") == 2
    markdown = (tmp_path / "out" / "wizard" / "de" / "wizard-rules.md").read_text(encoding="utf-8")
    assert "Dealing" in markdown and "Die Trumpffarbe" in markdown


def test_overlay_errors_name_the_key_and_line(decks, run_cli):
    overlay = _overlay_with(decks, "[cards.jester]", "[cards.jestr]")
    _overlay_with(decks, '[suits.spades]\nname = "Pik"', '[suits.spades]\nname = "Pik"\nsymbol = "P"')
    overlay.write_text(overlay.read_text(encoding="utf-8") + '\n[engine]\nbidding = "hidden"\n', encoding="utf-8")
    _overlay_with(decks, 'text = "Siehe {rule:wizard.variants.hidden-bids}."',
                  'text = "Siehe {rule:wizard.variants.hidden}."')
    result = run_cli("validate", decks / "wizard.toml", "--lang", "de", "--simulate", "0")
    assert result.exit_code == 1
    out = result.stdout
    lines = overlay.read_text(encoding="utf-8").splitlines()
    jester_line = lines.index("[cards.jestr]") + 1
    assert f"{overlay}:{jester_line}: error: cards.jestr: names no card of deck 'wizard'" in out
    symbol_line = lines.index('symbol = "P"') + 1
    assert f"{overlay}:{symbol_line}: error: suits.spades.symbol: not translatable; allowed: name, description" in out
    assert "variants.hidden-bids.text: unknown rule 'wizard.variants.hidden'" in out
    assert f"{overlay}:{len(lines) - 1}: error: engine: unknown table; allowed: translation, deck, back" in out
    # The jester's texts are not translated now: warnings, besides the errors.
    assert "warning: cards.jester.name: not translated" in out
    build = run_cli("print", decks / "wizard.toml", "--lang", "de", "-o", decks.parent / "out")
    assert build.exit_code == 1 and "cards.jestr: names no card" in build.stderr


def test_a_translated_text_that_does_not_fit_fails_that_language_only(decks, tmp_path, run_cli):
    long_text = " ".join(["Jederzeit spielbar, auch wenn du Farbe bedienen könntest."] * 12)
    overlay = _overlay_with(decks, 'text = "Jederzeit spielbar, auch wenn du Farbe bedienen könntest. Der erste '
                                   'Zauberer im Stich gewinnt ihn."', f'text = "{long_text}"')
    out = tmp_path / "out"
    result = run_cli("build", "--decks-dir", decks, "-o", out, "--jobs", "1", "--lang", "all")
    assert result.exit_code == 1
    assert "wizard [de]: FAILED, previous outputs kept" in result.stderr
    assert f"{overlay}: error: card WZ.text: [de] card 'Zauberer' (WZ): text on a 63×88 mm card" in result.stderr
    assert "wizard: built" in result.stdout  # the English deck still builds
    assert not (out / "wizard" / "de").exists()


def test_unknown_language_lists_the_known_ones(run_cli, tmp_path):
    result = run_cli("print", "wizard", "--lang", "fr", "-o", tmp_path)
    assert result.exit_code == 2
    assert "--lang 'fr': deck 'wizard' has no such translation; known: de, all" in result.stderr
    none = run_cli("images", "muggle-quidditch", "--lang", "de", "-o", tmp_path)
    assert none.exit_code == 2 and "known: none" in none.stderr


def test_referee_and_rule_cite_rules_in_the_chosen_language(run_cli):
    log = ROOT / "examples" / "wizard-illegal.toml"
    english = run_cli("referee", "wizard", log)
    german = run_cli("referee", "wizard", log, "--lang", "de")
    assert english.exit_code == german.exit_code == 1
    assert "Rule 5.2 Following suit [wizard.play.follow]" in english.stdout
    assert "Rule 5.2 Farbe bedienen [wizard.play.follow]" in german.stdout
    assert "Hast du eine Karte der ausgespielten Farbe" in german.stdout
    answer = run_cli("rule", "wizard", "--lang", "de", "trick", "trump", "hearts", "7H", "JE", "QS", "WZ")
    assert answer.exit_code == 0
    assert "Wer den Stich gewinnt [wizard.trick.winner]" in answer.stdout and "Zauberer" in answer.stdout
    assert run_cli("rule", "wizard", "--lang", "all", "trick", "7H", "QS").exit_code == 2


def test_export_in_german_goes_to_its_own_folder(run_cli, tmp_path):
    result = run_cli("export", "cards", "wizard", "--lang", "de", "-o", tmp_path)
    assert result.exit_code == 0, result.stderr
    sheet = tmp_path / "wizard" / "de" / "wizard-cards.csv"
    text = sheet.read_text(encoding="utf-8-sig")
    assert "Herz-Dame" in text and "Jederzeit spielbar" in text


def test_an_unreadable_overlay_is_exit_2_with_its_line(decks, tmp_path, run_cli):
    overlay = decks / "translations" / "wizard.de.toml"
    overlay.write_text('[translation]\nlang = "de"\n[deck\n', encoding="utf-8")
    result = run_cli("print", decks / "wizard.toml", "--lang", "de", "-o", tmp_path / "out")
    assert result.exit_code == 2
    assert f"{overlay}:3: error: not valid TOML" in result.stderr and "Traceback" not in result.stderr
    overlay.write_bytes(b"\xff\xfe")
    assert "save the file as UTF-8" in run_cli("print", decks / "wizard.toml", "--lang", "de").stderr


def test_rulebook_phrases_are_checked(decks, run_cli):
    overlay = _overlay_with(decks, '"Contents" = "Inhalt"', '"Content" = "Inhalt"')
    _overlay_with(decks, '"Ruling {number}" = "Entscheidung {number}"', '"Ruling {number}" = "Entscheidung {nummer}"')
    result = run_cli("validate", decks / "wizard.toml", "--lang", "de", "--simulate", "0")
    assert result.exit_code == 1
    lines = overlay.read_text(encoding="utf-8").splitlines()
    content_line = lines.index('"Content" = "Inhalt"') + 1
    assert f"{overlay}:{content_line}: error: phrases.Content: not one of the rulebook's phrases" in result.stdout
    assert "phrases.\"Ruling {number}\": the translation must use the placeholders {...} of the English: number" \
        in result.stdout
    assert "warning: phrases.Contents: not translated into 'de'; the English is used" in result.stdout
