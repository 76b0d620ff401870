"""The `deckgen` command: a thin shell over the library.

Every command parses options, calls one library function and prints its result.
Errors a user can fix (`DeckgenError`) are printed without a traceback and set
the exit code: 1 for problems found, 2 for input that cannot be read.
"""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path
from typing import Optional

import typer

from typer import Abort, Exit

try:  # typer 0.29 and later carry their own copy of click
    from typer._click.exceptions import ClickException
except ImportError:  # older typer runs on the click package
    from click.exceptions import ClickException

from .errors import DeckgenError, InvalidDeck, UnreadableInput

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

# Modules that add their commands to `app` (each defines `register(app)`).
COMMAND_MODULES: list[str] = [
    "generator.commands.render",
    "generator.commands.games",
    "generator.commands.export",
    "generator.commands.rulebook",
    "generator.commands.validate",
]


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
                                   help="Decks built at once; 0 means one per core.")) -> None:
    """Build every deck in the decks folder into the output folder."""
    from .build import build_all

    results = build_all(decks_dir, output, jobs=jobs or None)
    if as_json:
        _print_json([{"deck": r.deck_id, "ok": r.ok, "built": r.built, "reused": r.reused,
                      "error": r.error, "seconds": r.seconds} for r in results])
    for result in results:
        if as_json:
            continue
        if result.ok:
            reused = f", reused {', '.join(result.reused)}" if result.reused else ""
            typer.echo(f"{result.deck_id}: built {', '.join(result.built) or 'nothing'}{reused} "
                       f"-> {output / result.deck_id}/")
        else:
            typer.echo(f"{result.deck_id}: FAILED, previous outputs kept\n{result.error}", err=True)
    if not all(r.ok for r in results):
        raise typer.Exit(1)


for _module in COMMAND_MODULES:
    importlib.import_module(_module).register(app)


def main(argv: Optional[list[str]] = None) -> int:
    """Run the command line; return (and, from the console script, exit with) its exit code."""
    try:
        # Without standalone mode click returns the code of a `typer.Exit` instead of exiting.
        returned = app(args=argv, prog_name="deckgen", standalone_mode=False)
        code = returned if isinstance(returned, int) else 0
    except Exit as done:
        code = done.exit_code
    except ClickException as error:
        error.show()
        code = 2
    except Abort:
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
    if argv is None:
        sys.exit(code)
    return code
