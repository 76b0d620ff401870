"""Processes seen through /proc, for tests that kill deckgen and check what it started is gone."""

from __future__ import annotations

from pathlib import Path


def children(pid: int) -> set[int]:
    """The process's direct children."""
    found = set()
    for task in Path(f"/proc/{pid}/task").glob("*"):
        listed = task / "children"
        if listed.exists():
            found |= {int(child) for child in listed.read_text().split()}
    return found


def descendants(pid: int) -> set[int]:
    """Its children, theirs, and so on (a Dask worker sits under its nanny)."""
    found, queue = set(), [pid]
    while queue:
        for child in children(queue.pop()) - found:
            found.add(child)
            queue.append(child)
    return found


def alive(pid: int) -> bool:
    """Running, not gone and not a zombie waiting for its parent."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0]
    except FileNotFoundError:
        return False
    return state != "Z"
