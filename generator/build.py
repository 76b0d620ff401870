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

import hashlib
import importlib
import json
import os
import shutil
import signal
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterator

try:
    import fcntl
except ImportError:  # not on Windows: builds there are not locked
    fcntl = None

from .errors import DeckgenError, Problem
from .loader import deck_paths, load_deck, parse_toml, read_input
from .model import Deck
from .output import TEMP_SUFFIX, OutputError, make_folder, prepare_folder, switch_folder, write_text, writing
from .render.art import MAX_ART_BYTES
from .schema import MAX_DECK_BYTES

# Build steps in order: (name, "module:function"). Each function takes (deck, out_dir)
# and returns the paths it wrote, all inside out_dir.
STEPS: list[tuple[str, str]] = [
    ("summary", "generator.summary:write_summary"),
    ("validate", "generator.validate.report:build_validation"),
    ("print", "generator.render.sheets:build_print"),
    ("images", "generator.render.images:build_images"),
    ("exports", "generator.export:write_all"),
    ("rulebook", "generator.rulebook:build_step"),
]

MANIFEST = ".manifest.json"
STAGING = ".staging"
_PACKAGE_ROOT = Path(__file__).resolve().parent
_TEMPLATES = _PACKAGE_ROOT.parent / "templates"


@dataclass
class DeckResult:
    deck_id: str
    built: list[str] = field(default_factory=list)
    reused: list[str] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    error: str = ""
    # Seconds each built step took: {"step": {"cpu": ..., "wall": ...}} (CPU of this process's threads).
    seconds: dict[str, dict[str, float]] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not self.error


def _step_function(target: str) -> Callable[[Deck, Path], list[Path]]:
    module, name = target.split(":")
    return getattr(importlib.import_module(module), name)


def _code_fingerprint() -> str:
    """Hash of deckgen's own code and templates: new code invalidates old outputs."""
    digest = hashlib.sha256()
    for root in (_PACKAGE_ROOT, _TEMPLATES):
        if not root.is_dir():
            continue
        for path in sorted(root.rglob("*")):
            if path.is_file() and path.suffix in {".py", ".j2", ".html", ".css", ".md", ".txt"}:
                digest.update(str(path.relative_to(root)).encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()


def _input_key(deck: Deck, step: str, code: str) -> str:
    digest = hashlib.sha256(f"{step}\0{code}\0".encode())
    digest.update(deck.source.read_bytes() if deck.source else b"")
    for card in deck.cards:
        if card.art and card.art.is_file() and card.art.stat().st_size <= MAX_ART_BYTES:
            digest.update(card.art.read_bytes())
    return digest.hexdigest()


def build_deck(deck_path: Path, output_dir: Path, steps: list[tuple[str, str]] | None = None,
               code: str | None = None) -> DeckResult:
    """Build one deck's outputs into output_dir/<deck id>/, all or nothing. Whatever goes
    wrong (even a bug in deckgen) comes back as the deck's failed result, so one deck never
    stops the others."""
    try:
        return _build_deck(deck_path, output_dir, STEPS if steps is None else steps, code or _code_fingerprint())
    except DeckgenError as error:
        return DeckResult(deck_path.stem, problems=_problems_of(error, deck_path), error=str(error))
    except Exception as error:  # noqa: BLE001 - reported per deck; the other decks still build
        return DeckResult(deck_path.stem, error=f"{deck_path}: internal error (a bug in deckgen; please report it): "
                                                f"{type(error).__name__}: {error}")


def _problems_of(error: DeckgenError, path: Path) -> list[Problem]:
    return list(getattr(error, "problems", [])) or [getattr(error, "problem", Problem(str(error), file=path))]


def _build_deck(deck_path: Path, output_dir: Path, steps: list[tuple[str, str]], code: str) -> DeckResult:
    deck = load_deck(deck_path)
    result = DeckResult(deck.id)
    final = output_dir / deck.id
    _recover(final)
    prepare_folder(final)
    manifest = _read_manifest(final)
    staging = output_dir / STAGING / deck.id
    shutil.rmtree(staging, ignore_errors=True)
    make_folder(staging)
    new_manifest: dict = {}
    try:
        for name, target in steps:
            key = _input_key(deck, name, code)
            previous = manifest.get(name)
            if previous and previous.get("key") == key and _unchanged(final, previous.get("files")):
                _carry_over(final, staging, previous["files"])
                new_manifest[name] = previous
                result.reused.append(name)
                continue
            cpu, wall = time.process_time(), time.perf_counter()
            written = _step_function(target)(deck, staging)
            result.seconds[name] = {"cpu": round(time.process_time() - cpu, 3),
                                    "wall": round(time.perf_counter() - wall, 3)}
            files = sorted(str(Path(p).relative_to(staging)) for p in written)
            new_manifest[name] = {"key": key, "files": {f: _file_hash(staging / f) for f in files}}
            result.built.append(name)
        listed = {f for entry in new_manifest.values() for f in entry["files"]}
        stale = {f for entry in manifest.values() for f in entry.get("files", ())} - listed
        _keep_other_files(final, staging, listed | stale)  # a single command's outputs stay
        write_text(staging / MANIFEST, json.dumps(new_manifest, indent=1, sort_keys=True) + "\n")
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


def _read_manifest(final: Path) -> dict:
    try:
        manifest = json.loads((final / MANIFEST).read_text())
    except (OSError, ValueError):
        return {}
    return manifest if isinstance(manifest, dict) else {}


def _file_hash(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _unchanged(final: Path, files) -> bool:
    """Whether every file a step wrote is still there with the bytes it wrote (a single command
    such as `deckgen images --dpi 30` may have replaced it since)."""
    if not isinstance(files, dict):
        return False  # a manifest from before files carried hashes
    for name, digest in files.items():
        path = final / name
        if path.is_symlink() or not path.is_file() or _file_hash(path) != digest:
            return False
    return True


def _carry_over(final: Path, staging: Path, names) -> None:
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


def _keep_other_files(final: Path, staging: Path, skip: set[str]) -> None:
    """Carry over files no build step owns (a letter-size PDF `deckgen print` wrote, say)."""
    if not final.is_dir():
        return
    others = []
    for path in final.rglob("*"):
        name = str(path.relative_to(final))
        if path.is_file() and name not in skip and name != MANIFEST and not path.name.endswith(TEMP_SUFFIX):
            others.append(name)
    _carry_over(final, staging, others)


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


def _die_with_parent(parent: int) -> None:
    """Pool worker start-up: stop when the build's main process dies, so nothing publishes
    after it (the kernel's parent-death signal where there is one, a watch thread anyway)."""
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass
    if os.getppid() != parent:
        os._exit(1)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.2)
        os._exit(1)

    threading.Thread(target=watch, daemon=True).start()


def _duplicate_ids(paths: list[Path]) -> dict[Path, str]:
    """An error for each deck file whose [deck] id another file also uses (both would write
    output/<id>/)."""
    by_id: dict[str, list[Path]] = {}
    for path in paths:
        try:
            deck_id = parse_toml(read_input(path, MAX_DECK_BYTES).decode("utf-8"))["deck"]["id"]
        except (DeckgenError, ValueError, KeyError, TypeError):
            continue  # the deck's own build reports why it cannot be read
        if isinstance(deck_id, str):
            by_id.setdefault(deck_id, []).append(path)
    errors = {}
    for deck_id, same in by_id.items():
        for path in same if len(same) > 1 else ():
            others = ", ".join(str(other) for other in same if other != path)
            errors[path] = (f"{path}: deck.id: {deck_id!r} is also the id of {others}; each deck needs its own id "
                            f"(its outputs go to {deck_id}/)")
    return errors


def build_all(decks_dir: Path, output_dir: Path, jobs: int | None = None) -> list[DeckResult]:
    """Build every deck, several at once (one process per deck, up to `jobs`, default: all cores).
    Each deck is built or fails on its own."""
    paths = deck_paths(decks_dir)
    if not paths:
        raise DeckgenError(f"no decks found: {decks_dir}/ holds no .toml files")
    code = _code_fingerprint()
    clashes = _duplicate_ids(paths)
    results: dict[Path, DeckResult] = {path: DeckResult(path.stem, error=error) for path, error in clashes.items()}
    todo = [path for path in paths if path not in clashes]
    jobs = min(len(todo), jobs or os.cpu_count() or 1)
    with output_lock(output_dir):
        if jobs <= 1:
            results.update((path, build_deck(path, output_dir, code=code)) for path in todo)
        else:
            results.update(_build_in_pool(todo, output_dir, code, jobs))
    return [results[path] for path in paths]


def _build_in_pool(paths: list[Path], output_dir: Path, code: str, jobs: int) -> dict[Path, DeckResult]:
    """Build the decks `jobs` at a time. A worker that dies (killed, out of memory) breaks the
    whole pool, so the decks it left unbuilt are built again one per pool: only the deck
    that kills its worker fails."""
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    results, again = {}, []
    with ProcessPoolExecutor(max_workers=jobs, initializer=_die_with_parent, initargs=(os.getpid(),)) as pool:
        futures = {path: pool.submit(build_deck, path, output_dir, None, code) for path in paths}
        for path, future in futures.items():
            try:
                results[path] = future.result()
            except BrokenProcessPool:
                again.append(path)
    for path in again:
        with ProcessPoolExecutor(max_workers=1, initializer=_die_with_parent, initargs=(os.getpid(),)) as pool:
            try:
                results[path] = pool.submit(build_deck, path, output_dir, None, code).result()
            except BrokenProcessPool as error:
                results[path] = DeckResult(path.stem, error=f"{path}: the process building it stopped "
                                                            f"(killed, or out of memory?): {error}")
    return results
