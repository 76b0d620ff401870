"""`deckgen validate`: every problem with a deck, each with a severity, its place and what to do.

Checks run in order, each on what the previous one proved readable: the loader
(format, references, duplicates), composition (what the deck's engine needs),
lint (texts, type lines, art, print fit), rule texts against their rulings
(`rulings`) and, when the deck has an engine and nothing above is an error,
simulated playtests, and with `--ladder` the win-rate matrix of players from random
to search (generator.validate.ladder).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Sequence

from ..core.errors import DeckgenError, InvalidDeck, OptionError, Problem, ProblemList, UnreadableInput
from ..deck.loader import DECKS_DIR, check_deck, deck_paths, resolve_deck_path
from ..deck.locate import Locator
from ..deck.model import Deck
from .compare import compare as compare_arms
from .compare import comparison_text
from .composition import check_composition
from .ladder import Ladder, ladder as run_ladder
from .lint import lint as lint_deck
from .playtest import BUILD_GAMES, DEFAULT_GAMES, parse_sweeps
from .playtest import playtest as run_playtest
from .page import write_report
from .report import report_text
from .tally import figures_kept
from .rulings import ruling_conflicts

if TYPE_CHECKING:
    from .playtest import Playtest


@dataclass
class DeckReport(ProblemList):
    ref: str
    path: Path | None
    problems: list[Problem] = field(default_factory=list)
    unreadable: bool = False
    deck: Deck | None = None
    composition: dict = field(default_factory=dict)
    playtest: "Playtest | None" = None
    ladders: list[Ladder] = field(default_factory=list)  # `--ladder`: one per player count
    note: str = ""  # why a check did not run

    def sorted_problems(self) -> list[Problem]:
        return sorted(self.problems, key=lambda p: (p.severity != "error", p.line or 0, p.field))

    def as_dict(self) -> dict:
        return {"deck": self.ref, "file": str(self.path) if self.path else None, "unreadable": self.unreadable,
                "errors": len(self.errors), "warnings": len(self.warnings),
                "problems": [p.as_dict() for p in self.sorted_problems()],
                "composition": self.composition, "note": self.note or None,
                "playtest": self.playtest.as_dict() if self.playtest else None,
                **({"ladders": [ladder.as_dict() for ladder in self.ladders]} if self.ladders else {})}


@dataclass
class Report:
    decks: list[DeckReport]
    comparison: dict | None = None  # `--compare`: generator.validate.compare

    def exit_code(self, strict: bool = False) -> int:
        if any(d.unreadable for d in self.decks):
            return 2
        if any(d.errors or (strict and d.warnings) for d in self.decks):
            return 1
        return 0

    def as_dict(self) -> dict:
        with figures_kept():
            data = {"decks": [d.as_dict() for d in self.decks]}
        if self.comparison is not None:
            data["comparison"] = self.comparison
        return data

    def text(self) -> str:

        text = report_text(self)
        for deck in self.decks:
            text += "".join(f"\n\n{deck.ref}: {ladder.text()}" for ladder in deck.ladders)
        return text + ("\n\n" + "\n".join(comparison_text(self.comparison)) if self.comparison else "")


def validate_deck(ref: str | Path, decks_dir: Path = DECKS_DIR, simulate: int | str | None = None, seed: int = 1,
                  workers: int | None = None, sweeps: Sequence[str] = (), bot: str = "heuristic",
                  progress: Callable[[str, int, int], None] | None = None, levels: Sequence[str] = (),
                  deals: int = 0, announce: Callable[[str], None] | None = None, **playtest_options) -> DeckReport:
    """Every check on one deck. `simulate` games per setting and player count (None: the
    default, 0: no playtest, "auto": until `precision`); `sweeps` as for `deckgen validate
    --sweep`; `progress(deck, done, total)` follows the playtest; `levels`, if given, are a
    ladder's players, played over `deals` deal sets per cell at each swept player count (else the
    deck's smallest), `announce(line)` getting a line as each cell is done; `playtest_options` go to
    `generator.validate.playtest.playtest` (precision, max_games, skill, cluster, checkpoint,
    resume; a checkpoint folder gets one subfolder per deck)."""

    try:
        path = resolve_deck_path(ref, decks_dir)
        deck, problems = check_deck(path)
    except UnreadableInput as error:
        return DeckReport(str(ref), error.problem.file, [error.problem], unreadable=True)
    report = DeckReport(str(ref), path, list(problems), deck=deck)
    if deck is None:
        return report
    # The loader's errors (unknown suits, ranks, kinds) leave a deck the composition checks and
    # the renderer cannot read; lint's text checks still can. Composition errors break what the
    # engine reads; a variant's composition errors keep only that variant out of the playtest.
    loaded_cleanly = not report.errors
    broken_variants: set[str] = set()
    if loaded_cleanly:
        composition = check_composition(deck)
        report.problems += composition.problems
        report.composition = composition.as_dict()
        variant_problems = _variant_composition(deck, composition.problems)
        broken_variants = {variant for variant, problem in variant_problems if problem.severity == "error"}
        report.problems += [problem for _, problem in variant_problems]
    engine_ready = not report.errors
    report.problems = _unique(report.problems + lint_deck(deck, printable=loaded_cleanly) + ruling_conflicts(deck))
    games = DEFAULT_GAMES if simulate is None else None if simulate == "auto" else simulate
    if not loaded_cleanly:
        report.note = "composition, print and playtest not checked: fix the format errors first"
    elif not deck.engine or (games is not None and games <= 0 and not levels):
        report.note = "no playtest: the deck names no engine" if not deck.engine else ""
    elif not engine_ready:
        report.note = "no playtest: fix the composition errors first, then validate again"
    else:
        follow = (lambda done, total: progress(deck.id, done, total)) if progress else None
        if playtest_options.get("checkpoint") is not None:
            playtest_options = {**playtest_options, "checkpoint": Path(playtest_options["checkpoint"]) / deck.id}
        if games != 0:
            report.playtest = run_playtest(deck, games, seed, workers, sweeps, bot, follow,
                                           skip_variants=broken_variants, **playtest_options)
            report.problems += report.playtest.problems
        if levels:
            counts = parse_sweeps(sweeps)[1] or [deck.min_players]
            for count in counts:
                report.ladders.append(run_ladder(deck, levels, count, deals, seed, workers or os.cpu_count() or 1,
                                                 playtest_options.get("cluster"), follow, announce=announce))
                report.problems += report.ladders[-1].problems(deck)
    return report


def _variant_composition(deck: Deck, base: list[Problem]) -> list[tuple[str, Problem]]:
    """(variant id, problem) for each composition problem a variant's parameters add to the
    deck's own, pointed at the variant's parameters."""

    locate = Locator(deck)
    seen = {p.message for p in base}
    found = []
    for variant in deck.variants:
        field = f"{locate.variant_field(variant.id)}.params"
        for problem in check_composition(deck, variant.params).problems:
            if problem.message not in seen:
                found.append((variant.id, replace(problem, message=f"variant {variant.id}: {problem.message}",
                                                  field=field, line=locate.line(field))))
    return found


def _unique(problems: list[Problem]) -> list[Problem]:
    return list(dict.fromkeys(problems))


def validate_decks(refs: Sequence[str], decks_dir: Path = DECKS_DIR, compare: bool = False, **options) -> Report:
    """Validate each deck (every deck in `decks_dir` when `refs` is empty); `options` as for
    `validate_deck`. `compare`: two decks against each other, or one deck's rules against its
    variants (generator.validate.compare)."""
    refs = list(refs) or [str(path) for path in deck_paths(decks_dir)]
    if not refs:
        raise DeckgenError(f"no decks to validate: {decks_dir}/ holds no .toml files")
    if compare and len(refs) not in (1, 2):
        raise OptionError(f"--compare takes one deck (its rules against its variants) or two decks, not {len(refs)}")
    report = Report([validate_deck(ref, decks_dir, **options, keep_games=compare) for ref in refs])
    if compare:
        tests = [deck.playtest for deck in report.decks]
        if any(test is None for test in tests):
            raise OptionError("--compare: every deck must pass its checks and be playtested first "
                              "(see the problems above, and do not pass --simulate 0)")
        report.comparison = compare_arms(tests[0], tests[1] if len(tests) == 2 else None,
                                         options.get("precision") or 0.01)
    return report


def build_validation(deck: Deck, out_dir: Path) -> list[Path]:
    """The build step: validate with a short playtest, write the report, and stop the deck's
    build when an error is found (so nothing broken gets printed)."""
    # One worker: the build already keeps every core busy with a deck each, and a pool of
    # processes per deck would cost more to start than the few games it plays.
    report = validate_deck(deck.source, simulate=BUILD_GAMES, workers=1)
    if report.errors:
        raise InvalidDeck(report.errors)
    return write_report(report, out_dir)
