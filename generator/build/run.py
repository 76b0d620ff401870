"""`deckgen build`: every deck in the decks folder, every output, into the output folder.

Each deck's outputs are first written to a complete new folder (`output/.staging/<deck>/`)
that takes `output/<deck>/`'s place in one switch only when every step succeeded, so a
failed or killed build leaves the previous outputs intact and a reader never sees two
builds' files mixed. A step whose inputs (deck file, art, deckgen's own code and
templates) are unchanged since the last build is skipped, its files carried over, but
only if each still has the hash the manifest recorded (a single command such as
`deckgen images --dpi 30` may have replaced it). One build at a time holds the output
folder; every deck is built or fails on its own.
"""

from __future__ import annotations

import gc
import importlib
import json
import multiprocessing
import os
import shutil
import signal
import threading
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterator

from ..core.errors import DeckgenError, Problem
from ..core.lifetime import start_worker
from ..core.output import TEMP_SUFFIX, OutputError, make_folder, prepare_folder, switch_folder, write_text, writing
from ..core.plugins import engine_names, registrations
from ..deck.loader import checks_kept, deck_paths, load_deck
from ..deck.model import Deck
from ..deck.files import build_languages, output_folder
from ..faces import fonts
from ..validate.translations import deck_in
from .order import longest_first, read_costs, remember
from .steps import DeckSteps, carry_over
from .uptodate import DEFAULT_PAPERS, MANIFEST, STEPS, code_fingerprint, deck_ids, input_digests, read_manifest, up_to_date

try:
    import fcntl
except ImportError:  # not on Windows: builds there are not locked
    fcntl = None


if TYPE_CHECKING:
    from ..core.progress import Advance

STAGING = ".staging"


@dataclass
class DeckResult:
    deck_id: str
    built: list[str] = field(default_factory=list)
    reused: list[str] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    error: str = ""
    # Seconds each built step took: {"step": {"cpu": ..., "wall": ...}} (CPU of this process's threads).
    seconds: dict[str, dict[str, float]] = field(default_factory=dict)
    folder: Path | None = None  # where the outputs went: output/<deck>/, or output/<deck>/<lang>/
    note: str = ""

    @property
    def ok(self) -> bool:
        return not self.error


def _step_function(target: str) -> Callable[[Deck, Path], list[Path]]:
    module, name = target.split(":")
    return getattr(importlib.import_module(module), name)


def _input_files(deck: Deck) -> list[Path]:
    """Every file a deck's outputs are made from: the deck file, its spreadsheets, layouts and
    translation overlay, its art, fonts and icons."""
    paths = [deck.source] if deck.source else []
    paths += deck.inputs
    paths += [card.art for card in deck.cards if card.art]
    paths += [Path(file) for family in deck.fonts for file in family.files.values() if file]
    paths += [icon.path for icon in deck.icons]
    return list(dict.fromkeys(paths))


def build_deck(deck_path: Path, output_dir: Path, steps: list[tuple[str, str]] | None = None,
               code: str | None = None, base_url: str | None = None, lang: str | None = None,
               advance: "Advance | None" = None, spare_cores: int = 0,
               papers: tuple[str, ...] = DEFAULT_PAPERS) -> DeckResult:
    """Build one deck's outputs into output_dir/<deck id>/ (a translation's into
    output_dir/<deck id>/<lang>/), all or nothing. `base_url` (the published address of
    output_dir) overrides the deck's [publish] base_url; `advance(label, done, total)` hears
    of each step as it starts (a progress bar); with `spare_cores`, up to that many of its
    steps may run in helper processes beside the others (`generator.build.steps`).
    Whatever goes wrong (even a bug in deckgen) comes back as the deck's failed result, so one
    deck never stops the others."""
    label = deck_path.stem + (f" [{lang}]" if lang else "")
    try:
        with checks_kept():  # the deck file is checked once, not again by the validation step
            return _build_deck(deck_path, output_dir, STEPS if steps is None else steps,
                               code or code_fingerprint(), base_url, lang, advance or _worker_advance,
                               spare_cores, papers)
    except DeckgenError as error:
        return DeckResult(label, problems=_problems_of(error, deck_path), error=str(error))
    except Exception as error:  # noqa: BLE001 - reported per deck; the other decks still build
        return DeckResult(label, error=f"{deck_path}: internal error (a bug in deckgen; please report it): "
                                       f"{type(error).__name__}: {error}")


def _problems_of(error: DeckgenError, path: Path) -> list[Problem]:
    return list(getattr(error, "problems", [])) or [getattr(error, "problem", Problem(str(error), file=path))]


def _build_deck(deck_path: Path, output_dir: Path, steps: list[tuple[str, str]], code: str,
                base_url: str | None, lang: str | None, advance: "Advance | None", spare_cores: int,
                papers: tuple[str, ...]) -> DeckResult:

    deck, untranslated = deck_in(load_deck(deck_path), lang)
    inputs = input_digests(_input_files(deck))
    if base_url:
        deck = replace(deck, base_url=base_url)
    deck = replace(deck, papers=papers)
    final = output_folder(output_dir, deck)
    result = DeckResult(deck.id + (f" [{lang}]" if lang else ""), folder=final)
    if untranslated:
        result.note = (f" ({len(untranslated)} texts not translated; `deckgen validate {deck_path} --lang {lang}` "
                       "lists them)")
    _recover(final)
    prepare_folder(final)
    make_folder(final.parent)  # a translation's folder sits in its deck's, which may not exist yet
    manifest = read_manifest(final)
    # Staged as it will be published (output/.staging/<deck>/<lang>/ for a translation).
    staging = output_dir / STAGING / final.relative_to(output_dir)
    shutil.rmtree(staging, ignore_errors=True)
    make_folder(staging)
    try:
        new_manifest = DeckSteps(deck, steps, _step_function, staging, final, manifest, code, base_url, lang,
                                 inputs, result, spare_cores, papers).run(advance)
        listed = {f for entry in new_manifest.values() for f in entry["files"]}
        stale = {f for entry in manifest.values() for f in entry.get("files", ())} - listed
        _keep_other_files(final, staging, listed | stale)  # a single command's outputs stay
        write_text(staging / MANIFEST, json.dumps(new_manifest, indent=1, sort_keys=True) + "\n")
        if advance:
            advance(f"{deck.id}: done", len(steps), len(steps))
        _fault_point("before-switch")
        switch_folder(staging, final)
        missing = sorted(f for f in listed if not (final / f).is_file())
        if missing:  # never report a file that is not there
            raise OutputError(f"{final}: files missing after publishing: {', '.join(missing[:5])}")
    except DeckgenError as error:
        result.error = str(error)
        result.problems = _problems_of(error, deck_path)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
        _remove_empty(output_dir / STAGING)
    return result


def _fault_point(name: str) -> None:
    """Where the tests inject a crash (e.g. a kill between building and publishing)."""


def reused_result(deck_path: Path, deck_id: str, output_dir: Path, steps: list[tuple[str, str]], code: str,
                  base_url: str | None = None, lang: str | None = None,
                  papers: tuple[str, ...] = DEFAULT_PAPERS) -> DeckResult | None:
    """The result of building a deck whose every step is up to date (`generator.build.uptodate`
    decides), or None when anything needs building."""
    found = up_to_date(deck_path, deck_id, output_dir, steps, code, base_url, lang, papers)
    if found is None:
        return None
    label = deck_id + (f" [{lang}]" if lang else "")
    return DeckResult(label, reused=[name for name, _ in steps], folder=found[0], note=found[1])


def _keep_other_files(final: Path, staging: Path, skip: set[str]) -> None:
    """Carry over files no build step owns (a letter-size PDF `deckgen print` wrote, say)."""
    if not final.is_dir():
        return
    others = []
    for path in final.rglob("*"):
        name = str(path.relative_to(final))
        if path.is_file() and name not in skip and name != MANIFEST and not path.name.endswith(TEMP_SUFFIX):
            others.append(name)
    carry_over(final, staging, others)


def _recover(final: Path) -> None:
    """After a crash between the two renames of a publish, the previous build sits aside in
    `.<deck>.old-*/`: put it back (or, when the new one made it, drop it)."""
    for old in sorted(final.parent.glob(f".{final.name}.old-*")):
        kept = old / final.name
        if not final.exists() and kept.is_dir():
            os.replace(kept, final)
        shutil.rmtree(old, ignore_errors=True)


def _remove_empty(folder: Path) -> None:
    try:
        folder.rmdir()
    except OSError:
        pass


@contextmanager
def output_lock(output_dir: Path) -> Iterator[None]:
    """Hold the output folder for one build at a time; a second build is refused clearly
    (pool workers inherit the lock, so it lasts while any of them runs)."""
    make_folder(output_dir)
    if fcntl is None:
        yield
        return
    with writing(output_dir):
        handle = os.open(output_dir, os.O_RDONLY)  # the folder itself is locked: no lock file to leave
    try:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise OutputError(f"another deckgen build is writing to {output_dir}/; "
                              "wait for it to finish, or build into another folder with --output") from None
        yield
    finally:
        os.close(handle)


# In a build worker process: where its steps are reported (set by the pool's initializer).
_worker_advance: "Advance | None" = None


def _start_worker(parent: int, queue) -> None:
    """Pool worker start-up: report steps to the main process's progress bar, die with it, and
    leave Ctrl-C to it (it stops the workers: `_build_in_pool`)."""
    global _worker_advance
    if queue is not None:
        _worker_advance = lambda label, done, total: queue.put((label, done, total))  # noqa: E731
    start_worker(parent)


class BuildInterrupted(DeckgenError):
    """Ctrl-C or SIGTERM during a build: the decks published before it stay; no deck is
    published after it (exit code 130, the shell's for an interrupted command)."""

    exit_code = 130


@contextmanager
def _terminate_as_interrupt() -> Iterator[None]:
    """SIGTERM (a service manager, `kill`) stops a build as Ctrl-C does, not mid-write."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGTERM, _interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _interrupt(_signum, _frame) -> None:
    raise KeyboardInterrupt


def _duplicate_ids(ids: dict[Path, str]) -> dict[Path, str]:
    """An error for each deck file whose [deck] id another file also uses (both would write
    output/<id>/)."""
    by_id: dict[str, list[Path]] = {}
    for path, deck_id in ids.items():
        by_id.setdefault(deck_id, []).append(path)
    errors = {}
    for deck_id, same in by_id.items():
        for path in same if len(same) > 1 else ():
            others = ", ".join(str(other) for other in same if other != path)
            errors[path] = (f"{path}: deck.id: {deck_id!r} is also the id of {others}; each deck needs its own id "
                            f"(its outputs go to {deck_id}/)")
    return errors


Task = tuple[Path, "str | None"]  # a deck file and the language to build it in (None: its own)


def build_all(decks_dir: Path, output_dir: Path, jobs: int | None = None, base_url: str | None = None,
              lang: str | None = None, advance: "Advance | None" = None,
              papers: tuple[str, ...] = DEFAULT_PAPERS) -> list[DeckResult]:
    """Build every deck, several at once (one process per deck, up to `jobs`, default: all
    cores; the longest decks first, `generator.build.order`); with `lang`, each deck's
    translation into that language ('all': the deck and every translation). Each deck is built
    or fails on its own; `advance(label, done, total)` hears of each deck's steps, from every
    process."""
    paths = deck_paths(decks_dir)
    if not paths:
        raise DeckgenError(f"no decks found: {decks_dir}/ holds no .toml files")
    tasks: list[Task] = [(path, code) for path in paths for code in build_languages(path, lang)]
    if not tasks:
        raise DeckgenError(f"--lang {lang}: no deck in {decks_dir}/ has that translation")
    code = code_fingerprint()
    ids = deck_ids(paths)
    clashes = _duplicate_ids(ids)
    results: dict[Task, DeckResult] = {task: DeckResult(task[0].stem, error=clashes[task[0]])
                                       for task in tasks if task[0] in clashes}
    todo = [task for task in tasks if task[0] not in clashes]
    # A deck's own build switches in output/<deck>/ whole, carrying over its translations'
    # folders: translations build after every deck's own build, never beside it.
    waves = [[task for task in todo if task[1] is None], [task for task in todo if task[1] is not None]]
    try:
        with _terminate_as_interrupt(), output_lock(output_dir), _fewer_collections():
            try:
                _build_waves(waves, results, ids, output_dir, code, jobs, base_url, advance, papers)
            except KeyboardInterrupt:
                shutil.rmtree(output_dir / STAGING, ignore_errors=True)  # the stopped workers' (still locked)
                raise
    except KeyboardInterrupt:
        published = sum(1 for result in results.values() if result.ok and result.built)
        raise BuildInterrupted(f"build interrupted: {published} deck(s) published before it are kept; "
                               f"{len(tasks) - len(results)} not built (their previous outputs are untouched)") from None
    return [results[task] for task in tasks]


def _build_waves(waves: list[list[Task]], results: dict[Task, DeckResult], ids: dict[Path, str], output_dir: Path,
                 code: str, jobs: int | None, base_url: str | None, advance: "Advance | None",
                 papers: tuple[str, ...]) -> None:
    """Build each wave's decks, adding each deck's result to `results` as it is known."""
    for wave in waves:
        # Decks whose outputs are all up to date are known from their manifests, with no
        # deck loaded and no worker started: a rebuild with nothing to do stays quick.
        for task in list(wave):
            reused = reused_result(task[0], ids[task[0]], output_dir, STEPS, code, base_url, task[1], papers) \
                if task[0] in ids else None
            if reused is not None:
                results[task] = reused
                wave.remove(task)
                if advance:
                    advance(f"{reused.deck_id}: up to date", len(STEPS), len(STEPS))
        cores = jobs or os.cpu_count() or 1
        workers = min(len(wave), cores)
        built: dict[Task, DeckResult] = {}
        try:
            if workers <= 1:
                # One deck to build and cores to spare: some of its steps run beside the others.
                for task in wave:
                    built[task] = build_deck(task[0], output_dir, code=code, base_url=base_url, lang=task[1],
                                             advance=advance, spare_cores=cores - 1, papers=papers)
            else:
                _build_in_pool(longest_first(wave, read_costs()), output_dir, code, base_url, workers,
                               advance, built, papers)
        finally:
            results.update(built)
        remember(built.items())


# A build allocates millions of objects that reference counting frees, and few cycles: the
# default thresholds (700, 10, 10) spend about 0.2 s a build in collections that find little.
BUILD_GC_THRESHOLDS = (10_000, 10, 10)


@contextmanager
def _fewer_collections() -> Iterator[None]:
    before = gc.get_threshold()
    gc.set_threshold(*BUILD_GC_THRESHOLDS)
    try:
        yield
    finally:
        gc.set_threshold(*before)


# Libraries the steps import on first use, heavy enough that each worker importing its own
# copy would cost a noticeable share of a small deck's build.
PRELOADED = ("reportlab.pdfgen.canvas", "reportlab.platypus", "PIL.Image", "pypdfium2", "jinja2",
             "uharfbuzz", "pyphen", "generator.games.simulate")


def _preload() -> None:
    """Import what every deck's build needs, and load the shipped fonts, before the workers
    start: forked workers then share one copy instead of each loading their own."""

    for _name, target in STEPS:
        _step_function(target)
    for module in PRELOADED:
        importlib.import_module(module)
    for name in engine_names():
        try:
            importlib.import_module(registrations(name)[0].target.split(":")[0])
        except Exception:  # noqa: BLE001 - a broken engine is reported by the deck that names it, not here
            continue
    for face in fonts.FACES:
        fonts.font(face)


def _build_in_pool(tasks: list[Task], output_dir: Path, code: str, base_url: str | None, jobs: int,
                   advance: "Advance | None", results: dict[Task, DeckResult], papers: tuple[str, ...]) -> None:
    """Build the decks `jobs` at a time, adding each one's result to `results`. A worker that
    dies (killed, out of memory) breaks the whole pool, so the decks it left unbuilt are built
    again one per pool: only the deck that kills its worker fails. On Ctrl-C or SIGTERM the
    decks not started are dropped and the workers stopped at once, so that no deck is
    published after the interrupt (a worker stopped mid-publish leaves the previous outputs,
    which the next build puts back: `_recover`)."""

    if multiprocessing.get_start_method() == "fork":
        _preload()
        # What the workers inherit stays out of their collections, which would otherwise walk it
        # (writing to every object's header, so copying each page the fork shares).
        gc.freeze()
    queue = multiprocessing.SimpleQueue() if advance else None

    def relay() -> None:
        while (message := queue.get()) is not None:
            advance(*message)

    listener = threading.Thread(target=relay, daemon=True) if queue else None
    if listener:
        listener.start()

    def pool(workers: int) -> ProcessPoolExecutor:
        return ProcessPoolExecutor(max_workers=workers, initializer=_start_worker, initargs=(os.getpid(), queue))

    def submit(executor: ProcessPoolExecutor, task: Task):
        return executor.submit(build_deck, task[0], output_dir, None, code, base_url, task[1], papers=papers)

    again = []
    try:
        with pool(jobs) as executor, _stopped_on_interrupt(executor):
            futures = {task: submit(executor, task) for task in tasks}
            for task, future in futures.items():
                try:
                    results[task] = future.result()
                except BrokenProcessPool:
                    again.append(task)
        for task in again:
            with pool(1) as executor, _stopped_on_interrupt(executor):
                try:
                    results[task] = submit(executor, task).result()
                except BrokenProcessPool as error:
                    results[task] = DeckResult(task[0].stem, error=f"{task[0]}: the process building it stopped "
                                                                   f"(killed, or out of memory?): {error}")
    finally:
        if listener:
            queue.put(None)
            listener.join()
        if multiprocessing.get_start_method() == "fork":
            gc.unfreeze()  # a caller that builds again in this process collects as before


@contextmanager
def _stopped_on_interrupt(executor: ProcessPoolExecutor) -> Iterator[None]:
    """Within the block, Ctrl-C or SIGTERM cancels the decks not started and kills the workers
    before the pool is shut down (which would otherwise wait for every deck to be built)."""
    try:
        yield
    except KeyboardInterrupt:
        workers = list((getattr(executor, "_processes", None) or {}).values())  # shutdown forgets them
        executor.shutdown(wait=False, cancel_futures=True)
        for process in workers:
            process.kill()
        raise
