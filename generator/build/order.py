"""The order a parallel build hands its decks to the workers: the longest first.

A worker builds a whole deck, and the pool hands decks out in the order it is given them, so a
build ends when the last worker finishes its last deck. Given in the decks folder's order, a
long deck may come last and run alone on one core while the others idle (the four shipped
decks on two cores: one worker ended 0.44 s before the other). Handing out the longest first
(LPT scheduling) keeps the workers' ends close.

How long a deck takes is what its steps took the last time they were built (CPU seconds, per
step, as the build reports them), kept in the cache folder beside the checked decks: a plain
marshal entry behind a checksum, the user's own file only, any fault a miss. A deck with no
figures yet (never built on this machine, or the cache folder cleared) goes first, in the
folder's order: it may be the longest. The order changes only when decks finish, never what a
deck's outputs hold.
"""

from __future__ import annotations

import marshal
from pathlib import Path
from typing import TYPE_CHECKING, Iterable

from ..deck.cache import cache_folder, read_sealed, write_sealed

if TYPE_CHECKING:
    from .run import DeckResult, Task

_MAGIC = b"deckgen build costs 1\n"
_KEPT = 500  # decks remembered; the oldest are forgotten first


def _place() -> Path | None:
    folder = cache_folder()
    return None if folder is None else folder / "build-costs"


def _key(task: "Task") -> str:
    path, lang = task
    return f"{Path(path).resolve()}\0{lang or ''}"


def read_costs() -> dict[str, dict[str, float]]:
    """Each deck's CPU seconds per step, from its last builds ({} when none are kept)."""
    body = read_sealed(_place(), _MAGIC)
    try:
        costs = marshal.loads(body) if body is not None else {}
    except Exception:  # noqa: BLE001 - an unreadable entry is a miss, never an error
        return {}
    if not isinstance(costs, dict):
        return {}
    return {key: steps for key, steps in costs.items()
            if isinstance(key, str) and isinstance(steps, dict)
            and all(isinstance(step, str) and isinstance(seconds, float) for step, seconds in steps.items())}


def longest_first(tasks: Iterable["Task"], costs: dict[str, dict[str, float]]) -> list["Task"]:
    """The tasks in the order to hand them out: those with no figures first (in the order
    given), then the rest by their last build's seconds, longest first (ties in the order given)."""
    tasks = list(tasks)
    estimates = {task: sum(costs[_key(task)].values()) if _key(task) in costs else None for task in tasks}
    unknown = [task for task in tasks if estimates[task] is None]
    known = sorted((task for task in tasks if estimates[task] is not None), key=lambda task: -estimates[task])
    return unknown + known


def remember(results: Iterable[tuple["Task", "DeckResult"]]) -> None:
    """Keep what each built step cost (steps carried over keep their earlier figures)."""
    costs = read_costs()
    changed = False
    for task, result in results:
        if not result.seconds:
            continue
        key = _key(task)
        steps = costs.pop(key, {})  # re-inserted last: dicts keep order, the oldest go first
        costs[key] = {**steps, **{step: float(seconds["cpu"]) for step, seconds in result.seconds.items()}}
        changed = True
    place = _place()
    if changed and place is not None:
        kept = dict(list(costs.items())[-_KEPT:])
        write_sealed(place, _MAGIC, marshal.dumps(kept))
