"""Do two checkouts of deckgen build byte-identical outputs? (issue 30: a move of code changes no byte.)

Run: python .ci/same_outputs.py OLD_CHECKOUT [NEW_CHECKOUT]   (NEW defaults to this checkout)

Each checkout builds the shipped decks and the designer example (examples/designer) with
`python -m generator build --jobs 1`, its own folder first on PYTHONPATH, an empty cache folder
and the same SOURCE_DATE_EPOCH, in the same folder one after the other; then every file of the two
output trees is compared (except each deck's .manifest.json, which names the deckgen that wrote it). Prints
the files that differ or exist on one side only; exit 1 if any does.
"""

from __future__ import annotations

import filecmp
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]
MANIFEST = ".manifest.json"  # records which deckgen wrote the outputs, so it differs by design


def build(checkout: Path, scratch: Path) -> Path:
    """The output folder of `checkout`'s build of its shipped decks and the designer example."""
    output = scratch / "output"
    env = {**os.environ, "PYTHONPATH": str(checkout), "XDG_CACHE_HOME": str(scratch / "cache"),
           "SOURCE_DATE_EPOCH": "0", "PYTHONHASHSEED": "0"}
    decks = scratch / "decks"
    shutil.copytree(checkout / "decks", decks)
    shutil.copytree(checkout / "examples" / "designer", decks, dirs_exist_ok=True)
    subprocess.run([sys.executable, "-m", "generator", "build", "--jobs", "1", "--decks-dir", str(decks),
                    "--output", str(output)], cwd=checkout, env=env, check=True, stdout=subprocess.DEVNULL)
    return output


def differences(old: Path, new: Path) -> list[str]:
    found = []
    old_files = {p.relative_to(old) for p in old.rglob("*") if p.is_file() and p.name != MANIFEST}
    new_files = {p.relative_to(new) for p in new.rglob("*") if p.is_file() and p.name != MANIFEST}
    found += [f"only in the old build: {p}" for p in sorted(old_files - new_files)]
    found += [f"only in the new build: {p}" for p in sorted(new_files - old_files)]
    found += [f"differs: {p}" for p in sorted(old_files & new_files)
              if not filecmp.cmp(old / p, new / p, shallow=False)]
    return found


def main() -> int:
    if len(sys.argv) not in (2, 3):
        print(__doc__)
        return 2
    old_checkout = Path(sys.argv[1]).resolve()
    new_checkout = Path(sys.argv[2]).resolve() if len(sys.argv) == 3 else HERE
    with tempfile.TemporaryDirectory() as scratch:
        # Both build in the same folder, one after the other: outputs hold absolute paths.
        work, old = Path(scratch) / "work", Path(scratch) / "old"
        work.mkdir()
        build(old_checkout, work).rename(old)
        shutil.rmtree(work)
        work.mkdir()
        new = build(new_checkout, work)
        files = sum(1 for p in new.rglob("*") if p.is_file())
        found = differences(old, new)
    print("\n".join(found) if found else f"same bytes: {files} files")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
