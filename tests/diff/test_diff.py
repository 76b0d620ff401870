"""`deckgen diff`: every kind of change, renames, exit codes, git revisions, the reprint pack
(read back from the PDF) and the HTML report in a real Chromium."""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path

from pypdf import PdfReader

from tests.browser import external_requests
from tests.conftest import DECKS

QV2 = DECKS / "quidditch-v2.toml"


def changed_deck(tmp_path: Path, edits: list[tuple[str, str]], name: str = "quidditch-v2.toml",
                 base: Path = QV2) -> Path:
    text = base.read_text(encoding="utf-8")
    for old, new in edits:
        assert old in text, old
        text = text.replace(old, new, 1)
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


EDITS = [
    ('text = "Gain 3 dominance."', 'text = "Gain 4 dominance."'),                   # card text: printed
    ('id = "sweeping-play"\nname = "Sweeping Play"', 'id = "sweeping-pass"\nname = "Sweeping Pass"'),  # rename
    ('corner = "+4/2/1"', 'corner = "+5/2/1"'),                                    # corner: printed
    ("props = { dominance = 3 }", "props = { dominance = 4 }"),                     # engine fact: not printed
    ('id = "lightning-passing"\nname = "Lightning Passing"\ncode = "LPASS"\nkind = "thing"\n'
     'type_line = "Thing"\ncount = 2', 'id = "lightning-passing"\nname = "Lightning Passing"\ncode = "LPASS"\n'
     'kind = "thing"\ntype_line = "Thing"\ncount = 3'),                           # count up: one more copy
    ('id = "quaffle"\nname = "Quaffle"\ncode = "QUAFFLE"', 'id = "quaffle"\nname = "Quaffle"\ncode = "QUAFFLE"\n'
     'ruling = "qv2.ruling.players"'),                                              # unprinted field
    ('question = "The source says 2+ players. What is the most the referee supports?"\ndecision = "2 to 6 players."',
     'question = "The source says 2+ players. What is the most the referee supports?"\n'
     'decision = "2 to 5 players."'),                                               # ruling decision
    ('id = "qv2.components.deck"\ntitle = "The deck"', 'id = "qv2.components.deck"\ntitle = "The cards"'),
    ("hand_size = 5", "hand_size = 6"),                                             # engine parameter
    ('params = { snitch_start = "draw" }', 'params = { snitch_start = "hand" }'),   # variant params
    ('[[quickref]]\ntitle = "Your turn"', '[[quickref]]\ntitle = "On your turn"'),  # quick reference
    ('version = "2.0"', 'version = "2.1"'),
]


def _new_card(tmp_path: Path) -> Path:
    path = changed_deck(tmp_path, EDITS)
    text = path.read_text(encoding="utf-8")
    # Remove Weaving, add a new card.
    text, removed = re.subn(r'\[\[cards\]\]\nid = "weaving".*?(?=\n\[\[)', "", text, count=1, flags=re.S)
    assert removed == 1
    text = text.replace("[engine]", '[[cards]]\nid = "hawkshead"\nname = "Hawkshead Attack"\ncode = "HAWK"\n'
                                    'kind = "action"\ncount = 2\ntext = "Gain 2 dominance."\n\n[engine]', 1)
    path.write_text(text, encoding="utf-8")
    return path


def test_every_kind_of_change_in_text_and_json(tmp_path, run_cli):
    new = _new_card(tmp_path)
    result = run_cli("diff", QV2, new)
    assert result.exit_code == 1, result.stderr
    out = result.stdout
    assert "cards: 1 added, 1 removed, 1 renamed, 3 changed; reprint 7 card(s) of 4 design(s)" in out
    assert "+ hawkshead 'Hawkshead Attack' [HAWK] x2" in out
    assert "- weaving 'Weaving'" in out
    assert "> sweeping-pass 'Sweeping Pass' [SWEEP] x1 (renamed from sweeping-play) (printed face changed)" in out
    assert "name: 'Sweeping Play' -> 'Sweeping Pass'" in out
    assert "text: 'Gain 3 dominance.' -> 'Gain 4 dominance.'" in out
    assert "corner: '+4/2/1' -> '+5/2/1'" in out
    assert "count: 2 -> 3" in out
    assert "~ hand_size: 5 -> 6" in out
    assert "decision: '2 to 6 players.' -> '2 to 5 players.'" in out
    assert "title: 'The deck' -> 'The cards'" in out
    assert "params: {'snitch_start': 'draw'} -> {'snitch_start': 'hand'}" in out
    assert "+ On your turn" in out and "- Your turn" in out
    assert "version: '2.0' -> '2.1'" in out

    data = json.loads(run_cli("diff", QV2, new, "--json").stdout)
    assert data["changed"] is True and data["back_changed"] is False
    cards = {c["id"]: c for c in data["changes"] if c["section"] == "cards"}
    assert cards["sweeping-pass"]["action"] == "renamed" and cards["sweeping-pass"]["old_id"] == "sweeping-play"
    assert cards["sweeping-pass"]["printed"] is True
    assert cards["sweeping-pass"]["fields"]["props"] == {"old": {"dominance": 3}, "new": {"dominance": 4}}
    assert cards["quaffle"]["printed"] is False
    assert cards["lightning-passing"]["printed"] is False
    assert cards["weaving"]["action"] == "removed"
    sections = {(c["section"], c["id"]) for c in data["changes"]}
    assert {("rulings", "qv2.ruling.players"), ("rules", "qv2.components.deck"), ("engine", "hand_size"),
            ("variants", "early-snitch"), ("deck", "quidditch-v2")} <= sections
    # Trick Play changed its corner (3 copies), Sweeping Play its name and text (1),
    # Lightning Passing went from 2 to 3 copies (1 more), Hawkshead is new (2).
    assert {r["code"]: r["copies"] for r in data["reprint"]} == {"SWEEP": 1, "TRICK": 3, "LPASS": 1, "HAWK": 2}


def test_same_deck_exits_0_and_bad_options_exit_2(run_cli):
    same = run_cli("diff", QV2, "quidditch-v2")
    assert same.exit_code == 0 and "no differences" in same.stdout
    assert json.loads(run_cli("diff", QV2, QV2, "--json").stdout)["changes"] == []
    both = run_cli("diff", QV2, QV2, "--rev", "HEAD")
    assert both.exit_code == 2 and "give two decks" in both.stderr
    assert run_cli("diff", QV2).exit_code == 2


def test_a_deck_that_does_not_load_exits_2_listing_its_problems(tmp_path, run_cli):
    broken = changed_deck(tmp_path, [('kind = "action"', 'kind = "acton"')])
    result = run_cli("diff", QV2, broken)
    assert result.exit_code == 2
    assert "unknown kind 'acton'" in result.stderr and "Traceback" not in result.stderr


def test_a_changed_back_reprints_every_card(tmp_path, run_cli):
    new = changed_deck(tmp_path, [('color = "#7a1f1f"', 'color = "#1f7a1f"')])
    data = json.loads(run_cli("diff", QV2, new, "--json").stdout)
    assert data["back_changed"] is True
    assert sum(r["copies"] for r in data["reprint"]) == 56


def test_a_kind_colour_changes_the_faces_of_its_cards(tmp_path, run_cli):
    new = changed_deck(tmp_path, [('color = "#8a2f2f"', 'color = "#2f8a2f"')])  # the Action kind
    data = json.loads(run_cli("diff", QV2, new, "--json").stdout)
    printed = {c["id"] for c in data["changes"] if c.get("printed")}
    assert "sweeping-play" in printed and "quaffle" not in printed


def _git(folder: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(folder), *args], check=True, capture_output=True,
                   env={"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t",
                        "GIT_COMMITTER_EMAIL": "t@t", "HOME": str(folder), "PATH": os.environ.get("PATH", "")})


def test_diff_against_a_git_revision_reads_the_old_spreadsheet_too(tmp_path, run_cli):
    repo = tmp_path / "repo"
    (repo / "decks").mkdir(parents=True)
    _git(repo, "init", "-q")
    deck = changed_deck(repo / "decks", [], "qv2.toml")
    (repo / "decks" / "notes.csv").write_text("name,code,kind\nNote,NOTE,thing\n", encoding="utf-8")
    deck.write_text(deck.read_text(encoding="utf-8").replace("[engine]", '[[card_sources]]\nfile = "notes.csv"\n\n'
                                                             "[engine]", 1), encoding="utf-8")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-qm", "first")
    assert run_cli("diff", deck, "--rev", "HEAD").exit_code == 0
    (repo / "decks" / "notes.csv").write_text("name,code,kind\nNotes,NOTE,thing\n", encoding="utf-8")
    result = run_cli("diff", deck, "--rev", "HEAD")
    assert result.exit_code == 1, result.stderr
    assert f"{deck}@HEAD" in result.stdout
    assert "name: 'Note' -> 'Notes'" in result.stdout
    unknown = run_cli("diff", deck, "--rev", "no-such-rev")
    assert unknown.exit_code == 2 and "unknown revision 'no-such-rev'" in unknown.stderr
    _git(repo, "mv", "decks/qv2.toml", "decks/moved.toml")
    missing = run_cli("diff", repo / "decks" / "moved.toml", "--rev", "HEAD")
    assert missing.exit_code == 2 and "decks/moved.toml is not in git revision 'HEAD'" in missing.stderr


def test_reprint_pack_holds_only_changed_cards_with_their_counts(tmp_path, run_cli):
    new = _new_card(tmp_path)
    out = tmp_path / "out"
    result = run_cli("diff", QV2, new, "--reprint", "-o", out)
    assert result.exit_code == 1, result.stderr
    pdf = out / "quidditch-v2" / "reprint" / "quidditch-v2-print-a4.pdf"
    assert f"wrote {pdf}" in result.stdout
    reader = PdfReader(pdf)
    assert len(reader.pages) == 2  # 7 cards: one sheet of faces, one of backs
    faces = reader.pages[0].extract_text()
    # Each face's footer names the deck and the card's code.
    codes = re.findall(r"Quidditch v2 · ([A-Z0-9]+)", faces)
    assert sorted(codes) == sorted(["SWEEP", "TRICK", "TRICK", "TRICK", "LPASS", "HAWK", "HAWK"])
    (tmp_path / "rules-only").mkdir()
    rules_only = changed_deck(tmp_path / "rules-only", [("hand_size = 5", "hand_size = 6")])
    nothing = run_cli("diff", QV2, rules_only, "--reprint", "-o", tmp_path / "none")
    assert nothing.exit_code == 1 and "nothing to print" in nothing.stderr
    assert not (tmp_path / "none" / "quidditch-v2" / "reprint").exists()


def test_html_report_offline_in_chromium(tmp_path, run_cli, page):
    new = _new_card(tmp_path)
    out = tmp_path / "out"
    result = run_cli("diff", QV2, new, "--html", "-o", out)
    assert result.exit_code == 1, result.stderr
    report = out / "quidditch-v2" / "diff.html"
    page.route(re.compile(r"^(?!file:|data:).*"), lambda route: route.abort())
    page.goto(report.as_uri())
    sections = page.locator("section.card")
    ids = sections.evaluate_all("nodes => nodes.map(n => n.dataset.id)")
    assert sorted(ids) == sorted(["sweeping-pass", "trick-play", "weaving", "hawkshead"])
    loaded = page.evaluate("[...document.images].every(i => i.complete && i.naturalWidth > 100)")
    assert loaded
    sweep = page.locator('section[data-id="trick-play"]')
    assert sweep.locator("img").count() == 2
    # The corner changed ("+4/2/1" to "+5/2/1"): a highlighted region on each picture, at the
    # top and far smaller than the card.
    regions = sweep.locator(".new .region")
    assert regions.count() >= 1
    box = regions.first.bounding_box()
    card = sweep.locator(".new img").bounding_box()
    assert box["width"] * box["height"] < card["width"] * card["height"] / 20
    assert box["y"] < card["y"] + card["height"] / 4 and box["x"] > card["x"] + card["width"] / 2
    assert page.locator('section[data-id="hawkshead"] .old.missing').count() == 1
    assert page.locator('section[data-id="weaving"] .new.missing').count() == 1
    assert "hand_size" in page.locator("table.others").inner_text()
    assert external_requests(page.deckgen_requests) == []
    page.set_viewport_size({"width": 390, "height": 844})
    old_img, new_img = sweep.locator(".old img").bounding_box(), sweep.locator(".new img").bounding_box()
    assert abs(old_img["y"] - new_img["y"]) < 1 and new_img["x"] + new_img["width"] <= 390  # still side by side
