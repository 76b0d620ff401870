"""`deckgen --help` without loading typer: the help typer printed last time, when nothing it
depends on has changed since.

typer, click and every command module (each registering its commands) are what `--help` costs:
about 4x `python -c pass`. What typer prints is a function of deckgen's code, typer's and
click's code, the environment (click wraps to COLUMNS or the terminal's width, gettext may
translate its headings) and the stream it writes to. So the first `deckgen --help` runs typer
as ever, recording what it writes to stdout, and keeps that text in the cache folder
(`generator.deckcache.cache_folder`, file `help`) with:

- a key: the command line, deckgen's version and code stamp, the Python version, every
  environment variable (but PWD, OLDPWD and `_`, which change with each `cd` and command and
  which the help does not read), the terminal's width, and stdout's and stderr's kind and
  encoding;
- the size and modification time of every file of every module outside the standard library
  and deckgen that was loaded when typer printed it (typer, click and what they import), so an
  upgraded typer is a miss.

A later run prints the kept text only when the key is equal and every file unchanged; anything
else runs typer again. Nothing is kept unless typer exited 0 having written to stdout alone,
through its `write` (not its byte buffer), so what is printed back is what typer printed.
"""

from __future__ import annotations

import marshal
import os
import sys

from . import __version__
from .deckcache import cache_folder, code_stamp, read_sealed, write_sealed

MAGIC = b"deckgen help cache 1\n"
# The shell changes these between commands; the help does not read them.
_VOLATILE = frozenset({"PWD", "OLDPWD", "_"})


def print_help(args: list[str]) -> int:
    """Print what `deckgen ARGS` (a request for help: generator.fastcli.HELP_COMMAND_LINES)
    prints; return its exit code."""
    if sys.stdout is None or sys.stderr is None:  # no console (pythonw): nothing to keep
        from .cli import main as typer_main

        return typer_main(list(args))
    place = _entry_path()
    key = _key(args)
    text = _kept_text(place, key)
    if text is not None:
        sys.stdout.write(text)
        sys.stdout.flush()
        return 0
    return _typer_recorded(args, place, key)


def _entry_path():
    folder = cache_folder()
    return None if folder is None else folder / "help"


def _key(args: list[str]) -> tuple:
    environment = tuple(sorted((name, value) for name, value in os.environ.items() if name not in _VOLATILE))
    try:  # what shutil.get_terminal_size, which click wraps to, asks the terminal
        columns = os.get_terminal_size(sys.__stdout__.fileno()).columns
    except (AttributeError, ValueError, OSError):
        columns = None
    return (tuple(args), __version__, code_stamp(), sys.version, environment, columns,
            _stream_kind(sys.stdout), _stream_kind(sys.stderr))


def _stream_kind(stream) -> tuple:
    if stream is None:
        return ()
    try:
        tty = stream.isatty()
    except (AttributeError, ValueError):
        tty = None
    return type(stream).__name__, tty, getattr(stream, "encoding", None), getattr(stream, "errors", None)


def _kept_text(place, key: tuple) -> str | None:
    body = read_sealed(place, MAGIC)
    if body is None:
        return None
    try:
        kept_key, files, text = marshal.loads(body)
    except (EOFError, ValueError, TypeError):
        return None
    if kept_key != key or not all(_facts(name) == facts for name, *facts in files):
        return None
    return text


def _facts(name: str) -> list | None:
    try:
        info = os.stat(name)
    except OSError:
        return None
    return [info.st_size, info.st_mtime_ns]


def _typer_recorded(args: list[str], place, key: tuple) -> int:
    from .cli import main as typer_main

    out, err = _Recorder(sys.stdout), _Recorder(sys.stderr)
    sys.stdout, sys.stderr = out, err
    try:
        code = typer_main(list(args))
    finally:
        sys.stdout, sys.stderr = out.stream, err.stream
    if place is not None and code == 0 and out.faithful and err.faithful and not err.parts:
        files = _library_files()
        if files is not None:
            write_sealed(place, MAGIC, marshal.dumps((key, files, "".join(out.parts))))
    return code


def _library_files() -> list | None:
    """[name, size, mtime] of every loaded module's file outside the standard library and
    deckgen (whose code stamp is in the key); None when one cannot be read."""
    standard = os.path.dirname(os.__file__) + os.sep
    own = os.path.dirname(os.path.abspath(__file__)) + os.sep
    files = []
    for module in list(sys.modules.values()):
        name = getattr(module, "__file__", None)
        if not isinstance(name, str) or name.startswith(standard) and "site-packages" not in name:
            continue
        name = os.path.abspath(name)
        if name.startswith(own):
            continue
        facts = _facts(name)
        if facts is None:
            return None
        files.append([name, *facts])
    return sorted(files)


class _Recorder:
    """A stand-in for sys.stdout or sys.stderr that passes everything on and keeps the text
    written through `write`. `faithful` turns False when anything else is asked of the stream
    that could write past the record (its byte buffer, writelines, detach...)."""

    _SAFE = frozenset({"encoding", "errors", "isatty", "flush", "fileno", "closed", "name", "mode",
                       "line_buffering", "writable", "readable", "seekable"})

    def __init__(self, stream):
        self.stream = stream
        self.parts: list[str] = []
        self.faithful = True

    def write(self, text):
        written = self.stream.write(text)  # first: click probes with b"", which a text stream refuses
        if not isinstance(text, str):
            self.faithful = False
        else:
            self.parts.append(text)
        return written

    def __getattr__(self, name: str):
        if name not in self._SAFE:
            self.faithful = False
        return getattr(self.stream, name)
