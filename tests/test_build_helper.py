"""A build with one deck to make and a core to spare validates the deck in a helper process
beside its drawing: the same files, the same report, the same errors as one process, and a
helper that fails, crashes or dies takes its deck's build down with it, publishing nothing."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import signal
from pathlib import Path
from typing import Callable

import pytest

from generator import build
from generator.build import build_all
from generator.buildhelper import HelperStep

from .badinput import TINY
from .conftest import DECKS

OVERFLOWING = TINY + 'text = "' + " ".join(["overflowing"] * 400) + '"\n'


@pytest.fixture
def helpers_started(monkeypatch, tmp_path) -> Callable[[], list[int]]:
    """The pids of the helpers builds have started, in this process or in a pool's workers
    (which inherit the spy and write down what they start)."""
    written = tmp_path / "helpers-started"
    written.touch()
    start = HelperStep.start.__func__

    def spying(cls, *args):
        helper = start(cls, *args)
        with written.open("a") as handle:
            handle.write(f"{helper.pid}\n")
        return helper

    monkeypatch.setattr(HelperStep, "start", classmethod(spying))
    return lambda: [int(line) for line in written.read_text().split()]


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
        assert len(helpers_started()) == (jobs == "2")
    assert helpers_started()[0] != os.getpid()
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
    assert len(helpers_started()) == 1
    assert not alone.ok and "does not fit its box" in alone.error
    assert (beside.error, beside.problems, beside.built, list(beside.seconds)) == \
           (alone.error, alone.problems, alone.built, list(alone.seconds)) == (alone.error, alone.problems,
                                                                                 ["summary"], ["summary"])
    assert not (tmp_path / "out-2" / "tiny").exists()


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
    assert len(helpers_started()) == 1
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
        import time

        time.sleep(60)

    def interrupted(deck, out_dir):
        raise KeyboardInterrupt

    steps = {"generator.validate.report:build_validation": slow_validation,
             "generator.render.sheets:build_print": interrupted}
    monkeypatch.setattr(build, "_step_function", lambda target: steps.get(target) or real(target))
    with pytest.raises(KeyboardInterrupt):
        build_all(decks, tmp_path / "out", jobs=2)
    [pid] = helpers_started()
    with pytest.raises(ProcessLookupError):  # killed and reaped, not left sleeping
        os.kill(pid, 0)
    assert not (tmp_path / "out" / build.STAGING).exists()
