"""`validate` options and files that cannot work are refused with a clear error: a cluster
address of no scheme Dask knows, checkpoint chunks of another shape than deckgen writes."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import DECKS, ROOT


@pytest.mark.parametrize("spec", ["garbage://x", "http://host:8786", "tcp://", "local:0", "local:x", "nothing"])
def test_a_cluster_that_cannot_be_reached_is_an_option_error(run_cli, spec):
    result = run_cli("validate", "wizard", "--simulate", "10", "--cluster", spec)
    assert result.exit_code == 2, result.stdout + result.stderr
    assert f"--cluster {spec!r}" in result.stderr and ("tcp://host:8786" in result.stderr or "local:N" in result.stderr)
    assert "Traceback" not in result.stderr and "internal error" not in result.stderr


WRONG_SHAPES = {
    "not a table": lambda data: [1, 2, 3],
    "no tally": lambda data: {"task": data["task"]},
    "tally of another shape": lambda data: {**data, "tally": {"players": 4}},
    "tally of wrong types": lambda data: {**data, "tally": {**data["tally"], "games": "many"}},
    "another chunk's task": lambda data: {**data, "task": {**data["task"], "start": data["task"]["start"] + 1}},
}


@pytest.fixture(scope="module")
def played(tmp_path_factory) -> tuple[Path, Path, str]:
    """A deck, the chunks a first run kept, and that run's report (played once for the module)."""
    folder = tmp_path_factory.mktemp("played")
    deck, chunks = folder / "wizard.toml", folder / "chunks"
    shutil.copy(DECKS / "wizard.toml", deck)
    done = subprocess.run([sys.executable, "-m", "generator", "validate", str(deck), "--simulate", "20", "--workers",
                           "1", "--checkpoint", str(chunks)], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode in (0, 1), done.stderr
    return deck, chunks, done.stdout


def _resumed(run_cli, played, tmp_path, change) -> tuple[Path, object]:
    deck, chunks, _ = played
    copy = tmp_path / "chunks"
    shutil.copytree(chunks, copy)
    chunk = sorted(copy.rglob("chunk-*.json"))[0]
    change(chunk)
    return chunk, run_cli("validate", deck, "--simulate", "20", "--workers", "1", "--checkpoint", copy, "--resume")


@pytest.mark.parametrize("change", WRONG_SHAPES.values(), ids=WRONG_SHAPES.keys())
def test_a_checkpoint_chunk_of_another_shape_is_a_clear_error(run_cli, played, tmp_path, change):
    def rewrite(chunk):
        chunk.write_text(json.dumps(change(json.loads(chunk.read_text()))), encoding="utf-8")

    chunk, result = _resumed(run_cli, played, tmp_path, rewrite)
    assert result.exit_code == 1, result.stdout + result.stderr
    assert f"{chunk.name} is not a chunk deckgen wrote" in result.stderr and "delete it" in result.stderr
    assert "Traceback" not in result.stderr and "internal error" not in result.stderr


def test_a_torn_chunk_is_played_again(run_cli, played, tmp_path):
    def tear(chunk):  # killed while writing it
        chunk.write_text(chunk.read_text()[:50], encoding="utf-8")

    _, again = _resumed(run_cli, played, tmp_path, tear)
    assert re.sub(r", \d+ chunk\(s\) reused from the checkpoint", "", again.stdout) == played[2]
