"""Figures of play in rule texts: read, checked by the loader, put to the referee by
`deckgen validate` (and before a rulebook is written), and written out as plain text."""

from __future__ import annotations

import json
import re
import shutil

import pytest

from generator.deck import figures, markup
from generator.core.errors import InvalidDeck
from generator.deck.figures import FigureSyntaxError
from generator.deck.loader import load_deck

from tests.badinput import TINY
from tests.conftest import DECKS

WIZARD_WINNER_RULE = "A Jester never wins any other trick.\n"


def altered(tmp_path, deck: str, old: str, new: str) -> str:
    """A copy of a real deck with one text replacement, which must apply."""
    text = (DECKS / f"{deck}.toml").read_text(encoding="utf-8")
    assert old in text, old
    path = tmp_path / f"{deck}.toml"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return str(path)


def with_figure(tmp_path, deck: str, after: str, figure: str) -> tuple[str, int]:
    """A copy of a deck with a figure paragraph after `after`; returns its path and the figure's line."""
    path = altered(tmp_path, deck, after, f"{after}\n{figure}\n")
    text = open(path, encoding="utf-8").read()
    return path, text[:text.index(figure)].count("\n") + 1


def validate(run_cli, path: str, *options: str):
    result = run_cli("validate", path, "--simulate", "0", "--json", *options)
    return result.exit_code, json.loads(result.stdout)["decks"][0]["problems"]


# -- syntax -------------------------------------------------------------------------------------

def test_a_trick_figure_reads_its_cards_options_and_caption():
    figure = figures.parse('{trick: 7H JE, QS WZ | trump H | winner 4 | players A B C D\n'
                           '  | held 2 9S | caption "The *Wizard* | wins"}')
    assert figure.kind == "trick" and figure.cards == ("7H", "JE", "QS", "WZ")
    assert figure.value("trump") == "H" and figures.winner(figure) == 3
    assert figure.values("players") == ("A", "B", "C", "D") and figure.every("held") == [("2", "9S")]
    assert figure.caption == "The *Wizard* | wins"


@pytest.mark.parametrize("text, complaint", [
    ("{trick: 7H | winner}", "option 'winner' takes a card's position"),
    ("{trick: 7H | winner 0}", "a whole number from 1"),
    ("{trick: 7H | lead Ana}", "trick figures have no option 'lead'; they take trump, shun, winner"),
    ("{trick: 7H | trump H | trump S}", "option 'trump' is given twice"),
    ("{trick: | winner 1}", "a trick figure shows cards"),
    ("{tricks: 7H}", None),  # not a figure at all: left as text
    ("{goal: 7H 5H | scores | blocked}", "scores and blocked contradict each other"),
    ("{manoeuvre: CRACK | dominance 5 2}", "say which manoeuvre"),
    ("{manoeuvre: | score P2}", "add `dominance D1 D2 ...`"),
    ('{hand: 7H | caption "open}', "has no closing"),
    ("{trick: 7H | first 2}", "option 'first' takes no value"),
])
def test_malformed_figures_say_what_is_wrong(text, complaint):
    if complaint is None:
        assert not figures.is_figure(text)
        return
    with pytest.raises(FigureSyntaxError, match=re.escape(complaint)):
        figures.parse(text)


def test_a_figure_is_a_block_of_its_own_and_a_malformed_one_stays_text():
    blocks = markup.parse("Before.\n\n{hand: 7H JE\n  QS | mark 2}\n\nAfter.")
    assert [type(block).__name__ for block in blocks] == ["Paragraph", "Figure", "Paragraph"]
    assert blocks[1].cards == ("7H", "JE", "QS") and figures.marked(blocks[1]) == {1}
    [broken] = markup.parse("{hand: 7H | bogus}")
    assert isinstance(broken, markup.Paragraph)
    found = list(figures.find("One.\n\nSee {trick: 7H} here.\n\n{hand: 7H | bogus}"))
    assert [(f.line, f.figure, bool(f.error)) for f in found] == [(2, None, True), (4, None, True)]


def test_plain_text_writes_a_figure_out():
    deck = load_deck(DECKS / "wizard.toml")
    text = "{trick: 7H JE QS WZ | trump H | winner 4 | caption The *Wizard* takes it.}"
    assert markup.to_plain(text, deck) == ("Trick: 7♥, Jester, Q♠, Wizard; trump ♥; the 4th card wins. "
                                           "The Wizard takes it.")
    goal = load_deck(DECKS / "muggle-quidditch.toml")
    assert markup.to_plain("{goal: 7H 5H | keeper KD | house hearts | rival diamonds | scores}", goal) == \
        "Goal: 7♥ + 5♥; against the Keeper King of Diamonds; scorer's house ♥; defender's house ♦; it scores."


def test_the_referee_quotes_a_rule_with_its_figure_in_words(run_cli):
    result = run_cli("rule", "wizard", "trick", "trump", "diamonds", "KS", "AS", "2D", "JE")
    assert result.exit_code == 0
    assert "Trick: K♠, A♠, 2♦, Jester; trump ♦; the 3rd card wins. The Ace is the best Spade" in result.stdout
    assert "{trick:" not in result.stdout


# -- the loader -----------------------------------------------------------------------------------

@pytest.mark.parametrize("figure, message", [
    ("{trick: 7H ZZ | winner 1}", "unknown card 'ZZ' in the trick figure"),
    ("{trick: 7H 9H | trump X}", "unknown suit 'X' in `trump`; known: S (Spades), H (Hearts)"),
    ("{trick: 7H 9H | winner 3}", "`winner 3`: the figure shows 2 cards"),
    ("{hand: 7H 7H}", "the figure shows 2 × Seven of Hearts, but the deck has 1"),
    ("{trick: 7H 9H | variant nope}", "unknown variant 'nope'"),
    ("{trick: 7H 9H | wnner 2}", "trick figures have no option 'wnner'"),
])
def test_loader_errors_name_the_figures_line_and_field(tmp_path, figure, message):
    path, line = with_figure(tmp_path, "wizard", WIZARD_WINNER_RULE, figure)
    with pytest.raises(InvalidDeck) as caught:
        load_deck(path)
    [problem] = caught.value.problems
    assert message in problem.message
    assert problem.line == line and problem.field == "sections[4].rules[4].text"
    assert str(problem).startswith(f"{path}:{line}: error: sections[4].rules[4].text: ")


def test_a_figure_outside_rule_text_or_inside_a_paragraph_is_an_error(tmp_path):
    path = altered(tmp_path, "wizard", 'flavor = "Four of them, and they never share."',
                   'flavor = "{hand: WZ WZ}"')
    with pytest.raises(InvalidDeck) as caught:
        load_deck(path)
    assert "can stand only in rule text" in caught.value.problems[0].message
    path = altered(tmp_path, "wizard", "A Jester never wins any other trick.",
                   "A Jester never wins {trick: JE 7H | winner 2} any other trick.")
    with pytest.raises(InvalidDeck) as caught:
        load_deck(path)
    assert "must be a paragraph of its own" in caught.value.problems[0].message


# -- the referee ----------------------------------------------------------------------------------

@pytest.mark.parametrize("deck, after, figure, said, rule", [
    ("wizard", WIZARD_WINNER_RULE, "{trick: 7H JE QS WZ | trump H | winner 3}",
     "it says the 3rd card (QS) wins, but by the rules the 4th card (WZ) takes the trick", "wizard.trick.winner"),
    ("wizard", WIZARD_WINNER_RULE, "{trick: 7H 9H 2S | trump S | winner 3 | held 3 KH}",
     "the 3rd card (2S) could not be played from a hand also holding KH", "wizard.play.follow"),
    ("wizard", WIZARD_WINNER_RULE, "{trick: 7H 9H | winner 2}",
     "a trick of 2 cards cannot happen: wizard is played by 3 to 6", ""),
    ("wizard-hearts", "Totals can drop below zero.\n", "{trick: 5M JM QI AM | shun fire | winner 4 | points 14}",
     "it says the trick is worth +14 points, but by the rules it is worth +13", "wh.scoring.hand"),
    ("wizard-hearts", "plays one of those.\n", "{trick: 2L 9S QI | shun fire | first | held 3 4F 8S | winner 1}",
     "the 3rd card (QI) could not be played", "wh.play.first-trick"),
    ("muggle-quidditch", "keeps only the defender's own suit out.\n",
     "{goal: 8D 4H | keeper KS | house hearts | rival diamonds | scores}",
     "it says the goal scores, but by the rules it may not score: the defending Keeper KS keeps out cards of the "
     "defender's house suit (diamonds)", "mq.goal.keeper"),
    ("muggle-quidditch", "keeps only the defender's own suit out.\n",
     "{goal: 7H 5S | keeper KD | house hearts | rival diamonds | variant loose-keeper | blocked}",
     "it says the goal is blocked, but by the rules it scores", "mq.variants.loose-keeper"),
    ("quidditch-v2", "unless it is saved.\n", "{manoeuvre: | score P2 | dominance 5 2 | quaffle P1 | allowed}",
     "it says P1 may score P2, but by the rules P1 may not: not score P2: dominance must be at least 4 above "
     "every opponent's", "qv2.manoeuvre.score"),
    ("quidditch-v2", "unless it is saved.\n", "{manoeuvre: CRACK | score | dominance 5 2 | quaffle P1 | refused}",
     "it says P1 may not score P2, but by the rules P1 may", "qv2.manoeuvre.general"),
])
def test_a_wrong_figure_is_caught_by_validate(run_cli, tmp_path, deck, after, figure, said, rule):
    path, line = with_figure(tmp_path, deck, after, figure)
    load_deck(path)  # the figure is well formed: only the referee can tell it is wrong
    code, found = validate(run_cli, path)
    assert code == 1
    [problem] = [p for p in found if p["message"].startswith("figure {")]
    assert problem["severity"] == "error" and problem["line"] == line, problem
    assert said in problem["message"] and (rule == "" or f"rule {rule}" in problem["message"] or
                                           f", {rule}" in problem["message"]), problem["message"]
    assert "deckgen rule" in problem["hint"] or not rule
    printed = run_cli("validate", path, "--simulate", "0")
    assert printed.exit_code == 1 and f"{path}:{line}: error:" in printed.stdout


def test_the_shipped_decks_figures_all_agree_with_their_engines(run_cli):
    for deck in ("wizard", "wizard-hearts", "muggle-quidditch", "quidditch-v2"):
        assert figures.in_deck(load_deck(DECKS / f"{deck}.toml")), deck
        code, found = validate(run_cli, deck)
        assert [p for p in found if p["message"].startswith("figure")] == [], deck


def test_a_deck_without_an_engine_gets_a_warning_for_each_claim(run_cli, tmp_path):
    path = tmp_path / "tiny.toml"
    path.write_text(TINY + '\n[[sections]]\nid = "play"\ntitle = "Play"\nrole = "play"\ntext = """\n'
                    "Highest wins.\n\n{trick: AH JK | winner 1}\n\n{hand: AH JK}\n\"\"\"\n", encoding="utf-8")
    line = path.read_text(encoding="utf-8").splitlines().index("{trick: AH JK | winner 1}") + 1
    code, found = validate(run_cli, str(path))
    assert code == 0
    assert [(p["severity"], p["line"]) for p in found if p["message"].startswith("figure")] == [("warning", line)]


def test_a_rulebook_is_not_written_with_a_figure_the_engine_contradicts(run_cli, tmp_path):
    path, line = with_figure(tmp_path, "wizard", WIZARD_WINNER_RULE, "{trick: 7H JE QS WZ | trump H | winner 1}")
    out = tmp_path / "out"
    result = run_cli("rulebook", path, "-f", "md", "-o", out)
    assert result.exit_code == 1
    assert f"{path}:{line}: error:" in result.stderr and "takes the trick" in result.stderr
    assert not any(out.rglob("*.md"))


def test_a_translated_figure_is_checked_at_the_overlays_line(run_cli, tmp_path):
    folder = tmp_path / "decks"
    (folder / "translations").mkdir(parents=True)
    shutil.copy(DECKS / "wizard.toml", folder)
    overlay = folder / "translations" / "wizard.de.toml"
    text = (DECKS / "translations" / "wizard.de.toml").read_text(encoding="utf-8")
    wrong = "{trick: KS AS 2D JE | trump D | winner 2"
    assert "{trick: KS AS 2D JE | trump D | winner 3" in text
    overlay.write_text(text.replace("{trick: KS AS 2D JE | trump D | winner 3", wrong), encoding="utf-8")
    line = overlay.read_text(encoding="utf-8")[:overlay.read_text(encoding="utf-8").index(wrong)].count("\n") + 1
    code, found = validate(run_cli, str(folder / "wizard.toml"), "--lang", "de")
    assert code == 1
    [problem] = [p for p in found if p["message"].startswith("figure")]
    assert problem["file"] == str(overlay) and problem["line"] == line
    assert problem["field"] == 'rules."wizard.trick.winner".text'
    assert "it says the 2nd card (AS) wins, but by the rules the 3rd card (2D)" in problem["message"]
    overlay.write_text(text.replace("| held 3 2H |", "| held 3 2H ZZ |"), encoding="utf-8")
    code, found = validate(run_cli, str(folder / "wizard.toml"), "--lang", "de")
    assert code == 1 and any("unknown card 'ZZ'" in p["message"] and p["file"] == str(overlay) for p in found)
