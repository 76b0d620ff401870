"""What every exporter shares: the export error, the folder guard, the MUSH styles, and the text
each export made of the last deck (so validation and the build write the same bytes)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Callable, TypeVar

from ..core.errors import DeckgenError
from ..core.output import replaced_folder, write_bytes

if TYPE_CHECKING:
    from ..deck.model import Deck

T = TypeVar("T")


class ExportError(DeckgenError):
    """A deck that cannot be written in an export format: names the card, field and reason."""


    exit_code = 1


def inside(root: Path, *parts: str) -> Path:
    """root/parts..., refusing any path that would leave root."""
    path = root.joinpath(*parts)
    if not path.resolve().is_relative_to(root.resolve()):
        raise ExportError(f"refusing to write {path}: it is outside {root}")
    return path


def write_export_folder(target: Path, files: dict[str, bytes]) -> list[Path]:
    """Replace the folder `target` with these files (name -> bytes) at once; the paths written."""
    with replaced_folder(target) as fresh:
        for name, data in files.items():
            write_bytes(inside(fresh, name), data)
    return [target / name for name in sorted(files)]


MUSH_STYLES = ("softcode", "dvorak", "dvorax")
MUSH_CHARSETS = ("utf-8", "latin1")


def is_dvorak(deck: "Deck") -> bool:
    """A Dvorak deck: built on the Thing and Action kinds (others, such as Quidditch's
    Seekers, may join them)."""
    return {"thing", "action"} <= {kind.id for kind in deck.kinds}


# What the exports made of the last deck asked for: (the deck, {what: made}).
_kept: tuple["Deck", dict] | None = None


def kept_for(deck: "Deck", what: tuple, make: Callable[[], T]) -> T:
    """`make()` for this very deck (decks are immutable), made once: a build's validation step
    makes each export's text to see that the export can hold it, and its exports step then
    writes that same text."""
    global _kept
    if _kept is None or _kept[0] is not deck:
        _kept = (deck, {})
    made = _kept[1]
    if what not in made:
        made[what] = make()
    return made[what]
