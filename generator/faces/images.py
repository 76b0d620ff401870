"""Card images (PNG) for print services, previews and other outputs.

Images come from the same drawing code as the PDFs: the cards are drawn into a
PDF, a page each, and pdfium rasterises it (`raster`: later requests for the same
deck, such as the exports' smaller faces, reuse the drawn pages).
Pixel size = round((trim + 2 × bleed) / 25.4 × dpi) per side; profiles give the
exact sizes print services list (The Game Crafter poker: 825×1125 px).
"""

from __future__ import annotations

from collections import deque
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Iterable, Iterator

from PIL import Image

from ..core.errors import DeckgenError, OptionError
from ..core.files import read_text_input
from ..core.output import write_bytes, write_text
from ..deck.sizes import card_size_mm, check_length
from .check import require_printable
from .png import encode_png
from .raster import BackOf, draw_pages, drawn_bleed_mm, face_pages, own_backs, rasterise
from .service_specs import image_service

if TYPE_CHECKING:
    from ..core.progress import Advance
    from ..deck.model import Card, Deck

IMAGES_DIR = "images"
BACK_NAME = "back.png"
BACKS_DIR = "backs"  # images/backs/<card id>.png: the backs of cards whose back is their own
INCH = 25.4


def pixel_size(trim_mm: tuple[float, float], bleed_mm: float, dpi: int) -> tuple[int, int]:
    return tuple(round((side + 2 * bleed_mm) / INCH * dpi) for side in trim_mm)  # type: ignore[return-value]


def render_cards(deck: "Deck", cards: Iterable["Card | None"], dpi: int = 300, bleed_mm: float = 0.0,
                 trim_mm: tuple[float, float] | None = None) -> Iterator["Image"]:
    """One RGB image per card (None: the deck's back; `raster.BackOf(card)`: that card's own back),
    the card centred and its bleed filling the rest."""
    cards = list(cards)
    if not cards:
        return
    trim_mm = trim_mm or card_size_mm(deck)
    size = pixel_size(trim_mm, bleed_mm, dpi)
    faces = face_pages(deck, trim_mm, bleed_mm, dpi)
    for pixels in rasterise(faces, cards, size, dpi):
        yield Image.frombytes("RGB", size, pixels)


def card_image(deck: "Deck", card: "Card | None", dpi: int = 300, bleed_mm: float = 0.0) -> "Image":
    """One card's face (None: the deck's default back) as an RGB image at the deck's card size."""
    return next(render_cards(deck, [card], dpi, bleed_mm))


def card_pngs(deck: "Deck", cards: Iterable["Card | None"], dpi: int, bleed_mm: float = 3.0) -> list[bytes]:
    """PNG bytes of each card's face (None: the back) at `dpi` with `bleed_mm` around the trim,
    pixel for pixel the build's images at the same dpi and bleed, drawing only these cards
    (the live preview redraws the few that changed)."""
    cards = list(cards)
    if not cards:
        return []
    trim = card_size_mm(deck)
    size = pixel_size(trim, bleed_mm, dpi)
    faces = draw_pages(deck, trim, drawn_bleed_mm(bleed_mm, dpi), cards)
    return [encode_png(rows, *size, dpi) for rows in rasterise(faces, cards, size, dpi, row_prefix=1)]


def card_back_image(deck: "Deck", card: "Card", dpi: int = 300, bleed_mm: float = 0.0) -> "Image":
    """One card's own back (its back layout) as an RGB image at the deck's card size."""
    return next(render_cards(deck, [BackOf(card)], dpi, bleed_mm))


def resolve_profile(deck: "Deck", profile: str | None, dpi: int | None, bleed_mm: float | None
                    ) -> tuple[int, float, tuple[float, float]]:
    """(dpi, bleed, trim) from a profile name and/or explicit options (explicit options win)."""
    trim = card_size_mm(deck)
    if profile is None:
        return 300 if dpi is None else dpi, 3.0 if bleed_mm is None else bleed_mm, trim
    spec = image_service(profile)
    return spec.dpi if dpi is None else dpi, spec.bleed_mm if bleed_mm is None else bleed_mm, spec.trim_for(deck)


def write_images(deck: "Deck", out_dir: Path, dpi: int | None = None, bleed_mm: float | None = None,
                 profile: str | None = None, allow_low_res: bool = False,
                 advance: "Advance | None" = None, only: str | None = None) -> list[Path]:
    """Write images/<card id>.png for every distinct face, images/back.png (the deck's back) and
    images/backs/<card id>.png for each card with a back of its own; return the paths.
    `only` (a card's code, id or name) draws that one card's face and own back and nothing else.
    `advance(label, done, total)` is told of each image written (a progress bar)."""
    dpi, bleed_mm, trim = resolve_profile(deck, profile, dpi, bleed_mm)
    if not 30 <= dpi <= 1200:
        raise OptionError(f"--dpi {dpi} is out of range: give 30 to 1200")
    check_length("--bleed", bleed_mm, 20)
    card = None
    if only is not None:
        card = deck.find_card(only)
        if card is None:
            codes = ", ".join(c.code for c in deck.cards)
            raise OptionError(f"--card {only!r}: deck {deck.id!r} has no such card; codes: {codes}")
    return write_pngs(deck, out_dir / IMAGES_DIR, dpi, bleed_mm, trim, advance, allow_low_res, card)


# Beside each images folder (and a print service's folder), `.<folder>.written`: the names of the
# pictures deckgen wrote there, so that a later run removes its own stale pictures and nothing
# else. Kept outside the folder, which then holds exactly the pictures.
def _record_of(folder: Path) -> Path:
    return folder.parent / f".{folder.name}.written"


def write_pngs(deck: "Deck", folder: Path, dpi: int, bleed_mm: float, trim: tuple[float, float],
               advance: "Advance | None" = None, allow_low_res: bool = False,
               only: "Card | None" = None) -> list[Path]:
    """<card id>.png for every distinct face, back.png and backs/<card id>.png (cards with a back
    of their own) in `folder`, each trim plus bleed at `dpi`; `advance(label, done, total)` is told
    of each image written. Pictures a full run no longer writes (a renamed or removed card's) are
    removed, so the folder holds exactly the current cards. `only`: that card's face and own back."""
    clash = next((card for card in deck.cards if f"{card.id}.png" == BACK_NAME), None)
    if clash:
        raise DeckgenError(f"{deck.source}: card {clash.name!r} has the id 'back', which would overwrite "
                           f"{BACK_NAME}; give it another id in the deck file")
    require_printable(deck, *trim, allow_low_res=allow_low_res)
    own = own_backs(deck, trim)
    if only is not None:
        cards: list = [only] + [BackOf(only)] * (only in own)
        names = [f"{only.id}.png"] + [f"{BACKS_DIR}/{only.id}.png"] * (only in own)
    else:
        cards = list(deck.cards) + [None] + [BackOf(card) for card in own]
        names = [f"{card.id}.png" for card in deck.cards] + [BACK_NAME] + [f"{BACKS_DIR}/{card.id}.png" for card in own]
        _remove_stale(folder, set(names))
    _record_written(folder, names, whole=only is None)
    size = pixel_size(trim, bleed_mm, dpi)
    faces = face_pages(deck, trim, bleed_mm, dpi)
    # Compressing and writing release the GIL: they run on worker threads while the next card
    # renders. A few images in flight at most, so memory stays flat however large the deck.
    written: list[Path] = []
    pending: deque = deque()
    with ThreadPoolExecutor(max_workers=2) as pool:
        for name, rows in zip(names, rasterise(faces, cards, size, dpi, row_prefix=1)):
            pending.append(pool.submit(_save_png, folder / name, rows, size, dpi))
            if len(pending) > 3:
                written.append(pending.popleft().result())
                if advance:
                    advance(f"{deck.id}: images", len(written), len(names))
        written.extend(job.result() for job in pending)
    return written


def _written_before(folder: Path) -> set[str]:
    """The pictures deckgen wrote into `folder` (its record); none without one."""
    record = _record_of(folder)
    if not record.is_file() or record.is_symlink():
        return set()
    try:
        text = read_text_input(record, "output")
    except DeckgenError:  # an unreadable record: remove nothing rather than guess
        return set()
    return {line for line in text.splitlines() if line.endswith(".png") and ".." not in line.split("/")}


def _remove_stale(folder: Path, current: set[str]) -> None:
    """Remove the PNGs deckgen wrote for cards the deck no longer has (renamed or removed). Only
    names in the folder's record of what deckgen wrote are removed: a picture someone else put
    in the folder stays."""
    for name in sorted(_written_before(folder) - current):
        path = folder / name
        if path.is_file() and not path.is_symlink():
            path.unlink()


def _record_written(folder: Path, names: list[str], whole: bool) -> None:
    """Remember which pictures deckgen wrote here: a whole run's names, or (one card drawn) the
    names before and this card's."""
    written = set(names) if whole else _written_before(folder) | set(names)
    write_text(_record_of(folder), "".join(f"{name}\n" for name in sorted(written)))


def _save_png(path: Path, rows: bytearray, size: tuple[int, int], dpi: int) -> Path:
    return write_bytes(path, encode_png(rows, *size, dpi))


def build_images(deck: "Deck", out_dir: Path) -> list[Path]:
    """Build step: 300-dpi images with 3 mm bleed."""
    return write_images(deck, out_dir)
