"""`deckgen diff OLD NEW` / `deckgen diff DECK --rev REV`: what changed between two versions."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Optional

import typer

from ...core.errors import InvalidDeck


class UnusableDeck(InvalidDeck):
    """A deck that does not load: exit 2 here, because diff's 1 means "the decks differ"."""

    exit_code = 2


def register(app: typer.Typer) -> None:
    from ..console import print_json as _print_json
    from ..options import DecksDir, JsonFlag, OutputDir

    @app.command("diff")
    def diff_command(
        old: str = typer.Argument(..., help="The old deck (id or .toml path), or the deck itself with --rev."),
        new: Optional[str] = typer.Argument(None, help="The new deck (id or .toml path)."),
        rev: Optional[str] = typer.Option(None, "--rev", metavar="REV",
                                          help="Compare the deck with its own file at this git revision "
                                               "(HEAD~3, a tag, a commit)."),
        html: bool = typer.Option(False, "--html", help="Also write OUTPUT/<deck>/diff.html: each changed "
                                                        "card's old and new picture, changes highlighted."),
        reprint: bool = typer.Option(False, "--reprint",
                                     help="Also write an update pack: print sheets of only the cards whose "
                                          "printed face or back changed, in OUTPUT/<deck>/reprint/."),
        paper: str = typer.Option("a4", "--paper", help="Paper of the --reprint sheets: a4 or letter."),
        duplex: str = typer.Option("long-edge", "--duplex", help="--reprint duplex: long-edge, short-edge or none."),
        decks_dir: Path = DecksDir,
        output: Path = OutputDir,
        as_json: bool = JsonFlag,
    ) -> None:
        """Cards added, removed, renamed and changed (field by field, counts), rules, rulings,
        engine parameters and variants changed. Exit 0 when nothing differs, 1 when something does."""
        from ...core.errors import OptionError
        from ...deck.loader import load_deck as load_checked
        from ...deck.loader import resolve_deck_path
        from ...diff.compare import deck_at_revision, diff_decks, diff_text, revision_workdir

        def load_deck(ref, folder=decks_dir):
            try:
                return load_checked(ref, folder)
            except InvalidDeck as error:
                raise UnusableDeck(error.problems) from None

        if (new is None) == (rev is None):
            raise OptionError("give two decks (deckgen diff OLD NEW) or one deck and --rev REV")
        with revision_workdir() as workdir:
            if rev is not None:
                path = resolve_deck_path(old, decks_dir)
                old_deck = load_deck(deck_at_revision(path, rev, Path(workdir)))
                old_deck = dataclasses.replace(old_deck, source=Path(f"{path}@{rev}"))
                new_deck = load_deck(path)
            else:
                old_deck, new_deck = load_deck(old, decks_dir), load_deck(new, decks_dir)
            result = diff_decks(old_deck, new_deck)
            written = []
            folder = output / new_deck.id
            if html:
                from ...diff.report import write_diff_html

                written.append(write_diff_html(result, folder / "diff.html"))
            if reprint:
                from ...printing.sheets import SheetOptions, write_sheets

                counts = result.reprint_counts()
                if counts:
                    pack = dataclasses.replace(new_deck, cards=tuple(
                        dataclasses.replace(card, count=counts[card.id]) for card in new_deck.cards
                        if card.id in counts))
                    written.append(write_sheets(pack, folder / "reprint", SheetOptions(paper=paper, duplex=duplex)))
                else:
                    typer.echo("reprint: no printed face or back changed; nothing to print", err=True)
        if as_json:
            data = result.as_dict()
            data["files"] = [str(p) for p in written]
            _print_json(data)
        else:
            typer.echo(diff_text(result))
            for path in written:
                typer.echo(f"wrote {path}")
        raise typer.Exit(1 if result.changed else 0)
