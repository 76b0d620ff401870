"""Progress on long work (build, playtests, simulations, images), for a person at a terminal.

`progress_bar()` yields `advance(label, done, total)`: a rich bar per label on stderr when
stderr is a terminal, nothing otherwise (pipes, CI, tests, `--json`), so machine-readable
output and logs stay clean.
"""

from __future__ import annotations

import sys
from contextlib import contextmanager
from typing import Callable, Iterator

Advance = Callable[[str, int, int], None]


def wanted(as_json: bool = False) -> bool:
    """Show progress only to a person: a terminal on stderr, and not for machine output."""
    return not as_json and sys.stderr.isatty()


@contextmanager
def progress_bar(as_json: bool = False) -> Iterator[Advance | None]:
    """`advance(label, done, total)` while the work runs; None when progress is not wanted.

    The label may carry what is being done (`"wizard: images"`); the bar of a label is found
    by the part before the colon, so one deck keeps one bar as its steps go by."""
    if not wanted(as_json):
        yield None
        return
    from rich.console import Console  # rich only for a person at a terminal (about 30 ms to import)
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    with Progress("[progress.description]{task.description}", BarColumn(), MofNCompleteColumn(),
                  TimeRemainingColumn(), console=Console(stderr=True), transient=True) as bar:
        tasks: dict[str, int] = {}

        def advance(label: str, done: int, total: int) -> None:
            key = label.split(":", 1)[0]
            if key not in tasks:
                tasks[key] = bar.add_task(label, total=total)
            bar.update(tasks[key], completed=done, total=total, description=label)

        yield advance
