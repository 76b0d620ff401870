"""Line numbers for field paths such as `layouts.recipe.elements[3].width` (tomllib gives none).

One pass over the file tracks the table each line belongs to (`[a.b]`, `[[a.b.c]]` with
its running index) and records the line of every key; a path not found falls back to
its nearest recorded parent. In an array of inline tables written one a line
(`elements = [` then `{ name = "art", ... },`), each table's keys are recorded under its
index, as `[[...]]` entries' are.
"""

from __future__ import annotations

import re

_HEADER = re.compile(r"^\s*(\[\[?)\s*([^\]]+?)\s*\]\]?\s*(#.*)?$")
_KEY = re.compile(r"^\s*([A-Za-z0-9_\-\"'.]+)\s*=")
_OPEN_ARRAY = re.compile(r"^\s*([A-Za-z0-9_\-\"'.]+)\s*=\s*\[\s*(#.*)?$")
_INLINE_KEY = re.compile(r"([A-Za-z_][A-Za-z0-9_\-]*)\s*=")


def _clean(name: str) -> str:
    return ".".join(part.strip().strip("\"'") for part in name.split("."))


class TomlLines:
    def __init__(self, text: str):
        self.lines: dict[str, int] = {}
        counts: dict[str, int] = {}
        table = ""
        array, entry = "", -1  # an open array of inline tables, and its current entry
        for number, line in enumerate(text.splitlines(), start=1):
            if array:
                stripped = line.strip()
                if stripped.startswith("]"):
                    array = ""
                elif stripped.startswith("{"):
                    entry += 1
                    self.lines.setdefault(f"{array}[{entry}]", number)
                    for key in _INLINE_KEY.findall(stripped):
                        self.lines.setdefault(f"{array}[{entry}].{key}", number)
                continue
            opened = _OPEN_ARRAY.match(line)
            if opened:
                array = f"{table}.{_clean(opened.group(1))}" if table else _clean(opened.group(1))
                entry = -1
                self.lines.setdefault(array, number)
                continue
            header = _HEADER.match(line)
            if header and not line.lstrip().startswith("[\""):
                name = _clean(header.group(2))
                # A table under an array entry ([[a.b]] then [a.b.c]) belongs to the latest entry.
                for known in sorted(counts, key=len, reverse=True):
                    if name.startswith(known + "."):
                        name = f"{known}[{counts[known]}]" + name[len(known):]
                        break
                if header.group(1) == "[[":
                    counts[name] = counts.get(name, -1) + 1
                    table = f"{name}[{counts[name]}]"
                else:
                    table = name
                self.lines.setdefault(table, number)
                continue
            key = _KEY.match(line)
            if key:
                path = f"{table}.{_clean(key.group(1))}" if table else _clean(key.group(1))
                self.lines.setdefault(path, number)

    def __call__(self, field: str) -> int | None:
        path = field
        while path:
            if path in self.lines:
                return self.lines[path]
            cut = max(path.rfind("."), path.rfind("["))
            path = path[:cut] if cut > 0 else ""
        return None
