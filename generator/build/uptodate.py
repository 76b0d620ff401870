"""Whether `deckgen build` has anything to do, decided from the output folders' manifests alone.

The one place that decides it, for the build (`generator.build.run`, which skips the decks it finds
up to date) and for the quick entry point (`generator.cli.app`), which answers a build with
nothing to do without typer and without the build's libraries. A deck is up to date when its
output folder's manifest has every step, each recorded under the key its inputs make now:
deckgen's code and templates (`code_fingerprint`), the bytes of every file the deck was built
from (the manifest lists them: the deck file, its spreadsheets, shared layouts, translation
overlay, art, fonts and icons), --base-url and the language; and every file the steps wrote is
still there with the bytes they wrote. No deck is loaded and nothing in the output folder is
written to decide it; the cache folder keeps the code fingerprint and each deck file's id (by
the file's hash) between runs.

Light on purpose: only the standard library's small modules and deckgen's light ones (no
dataclasses, no typer, no model).
"""

from __future__ import annotations

import json
import marshal
import os
import stat
import sys
import time
from pathlib import Path

from ..core.errors import DeckgenError, UnreadableInput
from ..core.files import open_input, read_input
from ..core.resources import PACKAGE, TEMPLATES
from ..deck.cache import cache_folder, read_sealed, write_sealed
from ..deck.files import build_languages, deck_paths, parse_toml
from ..deck.layouts.artfiles import MAX_ART_BYTES

try:  # the C module behind hashlib.sha256, without hashlib loading OpenSSL (~3 ms at start-up)
    from _sha256 import sha256
except ImportError:  # another Python (3.12 and later call it _sha2)
    from hashlib import sha256


# Build steps in order: (name, "module:function"). Each function takes (deck, out_dir)
# and returns the paths it wrote, all inside out_dir.
STEPS: list[tuple[str, str]] = [
    ("summary", "generator.deck.summary:write_summary"),
    ("validate", "generator.validate:build_validation"),
    ("print", "generator.printing.sheets:build_print"),
    ("images", "generator.faces.images:build_images"),
    ("exports", "generator.export:write_all"),
    ("rulebook", "generator.rulebook:build_step"),
]

MANIFEST = ".manifest.json"
DEFAULT_PAPERS = ("a4",)  # the papers the print step writes sheets on, unless `build --paper` says otherwise
_LSTAT_AT = os.stat in os.supports_dir_fd and os.stat in os.supports_follow_symlinks  # lstat = stat without following
_CODE_SUFFIXES = frozenset({".py", ".j2", ".html", ".css", ".md", ".txt", ".toml"})
_IDS_MAGIC = b"deckgen deck ids 1\n"
_CODE_MAGIC = b"deckgen code fingerprint 1\n"
# A code file changed this recently may change again within the same tick of the file system's
# clock (and so keep its stamp); its fingerprint is not kept until a later run.
SETTLE_NS = 2_000_000_000
_IDS_KEPT = 256  # deck files' ids remembered (by content), the oldest dropped first


def code_fingerprint() -> str:
    """Hash of deckgen's own code and templates: new code invalidates old outputs. Each file's
    path below its root and its bytes, in the order of the sorted paths' parts.

    Kept in the cache folder under the files' stamps (device, inode, size, modification and
    change times: a file written since, even with its old time put back, has another change
    time), so the files are read again only when one of them changed; not kept while a file is
    fresher than the clock's grain could tell from a second write."""
    files = [(parts, path) for root in (str(PACKAGE), str(TEMPLATES)) if os.path.isdir(root)
             for parts, path in sorted(_code_files(root, ()))]
    stamps = [(path, _stamp(path)) for _, path in files]
    stamp = sha256(repr(stamps).encode()).hexdigest()
    folder = cache_folder()
    place = None if folder is None else folder / "code-fingerprint"
    kept = read_sealed(place, _CODE_MAGIC)
    try:
        kept_stamp, fingerprint = marshal.loads(kept) if kept is not None else (None, None)
    except (EOFError, ValueError, TypeError):
        kept_stamp = fingerprint = None
    if kept_stamp == stamp and isinstance(fingerprint, str):
        return fingerprint
    digest = sha256()
    for parts, path in files:
        digest.update(os.sep.join(parts).encode())
        digest.update(read_input(path, "shipped"))
    settled = time.time_ns() - SETTLE_NS
    if place is not None and all(facts[3] < settled and facts[4] < settled for _, facts in stamps):
        write_sealed(place, _CODE_MAGIC, marshal.dumps((stamp, digest.hexdigest())))
    return digest.hexdigest()


def _stamp(path: str) -> tuple[int, ...]:
    info = os.stat(path)
    return info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns


def _code_files(folder: str, parts: tuple[str, ...]) -> list[tuple[tuple[str, ...], str]]:
    """(parts below the root, path) of each file with a code suffix in `folder` and below, not
    looking into folders reached through a symbolic link (as Path.rglob)."""
    found = []
    with os.scandir(folder) as entries:
        for entry in entries:
            if entry.is_dir() and not entry.is_symlink():
                found += _code_files(entry.path, (*parts, entry.name))
            elif _suffix(entry.name) in _CODE_SUFFIXES and entry.is_file():
                found.append(((*parts, entry.name), entry.path))
    return found


def _suffix(name: str) -> str:
    """PurePath.suffix of a file name."""
    dot = name.rfind(".")
    return name[dot:] if 0 < dot < len(name) - 1 else ""


def input_digests(paths) -> dict[str, str]:
    """Each input file's hash ("absent" when it is missing; art too large to use is known by its
    size, a FIFO or a folder by its kind: never opened, the build's checks report it)."""
    digests = {}
    for name in map(str, paths):
        try:
            info = os.stat(name)
        except OSError:
            digests[name] = "absent"
            continue
        if not stat.S_ISREG(info.st_mode):
            digests[name] = f"not a file:{stat.S_IFMT(info.st_mode)}"
            continue
        try:
            digests[name] = f"size:{info.st_size}" if info.st_size > MAX_ART_BYTES else file_hash(name, "input")
        except UnreadableInput as error:  # swapped since the look: unusable as it is
            digests[name] = f"unreadable:{error.problem.message}"
    return digests


def input_key(step: str, code: str, base_url: str | None, lang: str | None, inputs: dict[str, str],
              papers: tuple[str, ...] = DEFAULT_PAPERS) -> str:
    # Papers other than the default join the key (so a build's keys without --paper stay as they were).
    sheets = "" if papers == DEFAULT_PAPERS else "\0papers=" + ",".join(papers)
    digest = sha256(f"{step}\0{code}\0{base_url or ''}\0{lang or ''}\0{sheets}".encode())
    digest.update(json.dumps(sorted(inputs.items())).encode())
    return digest.hexdigest()


def read_manifest(final: Path) -> dict:
    try:
        manifest = json.loads(read_input(os.path.join(final, MANIFEST), "output"))
    except (UnreadableInput, ValueError):
        return {}
    return manifest if isinstance(manifest, dict) else {}


def file_hash(path: Path | str, kind: str = "output") -> str:
    """The SHA-256 of a file deckgen wrote (or of an input, `kind` "input"), read in blocks."""
    digest = sha256()
    with open_input(path, kind) as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _hash_or_none(path: str) -> str | None:
    try:
        return file_hash(path)
    except UnreadableInput:  # swapped for a FIFO or a huge file since the look: not what was written
        return None


def file_stat(path: Path | str) -> list[int]:
    """What changes whenever a file is rewritten or replaced: size, modification time, inode."""
    status = os.lstat(path)
    return [status.st_size, status.st_mtime_ns, status.st_ino]


def unchanged(final: Path, files, stats=None) -> bool:
    """Whether every file a step wrote is still there with the bytes it wrote (a single command
    such as `deckgen images --dpi 30` may have replaced it since). A file whose size, time and
    inode are as recorded is taken as unchanged; any other is hashed."""
    if not isinstance(files, dict):
        return False  # a manifest from before files carried hashes
    stats = stats if isinstance(stats, dict) else {}
    try:  # each name looked up from the folder, not from the root: a quarter of the time
        folder = os.open(final, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0)) if _LSTAT_AT else None
    except OSError:
        return False
    try:
        for name, digest in files.items():
            try:
                # (an absolute name is looked up as it is, as os.path.join would have it)
                status = os.lstat(name, dir_fd=folder) if folder is not None else os.lstat(os.path.join(final, name))
            except (OSError, ValueError, TypeError):  # gone, or a name no file can have
                return False
            if status.st_mode & 0o170000 != 0o100000:  # a symbolic link, a folder...: not stat.S_ISREG
                return False
            if stats.get(name) != [status.st_size, status.st_mtime_ns, status.st_ino] and \
                    _hash_or_none(os.path.join(final, name)) != digest:
                return False
        return True
    finally:
        if folder is not None:
            os.close(folder)


def up_to_date(deck_path: Path, deck_id: str, output_dir: Path, steps: list[tuple[str, str]], code: str,
               base_url: str | None = None, lang: str | None = None,
               papers: tuple[str, ...] = DEFAULT_PAPERS) -> tuple[Path, str] | None:
    """(The output folder, the note its build recorded) of a deck whose every step is up to
    date, found from its manifest alone (nothing loaded, nothing touched), or None when
    anything needs building."""
    final = output_dir / deck_id / lang if lang else output_dir / deck_id
    if final.is_symlink() or not final.is_dir() or any(name.startswith(f".{final.name}.old-")
                                                        for name in os.listdir(final.parent)):
        return None  # a publish interrupted: the build puts the previous folder back first
    manifest = read_manifest(final)
    entries = [manifest.get(name) for name, _ in steps]
    if not all(isinstance(entry, dict) and isinstance(entry.get("inputs"), dict) for entry in entries):
        return None
    recorded = entries[0]["inputs"]
    if str(deck_path) not in recorded or any(entry["inputs"] != recorded for entry in entries):
        return None
    inputs = input_digests(recorded)
    for (name, _), entry in zip(steps, entries):
        if entry.get("key") != input_key(name, code, base_url, lang, inputs, papers) or \
                not unchanged(final, entry.get("files"), entry.get("stats")):
            return None
    return final, str(entries[0].get("note", ""))


def deck_ids(paths: list[Path]) -> dict[Path, str]:
    """Each readable deck file's [deck] id. Ids are remembered in the cache folder by the deck
    file's hash, so a file read before is not parsed again (its id is a function of its bytes)."""
    place = _ids_path()
    known = _known_ids(place)
    ids, learnt = {}, False
    for path in paths:
        try:
            raw = read_input(path, "deck")
        except Exception as error:  # noqa: BLE001 - anything but deckgen's own errors is a bug
            if not isinstance(error, DeckgenError):
                raise
            continue  # the deck's own build reports why it cannot be read
        digest = sha256(raw).hexdigest()
        deck_id = known.get(digest)
        if deck_id is None:
            try:
                deck_id = parse_toml(raw.decode("utf-8"))["deck"]["id"]
            except (ValueError, KeyError, TypeError):
                continue  # the deck's own build reports why it cannot be read
            if not isinstance(deck_id, str):
                continue
            known.pop(digest, None)
            known[digest], learnt = deck_id, True
        ids[path] = deck_id
    if learnt and place is not None:
        write_sealed(place, _IDS_MAGIC, marshal.dumps((sys.version, dict(list(known.items())[-_IDS_KEPT:]))))
    return ids


def _ids_path() -> Path | None:
    folder = cache_folder()
    return None if folder is None else folder / "deck-ids"


def _known_ids(place: Path | None) -> dict[str, str]:
    body = read_sealed(place, _IDS_MAGIC)
    if body is None:
        return {}
    try:
        version, known = marshal.loads(body)
    except (EOFError, ValueError, TypeError):
        return {}
    if version != sys.version:  # another Python's TOML parser read them
        return {}
    if not isinstance(known, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in known.items()):
        return {}
    return known


class Reused:
    """A deck's result in a build that had nothing to do (as generator.build.run.DeckResult has it)."""

    ok = True
    error = ""

    def __init__(self, deck_id: str, reused: list[str], folder: Path, note: str):
        self.deck_id, self.reused, self.folder, self.note = deck_id, reused, folder, note
        self.built: list[str] = []
        self.seconds: dict[str, dict[str, float]] = {}


def everything_up_to_date(decks_dir: Path, output_dir: Path, base_url: str | None = None,
                          lang: str | None = None, papers: tuple[str, ...] = DEFAULT_PAPERS) -> list[Reused] | None:
    """What `generator.build.run.build_all` returns when every deck (each translation `lang` asks
    for) is up to date, decided as it decides it, under its lock; None when it has anything to
    build or anything to say (no decks, two decks with one id, another build running...)."""
    if not decks_dir.is_dir():
        return None
    paths = deck_paths(decks_dir)
    tasks = [(path, code) for path in paths for code in build_languages(path, lang)]
    ids = deck_ids(paths)
    if not tasks or len(ids) < len(paths) or len(set(ids.values())) < len(ids):
        return None
    handle = _locked(output_dir)
    if handle is None:
        return None
    try:
        code = code_fingerprint()
        results = []
        for path, language in tasks:
            found = up_to_date(path, ids[path], output_dir, STEPS, code, base_url, language, papers)
            if found is None:
                return None
            label = ids[path] + (f" [{language}]" if language else "")
            results.append(Reused(label, [name for name, _ in STEPS], *found))
        return results
    finally:
        if handle is not True:
            os.close(handle)


def _locked(output_dir: Path) -> int | bool | None:
    """The output folder held as a build holds it (generator.build.run.output_lock): its handle,
    True where builds are not locked, None when it cannot be (missing, or another build has it)."""
    try:
        import fcntl
    except ImportError:  # Windows has no fcntl: builds there are not locked
        return True
    try:
        handle = os.open(output_dir, os.O_RDONLY)
    except OSError:
        return None
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(handle)
        return None
    return handle
