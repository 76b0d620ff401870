"""A build with one deck to make and a core to spare validates the deck in a helper process
beside its drawing: the same files, the same report, the same errors as one process, and a
helper that fails, crashes or dies takes its deck's build down with it, publishing nothing."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Callable

import pytest

from generator.build import run as build
from generator.build.helper import HelperStep
from generator.build.run import build_all
from generator.core.errors import DeckgenError
from tests.badinput import TINY
from tests.conftest import DECKS, ROOT
from tests.processes import alive, children

OVERFLOWING = TINY + 'text = "' + " ".join(["overflowing"] * 400) + '"\n'


@pytest.fixture
def helpers_started(monkeypatch, tmp_path) -> Callable[[], list[tuple[str, int]]]:
    """The step and pid of each helper builds have started, in this process or in a pool's
    workers (which inherit the spy and write down what they start)."""
    written = tmp_path / "helpers-started"
    written.touch()
    start = HelperStep.start.__func__

    def spying(cls, name, *args):
        helper = start(cls, name, *args)
        with written.open("a") as handle:
            handle.write(f"{name} {helper.pid}\n")
        return helper

    monkeypatch.setattr(HelperStep, "start", classmethod(spying))
    return lambda: [(step, int(pid)) for step, pid in (line.split() for line in written.read_text().splitlines())]


def _folder_with(tmp_path: Path, name: str, text: str) -> Path:
    folder = tmp_path / f"decks-{name}"
    folder.mkdir()
    (folder / f"{name}.toml").write_text(text, encoding="utf-8")
    return folder


def _files(folder: Path) -> dict[str, str]:
    """Every output file's hash (the manifest by the hashes it lists: its stats name inodes)."""
    files = {str(path.relative_to(folder)): hashlib.sha256(path.read_bytes()).hexdigest()
             for path in sorted(folder.rglob("*")) if path.is_file() and path.name != build.MANIFEST}
    manifest = json.loads((folder / build.MANIFEST).read_text())
    files[build.MANIFEST] = json.dumps({step: (entry["key"], entry["files"]) for step, entry in manifest.items()})
    return files


def test_one_deck_on_two_cores_validates_in_a_helper_and_writes_what_one_process_writes(run_cli, tmp_path,
                                                                                         helpers_started):
    decks = tmp_path / "decks"
    decks.mkdir()
    shutil.copy(DECKS / "wizard.toml", decks)
    out = tmp_path / "out"  # one folder for both: the Tabletop Simulator deck names its files by path
    reports, files = {}, {}
    for jobs in ("1", "2"):
        shutil.rmtree(out, ignore_errors=True)
        result = run_cli("build", "--decks-dir", decks, "--output", out, "--jobs", jobs, "--json")
        assert result.exit_code == 0, result.stderr
        [reports[jobs]] = json.loads(result.stdout)
        files[jobs] = _files(out / "wizard")
        assert [step for step, _ in helpers_started()][:1] == (["validate"] if jobs == "2" else [])
    assert os.getpid() not in [pid for _, pid in helpers_started()]
    assert reports["1"]["built"] == reports["2"]["built"] == [name for name, _ in build.STEPS]
    assert list(reports["2"]["seconds"]) == reports["2"]["built"]
    assert reports["2"]["seconds"]["validate"]["cpu"] > 0  # the helper's own figures
    assert files["1"] == files["2"]
    assert not (out / build.STAGING).exists()


def test_several_decks_or_one_job_start_no_helper(tmp_path, helpers_started):
    decks = _folder_with(tmp_path, "tiny", TINY)
    assert build_all(decks, tmp_path / "one-job", jobs=1)[0].ok
    (decks / "second.toml").write_text(TINY.replace('id = "tiny"', 'id = "second"'), encoding="utf-8")
    assert all(result.ok for result in build_all(decks, tmp_path / "two-decks", jobs=2))
    assert helpers_started() == []


def test_a_deck_failing_validation_fails_as_it_does_in_one_process(tmp_path, helpers_started):
    """The drawing fails too (the text does not fit), but the validation comes first: its
    error is the one reported, with the steps before it, as without a helper."""
    decks = _folder_with(tmp_path, "tiny", OVERFLOWING)
    [alone] = build_all(decks, tmp_path / "out-1", jobs=1)
    [beside] = build_all(decks, tmp_path / "out-2", jobs=2)
    assert helpers_started()[0][0] == "validate"
    assert not alone.ok and "does not fit its box" in alone.error
    assert (beside.error, beside.problems, beside.built, list(beside.seconds)) == \
           (alone.error, alone.problems, alone.built, list(alone.seconds)) == (alone.error, alone.problems,
                                                                                 ["summary"], ["summary"])
    assert not (tmp_path / "out-2" / "tiny").exists()


def test_with_a_third_core_the_rulebook_is_typeset_beside_the_exports(tmp_path, helpers_started):
    """Once the images step has drawn the faces, the rulebook (its card pictures cut from those
    faces) runs in a helper while this process writes the exports: the same files."""
    decks = tmp_path / "decks"
    decks.mkdir()
    shutil.copy(DECKS / "wizard-hearts.toml", decks)
    out, files = tmp_path / "out", {}
    for jobs in (1, 3):
        shutil.rmtree(out, ignore_errors=True)
        [result] = build_all(decks, out, jobs=jobs)
        assert result.ok and result.built == [name for name, _ in build.STEPS]
        files[jobs] = _files(out / "wizard-hearts")
    assert [step for step, _ in helpers_started()] == ["validate", "rulebook"]
    assert files[1] == files[3]


@pytest.mark.parametrize("broken", [("exports", "rulebook"), ("rulebook",), ("validate", "print")])
def test_the_first_step_in_order_that_fails_is_the_one_reported(tmp_path, monkeypatch, helpers_started, broken):
    """Whichever process ran it and whenever it ended: the exports (in this process) come before
    the rulebook (in a helper), and the validation (in a helper, failing late) before the print
    sheets (in this process, failing at once)."""
    decks = _folder_with(tmp_path, "tiny", TINY)
    real = build._step_function

    def step_function(target):
        name = next(name for name, each in build.STEPS if each == target)

        def broken_step(deck, out_dir):
            if name == "validate":
                time.sleep(0.5)
            raise DeckgenError(f"the {name} step broke")

        return broken_step if name in broken else real(target)

    monkeypatch.setattr(build, "_step_function", step_function)
    [alone] = build_all(decks, tmp_path / "out-1", jobs=1)
    [beside] = build_all(decks, tmp_path / "out-3", jobs=3)
    assert [step for step, _ in helpers_started()] == ["validate", "rulebook"][:1 if "print" in broken else 2]
    order = [name for name, _ in build.STEPS]
    assert alone.error == f"the {broken[0]} step broke" and alone.built == order[:order.index(broken[0])]
    assert (beside.error, beside.built, list(beside.seconds)) == (alone.error, alone.built, list(alone.seconds))
    assert not (tmp_path / "out-3" / "tiny").exists() and not (tmp_path / "out-3" / build.STAGING).exists()


def _first_build_then(tmp_path: Path, monkeypatch, validate) -> tuple[Path, build.DeckResult, dict]:
    """Build the deck, then build it again after an edit with `validate` as its validation step."""
    decks = _folder_with(tmp_path, "tiny", TINY)
    out = tmp_path / "out"
    assert build_all(decks, out, jobs=1)[0].ok
    before = _files(out / "tiny")
    (decks / "tiny.toml").write_text(TINY.replace('name = "Tiny"', 'name = "Edited"'), encoding="utf-8")
    real = build._step_function
    monkeypatch.setattr(build, "_step_function",
                        lambda target: validate if target.endswith(":build_validation") else real(target))
    [result] = build_all(decks, out, jobs=2)
    return out, result, before


def test_a_helper_killed_fails_its_deck_clearly_and_keeps_the_previous_outputs(tmp_path, monkeypatch,
                                                                             helpers_started):
    def killed(deck, out_dir):
        os.kill(os.getpid(), signal.SIGKILL)

    out, result, before = _first_build_then(tmp_path, monkeypatch, killed)
    assert helpers_started()[0][0] == "validate"
    assert not result.ok
    assert result.error == f"{tmp_path / 'decks-tiny' / 'tiny.toml'}: the process running its validate step stopped " \
                           "(killed by signal 9; out of memory?)"
    assert result.built == ["summary"]
    assert _files(out / "tiny") == before
    assert not (out / build.STAGING).exists()


def test_a_bug_in_the_helper_is_reported_as_one(tmp_path, monkeypatch, helpers_started):
    def buggy(deck, out_dir):
        raise RuntimeError("a bug in the validation")

    out, result, before = _first_build_then(tmp_path, monkeypatch, buggy)
    assert "internal error (a bug in deckgen; please report it): RuntimeError: a bug in the validation" in result.error
    assert _files(out / "tiny") == before


def test_an_interrupt_stops_the_helper_and_leaves_nothing_behind(tmp_path, monkeypatch, helpers_started):
    decks = _folder_with(tmp_path, "tiny", TINY)
    real = build._step_function

    def slow_validation(deck, out_dir):
        time.sleep(60)

    def interrupted(deck, out_dir):
        raise KeyboardInterrupt

    steps = {"generator.validate:build_validation": slow_validation,
             "generator.printing.sheets:build_print": interrupted}
    monkeypatch.setattr(build, "_step_function", lambda target: steps.get(target) or real(target))
    with pytest.raises(build.BuildInterrupted, match="0 deck.s. published before it are kept; 1 not built"):
        build_all(decks, tmp_path / "out", jobs=2)
    [(_, pid)] = helpers_started()
    with pytest.raises(ProcessLookupError):  # killed and reaped, not left sleeping
        os.kill(pid, 0)
    assert not (tmp_path / "out" / build.STAGING).exists()


def _build_process(tmp_path: Path, **options) -> tuple[subprocess.Popen, Path]:
    """`deckgen build --jobs 2` of one deck, as its own process in a session of its own."""
    decks = tmp_path / "decks"
    decks.mkdir()
    shutil.copy(DECKS / "quidditch-v2.toml", decks)
    out = tmp_path / "out"
    process = subprocess.Popen([sys.executable, "-m", "generator", "build", "--decks-dir", str(decks), "--output",
                                str(out), "--jobs", "2"], cwd=ROOT, start_new_session=True,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, **options)
    return process, out


def _first_child(process: subprocess.Popen) -> int:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and process.poll() is None:
        if started := children(process.pid):
            return min(started)
        time.sleep(0.02)
    raise AssertionError("the build started no helper")


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads /proc")
def test_killing_the_build_kills_its_helper(tmp_path):
    process, _ = _build_process(tmp_path)
    helper = _first_child(process)
    process.kill()
    process.wait()
    deadline = time.monotonic() + 10
    while alive(helper) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not alive(helper)


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads /proc")
def test_ctrl_c_ends_the_build_and_its_helper_and_publishes_nothing(tmp_path):
    """The terminal sends SIGINT to the whole process group, as here."""
    process, out = _build_process(tmp_path, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    helper = _first_child(process)
    os.killpg(process.pid, signal.SIGINT)
    assert process.wait(timeout=60) == 130
    assert not alive(helper)
    assert not (out / "quidditch-v2").exists() and not (out / build.STAGING).exists()
