"""The cache folder trusts nothing it did not write: each way of slipping a pickle to the deck
cache (a planted entry resealed with the old unkeyed checksum, a symbolic link to a sealed
file, a folder another user owns or anyone may write, a FIFO) is refused, and nothing planted
is ever unpickled."""

from __future__ import annotations

import os
import pickle
import stat
from pathlib import Path

import pytest

from generator.core import cachefile
from generator.deck import cache as deckcache
from tests.badinput import TINY, deadline

OLD = 1_600_000_000


class Planted:
    """A pickle that, when loaded, makes a folder: proof that planted code ran."""

    def __init__(self, marker: Path):
        self.marker = marker

    def __reduce__(self):
        return (os.mkdir, (str(self.marker),))


@pytest.fixture
def cache_home(tmp_path, monkeypatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("XDG_CACHE_HOME", str(folder))
    cachefile._KEYS.clear()
    return folder


def _deck(tmp_path: Path) -> Path:
    path = tmp_path / "decks" / "tiny.toml"
    path.parent.mkdir()
    path.write_text(TINY, encoding="utf-8")
    os.utime(path, (OLD, OLD))
    return path


def _entry(cache_home: Path) -> Path:
    [entry] = sorted((cache_home / "deckgen").glob("*.deck"))
    return entry


def _planted_body(entry: Path, marker: Path) -> bytes:
    """The entry's body with the deck replaced by the planted pickle (everything else valid)."""
    body = entry.read_bytes()[len(deckcache.MAGIC) + cachefile._DIGEST:]
    key, files, arts, _, layouts, views = pickle.loads(body)
    return pickle.dumps((key, files, arts, pickle.dumps(Planted(marker)), layouts, views))


def test_an_entry_resealed_with_an_unkeyed_checksum_is_never_unpickled(tmp_path, cache_home):
    deck = _deck(tmp_path)
    deckcache.load_deck(deck)
    entry, marker = _entry(cache_home), tmp_path / "ran"
    body = _planted_body(entry, marker)
    # What the old seal was: BLAKE2b of the body, which anyone can compute.
    entry.write_bytes(deckcache.MAGIC + deckcache.blake2b(body, digest_size=cachefile._DIGEST).digest() + body)
    assert cachefile.read_sealed(entry, deckcache.MAGIC) is None
    assert deckcache.load_deck(deck).name == "Tiny"
    assert not marker.exists()


def test_the_keyed_seal_is_what_decides(tmp_path, cache_home):
    """The control for the test above: the same body sealed with the user's key is read (the
    deck cache then unpickles it), so the refusal above is the seal's doing."""
    deck = _deck(tmp_path)
    deckcache.load_deck(deck)
    entry = _entry(cache_home)
    body = _planted_body(entry, tmp_path / "ran")
    entry.write_bytes(deckcache.MAGIC + cachefile.seal(body, cachefile.seal_key()) + body)
    assert cachefile.read_sealed(entry, deckcache.MAGIC) == body


def test_the_key_is_the_users_alone(cache_home):
    cachefile.write_sealed(cachefile.cache_folder() / "x" / "entry", b"m\n", b"body")
    key_file = cache_home / "deckgen" / "seal-key"
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600 and len(key_file.read_bytes()) == 32
    cachefile._KEYS.clear()
    key_file.chmod(0o644)  # readable by others: anyone could seal with it
    assert cachefile.seal_key() is None
    assert cachefile.read_sealed(cachefile.cache_folder() / "x" / "entry", b"m\n") is None


def test_a_symbolic_link_to_a_sealed_file_is_not_followed(tmp_path, cache_home):
    deck = _deck(tmp_path)
    deckcache.load_deck(deck)
    entry, marker = _entry(cache_home), tmp_path / "ran"
    body = _planted_body(entry, marker)
    elsewhere = tmp_path / "elsewhere.deck"
    elsewhere.write_bytes(deckcache.MAGIC + cachefile.seal(body, cachefile.seal_key()) + body)
    elsewhere.chmod(0o600)
    entry.unlink()
    entry.symlink_to(elsewhere)
    assert cachefile.read_sealed(entry, deckcache.MAGIC) is None
    assert cachefile.read_sealed(elsewhere, deckcache.MAGIC) == body  # the file itself would pass
    assert deckcache.load_deck(deck).name == "Tiny"
    assert not marker.exists()
    assert not _entry(cache_home).is_symlink()  # replaced by a fresh entry


def test_a_fifo_in_the_cache_folder_is_a_miss_not_a_hang(tmp_path, cache_home):
    deck = _deck(tmp_path)
    deckcache.load_deck(deck)
    entry = _entry(cache_home)
    entry.unlink()
    os.mkfifo(entry)
    with deadline(20):
        assert deckcache.load_deck(deck).name == "Tiny"


def test_a_folder_anyone_may_write_is_not_used(tmp_path, cache_home):
    deck = _deck(tmp_path)
    deckcache.load_deck(deck)
    folder, entry = cache_home / "deckgen", _entry(cache_home)
    marker = tmp_path / "ran"
    body = _planted_body(entry, marker)
    planted = deckcache.MAGIC + cachefile.seal(body, cachefile.seal_key()) + body
    entry.write_bytes(planted)
    folder.chmod(0o777)  # anyone could have put that there
    try:
        assert cachefile.read_sealed(entry, deckcache.MAGIC) is None
        assert deckcache.load_deck(deck).name == "Tiny"
        assert not marker.exists()
        assert entry.read_bytes() == planted  # nor written into
    finally:
        folder.chmod(0o700)


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="giving a folder away needs root")
def test_a_folder_another_user_owns_is_not_used(tmp_path, cache_home):
    deck = _deck(tmp_path)
    deckcache.load_deck(deck)
    folder, entry = cache_home / "deckgen", _entry(cache_home)
    os.chown(folder, 12345, 12345)
    try:
        assert cachefile.read_sealed(entry, deckcache.MAGIC) is None
        cachefile.write_sealed(folder / "new", b"m\n", b"body")
        assert not (folder / "new").exists()
    finally:
        os.chown(folder, os.getuid(), os.getgid())


def test_a_folder_that_is_a_link_is_not_used(tmp_path, cache_home):
    real = tmp_path / "real"
    real.mkdir(mode=0o700)
    cache_home.mkdir()
    (cache_home / "deckgen").symlink_to(real)
    cachefile.write_sealed(cachefile.cache_folder() / "entry", b"m\n", b"body")
    assert list(real.iterdir()) == []
