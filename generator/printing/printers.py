"""Remembered printers: the settings a calibration sheet measured, under a name.

Stored in `$XDG_CONFIG_HOME/deckgen/printers.toml` (`~/.config/deckgen/printers.toml`
when XDG_CONFIG_HOME is unset), one table per printer:

    [printers.office]
    back_offset = [1.5, -0.5]
    printer_margin = 5.0
    paper = "letter"
    duplex = "long-edge"

`deckgen printer save NAME ...` writes it; `deckgen print DECK --printer NAME` reads it,
and options given on the command line win over the remembered ones.
"""

from __future__ import annotations

import os
import re
import tomllib
from dataclasses import asdict, dataclass
from pathlib import Path

from ..core.errors import OptionError, UnreadableInput
from ..core.files import read_text_input
from ..core.output import write_text
from ..deck.sizes import paper_mm
from .cutfile import CUTTER_BLEED_MM, CUTTER_GAP_MM
from .sheets import SheetOptions

NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,39}$")


@dataclass(frozen=True, slots=True)
class Printer:
    """What a printer needs that the deck does not say; None: not remembered."""

    back_offset: tuple[float, float] | None = None
    printer_margin: float | None = None
    paper: str | None = None
    duplex: str | None = None


def config_path() -> Path:
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "deckgen" / "printers.toml"


def load_printers() -> dict[str, Printer]:
    path = config_path()
    if not path.exists():
        return {}
    try:
        data = tomllib.loads(read_text_input(path, "settings"))
    except UnreadableInput as error:
        raise OptionError(f"{path}: cannot read the remembered printers: {error.problem.message}; "
                          "fix or delete the file") from None
    except tomllib.TOMLDecodeError as error:
        raise OptionError(f"{path}: cannot read the remembered printers ({error}); fix or delete the file") from None
    printers = {}
    for name, table in data.get("printers", {}).items():
        printers[name] = _printer_from(path, name, table)
    return printers


def _printer_from(path: Path, name: str, table) -> Printer:
    if not isinstance(table, dict):
        raise OptionError(f"{path}: [printers.{name}] must be a table")
    unknown = sorted(set(table) - set(Printer.__dataclass_fields__))
    if unknown:
        raise OptionError(f"{path}: [printers.{name}] has unknown setting {unknown[0]!r}; allowed: "
                          f"{', '.join(Printer.__dataclass_fields__)}")
    offset = table.get("back_offset")
    if offset is not None:
        if not (isinstance(offset, list) and len(offset) == 2 and all(isinstance(v, (int, float)) for v in offset)):
            raise OptionError(f"{path}: [printers.{name}] back_offset must be two numbers, e.g. [1.5, -0.5]")
        offset = (float(offset[0]), float(offset[1]))
    margin = table.get("printer_margin")
    if margin is not None and not isinstance(margin, (int, float)):
        raise OptionError(f"{path}: [printers.{name}] printer_margin must be a number of millimetres")
    for key in ("paper", "duplex"):
        if table.get(key) is not None and not isinstance(table[key], str):
            raise OptionError(f"{path}: [printers.{name}] {key} must be a string")
    return Printer(offset, None if margin is None else float(margin), table.get("paper"), table.get("duplex"))


def remembered_printer(name: str) -> Printer:
    printers = load_printers()
    if name not in printers:
        known = ", ".join(sorted(printers)) or "none yet"
        raise OptionError(f"--printer {name!r} is not remembered (known: {known}); save it first with "
                          f"deckgen printer save {name} --back-offset X,Y")
    return printers[name]


def save_printer(name: str, settings: Printer) -> Path:
    """Remember `settings` under `name`, keeping what was remembered before for the fields left None."""
    SheetOptions(paper=settings.paper or "a4", duplex=settings.duplex or "long-edge",
                 printer_margin_mm=settings.printer_margin or 0.0,
                 back_offset_mm=settings.back_offset or (0.0, 0.0)).checked()
    if settings.paper is not None:
        paper_mm(settings.paper)
    if not NAME.match(name):
        raise OptionError(f"printer name {name!r} is not allowed: use letters, digits, '-' and '_' "
                          "(at most 40, starting with a letter or digit)")
    printers = load_printers()
    previous = asdict(printers.get(name, Printer()))
    chosen = {key: value for key, value in asdict(settings).items() if value is not None}
    printers[name] = Printer(**{**previous, **chosen})
    return write_text(config_path(), _toml(printers))


def _toml(printers: dict[str, Printer]) -> str:
    lines = ["# deckgen's remembered printers (deckgen printer save NAME ...)", ""]
    for name in sorted(printers):
        lines.append(f"[printers.{name}]")
        for key, value in asdict(printers[name]).items():
            if value is None:
                continue
            if isinstance(value, tuple):
                lines.append(f"{key} = [{value[0]!r}, {value[1]!r}]")
            elif isinstance(value, str):
                lines.append(f'{key} = "{value}"')
            else:
                lines.append(f"{key} = {value!r}")
        lines.append("")
    return "\n".join(lines)


def parse_offset(text: str) -> tuple[float, float]:
    """'1.5,-0.5' -> (1.5, -0.5): millimetres right and up, as the calibration sheet reads them."""
    parts = text.replace(" ", "").split(",")
    try:
        if len(parts) != 2:
            raise ValueError
        return float(parts[0]), float(parts[1])
    except ValueError:
        raise OptionError(f"--back-offset {text!r} is not two numbers: give RIGHT,UP in mm, e.g. 1.5,-0.5") from None


def sheet_options(*, paper: str | None, card_size: str, bleed: float | None, gap: float | None, shared_cuts: bool,
                  duplex: str | None, sides: str, fold: bool, proof: bool, printer_margin: float | None,
                  orientation: str, back_offset: str | None, printer: str | None, calibration: bool,
                  color=None, registration: str | None = None):
    """`deckgen print`'s options as `SheetOptions`: given options win, then the remembered printer's, then defaults."""
    if shared_cuts and gap is not None:
        raise OptionError("--shared-cuts means --gap 0; give one of them")
    remembered = remembered_printer(printer) if printer else Printer()
    defaults = SheetOptions()
    offset = parse_offset(back_offset) if back_offset is not None else remembered.back_offset
    if bleed is None and registration:  # a cutting machine's own bleed and gap, unless either is given
        bleed, gap = CUTTER_BLEED_MM, CUTTER_GAP_MM if gap is None and not shared_cuts else gap
    bleed = defaults.bleed_mm if bleed is None else bleed
    return SheetOptions(
        paper=paper or remembered.paper or defaults.paper,
        card_size=card_size, bleed_mm=bleed, gap_mm=0.0 if shared_cuts else gap,
        duplex=duplex or remembered.duplex or defaults.duplex, sides=sides,
        printer_margin_mm=next(v for v in (printer_margin, remembered.printer_margin, defaults.printer_margin_mm)
                               if v is not None),
        orientation=orientation, back_offset_mm=offset or defaults.back_offset_mm,
        calibration=calibration, fold=fold, proof=proof, color=color or defaults.color,
        registration=registration,
    ).checked()
