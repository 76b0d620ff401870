"""Running one deck's build steps into its staging folder: each carried over from the last build
when its inputs and files are unchanged, else run here or, with a core to spare, in a helper
process beside the others (`generator.build.helper`).

What a build reports stays what one process running the steps in order would report: the
steps built and reused, in order, with their seconds; and when steps fail, the error of the
first in order, with only the steps before it counted, whatever ran in which process and ended
when.
"""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from ..core.errors import DeckgenError
from ..core.output import make_folder, writing
from ..faces.check import text_problems
from .helper import HelperStep, Step
from .uptodate import DEFAULT_PAPERS, file_hash, file_stat, input_key, unchanged

if TYPE_CHECKING:
    from ..core.progress import Advance
    from ..deck.model import Deck
    from .run import DeckResult

# Steps that read only the deck and write only their own files, so they may run in a helper
# process while the building process goes on with the others, each once the steps named
# beside it have run here (what they drew is then shared with the helper by the fork): the
# validation (mostly the playtest's games) at once; the rulebook once the images step has
# drawn the faces its card pictures are cut from.
BESIDE: dict[str, tuple[str, ...]] = {"validate": (), "rulebook": ("images",)}

class DeckSteps:
    """One deck's steps, run once by `run`."""

    def __init__(self, deck: "Deck", steps: list[tuple[str, str]], step_function: Callable[[str], Step],
                 staging: Path, final: Path, manifest: dict, code: str, base_url: str | None, lang: str | None,
                 inputs: dict[str, str], result: "DeckResult", spare_cores: int,
                 papers: tuple[str, ...] = DEFAULT_PAPERS):
        """`step_function(target)` finds a step's function; `manifest` is the last build's; the
        step keys are made of `code`, `base_url`, `lang` and the `inputs`' digests; `result`
        gets the steps built and reused and their seconds; `spare_cores`: how many helper
        processes may run at once beside this one (0: none)."""
        self.deck, self.steps, self.step_function = deck, steps, step_function
        self.staging, self.final, self.manifest, self.inputs = staging, final, manifest, inputs
        self.result, self.spare_cores = result, spare_cores
        self.order = [name for name, _ in steps]
        self.keys = {name: input_key(name, code, base_url, lang, inputs, papers) for name in self.order}
        self.new_manifest: dict = {}
        self.seconds: dict[str, dict[str, float]] = {}
        self.reused: set[str] = set()
        self.reusable: dict[str, bool] = {}
        self.here: set[str] = set()  # built or carried over by this process
        self.helpers: dict[str, HelperStep] = {}  # by step, until its outcome is recorded
        self.started: set[str] = set()  # steps given to a helper

    def run(self, advance: "Advance | None") -> dict:
        """Run or carry over every step; return the new manifest. Raises the error of the first
        step in order that failed."""
        try:
            for position, (name, target) in enumerate(self.steps):
                self._record_ended_helpers(before=position)
                if advance:
                    advance(f"{self.deck.id}: {name}", position, len(self.steps))
                if name in self.started:
                    continue
                if self._reusable(name):
                    self._carry_over(name)
                    continue
                self._start_helpers(position)
                if name not in self.helpers:
                    self._run_here(name, target)
            self._record_helpers(list(self.helpers))
        except _StepFailed as failure:
            self._fail(failure)
        finally:
            for helper in self.helpers.values():
                helper.stop()  # a failure, a bug or an interrupt: nothing may write into staging now
        self._report(self.order)
        return self.new_manifest

    def _reusable(self, name: str) -> bool:
        """Whether the last build's files of this step can be carried over (asked once a step:
        the published folder does not change during the build)."""
        if name not in self.reusable:
            previous = self.manifest.get(name)
            self.reusable[name] = bool(previous) and previous.get("key") == self.keys[name] and \
                unchanged(self.final, previous.get("files"), previous.get("stats"))
        return self.reusable[name]

    def _carry_over(self, name: str) -> None:
        previous = self.manifest[name]
        carry_over(self.final, self.staging, previous["files"])
        self.new_manifest[name] = {**previous, "inputs": self.inputs, "note": self.result.note,
                                   "stats": file_stats(self.staging, previous["files"])}
        self.reused.add(name)
        self.here.add(name)

    def _run_here(self, name: str, target: str) -> None:
        cpu, wall = time.process_time(), time.perf_counter()
        try:
            written = self.step_function(target)(self.deck, self.staging)
        except DeckgenError as error:
            raise _StepFailed(name, error) from None
        self._record(name, written, {"cpu": round(time.process_time() - cpu, 3),
                                     "wall": round(time.perf_counter() - wall, 3)})
        self.here.add(name)

    def _record(self, name: str, written: list[Path], seconds: dict[str, float]) -> None:
        files = sorted(str(Path(p).relative_to(self.staging)) for p in written)
        self.seconds[name] = seconds
        self.new_manifest[name] = {"key": self.keys[name], "files": {f: file_hash(self.staging / f) for f in files},
                                   "stats": file_stats(self.staging, files), "inputs": self.inputs,
                                   "note": self.result.note}

    def _start_helpers(self, position: int) -> None:
        """Start, in step order from `position`, each step that may now run beside this process,
        while a core is spare and work is left for this one."""
        for name, target in self.steps[position:]:
            if name not in BESIDE or name in self.started or self._reusable(name) or \
                    not all(before in self.here for before in BESIDE[name]):
                continue
            running = sum(not helper.finished() for helper in self.helpers.values())
            if running >= self.spare_cores or not self._work_left_here(position, besides=name):
                return
            _lay_out_texts(self.deck)
            helper = HelperStep.start(name, self.step_function(target), self.deck, self.staging)
            if helper is not None:
                self.helpers[name] = helper
                self.started.add(name)

    def _work_left_here(self, position: int, besides: str) -> bool:
        """Whether a step from `position` on, other than `besides`, is still to run here (a
        helper for the last step would only make this process wait)."""
        return any(name != besides and name not in self.started and not self._reusable(name)
                   for name, _ in self.steps[position:])

    def _record_ended_helpers(self, before: int) -> None:
        """Record the helpers that have ended of the steps before position `before` (a failure
        of a later step waits for its turn: one process would run the steps between first)."""
        self._record_helpers([name for name, helper in self.helpers.items()
                              if self.order.index(name) < before and helper.finished()])

    def _record_helpers(self, names: list[str]) -> None:
        """Wait for the helpers of these steps, in step order, and record what they did."""
        for name in sorted(names, key=self.order.index):
            helper = self.helpers.pop(name)
            try:
                written, seconds = helper.result()
            except DeckgenError as error:
                raise _StepFailed(name, error) from None
            self._record(name, written, seconds)

    def _fail(self, failure: "_StepFailed") -> None:
        """Report the first failing step in order, as one process would have stopped at it."""
        earlier = [name for name in self.helpers if self.order.index(name) < self.order.index(failure.step)]
        try:
            self._record_helpers(earlier)
        except _StepFailed as first:
            failure = first
        self._report(self.order[:self.order.index(failure.step)])
        raise failure.error

    def _report(self, names: list[str]) -> None:
        self.result.reused = [name for name in names if name in self.reused]
        self.result.built = [name for name in names if name in self.seconds]
        self.result.seconds = {name: self.seconds[name] for name in self.result.built}


class _StepFailed(Exception):
    def __init__(self, step: str, error: DeckgenError):
        super().__init__(step)
        self.step, self.error = step, error


def _lay_out_texts(deck: "Deck") -> None:
    """Check the deck's texts (laying each out) before a helper forks: the validation checks
    them and every drawing reads them, so they are made once, here, and shared (the check is
    kept: a second call costs nothing)."""
    text_problems(deck)


def file_stats(folder: Path, names) -> dict[str, list[int]]:
    return {name: file_stat(folder / name) for name in names}


def carry_over(final: Path, staging: Path, names) -> None:
    """Put the previous build's files into the new folder (hard links where the file system allows)."""
    for name in names:
        destination = staging / name
        if destination.exists():
            continue
        make_folder(destination.parent)
        with writing(destination):
            try:
                os.link(final / name, destination)
            except OSError:
                shutil.copy2(final / name, destination)
