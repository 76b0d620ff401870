"""Where chunks of games are played: in this process, on a local process pool, or on a Dask
cluster (`pip install deckgen[cluster]`), with finished chunks checkpointed to disk.

Every backend runs the same pure `play_chunk(task) -> Tally` and streams: at most a few
chunks per worker are in flight, so neither the task list nor the results pile up in
memory. Figures are sums over games whose seeds come from the run seed and the game
index, so every backend and every chunking gives the same bytes. Tasks carry the deck
itself (`generator.validate.jobs`), so Dask workers on other machines need no shared folder:
docs/playtesting.md says how to start them (`dask scheduler`, `dask worker`).

Dask rather than Ray: distributed is pure Python (a 1 MB wheel; 70 MB installed with dask,
against Ray's 79 MB wheel and 285 MB installed), a two-worker local cluster starts in about
2 s with 4 processes (Ray: about 7 s and 10 processes, about 700 MB resident, and it writes
an auth token under ~/.ray), and its scheduler address is the `tcp://host:port` a user
types. Measured on this project's machine: docs/playtesting.md, "Cluster".
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterable, Iterator

from .. import __version__
from ..core.errors import DeckgenError, OptionError
from ..core.files import RefusedInput, read_input
from ..core.lifetime import start_worker
from ..core.output import write_text
from .jobs import IN_FLIGHT_PER_WORKER, plain

if TYPE_CHECKING:
    from .chunks import Task
    from .tally import Tally

SCHEMES = ("tcp", "tls", "ws", "wss", "inproc", "ucx")  # the address schemes Dask's comms know
CLUSTER_HINT = "install the cluster extra: pip install 'deckgen[cluster]' (Dask distributed)"


def parse_cluster(spec: str) -> tuple[str, int | str]:
    """`local:4` (start four local workers) or a scheduler address (`tcp://host:8786`)."""
    if spec.startswith("local:"):
        try:
            workers = int(spec.removeprefix("local:"))
        except ValueError:
            workers = 0
        if workers < 1:
            raise OptionError(f"--cluster {spec!r}: write local:N with N at least 1 workers, e.g. local:4")
        return "local", workers
    scheme, _, rest = spec.partition("://")
    if rest and scheme in SCHEMES:
        return "address", spec
    raise OptionError(f"--cluster {spec!r}: write local:N to start N local workers, "
                      f"or a Dask scheduler address such as tcp://host:8786 (schemes: {', '.join(SCHEMES)})")


def _distributed():
    try:
        import distributed
    except ImportError:
        raise OptionError(f"--cluster needs Dask distributed, which is not installed: {CLUSTER_HINT}") from None
    return distributed


class DaskCluster:
    """A Dask client on a cluster it started (`local:N`) or joined (an address)."""

    def __init__(self, spec: str):
        kind, value = parse_cluster(spec)
        distributed = _distributed()
        self.distributed = distributed
        self.local = None
        try:
            if kind == "local":
                self.local = distributed.LocalCluster(n_workers=value, threads_per_worker=1, processes=True,
                                                      dashboard_address=None, silence_logs=logging.ERROR)
                self.client = distributed.Client(self.local)
            else:
                self.client = distributed.Client(value, timeout=10)
        except (OSError, ValueError, TypeError) as error:  # Dask says "no such scheme" as a ValueError
            self.close()
            raise OptionError(f"--cluster {spec}: cannot reach the Dask scheduler: {error}") from None
        self.workers = max(1, len(self.client.scheduler_info().get("workers", {})))

    def map(self, play: Callable[["Task"], "Tally"], tasks: Iterable["Task"]) -> Iterator[tuple["Task", "Tally"]]:
        pending = iter(tasks)
        queue = self.distributed.as_completed()
        owners = {}
        for task in _take(pending, self.workers * IN_FLIGHT_PER_WORKER):
            future = self.client.submit(play, task, pure=False)
            owners[future.key] = task
            queue.add(future)
        for future in queue:
            task = owners.pop(future.key)
            tally = future.result()
            future.release()
            for extra in _take(pending, 1):
                following = self.client.submit(play, extra, pure=False)
                owners[following.key] = extra
                queue.add(following)
            yield task, tally

    def close(self) -> None:
        client = getattr(self, "client", None)
        if client is not None:
            client.close()
        if self.local is not None:
            self.local.close()


class ProcessPool:
    """The machine's own cores: a process pool fed a few chunks per worker at a time."""

    def __init__(self, workers: int):
        self.workers = workers
        # The workers die with this process (even killed with SIGKILL) and leave Ctrl-C to it.
        self.pool = ProcessPoolExecutor(max_workers=workers, initializer=start_worker, initargs=(os.getpid(),))

    def map(self, play: Callable[["Task"], "Tally"], tasks: Iterable["Task"]) -> Iterator[tuple["Task", "Tally"]]:
        pending = iter(tasks)
        running = {self.pool.submit(play, task): task for task in _take(pending, self.workers * IN_FLIGHT_PER_WORKER)}
        while running:
            done, _ = wait(running, return_when=FIRST_COMPLETED)
            for future in sorted(done, key=lambda f: (running[f].setting, running[f].players, running[f].start)):
                task = running.pop(future)
                for extra in _take(pending, 1):
                    running[self.pool.submit(play, extra)] = extra
                yield task, future.result()

    def close(self) -> None:
        self.pool.shutdown(cancel_futures=True)


class InProcess:
    workers = 1

    def map(self, play: Callable[["Task"], "Tally"], tasks: Iterable["Task"]) -> Iterator[tuple["Task", "Tally"]]:
        for task in tasks:
            yield task, play(task)

    def close(self) -> None:
        pass


def _take(iterator: Iterator, count: int) -> list:
    taken = []
    for item in iterator:
        taken.append(item)
        if len(taken) == count:
            break
    return taken


class Checkpoints:
    """Finished chunks on disk, one JSON file each, named by everything that decides their
    figures (the deck file's bytes, the task, the deckgen version): a killed run started
    again with `--resume` plays only the chunks that are missing."""

    def __init__(self, folder: Path, resume: bool, restore: Callable[[dict], "Tally"]):
        for parent in (folder, *folder.parents):
            if parent.exists() and not parent.is_dir():
                raise OptionError(f"--checkpoint {folder}: {parent} is a file, not a folder")
        self.folder = folder
        self.resume = resume
        self.restore = restore  # a chunk's tally from its saved state (Tally.from_state)
        self.reused = 0

    def _path(self, task: "Task") -> Path:
        identity = json.dumps({"task": plain(task), "version": __version__}, sort_keys=True, default=str)
        return self.folder / f"chunk-{hashlib.sha256(identity.encode()).hexdigest()[:32]}.json"

    def load(self, task: "Task") -> "Tally | None":
        if not self.resume:
            return None
        path = self._path(task)
        try:
            data = json.loads(read_input(path, "checkpoint"))
        except RefusedInput as error:
            if error.reason == "does not exist":
                return None
            raise DeckgenError(f"--checkpoint {self.folder}: {error.problem.message}: {path.name} "
                               "(delete it to play the chunk again)") from None
        except ValueError:
            return None  # a torn file (the run was killed while writing it): play the chunk again
        tally = self._restored(path, task, data)
        self.reused += 1
        return tally

    def _restored(self, path: Path, task: "Task", data) -> "Tally":
        """The chunk's tally, once the file is known to be this task's chunk in the shape
        `save` writes; a clear error otherwise (a chunk of another shape is not played again
        silently: the folder holds files deckgen did not write)."""
        try:
            if json.loads(json.dumps(plain(task), default=str)) != data["task"]:
                raise ValueError("it holds another chunk's games")
            tally = self.restore(data["tally"])
            if not isinstance(tally.games, int) or tally.games < 0 or tally.players != task.players:
                raise ValueError("its counts do not fit the chunk")
        except (KeyError, IndexError, TypeError, ValueError, AttributeError) as error:
            raise DeckgenError(f"--checkpoint {self.folder}: {path.name} is not a chunk deckgen wrote "
                               f"({type(error).__name__}: {error}); delete it to play the chunk again") from None
        return tally

    def save(self, task: "Task", tally: "Tally") -> None:
        try:
            write_text(self._path(task), json.dumps({"task": plain(task), "tally": tally.state()}, sort_keys=True,
                                                    default=str) + "\n")
        except OSError as error:
            raise DeckgenError(f"--checkpoint {self.folder}: cannot keep a finished chunk there: {error}") from None


def run_chunks(play: Callable[["Task"], "Tally"], tasks: Iterable["Task"], backend,
               checkpoints: Checkpoints | None = None) -> Iterator[tuple["Task", "Tally"]]:
    """Each task with its tally, from the checkpoints where they hold it, else played by the backend."""
    if checkpoints is None:
        yield from backend.map(play, tasks)
        return
    missing: list = []

    def unplayed() -> Iterator["Task"]:
        for task in tasks:
            saved = checkpoints.load(task)
            if saved is None:
                yield task
            else:
                missing.append((task, saved))

    for task, tally in backend.map(play, unplayed()):
        while missing:
            yield missing.pop(0)
        checkpoints.save(task, tally)
        yield task, tally
    while missing:
        yield missing.pop(0)
