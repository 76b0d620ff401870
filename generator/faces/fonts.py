"""The fonts cards are drawn with: DejaVu TTFs shipped in generator/fonts/, and a deck's
own TTF/OTF files (`[[fonts]]`), all embedded and subset.

Fonts are registered with reportlab on first use. A face key names a family and a
style ("serif-bold"; a deck family gets a key of its own, see `family_key`). `font_for`
picks, for each character, the requested face or (for symbols the DejaVu serif lacks)
the sans face of the same style; a deck font has no stand-in, so a character it lacks
is reported by `missing`, because reportlab would silently print an empty box.
"""

from __future__ import annotations

import struct
import zlib
from functools import lru_cache
from pathlib import Path

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.pdfmetrics import stringWidth

from . import pdfforms  # noqa: F401 - every PDF deckgen draws text in: forms keep their resources
from .fontcache import load_ttfont

FONT_DIR = Path(__file__).resolve().parent.parent / "fonts"

# Face key -> TTF file. Keys name a family and a style.
FACES: dict[str, str] = {
    "sans": "DejaVuSans.ttf",
    "sans-bold": "DejaVuSans-Bold.ttf",
    "sans-italic": "DejaVuSans-Oblique.ttf",
    "sans-bolditalic": "DejaVuSans-BoldOblique.ttf",
    "serif": "DejaVuSerif.ttf",
    "serif-bold": "DejaVuSerif-Bold.ttf",
    "serif-italic": "DejaVuSerif-Italic.ttf",
    "serif-bolditalic": "DejaVuSerif-BoldItalic.ttf",
}


STYLES = ("regular", "bold", "italic", "bolditalic")
# Face key -> file of a deck's own font (registered by `family_key`).
DECK_FACES: dict[str, Path] = {}


def family_key(deck, family: str) -> str:
    """The face key prefix for a family: serif and sans are DejaVu; others come from the deck's [[fonts]].

    Keys of deck fonts carry a hash of the files, so two decks may both call a family
    "Body" without one drawing with the other's font. Styles a deck does not give fall back
    to its regular file."""
    if family in ("serif", "sans"):
        return family
    for declared in getattr(deck, "fonts", ()):
        if declared.family == family:
            files = [declared.files.get(style) for style in STYLES]
            tag = zlib.crc32("|".join(str(f) for f in files).encode()) & 0xFFFFFF
            key = f"deck{tag:06x}"
            regular = declared.files["regular"]
            for style in STYLES:
                path = declared.files.get(style) or declared.files.get("bold" if style == "bolditalic" else "") \
                    or regular
                DECK_FACES[key if style == "regular" else f"{key}-{style}"] = Path(path)
            return key
    return "serif"


def styled_face(base: str, bold: bool, italic: bool) -> str:
    """The face key of a family's face key in a style ("serif", bold -> "serif-bold")."""
    suffix = ("bold" if bold else "") + ("italic" if italic else "")
    return f"{base}-{suffix}" if suffix else base


def _file_of(face: str) -> Path:
    if face in DECK_FACES:
        return DECK_FACES[face]
    return FONT_DIR / FACES[face]


def _sans_twin(face: str) -> str:
    return face.replace("serif", "sans", 1) if face in FACES else face


@lru_cache(maxsize=None)
def _ttfont(face: str):

    font = load_ttfont(font_name_of(face), _file_of(face))  # parsed once, then kept between runs
    pdfmetrics.registerFont(font)
    return font


def font_name_of(face: str) -> str:
    """The reportlab font name of a face key (without registering it)."""
    return ("DeckgenDejaVu-" if face in FACES else "Deckgen-") + face


def font(face: str) -> str:
    """Register a face (once) and return the reportlab font name to draw with."""
    _ttfont(face)
    return font_name_of(face)


def covers(face: str, char: str) -> bool:
    return ord(char) in _ttfont(face).face.charToGlyph


def font_for(face: str, char: str) -> str | None:
    """The face that draws `char`: the requested one, else its sans twin, else None."""
    if char.isspace() or covers(face, char):
        return face
    twin = _sans_twin(face)
    if twin != face and covers(twin, char):
        return twin
    return None


def missing(face: str, text: str) -> list[str]:
    """Characters of `text` that neither `face` nor its sans twin can draw, in order, once each."""
    found: list[str] = []
    for char in text:
        if char not in found and font_for(face, char) is None:
            found.append(char)
    return found


def split_runs(face: str, text: str) -> list[tuple[str, str]]:
    """Split text into (face, text) runs so each run is drawable by its face (missing chars keep `face`)."""
    runs: list[tuple[str, str]] = []
    for char in text:
        chosen = font_for(face, char) or face
        if runs and runs[-1][0] == chosen:
            runs[-1] = (chosen, runs[-1][1] + char)
        else:
            runs.append((chosen, char))
    return runs


def width(face: str, text: str, size: float) -> float:
    """Advance width of `text` drawn in one face at `size` points."""
    return stringWidth(text, font(face), size)


@lru_cache(maxsize=None)
def glyph_box(face: str, char: str) -> tuple[float, float, float, float]:
    """Ink box (xmin, ymin, xmax, ymax) of one glyph, in ems: to centre symbols exactly.

    Read from the glyph's header in the font reportlab has already loaded to draw with (its
    cmap, glyph offsets and bytes), so no second parse of the font is needed."""
    parsed = _ttfont(face).face
    glyph = parsed.charToGlyph.get(ord(char))
    if glyph is None or parsed.glyphPos[glyph + 1] == parsed.glyphPos[glyph]:
        return (0.0, 0.0, 0.0, 0.0)  # no such glyph, or one without an outline (a space)
    start = parsed.table["glyf"]["offset"] + parsed.glyphPos[glyph]
    _contours, xmin, ymin, xmax, ymax = struct.unpack(">hhhhh", parsed._ttf_data[start:start + 10])
    units = parsed.unitsPerEm
    return (xmin / units, ymin / units, xmax / units, ymax / units)
