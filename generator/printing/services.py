"""Files for print services (`deckgen print DECK --service NAME`), checked against the service's rules.

Each service (`service_specs.SERVICES`) gets exactly its file type, pixel or page size, bleed
and colour mode, in `OUTPUT/<deck>/<service>/`, plus `OUTPUT/<deck>/<deck>-<service>.zip`
holding the same files for upload. Before anything is written the deck is checked against
the service's rules; every card that breaks one is named with the rule:

- the deck's card size must be one the service prints;
- every text box on every face and on the back must lie inside the service's safe zone
  (a cut that drifts by the bleed must not touch text);
- the colour mode: RGB PNGs for image services (written RGB), CMYK PDF/X for PDF services
  (converted, and checked to hold no RGB).

Image services: `<card id>.png` per distinct face, `back.png`, and `cards.csv` listing each
face with its count (services ask for a quantity per face, not repeated files). PDF
services: `<deck>-<service>.pdf`, one card per page, each face next to its back in the order the
service reads them (DriveThruCards: back, then face).

A service fixes the card size, bleed and page, so `deckgen print` options that would change them
are refused by name (`refuse_unhonoured`), never silently dropped.
"""

from __future__ import annotations

import csv
import io
import zipfile
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from ..core.errors import DeckgenError, InvalidDeck, OptionError, Problem
from ..core.files import read_input
from ..core.output import write_bytes, write_text
from ..deck.locate import Locator
from ..deck.sizes import pt
from ..faces.cards import back_text_boxes, face_text_boxes
from ..faces.images import BACK_NAME, BACKS_DIR, write_pngs
from ..faces.raster import own_backs
from ..faces.service_specs import Service, service
from .pdfx import ColorOptions, max_total_ink
from .sheets import one_per_page

if TYPE_CHECKING:
    from ..deck.model import Deck

ZIP_DATE = (2000, 1, 1, 0, 0, 0)  # fixed, so the same deck gives the same zip


def rule_problems(deck: "Deck", spec: Service) -> list[Problem]:
    """Every text that reaches into the service's cut zone, per card and field, on faces and on
    every distinct back."""
    trim = spec.trim_for(deck)
    width, height, safe = pt(trim[0]), pt(trim[1]), pt(spec.safe_mm)
    sides = [(f"card {card.name!r}", f"card {card.code}", face_text_boxes(deck, card, width, height, on_card=True))
             for card in deck.cards]
    sides.append(("the card back", "back", back_text_boxes(deck, width, height, on_card=True)))
    sides += [(f"the back of card {card.name!r}", f"card {card.code}",
               back_text_boxes(deck, width, height, card, on_card=True)) for card in own_backs(deck, trim)]
    locate = Locator(deck)
    problems = []
    for label, prefix, boxes in sides:
        for box in boxes:
            if box.width > width or box.height > height:
                continue  # a measuring box, not a placed one
            nearest = min(box.x, box.y, width - box.x - box.width, height - box.y - box.height)
            if nearest < safe - 1e-6:
                problems.append(locate.relocate(Problem(
                    f"{label}: its {box.spec.field} reaches {nearest / pt(1):.2f} mm from the cut; {spec.title} "
                    f"keeps text {spec.safe_mm:.2f} mm inside the cut (safe zone)",
                    field=f"{prefix}.{box.spec.field}", file=deck.source,
                    hint="move the layout element further in from the edge")))
    return problems


# `deckgen print` options a service's own spec replaces: a user who gave one is told, not ignored.
SHEET_OPTIONS = ("--paper", "--card-size", "--bleed", "--gap", "--shared-cuts", "--duplex", "--sides", "--fold",
                 "--proof", "--printer-margin", "--orientation", "--back-offset", "--printer", "--calibration",
                 "--one-per-page", "--registration", "--corner-radius", "--ink-saver")
COLOR_OPTIONS = ("--color", "--pdfx", "--icc-profile")


def refuse_unhonoured(name: str, given: list[str]) -> None:
    """Refuse the options (as typed, e.g. "--bleed") a service cannot honour: every sheet option, and
    the colour options for a service that takes RGB images. `--color cmyk`, `--pdfx` and
    `--icc-profile` are honoured by PDF services."""
    spec = service(name)
    refused = [option for option in given
               if option in SHEET_OPTIONS or (option in COLOR_OPTIONS and spec.color != "cmyk")]
    if refused:
        files = "PNG images" if spec.file_type == "png" else "a PDF page per card side"
        raise OptionError(f"--service {name} cannot honour {', '.join(refused)}: {spec.title} sets the card size, "
                          f"bleed ({spec.bleed_mm:.2f} mm) and colour ({spec.color.upper()}) itself, in {files}; "
                          "drop the option, or print sheets without --service")


class Written(NamedTuple):
    files: list[Path]
    archive: Path
    max_ink: float | None  # a CMYK service's file: the highest total area coverage measured in it


def write_service(deck: "Deck", out_dir: Path, name: str, icc_profile: Path | None = None,
                  pdfx: str | None = None, allow_low_res: bool = False) -> Written:
    """Write the service's files and its zip into out_dir. `pdfx` overrides a PDF service's
    standard (x4 keeps transparency the service's X-1a would refuse)."""
    spec = service(name)
    trim = spec.trim_for(deck)
    if spec.color == "cmyk":
        color = ColorOptions("cmyk", pdfx or spec.pdfx or "x1a", icc_profile, spec.ink_limit)
    else:
        color = ColorOptions()
    color.checked()
    problems = rule_problems(deck, spec)
    if problems:
        raise InvalidDeck(problems)
    folder = out_dir / spec.name
    max_ink = None
    if spec.file_type == "png":
        files = write_pngs(deck, folder, spec.dpi, spec.bleed_mm, trim, allow_low_res=allow_low_res)
        files.append(write_text(folder / "cards.csv", _manifest(deck, trim)))
    else:
        data = one_per_page(deck, bleed_mm=spec.bleed_mm, color=color, trim_mm=trim, allow_low_res=allow_low_res,
                            back_first=spec.back_first)
        if spec.color == "cmyk":
            max_ink = max_total_ink(data)
            if spec.ink_limit and max_ink > spec.ink_limit + 0.01:
                raise DeckgenError(f"internal: total ink {max_ink:.0%} left after limiting to {spec.ink_limit:.0%}")
        files = [write_bytes(folder / f"{deck.id}-{spec.name}.pdf", data)]
    archive = write_bytes(out_dir / f"{deck.id}-{spec.name}.zip", _zip(folder, files))
    return Written(files, archive, max_ink)


def _manifest(deck: "Deck", trim: tuple[float, float]) -> str:
    """One row per face with its count and the back printed behind it, then a row per back."""
    own = {card.id for card in own_backs(deck, trim)}
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["file", "card", "count", "back"])
    for card in deck.cards:
        writer.writerow([f"{card.id}.png", card.name, card.count,
                         f"{BACKS_DIR}/{card.id}.png" if card.id in own else BACK_NAME])
    shared = sum(card.count for card in deck.cards if card.id not in own)
    writer.writerow([BACK_NAME, "card back", shared, ""])
    for card in deck.cards:
        if card.id in own:
            writer.writerow([f"{BACKS_DIR}/{card.id}.png", f"back of {card.name}", card.count, ""])
    return buffer.getvalue()


def _zip(folder: Path, files: list[Path]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in sorted(files):
            info = zipfile.ZipInfo(path.relative_to(folder).as_posix(), date_time=ZIP_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, read_input(path, "output"))
    return buffer.getvalue()
