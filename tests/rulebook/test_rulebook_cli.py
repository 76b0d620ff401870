"""`deckgen rulebook` and `deckgen build`: formats, designers' templates (sandboxed),
escaping of deck text, and `deckgen validate` on bad references in rules."""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

import pytest

from generator.build.run import STEPS, build_deck
from generator.core.typography import smarten

from tests.conftest import DECKS

WIZARD = DECKS / "wizard.toml"


def _deck_copy(tmp_path: Path, replace: list[tuple[str, str]]) -> Path:
    """The Wizard deck with some of its text replaced, saved in its own folder."""
    text = WIZARD.read_text(encoding="utf-8")
    for old, new in replace:
        assert old in text, old
        text = text.replace(old, new, 1)
    folder = tmp_path / "decks"
    folder.mkdir(exist_ok=True)
    path = folder / "wizard.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_one_format_writes_only_that_file(run_cli, tmp_path):
    result = run_cli("rulebook", "wizard", "--format", "md", "--output", tmp_path)
    assert result.exit_code == 0, result.stderr
    folder = tmp_path / "wizard"
    assert (folder / "wizard-rules.md").is_file()
    assert not (folder / "wizard-rules.pdf").exists() and not (folder / "wizard-rules.html").exists()
    assert f"wrote {folder / 'wizard-rules.md'}" in result.stdout
    assert sorted(p.name for p in (folder / "images" / "rulebook").iterdir())


def test_deck_text_cannot_inject_markup(run_cli, tmp_path):
    deck = _deck_copy(tmp_path, [
        ('title = "Who wins a trick"', 'title = "Who wins <script>alert(1)</script>"'),
        ("A Jester never wins any other trick.",
         "A Jester never wins any other trick. <script>alert('x')</script> | *not* _this_ [link](http://x)"),
        ('flavor = "Four of them, and they never share."', 'flavor = "<img src=x onerror=alert(2)> # not a heading"'),
    ])
    result = run_cli("rulebook", deck, "--output", tmp_path / "out")
    assert result.exit_code == 0, result.stderr
    folder = tmp_path / "out" / "wizard"
    page = (folder / "wizard-rules.html").read_text(encoding="utf-8")
    assert "<script" not in page and "<img src=x" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "&lt;img src=x onerror=alert(2)&gt;" in page
    markdown = (folder / "wizard-rules.md").read_text(encoding="utf-8")
    assert not re.search(r"(?<!\\)</?(script|img src=x)", markdown), "a raw tag from the deck got through"
    assert r"\<script\>alert(‘x’)\</script\> \| *not* \_this\_ \[link\](http://x)" in markdown
    assert "### 5.5 Who wins \\<script\\>alert(1)\\</script\\>" in markdown
    assert (folder / "wizard-rules.pdf").stat().st_size > 0


def test_designer_template_is_used_for_its_format(run_cli, tmp_path):
    own = tmp_path / "mine"
    own.mkdir()
    (own / "rulebook.html.j2").write_text(
        "<h1>{{ deck.name }} house rules</h1>{% include 'part.html' %}"
        "{% for chapter in chapters %}<h2 id=\"{{ chapter.heading.anchor }}\">{{ chapter.heading.label }}</h2>"
        "{{ chapter.intro }}{% endfor %}", encoding="utf-8")
    (own / "part.html").write_text("<p>made at home</p>", encoding="utf-8")
    result = run_cli("rulebook", "wizard", "--format", "all", "--template", own, "--output", tmp_path / "out")
    assert result.exit_code == 0, result.stderr
    folder = tmp_path / "out" / "wizard"
    page = (folder / "wizard-rules.html").read_text(encoding="utf-8")
    assert page.startswith("<h1>Wizard house rules</h1><p>made at home</p>")
    assert '<h2 id="wizard.bidding">4 Bidding</h2>' in page
    # No Markdown template in the folder: the shipped one is used.
    assert (folder / "wizard-rules.md").read_text(encoding="utf-8").startswith("# Wizard\n")


@pytest.mark.parametrize("source, complaint", [
    ("{{ ''.__class__.__mro__[1].__subclasses__() }}", "unsafe"),
    ("{{ deck.__class__ }}", "unsafe"),
    ("{% include '../secret.txt' %}", "secret.txt"),
    ("{% include '/etc/passwd' %}", "passwd"),  # system path: a refused include, never read
    ("{{ chapters.append(1) }}", "unsafe"),
    ("{{ no_such_variable }}", "undefined"),
    ("{% for x in %}", "rulebook.md.j2:1"),
])
def test_designer_template_is_sandboxed(run_cli, tmp_path, source, complaint):
    (tmp_path / "secret.txt").write_text("do not read me", encoding="utf-8")
    folder = tmp_path / "templates"
    folder.mkdir()
    template = folder / "rulebook.md.j2"
    template.write_text(source, encoding="utf-8")
    result = run_cli("rulebook", "wizard", "--format", "md", "--template", template, "--output", tmp_path / "out")
    assert result.exit_code == 2  # a template is an option the user gave: unusable input
    assert "template error" in result.stderr and complaint in result.stderr.lower()
    assert "do not read me" not in result.stdout + result.stderr
    assert not (tmp_path / "out" / "wizard" / "wizard-rules.md").exists()


@pytest.mark.parametrize("given, complaint", [
    ("rulebook.html.j2", "is a html template, but the formats asked for are md"),
    ("empty-folder", "holds neither rulebook.html.j2 nor rulebook.md.j2"),
    ("missing.md.j2", "no such file or folder"),
    ("rulebook.j2", "cannot tell the format"),
])
def test_unusable_template_is_refused_before_anything_is_written(run_cli, tmp_path, given, complaint):
    (tmp_path / "rulebook.html.j2").write_text("<p>{{ deck.name }}</p>", encoding="utf-8")
    (tmp_path / "rulebook.j2").write_text("{{ deck.name }}", encoding="utf-8")
    (tmp_path / "empty-folder").mkdir()
    result = run_cli("rulebook", "wizard", "--format", "md", "--template", tmp_path / given,
                     "--output", tmp_path / "out")
    assert result.exit_code == 2
    assert complaint in result.stderr
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("reference, message", [
    ("{card:Quaffle}", "unknown card 'Quaffle'"),
    ("{suit:stars}", "unknown suit 'stars'"),
    ("{rule:wizard.nowhere}", "unknown rule 'wizard.nowhere'"),
])
def test_validate_names_the_rule_field_with_a_bad_reference(run_cli, tmp_path, reference, message):
    old = "A Jester never wins any other trick."
    deck = _deck_copy(tmp_path, [(old, f"{old} See {reference}.")])
    data = tomllib.loads(deck.read_text(encoding="utf-8"))
    field = next(f"sections[{s}].rules[{r}].text"
                 for s, section in enumerate(data["sections"])
                 for r, rule in enumerate(section.get("rules", ())) if reference in rule["text"])
    result = run_cli("validate", deck)
    assert result.exit_code == 1
    line = next(line for line in result.stdout.splitlines() if message in line)
    assert f"error: {field}: {message}" in line
    assert re.search(r"wizard\.toml:\d+:", line), "the line number is given"


def test_build_step_writes_every_rulebook_format(tmp_path):
    # Only this step: the print steps are tested on their own and take long.
    step = next(step for step in STEPS if step[0] == "rulebook")
    result = build_deck(WIZARD, tmp_path, steps=[step])
    assert result.ok, result.error
    folder = tmp_path / "wizard"
    for suffix in ("pdf", "html", "md"):
        assert (folder / f"wizard-rules.{suffix}").stat().st_size > 0
    manifest = json.loads((folder / ".manifest.json").read_text())
    assert {"wizard-rules.pdf", "wizard-rules.html", "wizard-rules.md"} <= set(manifest["rulebook"]["files"])
    markdown = (folder / "wizard-rules.md").read_text(encoding="utf-8")
    for picture in re.findall(r'<img src="([^"]+)"', markdown):
        assert (folder / picture).is_file() and picture in manifest["rulebook"]["files"]


def test_deck_without_rulings_quick_reference_or_variants_section(run_cli, tmp_path):
    text = WIZARD.read_text(encoding="utf-8")
    text = text[:text.index("[[rulings]]")]  # rulings and the quick reference are last in the file
    deck = tmp_path / "decks" / "wizard.toml"
    deck.parent.mkdir()
    deck.write_text(text.replace('role = "variants"', 'role = "other"'), encoding="utf-8")
    result = run_cli("rulebook", deck, "--output", tmp_path / "out")
    assert result.exit_code == 0, result.stderr
    folder = tmp_path / "out" / "wizard"
    page = (folder / "wizard-rules.html").read_text(encoding="utf-8")
    assert '<h2><span class="number">B</span> Variants</h2>' in page
    assert "Rulings of this edition" not in page and "<h2>Quick reference</h2>" not in page
    ids = set(re.findall(r' id="([^"]+)"', page))
    assert all(target in ids for target in re.findall(r'href="#([^"]+)"', page))
    assert 'id="variant-hidden-bids"' in page
    markdown = (folder / "wizard-rules.md").read_text(encoding="utf-8")
    assert "## B Variants" in markdown and "Quick reference" not in markdown


HOSTILE_NAME = 'A" onerror="alert(1)" x="<b>'


def test_markdown_rulebook_keeps_card_names_inside_their_attributes(run_cli, tmp_path, page):
    """A card name built to break out of `alt="..."` stays text: the raw HTML a Markdown viewer
    passes through is parsed by Chromium, and no image gains an attribute."""
    from tests.badinput import TINY

    deck = tmp_path / "tiny.toml"
    deck.write_text(TINY.replace('name = "Joker"', f'name = {json.dumps(HOSTILE_NAME)}'), encoding="utf-8")
    result = run_cli("rulebook", deck, "--format", "md", "--output", tmp_path / "out")
    assert result.exit_code == 0, result.stderr
    markdown = (tmp_path / "out" / "tiny" / "tiny-rules.md").read_text(encoding="utf-8")
    page.set_content(markdown)
    images = page.eval_on_selector_all("img", "all => all.map(i => [i.getAttributeNames(), i.alt])")
    assert images, markdown
    for names, alt in images:
        assert set(names) <= {"src", "alt", "width", "align"}, names
    # Shown with a typesetter's quotes, as everywhere a reader sees the name.
    assert smarten(HOSTILE_NAME) in {alt for _, alt in images}
    assert page.eval_on_selector_all("[onerror]", "all => all.length") == 0


SOLO_SUIT = """
[deck]
id = "solo"
name = "Solo Suit"
players = { min = 2, max = 4 }

[[suits]]
id = "stars"
name = "Stars"
symbol = "★"
code = "S"
color = "#1a1a1a"

[[ranks]]
id = "1"
name = "One"
code = "1"
value = 1

[[kinds]]
id = "number"
name = "Suit card"
[[kinds]]
id = "fool"
name = "Fool"

[[card_sets]]
kind = "number"

[[cards]]
name = "Fool"
code = "FO"
kind = "fool"
"""


def test_a_suit_of_one_card_is_introduced_in_the_singular(run_cli, tmp_path):
    import pypdfium2

    deck = tmp_path / "solo.toml"
    deck.write_text(SOLO_SUIT, encoding="utf-8")
    result = run_cli("rulebook", deck, "--format", "all", "--output", tmp_path / "out")
    assert result.exit_code == 0, result.stderr
    markdown = (tmp_path / "out" / "solo" / "solo-rules.md").read_text(encoding="utf-8")
    assert "One card." in markdown and "1 cards" not in markdown
    (pdf,) = (tmp_path / "out" / "solo").glob("*.pdf")
    document = pypdfium2.PdfDocument(pdf)
    text = " ".join(document[index].get_textpage().get_text_range() for index in range(len(document)))
    assert "One card." in text and "1 cards" not in text
