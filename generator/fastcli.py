"""The `deckgen` entry point: the quick commands without typer.

`deckgen --version`, `list`, `show`, `rule` and `referee` are run from here, loading neither
typer, click nor rich, when this module understands every word of the command line: the
command's own options, spelt as click reads them. So is `deckgen build` when every deck is up
to date (`generator.uptodate` decides, as the build itself does); with anything to build it
goes to typer, which builds. `deckgen --help` prints the help typer printed
before under the same conditions (`generator.helpcache`; typer the first time). Every other
command line (another command, another `--help`, an option it does not know or a value that
looks like one, a missing or extra argument, `--`) goes unchanged to the typer app,
`generator.cli.main`, so the user sees exactly what typer shows. The commands' work
(`generator.commands.quick`), their messages and exit codes (`generator.console`) are the typer
app's own; tests/test_fastcli.py runs both entry points over the same command lines and
compares what they print and return (tests/test_helpcache.py the help).
"""

from __future__ import annotations

import errno
import gc
import os
import sys
from collections.abc import Callable
from pathlib import Path

from . import __version__

FLAG, VALUE, PATH, MULTI, COUNT = "flag", "value", "path", "multi", "count"  # COUNT: a whole number >= 0
_COMPLETE = "_DECKGEN_COMPLETE"  # set by a shell asking typer for completions
# Answered with the help typer printed before (generator.helpcache, which imports typer on a miss).
HELP_COMMAND_LINES = (["--help"],)

_DECKS_DIR = {"--decks-dir": ("decks_dir", PATH)}
_JSON = {"--json": ("as_json", FLAG)}
_LANG = {"--lang": ("lang", VALUE)}


class Command:
    """One quick command's command line, as its typer command declares it (parameters named as
    there and in generator.commands.quick; tests/test_fastcli.py checks the three agree)."""

    def __init__(self, run: str, arguments: tuple[tuple[str, str], ...], options: dict[str, tuple[str, str]],
                 defaults: dict[str, object], rest: str = "", unknown_are_arguments: bool = False):
        self.run = run  # the function in generator.commands.quick
        self.arguments = arguments  # (parameter, VALUE or PATH), in order
        self.options = options  # spelling -> (parameter, kind)
        self.defaults = defaults
        self.rest = rest  # a parameter taking every further argument (one at least)
        # As click with ignore_unknown_options: a word like an option it does not know is an argument.
        self.unknown_are_arguments = unknown_are_arguments


COMMANDS: dict[str, Command] = {
    "list": Command("list_decks", (), {**_DECKS_DIR, **_JSON}, {"decks_dir": Path("decks"), "as_json": False}),
    "show": Command("show", (("deck", VALUE),), {**_DECKS_DIR, **_JSON},
                    {"decks_dir": Path("decks"), "as_json": False}),
    "referee": Command("referee", (("deck", VALUE), ("log", PATH)),
                       {**_DECKS_DIR, **_JSON, **_LANG, "--html": ("as_html", FLAG),
                        "--output": ("output", PATH), "-o": ("output", PATH)},
                       {"decks_dir": Path("decks"), "as_json": False, "lang": None, "as_html": False,
                        "output": None}),
    "build": Command("build", (), {**_DECKS_DIR, **_JSON, **_LANG, "--output": ("output", PATH), "-o": ("output", PATH),
                                   "--jobs": ("jobs", COUNT), "-j": ("jobs", COUNT), "--base-url": ("base_url", VALUE)},
                     {"decks_dir": Path("decks"), "output": Path("output"), "as_json": False, "jobs": 0,
                      "base_url": None, "lang": None}),
    "rule": Command("rule", (("deck", VALUE),), {**_DECKS_DIR, **_JSON, **_LANG, "--variant": ("variant", MULTI)},
                    {"decks_dir": Path("decks"), "as_json": False, "lang": None, "variant": None},
                    rest="question", unknown_are_arguments=True),
}


def main(argv: list[str] | None = None) -> int:
    """Run the command line; return (and, with no argv, exit with) its exit code."""
    args = list(sys.argv[1:] if argv is None else argv)
    planned = plan(args)
    if planned is None and args in HELP_COMMAND_LINES and not os.environ.get(_COMPLETE):
        from .helpcache import print_help

        planned = print_help, {"args": args}
    if planned is None:
        from .cli import main as typer_main

        return typer_main(argv)
    code = _run(*planned, args)
    if code is None:  # a quick command that found work only the full command does (a build)
        from .cli import main as typer_main

        return typer_main(argv)
    if argv is None:
        exit_at_once(code)
    return code


def exit_at_once(code: int) -> None:
    """End the `deckgen` process with `code` without tearing the interpreter down.

    A quick command's work is done and flushed by now (every file it writes is closed, nothing
    in it registers atexit handlers); what a normal exit would still do is free every module,
    class and object one by one, which costs more CPU than `python -c pass` does in all (about
    11 ms after a `referee`, measured by benchmarks/bench_startup.py). A stream that cannot be
    flushed takes the normal exit, so Python reports it as it always has."""
    try:
        for stream in (sys.stdout, sys.stderr):
            if stream is not None:
                stream.flush()
    except BaseException:  # noqa: BLE001 - the normal exit reports it, with its usual exit code
        sys.exit(code)
    os._exit(code)


def plan(args: list[str]) -> tuple[Callable[..., int], dict] | None:
    """The quick function and its arguments for this command line, or None to leave it to typer."""
    if "--" in args or "--help" in args or args.count("--debug") > 1 or os.environ.get(_COMPLETE):
        return None
    words = [word for word in args if word != "--debug"]  # it may come anywhere (generator.cli)
    if words == ["--version"]:
        return _version, {}
    if not words or words[0] not in COMMANDS:
        return None
    command = COMMANDS[words[0]]
    values = _parse(command, words[1:])
    if values is None:
        return None
    from .commands import quick

    return getattr(quick, command.run), values


def _version() -> int:
    from .console import echo

    echo(f"deckgen {__version__}")
    return 0


def _parse(command: Command, words: list[str]) -> dict | None:
    values = dict(command.defaults)
    arguments: list[str] = []
    pending = list(words)
    while pending:
        word = pending.pop(0)
        if not word.startswith("-") or word == "-":
            arguments.append(word)
            continue
        spelling, equals, attached = word.partition("=") if word.startswith("--") else (word, "", "")
        option = command.options.get(spelling)
        if option is None:
            if not command.unknown_are_arguments or spelling == "--help":
                return None
            arguments.append(word)
            continue
        name, kind = option
        if kind == FLAG:
            if equals:  # click: "option does not take a value"
                return None
            values[name] = True
            continue
        if equals:
            value = attached
        elif pending and not pending[0].startswith("-"):
            value = pending.pop(0)
        else:  # missing, or a value click would take but a user hardly means: typer decides
            return None
        if kind == MULTI:
            values[name] = [*(values[name] or ()), value]
        elif kind == COUNT:
            if not (value.isascii() and value.isdigit()):  # a sign, spaces, '_': click's int() decides
                return None
            values[name] = int(value)
        else:
            values[name] = Path(value) if kind == PATH else value
    if len(arguments) < len(command.arguments) + bool(command.rest):
        return None
    if len(arguments) > len(command.arguments) and not command.rest:
        return None
    for (name, kind), value in zip(command.arguments, arguments):
        values[name] = Path(value) if kind == PATH else value
    if command.rest:
        values[command.rest] = arguments[len(command.arguments):]
    return values


def _run(function: Callable[..., int], values: dict, args: list[str]) -> int:
    """Run a quick command in the same three layers as the typer path: generator.cli.main
    (a bug is one line, or the traceback with --debug), generator.cli._run (deckgen's own
    errors become messages and exit codes) and typer's own main (interrupt, end of input,
    closed pipe). The garbage collector is off meanwhile: a quick command's objects (modules,
    classes, the deck) live until it ends, so the ~18 collections its imports and load set off
    find next to nothing (~2.5 ms of CPU); what it leaves is a few cycles per action of a log."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _run_layers(function, values, args)
    finally:
        if collecting:
            gc.enable()


def _run_layers(function: Callable[..., int], values: dict, args: list[str]) -> int:
    try:
        try:
            return _as_typer_main(function, values)
        except Exception as error:
            from .errors import DeckgenError

            if not isinstance(error, DeckgenError):
                raise
            from .console import report

            return report(error)
    except Exception as error:  # a bug in deckgen, not a problem with the user's input
        from .console import debug_requested, report_bug

        return report_bug(error, debug_requested(args))


def _as_typer_main(function: Callable[..., int], values: dict) -> int:
    try:
        return function(**values)
    except KeyboardInterrupt:
        return 130
    except EOFError:
        from .console import aborted, echo

        echo("", err=True)
        return aborted()
    except OSError as error:
        if error.errno != errno.EPIPE:
            raise
        # The reader went away (`deckgen show wizard | head`): exit 1, quietly, even at shutdown.
        sys.stdout, sys.stderr = _QuietFlush(sys.stdout), _QuietFlush(sys.stderr)
        sys.exit(1)


class _QuietFlush:
    """A stream whose flush ignores a closed pipe (click's PacifyFlushWrapper)."""

    def __init__(self, wrapped):
        self.wrapped = wrapped

    def flush(self) -> None:
        try:
            self.wrapped.flush()
        except OSError as error:
            if error.errno != errno.EPIPE:
                raise

    def __getattr__(self, name: str):
        return getattr(self.wrapped, name)
