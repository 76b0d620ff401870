"""The Game Crafter's poker tuck box: the upload image for `deckgen tuckbox DECK --service tgc`.

The Game Crafter (TGC) prints a tuck box from one 2325×1950 px image at 300 ppi, its art kept
inside the safe zones of TGC's template. The geometry here is taken, as numbers only, from the
built-in layout `lib/squib/builtin/layouts/tuck_box.yml` of Squib (github.com/andymeneely/squib,
MIT licence; added in Squib 0.8.0, 2015), whose comment says its rectangles are TGC's safe zones
for tuck boxes at 2325×1950 px. The front panel's safe zone with the margins between zones taken
as folds is about 64×90 mm: a box for poker cards (2.5×3.5 in). The source names no card count.

The image is drawn like the print-and-play box (generator.printing.tuckbox): the deck's back
colour fills the whole image (TGC's bleed and the margins between zones), the deck's back sits
on the back panel, the title, a card, the players and the card count on the front, the title
up both sides and on the lid flap (turned to read from the front), the players on the bottom
flap. Nothing is drawn outside a safe zone: each piece of text is shrunk to its box (a long
title set on two lines) and the box where its ink lands is checked against its zone (and the
front's thumb notch) before it is drawn; text that would print too small to read is refused,
naming the field to shorten. No cut or fold lines: TGC's template draws those, and they are
not part of the upload.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from reportlab.pdfbase.pdfmetrics import getAscentDescent
from reportlab.pdfgen.canvas import Canvas

from ..core.errors import DeckgenError, OptionError
from ..core.output import write_bytes
from ..core.typography import smarten
from ..deck.sizes import pt
from ..faces import fonts, paint
from ..faces.cards import draw_back, draw_face
from ..faces.check import require_printable
from ..faces.png import encode_png
from ..faces.raster import FacePages, rasterise
from .tuckbox import cover_card, players_line

if TYPE_CHECKING:
    from ..deck.model import Deck

DPI = 300
IMAGE_PX = (2325, 1950)
PX_PT = 72 / DPI  # one pixel of the image in PDF points
MM_PER_PX = 25.4 / DPI
POKER_SIZES = ("poker", "poker-in")  # TGC prints both as 2.5×3.5 in (generator.faces.service_specs)
POKER_IN_MM = (63.5, 88.9)
MIN_TEXT_PT = 5.0  # smaller than this does not read on a box
# The sides' safe zones are 164 px wide; with the margin to each neighbouring zone taken as a
# fold (72-79 px between zones), the side panel is about 240 px: the box's inside depth, roughly.
DEPTH_ESTIMATE_MM = 240 * MM_PER_PX


@dataclass(frozen=True)
class Box:
    """A rectangle in image pixels, from the image's top-left corner, y down."""

    x: float
    y: float
    width: float
    height: float

    def inside(self, other: "Box") -> bool:
        slack = 0.01  # px: rounding in the point-to-pixel round trip
        return (other.x - slack <= self.x and self.x + self.width <= other.x + other.width + slack
                and other.y - slack <= self.y and self.y + self.height <= other.y + other.height + slack)

    def overlaps_columns(self, left: float, right: float) -> bool:
        return self.x < right and left < self.x + self.width

    @property
    def pdf(self) -> tuple[float, float, float, float]:
        """(x, y, width, height) in points on the page, y up from the bottom-left corner."""
        return (self.x * PX_PT, (IMAGE_PX[1] - self.y - self.height) * PX_PT, self.width * PX_PT, self.height * PX_PT)


# TGC's safe zones (Squib's tuck_box.yml: top_rect, bottom_rect, right_rect, left_rect, back_rect,
# front_rect). Left to right: side, back, side, front; the lid and bottom flaps above and below the back.
ZONES: dict[str, Box] = {
    "lid flap": Box(313, 198, 688, 167),
    "bottom flap": Box(313, 1526, 688, 167),
    "left side": Box(77, 466, 164, 988),
    "back": Box(313, 466, 688, 989),
    "right side": Box(1080, 466, 164, 988),
    "front": Box(1322, 466, 688, 989),
}
# The thumb notch cut into the front's top edge (Squib's front_curve): a cubic Bézier from
# (1550, 466) to (1765, 466) with control points (1575, 565) and (1740, 565); its lowest point
# is 466 + 3/4 × 99 px. Nothing on the front may reach into it.
NOTCH_COLUMNS = (1550, 1765)
NOTCH_BOTTOM = 466 + 0.75 * 99

# Where each piece goes, inside its zone (px). The front: title under the notch, the card, then
# two lines. Each text box is the most its text may fill; text is centred in it.
FRONT_TITLE = Box(1346, 556, 640, 92)
FRONT_CARD = Box(1346, 662, 640, 668)
FRONT_PLAYERS = Box(1346, 1342, 640, 46)
FRONT_COUNT = Box(1346, 1394, 640, 40)
LID_TITLE = Box(337, 214, 640, 135)
BOTTOM_LINE = Box(337, 1556, 640, 107)
SIDE_INSET = (14, 24)  # across and along a side


def tuck_box_service(name: str) -> str:
    """The service name, checked: only TGC's template is built."""
    if name != "tgc":
        raise OptionError(
            f"--service {name!r}: deckgen builds one print service's tuck box, tgc (The Game Crafter's poker "
            "tuck box, a 2325×1950 px image). DriveThruCards' (dtc) and MakePlayingCards' (mpc) tuck-box "
            "templates are published as files deckgen could not read, so they are not built; leave out "
            "--service for the print-and-play sheet")
    return name


def require_poker(deck: "Deck") -> None:
    size = deck.card_size
    if size.name not in POKER_SIZES:
        raise OptionError(
            f"The Game Crafter's poker tuck box holds poker cards ({POKER_IN_MM[0]:g}×{POKER_IN_MM[1]:g} mm, "
            f"card_size poker or poker-in); deck {deck.id!r} has {size.name} cards "
            f"({size.width_mm:g}×{size.height_mm:g} mm): leave out --service for a print-and-play box "
            "sized to these cards")


def capacity_warning(deck: "Deck") -> str | None:
    """A warning when the stacked cards look thicker than the box is deep (an estimate: the source
    gives the safe zones, not a card count)."""
    stack = deck.total * deck.tuck_box.stock_mm
    if stack <= DEPTH_ESTIMATE_MM:
        return None
    return (f"warning: {deck.total} cards of {deck.tuck_box.stock_mm:g} mm ([tuck_box] stock_mm) stack "
            f"{stack:.1f} mm, more than the about {DEPTH_ESTIMATE_MM:.0f} mm depth the template's side panels "
            "suggest; check the card count on The Game Crafter's tuck box product before ordering")


def tgc_tuck_box_png(deck: "Deck") -> bytes:
    """The upload image: 2325×1950 px RGB PNG, 300 ppi recorded, the same bytes for the same deck."""
    require_poker(deck)
    card_mm = (deck.card_size.width_mm, deck.card_size.height_mm)
    require_printable(deck, *card_mm)
    page = (IMAGE_PX[0] * PX_PT, IMAGE_PX[1] * PX_PT)
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=page, invariant=1, pageCompression=1, initialFontName=fonts.font("sans"))
    canvas.setTitle(f"{deck.name}: The Game Crafter poker tuck box")
    canvas.setCreator("deckgen")
    canvas.setProducer("deckgen")
    _draw(canvas, deck, card_mm)
    canvas.showPage()
    canvas.save()
    # One page, rasterised by the card images' renderer: it asks for "the back" page of a FacePages.
    faces = FacePages(("tgc-tuckbox", deck.id), tuple(side * MM_PER_PX for side in IMAGE_PX), 0.0,  # type: ignore[arg-type]
                      {"back": 0}, buffer.getvalue())
    rows = next(rasterise(faces, [None], IMAGE_PX, DPI, row_prefix=1))
    return encode_png(rows, *IMAGE_PX, DPI)


def write_tgc_tuck_box(deck: "Deck", out_dir: Path) -> Path:
    return write_bytes(out_dir / f"{deck.id}-tuckbox-tgc.png", tgc_tuck_box_png(deck))


def _draw(canvas, deck: "Deck", card_mm: tuple[float, float]) -> None:
    colour = deck.back.color
    paint.fill_rect(canvas, 0, 0, IMAGE_PX[0] * PX_PT, IMAGE_PX[1] * PX_PT, colour)  # bleed and margins
    ink = paint.ink_on(colour)
    title = smarten(deck.tuck_box.title or deck.name)
    title_field = "[tuck_box] title" if deck.tuck_box.title else "[deck] name"
    players = smarten(deck.tuck_box.subtitle) or players_line(deck)
    players_field = "[tuck_box] subtitle" if deck.tuck_box.subtitle else "the players line"
    _card(canvas, "back", ZONES["back"], card_mm, lambda w, h: draw_back(canvas, deck, 0, 0, w, h))
    _line(canvas, title, title_field, "serif-bold", "front", FRONT_TITLE, 18, ink, wrap=True)
    card = cover_card(deck)
    _card(canvas, "front", FRONT_CARD, card_mm, lambda w, h: draw_face(canvas, deck, card, 0, 0, w, h))
    _line(canvas, players, players_field, "sans", "front", FRONT_PLAYERS, 9, ink)
    _line(canvas, f"{deck.total} cards", "the card count", "sans", "front", FRONT_COUNT, 7, ink)
    across, along = SIDE_INSET
    for side in ("left side", "right side"):
        zone = ZONES[side]
        box = Box(zone.x + across, zone.y + along, zone.width - 2 * across, zone.height - 2 * along)
        _line(canvas, title, title_field, "serif-bold", side, box, 14, ink, turn=90)
    # The lid folds over the top from the back panel, so its text is turned to read from the front.
    _line(canvas, title, title_field, "serif-bold", "lid flap", LID_TITLE, 16, ink, turn=180, wrap=True)
    _line(canvas, f"{players} · {deck.total} cards", players_field, "sans", "bottom flap", BOTTOM_LINE, 9, ink)


def _require_inside(zone_name: str, ink: Box, what: str) -> None:
    """The guard every drawn piece passes: its ink inside its safe zone, clear of the thumb notch."""
    zone = ZONES[zone_name]
    in_notch = zone_name == "front" and ink.y < NOTCH_BOTTOM and ink.overlaps_columns(*NOTCH_COLUMNS)
    if not ink.inside(zone) or in_notch:
        raise DeckgenError(f"The Game Crafter tuck box: {what} would leave the {zone_name}'s safe zone "
                           f"({zone.x:g},{zone.y:g} {zone.width:g}×{zone.height:g} px) at "
                           f"({ink.x:.0f},{ink.y:.0f} {ink.width:.0f}×{ink.height:.0f} px)")


def _card(canvas, zone_name: str, box: Box, card_mm: tuple[float, float], draw: Callable[[float, float], None]) -> None:
    """A whole card, scaled to fit `box` and centred in it (the layout drawn at the card's own
    size, so it looks as printed on the card), clipped to its edges."""
    width, height = pt(card_mm[0]), pt(card_mm[1])
    x, y, box_w, box_h = box.pdf
    scale = min(box_w / width, box_h / height)
    left, bottom = x + (box_w - width * scale) / 2, y + (box_h - height * scale) / 2
    drawn = Box(left / PX_PT, IMAGE_PX[1] - (bottom + height * scale) / PX_PT, width * scale / PX_PT,
                height * scale / PX_PT)
    _require_inside(zone_name, drawn, "the card" if zone_name == "front" else "the deck's back")
    canvas.saveState()
    paint.clip_to(canvas, left, bottom, width * scale, height * scale)
    canvas.translate(left, bottom)
    canvas.scale(scale, scale)
    draw(width, height)
    canvas.restoreState()


@dataclass(frozen=True)
class Lines:
    """Text broken into lines, each as (face, text) runs the faces can draw, and its metrics per point of size."""

    runs: tuple[tuple[tuple[str, str], ...], ...]
    widths: tuple[float, ...]  # each line's advance at 1 pt
    ascent: float
    descent: float  # negative

    @classmethod
    def of(cls, face: str, lines: list[str]) -> "Lines":
        runs = tuple(tuple(fonts.split_runs(face, line)) for line in lines)  # a character the face lacks: its sans twin
        bands = [getAscentDescent(fonts.font(run_face), 1.0) for line in runs for run_face, _ in line]
        widths = tuple(sum(fonts.width(run_face, part, 1.0) for run_face, part in line) for line in runs)
        return cls(runs, widths, max(a for a, _ in bands), min(d for _, d in bands))

    @property
    def band(self) -> float:
        return self.ascent - self.descent

    def height(self) -> float:
        """The block's height at 1 pt: one band, and a leading for each further line."""
        return self.band * (1 + LEADING * (len(self.runs) - 1))

    def size_in(self, length_pt: float, across_pt: float, largest_pt: float) -> float:
        return min(largest_pt, length_pt / max(self.widths), across_pt / self.height())


LEADING = 1.1  # line pitch, in bands
WRAP_BELOW = 0.6  # a title shrunk under this share of its size is tried on two lines


def _halves(text: str) -> list[str] | None:
    """The text in two lines, broken at the space nearest its middle (None: one word)."""
    words = text.split()
    if len(words) < 2:
        return None
    breaks = [(abs(len(" ".join(words[:i])) - len(" ".join(words[i:]))), i) for i in range(1, len(words))]
    cut = min(breaks)[1]
    return [" ".join(words[:cut]), " ".join(words[cut:])]


def _line(canvas, text: str, field: str, face: str, zone_name: str, box: Box, largest_pt: float, colour: str,
          turn: int = 0, wrap: bool = False) -> None:
    """Text centred in `box` at `largest_pt`, shrunk to fit its length and height, on two lines
    when `wrap` and that prints it larger; `turn` 90 reads up the box (a side panel), 180 upside
    down (the lid, read from the front). Refused when it would print under MIN_TEXT_PT."""
    if not text.strip():
        return
    missing = fonts.missing(face, text)
    if missing:
        raise OptionError(f"{field} {text!r}: the tuck box's font cannot draw {', '.join(map(repr, missing))}")
    length, across = (box.height, box.width) if turn == 90 else (box.width, box.height)
    lines = Lines.of(face, [text])
    size = lines.size_in(length * PX_PT, across * PX_PT, largest_pt)
    halves = _halves(text) if wrap and size < WRAP_BELOW * largest_pt else None
    if halves:
        two = Lines.of(face, halves)
        if two.size_in(length * PX_PT, across * PX_PT, largest_pt) > size:
            lines, size = two, two.size_in(length * PX_PT, across * PX_PT, largest_pt)
    if size < MIN_TEXT_PT:
        raise OptionError(f"{field} {text!r} is too long for The Game Crafter tuck box's {zone_name}: it would "
                          f"print at {size:.1f} pt, under {MIN_TEXT_PT:g} pt; give a shorter one "
                          "([tuck_box] title and subtitle are for the box)")
    run, block = max(lines.widths) * size / PX_PT, lines.height() * size / PX_PT
    centre_x, centre_y = box.x + box.width / 2, box.y + box.height / 2
    ink = (Box(centre_x - block / 2, centre_y - run / 2, block, run) if turn == 90
           else Box(centre_x - run / 2, centre_y - block / 2, run, block))
    _require_inside(zone_name, ink, field)
    canvas.saveState()
    paint.set_fill(canvas, colour)
    canvas.translate(centre_x * PX_PT, (IMAGE_PX[1] - centre_y) * PX_PT)
    canvas.rotate(turn)
    pitch = lines.band * LEADING * size
    # The first line's band centre sits half the block's height less half a band above the middle.
    first_centre = (lines.height() - lines.band) * size / 2
    for index, (line, width) in enumerate(zip(lines.runs, lines.widths)):
        x, baseline = -width * size / 2, first_centre - index * pitch - (lines.ascent + lines.descent) / 2 * size
        for run_face, part in line:
            canvas.setFont(fonts.font(run_face), size)
            canvas.drawString(x, baseline, part)
            x += fonts.width(run_face, part, size)
    canvas.restoreState()
