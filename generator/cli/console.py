"""What a command prints, and how deckgen's errors reach the user, without typer.

Shared by the typer app (`generator.cli.app`) and the quick entry point (`generator.cli.app`), so
both print the same bytes and exit with the same codes: 1 for problems found, 2 for input that
cannot be read, 70 (EX_SOFTWARE) for a bug in deckgen.
"""

from __future__ import annotations

import codecs
import os
import re
import sys

from .. import __version__

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing at start-up
if TYPE_CHECKING:
    from ..core.errors import DeckgenError

EX_SOFTWARE = 70  # sysexits.h: an internal software error
_ANSI = re.compile(r"\033\[[;?0-9]*[a-zA-Z]")  # what click's echo strips


def echo(text: str = "", err: bool = False) -> None:
    """One line to stdout (stderr with err), as click's `echo` writes it: flushed; terminal
    colour codes removed unless the stream is a terminal; UTF-8 where the stream claims ASCII."""
    stream = sys.stderr if err else sys.stdout
    if stream is None:  # no console at all (pythonw)
        return
    out = f"{text}\n"
    if os.name == "nt" or not _isatty(stream):
        out = _ANSI.sub("", out)
    if _ascii(stream) and hasattr(stream, "buffer"):
        stream.flush()
        stream.buffer.write(out.encode("utf-8", "replace"))
        stream.buffer.flush()
        return
    stream.write(out)
    stream.flush()


def _isatty(stream) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def _ascii(stream) -> bool:
    try:
        return codecs.lookup(getattr(stream, "encoding", None) or "ascii").name == "ascii"
    except LookupError:
        return False


def print_json(data) -> None:
    import json

    echo(json.dumps(data, indent=2, ensure_ascii=False))


def report(error: DeckgenError) -> int:
    """Print one of deckgen's own errors the way a user should see it; return the exit code."""
    from ..core.errors import InvalidDeck, UnreadableInput

    if isinstance(error, InvalidDeck):
        for problem in error.problems:
            echo(str(problem), err=True)
        echo(f"{len(error.problems)} problem(s) found", err=True)
    elif isinstance(error, UnreadableInput):
        echo(str(error.problem), err=True)
    else:
        echo(f"deckgen: error: {error}", err=True)
    return error.exit_code


def report_bug(error: BaseException, debug: bool) -> int:
    """A bug in deckgen (an exception that is not one of its own errors): the traceback with
    --debug, else one line saying what failed and how to see more. Returns EX_SOFTWARE."""
    import traceback

    if debug:
        traceback.print_exc()
        return EX_SOFTWARE
    where = ""
    frames = [frame for frame in traceback.extract_tb(error.__traceback__)
              if "/generator/" in frame.filename.replace("\\", "/")]
    if frames:  # ` in generator/x.py:123`: where deckgen's own code failed
        path = frames[-1].filename.replace("\\", "/")
        where = f" in {path[path.rindex('/generator/') + 1:]}:{frames[-1].lineno}"
    what = " ".join(str(error).split())
    echo(f"deckgen: internal error: {type(error).__name__}: {what}{where} "
         f"(deckgen {__version__}); this is a bug in deckgen. Run again with --debug "
         f"(or DECKGEN_DEBUG=1) to see the traceback.", err=True)
    return EX_SOFTWARE


def aborted() -> int:
    """Ctrl-C: one word, and the shell's code for an interrupted command."""
    echo("aborted", err=True)
    return 130


def debug_requested(args: list[str]) -> bool:
    """`--debug` anywhere before a `--`, or DECKGEN_DEBUG set to anything but 0/empty."""
    words = args[:args.index("--")] if "--" in args else args
    return "--debug" in words or os.environ.get("DECKGEN_DEBUG", "") not in ("", "0")
