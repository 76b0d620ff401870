"""Print services' file rules, as data: what each takes for each card size it sells.

Sources (docs/printing.md and /work/shared/research/print-and-play.md §4): The Game Crafter
and MakePlayingCards from their help pages as quoted by others; DriveThruCards from its own
card-prep page. PrinterStudio publishes no spec we could read: it belongs to the same company
as MakePlayingCards, and deckgen assumes MakePlayingCards' rules for it (say so to users).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core.errors import OptionError

INCH = 25.4
POKER_IN = (2.5 * INCH, 3.5 * INCH)
TAROT_TGC = (2.75 * INCH, 4.75 * INCH)


@dataclass(frozen=True, slots=True)
class Service:
    name: str  # what --service takes
    title: str
    file_type: str  # "png" (an image per face and one back) or "pdf" (a page per face and back)
    color: str  # "rgb" or "cmyk"
    dpi: int
    bleed_mm: float  # beyond the cut, every side
    safe_mm: float  # text stays this far inside the cut
    trims_mm: dict[str, tuple[float, float]]  # deck card size name -> the service's trim
    pdfx: str | None = None
    note: str = ""
    back_first: bool = False  # PDF services: each card's back page comes before its face page
    ink_limit: float | None = None  # CMYK services: highest total area coverage, C+M+Y+K (2.4 = 240 %)

    def trim_for(self, deck) -> tuple[float, float]:
        size = deck.card_size.name
        if size not in self.trims_mm:
            raise OptionError(f"{self.title} (--service {self.name}) prints {', '.join(self.trims_mm)} cards; deck "
                              f"{deck.id!r} is {size} ({deck.card_size.width_mm:g}×{deck.card_size.height_mm:g} mm): "
                              "change the deck's card_size or choose another service")
        return self.trims_mm[size]


_POKER = {"poker": POKER_IN, "poker-in": POKER_IN}
SERVICES: dict[str, Service] = {
    # 825×1125 px poker, 900×1500 px tarot: 1/8 in bleed and 1/8 in safe zone at 300 dpi; PNG, RGB only.
    "tgc": Service("tgc", "The Game Crafter", "png", "rgb", 300, INCH / 8, INCH / 8,
                   {**_POKER, "tarot": TAROT_TGC}),
    # 822×1122 px poker: 36 px (0.12 in) bleed and a further 36 px safe zone at 300 dpi.
    "mpc": Service("mpc", "MakePlayingCards", "png", "rgb", 300, 0.12 * INCH, 0.12 * INCH, dict(_POKER)),
    "printerstudio": Service("printerstudio", "PrinterStudio", "png", "rgb", 300, 0.12 * INCH, 0.12 * INCH,
                             dict(_POKER), note="PrinterStudio's own spec is unpublished; MakePlayingCards' "
                                                "(same company) is assumed"),
    # A 2.75×3.75 in page per poker card (1/8 in bleed built in), PDF/X-1a:2003, CMYK; a safe area inside;
    # pages alternate back then front (Squib's drivethrucards_1up sprue: "alternate back/front").
    "dtc": Service("dtc", "DriveThruCards", "pdf", "cmyk", 300, INCH / 8, INCH / 8, dict(_POKER), pdfx="x1a-2003",
                   back_first=True, ink_limit=2.4),  # DTC: total ink at most 240 %
}


def service(name: str) -> Service:
    if name not in SERVICES:
        raise OptionError(f"--service {name!r} is unknown; choose one of {', '.join(SERVICES)}")
    return SERVICES[name]


def image_service(name: str) -> Service:
    """A service that takes images (`deckgen images --profile`)."""
    spec = SERVICES.get(name)
    if spec is None or spec.file_type != "png":
        images = [s.name for s in SERVICES.values() if s.file_type == "png"]
        raise OptionError(f"--profile {name!r} is unknown; choose one of {', '.join(images)}")
    return spec
