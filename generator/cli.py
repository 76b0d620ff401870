"""The `deckgen` command: a thin shell over the library.

Every command parses options, calls one library function and prints its result.
Errors a user can fix (`DeckgenError`) are printed without a traceback and set
the exit code: 1 for problems found, 2 for input that cannot be read. Anything else is a bug
in deckgen: one line saying so, exit 70 (EX_SOFTWARE), the traceback with `--debug` or
`DECKGEN_DEBUG=1`.
"""

from __future__ import annotations

import importlib
import json
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

from . import __version__
from .errors import DeckgenError, InvalidDeck, UnreadableInput

EX_SOFTWARE = 70  # sysexits.h: an internal software error

app = typer.Typer(
    name="deckgen",
    help="Write a card game's deck once in TOML; get print sheets, exports, rulebooks, "
         "a validator and a referee.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)

# Shared options, so every command spells them the same way.
DecksDir = typer.Option(Path("decks"), "--decks-dir", help="Folder holding the deck files.")
OutputDir = typer.Option(Path("output"), "--output", "-o", help="Folder the outputs go to.")
JsonFlag = typer.Option(False, "--json", help="Print machine-readable JSON instead of text.")
DeckArg = typer.Argument(..., help="A deck id from the decks folder, or a path to a .toml file.")
LangOption = typer.Option(None, "--lang", metavar="LANG",
                          help="A translation of the deck (its code, e.g. de: translations/<deck>.de.toml), "
                               "or 'all' for the deck and every translation; outputs go to OUTPUT/<deck>/<lang>/.")

# Modules that add their commands to `app` (each defines `register(app)`).
COMMAND_MODULES: list[str] = [
    "generator.commands.render",
    "generator.commands.games",
    "generator.commands.export",
    "generator.commands.rulebook",
    "generator.commands.printer",
    "generator.commands.watch",
    "generator.commands.new",
    "generator.commands.diff",
    "generator.commands.validate",
]


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
) -> None:
    """Options for every command; `--version` acts in its callback, `--debug` in `main`."""


def _print_json(data) -> None:
    typer.echo(json.dumps(data, indent=2, ensure_ascii=False))


@app.command("list")
def list_decks(decks_dir: Path = DecksDir, as_json: bool = JsonFlag) -> None:
    """List the decks in the decks folder: id, name, players, card count."""
    from .loader import deck_paths, load_deck

    rows = []
    for path in deck_paths(decks_dir):
        deck = load_deck(path)
        rows.append({"id": deck.id, "name": deck.name, "players": f"{deck.min_players}-{deck.max_players}",
                     "cards": deck.total, "engine": deck.engine, "file": str(path)})
    if as_json:
        _print_json(rows)
        return
    if not rows:
        typer.echo(f"no decks in {decks_dir}/")
        return
    width = max(len(r["id"]) for r in rows)
    name_width = max(len(r["name"]) for r in rows)
    typer.echo(f"{'id':<{width}}  {'name':<{name_width}}  players  cards")
    for row in rows:
        typer.echo(f"{row['id']:<{width}}  {row['name']:<{name_width}}  {row['players']:>7}  {row['cards']:>5}")


@app.command()
def show(deck: str = DeckArg, decks_dir: Path = DecksDir, as_json: bool = JsonFlag) -> None:
    """Print a deck's composition: by suit, rank and kind, every card, totals."""
    from .loader import load_deck
    from .summary import composition, composition_text

    loaded = load_deck(deck, decks_dir)
    if as_json:
        _print_json(composition(loaded))
    else:
        typer.echo(composition_text(loaded))


@app.command()
def schema() -> None:
    """Print the JSON Schema of the deck format (for editors such as Taplo)."""
    from .schema import DECK_SCHEMA

    _print_json(DECK_SCHEMA)


@app.command()
def build(decks_dir: Path = DecksDir, output: Path = OutputDir, as_json: bool = JsonFlag,
          jobs: int = typer.Option(0, "--jobs", "-j", min=0,
                                   help="Decks built at once; 0 means one per core."),
          base_url: Optional[str] = typer.Option(
              None, "--base-url", metavar="URL",
              help="http(s) address the output folder will be served from: the Lackey plugins get "
                   "auto-update files and the Tabletop Simulator decks image URLs there "
                   "(overrides each deck's [publish] base_url)."),
          lang: Optional[str] = LangOption) -> None:
    """Build every deck in the decks folder into the output folder (translations with --lang,
    into OUTPUT/<deck>/<lang>/)."""
    from .build import build_all
    from .export import check_base_url
    from .progress import progress_bar

    with progress_bar(as_json) as advance:
        results = build_all(decks_dir, output, jobs=jobs or None,
                            base_url=check_base_url(base_url) if base_url is not None else None,
                            lang=lang, advance=advance)
    if as_json:
        _print_json([{"deck": r.deck_id, "ok": r.ok, "built": r.built, "reused": r.reused,
                      "error": r.error, "seconds": r.seconds} for r in results])
    for result in results:
        if as_json:
            continue
        if result.ok:
            reused = f", reused {', '.join(result.reused)}" if result.reused else ""
            typer.echo(f"{result.deck_id}: built {', '.join(result.built) or 'nothing'}{reused} "
                       f"-> {result.folder}/{result.note}")
        else:
            typer.echo(f"{result.deck_id}: FAILED, previous outputs kept\n{result.error}", err=True)
    if not all(r.ok for r in results):
        raise typer.Exit(1)


for _module in COMMAND_MODULES:
    importlib.import_module(_module).register(app)


def _debug_requested(args: list[str]) -> bool:
    """`--debug` anywhere before a `--`, or DECKGEN_DEBUG set to anything but 0/empty."""
    words = args[:args.index("--")] if "--" in args else args
    return "--debug" in words or os.environ.get("DECKGEN_DEBUG", "") not in ("", "0")


def _with_debug_first(args: list[str]) -> list[str]:
    """Let `--debug` follow the command (`deckgen build --debug`): the option belongs to the
    top level, so it is moved there."""
    words = args[:args.index("--")] if "--" in args else args
    if "--debug" not in words:
        return args
    rest = list(args)
    rest.remove("--debug")
    return ["--debug"] + rest


def main(argv: Optional[list[str]] = None) -> int:
    """Run the command line; return (and, from the console script, exit with) its exit code."""
    args = list(sys.argv[1:] if argv is None else argv)
    debug = _debug_requested(args)
    try:
        code = _run(_with_debug_first(args))
    except Exception as error:  # a bug in deckgen, not a problem with the user's input
        if debug:
            import traceback

            traceback.print_exc()
        else:
            where = _innermost_frame(error)
            what = " ".join(str(error).split())
            typer.echo(f"deckgen: internal error: {type(error).__name__}: {what}{where} "
                       f"(deckgen {__version__}); this is a bug in deckgen. Run again with --debug "
                       f"(or DECKGEN_DEBUG=1) to see the traceback.", err=True)
        code = EX_SOFTWARE
    if argv is None:
        sys.exit(code)
    return code


def _innermost_frame(error: BaseException) -> str:
    """` in generator/x.py:123`: where deckgen's own code failed, for a one-line report."""
    import traceback

    frames = [frame for frame in traceback.extract_tb(error.__traceback__)
              if "/generator/" in frame.filename.replace("\\", "/")]
    if not frames:
        return ""
    frame = frames[-1]
    path = frame.filename.replace("\\", "/")
    return f" in {path[path.rindex('/generator/') + 1:]}:{frame.lineno}"


def _run(args: list[str]) -> int:
    """Run one command; deckgen's own errors become messages and exit codes."""
    try:
        # Without standalone mode click returns the code of a `typer.Exit` instead of exiting.
        returned = app(args=args, prog_name="deckgen", standalone_mode=False)
        code = returned if isinstance(returned, int) else 0
    except Exit as done:
        code = done.exit_code
    except ClickException as error:
        error.show()
        code = 2
    except (Abort, KeyboardInterrupt):
        typer.echo("aborted", err=True)
        code = 130
    except InvalidDeck as error:
        for problem in error.problems:
            typer.echo(str(problem), err=True)
        typer.echo(f"{len(error.problems)} problem(s) found", err=True)
        code = error.exit_code
    except UnreadableInput as error:
        typer.echo(str(error.problem), err=True)
        code = error.exit_code
    except DeckgenError as error:
        typer.echo(f"deckgen: error: {error}", err=True)
        code = error.exit_code
    return code
