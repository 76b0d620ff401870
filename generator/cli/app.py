"""The `deckgen` command: a thin shell over the library.

Every command parses options, calls one library function and prints its result.
Errors a user can fix (`DeckgenError`) are printed without a traceback and set
the exit code: 1 for problems found, 2 for input that cannot be read. Anything else is a bug
in deckgen: one line saying so, exit 70 (EX_SOFTWARE), the traceback with `--debug` or
`DECKGEN_DEBUG=1`.
"""

from __future__ import annotations

import importlib
import os
import sys
from pathlib import Path
from typing import Optional

import typer
from typer import Abort, Exit

try:  # typer 0.29 and later carry their own copy of click
    from typer._click.exceptions import ClickException
except ImportError:  # older typer runs on the click package
    from click.exceptions import ClickException

from .. import __version__
from ..core.errors import DeckgenError, OptionError
from ..core.files import allow_folders
from .console import aborted, debug_requested, report, report_bug
from .console import print_json as _print_json
from .options import DeckArg, DecksDir, JsonFlag, LangOption, OutputDir  # noqa: F401 - shared with the commands

app = typer.Typer(
    name="deckgen",
    help="Write a card game's deck once in TOML; get print sheets, exports, rulebooks, "
         "a validator and a referee.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


# Each module that adds commands to `app` (its `register(app)`), and the commands it adds
# (tests/cli/test_cli.py holds the names to what `register` adds). A command line registers only
# the module of its command: typer reads every registered command's signature on each run.
COMMAND_MODULES: dict[str, tuple[str, ...]] = {
    "generator.cli.commands.render": ("print", "images"),
    "generator.cli.commands.games": ("referee", "rule", "simulate", "mush-log"),
    "generator.cli.commands.engines": ("engines",),
    "generator.cli.commands.export": ("export",),
    "generator.cli.commands.rulebook": ("rulebook",),
    "generator.cli.commands.printer": ("printer",),
    "generator.cli.commands.watch": ("watch",),
    "generator.cli.commands.play": ("play",),
    "generator.cli.commands.new": ("new",),
    "generator.cli.commands.diff": ("diff",),
    "generator.cli.commands.validate": ("validate",),
    "generator.cli.commands.layout": ("layout",),
    "generator.cli.commands.components": ("tuckbox", "tokens"),
}
OWN_COMMANDS = ("list", "show", "schema", "build")  # defined in this module
ALLOW_OPTION = "--allow-folder"  # the one top-level option that takes a value


def register_commands(args: list[str]) -> None:
    """Add to `app` the commands this command line may run: its own command's module, or every
    module when the line names none of them (help, a typo: typer then lists every command)."""
    words = [word for before, word in zip([None, *args], args)  # options, and the folder --allow-folder takes
             if not word.startswith("-") and before != ALLOW_OPTION]
    command = words[0] if words else None
    if command in OWN_COMMANDS:
        return
    owner = next((module for module, commands in COMMAND_MODULES.items() if command in commands), None)
    for module in [owner] if owner else COMMAND_MODULES:
        if module not in _registered:
            importlib.import_module(module).register(app)
            _registered.add(module)


_registered: set[str] = set()


def _show_version(value: bool) -> None:
    if value:
        typer.echo(f"deckgen {__version__}")
        raise typer.Exit(0)


@app.callback()
def _global_options(
    version: bool = typer.Option(False, "--version", callback=_show_version, is_eager=True,
                                 help="Print deckgen's version and exit."),
    debug: bool = typer.Option(False, "--debug",
                               help="Show the full traceback when deckgen itself fails "
                                    "(also DECKGEN_DEBUG=1); may follow the command too."),
    allow_folder: list[Path] = typer.Option(
        [], "--allow-folder", exists=True, file_okay=False, dir_okay=True,
        help="A folder outside a deck's own whose files (fonts, art, layouts, spreadsheets) its "
             "deck file may name; repeat for more (also DECKGEN_ALLOW_FOLDERS)."),
) -> None:
    """Options for every command; `--version` acts in its callback, `--debug` in `main`."""
    if allow_folder:
        allow_folders(allow_folder)


@app.command("list")
def list_decks(decks_dir: Path = DecksDir, as_json: bool = JsonFlag) -> int:
    """List the decks in the decks folder: id, name, players, card count."""
    from .commands import quick

    return quick.list_decks(decks_dir, as_json)


@app.command()
def show(deck: str = DeckArg, decks_dir: Path = DecksDir, as_json: bool = JsonFlag) -> int:
    """Print a deck's composition: by suit, rank and kind, every card, totals."""
    from .commands import quick

    return quick.show(deck, decks_dir, as_json)


@app.command()
def schema() -> None:
    """Print the JSON Schema of the deck format (for editors such as Taplo)."""
    from ..deck.schema import DECK_SCHEMA

    _print_json(DECK_SCHEMA)


@app.command()
def build(decks_dir: Path = DecksDir, output: Path = OutputDir, as_json: bool = JsonFlag,
          jobs: int = typer.Option(0, "--jobs", "-j", min=0,
                                   help="Processes building at once: a deck each, or a lone deck's steps side "
                                        "by side; 0 means one per core."),
          base_url: Optional[str] = typer.Option(
              None, "--base-url", metavar="URL",
              help="http(s) address the output folder will be served from: the Lackey plugins get "
                   "auto-update files and the Tabletop Simulator decks image URLs there "
                   "(overrides each deck's [publish] base_url)."),
          lang: Optional[str] = LangOption,
          paper: str = typer.Option("a4", "--paper",
                                    help="Paper of the print sheets: a4 (default), letter, or all (both).")) -> int:
    """Build every deck in the decks folder into the output folder (translations with --lang,
    into OUTPUT/<deck>/<lang>/)."""
    from .commands import quick

    if paper not in ("a4", "letter", "all"):
        raise OptionError(f"--paper {paper!r} is not a paper; choose a4, letter or all")
    papers = ("a4", "letter") if paper == "all" else (paper,)
    reused = quick.build(decks_dir, output, as_json, jobs, base_url, lang, papers)
    if reused is not None:  # every deck up to date: answered from the manifests, nothing imported to build
        return reused
    from ..build.run import build_all
    from ..core.progress import progress_bar
    from ..deck.publish import check_base_url

    global _exit_at_once
    _exit_at_once = True  # set before the build: a failed one ends as quickly
    with progress_bar(as_json) as advance:
        results = build_all(decks_dir, output, jobs=jobs or None,
                            base_url=check_base_url(base_url) if base_url is not None else None,
                            lang=lang, advance=advance, papers=papers)
    return quick.report_build(results, as_json)


def _with_debug_first(args: list[str]) -> list[str]:
    """Let `--debug` follow the command (`deckgen build --debug`): the option belongs to the
    top level, so it is moved there."""
    words = args[:args.index("--")] if "--" in args else args
    if "--debug" not in words:
        return args
    rest = list(args)
    rest.remove("--debug")
    return ["--debug"] + rest


# Set by a command whose process has nothing left to do once it returns but free its objects
# (`build`: every worker joined, every file closed, nothing registered to run at exit). The
# fonts, drawings and modules a build holds take about 0.13 s of CPU to free one by one.
_exit_at_once = False


def exit_at_once(code: int) -> None:
    """End the process with `code` without tearing the interpreter down: freeing a build's
    fonts, drawings and modules one by one costs about 0.13 s of CPU and does nothing useful.
    A stream that cannot be flushed takes the normal exit, so Python reports it as usual."""
    try:
        for stream in (sys.stdout, sys.stderr):
            if stream is not None:
                stream.flush()
    except BaseException:  # noqa: BLE001 - the normal exit reports it, with its usual exit code
        sys.exit(code)
    os._exit(code)


def main(argv: Optional[list[str]] = None) -> int:
    """Run the command line through typer; return (and, with no argv, exit with) its exit code.
    The `deckgen` command is this function."""
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        register_commands(args)
        code = _run(_with_debug_first(args))
    except Exception as error:  # a bug in deckgen, not a problem with the user's input
        code = report_bug(error, debug_requested(args))
    if argv is None:
        if _exit_at_once:
            exit_at_once(code)
        sys.exit(code)
    return code


def _run(args: list[str]) -> int:
    """Run one command; deckgen's own errors become messages and exit codes."""
    try:
        # Without standalone mode click returns the code of a `typer.Exit` instead of exiting,
        # and a command's own return value (the quick commands return their exit code).
        returned = app(args=args, prog_name="deckgen", standalone_mode=False)
        code = returned if isinstance(returned, int) else 0
    except Exit as done:
        code = done.exit_code
    except ClickException as error:
        error.show()
        code = 2
    except (Abort, KeyboardInterrupt):
        code = aborted()
    except DeckgenError as error:
        code = report(error)
    return code
