"""Floor for `deckgen print`: a minimal reportlab script drawing a playing-card deck's print
sheets with the same fonts, no deckgen code at all.

Run: python benchmarks/floor_print.py DECK.toml OUT.pdf
Reads the deck file with tomllib and draws what `deckgen print` draws for a suited deck such
as Wizard, in the most direct reportlab calls: each distinct face and the back once, as a
form, with its bleed (white paper, both corner indices, the pips of number cards, a framed
double-ended figure on the courts, a picture of a wizard or a jester above the deck's own
cards' name, text and flavour in the serif faces: benchmarks/floor_pictures.py, as much vector
work as deckgen's pictures); A4 sheets of cards in a grid with a gutter of two bleeds, crop
marks, a caption, each faces page followed by its backs page; the DejaVu fonts embedded and
subset, deterministic output, binary (not ASCII85) streams, as deckgen's. It has no layouts,
text fitting, checks or options: what is left is the cost of reportlab drawing and writing the
same kind of PDF, which `benchmarks/bench_render.py` compares `deckgen print` with.
benchmarks/floor_images.py draws its card pages with `draw_card_pages` here.
"""

from __future__ import annotations

import io
import sys
import tomllib
from pathlib import Path

from reportlab import rl_config
from reportlab.lib.pagesizes import A4, landscape
from reportlab.lib.units import mm
from reportlab.lib.utils import simpleSplit
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

sys.path.insert(0, str(Path(__file__).resolve().parent))
import floor_pictures as pictures  # noqa: E402

FONTS = Path(__file__).resolve().parents[1] / "generator" / "fonts"
CARD_W, CARD_H, BLEED, GAP, MARGIN = 63 * mm, 88 * mm, 3 * mm, 6 * mm, 6 * mm
# Pip centres of the number cards, as (column 0-2, row 0-6) of the pip box.
PIPS = {2: [(1, 0), (1, 6)], 3: [(1, 0), (1, 3), (1, 6)], 4: [(0, 0), (2, 0), (0, 6), (2, 6)],
        5: [(0, 0), (2, 0), (1, 3), (0, 6), (2, 6)], 6: [(0, 0), (2, 0), (0, 3), (2, 3), (0, 6), (2, 6)],
        7: [(0, 0), (2, 0), (1, 1.5), (0, 3), (2, 3), (0, 6), (2, 6)],
        8: [(0, 0), (2, 0), (1, 1.5), (0, 3), (2, 3), (1, 4.5), (0, 6), (2, 6)],
        9: [(0, 0), (2, 0), (0, 2), (2, 2), (1, 3), (0, 4), (2, 4), (0, 6), (2, 6)],
        10: [(0, 0), (2, 0), (1, 1), (0, 2), (2, 2), (0, 4), (2, 4), (1, 5), (0, 6), (2, 6)]}


def register_fonts() -> None:
    for name, file in (("Serif-Bold", "DejaVuSerif-Bold.ttf"), ("Sans", "DejaVuSans.ttf"),
                       ("Serif", "DejaVuSerif.ttf"), ("Serif-Italic", "DejaVuSerif-Italic.ttf")):
        pdfmetrics.registerFont(TTFont(name, str(FONTS / file)))


def cards(deck: dict) -> list[dict]:
    """Every distinct card: suit x rank, then the deck's own cards; each with its count."""
    suited = [{"id": f"{rank['id']}-{suit['id']}", "label": rank["code"], "glyph": suit["symbol"],
               "color": suit["color"], "value": rank.get("value"), "kind": rank.get("kind"), "count": 1}
              for suit in deck.get("suits", []) for rank in deck.get("ranks", [])]
    own = [{"id": card["id"], "label": card.get("corner", card["name"][:1]), "glyph": "★", "color": "#23255e",
            "value": None, "kind": card.get("kind"), "name": card["name"], "count": card.get("count", 1),
            "text": card.get("text", ""), "flavor": card.get("flavor", "")}
           for card in deck.get("cards", [])]
    return suited + own


def index(canvas: Canvas, card: dict) -> None:
    canvas.setFillColor(card["color"])
    canvas.setFont("Serif-Bold", 15)
    canvas.drawCentredString(3.4 * mm + 8, CARD_H - 10.5 - 13, card["label"])
    canvas.setFont("Sans", 10.5)
    canvas.drawCentredString(3.4 * mm + 8, CARD_H - 10.5 - 24, card["glyph"])


def face(canvas: Canvas, card: dict) -> None:
    canvas.setFillColor("#ffffff")
    canvas.rect(-BLEED, -BLEED, CARD_W + 2 * BLEED, CARD_H + 2 * BLEED, stroke=0, fill=1)
    for turned in (False, True):
        canvas.saveState()
        if turned:
            canvas.translate(CARD_W, CARD_H)
            canvas.rotate(180)
        index(canvas, card)
        canvas.restoreState()
    canvas.setFillColor(card["color"])
    box_x, box_y, box_w, box_h = 0.3 * CARD_W, 0.2 * CARD_H, 0.4 * CARD_W, 0.6 * CARD_H
    value = card["value"]
    if card["kind"] == "number" and value in PIPS:
        size = 0.095 * CARD_H
        canvas.setFont("Sans", size)
        for column, row in PIPS[value]:
            x, y = box_x + column * box_w / 2, box_y + box_h - row * box_h / 6
            canvas.saveState()
            canvas.translate(x, y)
            if row > 3:
                canvas.rotate(180)
            canvas.drawCentredString(0, -size * 0.35, card["glyph"])
            canvas.restoreState()
        return
    canvas.setStrokeColor(card["color"])
    canvas.setLineWidth(0.9)
    if card["kind"] == "court":  # a double-ended figure in the frame
        pictures.court(canvas, card["label"], 0.215 * CARD_W, 0.1 * CARD_H, 0.57 * CARD_W, 0.8 * CARD_H,
                       card["color"], card["glyph"])
        canvas.rect(0.215 * CARD_W, 0.1 * CARD_H, 0.57 * CARD_W, 0.8 * CARD_H, stroke=1, fill=0)
        return
    if card["kind"] in ("wizard", "jester"):  # a picture above the card's name and text
        box = (0.215 * CARD_W, 0.42 * CARD_H, 0.57 * CARD_W, 0.48 * CARD_H)
        if card["kind"] == "wizard":
            pictures.wizard(canvas, *box, card["color"])
        else:
            pictures.jester(canvas, *box, "#2e7d32", "#c2362f")
        canvas.setStrokeColor(card["color"])
        canvas.rect(*box, stroke=1, fill=0)
        canvas.setFillColor(card["color"])
        canvas.rect(box[0], box[1], box[2], 0.06 * CARD_H, stroke=0, fill=1)
        canvas.setFillColor("#ffffff")
        canvas.setFont("Serif-Bold", 9)
        canvas.drawCentredString(CARD_W / 2, box[1] + 0.02 * CARD_H, card["name"].upper())
        _card_text(canvas, card)
        return
    canvas.rect(0.215 * CARD_W, 0.1 * CARD_H, 0.57 * CARD_W, 0.8 * CARD_H, stroke=1, fill=0)
    size = 0.3 * CARD_H if value == 14 else 0.2 * CARD_H
    canvas.setFont("Sans", size)
    canvas.drawCentredString(CARD_W / 2, CARD_H / 2 - size * 0.35, card["glyph"])
    if value != 14:
        canvas.setFont("Serif-Bold", 28)
        canvas.drawCentredString(CARD_W / 2, 0.72 * CARD_H, card["label"])
        canvas.setFont("Serif-Bold", 9)
        canvas.drawCentredString(CARD_W / 2, 0.14 * CARD_H, card.get("name", card["label"]).upper())
    _card_text(canvas, card)


def _card_text(canvas: Canvas, card: dict) -> None:
    """A card's own text and flavour, wrapped in the serif faces under its picture."""
    y = 0.36 * CARD_H
    for font, text in (("Serif", card.get("text", "")), ("Serif-Italic", card.get("flavor", ""))):
        canvas.setFillColor("#222222")
        canvas.setFont(font, 6.5)
        for line in simpleSplit(text, font, 6.5, 0.7 * CARD_W):
            canvas.drawCentredString(CARD_W / 2, y, line)
            y -= 7.8


def back(canvas: Canvas, deck: dict) -> None:
    colors = deck.get("back", {})
    ground, accent = colors.get("color", "#23255e"), colors.get("accent", "#d9b44a")
    canvas.setFillColor(ground)
    canvas.rect(-BLEED, -BLEED, CARD_W + 2 * BLEED, CARD_H + 2 * BLEED, stroke=0, fill=1)
    canvas.setStrokeColor("#5e5a5a")
    canvas.setLineWidth(0.4)
    step, extent = 11, CARD_W + CARD_H + 4 * BLEED
    path = canvas.beginPath()
    offset = -extent
    while offset < extent:  # the diamond pattern: two families of diagonals across the bleed box
        path.moveTo(-BLEED + offset, -BLEED)
        path.lineTo(-BLEED + offset + extent, -BLEED + extent)
        path.moveTo(-BLEED + offset, CARD_H + BLEED)
        path.lineTo(-BLEED + offset + extent, CARD_H + BLEED - extent)
        offset += step
    canvas.drawPath(path, stroke=1, fill=0)
    canvas.setStrokeColor(accent)
    canvas.setLineWidth(1.4)
    canvas.roundRect(9, 9, CARD_W - 18, CARD_H - 18, 5, stroke=1, fill=0)
    canvas.setLineWidth(0.5)
    canvas.roundRect(11.6, 11.6, CARD_W - 23.2, CARD_H - 23.2, 3.5, stroke=1, fill=0)
    width, height = 0.72 * CARD_W, 0.34 * CARD_H
    canvas.setFillColor(ground)
    canvas.setLineWidth(1.4)
    canvas.ellipse(CARD_W / 2 - width / 2, CARD_H / 2 - height / 2, CARD_W / 2 + width / 2, CARD_H / 2 + height / 2,
                   stroke=1, fill=1)
    canvas.setLineWidth(0.5)
    canvas.ellipse(CARD_W / 2 - width / 2 + 3, CARD_H / 2 - height / 2 + 3, CARD_W / 2 + width / 2 - 3,
                   CARD_H / 2 + height / 2 - 3, stroke=1, fill=0)
    canvas.setFillColor(accent)
    for y in (0.3708 * CARD_H, 0.6292 * CARD_H):
        star = canvas.beginPath()
        for point in range(10):
            import math

            radius = 4 if point % 2 == 0 else 1.6
            angle = math.pi / 2 + point * math.pi / 5
            (star.moveTo if point == 0 else star.lineTo)(CARD_W / 2 + radius * math.cos(angle),
                                                         y + radius * math.sin(angle))
        star.close()
        canvas.drawPath(star, stroke=0, fill=1)
    canvas.setFont("Serif-Bold", 20)
    canvas.drawCentredString(CARD_W / 2, 0.49 * CARD_H, colors.get("title", "DECK"))
    canvas.setFillColor("#ecdcb0")
    canvas.setFont("Sans", 6)
    canvas.drawCentredString(CARD_W / 2, 0.43 * CARD_H, colors.get("subtitle", ""))


def grid(page_w: float, page_h: float) -> tuple[int, int]:
    pitch_w, pitch_h = CARD_W + 2 * BLEED + GAP - 2 * BLEED, CARD_H + 2 * BLEED + GAP - 2 * BLEED
    columns = int((page_w - 2 * MARGIN - 2 * BLEED + GAP) // (pitch_w + 0.001))
    rows = int((page_h - 2 * MARGIN - 2 * BLEED + GAP) // (pitch_h + 0.001))
    return columns, rows


def draw_card_pages(deck_file: Path, drawn_bleed_mm: float) -> bytes:
    """A PDF of every distinct face, then the back, a page each: trim plus `drawn_bleed_mm` around
    it (the pages `deckgen images` rasterises)."""
    deck = tomllib.loads(deck_file.read_text(encoding="utf-8"))
    register_fonts()
    bleed = drawn_bleed_mm * mm
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(CARD_W + 2 * bleed, CARD_H + 2 * bleed), invariant=1, pageCompression=1,
                    initialFontName="Sans")
    for card in cards(deck) + [None]:
        canvas.translate(bleed, bleed)
        if card is None:
            back(canvas, deck)
        else:
            face(canvas, card)
        canvas.showPage()
    rl_config.useA85 = 0
    canvas.save()
    return buffer.getvalue()


def main() -> None:
    deck = tomllib.loads(Path(sys.argv[1]).read_text(encoding="utf-8"))
    register_fonts()
    page = max((A4, landscape(A4)), key=lambda size: grid(*size)[0] * grid(*size)[1])
    columns, rows = grid(*page)
    pitch_x, pitch_y = CARD_W + GAP, CARD_H + GAP
    left = (page[0] - (columns * pitch_x - GAP)) / 2
    bottom = (page[1] - (rows * pitch_y - GAP)) / 2
    canvas = Canvas(sys.argv[2], pagesize=page, invariant=1, pageCompression=1, initialFontName="Sans")
    distinct = cards(deck)
    for card in distinct:
        canvas.beginForm(card["id"], -BLEED, -BLEED, CARD_W + BLEED, CARD_H + BLEED)
        face(canvas, card)
        canvas.endForm()
    canvas.beginForm("back", -BLEED, -BLEED, CARD_W + BLEED, CARD_H + BLEED)
    back(canvas, deck)
    canvas.endForm()
    copies = [card for card in distinct for _ in range(card["count"])]
    per_sheet = columns * rows
    for start in range(0, len(copies), per_sheet):
        sheet = copies[start:start + per_sheet]
        for side in ("faces", "backs"):
            for number, card in enumerate(sheet):
                row, column = divmod(number, columns)
                if side == "backs":
                    column = columns - 1 - column  # long-edge duplex: mirrored left to right
                x, y = left + column * pitch_x, page[1] - bottom - (row + 1) * pitch_y + GAP
                canvas.saveState()
                clip = canvas.beginPath()
                clip.rect(x - BLEED, y - BLEED, CARD_W + 2 * BLEED, CARD_H + 2 * BLEED)
                canvas.clipPath(clip, stroke=0, fill=0)
                canvas.translate(x, y)
                canvas.doForm(card["id"] if side == "faces" else "back")
                canvas.restoreState()
                if side == "faces":  # crop marks at the four corners, outside the bleed
                    canvas.setLineWidth(0.3)
                    for cx in (x, x + CARD_W):
                        for cy in (y, y + CARD_H):
                            outward = -1 if cy == y else 1
                            canvas.line(cx, cy + outward * (BLEED + 1), cx, cy + outward * (BLEED + 4))
            canvas.setFont("Sans", 6)
            canvas.setFillColor("#8a8a8a")
            canvas.drawCentredString(page[0] / 2, 8, f"{deck['deck']['name']} · sheet {start // per_sheet + 1} · {side}")
            canvas.showPage()
    rl_config.useA85 = 0
    canvas.save()


if __name__ == "__main__":
    main()
