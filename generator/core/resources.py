"""Where deckgen's shipped files live, in a checkout and in an installed wheel.

`templates/` stays at the top of the repository (the design card's layout); a wheel carries a
copy inside the package (setup.py copies it at build time), so the same code finds it in both.
"""

from __future__ import annotations

from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1]


def _templates() -> Path:
    packaged = PACKAGE / "templates"
    return packaged if packaged.is_dir() else PACKAGE.parent / "templates"


TEMPLATES = _templates()
