"""Exports for virtual tabletops: a LackeyCCG plugin, Tabletop Simulator deck sheets and
MUSHcode.

Every exporter writes into a folder under `output/<deck>/` and only there; file names
come from card ids, never from card names, and every path is checked to stay inside
the export's folder. `write_all` is the build step that writes all three.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from ..errors import DeckgenError, OptionError
from ..output import replaced_folder  # noqa: F401 - the exporters' folder switch, kept here for them

if TYPE_CHECKING:
    from ..model import Deck


class ExportError(DeckgenError):
    """A deck that cannot be written in an export format: names the card, field and reason."""

    exit_code = 1


def inside(root: Path, *parts: str) -> Path:
    """root/parts..., refusing any path that would leave root."""
    path = root.joinpath(*parts)
    if not path.resolve().is_relative_to(root.resolve()):
        raise ExportError(f"refusing to write {path}: it is outside {root}")
    return path


def check_base_url(url: str) -> str:
    """The URL without a trailing '/', if it is an http(s) address that tab-separated, XML and
    JSON files can all hold as it is."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc or re.search(r"[\s\"'<>\\]", url):
        raise OptionError(f"--base-url {url!r}: give the http:// or https:// address the export's files "
                          "will be served from, without spaces or quotes")
    return url.rstrip("/")


MUSH_STYLES = ("softcode", "dvorak")


def is_dvorak(deck: "Deck") -> bool:
    """A Dvorak deck: built on the Thing and Action kinds (others, such as Quidditch's
    Seekers, may join them)."""
    return {"thing", "action"} <= {kind.id for kind in deck.kinds}


def default_mush_style(deck: "Deck") -> str:
    """'dvorak' (loadcard commands for the Dvorak Engine) for a Dvorak deck, else 'softcode'
    (a self-contained deck object)."""
    return "dvorak" if is_dvorak(deck) else "softcode"


def export_mush(deck: "Deck", out_dir: Path, style: str | None = None) -> list[Path]:
    """Write `out_dir/<deck>.mush` in the given style; card text goes in as plain text."""
    from ..output import write_text

    return [write_text(inside(out_dir, f"{deck.id}.mush"), mush_text(deck, style))]


def mush_text(deck: "Deck", style: str | None = None) -> str:
    """The MUSHcode of a deck; raises `ExportError` naming the card and field it cannot hold."""
    from dataclasses import replace

    from ..markup import to_plain
    from . import mush

    style = style or default_mush_style(deck)
    if style not in MUSH_STYLES:
        raise OptionError(f"--style {style!r}: choose one of {', '.join(MUSH_STYLES)}")
    render = mush.render_softcode if style == "softcode" else mush.render_dvorak
    cards = [replace(card, text=to_plain(card.text, deck)) for card in deck.cards]
    try:
        return render(deck, cards)
    except ValueError as error:  # the renderers name the card and field
        raise ExportError(f"{deck.source or deck.id}: {error}") from None


def write_all(deck: "Deck", out_dir: Path) -> list[Path]:
    """Build step: the Lackey plugin, the Tabletop Simulator deck and the MUSHcode of a deck."""
    from . import lackey, tts

    # build.py stages a deck's outputs in <output>/.staging/<deck>/ and then moves them to
    # <output>/<deck>/; local file URLs must name where the files end up.
    published = out_dir.parent.parent / out_dir.name if out_dir.parent.name == ".staging" else out_dir
    return (lackey.export_lackey(deck, out_dir) + tts.export_tts(deck, out_dir, published_dir=published)
            + export_mush(deck, out_dir))
