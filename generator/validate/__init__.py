"""`deckgen validate`: every problem with a deck, each with a severity, its place and what to do.

Checks run in order, each on what the previous one proved readable: the loader
(format, references, duplicates), composition (what the deck's engine needs),
lint (texts, type lines, art, print fit) and, when the deck has an engine and
nothing above is an error, simulated playtests.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..errors import Problem, UnreadableInput
from ..loader import DECKS_DIR, check_deck, resolve_deck_path
from ..model import Deck


@dataclass
class DeckReport:
    ref: str
    path: Path | None
    problems: list[Problem] = field(default_factory=list)
    unreadable: bool = False
    deck: Deck | None = None
    composition: dict = field(default_factory=dict)

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.problems if p.severity == "error"]

    @property
    def warnings(self) -> list[Problem]:
        return [p for p in self.problems if p.severity == "warning"]

    def sorted_problems(self) -> list[Problem]:
        return sorted(self.problems, key=lambda p: (p.severity != "error", p.line or 0, p.field))

    def as_dict(self) -> dict:
        return {"deck": self.ref, "file": str(self.path) if self.path else None, "unreadable": self.unreadable,
                "errors": len(self.errors), "warnings": len(self.warnings),
                "problems": [p.as_dict() for p in self.sorted_problems()],
                "composition": self.composition}


@dataclass
class Report:
    decks: list[DeckReport]

    def exit_code(self, strict: bool = False) -> int:
        if any(d.unreadable for d in self.decks):
            return 2
        if any(d.errors or (strict and d.warnings) for d in self.decks):
            return 1
        return 0

    def as_dict(self) -> dict:
        return {"decks": [d.as_dict() for d in self.decks]}

    def text(self) -> str:
        lines = []
        for deck in self.decks:
            lines += [str(problem) for problem in deck.sorted_problems()]
            status = "unreadable" if deck.unreadable else (
                "ok" if not deck.problems else f"{len(deck.errors)} error(s), {len(deck.warnings)} warning(s)")
            lines.append(f"{deck.ref}: {status}")
        return "\n".join(lines)


def validate_deck(ref: str | Path, decks_dir: Path = DECKS_DIR) -> DeckReport:
    from .composition import check_composition
    from .lint import lint

    try:
        path = resolve_deck_path(ref, decks_dir)
        deck, problems = check_deck(path)
    except UnreadableInput as error:
        return DeckReport(str(ref), error.problem.file, [error.problem], unreadable=True)
    report = DeckReport(str(ref), path, list(problems), deck=deck)
    if deck is None:
        return report
    composition = check_composition(deck)
    report.problems += composition.problems
    report.composition = composition.as_dict()
    report.problems += lint(deck)
    return report


def validate_decks(refs: list[str], decks_dir: Path = DECKS_DIR) -> Report:
    return Report([validate_deck(ref, decks_dir) for ref in refs])
