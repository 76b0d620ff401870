"""The deck cache: a hit gives the deck a fresh load gives; a changed deck or included file,
changed code, a re-pointed link, a corrupt or foreign entry are never trusted."""

from __future__ import annotations

import dataclasses
import os
import pickle
import sys

import pytest

import generator.deck.loader
from generator.core.resources import TEMPLATES
from generator.core import cachefile
from generator.deck import cache as deckcache
from generator.core.errors import InvalidDeck
from tests.badinput import TINY
from tests.conftest import DECK_PATHS, ROOT

SPREADSHEET_DECK = ROOT / "examples" / "spreadsheet" / "quidditch-v2.toml"
DESIGNER_DECK = ROOT / "examples" / "designer" / "cauldron-club.toml"  # shared layouts, fonts, icons, SVG art
OLD = 1_600_000_000  # a modification time long settled (2020), so a fresh file may be cached


def settle(*paths) -> None:
    for path in paths:
        os.utime(path, (OLD, OLD))


def entries(cache_home) -> list:
    folder = cache_home / "deckgen"
    return sorted(folder.glob("*.deck")) if folder.is_dir() else []


@pytest.fixture
def cache_home(tmp_path, monkeypatch):
    """An empty cache of this test's own (the suite's shared one would hide misses)."""
    folder = tmp_path / "cache"
    monkeypatch.setenv("XDG_CACHE_HOME", str(folder))
    return folder


@pytest.fixture
def fresh_loads(monkeypatch):
    """Counts the loads that go to the loader (the misses)."""
    calls = []
    real = generator.deck.loader.load_deck

    def counted(*args, **kwargs):
        calls.append(args[0])
        return real(*args, **kwargs)

    monkeypatch.setattr(generator.deck.loader, "load_deck", counted)
    return calls


def tiny_deck(tmp_path, text: str = TINY):
    path = tmp_path / "decks" / "tiny.toml"
    path.parent.mkdir(exist_ok=True)
    path.write_text(text, encoding="utf-8")
    settle(path)
    return path


@pytest.mark.parametrize("path", [*DECK_PATHS, SPREADSHEET_DECK], ids=lambda p: str(p.relative_to(ROOT)))
def test_a_hit_is_the_deck_a_fresh_load_gives(path, cache_home, fresh_loads):
    first = deckcache.load_deck(path)
    second = deckcache.load_deck(path)
    assert fresh_loads == [path]
    assert second == first == generator.deck.loader.load_deck(path)
    assert second is not first
    assert len(entries(cache_home)) == 1


def test_views_are_kept_and_answer_without_the_deck(tmp_path, cache_home, fresh_loads, monkeypatch):
    path = tiny_deck(tmp_path)
    assert deckcache.deck_view(path, path.parent, "generator.deck.summary:composition_text").startswith("Tiny (tiny)")
    monkeypatch.setattr(deckcache, "_unpickle", lambda entry: pytest.fail("a kept view needs no deck"))
    assert deckcache.deck_view(path, path.parent, "generator.deck.summary:composition_text").startswith("Tiny (tiny)")
    assert fresh_loads == [path]


def test_an_edited_deck_is_loaded_again_even_with_the_same_size_and_time(tmp_path, cache_home, fresh_loads):
    path = tiny_deck(tmp_path)
    assert deckcache.load_deck(path).name == "Tiny"
    assert deckcache.deck_view(path, path.parent, "generator.cli.commands.quick:listing")["name"] == "Tiny"
    path.write_text(TINY.replace('name = "Tiny"', 'name = "Tinx"'), encoding="utf-8")
    settle(path)  # same size, same modification time: only the bytes tell
    assert deckcache.load_deck(path).name == "Tinx"
    assert deckcache.deck_view(path, path.parent, "generator.cli.commands.quick:listing")["name"] == "Tinx"
    assert len(fresh_loads) == 2


def test_an_edited_spreadsheet_is_read_again(tmp_path, cache_home, fresh_loads):
    folder = tmp_path / "deck"
    folder.mkdir()
    sheet = folder / "cards.csv"
    sheet.write_text("name,code,kind\nAlpha,A,number\n", encoding="utf-8")
    deck = folder / "tiny.toml"
    deck.write_text(TINY + '\n[[card_sources]]\nfile = "cards.csv"\n', encoding="utf-8")
    settle(sheet, deck)
    assert deckcache.load_deck(deck).card("A").name == "Alpha"
    assert deckcache.load_deck(deck).card("A").name == "Alpha"
    sheet.write_text("name,code,kind\nAlphb,A,number\n", encoding="utf-8")
    settle(sheet)
    assert deckcache.load_deck(deck).card("A").name == "Alphb"
    assert len(fresh_loads) == 2
    sheet.unlink()
    with pytest.raises(InvalidDeck, match="cards.csv"):
        deckcache.load_deck(deck)


def test_changed_code_is_a_miss(tmp_path, cache_home, fresh_loads, monkeypatch):
    path = tiny_deck(tmp_path)
    deckcache.load_deck(path)
    monkeypatch.setattr(deckcache, "code_stamp", lambda: "another deckgen")
    deckcache.load_deck(path)
    deckcache.load_deck(path)
    assert len(fresh_loads) == 2


def test_the_same_path_from_another_folder_is_another_entry(tmp_path, cache_home, fresh_loads, monkeypatch):
    for name in ("one", "two"):
        (tmp_path / name).mkdir()
        tiny_deck(tmp_path / name, TINY.replace('name = "Tiny"', f'name = "{name}"'))
    for name in ("one", "two", "one", "two"):
        monkeypatch.chdir(tmp_path / name)
        deck = deckcache.load_deck("tiny", deckcache.DECKS_DIR)
        assert deck.name == name and deck.source == deckcache.DECKS_DIR / "tiny.toml"
    assert len(fresh_loads) == 2 and len(entries(cache_home)) == 2


def test_two_installed_copies_of_deckgen_keep_their_own_entries(tmp_path, cache_home, fresh_loads, monkeypatch):
    path = tiny_deck(tmp_path)
    deckcache.load_deck(path)
    first = deckcache.PACKAGE, deckcache.code_stamp
    monkeypatch.setattr(deckcache, "PACKAGE", tmp_path / "another" / "generator")
    monkeypatch.setattr(deckcache, "code_stamp", lambda: "another deckgen")
    deckcache.load_deck(path)
    deckcache.load_deck(path)
    deckcache.PACKAGE, deckcache.code_stamp = first
    deckcache.load_deck(path)  # the first copy's entry is still there
    assert len(fresh_loads) == 2 and len(entries(cache_home)) == 2


def test_a_repointed_art_link_is_a_miss(tmp_path, cache_home, fresh_loads):
    folder = tmp_path / "deck"
    (folder / "art").mkdir(parents=True)
    (folder / "art" / "a.png").write_bytes(b"not really a picture")
    outside = tmp_path / "outside.png"
    outside.write_bytes(b"elsewhere")
    deck = folder / "tiny.toml"
    deck.write_text(TINY.replace('count = 2\n', 'count = 2\nart = "art/a.png"\n'), encoding="utf-8")
    settle(deck)
    assert deckcache.load_deck(deck).card("JK").art == (folder / "art" / "a.png").resolve()
    (folder / "art" / "a.png").unlink()
    (folder / "art" / "a.png").symlink_to(outside)
    with pytest.raises(InvalidDeck, match="points outside the deck's folder"):
        deckcache.load_deck(deck)


CORRUPTIONS = {
    "empty": lambda raw: b"",
    "truncated": lambda raw: raw[: len(raw) // 2],
    "a flipped byte": lambda raw: raw[:-40] + bytes([raw[-40] ^ 1]) + raw[-39:],
    "another magic": lambda raw: b"deckgen deck cache 0\n" + raw[len(deckcache.MAGIC):],
    "checksummed garbage": lambda raw: deckcache.MAGIC + _sealed(b"\x80\x05garbage"),
    "checksummed wrong shape": lambda raw: deckcache.MAGIC + _sealed(pickle.dumps(("a", "tuple"))),
    "checksummed non-deck": lambda raw: deckcache.MAGIC + _sealed(_entry_body(raw, pickle.dumps({"id": "tiny"}))),
}


def _sealed(body: bytes) -> bytes:
    """Sealed with the user's own key, as deckgen seals: what is inside must still be checked."""
    return cachefile.seal(body, cachefile.seal_key()) + body


def _entry_body(raw: bytes, pickled_deck: bytes) -> bytes:
    key, files, arts, _, layouts, views = pickle.loads(raw[len(deckcache.MAGIC) + cachefile._DIGEST:])
    return pickle.dumps((key, files, arts, pickled_deck, layouts, views))


@pytest.mark.parametrize("corrupt", CORRUPTIONS.values(), ids=CORRUPTIONS.keys())
def test_a_corrupt_entry_is_ignored_and_rewritten(corrupt, tmp_path, cache_home, fresh_loads):
    path = tiny_deck(tmp_path)
    expected = deckcache.load_deck(path)
    [entry] = entries(cache_home)
    entry.write_bytes(corrupt(entry.read_bytes()))
    assert deckcache.load_deck(path) == expected
    assert deckcache.load_deck(path) == expected
    assert len(fresh_loads) == 2  # the corrupt entry cost one load; the rewritten one is good


def test_an_entry_others_may_write_is_never_read(tmp_path, cache_home, fresh_loads):
    path = tiny_deck(tmp_path)
    deckcache.load_deck(path)
    [entry] = entries(cache_home)
    entry.chmod(0o666)
    deckcache.load_deck(path)
    assert len(fresh_loads) == 2
    assert entry.stat().st_mode & 0o777 == 0o600  # rewritten as the user's own


def test_entries_are_the_users_own_whatever_the_umask(tmp_path, cache_home, fresh_loads):
    path = tiny_deck(tmp_path)
    previous = os.umask(0o002)  # a group-writable default, as on many desktops
    try:
        deckcache.load_deck(path)
    finally:
        os.umask(previous)
    [entry] = entries(cache_home)
    assert entry.stat().st_mode & 0o777 == 0o600
    deckcache.load_deck(path)
    assert len(fresh_loads) == 1


def test_a_deck_saved_during_the_load_is_not_cached(tmp_path, cache_home, fresh_loads):
    path = tiny_deck(tmp_path)
    os.utime(path)  # modified just now: perhaps while the loader read it
    deckcache.load_deck(path)
    assert entries(cache_home) == []
    settle(path)
    deckcache.load_deck(path)
    deckcache.load_deck(path)
    assert len(fresh_loads) == 2 and len(entries(cache_home)) == 1


def test_a_deck_with_errors_is_never_cached(tmp_path, cache_home):
    path = tiny_deck(tmp_path, TINY.replace('code = "JK"', 'code = "AH"'))
    for _ in range(2):
        with pytest.raises(InvalidDeck, match="duplicate card code"):
            deckcache.load_deck(path)
    assert entries(cache_home) == []


def test_a_cache_folder_that_cannot_be_written_costs_only_speed(tmp_path, monkeypatch):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the cache folder would go")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))
    path = tiny_deck(tmp_path)
    assert deckcache.load_deck(path).name == deckcache.load_deck(path).name == "Tiny"
    assert blocker.read_text() == "a file where the cache folder would go"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["decks", "not-a-folder"]


def test_entries_go_to_the_xdg_cache_folder_or_home(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert deckcache.cache_folder() == tmp_path / "xdg" / "deckgen"
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/is/ignored")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert deckcache.cache_folder() == tmp_path / "home" / ".cache" / "deckgen"


@pytest.mark.parametrize("path", [*DECK_PATHS, SPREADSHEET_DECK, DESIGNER_DECK], ids=lambda p: str(p.relative_to(ROOT)))
def test_every_file_a_load_opens_is_checked_by_the_entry(path, cache_home):
    """The entry lists every file the loader read, so a change to any of them is a miss. A new
    kind of included file (layouts, fonts, icons) must reach `Deck.inputs` to pass this."""
    recording = {"on": True, "opened": []}

    def hook(event, args):
        if recording["on"] and event == "open" and isinstance(args[0], (str, os.PathLike)):
            recording["opened"].append(os.path.realpath(args[0]))

    sys.addaudithook(hook)  # a hook cannot be removed: this one records only during the load
    try:
        deckcache.load_deck(path)
    finally:
        recording["on"] = False
    # deckgen's own files (package, shipped templates: the code stamp covers them), Python's, the
    # cache's, and the system's configuration (mimetypes reads /etc/mime.types) are not the deck's.
    ours = [os.path.realpath(p) + os.sep for p in (generator.__path__[0], TEMPLATES, sys.prefix, sys.base_prefix,
                                                   cache_home, "/etc")]  # system path: never read
    read = {name for name in recording["opened"] if os.path.isfile(name) and not name.startswith(tuple(ours))}
    [entry] = entries(cache_home)
    body = pickle.loads(entry.read_bytes()[len(deckcache.MAGIC) + cachefile._DIGEST:])
    checked = {os.path.realpath(name) for name, _, _ in body[1]}
    assert path.resolve().as_posix() in checked
    assert read <= checked, f"read by the load but not checked by the cache: {sorted(read - checked)}"


def test_a_deck_without_its_layouts_is_the_deck_but_for_them(tmp_path, cache_home, fresh_loads):
    """`layouts=False` (rule, referee) skips unpickling the layout book, nothing else."""
    path = DESIGNER_DECK
    full = deckcache.load_deck(path)
    assert full.layouts is not None
    for _ in range(2):
        bare = deckcache.load_deck(path, layouts=False)
        assert bare.layouts is None and bare == dataclasses.replace(full, layouts=None)
    assert deckcache.load_deck(path) == full
    assert len(fresh_loads) == 1


def test_the_shipped_layouts_are_kept_read_and_checked(cache_home, monkeypatch):
    """A deck's first load takes the shipped layouts from the cache folder when deckgen is
    unchanged: the same sources and book as reading them afresh; other code reads them again."""
    from generator.deck.layouts import book

    def kept():
        book._builtins.cache_clear()
        try:
            return book._builtins()
        finally:
            book._builtins.cache_clear()

    def facts(sources):
        return [(s.table, s.path, s.lines.lines, s.prefix, s.builtin) for s in sources]

    reads = []
    real = book._read_builtin_sources
    monkeypatch.setattr(book, "_read_builtin_sources", lambda: reads.append(1) or real())
    first = kept()
    assert (cache_home / "deckgen" / "shipped-layouts").is_file()
    second = kept()
    assert len(reads) == 1, "the second process-worth of loads should not parse the shipped layouts"
    assert facts(second[0]) == facts(first[0]) == facts(real()) and second[1] == first[1]
    monkeypatch.setattr(book, "code_stamp", lambda: "another deckgen")
    kept()
    assert len(reads) == 2
