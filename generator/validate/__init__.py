"""`deckgen validate`: every problem with a deck, each with a severity, its place and what to do."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..errors import Problem, UnreadableInput
from ..loader import DECKS_DIR, check_deck, resolve_deck_path


@dataclass
class DeckReport:
    ref: str
    path: Path | None
    problems: list[Problem] = field(default_factory=list)
    unreadable: bool = False

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.problems if p.severity == "error"]

    @property
    def warnings(self) -> list[Problem]:
        return [p for p in self.problems if p.severity == "warning"]


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
        return {
            "decks": [
                {"deck": d.ref, "file": str(d.path) if d.path else None, "unreadable": d.unreadable,
                 "errors": len(d.errors), "warnings": len(d.warnings),
                 "problems": [p.as_dict() for p in d.problems]}
                for d in self.decks
            ],
        }

    def text(self) -> str:
        lines = []
        for deck in self.decks:
            for problem in sorted(deck.problems, key=lambda p: (p.severity != "error", p.line or 0)):
                lines.append(str(problem))
            status = "unreadable" if deck.unreadable else (
                "ok" if not deck.problems else f"{len(deck.errors)} error(s), {len(deck.warnings)} warning(s)")
            lines.append(f"{deck.ref}: {status}")
        return "\n".join(lines)


def validate_deck(ref: str | Path, decks_dir: Path = DECKS_DIR) -> DeckReport:
    try:
        path = resolve_deck_path(ref, decks_dir)
        _deck, problems = check_deck(path)
    except UnreadableInput as error:
        return DeckReport(str(ref), error.problem.file, [error.problem], unreadable=True)
    return DeckReport(str(ref), path, problems)


def validate_decks(refs: list[str], decks_dir: Path = DECKS_DIR) -> Report:
    return Report([validate_deck(ref, decks_dir) for ref in refs])
