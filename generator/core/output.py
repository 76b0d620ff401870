"""Atomic file output: nothing is half-written, and a failed write leaves the old file.

Every output goes through here, so the promises hold in one place: a write that fails
(the output folder is a file, read-only, or the disk is full) is an `OutputError` naming
the path; files and folders get the modes the user's umask gives (not mkstemp's 0600);
nothing is written through a symlink inside a deck's output folder; and temporary files
a killed run left behind are cleaned up.
"""

from __future__ import annotations

import errno
import itertools
import os
import shutil
import stat
import tempfile
import time
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Iterator

from .errors import DeckgenError

TEMP_SUFFIX = ".tmp"
# A temporary file untouched for this long belongs to a run that was killed.
STALE_TEMP_SECONDS = 15 * 60


class OutputError(DeckgenError):
    """An output that cannot be written (exit code 2: the output folder is unusable)."""

    exit_code = 2


def _current_umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


_UMASK = _current_umask()
FILE_MODE = 0o666 & ~_UMASK
FOLDER_MODE = 0o777 & ~_UMASK

_HINTS = {
    errno.ENOSPC: "the disk is full",
    errno.EDQUOT: "the disk quota is used up",
    errno.EACCES: "no permission to write there; choose another folder with --output",
    errno.EPERM: "no permission to write there; choose another folder with --output",
    errno.EROFS: "the file system is read-only; choose another folder with --output",
    errno.ENOTDIR: "a file is in the way of a folder deckgen needs",
    errno.EEXIST: "a file is in the way of a folder deckgen needs",
    errno.ENAMETOOLONG: "the file name is too long",
}


def output_error(error: OSError, path: Path) -> OutputError:
    """A clear error for an `OSError` met writing `path`."""
    hint = _HINTS.get(error.errno or 0, "")
    reason = error.strerror or str(error)
    return OutputError(f"cannot write {path}: {reason}" + (f" ({hint})" if hint else ""))


@contextmanager
def writing(path: Path) -> Iterator[None]:
    """Turn any `OSError` inside the block into an `OutputError` naming `path`."""
    try:
        yield
    except OSError as error:
        raise output_error(error, path) from None


def make_folder(folder: Path) -> Path:
    with writing(folder):
        folder.mkdir(parents=True, exist_ok=True)
    return folder


_temp_numbers = itertools.count()  # next() is atomic: the images step writes from threads


def write_bytes(path: Path, data: bytes) -> Path:
    """Write `data` to a temporary file next to `path`, then rename it into place in one step.
    Few system calls: a build writes hundreds of files, and mkstemp's random names, a chmod and
    a failing unlink each cost more than the write of a small file."""
    if path.is_symlink():
        raise OutputError(f"refusing to write {path}: it is a symbolic link")
    with writing(path):
        temp = _new_temp(path)
        try:
            temp.write_bytes(data)
            os.replace(temp, path)
        except BaseException:
            with suppress(OSError):
                os.unlink(temp)
            raise
    return path


def _new_temp(path: Path) -> Path:
    """A new empty file `.<name>.<pid>-<n>.tmp` beside `path` (its folder made when missing),
    with the mode the umask gives; a name a killed run left behind is skipped."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0)
    folder_made = False
    while True:
        temp = path.with_name(f".{path.name}.{os.getpid()}-{next(_temp_numbers)}{TEMP_SUFFIX}")
        try:
            os.close(os.open(temp, flags, 0o666))
            return temp
        except FileExistsError:
            continue
        except (FileNotFoundError, NotADirectoryError):
            if folder_made:
                raise
            # Another thread may be making it too (the images step writes from two).
            make_folder(path.parent)  # raises the clearer error when a file is in the way
            folder_made = True


def write_text(path: Path, text: str, encoding: str = "utf-8") -> Path:
    return write_bytes(path, text.encode(encoding))


def new_folder(parent: Path, prefix: str) -> Path:
    """An empty, uniquely named folder in `parent` with the umask's mode."""
    make_folder(parent)
    with writing(parent):
        fresh = Path(tempfile.mkdtemp(prefix=prefix, dir=parent))
        fresh.chmod(FOLDER_MODE)  # mkdtemp makes it private; outputs are ordinary folders
    return fresh


def switch_folder(fresh: Path, target: Path) -> None:
    """Put the complete folder `fresh` in `target`'s place: the old folder is renamed aside,
    the new one renamed in, then the old one removed, so a reader sees one or the other."""
    with writing(target):
        old = None
        if target.exists() or target.is_symlink():
            old = Path(tempfile.mkdtemp(prefix=f".{target.name}.old-", dir=target.parent))
            os.replace(target, old / target.name)
        os.replace(fresh, target)
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)


@contextmanager
def replaced_folder(target: Path) -> Iterator[Path]:
    """Yield an empty temporary folder; on success it takes `target`'s place, so a reader
    never sees a half-written folder and files of an older one do not linger."""
    fresh = new_folder(target.parent, f".{target.name}.new-")
    try:
        yield fresh
        switch_folder(fresh, target)
    finally:
        shutil.rmtree(fresh, ignore_errors=True)


def prepare_folder(folder: Path) -> Path:
    """Check a deck's output folder before writing into it: refuse it if it or anything in it
    is a symbolic link (a write would land outside the output folder), and delete temporary
    files an interrupted run left behind."""
    if folder.is_symlink():
        raise OutputError(f"refusing to write into {folder}: it is a symbolic link")
    if folder.exists() and not folder.is_dir():
        raise OutputError(f"cannot write into {folder}: it is a file, not a folder")
    now = time.time()
    for root, folders, files in os.walk(folder):
        for name in folders + files:
            path = Path(root, name)
            info = path.lstat()
            if stat.S_ISLNK(info.st_mode):
                raise OutputError(f"refusing to write into {folder}: {path} is a symbolic link",)
            if (name.startswith(".") and name.endswith(TEMP_SUFFIX) and stat.S_ISREG(info.st_mode)
                    and now - info.st_mtime > STALE_TEMP_SECONDS):
                path.unlink(missing_ok=True)
    return folder
