"""The work of the quick commands (list, show, referee, rule; build with nothing to do), free of typer.

The typer commands (`generator.cli.app`, `generator.cli.commands.games`) and the quick entry point
(`generator.cli.app`) both call these functions, so the two paths print the same and exit the
same. Each takes the parsed options and returns the exit code. Imports wait until needed: a
warm `list` or `show` loads neither the model nor dataclasses. Decks come through the deck
cache (`generator.deck.cache`); what list and show print of a deck is kept there too.
"""

from __future__ import annotations

from pathlib import Path

from ..console import echo, print_json


def list_decks(decks_dir: Path, as_json: bool) -> int:
    from ...deck.cache import deck_view
    from ...deck.files import deck_paths

    rows = [{**deck_view(path, decks_dir, "generator.cli.commands.quick:listing"), "file": str(path)}
            for path in deck_paths(decks_dir)]
    if as_json:
        print_json(rows)
        return 0
    if not rows:
        echo(f"no decks in {decks_dir}/")
        return 0
    width = max(len(r["id"]) for r in rows)
    name_width = max(len(r["name"]) for r in rows)
    echo(f"{'id':<{width}}  {'name':<{name_width}}  players  cards")
    for row in rows:
        echo(f"{row['id']:<{width}}  {row['name']:<{name_width}}  {row['players']:>7}  {row['cards']:>5}")
    return 0


def listing(deck) -> dict:
    """A deck's row in `deckgen list`."""
    return {"id": deck.id, "name": deck.name, "players": f"{deck.min_players}-{deck.max_players}",
            "cards": deck.total, "engine": deck.engine}


def show(deck: str, decks_dir: Path, as_json: bool) -> int:
    from ...deck.cache import deck_view

    if as_json:
        print_json(deck_view(deck, decks_dir, "generator.deck.summary:composition"))
    else:
        echo(deck_view(deck, decks_dir, "generator.deck.summary:composition_text"))
    return 0


def referee(deck: str, log: Path, decks_dir: Path, as_json: bool, lang: str | None, as_html: bool,
            output: Path | None) -> int:
    from ...core.errors import OptionError
    from ...games.logs import MalformedLog
    from ...games.referee import referee_file

    if output is not None and not as_html:
        raise OptionError("--output names the page that --html writes; add --html")
    loaded = load(deck, decks_dir, lang, layouts=as_html)
    recorder = None
    if as_html:
        from ...games.replay import ReplayRecorder

        recorder = ReplayRecorder()
    try:
        report = referee_file(loaded, log, recorder)
    except MalformedLog as error:
        if not as_json:
            raise
        print_json({"log": str(log), "deck": loaded.id, "status": "malformed", "error": error.problem.as_dict()})
        return error.exit_code
    if recorder is not None:
        from ...core.output import write_text
        from ...games.replay import replay_html

        page = output if output is not None else Path("output") / loaded.id / "replays" / f"{log.stem}.html"
        write_text(page, replay_html(loaded, report, recorder, f"{loaded.name}: {log.name}"))
    if as_json:
        print_json(report.as_dict())
    else:
        echo(report.text())
        if recorder is not None:
            echo(f"step-through page written to {page}")
    return report.exit_code


def rule(deck: str, question: list[str] | None, variant: list[str] | None, decks_dir: Path, as_json: bool,
         lang: str | None) -> int:
    from ...core.errors import DeckgenError, OptionError
    from ...games import questions
    from ...games.referee import answer_text

    loaded = load(deck, decks_dir, lang, layouts=False)
    game = make_game(loaded, variant)
    if not question:  # what may be asked, with an example of each
        if as_json:
            print_json({"deck": loaded.id, "engine": game.id, "questions": questions.listing(game)})
        else:
            echo(questions.listing_text(game, loaded.id))
        return 0
    try:
        answer = game.quick_ruling(question)
    except DeckgenError as error:
        # A question the engine cannot read is a usage error, not a "no" from the rules.
        raise OptionError(str(error)) from None
    if as_json:
        print_json(answer)
    else:
        echo(answer_text(loaded, answer))
    return 1 if answer.get("allowed") is False else 0


def build(decks_dir: Path, output: Path, as_json: bool, jobs: int, base_url: str | None,
          lang: str | None, papers: tuple[str, ...] = ("a4",)) -> int | None:
    """`deckgen build` when every deck is up to date (`generator.build.uptodate` decides as the build
    does): its report, with nothing built and no worker started; None when anything is to be
    built or reported otherwise, for the full build (generator.cli.app) to do. `jobs` changes only
    how decks are built. At a terminal the full build would also draw its progress bars on
    stderr, which it erases when it ends: with nothing to build there is nothing to draw."""
    from ...build.uptodate import everything_up_to_date

    if base_url is not None:
        from ...core.errors import OptionError
        from ...deck.publish import check_base_url

        try:
            base_url = check_base_url(base_url)
        except OptionError:  # the full command reports it
            return None
    results = everything_up_to_date(decks_dir, output, base_url, lang, papers)
    return None if results is None else report_build(results, as_json)


def report_build(results, as_json: bool) -> int:
    """Print a build's results (generator.build.run.DeckResult, or generator.build.uptodate.Reused);
    return its exit code."""
    if as_json:
        print_json([{"deck": r.deck_id, "ok": r.ok, "built": r.built, "reused": r.reused,
                     "error": r.error, "seconds": r.seconds} for r in results])
    for result in results:
        if as_json:
            continue
        if result.ok:
            reused = f", reused {', '.join(result.reused)}" if result.reused else ""
            echo(f"{result.deck_id}: built {', '.join(result.built) or 'nothing'}{reused} "
                 f"-> {result.folder}/{result.note}")
        else:
            echo(f"{result.deck_id}: FAILED, previous outputs kept\n{result.error}", err=True)
    return 0 if all(r.ok for r in results) else 1


def load(deck: str, decks_dir: Path, lang: str | None = None, layouts: bool = True):
    """The deck, in one language when --lang names a translation (rule texts are cited in it).
    `layouts=False`: the command draws no card, so a deck from the cache may come without its
    layout book (a translation is checked against the layouts, so --lang keeps them)."""
    from ...deck.cache import load_deck

    loaded = load_deck(deck, decks_dir, layouts=layouts or lang is not None)
    if lang is None:
        return loaded
    from ...core.errors import OptionError

    if lang == "all":
        raise OptionError("--lang all: the referee cites one language; name it, e.g. --lang de")
    from .languages import in_languages

    return next(in_languages(loaded, lang))


def make_game(loaded, variants: list[str] | None):
    """The deck's engine, with the named variants' parameters."""
    from ...games.base import game_for, variant_params

    return game_for(loaded, variant_params(loaded, variants or ()))
