"""Commands over the game engines: `referee` (rule on a game log), `rule` (settle one
question at the table), `simulate` (play many games with bots) and `mush-log` (a MUSH
table's journal written as a game log)."""

from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from ..console import print_json as _print_json
from ..options import DeckArg, DecksDir, JsonFlag, LangOption
from . import quick

VariantOption = typer.Option(None, "--variant", help="Play a deck variant (its id); repeat for several.")


def register(app: typer.Typer) -> None:
    @app.command()
    def referee(
        deck: str = DeckArg,
        log: Path = typer.Argument(..., help="The game log (TOML; see docs/game-logs.md)."),
        decks_dir: Path = DecksDir,
        as_json: bool = JsonFlag,
        lang: Optional[str] = LangOption,
        as_html: bool = typer.Option(False, "--html", help="Also write the game as a page to step through "
                                                           "(self-contained HTML)."),
        output: Optional[Path] = typer.Option(None, "--output", "-o", help="Where --html writes the page "
                                              "(default output/DECK/replays/LOG.html)."),
    ) -> int:
        """Replay a game log and rule on it: each round's bids, tricks and scores, the final
        standings, or the first rule broken (where, which rule, what was legal). With --html,
        also write one page that steps through the game: the table after every action, the
        rule that allowed it, and the first violation with its rule and the legal options.
        Exit 0 legal, 1 a rule was broken, 2 the log cannot be read (file, line, field)."""
        return quick.referee(deck, log, decks_dir, as_json, lang, as_html, output)

    @app.command("mush-log")
    def mush_log(
        deck: str = DeckArg,
        journal: Path = typer.Argument(..., help="What +log showed at the MUSH table, every page, copied to a file."),
        output: Optional[Path] = typer.Option(None, "--output", "-o", help="Write the game log here "
                                              "(default: print it)."),
        decks_dir: Path = DecksDir,
    ) -> None:
        """Write the game played at a MUSH table (its +log journal) as a game log, for
        `deckgen referee` to rule on. Exit 2 when the journal cannot be read (the entry and why)."""
        from ...core.files import read_text_input
        from ...core.output import write_text
        from ...export.mush_journal import journal_log, read_journal
        from ...games.logs import dump_log

        loaded = quick.load(deck, decks_dir)
        text = read_text_input(journal, "log")  # a regular file within the log's size limit, never a FIFO
        log = journal_log(loaded, read_journal(text, str(journal)))
        header = {key: log.pop(key) for key in ("deck", "players")}
        toml = dump_log(header, log, [f"The game played at the MUSH table, from its journal {journal.name}."])
        if output is None:
            typer.echo(toml, nl=False)
        else:
            write_text(output, toml)
            typer.echo(f"game log written to {output}")

    @app.command(context_settings={"ignore_unknown_options": True, "allow_extra_args": False})
    def rule(
        deck: str = DeckArg,
        question: Optional[List[str]] = typer.Argument(
            None, help="The question, e.g. `trick --trump hearts 7H JE QS WZ`; none lists the questions."),
        variant: Optional[List[str]] = VariantOption,
        decks_dir: Path = DecksDir,
        as_json: bool = JsonFlag,
        lang: Optional[str] = LangOption,
    ) -> int:
        """Settle one question at the table without a log, citing the rule.

        Each deck's engine answers its own questions; `deckgen rule DECK` lists them, each
        with an example. The questions most games answer:

        \b
          play CARD hand CARD ... [trick CARD ...]    may I play this card? (for no, the legal cards)
          trick [trump SUIT | no trump] CARD ...      who wins this trick, and why
          bid N ...                                   is this bid allowed?
          goal, score ...                             what does this score?

        \b
          e.g.  deckgen rule wizard "trump hearts, led by North: 7H, JE, QS, WZ"
                deckgen rule wizard bid 1 round 3 after 1 0 1 scores 20 40 10 60
                deckgen rule muggle-quidditch goal 7H 5S keeper KD house hearts rival diamonds

        Add --variant ID for a variant's rules. See docs/game-logs.md for every question of the
        shipped games. Exit 0, or 1 when the answer is that a bid or play is not allowed.
        """
        return quick.rule(deck, question, variant, decks_dir, as_json, lang)

    @app.command()
    def simulate(
        deck: str = DeckArg,
        games: int = typer.Option(100, "--games", "-n", min=1, help="How many games to play."),
        players: Optional[int] = typer.Option(None, "--players", "-p",
                                              help="Players per game (default 4, or the game's only count)."),
        seed: int = typer.Option(0, "--seed", help="Seed of the whole run; game i uses a seed derived from it."),
        bot: str = typer.Option("random", "--bot",
                                help="random or heuristic for every seat, or one per seat: heuristic,random,random."),
        variant: Optional[List[str]] = VariantOption,
        save_logs: Optional[Path] = typer.Option(None, "--save-logs", help="Write each game's log to this folder."),
        decks_dir: Path = DecksDir,
        as_json: bool = JsonFlag,
    ) -> None:
        """Play full games with bots and report win rates by seat, the score distribution and
        game length. The same seed gives the same results."""
        from ...games.bots import parse_bot_kinds
        from ...games.simulate import run

        loaded = quick.load(deck, decks_dir)
        game = quick.make_game(loaded, variant)
        if players is None:
            players = 4 if game.min_players <= 4 <= game.max_players else game.min_players
        game.check_players(players)
        bots = parse_bot_kinds(bot, players)
        from ...core.progress import progress_bar

        with progress_bar(as_json) as advance:
            finished = iter(range(1, games + 1))
            on_game = (lambda _: advance(f"{loaded.id}: games", next(finished), games)) if advance else None
            stats = run(game, players, games, seed, bots, save_logs, on_game=on_game)
        if as_json:
            _print_json({"deck": loaded.id, "seed": seed, "bots": bots, **stats.as_dict()})
        else:
            typer.echo(f"{loaded.name}: seed {seed}, bots {','.join(bots)}")
            typer.echo(stats.text())
            if save_logs is not None:
                typer.echo(f"logs written to {save_logs}/")
