"""The hyphenation patterns of the rulebook's justified columns, kept between runs.

reportlab hyphenates through pyphen, which parses a language's pattern file (some 14,000
patterns for English, 50 ms in Python) the first time a process asks for it, and keeps it in
`pyphen.hdcache`. `hyphenation_language` hands reportlab the language and puts the parsed
patterns there first, from an entry in deckgen's cache folder (`render.cachefile`) when the
pattern file is unchanged since the entry was made, for the same pyphen and Python.

An entry is made only when the dictionary holds just its patterns and they are plain data (a
start offset and a tuple of ints for each; pyphen's nonstandard-hyphen dictionaries hold
objects instead); otherwise pyphen parses, as without this cache. (tests/deck/test_kept_parses.py
checks that the rebuilt dictionary equals the parsed one.)
"""

from __future__ import annotations

import marshal
import os
from pathlib import Path

import pyphen

from ..core.cachefile import entry_path, file_stamp, read_entry, write_entry
from ..core.errors import UnreadableInput
from ..core.files import open_input

MAGIC = b"deckgen hyphenation cache 1\n"


# A hyphen leaves at least this many letters on each side: "oth-er" is not a break a reader accepts.
MIN_LETTERS = 3


def hyphenator(tag: str):
    """What reportlab's `hyphenationLang` takes: a function giving a word's break points, each
    leaving at least MIN_LETTERS letters either side; "" (no hyphenation) without a dictionary."""
    language = hyphenation_language(tag)
    if not language:
        return ""
    return pyphen.Pyphen(lang=language, left=MIN_LETTERS, right=MIN_LETTERS).iterate


def hyphenation_language(tag: str) -> str:
    """pyphen's dictionary for a BCP 47 tag (en-GB -> en_GB), its patterns loaded; "" when it has none."""
    language = pyphen.language_fallback(tag.replace("-", "_")) or ""
    if language:
        _load(pyphen, pyphen.LANGUAGES[language])
    return language


def _load(pyphen, path: Path) -> None:
    if path in pyphen.hdcache:
        return
    try:
        with open_input(path, "shipped") as handle:
            stamp = file_stamp(handle)
    except UnreadableInput:  # pyphen reports it when it opens the file
        return
    version = getattr(pyphen, "VERSION", getattr(pyphen, "__version__", "?"))
    place = entry_path("hyphenation", os.path.abspath(path), str(version))
    if place is None:
        return
    entry = read_entry(place, MAGIC)
    if entry is not None and entry[0] == stamp:
        pyphen.hdcache[path] = _rebuild(pyphen, *entry[1:])
        return
    parsed = pyphen.HyphDict(path)
    pyphen.hdcache[path] = parsed
    if set(vars(parsed)) != {"patterns", "cache", "maxlen"} or not all(
            type(start) is int and type(values) is tuple and all(type(value) is int for value in values)
            for start, values in parsed.patterns.values()):
        return
    write_entry(place, MAGIC, marshal.dumps((stamp, parsed.patterns, parsed.maxlen)))


def _rebuild(pyphen, patterns: dict, maxlen: int):
    """The `pyphen.HyphDict` these patterns were parsed into, with an empty word cache."""
    hyphenation = pyphen.HyphDict.__new__(pyphen.HyphDict)
    hyphenation.patterns, hyphenation.cache, hyphenation.maxlen = patterns, {}, maxlen
    return hyphenation
