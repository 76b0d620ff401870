"""README's test command on a machine that has only Python: no test reads a file that the
project's own files do not bring, and README names every test file that needs TinyMUX or
Chromium (those skip, with the reason, when the program is missing).

The check is on the source: a string in a test that is an absolute path into a system tree
(/usr, /etc, /opt, a home folder, a Windows drive...) fails, unless its line says why it is
harmless with a `# system path: REASON` comment (a hostile input that is never read, a
program's install location whose tests skip without it). Docstrings and comments are prose
and are not checked; every other file under tests/ (decks, logs, fixtures) may hold none.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TESTS = ROOT / "tests"

SYSTEM_TREES = ("usr", "etc", "opt", "var", "srv", "home", "root", "lib", "lib64", "bin", "sbin", "snap", "nix",
                "mnt", "media", "Library", "System", "Applications", "Users")
# A path starts a string or follows a space, quote, colon, '=' or '(' (not "../etc": that is relative).
SYSTEM_PATH = re.compile(r"(?:^|(?<=[\s\"'=:(,]))/(?:" + "|".join(SYSTEM_TREES) + r")(?:/|\b)|\b[A-Za-z]:\\")
MARKER = re.compile(r"#\s*system path:\s*\S")
TEXT_SUFFIXES = (".toml", ".csv", ".tsv", ".json", ".txt", ".md", ".html", ".yaml", ".yml", ".svg", ".cfg", ".ini")


def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of the string nodes that are docstrings (prose, not paths a test uses)."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) \
                    and isinstance(first.value.value, str):
                found.add(id(first.value))
    return found


def system_paths_in_python(source: str) -> list[tuple[int, str]]:
    """(line, string) for each string literal holding an absolute system path whose line does
    not carry a `# system path: REASON` comment."""
    tree = ast.parse(source)
    lines = source.splitlines()
    skip = _docstrings(tree)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip \
                and SYSTEM_PATH.search(node.value):
            span = lines[node.lineno - 1:(node.end_lineno or node.lineno)]
            if not any(MARKER.search(line) for line in span):
                found.append((node.lineno, node.value))
    return found


def system_paths_in_text(text: str) -> list[tuple[int, str]]:
    return [(number, line) for number, line in enumerate(text.splitlines(), 1) if SYSTEM_PATH.search(line)]


def test_no_test_reads_a_file_from_the_system():
    offending = []
    for path in sorted(TESTS.rglob("*")):
        if "__pycache__" in path.parts or not path.is_file():
            continue
        if path.suffix == ".py":
            hits = system_paths_in_python(path.read_text(encoding="utf-8"))
        elif path.suffix in TEXT_SUFFIXES:
            hits = system_paths_in_text(path.read_text(encoding="utf-8"))
        else:
            continue
        offending += [f"{path.relative_to(ROOT)}:{line}: {text!r}" for line, text in hits]
    assert not offending, ("tests use files a fresh machine lacks; ship the file under tests/ (or take it from a "
                           "declared package), or say why the path is harmless with `# system path: REASON`:\n"
                           + "\n".join(offending))


def test_the_guard_sees_a_system_path_and_lets_a_reasoned_one_pass():
    font = "/" + "usr/share/fonts/truetype/liberation/LiberationSerif-Regular.ttf"
    assert system_paths_in_python(f"import shutil\nshutil.copy({font!r}, 'body.ttf')\n") == [(2, font)]
    assert system_paths_in_python(f"X = {font!r}  # system path: the install location, skipped without it\n") == []
    assert system_paths_in_python(f'"""Copies {font}."""\n# reads {font}\n') == []  # prose
    assert system_paths_in_python("p = '../../" + "etc/passwd'\nq = 'decks/usr/x'\n") == []  # relative
    path = "env = {'PATH': '/bin:/usr/bin'}\n"  # system path: the guard's own example of a PATH
    assert system_paths_in_python(path) == [(1, "/bin:/usr/bin")]  # system path: a PATH names system trees
    windows = 'art = "C:\\\\Windows\\\\x.png"\n'  # system path: the guard's own example of a drive
    assert system_paths_in_text(windows) and system_paths_in_text(f"font = '{font}'\n")


def _is_test_or_fixture(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    return node.name.startswith("test_") or any("fixture" in ast.unparse(decorator) for decorator in node.decorator_list)


def _needs(path: Path) -> set[str]:
    """Which of TinyMUX and Chromium the tests of a file need: a test or fixture taking the
    `page` or `chromium` fixture, or anything from tests/mushserver.py (or the MUSH table's
    test support or fixtures, which start it)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    needs = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and _is_test_or_fixture(node) \
                and {"page", "chromium"} & {arg.arg for arg in node.args.args}:
            needs.add("Chromium")
        if isinstance(node, ast.ImportFrom) and (node.module or "").endswith(("mushserver", "mush_table_support", "mush_fixtures")):
            needs.add("TinyMUX")
    return needs


def test_readme_names_every_test_file_that_skips_without_tinymux_or_chromium():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    items = readme.split("\n- ")
    paragraphs = {name: next(block for block in items if block.startswith(f"**{name}**")).split("\n\n")[0]
                  for name in ("TinyMUX", "Chromium")}
    files = [path for path in sorted(TESTS.rglob("test_*.py")) if path.name != Path(__file__).name]
    for name, paragraph in paragraphs.items():
        listed = set(re.findall(r"`(tests/[\w/]+\.py)`", paragraph))
        needing = {str(path.relative_to(ROOT)) for path in files if name in _needs(path)}
        assert listed == needing, f"README's {name} list: missing {sorted(needing - listed)}, " \
                                  f"stale {sorted(listed - needing)}"
