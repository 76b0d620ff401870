"""The house rules of generator/ (docs/architecture.md), checked on the source itself.

- import-linter's contracts from pyproject.toml: the pipeline's layers point down and no
  package, nor any module inside one, imports in a circle (imports inside functions count);
- a deliberate upward import in a copy of the package breaks the layers contract;
- imports inside functions only for heavy optional libraries, and in the CLI, whose command
  modules are imported when their command runs;
- every package says what it owns and what it may import; no module over 600 lines.
"""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "generator"
# Heavy libraries not every command needs: imported where they are used.
LAZY_LIBRARIES = {"pypdfium2", "pikepdf", "svglib", "openpyxl", "distributed", "dask", "playwright",
                  # needed by some commands only, and each costs 10-40 ms to import (docs/speed.md)
                  "reportlab", "PIL", "jinja2", "rich",
                  # only for a deck with a CFF-flavoured OpenType font (deck/layouts/fontfiles.py)
                  "fontTools"}
# Other imports inside a function, each for a measured reason; never a cycle (the contracts above
# would see one: they count these imports too).
LAZY_OWN = {
    "deck/cache.py": "from .loader import load_deck as load_checked",  # only on a miss: ~60 ms skipped on a hit
    # the engine registry, only when its cache folder entry misses: ~20 ms with the scan
    "core/plugins.py": "import importlib.metadata",
    # an engine that cannot load is placed at its deck's line: the loader's ~70 ms only then
    "games/base.py": "from ..deck.locate import Locator",
}
MAX_LINES = 600


def lint_imports(root: Path) -> subprocess.CompletedProcess:
    """`lint-imports` as a user runs it, on the package found under `root`."""
    command = [sys.executable, "-c", "import sys; from importlinter.cli import lint_imports_command; "
               "sys.exit(lint_imports_command())", "--config", str(ROOT / "pyproject.toml"), "--no-cache"]
    return subprocess.run(command, cwd=root, capture_output=True, text=True, timeout=300,
                          env={"PYTHONPATH": str(root), "PATH": os.environ.get("PATH", "")})


def test_the_import_contracts_hold():
    done = lint_imports(ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Contracts: 2 kept, 0 broken." in done.stdout


@pytest.mark.parametrize("importer, imported", [
    ("deck/upward.py", "from ..cli import app"),           # a lower layer reaching up
    ("faces/upward.py", "from ..printing import sheets"),  # a stage reaching the next one
])
def test_an_upward_import_inside_a_function_breaks_the_contract(tmp_path, importer, imported):
    copy = tmp_path / "generator"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__", "*.so", "fonts"))
    (copy / importer).write_text(f'"""A throwaway module."""\n\n\ndef late():\n    {imported}\n')
    done = lint_imports(tmp_path)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "the pipeline's layers point down BROKEN" in done.stdout
    assert f"generator.{importer[:-3].replace('/', '.')}" in done.stdout


def test_a_circle_inside_a_package_breaks_the_contract(tmp_path):
    copy = tmp_path / "generator"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__", "*.so", "fonts"))
    (copy / "core" / "ring_a.py").write_text('"""A."""\n\nfrom . import ring_b  # noqa: F401\n')
    (copy / "core" / "ring_b.py").write_text('"""B."""\n\n\ndef late():\n    from . import ring_a  # noqa: F401\n')
    done = lint_imports(tmp_path)
    assert done.returncode == 1
    assert "no import cycles, between packages or inside one BROKEN" in done.stdout


def _modules():
    return sorted(path for path in PACKAGE.rglob("*.py") if "__pycache__" not in path.parts)


def test_imports_inside_functions_are_only_for_heavy_libraries():
    found = []
    for path in _modules():
        relative = path.relative_to(PACKAGE)
        if relative.parts[0] == "cli":
            continue
        for function in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            for node in ast.walk(function):
                if isinstance(node, ast.ImportFrom):
                    names = [("." * node.level) + (node.module or "")]
                elif isinstance(node, ast.Import):
                    names = [alias.name for alias in node.names]
                else:
                    continue
                if LAZY_OWN.get(relative.as_posix()) == ast.unparse(node):
                    continue
                if any(name.startswith(".") or name.split(".")[0] not in LAZY_LIBRARIES for name in names):
                    found.append(f"{relative}:{node.lineno}: {ast.unparse(node)}")
    assert not _platform_only(found), "\n".join(found)


def _platform_only(found: list[str]) -> list[str]:
    """Imports of modules a platform may lack, each guarded where it is used."""
    return [line for line in found if not line.endswith(("import fcntl", "import ctypes", "import resource"))]


def test_every_package_says_what_it_owns():
    for init in PACKAGE.rglob("__init__.py"):
        docstring = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8")))
        assert docstring and len(docstring) > 40, f"{init.relative_to(ROOT)} needs a docstring"


def test_no_module_is_too_long_to_read():
    long = [f"{path.relative_to(ROOT)}: {lines}" for path in _modules()
            if (lines := len(path.read_text(encoding="utf-8").splitlines()))
            > MAX_LINES]
    assert not long, "split these along their seams:\n" + "\n".join(long)
