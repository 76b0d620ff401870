"""Worker processes that die with the process that started them.

A build's worker or a validation's playing process must not outlive deckgen: killed with
SIGKILL, the parent gets no chance to stop them, and a worker left running would go on
writing outputs or burning a core for nothing. `die_with_parent` asks the kernel for a
signal when the parent dies (Linux's PR_SET_PDEATHSIG, through ctypes) and, everywhere, watches
the parent id from a thread; `ignore_interrupts` leaves Ctrl-C to the parent, which stops its
workers itself (a worker that took the terminal's SIGINT would print its own traceback).
"""

from __future__ import annotations

import os
import signal
import threading
import time

PR_SET_PDEATHSIG = 1  # prctl option (linux/prctl.h)


def die_with_parent(parent: int) -> None:
    """Stop when the process `parent` dies, so nothing is written after it is gone (the
    kernel's parent-death signal where there is one, a watch thread anyway)."""
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):
        pass
    if os.getppid() != parent:
        os._exit(1)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.2)
        os._exit(1)

    threading.Thread(target=watch, daemon=True).start()


def ignore_interrupts() -> None:
    """In a worker: Ctrl-C in the terminal reaches the whole process group; leave it to the
    parent, which stops its workers."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def start_worker(parent: int) -> None:
    """A pool worker's initializer: die with `parent`, leave Ctrl-C to it."""
    ignore_interrupts()
    die_with_parent(parent)
