"""The HTML and Markdown rulebooks as a reader sees them: a typesetter's punctuation in every
word the reader reads (names, headings, flavour, captions, tables, alt text), deck text still
escaped for each format, and the deck's icons drawn inline at text height (in the HTML from
the page itself, in the Markdown from icon files written beside it), in a real Chromium at
desktop and phone width. The Markdown is rendered to HTML with markdown-it-py (CommonMark and
GitHub's tables), as a wiki or repository would show it."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import mistune
import pytest
from PIL import Image

from generator.rulebook.inline_icons import INK
from generator.core.typography import smarten
from tests.conftest import DECK_PATHS

ROOT = Path(__file__).resolve().parents[2]
DESIGNER = ROOT / "examples" / "designer"
DECKS = {path.stem: path for path in DECK_PATHS} | {"cauldron-club": DESIGNER / "cauldron-club.toml"}
ICONS = "images/rulebook/icons/"
# GitHub's own stylesheet keeps pictures and tables within the page; a bare render has no CSS.
GITHUB_CSS = "<style>img { max-width: 100%; } table { display: block; max-width: 100%; overflow: auto; }</style>"
# A number range or negative number the typesetter should have set ("45-60", " -2").
HYPHEN_NUMBERS = re.compile(r"(?<![\w.-])\d+-\d+(?![\w-])|(?:^|(?<=[\s(]))-\d")


def _deckgen(*args) -> None:
    subprocess.run([sys.executable, "-m", "generator", *map(str, args)], check=True, capture_output=True, cwd=ROOT)


def markdown_html(markdown: str) -> str:
    """The Markdown as a wiki would show it: tables, raw HTML passed through (mistune)."""
    return mistune.create_markdown(escape=False, plugins=["table"])(markdown)


@pytest.fixture(scope="module")
def rulebooks(tmp_path_factory):
    """Each deck's HTML and Markdown rulebooks written by `deckgen rulebook`, as a user runs it."""
    out = tmp_path_factory.mktemp("web-rulebooks")
    for path in DECKS.values():
        _deckgen("rulebook", path, "--format", "html", "-o", out)
        _deckgen("rulebook", path, "--format", "md", "-o", out)
    return {deck_id: {fmt: out / deck_id / f"{deck_id}-rules.{fmt}" for fmt in ("html", "md")} for deck_id in DECKS}


class ReaderText(HTMLParser):
    """What a reader reads in a page: its text outside code, scripts and styles, and the text
    pictures and symbols stand for (alt, title, aria-label)."""

    HIDDEN = {"code", "pre", "script", "style"}

    def __init__(self, page: str):
        super().__init__(convert_charrefs=True)
        self.hidden, self.texts = 0, []
        self.feed(page)

    def handle_starttag(self, tag, attrs):
        if tag in self.HIDDEN:
            self.hidden += 1
        self.texts += [value for name, value in attrs if name in ("alt", "title", "aria-label") and value]

    def handle_endtag(self, tag):
        if tag in self.HIDDEN:
            self.hidden -= 1

    def handle_data(self, data):
        if not self.hidden and data.strip():
            self.texts.append(data)


def _reader_texts(rulebooks, deck_id: str, fmt: str) -> list[str]:
    page = rulebooks[deck_id][fmt].read_text(encoding="utf-8")
    return ReaderText(markdown_html(page) if fmt == "md" else page).texts


@pytest.mark.parametrize("fmt", ["html", "md"])
@pytest.mark.parametrize("deck_id", list(DECKS))
def test_a_reader_sees_no_straight_quotes_or_hyphens_for_dashes(rulebooks, deck_id, fmt):
    texts = _reader_texts(rulebooks, deck_id, fmt)
    assert len(texts) > 100
    straight = [text for text in texts if "'" in text or '"' in text]
    assert straight == [], straight[:5]
    hyphens = [text for text in texts if HYPHEN_NUMBERS.search(text)]
    assert hyphens == [], hyphens[:5]


def test_the_check_finds_straight_quotes_and_hyphen_ranges():
    """The reader's-text check above can fail: it sees quotes in text and alt text, not in code."""
    page = markdown_html('# Bob\'s "game"\n\n<img src="x.png" alt="it\'s"> 2-6 players, `code "kept"`\n')
    texts = ReaderText(page).texts
    assert [text for text in texts if "'" in text or '"' in text] == ["Bob's \"game\"", "it's"]
    assert any(HYPHEN_NUMBERS.search(text) for text in texts)


def test_names_and_ranges_are_typeset(rulebooks):
    name = "\u201cIt\u2019s all gone quiet over there!\u201d"
    html = rulebooks["quidditch-v2"]["html"].read_text(encoding="utf-8")
    markdown = rulebooks["quidditch-v2"]["md"].read_text(encoding="utf-8")
    assert f"<h4>{name}</h4>" in html and f'alt="{name}"' in html
    assert f"#### {name}\n" in markdown and f"[{name}](#card-" in markdown and f'alt="{name}"' in markdown
    assert "It's all gone" not in html + markdown and "&quot;It" not in html + markdown
    wizard_html = rulebooks["wizard"]["html"].read_text(encoding="utf-8")
    wizard_md = rulebooks["wizard"]["md"].read_text(encoding="utf-8")
    assert "<dd>45\u201360 minutes</dd>" in wizard_html
    assert "| 3\u20136 | 45\u201360 minutes |" in wizard_md


# A card name and flavour text with everything that means something in HTML or Markdown.
HOSTILE_NAME = "Tom's \"Brew\" <b>&amp; *x* _y_ | `z` 2-3"
HOSTILE_FLAVOR = "Don't <i>stir</i> & *sing* _loud_ | `now` -2"


@pytest.fixture(scope="module")
def hostile_rulebooks(tmp_path_factory):
    """The designer example with a recipe renamed HOSTILE_NAME, given HOSTILE_FLAVOR and
    referred to from a rule, built by `deckgen rulebook`."""
    folder = tmp_path_factory.mktemp("hostile") / "designer"
    shutil.copytree(DESIGNER, folder)
    deck = folder / "cauldron-club.toml"
    source = deck.read_text(encoding="utf-8")
    for old, new in (('name = "Green Draught"', f"name = '''{HOSTILE_NAME}'''"),
                     ('flavor = "It bubbles, then it sings."', f"flavor = '''{HOSTILE_FLAVOR}'''"),
                     ("Most points wins.", "Most points wins. Try {card:GD} first.")):
        assert old in source
        source = source.replace(old, new)
    deck.write_text(source, encoding="utf-8")
    out = folder / "out"
    _deckgen("rulebook", deck, "--format", "all", "-o", out)
    book = out / "cauldron-club"
    rendered = book / "cauldron-club-rules.rendered.html"
    rendered.write_text(GITHUB_CSS + markdown_html((book / "cauldron-club-rules.md").read_text(encoding="utf-8")),
                        encoding="utf-8")
    return {"html": book / "cauldron-club-rules.html", "md": rendered}


@pytest.mark.parametrize("fmt", ["html", "md"])
def test_deck_text_shows_literally_with_typeset_punctuation(hostile_rulebooks, page, fmt):
    """Chromium shows the name and flavour as typed, but for their quotes, dashes and minus
    signs: no tag, entity, emphasis or code span of theirs takes effect, no table cell splits."""
    name, flavor = smarten(HOSTILE_NAME), smarten(HOSTILE_FLAVOR)
    assert name == "Tom\u2019s \u201cBrew\u201d <b>&amp; *x* _y_ | `z` 2\u20133"
    page.goto(hostile_rulebooks[fmt].as_uri())
    texts = lambda selector: page.eval_on_selector_all(selector, "all => all.map(e => e.textContent.trim())")  # noqa: E731
    assert name in texts("h4")
    assert name in texts("a[href^='#card-gd']")  # the {card:GD} reference: its anchor names the id, from the code
    assert any(flavor in text for text in texts("p, blockquote"))
    alts = page.eval_on_selector_all("img", "all => all.map(i => i.alt)")
    assert alts.count(name) >= 2  # the components table's sample and the card's picture
    assert page.eval_on_selector_all("b, i, code", "all => all.length") == 0
    tables = page.eval_on_selector_all("table", "all => all.map(t => [...t.rows].map(row => row.cells.length))")
    assert tables and all(len(set(rows)) == 1 for rows in tables), tables


@pytest.fixture(scope="module")
def icon_rulebook(tmp_path_factory):
    """The designer example's rulebook, one recipe's drops written as a row `{icon:drop*3}`."""
    folder = tmp_path_factory.mktemp("icons") / "designer"
    shutil.copytree(DESIGNER, folder)
    deck = folder / "cauldron-club.toml"
    source = deck.read_text(encoding="utf-8")
    old = "Spend {icon:drop}{icon:drop}{icon:drop}: score 2"
    assert old in source
    deck.write_text(source.replace(old, "Spend {icon:drop*3}: score 2"), encoding="utf-8")
    out = folder / "out"
    _deckgen("rulebook", deck, "--format", "all", "-o", out)
    book = out / "cauldron-club"
    markdown = (book / "cauldron-club-rules.md").read_text(encoding="utf-8")
    rendered = book / "cauldron-club-rules.rendered.html"
    rendered.write_text(GITHUB_CSS + markdown_html(markdown), encoding="utf-8")
    return {"folder": book, "deck": folder, "markdown": markdown, "html": book / "cauldron-club-rules.html",
            "md": rendered}


def test_markdown_icons_are_files_beside_it(icon_rulebook):
    book, markdown = icon_rulebook["folder"], icon_rulebook["markdown"]
    assert "[drop]" not in markdown and "[leaf]" not in markdown and "{icon" not in markdown
    pictures = re.findall(r'<img src="(images/rulebook/icons/[^"]+)" alt="(\w+)" title="\2" height="14">', markdown)
    # Every drop of the four cards' texts (1 + 2 + 3, written as a row of 3, + 5) and the leaf.
    assert sorted({alt: pictures.count((src, alt)) for src, alt in set(pictures)}.items()) == [("drop", 11), ("leaf", 1)]
    assert dict(set((alt, src) for src, alt in pictures)) == {"drop": ICONS + "drop.png", "leaf": ICONS + "leaf.svg"}
    # Only the icons used, and they are the deck's icons.
    assert sorted(path.name for path in (book / ICONS).iterdir()) == ["drop.png", "leaf.svg"]
    assert (book / ICONS / "leaf.svg").read_bytes() == (icon_rulebook["deck"] / "icons" / "leaf.svg").read_bytes()
    with Image.open(book / ICONS / "drop.png") as written, Image.open(icon_rulebook["deck"] / "icons" / "drop.png") as drawn:
        written, drawn = written.convert("RGBA"), drawn.convert("RGBA")
        assert written.size == drawn.size
        assert written.getchannel("A").tobytes() == drawn.getchannel("A").tobytes()
        # A one-colour icon is painted in the text's colour, as in the HTML and the PDF.
        colours = {rgba[:3] for _, rgba in written.getcolors(1 << 24) if rgba[3]}
        assert colours == {tuple(int(INK[index:index + 2], 16) for index in (1, 3, 5))}


def test_icons_no_longer_used_leave_the_folder(icon_rulebook, tmp_path):
    deck = icon_rulebook["deck"] / "cauldron-club.toml"
    out = tmp_path / "out"
    _deckgen("rulebook", deck, "--format", "md", "-o", out)
    icons = out / "cauldron-club" / ICONS
    assert sorted(path.name for path in icons.iterdir()) == ["drop.png", "leaf.svg"]
    shutil.copytree(icon_rulebook["deck"], tmp_path / "copy")
    without_leaf = tmp_path / "copy" / "cauldron-club.toml"
    source = without_leaf.read_text(encoding="utf-8")
    assert " Add a {icon:leaf} if you brewed it first." in source
    without_leaf.write_text(source.replace(" Add a {icon:leaf} if you brewed it first.", ""), encoding="utf-8")
    _deckgen("rulebook", without_leaf, "--format", "md", "-o", out)
    assert sorted(path.name for path in icons.iterdir()) == ["drop.png"]


ICON_GEOMETRY = """icons => icons.map(icon => {
    const box = icon.getBoundingClientRect();
    // The letters of the icon's own line: a zero-width space right after it (it never wraps).
    const probe = document.createElement('span');
    probe.textContent = '\\u200b';
    icon.after(probe);
    const letters = probe.getBoundingClientRect();
    probe.remove();
    return {loaded: icon.complete && icon.naturalWidth > 0, height: box.height, top: box.top, bottom: box.bottom,
            right: box.right, fontSize: parseFloat(getComputedStyle(icon.parentElement).fontSize),
            lineTop: letters.top, lineBottom: letters.bottom, alt: icon.alt};
})"""


@pytest.mark.parametrize("width", [1280, 400])
@pytest.mark.parametrize("fmt", ["html", "md"])
def test_icons_sit_in_the_line_at_text_height(icon_rulebook, page, fmt, width, tmp_path_factory):
    page.set_viewport_size({"width": width, "height": 900})
    page.goto(icon_rulebook[fmt].as_uri())
    selector = "img.icon" if fmt == "html" else f"img[src^='{ICONS}']"
    icons = page.locator(selector)
    assert icons.count() == 12  # every drop and the leaf
    for index in range(icons.count()):
        icons.nth(index).scroll_into_view_if_needed()
    for icon in page.eval_on_selector_all(selector, ICON_GEOMETRY):
        assert icon["loaded"], icon
        assert 0.75 * icon["fontSize"] <= icon["height"] <= 1.05 * icon["fontSize"], icon
        # Inline: it shares the line's height with the letters beside it.
        overlap = min(icon["bottom"], icon["lineBottom"]) - max(icon["top"], icon["lineTop"])
        assert overlap >= 0.7 * icon["height"], icon
        assert icon["right"] <= width, icon
    # Nothing reaches past the window: the page never scrolls sideways.
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    shots = Path(tmp_path_factory.getbasetemp()) / "icon-screenshots"
    shots.mkdir(exist_ok=True)
    first = icons.first
    first.scroll_into_view_if_needed()
    page.screenshot(path=str(shots / f"{fmt}-{width}.png"))


def test_icon_names_become_safe_distinct_file_names(tmp_path):
    """Icon names are TOML keys: any text. Their files stay inside the icons folder, and two
    names that differ only in case get two files (a Mac or Windows disk would merge them)."""
    folder = tmp_path / "designer"
    shutil.copytree(DESIGNER, folder)
    deck = folder / "cauldron-club.toml"
    source = deck.read_text(encoding="utf-8")
    old_icons = 'leaf = "icons/leaf.svg"\n'
    old_text = "Add a {icon:leaf} if"
    assert old_icons in source and old_text in source
    source = source.replace(old_icons, old_icons + '"../Leaf" = "icons/leaf.svg"\nLeaf = "icons/drop.png"\n')
    deck.write_text(source.replace(old_text, "Add a {icon:leaf}{icon:../Leaf}{icon:Leaf} if"), encoding="utf-8")
    out = tmp_path / "out"
    _deckgen("rulebook", deck, "--format", "md", "-o", out)
    book = out / "cauldron-club"
    markdown = (book / "cauldron-club-rules.md").read_text(encoding="utf-8")
    by_alt = {alt: src for src, alt in re.findall(rf'<img src="({re.escape(ICONS)}[^"]+)" alt="([^"]+)"', markdown)}
    assert set(by_alt) == {"drop", "leaf", "../Leaf", "Leaf"}
    assert by_alt["drop"] == ICONS + "drop.png"
    # "leaf" would be Leaf's file on a disk that ignores case: both get a hash of their name.
    for name in ("leaf", "../Leaf"):
        assert re.fullmatch(re.escape(ICONS) + r"leaf-[0-9a-f]{8}\.svg", by_alt[name])
    assert re.fullmatch(re.escape(ICONS) + r"leaf-[0-9a-f]{8}\.png", by_alt["Leaf"])
    assert len({src.lower() for src in by_alt.values()}) == 4
    assert sorted(path.relative_to(book).as_posix() for path in (book / ICONS).iterdir()) == sorted(by_alt.values())
