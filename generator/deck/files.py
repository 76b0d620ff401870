"""Finding deck files and their translations, and parsing their TOML.

Kept apart from the loader (and free of its imports) so that the quick commands and the
deck cache (`generator.deck.cache`) find decks without loading the checks. Reading a file is
`generator.core.files`'s, like every read.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import TYPE_CHECKING

from ..core.errors import Problem, UnreadableInput
from ..core.files import KINDS

if TYPE_CHECKING:
    from .model import Deck

DECKS_DIR = Path("decks")
MAX_DECK_BYTES = KINDS["deck"].limit  # a deck file (generator.deck.schema lists the limits)
TRANSLATIONS_DIR = "translations"
LANG_PATTERN = re.compile(r"[a-z]{2,3}(?:-[A-Za-z0-9]{2,8})?")


def resolve_deck_path(ref: str | Path, decks_dir: Path = DECKS_DIR) -> Path:
    """A deck id from the decks folder, a path to a .toml file, or a deck folder holding
    `<folder name>.toml` or a single .toml file (what `deckgen new` writes)."""
    path = Path(ref)
    candidate = decks_dir / f"{ref}.toml"
    if path.is_dir() and ("/" in str(ref) or not candidate.exists()):
        inside = deck_paths(path)
        named = path / f"{path.name}.toml"
        if named.is_file() or len(inside) == 1:
            return named if named.is_file() else inside[0]
    if path.suffix == ".toml" or "/" in str(ref) or (path.exists() and not candidate.exists()):
        return path
    if candidate.exists():
        return candidate

    known = ", ".join(p.stem for p in deck_paths(decks_dir)) or "none"
    raise UnreadableInput(Problem(
        f"no deck {str(ref)!r}; known decks in {decks_dir}/: {known}",
        hint="give a deck id or a path to a .toml file",
        file=candidate,
    ))


def deck_paths(decks_dir: Path = DECKS_DIR) -> list[Path]:
    if decks_dir.exists() and not decks_dir.is_dir():
        raise UnreadableInput(Problem("--decks-dir is not a folder", file=decks_dir,
                                      hint="give the folder that holds the deck .toml files"))
    return sorted(decks_dir.glob("*.toml")) if decks_dir.is_dir() else []


def build_languages(deck_path: Path, wanted: str | None) -> list[str | None]:
    """For `build --lang`: None (the deck itself) without it; the deck and each of its
    translations for 'all'; the one language if this deck has it, else nothing."""
    if wanted is None:
        return [None]
    folder = deck_path.parent / TRANSLATIONS_DIR
    stem = deck_path.stem
    known = [path.name[len(stem) + 1:-len(".toml")] for path in sorted(folder.glob(f"{stem}.*.toml"))]
    known = [lang for lang in known if LANG_PATTERN.fullmatch(lang)]
    if wanted == "all":
        return [None, *known]
    return [wanted] if wanted in known else []


def parse_toml(text: str) -> dict:
    """`tomllib.loads`, with nesting too deep for the parser reported as bad TOML."""
    try:
        return tomllib.loads(text)
    except RecursionError:
        raise tomllib.TOMLDecodeError("arrays or tables nested too deeply") from None


def output_folder(output: Path, deck: "Deck") -> Path:
    """output/<deck>/ for the base language, output/<deck>/<lang>/ for a translation."""
    return output / deck.id / deck.lang if deck.lang else output / deck.id

