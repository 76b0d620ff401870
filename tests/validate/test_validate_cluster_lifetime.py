"""A `validate --cluster local:N` killed outright (SIGKILL, no chance to clean up) takes its Dask
workers and their nannies with it: no process of the cluster keeps burning a core. Dask's own
nannies see their parent go (measured: within 15 s, with no watch of deckgen's own), so this holds
the behaviour rather than code of ours."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import ROOT
from tests.processes import alive, descendants

pytest.importorskip("distributed", reason="the cluster extra is not installed")


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads /proc")
def test_killing_a_cluster_validation_stops_its_dask_processes():
    parent = subprocess.Popen([sys.executable, "-m", "generator", "validate", "wizard", "--simulate", "5000",
                               "--cluster", "local:2", "--no-skill"], cwd=ROOT,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    processes: set[int] = set()
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and parent.poll() is None:  # two workers, each under its nanny
        processes |= descendants(parent.pid)
        if len([pid for pid in processes if alive(pid)]) >= 3:
            time.sleep(5)  # past `client.run`, which tells them whom to watch
            processes |= descendants(parent.pid)
            break
        time.sleep(0.1)
    assert parent.poll() is None, "the validation ended before it could be killed"
    assert len(processes) >= 3, "the cluster did not start its workers"
    parent.send_signal(signal.SIGKILL)
    parent.wait()
    deadline = time.monotonic() + 15
    while any(alive(pid) for pid in processes) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not [pid for pid in processes if alive(pid)]
