"""Card layouts as data: the layout language, inheritance, conditions, variables, choosing a
layout per deck/kind/suit/rank/card, per-card backs on duplex sheets, and checked errors."""

from __future__ import annotations

from pathlib import Path

import pypdf
import pytest
from PIL import Image

from generator.core.errors import InvalidDeck
from generator.deck.layouts.book import builtin_book
from generator.deck.loader import check_deck, load_deck
from generator.faces import cards
from generator.printing import sheets
from generator.faces.check import text_problems
from generator.faces.images import card_image
from generator.deck.layouts.place import place, to_points
from generator.deck.sizes import pt

from tests.pdf_support import page_content
from tests.faces.test_render import HEADER, pdf_text

POKER = (pt(63), pt(88))

LAYOUTS = """
[layouts.recipe]
reference_size = [63, 88]

[[layouts.recipe.elements]]
name = "ground"
type = "shape"
frame = "bleed"
fill = "#fdf3d8"

[[layouts.recipe.elements]]
name = "title"
type = "text"
text = "{name} — {props.cost} gold"
x = 5
y = 5
width = "100% - 10mm"
height = 10
size = [12, 7]
family = "sans"
weight = "bold"
color = "{kind.color}"

[[layouts.recipe.elements]]
name = "rules"
type = "text"
field = "text"
x = 5
y = 20
width = "100% - 10mm"
height = 30
size = [9, 6]

[[layouts.recipe.elements]]
name = "seal"
type = "shape"
shape = "ellipse"
when = "corner"
x = "50%"
y = "80%"
width = 10
height = 10
anchor = "center"
fill = "#aa2200"

[layouts.fancy]
extends = "recipe"
remove = ["seal"]

[[layouts.fancy.elements]]
name = "title"
color = "#102030"
size = [14, 7]

[[layouts.fancy.elements]]
name = "stamp"
type = "shape"
after = "ground"
shape = "rect"
x = 2
y = 2
width = 8
height = 8
fill = "#00aa00"

[layouts.recipe-back]
side = "back"

[[layouts.recipe-back.elements]]
name = "ground"
type = "shape"
frame = "bleed"
fill = "#7a1f5c"

[[layouts.recipe-back.elements]]
name = "word"
type = "text"
text = "RECIPE"
x = "50%"
y = "50%"
width = "80%"
height = 12
anchor = "center"
size = [16, 8]
align = "center"
color = "#ffffff"
"""

CARDS = """
[[kinds]]
id = "recipe"
name = "Recipe"
color = "#8a3b2f"
layout = "recipe"
back_layout = "recipe-back"

[[cards]]
name = "Fire Soup"
code = "FS"
kind = "recipe"
corner = "3"
text = "Stir twice."
props = { cost = 4 }

[[cards]]
name = "Cold Tea"
code = "CT"
kind = "recipe"
text = "Pour once."
props = { cost = 2 }
layout = "fancy"

[[cards]]
name = "Plain Thing"
code = "PT"
kind = "thing"
text = "Does little."
"""


def write(folder: Path, body: str, name: str = "lay") -> Path:
    path = folder / f"{name}.toml"
    path.write_text(HEADER.format(id=name, name="Layout Test", pattern="dots") + body, encoding="utf-8")
    return path


@pytest.fixture
def deck(tmp_path):
    return load_deck(write(tmp_path, CARDS + LAYOUTS))


def names(deck, code, back=False):
    card = deck.card(code)
    layout = cards.choose_back(deck, card) if back else cards.choose_face(deck, card)
    return [p.name for p in place(deck, layout, card, *POKER)]


# The language --------------------------------------------------------------------------------

def test_lengths_take_mm_points_percent_and_sums():
    assert to_points(10, 100) == pytest.approx(pt(10))
    assert to_points("10mm", 100) == pytest.approx(pt(10))
    assert to_points("12pt", 100) == 12
    assert to_points("25%", 200) == 50
    assert to_points("100% - 6mm", 200) == pytest.approx(200 - pt(6))


def test_layout_chosen_per_kind_and_card_with_builtins_for_the_rest(deck):
    assert cards.design_name(deck, deck.card("FS")) == "recipe"
    assert cards.design_name(deck, deck.card("CT")) == "fancy"  # the card's own layout wins
    assert cards.design_name(deck, deck.card("PT")) == "text"
    assert cards.choose_back(deck, deck.card("FS")).name == "recipe-back"
    assert cards.choose_back(deck, deck.card("PT")).name == "back"


def test_extends_overrides_adds_and_removes_by_name(deck):
    assert names(deck, "FS") == ["ground", "title", "rules", "seal"]
    assert names(deck, "CT") == ["ground", "stamp", "title", "rules"]  # seal removed, stamp after ground
    fancy = {p.name: p for p in place(deck, deck.layouts.get("fancy"), deck.card("CT"), *POKER)}
    assert fancy["title"].values["color"] == "#102030"  # overridden
    assert fancy["title"].values["size"] == [14, 7]
    assert fancy["rules"].values["text"] == "Pour once."  # inherited unchanged


def test_variables_fill_text_and_colours(deck):
    placed = {p.name: p for p in place(deck, deck.layouts.get("recipe"), deck.card("FS"), *POKER)}
    assert placed["title"].values["text"] == "Fire Soup — 4 gold"
    assert placed["title"].values["color"] == "#8a3b2f"
    assert "Fire Soup — 4 gold" in pdf_text(sheets.one_per_page(deck))


def test_when_shows_an_element_only_when_the_field_is_present(deck):
    assert "seal" in names(deck, "FS")  # has a corner
    layout = deck.layouts.get("recipe")
    assert "seal" not in [p.name for p in place(deck, layout, deck.card("CT"), *POKER)]


def test_geometry_anchors_and_frames(deck):
    placed = {p.name: p for p in place(deck, deck.layouts.get("recipe"), deck.card("FS"), *POKER, bleed=pt(3))}
    ground, seal, title = placed["ground"].box, placed["seal"].box, placed["title"].box
    assert (ground.x, ground.y) == pytest.approx((-pt(3), -pt(3)))  # frame = bleed
    assert seal.x + seal.width / 2 == pytest.approx(POKER[0] / 2)  # anchor = center at x 50%
    assert seal.y + seal.height / 2 == pytest.approx(POKER[1] * 0.2)  # y 80% from the top
    assert title.top == pytest.approx(POKER[1] - pt(5))  # y is measured down from the top


def test_every_element_kind_draws(tmp_path):
    art = tmp_path / "pic.png"
    Image.new("RGB", (800, 1100), "#0044ff").save(art)
    body = CARDS.replace('props = { cost = 2 }', 'props = { cost = 2 }\nart = "pic.png"') + LAYOUTS + """
[layouts.all]
[[layouts.all.elements]]
name = "picture"
type = "image"
frame = "bleed"
fit = "cover"
[[layouts.all.elements]]
name = "box"
type = "shape"
shape = "polygon"
points = [[0, 0], [100, 0], [50, 100]]
x = 10
y = 60
width = 20
height = 20
fill = "#ff0000"
[[layouts.all.elements]]
name = "mark"
type = "icon"
glyph = "★"
x = 40
y = 60
width = 15
height = 15
color = "#00ff00"
[[layouts.all.elements]]
name = "side"
type = "text"
text = "SIDEWAYS"
rotate = 90
x = 50
y = 10
width = 8
height = 40
size = 8
"""
    deck = load_deck(write(tmp_path, body.replace('layout = "fancy"', 'layout = "all"')))
    image = card_image(deck, deck.card("CT"), dpi=100)
    px = lambda x_mm, y_mm: image.getpixel((round(x_mm / 25.4 * 100), round(y_mm / 25.4 * 100)))  # noqa: E731
    assert px(5, 5) == (0, 68, 255)  # the art covers the card
    assert px(20, 75) == (255, 0, 0)  # the triangle
    assert px(47.5, 68.5)[1] > 200 and px(47.5, 68.5)[0] < 60  # the star glyph
    assert "SIDEWAYS" in pdf_text(sheets.one_per_page(deck))


def test_duplex_sheets_put_each_cards_own_back_behind_it(deck):
    options = sheets.SheetOptions(duplex="long-edge")
    reader = pypdf.PdfReader(__import__("io").BytesIO(sheets.print_sheets(deck, options)))
    faces, backs = page_content(reader, 0).forms, page_content(reader, 1).forms
    assert len(faces) == len(backs) == 3
    layout = options.layout(deck)
    form_of = {}
    for index, card in enumerate(deck.copies()):
        slot = layout.back_slot(index, "long-edge")
        form_of[card.code] = next(b.form for b in backs if abs(b.origin[0] - slot.x) < 0.5
                                  and abs(b.origin[1] - slot.y) < 0.5)
    assert form_of["FS"] == form_of["CT"] != form_of["PT"]  # recipes share their back; the thing has the deck's
    text = pdf_text(sheets.print_sheets(deck))
    assert text.count("RECIPE") == 2


def test_card_images_include_each_own_back(deck, tmp_path):
    from generator.faces.images import write_images

    written = {p.relative_to(tmp_path / "images").as_posix() for p in write_images(deck, tmp_path, dpi=40)}
    assert {"back.png", "backs/fs.png", "backs/ct.png"} <= written  # ids from the codes FS and CT
    assert "backs/pt.png" not in written
    back = Image.open(tmp_path / "images" / "backs" / "fs.png").convert("RGB")
    assert back.getpixel((5, 5)) == (0x7a, 0x1f, 0x5c)


def test_text_that_cannot_fit_names_the_card_and_element(tmp_path):
    long = " ".join(["Stir the cauldron slowly."] * 40)
    deck = load_deck(write(tmp_path, (CARDS + LAYOUTS).replace("Stir twice.", long)))
    found = [p for p in text_problems(deck) if p.severity == "error"]
    assert [p.field for p in found] == ["card FS.rules"]
    with pytest.raises(InvalidDeck, match="rules"):
        sheets.print_sheets(deck)


def test_inline_icon_sits_in_the_text_line(tmp_path):
    icon = tmp_path / "drop.png"
    Image.new("RGBA", (40, 40), (0, 0, 0, 255)).save(icon)
    body = CARDS.replace("Stir twice.", "Add {icon:drop} and stir.") + LAYOUTS + '\n[icons]\ndrop = { file = "drop.png", tint = true }\n'
    deck = load_deck(write(tmp_path, body))
    assert "Add" in pdf_text(sheets.one_per_page(deck)) and "[drop]" not in pdf_text(sheets.one_per_page(deck))
    image = card_image(deck, deck.card("FS"), dpi=200).convert("RGB")
    # The rules box starts 20 mm down at 5 mm in: the tinted (ink-coloured) icon sits on its first line.
    row = [image.getpixel((x, round(22.2 / 25.4 * 200))) for x in range(round(5 / 25.4 * 200), round(30 / 25.4 * 200))]
    assert any(pixel == (0x1b, 0x1b, 0x1b) for pixel in row)
    missing = CARDS.replace("Stir twice.", "Add {icon:nope}.") + LAYOUTS
    deck_path = write(tmp_path, missing, "bad")
    _deck, problems = check_deck(deck_path)
    assert any("unknown icon 'nope'" in p.message for p in problems)


# Errors ------------------------------------------------------------------------------------

def problems_of(tmp_path, layouts: str, cards_toml: str = CARDS):
    _deck, problems = check_deck(write(tmp_path, cards_toml + layouts, "err"))
    return problems


def line_of(path: Path, needle: str) -> int:
    return next(n for n, line in enumerate(path.read_text().splitlines(), start=1) if needle in line)


def test_unknown_field_names_file_line_and_path(tmp_path):
    found = problems_of(tmp_path, LAYOUTS.replace('fill = "#aa2200"', 'colour = "#aa2200"'))
    problem = next(p for p in found if "colour" in p.message)
    assert problem.field == "layouts.recipe.elements[3].colour"
    assert problem.line == line_of(tmp_path / "err.toml", 'colour = "#aa2200"')
    assert "allowed:" in problem.message and "fill" in problem.message


def test_unknown_element_kind(tmp_path):
    found = problems_of(tmp_path, LAYOUTS.replace('type = "shape"\nshape = "ellipse"', 'type = "blob"\nshape = "ellipse"'))
    problem = next(p for p in found if "blob" in p.message)
    assert problem.field == "layouts.recipe.elements[3].type" and "text, image, shape" in problem.message
    assert problem.line == line_of(tmp_path / "err.toml", 'type = "blob"')


def test_extends_cycle(tmp_path):
    cyclic = LAYOUTS.replace("[layouts.recipe]\n", '[layouts.recipe]\nextends = "fancy"\n')
    problem = next(p for p in problems_of(tmp_path, cyclic) if "cycle" in p.message)
    assert "recipe" in problem.message and "fancy" in problem.message and problem.line


def test_field_no_card_has(tmp_path):
    found = problems_of(tmp_path, LAYOUTS.replace("{props.cost}", "{props.price}"))
    problem = next(p for p in found if "props.price" in p.message and p.field == "layouts.recipe.elements[1]")
    assert problem.severity == "error" and problem.line


def test_element_outside_the_bleed_and_outside_the_safe_area(tmp_path):
    found = problems_of(tmp_path, LAYOUTS.replace('x = "50%"\ny = "80%"', 'x = "-10mm"\ny = "80%"'))
    assert any("outside the bleed" in p.message and p.field == "layouts.recipe.elements[3]" for p in found)
    near_edge = LAYOUTS.replace("x = 5\ny = 20", "x = 1\ny = 20")
    found = problems_of(tmp_path, near_edge)
    warning = next(p for p in found if "safe area" in p.message)
    assert warning.severity == "warning" and warning.field == "layouts.recipe.elements[2]"


def test_missing_image_and_unknown_layout(tmp_path):
    with_image = LAYOUTS + '\n[[layouts.recipe.elements]]\nname = "logo"\ntype = "image"\nsrc = "nowhere.png"\n'
    found = problems_of(tmp_path, with_image)
    assert any("nowhere.png" in p.message and "does not exist" in p.message for p in found)
    found = problems_of(tmp_path, LAYOUTS, CARDS.replace('layout = "fancy"', 'layout = "fanzy"'))
    problem = next(p for p in found if "fanzy" in p.message)
    assert problem.field == "cards[1].layout" and "fancy" in problem.message


def test_cli_reports_layout_errors_with_exit_code_1(tmp_path, run_cli):
    path = write(tmp_path, CARDS + LAYOUTS.replace('type = "shape"\nshape = "ellipse"', 'type = "blob"\nshape = "ellipse"'))
    result = run_cli("validate", str(path))
    assert result.exit_code == 1
    line = line_of(path, 'type = "blob"')
    assert f"lay.toml:{line}" in result.stdout and "Traceback" not in result.stdout


# The shipped layouts --------------------------------------------------------------------------

def test_builtin_designs_are_layout_files_read_by_the_same_code():
    book = builtin_book()
    assert {"playing", "playing-captioned", "text", "text-art", "picture", "picture-full", "back"} <= set(book.names())
    assert all(layout.builtin for layout in book.layouts.values())
    root = Path(__file__).resolve().parents[2]
    assert not any((root / "generator" / "render" / name).exists()
                   for name in ("playing.py", "textcard.py", "picture.py", "backs.py", "design.py"))


def test_playing_card_corner_index_and_pips_land_where_they_should():
    deck = load_deck(Path(__file__).resolve().parents[2] / "decks" / "wizard.toml")
    seven = next(c for c in deck.cards if deck.rank(c.rank).code == "7" if c.rank)
    image = card_image(deck, seven, dpi=100).convert("L")
    dark = lambda x_mm, y_mm, r=1.0: min(image.getpixel((round((x_mm + dx) / 25.4 * 100), round((y_mm + dy) / 25.4 * 100)))  # noqa: E731
                                          for dx in (-r, 0, r) for dy in (-r, 0, r))
    assert dark(0.115 * 63, 6.5) < 128  # the index digit at the top-left corner
    assert dark(63 - 0.115 * 63, 88 - 6.5) < 128  # and turned round at the bottom-right
    assert dark(0.3 * 63, 0.2 * 88) < 128 and dark(0.7 * 63, 0.8 * 88) < 128  # corner pips of a seven
    assert dark(0.5 * 63, 0.5 * 88) > 200  # a seven has no centre pip


def test_text_card_rules_start_at_the_same_height_on_every_card():
    deck = load_deck(Path(__file__).resolve().parents[2] / "decks" / "quidditch-v2.toml")
    tops = {round(next(p for p in place(deck, cards.choose_face(deck, card), card, *POKER) if p.name == "text").box.top, 2)
            for card in deck.cards if not card.art}
    assert len(tops) == 1


def test_the_layouts_doc_names_every_field_and_the_gallery_renders(tmp_path):
    from generator.deck.layouts.fields import COMMON, LAYOUT_FIELDS, TYPED

    root = Path(__file__).resolve().parents[2]
    doc = (root / "docs" / "layouts.md").read_text()
    fields = set(LAYOUT_FIELDS) | set(COMMON) | {name for group in TYPED.values() for name in group}
    assert sorted(name for name in fields if f"`{name}`" not in doc) == []
    import importlib.util

    spec = importlib.util.spec_from_file_location("gallery", root / "docs" / "layouts" / "gallery.py")
    gallery = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gallery)
    written = gallery.render(out=tmp_path, dpi=40)
    assert {p.name for p in written} == {"minimal.png", "extends.png", "full-art.png", "conditions.png",
                                         "gradients.png", "effects.png", "soft.png", "masks.png", "rotation.png",
                                         "icons.png"}
    for path in written:
        assert f"(layouts/{path.name})" in doc


@pytest.mark.parametrize("deck_name, code", [("muggle-quidditch", "JK"), ("wizard", None)])
def test_picture_cards_draw_their_figure(deck_name, code):
    deck = load_deck(Path(__file__).resolve().parents[2] / "decks" / f"{deck_name}.toml")
    card = deck.card(code) if code else next(c for c in deck.cards if cards.design_name(deck, c).startswith("picture"))
    image = card_image(deck, card, dpi=60).convert("RGB")
    box = (round(0.25 * image.width), round(0.12 * image.height), round(0.75 * image.width), round(0.5 * image.height))
    colours = {image.getpixel((x, y)) for x in range(box[0], box[2], 4) for y in range(box[1], box[3], 4)}
    assert len(colours) > 20  # a picture, not an empty frame


def test_one_cards_back_as_an_image(deck):
    from generator.faces.images import card_back_image

    assert card_back_image(deck, deck.card("FS"), dpi=40).getpixel((3, 3)) == (0x7a, 0x1f, 0x5c)
    assert card_back_image(deck, deck.card("PT"), dpi=40).getpixel((3, 3)) == card_image(deck, None, dpi=40).getpixel((3, 3))


def test_the_json_schema_describes_layouts_for_editors():
    from generator.deck.layouts.fields import COMMON, ELEMENT_TYPES, LAYOUT_FIELDS, TYPED
    from generator.deck.schema import DECK_SCHEMA

    layout = DECK_SCHEMA["properties"]["layouts"]["additionalProperties"]
    assert set(LAYOUT_FIELDS) <= set(layout["properties"])
    element = layout["properties"]["elements"]["items"]
    assert element["properties"]["type"]["enum"] == list(ELEMENT_TYPES)
    assert set(COMMON) | {name for group in TYPED.values() for name in group} <= set(element["properties"])
    assert all(element["properties"][name]["description"] for name in element["properties"])
    for table in ("kinds", "suits", "ranks", "cards"):
        assert "layout" in DECK_SCHEMA["properties"][table]["items"]["properties"]
    assert {"fonts", "icons"} <= set(DECK_SCHEMA["properties"])
