"""The one way deckgen opens a file it reads: every reader of every input goes through here.

A deck, an overlay, a layouts file, a font, an icon, art, an SVG's references, a
spreadsheet, an ICC profile, a game log, a checkpoint, a cache entry: each is opened by
`open_input` (or read whole by `read_input` / `read_text_input`), which promises:

- **No wait for ever.** Only a regular file is read. A FIFO, a device, a socket or a folder is
  refused without blocking: the name is looked at first, then opened with O_NONBLOCK (opening a
  FIFO for reading would otherwise wait for a writer) and checked again on the open file, so a
  file swapped between the look and the open is caught too.
- **Containment.** What a deck names (art, fonts, icons, layouts files, spreadsheets, overlays,
  images an SVG draws) must lie inside the deck's folder, symbolic links resolved: `within` is
  that folder, or a folder the user allowed (`deckgen --allow-folder DIR`, `allowed_folders`).
  A file the user named on the command line (`within=None`) may be anywhere.
- **A size limit per kind** (`KINDS`), checked before reading and again while reading (a file
  may grow), so `/dev/zero` behind a link or a 4 GB "overlay" never reaches memory.
- **Clear errors**: `RefusedInput` (an `UnreadableInput`) naming the file, what is wrong and what is allowed.
  Checks that collect problems instead of stopping call `input_problem`, which answers the
  same reason as a phrase ("" for a readable file).

`follow_links=False` refuses a symbolic link as the file itself (O_NOFOLLOW): the cache
folder's entries are read that way, so a link planted there never leads to another file.
"""

from __future__ import annotations

import io
import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from .errors import Problem, UnreadableInput

MiB = 1024 * 1024
# Folders besides a deck's own that its files may lie in, separated by os.pathsep: set by
# `deckgen --allow-folder`, or by the user; inherited by worker processes.
ALLOW_ENV = "DECKGEN_ALLOW_FOLDERS"


@dataclass(frozen=True)
class Kind:
    """What a kind of input is called in messages, the most bytes it may hold, and the hint
    that says what is allowed."""

    label: str
    limit: int
    hint: str


# Each limit is far past any real file of its kind (the shipped decks' largest inputs are a
# 60 kB deck, a 400 kB font and 200 kB of art) and far below what would strain memory.
KINDS: dict[str, Kind] = {
    "deck": Kind("deck file", 4 * MiB, "a deck file is a TOML text of at most 4 MiB (docs/deck-format.md)"),
    "overlay": Kind("translation", 4 * MiB, "a translation overlay is a TOML text next to the deck"),
    "layouts": Kind("layouts file", 4 * MiB, "a layouts file is a TOML text inside the deck's folder"),
    "font": Kind("font file", 32 * MiB, "a TrueType font (.ttf, or .otf with TrueType outlines)"),
    "image": Kind("image", 64 * MiB, "a PNG, JPEG or SVG file inside the deck's folder"),
    "spreadsheet": Kind("spreadsheet", 32 * MiB, "a .csv, .tsv, .txt or .xlsx file inside the deck's folder"),
    "profile": Kind("ICC profile", 16 * MiB, "a CMYK ICC profile file (.icc or .icm) from your print shop"),
    "log": Kind("log", 16 * MiB, "a game log is a TOML text of at most 16 MiB (docs/logs.md)"),
    "checkpoint": Kind("checkpoint chunk", 16 * MiB, "a chunk file `deckgen validate --checkpoint` wrote"),
    "cache": Kind("cache entry", 256 * MiB, "an entry deckgen wrote in its cache folder"),
    "input": Kind("input file", 64 * MiB, "a file a deck reads (its own file, art, fonts, spreadsheets)"),
    "settings": Kind("settings file", 1 * MiB, "a TOML text deckgen wrote in its config folder"),
    "template": Kind("template", 4 * MiB, "a text template inside the deck's folder"),
    "output": Kind("output file", 1024 * MiB, "a file deckgen wrote in the output folder"),
    "shipped": Kind("shipped file", 64 * MiB, "a file installed with deckgen"),
}

_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)
_NO_FOLLOW = getattr(os, "O_NOFOLLOW", 0)


class RefusedInput(UnreadableInput):
    """An input the opener would not read; `reason` says why as a phrase after the file's name."""

    def __init__(self, problem: Problem, reason: str):
        super().__init__(problem)
        self.reason = reason


class _Refused(Exception):
    """Why a file is not read, as a phrase that follows its label ("is a FIFO, not a regular file")."""

    def __init__(self, reason: str, hint: str = ""):
        super().__init__(reason)
        self.reason, self.hint = reason, hint


def open_input(path: str | os.PathLike, kind: str, *, within: Path | None = None,
               follow_links: bool = True) -> BinaryIO:
    """The file at `path`, open for reading in binary, once it is known to be a regular file of
    at most its kind's limit (inside `within` when given); `UnreadableInput` otherwise."""
    try:
        return _open(Path(path), KINDS[kind], within, follow_links)[0]
    except _Refused as refused:
        raise _unreadable(Path(path), KINDS[kind], refused) from None


def read_input(path: str | os.PathLike, kind: str, *, within: Path | None = None,
               follow_links: bool = True) -> bytes:
    """The bytes of the file at `path`, under the promises of `open_input`."""
    try:
        return _read(Path(path), KINDS[kind], within, follow_links)
    except _Refused as refused:
        raise _unreadable(Path(path), KINDS[kind], refused) from None


def read_text_input(path: str | os.PathLike, kind: str, *, within: Path | None = None) -> str:
    """The text of a UTF-8 file (a byte-order mark dropped); a byte that is not UTF-8 is an
    error naming its line."""
    raw = read_input(path, kind, within=within)
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = raw[: error.start].count(b"\n") + 1
        raise UnreadableInput(Problem(f"not UTF-8: byte 0x{raw[error.start]:02x} cannot be decoded", line=line,
                                      file=Path(path), hint="save the file as UTF-8")) from None


def input_problem(path: str | os.PathLike, kind: str, *, within: Path | None = None) -> str:
    """Why the file at `path` cannot be read as `kind` ("" when it can), without reading it:
    for checks that report every problem instead of stopping at the first."""
    try:
        handle, _ = _open(Path(path), KINDS[kind], within, True)
    except _Refused as refused:
        return refused.reason
    handle.close()
    return ""


def read_if_regular(path: str | os.PathLike, kind: str, *, follow_links: bool = True) -> bytes | None:
    """The bytes of a readable regular file, or None for anything else (missing, a FIFO, too
    large, a link when `follow_links` is false): for caches, where such a file is a miss."""
    try:
        return _read(Path(path), KINDS[kind], None, follow_links)
    except _Refused:
        return None


def contained(path: Path, within: Path) -> Path:
    """`path` with every link resolved, when that lies inside `within` (resolved too);
    `_Refused` otherwise. A link inside the folder that leads out is outside."""
    try:
        target = Path(os.path.realpath(path, strict=False))
        root = Path(os.path.realpath(within, strict=False))
    except (OSError, ValueError) as error:  # a link loop, a NUL byte
        raise _Refused(f"cannot be followed ({error})", "a symbolic link loop?") from None
    if not target.is_relative_to(root) and not any(target.is_relative_to(folder) for folder in allowed_folders()):
        raise _Refused(f"lies outside the folder {root}",
                       "files a deck names must be inside the deck's folder; to share a folder of fonts, art "
                       "or layouts between decks, allow it: `deckgen --allow-folder DIR COMMAND ...`") from None
    return target


def allowed_folders() -> list[Path]:
    """Folders outside a deck's own that the user allowed it to name files in (`deckgen
    --allow-folder DIR`, which sets `ALLOW_ENV` so worker processes inherit it), links resolved."""
    value = os.environ.get(ALLOW_ENV, "")
    return [Path(os.path.realpath(part)) for part in value.split(os.pathsep) if part]


def allow_folders(folders: list[Path]) -> None:
    """Let decks name files inside `folders` too, in this process and the ones it starts."""
    known = [part for part in os.environ.get(ALLOW_ENV, "").split(os.pathsep) if part]
    added = [os.path.realpath(folder) for folder in folders]
    os.environ[ALLOW_ENV] = os.pathsep.join(dict.fromkeys(known + added))


def is_inside(path: Path, within: Path) -> bool:
    """Whether `path`, links resolved, lies inside `within`."""
    try:
        contained(path, within)
    except _Refused:
        return False
    return True


def _read(path: Path, kind: Kind, within: Path | None, follow_links: bool) -> bytes:
    handle, info = _open(path, kind, within, follow_links)
    with handle:
        try:
            raw = handle.read(kind.limit + 1)
        except OSError as error:
            raise _Refused(f"cannot be read ({error.strerror or error})") from None
    if len(raw) > kind.limit:
        raise _Refused(f"is larger than the limit of {kind.limit:,} bytes", kind.hint)
    return raw


def _open(path: Path, kind: Kind, within: Path | None, follow_links: bool) -> tuple[BinaryIO, os.stat_result]:
    target = contained(path, within) if within is not None else path
    try:
        seen = os.stat(target, follow_symlinks=follow_links)
    except FileNotFoundError:
        raise _Refused("does not exist", "check the file's name and folder") from None
    except (OSError, ValueError) as error:
        raise _Refused(f"cannot be read ({getattr(error, 'strerror', None) or error})") from None
    if not follow_links and stat.S_ISLNK(seen.st_mode):
        raise _Refused("is a symbolic link, which is not followed here")
    _check(seen, kind)
    flags = _OPEN_FLAGS | (0 if follow_links else _NO_FOLLOW)
    try:
        descriptor = os.open(target, flags)
    except OSError as error:
        raise _Refused(f"cannot be read ({error.strerror or error})") from None
    try:
        info = os.fstat(descriptor)
        _check(info, kind)  # the file opened, not the one looked at: it may have been swapped
        handle = io.open(descriptor, "rb", closefd=True)
    except BaseException:
        os.close(descriptor)
        raise
    return handle, info


def _check(info: os.stat_result, kind: Kind) -> None:
    if not stat.S_ISREG(info.st_mode):
        raise _Refused(f"is {file_type(info.st_mode)}, not a regular file",
                       "give the path of an ordinary file (reading a FIFO or a device could wait for ever)")
    if info.st_size > kind.limit:
        raise _Refused(f"is {info.st_size:,} bytes; the limit is {kind.limit:,}", kind.hint)


def file_type(mode: int) -> str:
    """What a non-regular file is, in words."""
    for test, name in ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a device"),
                       (stat.S_ISBLK, "a device"), (stat.S_ISSOCK, "a socket"), (stat.S_ISLNK, "a symbolic link")):
        if test(mode):
            return name
    return "not a file"


def _unreadable(path: Path, kind: Kind, refused: _Refused) -> RefusedInput:
    return RefusedInput(Problem(f"{kind.label} {refused.reason}", file=path, hint=refused.hint), refused.reason)
