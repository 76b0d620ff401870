"""`deckgen build`: every deck in the decks folder, every output, into the output folder.

Each deck's outputs are first written to a staging folder and moved into
`output/<deck>/` only when every step succeeded, so a failed build leaves the
previous outputs intact. A step whose inputs (deck file, art, deckgen's own
code and templates, options) are unchanged since the last build is skipped.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import os
import shutil
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from .errors import DeckgenError, Problem
from .loader import deck_paths, load_deck
from .model import Deck
from .output import write_text
from .resources import TEMPLATES

if TYPE_CHECKING:
    from .progress import Advance

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
_PACKAGE_ROOT = Path(__file__).resolve().parent


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


def _code_fingerprint() -> str:
    """Hash of deckgen's own code and templates: new code invalidates old outputs."""
    digest = hashlib.sha256()
    for root in (_PACKAGE_ROOT, TEMPLATES):
        if not root.is_dir():
            continue
        for path in sorted(root.rglob("*")):
            if path.is_file() and path.suffix in {".py", ".j2", ".html", ".css", ".md", ".txt"}:
                digest.update(str(path.relative_to(root)).encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()


def _input_key(deck: Deck, step: str, code: str) -> str:
    digest = hashlib.sha256(f"{step}\0{code}\0{deck.base_url or ''}\0".encode())
    digest.update(deck.source.read_bytes() if deck.source else b"")
    for path in deck.inputs:
        digest.update(path.read_bytes())
    for card in deck.cards:
        if card.art and card.art.exists():
            digest.update(card.art.read_bytes())
    return digest.hexdigest()


def build_deck(deck_path: Path, output_dir: Path, steps: list[tuple[str, str]] | None = None,
               code: str | None = None, base_url: str | None = None, lang: str | None = None,
               advance: "Advance | None" = None) -> DeckResult:
    """Build one deck's outputs into output_dir/<deck id>/ (a translation's into
    output_dir/<deck id>/<lang>/), all or nothing; `base_url` (the published address of
    output_dir) overrides the deck's [publish] base_url; `advance(label, done, total)` hears
    of each step as it starts (a progress bar)."""
    from .translate import deck_in, output_folder

    steps = STEPS if steps is None else steps
    advance = advance or _worker_advance
    code = code or _code_fingerprint()
    try:
        deck, untranslated = deck_in(load_deck(deck_path), lang)
    except DeckgenError as error:
        return DeckResult(deck_path.stem + (f" [{lang}]" if lang else ""),
                          problems=list(getattr(error, "problems", [])) or
                          [getattr(error, "problem", Problem(str(error), file=deck_path))],
                          error=str(error))
    if base_url:
        deck = replace(deck, base_url=base_url)
    final = output_folder(output_dir, deck)
    result = DeckResult(deck.id + (f" [{lang}]" if lang else ""), folder=final)
    if untranslated:
        result.note = (f" ({len(untranslated)} texts not translated; `deckgen validate {deck_path} --lang {lang}` "
                       "lists them)")
    manifest_path = final / MANIFEST
    try:
        manifest = json.loads(manifest_path.read_text()) if manifest_path.exists() else {}
    except (OSError, json.JSONDecodeError):
        manifest = {}
    staging = output_dir / ".staging" / (f"{deck.id}.{lang}" if lang else deck.id)
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    new_manifest: dict = {}
    try:
        for done, (name, target) in enumerate(steps):
            if advance:
                advance(f"{deck.id}: {name}", done, len(steps))
            key = _input_key(deck, name, code)
            previous = manifest.get(name)
            if previous and previous["key"] == key and all((final / f).exists() for f in previous["files"]):
                new_manifest[name] = previous
                result.reused.append(name)
                continue
            cpu, wall = time.process_time(), time.perf_counter()
            written = _step_function(target)(deck, staging)
            result.seconds[name] = {"cpu": round(time.process_time() - cpu, 3),
                                    "wall": round(time.perf_counter() - wall, 3)}
            files = sorted(str(Path(p).relative_to(staging)) for p in written)
            new_manifest[name] = {"key": key, "files": files}
            result.built.append(name)
        if advance:
            advance(f"{deck.id}: done", len(steps), len(steps))
        _publish(staging, final)
        _remove_stale(final, manifest, new_manifest)
        write_text(manifest_path, json.dumps(new_manifest, indent=1, sort_keys=True) + "\n")
    except DeckgenError as error:
        result.error = str(error)
        result.problems = list(getattr(error, "problems", []))
    finally:
        shutil.rmtree(staging, ignore_errors=True)
        _remove_empty(output_dir / ".staging")
    return result


def _publish(staging: Path, final: Path) -> None:
    """Move every staged file into place, one rename each."""
    for path in sorted(staging.rglob("*")):
        if path.is_file():
            destination = final / path.relative_to(staging)
            destination.parent.mkdir(parents=True, exist_ok=True)
            os.replace(path, destination)


def _remove_stale(final: Path, old: dict, new: dict) -> None:
    """Delete files an earlier build wrote that no step writes any more (a removed card's image)."""
    kept = {f for entry in new.values() for f in entry["files"]}
    for name in sorted({f for entry in old.values() for f in entry.get("files", [])} - kept):
        stale = final / name
        if stale.resolve().is_relative_to(final.resolve()):
            stale.unlink(missing_ok=True)


def _remove_empty(folder: Path) -> None:
    try:
        folder.rmdir()
    except OSError:
        pass


# In a build worker process: where its steps are reported (set by the pool's initializer).
_worker_advance: "Advance | None" = None


def _report_to(queue) -> None:
    global _worker_advance
    _worker_advance = lambda label, done, total: queue.put((label, done, total))  # noqa: E731


def build_all(decks_dir: Path, output_dir: Path, jobs: int | None = None, base_url: str | None = None,
              lang: str | None = None, advance: "Advance | None" = None) -> list[DeckResult]:
    """Build every deck, several at once (one process per deck, up to `jobs`, default: all
    cores); with `lang`, each deck's translation into that language ('all': the deck and every
    translation); `advance(label, done, total)` hears of each deck's steps, from every process."""
    from .translate import build_languages

    decks = deck_paths(decks_dir)
    if not decks:
        raise DeckgenError(f"no decks found: {decks_dir}/ holds no .toml files")
    tasks = [(path, code) for path in decks for code in build_languages(path, lang)]
    if not tasks:
        raise DeckgenError(f"--lang {lang}: no deck in {decks_dir}/ has that translation")
    paths, langs = [path for path, _ in tasks], [code for _, code in tasks]
    code = _code_fingerprint()
    jobs = min(len(paths), jobs or os.cpu_count() or 1)
    if jobs == 1:
        return [build_deck(path, output_dir, code=code, base_url=base_url, lang=lang, advance=advance)
                for path, lang in tasks]
    import multiprocessing
    import threading
    from concurrent.futures import ProcessPoolExecutor

    queue = multiprocessing.SimpleQueue() if advance else None

    def relay() -> None:
        while (message := queue.get()) is not None:
            advance(*message)

    listener = threading.Thread(target=relay, daemon=True) if advance else None
    if listener:
        listener.start()
    try:
        with ProcessPoolExecutor(max_workers=jobs, initializer=_report_to if queue else None,
                                 initargs=(queue,) if queue else ()) as pool:
            return list(pool.map(build_deck, paths, [output_dir] * len(paths), [None] * len(paths),
                                 [code] * len(paths), [base_url] * len(paths), langs))
    finally:
        if listener:
            queue.put(None)
            listener.join()
