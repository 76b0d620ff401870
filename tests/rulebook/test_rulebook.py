"""Rulebooks read back: the PDF's contents, bookmarks and links, the HTML's anchors, the Markdown's
headings and pictures, for every deck in decks/."""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from functools import cached_property
from html.parser import HTMLParser
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from pypdf import PdfReader
from pypdf.generic import ArrayObject, IndirectObject

from generator.deck import markup
from generator.deck.loader import load_deck
from generator.deck.model import Deck
from generator.rulebook import write_rulebooks
from generator.rulebook.book import build_book
from generator.core.typography import smarten, smarten_markup

from tests.conftest import DECK_PATHS

DECK_IDS = [path.stem for path in DECK_PATHS]


@dataclass
class Built:
    deck: Deck
    out: Path
    written: list[Path]

    def path(self, fmt: str) -> Path:
        return self.out / f"{self.deck.id}-rules.{fmt}"

    @cached_property
    def reader(self) -> PdfReader:
        return PdfReader(self.path("pdf"))

    @cached_property
    def page_texts(self) -> list[str]:
        """Each page's text in reading order (pdfium: pypdf is slow on pages full of card drawings)."""
        document = pdfium.PdfDocument(self.path("pdf"))
        try:
            return [document[index].get_textpage().get_text_bounded() for index in range(len(document))]
        finally:
            document.close()


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """Each deck's rulebook in all three formats, built once for the module."""
    cache: dict[str, Built] = {}

    def get(deck_id: str) -> Built:
        if deck_id not in cache:
            deck = load_deck(next(path for path in DECK_PATHS if path.stem == deck_id))
            out = tmp_path_factory.mktemp(f"rulebook-{deck_id}")
            cache[deck_id] = Built(deck, out, write_rulebooks(deck, out))
        return cache[deck_id]

    return get


def _flat(text: str) -> str:
    """Whitespace runs as one space; words hyphenated at a line's end joined again (pdfium marks
    such a break with \x02)."""
    return re.sub(r"\s+", " ", text.replace("\x02", ""))


# PDF --------------------------------------------------------------------------------------------

def _outline(reader: PdfReader) -> list[tuple[int, str, int]]:
    """(depth, title, 1-based page) for every bookmark, in order."""
    found: list[tuple[int, str, int]] = []

    def walk(items, depth):
        for item in items:
            if isinstance(item, list):
                walk(item, depth + 1)
            else:
                found.append((depth, item.title, reader.get_destination_page_number(item) + 1))

    walk(reader.outline, 0)
    return found


@pytest.mark.parametrize("deck_id", DECK_IDS)
def test_pdf_contents_page_numbers_are_where_headings_start(built, deck_id):
    rulebook = built(deck_id)
    texts = rulebook.page_texts
    chapters = [heading for heading in build_book(rulebook.deck).headings() if heading.level == 1]
    bookmarked_pages = {title: page for _, title, page in _outline(rulebook.reader)}
    first = bookmarked_pages["Contents"]
    assert texts[first - 1].lstrip().startswith("Contents")
    listed_pages: dict[str, int] = {}
    document = pdfium.PdfDocument(rulebook.path("pdf"))
    entry = r"\s*(.*?)\s*(?:\.\s*){3,}(\d+)(?=\s|$)"
    for index in range(first - 1, bookmarked_pages[chapters[0].label] - 1):  # up to the first chapter
        for line in texts[index].splitlines():
            match = re.fullmatch(entry, line.strip())
            if match:
                listed_pages.setdefault(_flat(match.group(1)), int(match.group(2)))
        # An entry wrapped over two lines (in two columns): its page number stands at the right
        # of its link's last line, in the link's own column.
        page = document[index]
        width = page.get_size()[0]
        destinations = {(named.page.idnum, round(float(named.top), 1)): name
                        for name, named in rulebook.reader.named_destinations.items()}
        for annotation in rulebook.reader.pages[index].get("/Annots", []):
            annotation = annotation.get_object()
            target = annotation.get("/Dest")
            if not target:
                continue
            anchor = destinations.get((target[0].idnum, round(float(target[3]), 1)))
            title = next((h.label for h in chapters if h.anchor == anchor), None)
            if title is None or title in listed_pages:
                continue
            x0, y0, x1, y1 = (float(value) for value in annotation["/Rect"])
            edge = width / 2 if x0 < width / 2 else width
            numbers = re.findall(r"\d+", page.get_textpage().get_text_bounded(x1, y0, edge, y1))
            if numbers:
                listed_pages[title] = int(numbers[-1])
    document.close()
    for heading in chapters:
        assert heading.label in listed_pages, f"{heading.label!r} missing from the contents"
        listed = listed_pages[heading.label]
        assert listed == bookmarked_pages[heading.label], f"{heading.label}: contents say page {listed}"
        assert heading.title in _flat(texts[listed - 1]), f"{heading.label!r} is not on page {listed}"


@pytest.mark.parametrize("deck_id", DECK_IDS)
def test_pdf_shows_every_rule_id_and_every_card(built, deck_id):
    rulebook = built(deck_id)
    deck = rulebook.deck
    text = _flat(" ".join(rulebook.page_texts))
    missing_rules = [rule.id for rule in deck.rules() if f"[{rule.id}]" not in text]
    # Names, titles and questions are set with typographer's quotes (rulebook.typography).
    missing_cards = [card.name for card in deck.cards if _flat(smarten(card.name)) not in text]
    assert not missing_rules and not missing_cards, (missing_rules, missing_cards)
    for section in deck.sections:
        assert f"{section.number} {smarten(section.title)}" in text
    for ruling in deck.rulings:
        assert _flat(smarten_markup(ruling.question)) in text


@pytest.mark.parametrize("deck_id", DECK_IDS)
def test_pdf_destinations_links_and_bookmarks_resolve(built, deck_id):
    rulebook = built(deck_id)
    deck, reader = rulebook.deck, rulebook.reader
    page_count = len(reader.pages)
    page_ids = {page.indirect_reference.idnum for page in reader.pages}
    destinations = reader.named_destinations
    book = build_book(deck)
    wanted = [rule.id for rule in deck.rules()] + [section.id for section in deck.sections]
    wanted += [book.card_anchor(card) for card in deck.cards]
    missing = [name for name in wanted if name not in destinations]
    assert not missing, f"named destinations missing: {missing[:5]}"
    for name, destination in destinations.items():
        assert 0 <= reader.get_destination_page_number(destination) < page_count, name
    for rule in deck.rules():  # a referee looking up a rule id lands on the page that shows it
        page = reader.get_destination_page_number(destinations[rule.id])
        assert f"[{rule.id}]" in _flat(rulebook.page_texts[page]), rule.id
    links = 0
    for page in reader.pages:
        for annotation in page.get("/Annots", []) or []:
            annotation = annotation.get_object()
            if annotation.get("/Subtype") != "/Link":
                continue
            links += 1
            target = annotation.get("/Dest")
            if target is None:
                target = annotation["/A"]["/D"]
            if isinstance(target, IndirectObject):
                target = target.get_object()
            if isinstance(target, ArrayObject):
                assert target[0].idnum in page_ids, "link to a page that does not exist"
            else:
                assert str(target) in destinations, f"link to unknown destination {target}"
    references = sum(1 for text in _linked_texts(deck) for _ in re.finditer(r"\{(card|rule):", text))
    assert links >= references, "every {card:} and {rule:} reference is a link"
    outline = _outline(reader)
    titles = [title for _, title, _ in outline]
    for heading in book.headings():
        assert heading.label in titles, f"no bookmark for {heading.label!r}"
    assert all(1 <= page <= page_count for _, _, page in outline)


def _linked_texts(deck: Deck):
    yield from (rule.text for rule in deck.rules())
    yield from (section.text for section in deck.sections)
    yield from (card.text for card in deck.cards)
    yield from (ruling.decision for ruling in deck.rulings)


@pytest.mark.parametrize("deck_id", DECK_IDS)
def test_pdf_ends_with_a_one_page_quick_reference(built, deck_id):
    rulebook = built(deck_id)
    deck = rulebook.deck
    if not deck.quickref:
        pytest.skip("deck has no quick reference")
    bookmarks = {title: page for _, title, page in _outline(rulebook.reader)}
    assert bookmarks["Quick reference"] == len(rulebook.page_texts)
    last = _flat(rulebook.page_texts[-1])
    for entry in deck.quickref:
        assert entry.title in last
        assert _flat(markup.to_plain(entry.text, deck)).split(" ")[-1] in last, "entry cut off"


# HTML -------------------------------------------------------------------------------------------

class _Anchors(HTMLParser):
    def __init__(self):
        super().__init__()
        self.ids: list[str] = []
        self.hrefs: list[str] = []
        self.sources: list[str] = []
        self.headings: list[str] = []
        self.tags: list[str] = []
        self._heading: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self.tags.append(tag)
        if "id" in attrs:
            self.ids.append(attrs["id"])
        if tag == "a" and "href" in attrs:
            self.hrefs.append(attrs["href"])
        if tag in ("img", "script", "link", "iframe"):
            self.sources.append(attrs.get("src") or attrs.get("href") or "")
        if tag in ("h1", "h2", "h3", "h4"):
            self._heading = []

    def handle_endtag(self, tag):
        if tag in ("h1", "h2", "h3", "h4") and self._heading is not None:
            self.headings.append(_flat("".join(self._heading)).strip())
            self._heading = None

    def handle_data(self, data):
        if self._heading is not None:
            self._heading.append(data)


def _parse_html(path: Path) -> _Anchors:
    parser = _Anchors()
    parser.feed(path.read_text(encoding="utf-8"))
    parser.close()
    return parser


@pytest.mark.parametrize("deck_id", DECK_IDS)
def test_html_is_self_contained_and_every_anchor_resolves(built, deck_id):
    rulebook = built(deck_id)
    deck = rulebook.deck
    page = _parse_html(rulebook.path("html"))
    assert len(page.ids) == len(set(page.ids)), "duplicate ids"
    ids = set(page.ids)
    internal = [href[1:] for href in page.hrefs if href.startswith("#")]
    assert internal and not [href for href in page.hrefs if not href.startswith("#")]
    assert not [target for target in internal if target not in ids]
    assert {rule.id for rule in deck.rules()} <= ids
    assert page.sources and all(source.startswith("data:image/png;base64,") for source in page.sources)
    text = rulebook.path("html").read_text(encoding="utf-8")
    assert "http://" not in text and "https://" not in text
    assert '<meta name="viewport"' in text and "@media print" in text
    book = build_book(deck)
    assert {book.card_anchor(card) for card in deck.cards} <= ids
    for kind, target in {ref for text in _linked_texts(deck) for ref in markup.references(text)}:
        if kind == "suit":  # the symbol, in the suit's colour
            suit = deck.suit(target)
            assert f'style="color:{suit.color}"' in text and f">{suit.symbol}</span>" in text


# Markdown ---------------------------------------------------------------------------------------

def _markdown_headings(text: str) -> list[str]:
    headings = []
    for line in text.splitlines():
        match = re.match(r"^(#{1,4}) (.*)$", line)
        if match:
            # as a Markdown reader shows it: backslash escapes and entities resolved
            headings.append(html.unescape(re.sub(r"\\(.)", r"\1", match.group(2))).strip())
    return headings


@pytest.mark.parametrize("deck_id", DECK_IDS)
def test_markdown_has_the_html_headings_and_its_pictures_exist(built, deck_id):
    rulebook = built(deck_id)
    deck = rulebook.deck
    markdown = rulebook.path("md").read_text(encoding="utf-8")
    assert _markdown_headings(markdown) == _parse_html(rulebook.path("html")).headings
    pictures = re.findall(r'<img src="([^"]+)"', markdown) + re.findall(r"!\[[^\]]*\]\(([^)]+)\)", markdown)
    assert pictures
    for picture in pictures:
        assert not picture.startswith(("/", "http")) and (rulebook.out / picture).is_file(), picture
    anchors = set(re.findall(r'<a id="([^"]+)"></a>', markdown))
    for target in re.findall(r"\]\(#([^)]+)\)", markdown):
        assert target in anchors, target
    assert {rule.id for rule in deck.rules()} <= anchors


# Determinism ------------------------------------------------------------------------------------

def test_same_deck_gives_the_same_bytes(built, tmp_path):
    # One deck is enough: nothing in the code that orders or stamps output depends on the deck.
    rulebook = built(DECK_IDS[0])
    second = write_rulebooks(rulebook.deck, tmp_path)
    assert [p.relative_to(rulebook.out) for p in rulebook.written] == [p.relative_to(tmp_path) for p in second]
    for one, two in zip(rulebook.written, second):
        assert one.read_bytes() == two.read_bytes(), one.name


def test_card_pictures_show_their_own_card(built):
    """Each picture file is its card's face: nearer to the print renderer's image of that card
    than to the image of any other card in the deck."""
    from PIL import Image, ImageChops, ImageStat

    from generator.faces.images import render_cards

    rulebook = built(DECK_IDS[0])
    deck = rulebook.deck
    size = (48, 68)

    def thumbnail(image) -> Image.Image:
        flat = Image.new("RGB", image.size, "white")
        flat.paste(image.convert("RGBA"), mask=image.convert("RGBA"))
        return flat.resize(size, Image.BILINEAR)

    references = [thumbnail(image) for image in render_cards(deck, deck.cards, 40)]
    for card in deck.cards:
        with Image.open(rulebook.out / "images" / "rulebook" / f"{card.id}.png") as picture:
            ratio = picture.height / picture.width
            mine = thumbnail(picture)
        assert abs(ratio - deck.card_size.height_mm / deck.card_size.width_mm) < 0.02
        distances = [sum(ImageStat.Stat(ImageChops.difference(mine, other)).mean) for other in references]
        assert distances.index(min(distances)) == deck.cards.index(card), card.name


# No markup left over ----------------------------------------------------------------------------

LEFTOVER_MARKUP = re.compile(r"\{\s*(card|rule|suit|icon|trick|hand|goal|manoeuvre)\s*:")


@pytest.mark.parametrize("deck_id", DECK_IDS)
def test_no_markup_is_left_in_any_rulebook_or_text_export(built, deck_id, tmp_path):
    from generator.export import export_mush

    rulebook = built(deck_id)
    texts = {"pdf": "\n".join(rulebook.page_texts),
             "html": rulebook.path("html").read_text(encoding="utf-8"),
             "md": rulebook.path("md").read_text(encoding="utf-8")}
    for path in export_mush(rulebook.deck, tmp_path):
        texts[path.name] = path.read_text(encoding="utf-8")
    for name, text in texts.items():
        leftover = [text[max(0, m.start() - 40):m.end() + 40] for m in LEFTOVER_MARKUP.finditer(text)]
        assert not leftover, f"{deck_id} {name} shows raw markup: {leftover[:3]}"


# Figures of play -----------------------------------------------------------------------------

def _figure_pictures(html_text: str) -> dict[str, tuple[str, bytes]]:
    """alt text -> (figure classes, PNG bytes) of every figure of play in the HTML."""
    import base64

    found = {}
    for match in re.finditer(r'<figure class="(play-figure[^"]*)"><img src="data:image/png;base64,([^"]+)" '
                             r'alt="([^"]*)" width="(\d+)" height="(\d+)">', html_text):
        found[html.unescape(match.group(3))] = (match.group(1), base64.b64decode(match.group(2)))
    return found


@pytest.mark.parametrize("deck_id", DECK_IDS)
def test_every_figure_of_play_is_drawn_in_every_format(built, deck_id):
    import io

    from PIL import Image

    from generator.deck import figures
    from generator.rulebook.figures import groups

    rulebook = built(deck_id)
    deck = rulebook.deck
    shown = figures.in_deck(deck)
    assert shown, f"{deck_id} has no worked examples"
    # Compared without spaces or hyphens: pdfium marks a break after "all-" like a hyphenation.
    squeeze = lambda text: re.sub(r"[\s\x02-]+", "", text)  # noqa: E731
    pages = [squeeze(text) for text in rulebook.page_texts]
    pictures = _figure_pictures(rulebook.path("html").read_text(encoding="utf-8"))
    markdown = rulebook.path("md").read_text(encoding="utf-8")
    for figure in shown:
        # PDF: what the figure states and its caption, on a page that draws each of its cards.
        facts = smarten(" · ".join(figures.facts(figure, deck, drawn=True)))
        caption = markup.render_spans(markup.parse_inline(smarten_markup(figure.caption)), str, lambda words, _: words,
                                      lambda ref: markup.ref_label(deck, ref))  # suits as their symbols
        [page] = [index for index, text in enumerate(pages) if squeeze(caption)[:50] in text]
        assert squeeze(facts[:1].upper() + facts[1:]) in pages[page]
        forms = set(rulebook.reader.pages[page]["/Resources"]["/XObject"])
        cards = [card for group in groups(figure, deck)[0] for card in group.cards]
        assert {f"/FormXob.CardFace{deck.cards.index(card)}" for card in cards} <= forms, figure.text
        # HTML: the picture, embedded, with the cards and the claim in its alt text.
        alt = smarten(figures.describe(figure, deck))
        assert alt in pictures, (alt, list(pictures))
        classes, png = pictures[alt]
        assert f"play-{figure.kind}" in classes
        # Markdown: the same picture as a file next to it, with the same alt text.
        link = re.search(rf"!\[{re.escape(_md_alt(alt))}\]\((images/rulebook/figure-[0-9a-f]+\.png)\)", markdown)
        assert link, alt
        assert (rulebook.out / link.group(1)).read_bytes() == png
        with Image.open(io.BytesIO(png)) as image:
            picture = image.convert("RGBA")
        alpha = picture.getchannel("A")
        assert alpha.getpixel((0, 0)) == 0  # a transparent background: it sits on any page colour
        assert picture.width * picture.height - alpha.histogram()[0] > 0.1 * picture.width * picture.height
        if figure.kind == "trick" and figure.has("winner"):
            _assert_raised(alpha, figures.winner(figure), len(figure.cards))


def _md_alt(alt: str) -> str:
    from generator.rulebook.text import MarkdownWriter

    return MarkdownWriter.text(None, alt)


def _assert_raised(alpha, winner: int, count: int) -> None:
    """The topmost drawn pixels (the outline of the raised card) sit over the winner's place."""
    top = next(y for y in range(alpha.height) if any(alpha.getpixel((x, y)) for x in range(alpha.width)))
    columns = [x for x in range(alpha.width) if alpha.getpixel((x, top + 2))]
    drawn = [x for x in range(alpha.width) if any(alpha.getpixel((x, y)) for y in range(alpha.height))]
    left, right = min(drawn), max(drawn)
    slot = (sum(columns) / len(columns) - left) / (right - left + 1) * count
    assert int(slot) == winner, (slot, winner)
    assert max(columns) - min(columns) < (right - left) / count  # one card raised, not the whole row


def test_markup_in_a_ruling_reason_is_checked(tmp_path):
    from generator.core.errors import InvalidDeck

    source = next(path for path in DECK_PATHS if path.stem == "wizard").read_text(encoding="utf-8")
    marker = 'reason = "'
    assert marker in source
    broken = source.replace(marker, 'reason = "See {card:No Such Card}. ', 1)
    deck_file = tmp_path / "wizard.toml"
    deck_file.write_text(broken, encoding="utf-8")
    with pytest.raises(InvalidDeck) as caught:
        load_deck(deck_file)
    [problem] = [p for p in caught.value.problems if "No Such Card" in p.message]
    assert problem.field.startswith("rulings[") and problem.field.endswith("].reason")
    assert problem.line == broken[:broken.index("No Such Card")].count("\n") + 1
