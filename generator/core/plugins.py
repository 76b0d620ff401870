"""Engines installed by packages: the `deckgen.engines` entry point group.

A package registers a game engine in its pyproject.toml, and deckgen registers its own the
same way (docs/engines.md):

    [project.entry-points."deckgen.engines"]
    my-game = "my_package.engine:MyGame"

The registry is what `importlib.metadata` finds in that group on `sys.path`. Reading it imports
importlib.metadata and scans every distribution (about 20 ms together), so the answer is kept
in the cache folder, keyed by `sys.path` and by each metadata folder on it with the time its
`entry_points.txt` changed: installing, upgrading or removing a package changes the key, and a
warm run only lists the folders. Loading an engine is `generator.games.base.engine_class`'s
job; this module only names what is installed, and knows nothing of decks.
"""

from __future__ import annotations

import functools
import marshal
import os
import sys
from dataclasses import dataclass

from .cachefile import entry_path, read_entry, write_entry

GROUP = "deckgen.engines"
_MAGIC = b"deckgen engine registry 1\n"


@dataclass(frozen=True, slots=True)
class Registered:
    """One engine as a package registers it."""

    name: str  # what a deck writes in `[deck] engine = ...`
    target: str  # "module:attribute", the Game class
    package: str  # the distribution that registers it, "name version"


def engine_names() -> list[str]:
    """Every installed engine's name, sorted."""
    return sorted(_registry())


def registrations(name: str) -> tuple[Registered, ...]:
    """Every registration of `name` (none when no package registers it; more than one when
    two packages claim the same name, which the caller reports)."""
    return _registry().get(name, ())


def unknown_engine(name: str) -> tuple[str, str]:
    """The message and hint for an engine name nothing registers."""
    names = engine_names()
    if not names:
        return (f"unknown engine {name!r}: no engine is installed at all, not even deckgen's own",
                "deckgen's engines are registered by its package metadata; reinstall deckgen "
                "(pip install -e . in a checkout) so that metadata is current")
    return (f"unknown engine {name!r}; installed: {', '.join(names)}",
            f"an engine comes with deckgen or with a package that registers it under the {GROUP!r} "
            "entry points (docs/engines.md); `deckgen engines` lists them")


def forget() -> None:
    """Read the registry again on the next question (after installing a package in-process)."""
    _registry.cache_clear()


@functools.lru_cache(maxsize=1)
def _registry() -> dict[str, tuple[Registered, ...]]:
    place = entry_path("engines", "\0".join(sys.path), _metadata_stamp())
    kept = read_entry(place, _MAGIC) if place is not None else None
    if isinstance(kept, list) and all(isinstance(row, list) and len(row) == 3 for row in kept):
        rows = kept
    else:
        rows = _read_metadata()
        if place is not None:
            write_entry(place, _MAGIC, marshal.dumps(rows))
    registry: dict[str, tuple[Registered, ...]] = {}
    for name, target, package in rows:
        registry[name] = (*registry.get(name, ()), Registered(name, target, package))
    return registry


def _read_metadata() -> list[list[str]]:
    """[name, target, package] of every entry point in the group, as importlib.metadata reads them."""
    import importlib.metadata  # ~20 ms with the scan; skipped whenever the kept registry holds

    rows = []
    for point in importlib.metadata.entry_points(group=GROUP):
        dist = point.dist
        package = f"{dist.name} {dist.version}" if dist is not None else "an unnamed distribution"
        rows.append([point.name, point.value, package])
    return rows


def _metadata_stamp() -> str:
    """Each metadata folder on sys.path with the modification time of its entry points."""
    stamps = []
    for folder in sys.path:
        try:
            with os.scandir(folder or ".") as entries:
                names = sorted(entry.name for entry in entries if entry.name.endswith((".dist-info", ".egg-info")))
        except OSError:  # a zip file or a missing folder: its own time stands for its contents
            try:
                stamps.append(f"{folder}\0{os.stat(folder).st_mtime_ns}")
            except OSError:
                pass
            continue
        for name in names:
            try:
                changed = os.stat(os.path.join(folder or ".", name, "entry_points.txt")).st_mtime_ns
            except OSError:
                changed = -1
            stamps.append(f"{folder}\0{name}\0{changed}")
    return "\n".join(stamps)
