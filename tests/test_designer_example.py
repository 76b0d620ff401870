"""examples/designer (Cauldron Club) builds every output, and its cards come out as designed:
each face's duplex back is that card's own back, inline icons sit in the text line, the
deck's font is embedded."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pypdf
import pypdfium2
import pytest
from pypdf.generic import ContentStream

from generator.deck.loader import load_deck
from generator.faces import cards
from generator.printing import sheets
from generator.deck.layouts.place import place
from generator.deck.sizes import pt

from tests.pdf_support import page_content

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "designer"
DECK = EXAMPLE / "cauldron-club.toml"


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    from generator.cli.app import main

    out = tmp_path_factory.mktemp("designer")
    assert main(["build", "--decks-dir", str(EXAMPLE), "--output", str(out), "--jobs", "1"]) == 0
    return out / "cauldron-club"


def test_every_output_is_built(built):
    for name in ("cauldron-club-print-a4.pdf", "images/mp.png", "images/back.png",  # ids from the codes
                 "images/backs/mp.png", "images/backs/gd.png", "tts/cauldron-club.json",
                 "lackey/cauldron-club.zip", "cauldron-club.mush", "cauldron-club-rules.pdf",
                 "cauldron-club-rules.html", "validation.json"):
        assert (built / name).is_file(), name
    report = json.loads((built / "validation.json").read_text())
    assert report["errors"] == 0 and not [p for p in report["problems"] if p["severity"] == "error"]


def test_the_back_behind_each_face_after_the_duplex_flip_is_that_cards_back(built):
    deck = load_deck(DECK)
    data = (built / "cauldron-club-print-a4.pdf").read_bytes()
    options = sheets.SheetOptions()
    layout = options.layout(deck)
    per_sheet = options.cards_per_sheet(layout)
    reader = pypdf.PdfReader(io.BytesIO(data))
    pdf = pypdfium2.PdfDocument(data)
    scale = 100 / 72
    copies = list(deck.copies())
    assert len(reader.pages) == 2 * -(-len(copies) // per_sheet)  # faces page, backs page, ...
    for number, start in enumerate(range(0, len(copies), per_sheet)):
        sheet = copies[start:start + per_sheet]
        backs = page_content(reader, 2 * number + 1).forms
        assert len(backs) == len(sheet)
        page = pdf[2 * number + 1].render(scale=scale).to_pil().convert("RGB")
        for index, card in enumerate(sheet):
            slot = layout.back_slot(index, "long-edge")
            form = next(b.form for b in backs if abs(b.origin[0] - slot.x) < 0.5 and abs(b.origin[1] - slot.y) < 0.5)
            # The back's ground, sampled a fifth of the way into the card: ingredients green, recipes red.
            x, y = (slot.x + slot.width * 0.2) * scale, (layout.page_height - slot.y - slot.height * 0.2) * scale
            red, green, _blue = page.getpixel((round(x), round(y)))
            assert (green > red) == (card.kind == "ingredient"), (card.name, form)
            assert cards.choose_back(deck, card).name == f"{card.kind}-back"
    pdf.close()


def _form_ops(reader, page_number: int, form_name: str):
    form = reader.pages[page_number]["/Resources"]["/XObject"][form_name].get_object()
    return form, [(op, list(operands)) for operands, op in ContentStream(form, reader).operations]


def test_the_icon_sits_in_the_text_line(built):
    deck = load_deck(DECK)
    card = deck.card("MP")
    reader = pypdf.PdfReader(io.BytesIO(sheets.one_per_page(deck)))
    [face] = [drawn.form for drawn in page_content(reader, 0).forms]
    form, ops = _form_ops(reader, 0, face)
    text = next(p for p in place(deck, cards.choose_face(deck, card), card, pt(63), pt(88)) if p.name == "text")
    icons = [operands for (op, operands), (next_op, _) in zip(ops, ops[1:])
             if op == b"cm" and next_op == b"Do" and float(operands[0]) < 20]
    assert icons, "no inline icon drawn"
    width, _b, _c, height, x, y = (float(v) for v in icons[0])
    assert text.box.x < x < text.box.right and text.box.y < y < text.box.top  # inside the rules box
    assert 4 < height < 12  # about the text's size, not the icon file's


def test_the_decks_font_is_embedded_and_subset(built):
    reader = pypdf.PdfReader(str(built / "cauldron-club-print-a4.pdf"))
    names = set()
    for page in reader.pages[:1]:
        for form in page["/Resources"]["/XObject"].values():
            for font in form.get_object()["/Resources"].get("/Font", {}).values():
                font = font.get_object()
                if "/BaseFont" in font:
                    names.add(str(font["/BaseFont"]))
    assert any(name.endswith("+LiberationSerif-Bold") for name in names)
    assert any(name.endswith("+LiberationSerif") for name in names)


def test_tabletop_simulator_cards_carry_their_own_backs(built):
    from PIL import Image

    saved = json.loads((built / "tts" / "cauldron-club.json").read_text())
    deck = load_deck(DECK)
    piles = saved["ObjectStates"]
    # One face-down deck per back, named after its kind, every card of it showing that back.
    assert [pile["Nickname"] for pile in piles] == ["Cauldron Club: Ingredient", "Cauldron Club: Recipe"]
    contained = [card for pile in piles for card in pile["ContainedObjects"]]
    guids = [pile["GUID"] for pile in piles] + [card["GUID"] for card in contained]
    assert len(set(guids)) == len(guids) and len(contained) == len(list(deck.copies()))
    assert len({pile["Transform"]["posZ"] for pile in piles}) == len(piles)  # side by side, not stacked
    back_of = {}
    for card, entry in zip(sorted(deck.copies(), key=lambda card: card.kind), contained):
        [custom] = entry["CustomDeck"].values()
        back_of.setdefault(card.kind, set()).add(custom["BackURL"])
    assert all(len(urls) == 1 for urls in back_of.values())
    assert back_of["ingredient"] != back_of["recipe"]
    for pile in piles:
        assert {entry["BackURL"] for entry in pile["CustomDeck"].values()} == {
            next(iter(card["CustomDeck"].values()))["BackURL"] for card in pile["ContainedObjects"]}
    for kind, urls in back_of.items():
        file = built / "tts" / Path(next(iter(urls))).name
        red, green, _blue = Image.open(file).convert("RGB").getpixel((10, 10))
        assert (green > red) == (kind == "ingredient")
