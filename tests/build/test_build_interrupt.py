"""Ctrl-C or SIGTERM during a build of several decks: no deck is published after it (the decks
in flight are stopped before their switch, the decks not started are dropped), the build says
so and exits 130; and a playtest's worker processes die with `deckgen validate --workers`
when it is killed."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from generator.build import run as build
from generator.build.uptodate import MANIFEST
from tests.badinput import TINY
from tests.conftest import ROOT
from tests.processes import alive, children

# `deckgen build` whose decks each wait a while between staging and publishing (the pool's
# forked workers inherit the pause), so the test can interrupt the build with two decks staged.
PAUSED_BUILD = """
import sys, time
from generator.build import run
from generator.cli.app import main
run._fault_point = lambda name: time.sleep(30) if name == "before-switch" else None
sys.exit(main(sys.argv[1:]))
"""


def _decks(tmp_path: Path, count: int) -> Path:
    folder = tmp_path / "decks"
    folder.mkdir()
    for index in range(count):
        (folder / f"d{index}.toml").write_text(TINY.replace('id = "tiny"', f'id = "d{index}"'), encoding="utf-8")
    return folder


def _wait_for(condition, seconds: float = 120) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


@pytest.mark.skipif(not hasattr(os, "fork"), reason="the pause reaches the workers through fork")
@pytest.mark.parametrize("how", ["ctrl-c", "sigterm"])
def test_an_interrupted_build_publishes_nothing_after_it(tmp_path, how):
    decks, out = _decks(tmp_path, 4), tmp_path / "out"
    process = subprocess.Popen([sys.executable, "-c", PAUSED_BUILD, "build", "--decks-dir", str(decks), "--output",
                                str(out), "--jobs", "2"], cwd=ROOT, start_new_session=True,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               # as from a terminal (a job started in the background ignores SIGINT)
                               preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    staging = out / build.STAGING
    try:
        _wait_for(lambda: len(list(staging.glob(f"*/{MANIFEST}"))) == 2)  # two decks staged, paused
        if how == "ctrl-c":
            os.killpg(process.pid, signal.SIGINT)  # the terminal signals the whole process group
        else:
            process.send_signal(signal.SIGTERM)  # a service manager signals the build alone
        _, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    assert process.returncode == 130, err
    assert "build interrupted: 0 deck(s) published before it are kept; 4 not built" in err, err
    assert "Traceback" not in err
    assert sorted(path.name for path in out.iterdir()) == []  # no deck, and no staging left behind


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads /proc")
def test_killing_validate_kills_its_playing_workers(tmp_path):
    process = subprocess.Popen([sys.executable, "-m", "generator", "validate", "wizard", "--simulate", "200000",
                                "--workers", "2"], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        _wait_for(lambda: len(children(process.pid)) >= 2 or process.poll() is not None, 60)
        workers = children(process.pid)
        assert process.poll() is None and len(workers) >= 2
    finally:
        process.kill()
        process.wait()
    _wait_for(lambda: not any(alive(pid) for pid in workers), 10)
