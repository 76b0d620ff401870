"""One build step run in a helper process beside the deck's other steps.

A build that has a single deck to make (the usual case: a designer edits one deck and builds
again) would otherwise keep one core busy while the others idle. Some steps read only the deck
and what the building process has drawn, and write only their own files (which ones, and after
what: `generator.build.steps.BESIDE`); such a step can run in a forked copy of the building
process while that process goes on with the others. The copy shares everything already loaded
(the deck, its checked texts, the drawn faces, fonts, modules); it writes its files into the
same staging folder and sends back the files it wrote and its seconds, or its error, through a
pipe. It dies with the building process (the kernel's parent-death signal where there is one).

Only a lone deck gets helpers. Decks built in a pool keep both cores busy already; a helper
there (tried, with a budget of cores shared by workers and helpers) left its worker waiting for
it instead of taking the next deck: the four shipped decks' `--jobs 2` build went from 1.69x
to 1.54x the speed of `--jobs 1` (benchmarks/bench_build.py, 3 rounds each).
"""

from __future__ import annotations

import os
import pickle
import select
import signal
import time
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from ..core.errors import DeckgenError, Problem
from ..core.lifetime import die_with_parent

if TYPE_CHECKING:
    from ..deck.model import Deck

Step = Callable[["Deck", Path], list[Path]]


class HelperFailed(DeckgenError):
    """The helper's step failed: its message and problems, as the step itself raised them."""

    def __init__(self, message: str, problems: list[Problem]):
        super().__init__(message)
        self.problems = problems


class HelperStep:
    """A step running in a forked process; `result()` waits for it, `stop()` ends it."""

    def __init__(self, pid: int, reader: int, name: str, deck_path: Path | None):
        self.pid, self.reader, self.name, self.deck_path = pid, reader, name, deck_path
        self._outcome: tuple | None = None

    @classmethod
    def start(cls, name: str, step: Step, deck: "Deck", staging: Path) -> "HelperStep | None":
        """Fork a process that runs the step `name`, `step(deck, staging)`; None where processes
        cannot fork."""
        if not hasattr(os, "fork"):
            return None
        reader, writer = os.pipe()
        parent = os.getpid()
        pid = os.fork()
        if pid == 0:  # the helper: it never returns into the caller's frames
            try:
                os.close(reader)
                die_with_parent(parent)
                _send(writer, _run(step, deck, staging))
            finally:
                os._exit(0)
        os.close(writer)
        return cls(pid, reader, name, deck.source)

    def finished(self) -> bool:
        """Whether the helper has sent its outcome (or died): `result()` would not wait."""
        return self._outcome is not None or bool(select.select([self.reader], [], [], 0)[0])

    def result(self) -> tuple[list[Path], dict[str, float]]:
        """The files the step wrote and its seconds ({"cpu", "wall"}); its error raised again."""
        if self._outcome is None:
            self._outcome = self._collect()
        kind, *rest = self._outcome
        if kind == "ok":
            names, seconds = rest
            return [Path(name) for name in names], seconds
        if kind == "error":
            raise HelperFailed(*rest)
        if kind == "died":
            raise DeckgenError(f"{self.deck_path}: the process running its {self.name} step stopped ({rest[0]})")
        raise DeckgenError(f"{self.deck_path}: internal error (a bug in deckgen; please report it): {rest[0]}")

    def stop(self) -> None:
        """End the helper if it still runs (the build failed elsewhere) and reap it."""
        if self._outcome is not None:
            return
        try:
            os.kill(self.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self._outcome = ("died", "stopped by the build")
        self._reap()

    def _collect(self) -> tuple:
        chunks = []
        while chunk := os.read(self.reader, 1 << 16):
            chunks.append(chunk)
        status = self._reap()
        try:
            outcome = pickle.loads(b"".join(chunks))
        except Exception:  # noqa: BLE001 - nothing, or a torn message: the helper died
            outcome = None
        if not isinstance(outcome, tuple) or not outcome:
            how = f"killed by signal {-status}" if status < 0 else f"exit status {status}"
            return ("died", f"{how}; out of memory?")
        return outcome

    def _reap(self) -> int:
        os.close(self.reader)
        _, status = os.waitpid(self.pid, 0)
        return os.waitstatus_to_exitcode(status)


def _run(step: Step, deck: "Deck", staging: Path) -> tuple:
    cpu, wall = time.process_time(), time.perf_counter()
    try:
        written = step(deck, staging)
    except DeckgenError as error:
        problems = list(getattr(error, "problems", [])) or (
            [error.problem] if getattr(error, "problem", None) is not None else [])
        return ("error", str(error), problems)
    except Exception as error:  # noqa: BLE001 - sent to the building process, which reports it
        return ("bug", f"{type(error).__name__}: {error}")
    return ("ok", [str(path) for path in written],
            {"cpu": round(time.process_time() - cpu, 3), "wall": round(time.perf_counter() - wall, 3)})


def _send(writer: int, outcome: tuple) -> None:
    try:
        data = pickle.dumps(outcome, protocol=pickle.HIGHEST_PROTOCOL)
    except Exception as error:  # noqa: BLE001 - a problem that cannot be pickled is still reported
        data = pickle.dumps(("bug", f"the step's outcome could not be sent: {error}"))
    view = memoryview(data)
    while view:
        view = view[os.write(writer, view):]
    os.close(writer)
