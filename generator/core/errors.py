"""Errors a user can act on: each names the file, the line where known, and the field."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong with an input file."""

    message: str
    field: str = ""
    line: int | None = None
    severity: str = "error"  # "error" or "warning"
    file: Path | None = None
    hint: str = ""
    cell: str = ""  # a spreadsheet cell such as "Actions!C14", shown after the file name

    @property
    def location(self) -> str:
        """`file:line`, or `file:Sheet!C14` for a spreadsheet cell."""
        where = str(self.file) if self.file else "<input>"
        if self.cell:
            return f"{where}:{self.cell}"
        return f"{where}:{self.line}" if self.line else where

    def __str__(self) -> str:
        text = f"{self.location}: {self.severity}: "
        if self.field:
            text += f"{self.field}: "
        text += self.message
        if self.hint:
            text += f" ({self.hint})"
        return text

    def as_dict(self) -> dict:
        return {
            "severity": self.severity,
            "file": str(self.file) if self.file else None,
            "line": self.line,
            "field": self.field,
            "message": self.message,
            "hint": self.hint,
            "cell": self.cell,
        }


class ProblemList:
    """`errors` and `warnings` of a class with a `problems` list (validation and translation reports)."""

    problems: list[Problem]

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.problems if p.severity == "error"]

    @property
    def warnings(self) -> list[Problem]:
        return [p for p in self.problems if p.severity == "warning"]


class DeckgenError(Exception):
    """Base of every error deckgen reports to a user without a traceback."""

    exit_code = 1


class UnreadableInput(DeckgenError):
    """A file that cannot be read or parsed at all (exit code 2)."""

    exit_code = 2

    def __init__(self, problem: Problem):
        super().__init__(str(problem))
        self.problem = problem


class InvalidDeck(DeckgenError):
    """A deck that parsed but breaks the format; carries every problem found."""

    exit_code = 1

    def __init__(self, problems: list[Problem]):
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems))


class OptionError(DeckgenError):
    """A command-line option that cannot work (a layout that does not fit, say)."""

    exit_code = 2
