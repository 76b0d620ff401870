"""LackeyCCG export: a plugin folder, and a zip of it, ready for Lackey's `plugins/` folder.

Layout written under `<out>/lackey/` (formats: /work/shared/research/export-formats.md §1):

    <plugin>/plugininfo.txt            zones, counters and functions for this game
    <plugin>/sets/carddata.txt         tab-separated, header row, Name Set ImageFile first
    <plugin>/sets/setimages/<Set>/*.jpg one JPEG per distinct card
    <plugin>/cardback.jpg, spawned.jpg  same aspect ratio as the faces
    <plugin>/decks/<deck> (one player loads it).dek   one <card> per copy: the whole game in one click
    <plugin>/updatelist.txt, version.txt   only with a base URL: Lackey's auto-update files
    <plugin>.zip                       the same folder, zipped with fixed dates

Text files are Windows-1252 by default. Lackey's own documentation does not name an
encoding; a maintained plugin's release tooling (SWTCG) reads and writes cp1252, every
ASCII file is the same in both, and cp1252 holds the typographic quotes, dashes and
accented letters card text uses. Characters outside it are spelled another way when
nothing is lost (see `text.fit_charset`) and refused otherwise, naming the card;
`encoding="utf-8"` writes UTF-8 for a Lackey that reads it.

Lackey shows one card back, `cardback.jpg`, for every card of a plugin (no plugin, tutorial or
research note found shows a per-card back). Cards whose kind has a back of its own are kept
apart instead: one pile per back (`back_piles`), each a superzone of the deck file loading into
a shared gamezone of its own, named after its kinds, with its own Draw button, so each can be
set out where the rules say. The piles are shared, so a second player loading the deck file
would double them; the file's name, which Lackey's Load Deck dialog shows, says that one player
loads it (`deck_file`).
"""

from __future__ import annotations

import datetime as dt
import io
import os
import re
import unicodedata
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable, Mapping, Sequence
from urllib.parse import quote

from ..core.errors import OptionError
from ..core.output import replaced_folder, write_bytes
from ..deck.model import Card, Deck
from ..deck.publish import check_base_url
from .common import ExportError, inside, is_dvorak, kept_for
from .faces import blank_face, faces_for, jpeg_bytes
from .setup import engine_table, table_setup
from .text import Escaped, card_label, environment, fit_charset, one_line, plain
from .tts import back_groups

LAYOUTS = ("full", "dvorak")
ENCODINGS = {"cp1252": "windows-1252", "utf-8": "UTF-8"}  # codec -> name in the XML prolog
FIXED_RELEASE_DATE = dt.date(2000, 1, 1)  # for a deck whose version is no date
ZIP_DATE = (1980, 1, 1, 0, 0, 0)  # the earliest date a zip entry can carry: no build time leaks in


# --- What the table needs: counters, extra piles, dice ----------------------------------

@dataclass(frozen=True)
class LackeyTable:
    counters: tuple[str, ...] = ()  # per-player numbers Lackey shows and edits
    piles: tuple[str, ...] = ()  # per-player face-up zones besides Hand, Discard and Play
    dice: bool = False
    coin: bool = False


_DICE = re.compile(r"\b(roll|rolls|rolled|rolling|dice|d6)\b", re.I)
_COIN = re.compile(r"\bcoins?\b", re.I)


def table_kit(deck: Deck) -> LackeyTable:
    """Counters and piles the deck's engine declares (else a scoring section alone gives a
    Score), a die or a coin when any card or rule asks for one."""
    kit = engine_table(deck)
    counters = kit.stats
    if counters is None:
        counters = ("Score",) if any(section.role == "scoring" for section in deck.sections) else ()
    words = " ".join([card.text for card in deck.cards] + [rule.text for rule in deck.rules()])
    return LackeyTable(counters, kit.piles, bool(_DICE.search(words)), bool(_COIN.search(words)))


# --- Card data columns ------------------------------------------------------------------

@dataclass(frozen=True)
class Column:
    header: str
    value: Callable[[Deck, Card], str]


def _suit(deck: Deck, card: Card) -> str:
    return deck.suit(card.suit).name if card.suit else ""


def _rank(deck: Deck, card: Card) -> str:
    return deck.rank(card.rank).name if card.rank else ""


def _value(deck: Deck, card: Card) -> str:
    value = deck.rank(card.rank).value if card.rank else None
    return "" if value is None else str(value)


_CODE = Column("Code", lambda deck, card: card.code)
_TYPE = Column("Type", lambda deck, card: one_line(card.type_line))
_KIND = Column("Kind", lambda deck, card: deck.kind(card.kind).name)
_CORNER = Column("CornerValue", lambda deck, card: one_line(card.corner))
_TEXT = Column("Text", lambda deck, card: plain(deck, card.text))
_FLAVOR = Column("FlavorText", lambda deck, card: one_line(card.flavor))
_CREATOR = Column("Creator", lambda deck, card: one_line(deck.designer))


def default_layout(deck: Deck) -> str:
    """'dvorak' for a Dvorak deck (see `is_dvorak`), else 'full'."""
    return "dvorak" if is_dvorak(deck) else "full"


def layout_columns(deck: Deck, layout: str) -> list[Column]:
    """The columns after Name, Set and ImageFile.

    'dvorak' is the Dvorak wiki's export (Type CornerValue Text FlavorText Creator).
    'full' has Code and Type, then each of the deck's own fields that some card fills:
    Kind (when a type line differs from its kind), Suit, Rank, Value, CornerValue,
    Text, FlavorText.
    """
    if layout == "dvorak":
        return [_TYPE, _CORNER, _TEXT, _FLAVOR, _CREATOR]
    optional = [Column("Suit", _suit), Column("Rank", _rank), Column("Value", _value), _CORNER, _TEXT, _FLAVOR]
    columns = [_CODE, _TYPE]
    if any(card.type_line != deck.kind(card.kind).name for card in deck.cards):
        columns.append(_KIND)
    columns += [column for column in optional if any(column.value(deck, card) for card in deck.cards)]
    return columns


# --- Names Lackey sees ------------------------------------------------------------------

def plugin_name(deck: Deck) -> str:
    return deck.id  # lower-case letters, digits, '.', '_' and '-': a safe folder name


def set_name(deck: Deck) -> str:
    return re.sub(r"[^a-z0-9]+", "_", deck.id.lower()).strip("_") or "cards"


def lackey_names(deck: Deck) -> dict[str, str]:
    """card id -> the Name Lackey uses. Lackey finds cards by name, so a second distinct
    card with the same name (ignoring case) gets its code appended: 'Name [CODE]'."""
    names: dict[str, str] = {}
    owners: dict[str, Card] = {}
    for card in deck.cards:
        name = card.name if card.name.casefold() not in owners else f"{card.name} [{card.code}]"
        if name.casefold() in owners:
            raise ExportError(f"{_where(deck, card)}: its Lackey name {name!r} is already used by "
                              f"{card_label(owners[name.casefold()])}; rename one of them")
        owners[name.casefold()] = card
        names[card.id] = name
    return names


def image_names(deck: Deck) -> dict[str, str]:
    """card id -> image file name without '.jpg', made from the card id (never the name)."""
    names: dict[str, str] = {}
    owners: dict[str, Card] = {}
    for card in deck.cards:
        stem = re.sub(r"[^a-z0-9_-]+", "_", card.id.lower())
        if stem in owners:
            raise ExportError(f"{_where(deck, card)}: its image file name {stem!r} is already used by "
                              f"{card_label(owners[stem])}; give one of them another id")
        owners[stem] = card
        names[card.id] = stem
    return names


def _where(deck: Deck, card: Card) -> str:
    return f"{deck.source or deck.id}: {card_label(card)}"


# --- Escaping filters -------------------------------------------------------------------

@dataclass(frozen=True)
class CardRow:
    """One carddata.txt row, with the card it comes from for error messages."""

    label: str
    headers: tuple[str, ...]
    cells: tuple[str, ...]


@dataclass(frozen=True)
class DekCard:
    name: str
    image: str
    set: str
    label: str


_XML_ENTITIES = {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;"}


_CONTROL_NAMES = {"\t": "tab", "\n": "line break", "\r": "carriage return",
                  "\u2028": "line separator", "\u2029": "paragraph separator"}


def _control(text: str) -> str | None:
    """The first character a one-line field cannot hold (tab, line break, other controls)."""
    for char in text:
        if unicodedata.category(char) in ("Cc", "Zl", "Zp"):
            return char
    return None


def _filters(deck: Deck, encoding: str) -> dict[str, Callable[..., Escaped]]:
    suit_symbols = {suit.symbol: suit.name for suit in deck.suits if len(suit.symbol) == 1}
    hint = ("change the text, or export with --encoding utf-8 if your Lackey reads UTF-8 files"
            if encoding != "utf-8" else "")

    def fit(text: str, where: str) -> str:
        return fit_charset(text, encoding, where, suit_symbols, hint)

    def refuse_control(text: str, where: str, what: str) -> None:
        bad = _control(text)
        if bad is not None:
            name = _CONTROL_NAMES.get(bad) or f"control character U+{ord(bad):04X}"
            raise ExportError(f"{where}: holds a {name} ({bad!r}), which {what} cannot store; remove it")

    def tsv(value: CardRow | Sequence[str], where: str = "") -> Escaped:
        if isinstance(value, CardRow):
            places = [f"{value.label}, column {header}" for header in value.headers]
            cells = value.cells
        else:
            places, cells = [where] * len(value), value
        out = []
        for place, cell in zip(places, cells):
            refuse_control(cell, place, "LackeyCCG's tab-separated files")
            out.append(fit(cell, place))
        return Escaped("\t".join(out))

    def xml(value: str, where: str = "Lackey deck file") -> Escaped:
        refuse_control(value, where, "a Lackey deck file")
        return Escaped("".join(_XML_ENTITIES.get(char, char) for char in fit(value, where)))

    def label(value: str) -> Escaped:
        if set(value) & set("<>&"):
            raise ExportError(f"plugininfo.txt: label {value!r} holds '<', '>' or '&'")
        return Escaped(fit(value, "plugininfo.txt"))

    return {
        "tsv": tsv,
        "xml": xml,
        "label": label,
        "yymmdd": lambda day: Escaped(day.strftime("%y%m%d")),
        "mmddyy": lambda day: Escaped(day.strftime("%m-%d-%y")),
    }


# --- Auto-update files ------------------------------------------------------------------

_MODULUS = 100_000_000
_HIGH_BYTES = bytes(range(128, 256))


def _c_remainder(value: int) -> int:
    """C's `%`: the remainder takes the sign of the dividend."""
    remainder = abs(value) % _MODULUS
    return -remainder if value < 0 else remainder


def _signed_sum(chunk: bytes) -> int:
    """Sum of the bytes as signed chars, line feeds and carriage returns left out."""
    high = len(chunk) - len(chunk.translate(None, _HIGH_BYTES))
    return sum(chunk) - 256 * high - 10 * chunk.count(10) - 13 * chunk.count(13)


def lackey_checksum(data: bytes) -> int:
    """The checksum Lackey's updater compares (research §1.7; SWTCG-LACKEY releaseManager.py
    and lackey-builder lackey.inc agree): add every byte except LF and CR as a signed
    char, keeping the running total as its C remainder modulo 100 000 000, then subtract 1.

    Bytes are added a chunk at a time while the total cannot reach the modulus inside
    the chunk (so no remainder is taken there), one at a time near it.
    """
    total = 0
    position = 0
    while position < len(data):
        room = (_MODULUS - 1 - abs(total)) // 128
        if room:
            chunk = data[position:position + room]
            total += _signed_sum(chunk)
            position += len(chunk)
        else:
            total = _c_remainder(total + _signed_sum(data[position:position + 1]))
            position += 1
    return _c_remainder(total - 1)


_VERSION_DATE = re.compile(r"(\d{4})[-.](\d{2})[-.](\d{2})")


def release_date(deck: Deck) -> dt.date:
    """The date the auto-update files carry (Lackey offers an update when it is later than the
    installed one): SOURCE_DATE_EPOCH when set (reproducible builds), else the deck's `date`,
    else its version when that is a date (2026-12-01 or 2026.12.01, as real plugins'
    <pluginversion> is), else the day the deck file last changed (UTC; `release_date_warning`
    says so), else 2000-01-01 for a deck with no file."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    if epoch:
        if not epoch.isdigit():
            raise OptionError(f"SOURCE_DATE_EPOCH={epoch!r} is not a number of seconds")
        return dt.datetime.fromtimestamp(int(epoch), dt.timezone.utc).date()
    for field, text in (("date", deck.date), ("version", deck.version.strip())):
        found = _VERSION_DATE.fullmatch(text)
        if found:
            try:
                return dt.date(*map(int, found.groups()))
            except ValueError:
                raise OptionError(f"{deck.source or deck.id}: [deck] {field} {text!r} is not a real date") from None
    if deck.source is not None and deck.source.is_file():
        return dt.datetime.fromtimestamp(deck.source.stat().st_mtime, dt.timezone.utc).date()
    return FIXED_RELEASE_DATE


def release_date_warning(deck: Deck) -> str | None:
    """What to tell the designer when the release date is not one the deck states."""
    if os.environ.get("SOURCE_DATE_EPOCH") or deck.date or _VERSION_DATE.fullmatch(deck.version.strip()):
        return None
    day = release_date(deck)
    return (f"warning: {deck.source or deck.id}: [deck] has no date and its version {deck.version!r} is no date, "
            f"so the Lackey release is dated {day.isoformat()} (the deck file's last change); Lackey offers "
            "players an update only for a later date: set date = \"YYYY-MM-DD\" under [deck] for each release")


@dataclass(frozen=True)
class UpdateEntry:
    install_path: str
    url: str
    checksum: int


CARD_IMAGE_URLS = "CardImageUrls1.txt"
_SET_IMAGES = "sets/setimages/"


def _update_files(deck: Deck, files: Mapping[str, bytes], base_url: str, day: dt.date,
                  render: Callable[..., bytes]) -> dict[str, bytes]:
    """version.txt, updatelist.txt and the card image URL list, laid out as
    merlinofchaos/lackey-example's: card images are not installed with the plugin but listed
    in CardImageUrls1.txt (`CardImageURLs:` then `<Set>/<file>.jpg<TAB><URL>`), which the
    updatelist names after `CardURLFiles:`, so Lackey fetches each image when it needs it."""
    base = check_base_url(base_url)
    plugin = plugin_name(deck)
    version = render("version.txt.j2", date=day, version_url=f"{base}/version.txt",
                     update_url=f"{base}/updatelist.txt", message=f"{deck.name} {deck.version}")
    images = [(path.removeprefix(_SET_IMAGES), f"{base}/{quote(path)}")
              for path in sorted(files) if path.startswith(_SET_IMAGES)]
    image_urls = render("cardimageurls.txt.j2", images=images)
    listed = {path: data for path, data in files.items() if not path.startswith(_SET_IMAGES)}
    listed.update({"version.txt": version, CARD_IMAGE_URLS: image_urls})
    entries = [UpdateEntry(f"plugins/{plugin}/{path}", f"{base}/{quote(path)}", lackey_checksum(data))
               for path, data in sorted(listed.items())]
    return {"version.txt": version, CARD_IMAGE_URLS: image_urls,
            "updatelist.txt": render("updatelist.txt.j2", plugin=plugin, date=day, entries=entries,
                                     card_url_files=[CARD_IMAGE_URLS])}


def deck_file(deck: Deck) -> str:
    """The deck file's name: what Lackey's Load Deck dialog lists, so it tells the players that
    one of them loads it (every pile it fills is shared by the table)."""
    return f"{plugin_name(deck)} (one player loads it).dek"


def back_piles(deck: Deck) -> dict[str, str]:
    """The shared pile each card goes to, by card id: "Deck" for the deck's back (or when all
    cards share one back), "<their kinds> Deck" for each back of their own."""
    groups = [(back, cards) for back, cards in back_groups(deck) if cards]
    piles = {}
    for back, cards in groups:
        kinds = ", ".join(kind.name for kind in deck.kinds if any(card.kind == kind.id for card in cards))
        label = "Deck" if back == 0 or len(groups) == 1 else f"{kinds} Deck"
        piles.update({card.id: label for card in cards})
    return piles


def _without(copies: list[Card], set_aside: Iterable[Card]) -> list[Card]:
    """The copies with one copy of each set-aside card taken out."""
    rest = list(copies)
    for card in set_aside:
        rest.remove(card)
    return rest


def plugin_files(deck: Deck, layout: str | None = None, base_url: str | None = None,
                 encoding: str = "cp1252", date: dt.date | None = None) -> dict[str, bytes]:
    """Every file of the plugin folder: path inside the folder ('/'-separated) -> bytes."""
    files, render = plugin_text_files(deck, layout, encoding)
    card_set, images = set_name(deck), image_names(deck)
    faces = faces_for(deck)
    for card in deck.cards:
        files[f"sets/setimages/{card_set}/{images[card.id]}.jpg"] = faces.jpeg(card)
    files["cardback.jpg"] = faces.jpeg(None)
    files["spawned.jpg"] = jpeg_bytes(blank_face(deck, faces.size))
    if base_url is not None:
        files.update(_update_files(deck, files, base_url, date or release_date(deck), render))
    return files


def plugin_text_files(deck: Deck, layout: str | None = None,
                      encoding: str = "cp1252") -> tuple[dict[str, bytes], Callable[..., bytes]]:
    """The plugin's text files, and the function that renders its templates; raises
    `ExportError` for text the plugin cannot hold (so `deckgen validate` can ask first)."""
    layout = layout or default_layout(deck)
    if layout not in LAYOUTS:
        raise OptionError(f"--layout {layout!r}: choose one of {', '.join(LAYOUTS)}")
    if encoding not in ENCODINGS:
        raise OptionError(f"--encoding {encoding!r}: choose one of {', '.join(ENCODINGS)}")

    def make() -> tuple[dict[str, bytes], Callable[..., bytes]]:
        env = environment("lackey", _filters(deck, encoding))

        def render(template: str, **values) -> bytes:
            return env.get_template(template).render(**values).encode(encoding)

        plugin, card_set = plugin_name(deck), set_name(deck)
        names, images = lackey_names(deck), image_names(deck)
        columns = layout_columns(deck, layout)
        header = ("Name", "Set", "ImageFile") + tuple(column.header for column in columns)
        rows = [CardRow(_where(deck, card), header,
                        (names[card.id], card_set, images[card.id]) + tuple(c.value(deck, card) for c in columns))
                for card in deck.cards]
        files = {"sets/carddata.txt": render("carddata.txt.j2", header=header, rows=rows)}
        setup = table_setup(deck)

        def dek_cards(cards: Iterable[Card]) -> list[DekCard]:
            return [DekCard(names[card.id], images[card.id], card_set, _where(deck, card)) for card in cards]

        pile_of = back_piles(deck)
        piles = list(dict.fromkeys(pile_of.values()))
        rest = _without(list(deck.copies()), setup.set_aside)
        superzones = {pile: dek_cards(card for card in rest if pile_of[card.id] == pile) for pile in piles}
        superzones.update({"Centre": dek_cards(setup.centre), "Discard": dek_cards(setup.discard)})
        files[f"decks/{deck_file(deck)}"] = render(
            "deck.dek.j2", xml_encoding=ENCODINGS[encoding], plugin=plugin, title=deck.name,
            superzones={zone: cards for zone, cards in superzones.items() if cards})
        files["plugininfo.txt"] = render("plugininfo.txt.j2", plugin=plugin, kit=table_kit(deck), piles=piles,
                                         phases=setup.phases, centre=bool(setup.centre),
                                         discard=bool(setup.discard))
        return files, render

    files, render = kept_for(deck, ("lackey", layout, encoding), make)
    return dict(files), render  # a copy: plugin_files adds the images to it


def zip_bytes(files: Mapping[str, bytes], root: str = "") -> bytes:
    """A zip of `files` under `root/` (or at the top, for no root): sorted entries, fixed dates and permissions, so the same
    files give the same bytes. JPEGs are stored (they do not compress), text is deflated."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for path in sorted(files):
            info = zipfile.ZipInfo(f"{root}/{path}" if root else path, date_time=ZIP_DATE)
            info.create_system = 3  # Unix, whatever system writes it, so the permissions below hold
            info.external_attr = 0o644 << 16
            stored = path.endswith(".jpg")
            info.compress_type = zipfile.ZIP_STORED if stored else zipfile.ZIP_DEFLATED
            archive.writestr(info, files[path], compresslevel=None if stored else 9)
    return buffer.getvalue()


def export_lackey(deck: Deck, out_dir: Path, layout: str | None = None, base_url: str | None = None,
                  encoding: str = "cp1252", date: dt.date | None = None) -> list[Path]:
    """Write the plugin folder and its zip to `out_dir/lackey/`, replacing any earlier export;
    return the paths written."""
    files = plugin_files(deck, layout, base_url, encoding, date)
    plugin = plugin_name(deck)
    target = out_dir / "lackey"
    with replaced_folder(target) as fresh:
        for path, data in files.items():
            write_bytes(inside(fresh, plugin, *path.split("/")), data)
        write_bytes(inside(fresh, f"{plugin}.zip"), zip_bytes(files, plugin))
    return [target / plugin / path for path in sorted(files)] + [target / f"{plugin}.zip"]
