"""`deckgen build` never lies about its outputs: a reused file is the file the manifest names,
a deck folder is switched in whole, one build holds an output folder at a time, workers die
with their build, files get the umask's modes, and one bad deck fails alone."""

from __future__ import annotations

import hashlib
import json
import os
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest
from PIL import Image

from generator.build import run as build
from generator.core import output

from tests.badinput import TINY, check_result
from tests.conftest import ROOT
from tests.processes import alive, children

SECOND = TINY.replace('id = "tiny"', 'id = "second"').replace('name = "Tiny"', 'name = "Second"')


@pytest.fixture
def decks(tmp_path):
    folder = tmp_path / "decks"
    folder.mkdir()
    (folder / "tiny.toml").write_text(TINY, encoding="utf-8")
    return folder


def _build(run_cli, decks: Path, out: Path, *extra: str):
    return run_cli("build", "--decks-dir", decks, "--output", out, "--jobs", "1", *extra)


def _consistent(folder: Path) -> dict:
    """The deck folder's manifest, after checking every file it lists is there with its hash."""
    manifest = json.loads((folder / build.MANIFEST).read_text())
    for step in manifest.values():
        for name, digest in step["files"].items():
            assert hashlib.sha256((folder / name).read_bytes()).hexdigest() == digest, name
    return manifest


def test_a_single_command_with_other_options_makes_the_build_redo_that_step(run_cli, decks, tmp_path):
    out = tmp_path / "out"
    assert _build(run_cli, decks, out).exit_code == 0
    tiny = decks / "tiny.toml"
    assert run_cli("images", tiny, "--dpi", "30", "--output", out).exit_code == 0
    assert run_cli("print", tiny, "--bleed", "0", "--gap", "5", "--output", out).exit_code == 0
    assert run_cli("export", "lackey", tiny, "--encoding", "utf-8", "--output", out).exit_code == 0
    again = _build(run_cli, decks, out, "--json")
    (result,) = json.loads(again.stdout)
    assert {"images", "print", "exports"} <= set(result["built"]), result
    assert {"summary", "rulebook"} <= set(result["reused"])
    with Image.open(out / "tiny" / "images" / "jk.png") as image:
        assert image.size[0] > 700  # the build's 300 dpi, not the 30 dpi of the single command
    _consistent(out / "tiny")


def test_other_commands_files_survive_a_build(run_cli, decks, tmp_path):
    out = tmp_path / "out"
    assert run_cli("print", decks / "tiny.toml", "--paper", "letter", "--output", out).exit_code == 0
    assert _build(run_cli, decks, out).exit_code == 0
    assert (out / "tiny" / "tiny-print-letter.pdf").is_file()
    assert (out / "tiny" / "tiny-print-a4.pdf").is_file()


class Killed(BaseException):
    """Stands for the process being killed at the injected point."""


def _edit_and_build(run_cli, decks, out):
    tiny = decks / "tiny.toml"
    tiny.write_text(TINY.replace('name = "Tiny"', 'name = "Tiny Two"'), encoding="utf-8")
    return _build(run_cli, decks, out)


def test_a_kill_before_the_switch_leaves_the_previous_build_whole(run_cli, decks, tmp_path, monkeypatch):
    out = tmp_path / "out"
    assert _build(run_cli, decks, out).exit_code == 0
    before = _consistent(out / "tiny")

    def kill(name):
        raise Killed(name)

    monkeypatch.setattr(build, "_fault_point", kill)
    with pytest.raises(Killed):
        _edit_and_build(run_cli, decks, out)
    assert _consistent(out / "tiny") == before
    assert json.loads((out / "tiny" / "summary.json").read_text())["name"] == "Tiny"


def test_a_kill_between_the_renames_is_recovered_by_the_next_build(run_cli, decks, tmp_path, monkeypatch):
    out = tmp_path / "out"
    assert _build(run_cli, decks, out).exit_code == 0
    real_replace = os.replace
    calls = []

    class FaultyOs:
        def __getattr__(self, name):
            return getattr(os, name)

        @staticmethod
        def replace(source, target):
            calls.append(target)
            if Path(target).name == "tiny" and Path(source).parent.name == ".staging":
                raise Killed("between the renames")
            return real_replace(source, target)

    monkeypatch.setattr(output, "os", FaultyOs())
    with pytest.raises(Killed):
        _edit_and_build(run_cli, decks, out)
    monkeypatch.undo()
    # Killed with the old folder set aside and the new one not yet in: nothing mixed anywhere.
    assert not (out / "tiny").exists()
    (aside,) = out.glob(".tiny.old-*")
    assert json.loads((aside / "tiny" / "summary.json").read_text())["name"] == "Tiny"
    result = _build(run_cli, decks, out)
    assert result.exit_code == 0, result.stderr
    _consistent(out / "tiny")
    assert json.loads((out / "tiny" / "summary.json").read_text())["name"] == "Tiny Two"
    assert not list(out.glob(".tiny.old-*"))


def test_a_second_build_into_the_same_folder_is_refused_while_one_runs(run_cli, decks, tmp_path):
    out = tmp_path / "out"
    with build.output_lock(out):
        result = _build(run_cli, decks, out)
    check_result(result, (2,), ("another deckgen build is writing to", str(out)))
    assert not (out / "tiny").exists()


def test_two_concurrent_build_processes_never_mix_or_lose_files(decks, tmp_path):
    (decks / "second.toml").write_text(SECOND, encoding="utf-8")
    out = tmp_path / "out"
    command = [sys.executable, "-m", "generator", "build", "--decks-dir", str(decks), "--output", str(out),
               "--jobs", "2"]
    runs = [subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            for _ in range(2)]
    results = [(run.wait(timeout=300), *run.communicate()) for run in runs]
    for code, stdout, stderr in results:
        assert "Traceback" not in stderr, stderr
        assert code == 0 or (code == 2 and "another deckgen build" in stderr), (code, stderr)
    assert any(code == 0 for code, _, _ in results)
    for deck in ("tiny", "second"):
        _consistent(out / deck)
    assert not (out / build.STAGING).exists()


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads /proc")
def test_killing_the_build_stops_its_workers(decks, tmp_path):
    (decks / "second.toml").write_text(SECOND, encoding="utf-8")
    out = tmp_path / "out"
    parent = subprocess.Popen([sys.executable, "-m", "generator", "build", "--decks-dir", str(decks),
                               "--output", str(out), "--jobs", "2"], cwd=ROOT,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    workers: set[int] = set()
    deadline = time.monotonic() + 60
    while len(workers) < 2 and time.monotonic() < deadline and parent.poll() is None:
        workers |= children(parent.pid)
        time.sleep(0.05)
    assert len(workers) >= 2, "the build started no workers"
    parent.send_signal(signal.SIGKILL)
    parent.wait()
    deadline = time.monotonic() + 10
    while any(alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not [pid for pid in workers if alive(pid)]


def test_output_files_and_folders_honour_the_umask(run_cli, decks, tmp_path):
    out = tmp_path / "out"
    assert _build(run_cli, decks, out).exit_code == 0
    assert run_cli("images", decks / "tiny.toml", "--dpi", "30", "--output", tmp_path / "single").exit_code == 0
    mask = os.umask(0)
    os.umask(mask)
    paths = list(out.rglob("*")) + list((tmp_path / "single").rglob("*"))
    assert len(paths) > 10
    for path in paths:
        mode = stat.S_IMODE(path.stat().st_mode)
        assert mode == (0o777 if path.is_dir() else 0o666) & ~mask, (path, oct(mode))


def test_duplicate_deck_ids_are_an_error_naming_both_files(run_cli, decks, tmp_path):
    (decks / "copy.toml").write_text(TINY, encoding="utf-8")
    (decks / "second.toml").write_text(SECOND, encoding="utf-8")
    out = tmp_path / "out"
    result = _build(run_cli, decks, out)
    check_result(result, (1,), (str(decks / "tiny.toml"), str(decks / "copy.toml"), "deck.id"))
    assert not (out / "tiny").exists()
    assert (out / "second" / "summary.json").is_file()


def test_one_crashing_deck_does_not_stop_the_others(run_cli, decks, tmp_path, monkeypatch):
    (decks / "second.toml").write_text(SECOND, encoding="utf-8")
    (decks / "broken.toml").write_text("[deck\n", encoding="utf-8")
    real = build._step_function

    def crash_for_second(target):
        function = real(target)

        def step(deck, out_dir):
            if deck.id == "second":
                raise RuntimeError("a bug")
            return function(deck, out_dir)

        return step

    monkeypatch.setattr(build, "_step_function", crash_for_second)
    out = tmp_path / "out"
    result = _build(run_cli, decks, out)
    check_result(result, (1,), ("second: FAILED", "internal error", "RuntimeError: a bug", "broken: FAILED",
                                "broken.toml:1"))
    assert "tiny: built" in result.stdout
    _consistent(out / "tiny")
    assert not (out / "second").exists()


def test_a_symlink_inside_a_deck_folder_is_refused(run_cli, decks, tmp_path):
    out = tmp_path / "out"
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (out / "tiny").mkdir(parents=True)
    (out / "tiny" / "images").symlink_to(elsewhere, target_is_directory=True)
    result = _build(run_cli, decks, out)
    check_result(result, (1,), ("symbolic link", "images"))
    assert not list(elsewhere.iterdir())


def test_temporary_files_of_a_killed_run_are_cleaned_up(run_cli, decks, tmp_path):
    out = tmp_path / "out"
    images = out / "tiny" / "images"
    images.mkdir(parents=True)
    stale = images / ".joker.png.abc123.tmp"
    fresh = images / ".back.png.def456.tmp"
    for path in (stale, fresh):
        path.write_bytes(b"half a png")
    old = time.time() - output.STALE_TEMP_SECONDS - 60
    os.utime(stale, (old, old))
    assert run_cli("images", decks / "tiny.toml", "--dpi", "30", "--output", out).exit_code == 0
    assert not stale.exists()
    assert fresh.exists()  # young: it may belong to a run still going


def test_a_deck_that_kills_its_worker_fails_alone(run_cli, decks, tmp_path, monkeypatch):
    """A worker dying (here by exiting; in life the kernel's out-of-memory killer) breaks the
    process pool; the other decks are still built."""
    (decks / "second.toml").write_text(SECOND, encoding="utf-8")
    (decks / "third.toml").write_text(TINY.replace('id = "tiny"', 'id = "third"'), encoding="utf-8")
    real = build._step_function

    def die_for_second(target):
        function = real(target)

        def step(deck, out_dir):
            if deck.id == "second":
                os._exit(9)
            return function(deck, out_dir)

        return step

    monkeypatch.setattr(build, "_step_function", die_for_second)  # forked workers inherit it
    out = tmp_path / "out"
    result = run_cli("build", "--decks-dir", decks, "--output", out, "--jobs", "2")
    check_result(result, (1,), ("second: FAILED", "the process building it stopped"))
    for deck in ("tiny", "third"):
        _consistent(out / deck)
    assert not (out / "second").exists()


def test_a_rebuild_with_nothing_to_do_loads_no_deck_and_touches_nothing(run_cli, decks, tmp_path, monkeypatch):
    out = tmp_path / "out"
    assert _build(run_cli, decks, out).exit_code == 0
    before = {path: path.stat().st_mtime_ns for path in (out / "tiny").rglob("*")}
    folder = (out / "tiny").stat().st_ino

    def refuse(*args, **kwargs):
        raise AssertionError("a deck was loaded for a rebuild with nothing to do")

    monkeypatch.setattr(build, "load_deck", refuse)
    (result,) = json.loads(_build(run_cli, decks, out, "--json").stdout)
    assert result["built"] == [] and result["reused"] == [name for name, _ in build.STEPS]
    assert (out / "tiny").stat().st_ino == folder
    assert {path: path.stat().st_mtime_ns for path in (out / "tiny").rglob("*")} == before


def test_an_output_rewritten_in_place_at_the_same_size_is_rebuilt(run_cli, decks, tmp_path):
    out = tmp_path / "out"
    assert _build(run_cli, decks, out).exit_code == 0
    summary = out / "tiny" / "summary.txt"
    text = summary.read_bytes()
    with summary.open("r+b") as handle:  # same file, same size, other bytes
        handle.write(bytes([text[0] ^ 1]))
    (result,) = json.loads(_build(run_cli, decks, out, "--json").stdout)
    assert result["built"] == ["summary"]
    assert summary.read_bytes() == text
    _consistent(out / "tiny")


def test_a_changed_art_file_rebuilds_the_deck(run_cli, decks, tmp_path):
    art = decks / "joker.png"
    Image.new("RGB", (800, 1100), "#204080").save(art)
    (decks / "tiny.toml").write_text(TINY.replace('count = 2', 'count = 2\nart = "joker.png"'), encoding="utf-8")
    out = tmp_path / "out"
    assert _build(run_cli, decks, out).exit_code == 0
    (unchanged,) = json.loads(_build(run_cli, decks, out, "--json").stdout)
    assert unchanged["built"] == []
    Image.new("RGB", (800, 1100), "#c04020").save(art)
    (changed,) = json.loads(_build(run_cli, decks, out, "--json").stdout)
    assert {"print", "images", "exports", "rulebook"} <= set(changed["built"])
    art.unlink()  # a missing art file is a problem the build reports, not a reuse
    (missing,) = json.loads(_build(run_cli, decks, out, "--json").stdout)
    assert not missing["ok"] and "joker.png" in missing["error"]


def test_the_build_process_prints_everything_before_it_ends(decks, tmp_path):
    """`deckgen build` ends without freeing its objects one by one: its report still comes out
    whole, through a pipe, with the exit code of a good build and of one with a failed deck."""
    command = [sys.executable, "-m", "generator", "build", "--decks-dir", str(decks), "--output",
               str(tmp_path / "out"), "--jobs", "1"]
    good = subprocess.run([*command, "--json"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert good.returncode == 0, good.stderr
    assert [deck["ok"] for deck in json.loads(good.stdout)] == [True]
    (decks / "broken.toml").write_text("[deck\n", encoding="utf-8")
    failed = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert failed.returncode == 1
    assert "tiny: built nothing, reused" in failed.stdout
    assert "broken: FAILED, previous outputs kept" in failed.stderr and "Traceback" not in failed.stderr


def test_threads_writing_into_a_folder_not_yet_there_all_succeed(tmp_path):
    """The images step writes from two threads; the first files of a new folder (images/backs/)
    may ask for the folder at once, and none may fail because the other made it first."""
    from concurrent.futures import ThreadPoolExecutor
    from threading import Barrier

    for attempt in range(20):
        folder = tmp_path / str(attempt) / "backs"
        start = Barrier(4)

        def write(number: int) -> Path:
            start.wait()
            return output.write_bytes(folder / f"{number}.png", b"x" * number)

        with ThreadPoolExecutor(max_workers=4) as pool:
            written = list(pool.map(write, range(4)))
        assert [path.read_bytes() for path in written] == [b"x" * number for number in range(4)]
        assert sorted(path.name for path in folder.iterdir()) == [f"{number}.png" for number in range(4)]
