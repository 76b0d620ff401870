"""Exports for virtual tabletops: a LackeyCCG plugin, Tabletop Simulator deck sheets, a Foundry
VTT Cards document, a playingcards.io / virtualtabletop.io room, a Tabletop Playground package,
a Card Game Simulator game folder and MUSHcode.

Every exporter writes into a folder under `output/<deck>/` and only there; file names
come from card ids, never from card names, and every path is checked to stay inside
the export's folder. `write_all` is the build step that writes them all.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from ..core.errors import OptionError
from ..core.output import write_text
from ..deck.markup import to_plain
from ..deck.publish import check_base_url
from . import cgs, foundry, lackey, mush, mush_table, ttp, tts, vtt
from .common import (MUSH_CHARSETS, MUSH_STYLES, ExportError, inside, is_dvorak,  # noqa: F401 - the package's API
                     kept_for)
from .faces import faces_for

if TYPE_CHECKING:
    from ..deck.model import Deck


def export_mush(deck: "Deck", out_dir: Path, style: str | None = None, charset: str = "utf-8") -> list[Path]:
    """Write `out_dir/<deck>.mush`: by default the self-contained softcode with a game table,
    which runs on any TinyMUX or PennMUSH; 'dvorak' and 'dvorax' write loadcard commands for
    DvorakMUSH's Dvorak Engine. Card text goes in as plain text; with charset 'latin1' every
    character outside Latin-1 is spelled in it (the file is then Latin-1 too)."""
    encoding = "latin-1" if charset == "latin1" else "utf-8"
    return [write_text(inside(out_dir, f"{deck.id}.mush"), mush_text(deck, style, charset), encoding=encoding)]


def mush_text(deck: "Deck", style: str | None = None, charset: str = "utf-8") -> str:
    """The MUSHcode of a deck; raises `ExportError` naming the card and field it cannot hold."""
    style = style or "softcode"
    if style not in MUSH_STYLES:
        raise OptionError(f"--style {style!r}: choose one of {', '.join(MUSH_STYLES)}")
    if charset not in MUSH_CHARSETS:
        raise OptionError(f"--charset {charset!r}: choose one of {', '.join(MUSH_CHARSETS)}")

    def render() -> str:
        cards = [replace(card, text=to_plain(card.text, deck)) for card in deck.cards]
        shown, plain = mush.in_latin1(deck, cards) if charset == "latin1" else (deck, cards)
        try:
            if style == "softcode":
                return mush_table.render_softcode(shown, plain, charset=charset)
            return mush.render_dvorak(shown, plain, dvorax=style == "dvorax", charset=charset)
        except ValueError as error:  # the renderers name the card and field
            raise ExportError(f"{shown.source or shown.id}: {error}") from None

    return kept_for(deck, ("mush", style, charset), render)


def write_all(deck: "Deck", out_dir: Path) -> list[Path]:
    """Build step: every export of a deck (Lackey, Tabletop Simulator, Foundry VTT,
    playingcards.io / virtualtabletop.io, Tabletop Playground, Card Game Simulator, MUSHcode).

    With a base URL (the address the build's output folder is served from: `deck.base_url`,
    from [publish] base_url or `deckgen build --base-url`), the Lackey plugin gets its
    auto-update files, and the TTS deck, the Foundry document and the CGS game their image
    URLs, each under <base>/<deck>/<its folder>."""
    # build.py stages a deck's outputs in <output>/.staging/<deck>[/<lang>]/ and then moves them
    # to <output>/<deck>[/<lang>]/; local file URLs must name where the files end up.
    parts = out_dir.parts
    published = Path(*parts[:parts.index(".staging")], *parts[parts.index(".staging") + 1:]) \
        if ".staging" in parts else out_dir
    lackey_url = tts_url = foundry_url = cgs_url = None
    if deck.base_url is not None:
        base = check_base_url(deck.base_url)  # the loader and the build's option checked it already
        lackey_url = f"{base}/{deck.id}/lackey/{lackey.plugin_name(deck)}"
        tts_url, foundry_url = f"{base}/{deck.id}/tts", f"{base}/{deck.id}/foundry"
        cgs_url = f"{base}/{deck.id}/cgs/{deck.id}"
    # The sheets first: each face they rasterise is kept as the JPEG the other exports want.
    faces_for(deck).keep_jpegs()
    written = tts.export_tts(deck, out_dir, base_url=tts_url, published_dir=published)
    return (lackey.export_lackey(deck, out_dir, base_url=lackey_url) + written
            + foundry.export_foundry(deck, out_dir, base_url=foundry_url) + vtt.export_vtt(deck, out_dir)
            + ttp.export_ttp(deck, out_dir) + cgs.export_cgs(deck, out_dir, base_url=cgs_url)
            + export_mush(deck, out_dir))
