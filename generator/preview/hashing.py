"""Content hashes of card drawings: equal hashes, equal pictures.

A card's hash covers everything its drawing reads: the card's own fields, the names and rule
titles its text refers to, the deck-wide look (suits, ranks, kinds, back, card size, the deck's
name in the text-card footer), the layout chosen for it and the files that layout shows, the
bytes of its art file and of the deck's fonts and icons, and deckgen's fonts, drawing code and
shipped layouts.
`drawing_inputs` is the one place to add an input when drawing starts reading a new one (a
layouts file, say).
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Iterable, Iterator

from ..core.errors import UnreadableInput
from ..core.files import read_input
from ..core.resources import TEMPLATES
from ..deck import markup
from ..deck.layouts.choose import choose_back, choose_face
from ..deck.spreadsheets import SUFFIXES as SHEET_SUFFIXES

if TYPE_CHECKING:
    from ..deck.layouts.book import Layout
    from ..deck.model import Card, Deck

_PACKAGE = Path(__file__).resolve().parents[1]
_DRAWING = (_PACKAGE / "faces", _PACKAGE / "deck" / "layouts", _PACKAGE / "fonts", TEMPLATES / "layouts")
HASH_LENGTH = 20  # hex digits: enough to tell a deck's drawings apart, short in a URL


@lru_cache(maxsize=1)
def _code_and_fonts() -> bytes:
    """deckgen's drawing code and fonts: a new version redraws everything."""
    digest = hashlib.sha256()
    for root in _DRAWING:
        for path in sorted(root.rglob("*")):
            if path.is_file() and path.suffix in {".py", ".ttf", ".toml"}:
                digest.update(path.name.encode() + b"\0" + read_input(path, "shipped"))
    return digest.digest()


def deck_look(deck: "Deck") -> bytes:
    """What every card's drawing reads from the deck as a whole, the files it reads included (the
    deck's fonts, icons, shared layouts, overlays). Not its spreadsheets: a row's cells reach only
    its own card (hashed with the card), so a one-cell save redraws that card alone."""
    files = b"".join(_file_digest(path) for path in deck.inputs if path.suffix.lower() not in SHEET_SUFFIXES)
    return repr((deck.name, deck.id, deck.designer, deck.version, deck.version_mark, deck.card_size, deck.suits,
                 deck.ranks, deck.kinds, deck.back)).encode() + files


def _references(deck: "Deck", texts: Iterator[str]) -> list[str]:
    """The words each `{card:..}`, `{suit:..}`, `{rule:..}` in the texts is drawn as."""
    labels = []
    for text in texts:
        for block in markup.parse(text):
            lines = [block.spans] if isinstance(block, markup.Paragraph) else list(block.items)
            for spans in lines:
                for span in spans:
                    if isinstance(span, markup.Ref):
                        try:
                            labels.append(markup.ref_label(deck, span))
                        except KeyError:
                            labels.append(f"?{span.kind}:{span.target}")
    return labels


def _file_digest(path: Path | None) -> bytes:
    """A digest of a file's bytes, read again only when its size or modification time changes."""
    if path is None:
        return b""
    try:
        stat = path.stat()
    except OSError:
        return b"(missing)"
    return _digest_of(path, stat.st_mtime_ns, stat.st_size)


@lru_cache(maxsize=1024)
def _digest_of(path: Path, mtime_ns: int, size: int) -> bytes:
    try:
        return hashlib.sha256(read_input(path, "input")).digest()
    except UnreadableInput:  # a FIFO, a huge file: never read; the deck's checks report it
        return b"(unreadable)"


def _layout_inputs(layout: "Layout") -> Iterator[bytes]:
    """A layout's elements and the fixed files its images show; not the lines they are written
    on, so an edit elsewhere in the deck file redraws nothing."""
    elements = [(element.name, element.type, sorted(element.props.items())) for element in layout.elements]
    yield repr((layout.name, layout.reference_mm, layout.safe_mm, elements)).encode()
    for element in layout.elements:
        source = element.props.get("src")
        if isinstance(source, str) and source and "{" not in source:
            yield _file_digest(layout.folder / source)


def drawing_inputs(deck: "Deck", card: "Card | None", look: bytes, back: bool = False) -> Iterator[bytes]:
    """Every input of one card's drawing (None: the deck's back; `back`: the card's own back), as bytes."""
    yield _code_and_fonts()
    yield look
    yield from _layout_inputs(choose_back(deck, card) if card is None or back else choose_face(deck, card))
    if card is None:
        return
    if back:
        yield b"back" + repr(card).encode()
        return
    yield repr(card).encode()
    yield repr(_references(deck, iter((card.name, card.type_line, card.corner, card.text, card.flavor)))).encode()
    yield _file_digest(card.art)


def card_hashes(deck: "Deck", own_backs: "Iterable[Card]" = ()) -> dict[str, str]:
    """{card key: content hash} for every distinct face ("face:<id>"), the deck's back ("back")
    and the own back of each card in `own_backs` ("back:<id>")."""
    look = deck_look(deck)
    hashes = {}
    entries = [*((f"face:{card.id}", card, False) for card in deck.cards), ("back", None, False),
               *((f"back:{card.id}", card, True) for card in own_backs)]
    for key, card, back in entries:
        digest = hashlib.sha256()
        for part in drawing_inputs(deck, card, look, back):
            digest.update(len(part).to_bytes(8, "big"))
            digest.update(part)
        hashes[key] = digest.hexdigest()[:HASH_LENGTH]
    return hashes
