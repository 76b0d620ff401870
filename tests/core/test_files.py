"""The opener every input goes through (`generator.core.files`): a regular file is read; a FIFO,
a device, a folder or a socket is refused at once (even when swapped in between the look and
the open); a file past its kind's limit is refused, one that grows past it while read too;
what a deck names stays inside its folder, links resolved; a link is not followed where the
caller says so; every refusal names the file, what is wrong and what is allowed."""

from __future__ import annotations

import os
import socket
import stat

import pytest

from generator.core import files
from generator.core.errors import UnreadableInput
from generator.core.files import KINDS, RefusedInput, input_problem, open_input, read_input, read_text_input
from tests.badinput import deadline


def test_a_regular_file_is_read(tmp_path):
    path = tmp_path / "deck.toml"
    path.write_bytes(b"[deck]\n")
    assert read_input(path, "deck") == b"[deck]\n"
    assert input_problem(path, "deck") == ""
    with open_input(path, "deck") as handle:
        assert handle.read() == b"[deck]\n"


def test_a_fifo_is_refused_without_waiting(tmp_path):
    path = tmp_path / "deck.toml"
    os.mkfifo(path)
    with deadline(5), pytest.raises(RefusedInput) as refused:
        read_input(path, "deck")
    assert refused.value.reason == "is a FIFO, not a regular file"
    assert str(refused.value.problem) == (f"{path}: error: deck file is a FIFO, not a regular file (give the path of "
                                          "an ordinary file (reading a FIFO or a device could wait for ever))")
    assert input_problem(path, "image") == "is a FIFO, not a regular file"


@pytest.mark.parametrize("path, kind", [("/dev/zero", "a device"), ("/dev/null", "a device")])
def test_a_device_is_refused(path, kind):
    with deadline(5):
        assert input_problem(path, "layouts") == f"is {kind}, not a regular file"


def test_a_folder_and_a_socket_are_refused(tmp_path):
    assert input_problem(tmp_path, "deck") == "is a folder, not a regular file"
    listening = socket.socket(socket.AF_UNIX)
    listening.bind(str(tmp_path / "s.toml"))
    try:
        assert input_problem(tmp_path / "s.toml", "deck") == "is a socket, not a regular file"
    finally:
        listening.close()


def test_a_fifo_swapped_in_after_the_look_is_refused_at_the_open(tmp_path, monkeypatch):
    """The name is looked at, then opened without blocking and checked again on the open file."""
    regular, swapped = tmp_path / "regular", tmp_path / "swapped"
    regular.write_bytes(b"x")
    os.mkfifo(swapped)
    real_stat = os.stat
    monkeypatch.setattr(files.os, "stat", lambda path, **kw: real_stat(regular if path == swapped else path, **kw))
    with deadline(5):
        assert input_problem(swapped, "deck") == "is a FIFO, not a regular file"


def test_each_kind_has_its_limit(tmp_path):
    path = tmp_path / "big.toml"
    with open(path, "wb") as handle:
        handle.truncate(KINDS["deck"].limit + 1)
    with pytest.raises(RefusedInput, match=f"deck file is {KINDS['deck'].limit + 1:,} bytes; the limit is "):
        read_input(path, "deck")
    assert read_input(path, "spreadsheet")[:1] == b"\0"  # a larger kind takes it


def test_a_file_that_grows_while_read_stops_at_the_limit(tmp_path, monkeypatch):
    path = tmp_path / "growing.toml"
    path.write_bytes(b"x" * 10)
    monkeypatch.setitem(KINDS, "deck", files.Kind("deck file", 100, "small"))
    real_fstat = os.fstat

    def growing(descriptor):  # the open file is 10 bytes when checked, and holds 200 when read
        info = real_fstat(descriptor)
        if stat.S_ISREG(info.st_mode) and info.st_size == 10:
            with open(path, "ab") as handle:
                handle.write(b"x" * 190)
        return info

    monkeypatch.setattr(files.os, "fstat", growing)
    with pytest.raises(RefusedInput, match="larger than the limit of 100 bytes"):
        read_input(path, "deck")


def test_what_a_deck_names_stays_inside_its_folder(tmp_path):
    deck_folder, outside = tmp_path / "deck", tmp_path / "elsewhere.png"
    deck_folder.mkdir()
    outside.write_bytes(b"png")
    (deck_folder / "art").mkdir()
    (deck_folder / "art" / "in.png").write_bytes(b"png")
    (deck_folder / "art" / "out.png").symlink_to(outside)
    assert read_input(deck_folder / "art" / "in.png", "image", within=deck_folder) == b"png"
    for name in ("art/out.png", "../elsewhere.png"):
        assert input_problem(deck_folder / name, "image", within=deck_folder).startswith("lies outside the folder")
    assert read_input(outside, "image") == b"png"  # named on the command line: anywhere


def test_a_link_is_not_followed_where_the_caller_says_so(tmp_path):
    target, link = tmp_path / "target", tmp_path / "link"
    target.write_bytes(b"sealed")
    link.symlink_to(target)
    assert read_input(link, "cache") == b"sealed"
    with pytest.raises(RefusedInput, match="is a symbolic link, which is not followed here"):
        read_input(link, "cache", follow_links=False)
    assert files.read_if_regular(link, "cache", follow_links=False) is None


def test_missing_and_undecodable_files_name_themselves(tmp_path):
    with pytest.raises(RefusedInput) as missing:
        read_input(tmp_path / "gone.toml", "log")
    assert str(missing.value.problem) == f"{tmp_path / 'gone.toml'}: error: log does not exist (check the file's name " \
                                         "and folder)"
    latin = tmp_path / "latin.toml"
    latin.write_bytes(b"a = 1\nb = '\xe9'\n")
    with pytest.raises(UnreadableInput) as undecodable:
        read_text_input(latin, "overlay")
    assert undecodable.value.problem.line == 2 and "not UTF-8: byte 0xe9" in undecodable.value.problem.message
