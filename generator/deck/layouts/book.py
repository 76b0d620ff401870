"""Layouts read from TOML: checked field by field, `extends` resolved, kept as plain data.

Layouts come from three places, later ones winning: the built-in layouts shipped in
templates/layouts/, the shared files a deck lists in `[deck] layouts`, and the deck's own
`[layouts.NAME]` tables. All are read by this same code. A layout that extends its own
name starts from the one it shadows (`[layouts.text] extends = "text"` tweaks the
built-in text card).
"""

from __future__ import annotations

import pickle
import re
import sys
import tomllib
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from ... import __version__
from ...core.cachefile import cache_folder, code_stamp, read_sealed, write_sealed
from ...core.errors import Problem
from ...core.files import read_text_input
from ...core.resources import TEMPLATES
from . import compact
from .fields import DEFAULTS, ELEMENT_TYPES, LAYOUT_FIELDS, allowed_fields
from .lines import TomlLines
from .ranges import value_problem
from .units import is_length

BUILTIN_DIR = TEMPLATES / "layouts"  # in the checkout, or inside the installed wheel
DEFAULT_SAFE_MM = 3.0
_TYPES = {"string": str, "number": (int, float), "integer": int, "boolean": bool, "array": list, "object": dict}


@dataclass(frozen=True)
class Element:
    name: str
    type: str
    props: dict[str, Any]
    where: str  # field path, e.g. layouts.text.elements[3]
    source: Path | None = None
    line: int | None = None

    def get(self, key: str, default: Any = None) -> Any:
        return self.props.get(key, default)

    @property
    def split(self) -> tuple[dict[str, Any], tuple[tuple[str, Any], ...]]:
        """(values without variables, (key, template) pairs with them): filled per card, the
        first are shared by every card. Computed once per element."""
        found = self.__dict__.get("_split")
        if found is None:
            merged = {**DEFAULTS.get(self.type, {}), **self.props}
            merged.pop("when", None)
            merged.pop("unless", None)
            static = {k: v for k, v in merged.items() if not (isinstance(v, str) and "{" in v)}
            dynamic = tuple((k, v) for k, v in merged.items() if isinstance(v, str) and "{" in v)
            found = (static, dynamic)
            object.__setattr__(self, "_split", found)
        return found


@dataclass(frozen=True)
class Layout:
    name: str
    side: str  # face | back
    elements: tuple[Element, ...]
    reference_mm: tuple[float, float] | None
    safe_mm: float
    folder: Path  # relative files (images) are found from here
    builtin: bool = False
    defaults: dict = field(default_factory=dict, compare=False)  # by element type, its own over those it extends


@dataclass(frozen=True)
class LayoutBook:
    """Every layout a deck can use, by name, inheritance already applied."""

    layouts: dict[str, Layout] = field(default_factory=dict)

    def get(self, name: str) -> Layout | None:
        return self.layouts.get(name)

    def names(self) -> list[str]:
        return sorted(self.layouts)


@dataclass
class Source:
    """One file's `layouts` table."""

    table: dict
    path: Path
    lines: TomlLines
    prefix: str = "layouts"
    builtin: bool = False


def read_source(path: Path, builtin: bool = False, within: Path | None = None) -> tuple[Source | None, list[Problem]]:
    """A shared layouts file (TOML with [layouts.NAME] tables), inside `within` when given
    (`UnreadableInput` when it cannot be read at all)."""
    text = read_text_input(path, "shipped" if builtin else "layouts", within=within)

    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        match = re.search(r"\(at line (\d+)", str(error))
        return None, [Problem(f"not valid TOML: {error}", line=int(match.group(1)) if match else None, file=path)]
    lines = TomlLines(text)
    unknown = [key for key in data if key != "layouts"]
    problems = [Problem(f"unknown table {key!r} in a layouts file; allowed: layouts", field=key,
                        line=lines(key), file=path) for key in unknown]
    table = data.get("layouts", {})
    if not isinstance(table, dict):
        problems.append(Problem("layouts must be a table of [layouts.NAME] tables", field="layouts",
                                line=lines("layouts"), file=path))
        table = {}
    return Source(table, path, lines, builtin=builtin), problems


def builtin_sources() -> tuple[Source, ...]:
    """The shipped layouts files, read."""
    return _builtins()[0]


def builtin_book() -> LayoutBook:
    """The shipped layouts, checked and resolved."""
    return _builtins()[1]


_KEPT_MAGIC = b"deckgen shipped layouts 1\n"


@lru_cache(maxsize=1)
def _builtins() -> tuple[tuple[Source, ...], LayoutBook]:
    """The shipped layouts' sources and book. Parsing and checking them is a tenth of a deck's
    first load (after an edit, say), so they are kept in the cache folder beside the decks'
    entries, under deckgen's version and code stamp (which covers the shipped files)."""

    folder = cache_folder()
    place = None if folder is None else folder / "shipped-layouts"
    key = (__version__, sys.version, str(BUILTIN_DIR), code_stamp())
    body = read_sealed(place, _KEPT_MAGIC)
    if body is not None:
        try:
            kept_key, sources, book = pickle.loads(body)
        except Exception:  # noqa: BLE001 - an entry from an older deckgen, say: read them afresh
            kept_key = None
        if kept_key == key:
            return sources, book
    sources = _read_builtin_sources()
    book, problems = build_book(list(sources))
    if problems:
        raise RuntimeError("\n".join(map(str, problems)))
    if place is not None:
        write_sealed(place, _KEPT_MAGIC, pickle.dumps((key, sources, book), protocol=5))
    return sources, book


def _read_builtin_sources() -> tuple[Source, ...]:
    found = []
    paths = sorted(BUILTIN_DIR.glob("*.toml"))
    if not paths:  # an install without its templates is deckgen's bug, not the user's
        raise RuntimeError(f"the shipped layouts are missing: no .toml files in {BUILTIN_DIR}")
    for path in paths:
        source, problems = read_source(path, builtin=True)
        if problems:  # a broken shipped file is deckgen's bug, not the user's
            raise RuntimeError("\n".join(map(str, problems)))
        found.append(source)
    return tuple(found)


def build_book(sources: list[Source]) -> tuple[LayoutBook, list[Problem]]:
    """Check every layout and resolve `extends`; return the book and the problems found."""
    builder = _Builder()
    for source in sources:
        for name, raw in source.table.items():
            builder.define(name, raw, source)
    return builder.finish()


@dataclass
class _Definition:
    name: str
    raw: dict
    source: Source
    where: str
    elements: list[Element]
    level: int  # position in the stack of layouts with this name (0: the first defined)
    presets: dict = field(default_factory=dict)  # its own and those it inherits, by name


class _Builder:
    def __init__(self) -> None:
        self.defined: dict[str, list[_Definition]] = {}
        self.problems: list[Problem] = []

    def problem(self, source: Source, where: str, message: str, hint: str = "", severity: str = "error") -> None:
        self.problems.append(Problem(message, field=where, line=source.lines(where), file=source.path,
                                     hint=hint, severity=severity))

    def define(self, name: str, raw: Any, source: Source) -> None:
        where = f"{source.prefix}.{name}"
        if not isinstance(raw, dict):
            self.problem(source, where, f"a layout must be a table, found {type(raw).__name__}",
                         hint=f"write [layouts.{name}] with [[layouts.{name}.elements]] below it")
            return
        if not re.fullmatch(r"[A-Za-z0-9_.-]+", name):
            self.problem(source, where, f"layout name {name!r} may only hold letters, digits, '.', '_' or '-'")
        for key, value in raw.items():
            spec = LAYOUT_FIELDS.get(key)
            if spec is None:
                self.problem(source, f"{where}.{key}", f"unknown layout field {key!r}; allowed: "
                             f"{', '.join(LAYOUT_FIELDS)}")
                continue
            self._check_value(source, f"{where}.{key}", value, spec, None, key)
        stack = self.defined.setdefault(name, [])
        extending = "extends" in raw
        elements = []
        seen: set[str] = set()
        raw_elements = raw.get("elements", [])
        presets = self._presets(name, raw, source, where)
        self._check_defaults(source, where, raw.get("defaults"))
        for index, item in enumerate(raw_elements if isinstance(raw_elements, list) else []):
            item = compact.expand(item, presets, f"{where}.elements[{index}]", self.compact_problem(source))
            element = self._element(source, f"{where}.elements[{index}]", item, extending)
            if element is None:
                continue
            if element.name in seen:
                self.problem(source, f"{where}.elements[{index}].name",
                             f"two elements are named {element.name!r}; names must be unique in a layout")
            seen.add(element.name)
            elements.append(element)
        stack.append(_Definition(name, raw, source, where, elements, len(stack), presets))

    def compact_problem(self, source: Source):
        return lambda where, message: self.problem(source, where, message)

    def _presets(self, name: str, raw: dict, source: Source, where: str) -> dict:
        """The presets an element of this layout may name: its own over those of the layouts it
        extends (as defined so far)."""
        own = raw.get("presets") or {}
        found: dict = {}
        parent = raw.get("extends")
        if isinstance(parent, str) and self.defined.get(parent):
            found.update(self.defined[parent][-1].presets)
        for preset, fields in (own.items() if isinstance(own, dict) else []):
            if not isinstance(fields, dict):
                self.problem(source, f"{where}.presets.{preset}", f"a preset must be a table of element fields, "
                             f"found {type(fields).__name__}")
                continue
            found[preset] = fields
        return found

    def _check_defaults(self, source: Source, where: str, defaults: Any) -> None:
        for kind, fields in (defaults.items() if isinstance(defaults, dict) else []):
            path = f"{where}.defaults.{kind}"
            if kind not in ELEMENT_TYPES:
                self.problem(source, path, f"unknown element type {kind!r}; allowed: {', '.join(ELEMENT_TYPES)}")
                continue
            if not isinstance(fields, dict):
                self.problem(source, path, f"expected a table of {kind} fields, found {type(fields).__name__}")
                continue
            allowed = allowed_fields(kind)
            for key, value in fields.items():
                if key in ("name", "type", "after", "preset", "box") or key not in allowed:
                    self.problem(source, f"{path}.{key}", f"{key!r} cannot be a default of {kind} elements; "
                                 f"allowed: {', '.join(k for k in allowed if k not in compact.NOT_DEFAULTS)}")
                    continue
                self._check_value(source, f"{path}.{key}", value, allowed[key], kind, key)

    def _element(self, source: Source, where: str, item: Any, extending: bool) -> Element | None:
        if not isinstance(item, dict):
            self.problem(source, where, f"an element must be a table, found {type(item).__name__}")
            return None
        name = item.get("name")
        if not isinstance(name, str) or not name:
            self.problem(source, f"{where}.name", "required field is missing: every element has a name",
                         hint="names let a layout that extends this one override or remove the element")
            return None
        kind = item.get("type")
        if kind is None and not extending:
            self.problem(source, f"{where}.type", f"required field is missing; allowed: {', '.join(ELEMENT_TYPES)}")
            return None
        if kind is not None and kind not in ELEMENT_TYPES:
            self.problem(source, f"{where}.type", f"unknown element kind {kind!r}; allowed: {', '.join(ELEMENT_TYPES)}")
            return None
        props = {key: value for key, value in item.items() if key not in ("name", "type", "after")}
        element = Element(name, kind or "", props, where, source.path, source.lines(where))
        if kind:
            self._check_element(source, element)
        if "after" in item:
            props["after"] = item["after"]
        return element

    def _check_element(self, source: Source, element: Element) -> None:
        allowed = allowed_fields(element.type)
        for key, value in element.props.items():
            spec = allowed.get(key)
            path = f"{element.where}.{key}"
            if spec is None:
                self.problem(source, path, f"unknown field {key!r} for a {element.type} element; allowed: "
                             f"{', '.join(k for k in allowed if k not in ('name', 'type'))}")
                continue
            self._check_value(source, path, value, spec, element.type, key)

    def _check_value(self, source: Source, path: str, value: Any, spec, element_type: str | None, key: str) -> None:
        description, types, choices = spec
        types = types if isinstance(types, tuple) else (types,)
        ok = any(isinstance(value, _TYPES[t]) and not (t in ("number", "integer") and isinstance(value, bool))
                 for t in types)
        if not ok:
            self.problem(source, path, f"expected {' or '.join(types)}, found {type(value).__name__} {value!r}")
            return
        if choices and isinstance(value, (str, int)) and "{" not in str(value) and value not in choices:
            self.problem(source, path, f"unknown value {value!r}; allowed: {', '.join(map(str, choices))}")
        if types == ("string", "number") and isinstance(value, str) and "{" not in value \
                and not is_length(value):
            self.problem(source, path, f"{value!r} is not a length; write mm as a number (3.5), or '3.5mm', "
                         "'10pt', '25%', or a sum such as '100% - 6mm'")
            return
        if not (choices and isinstance(value, (str, int))):
            reason = value_problem(element_type, key, value)
            if reason:
                self.problem(source, path, reason)

    # Resolving -------------------------------------------------------------------------------

    def finish(self) -> tuple[LayoutBook, list[Problem]]:
        resolved: dict[tuple[str, int], Layout | None] = {}
        for name, stack in self.defined.items():
            self._resolve(name, len(stack) - 1, resolved, [])
        layouts = {name: resolved[(name, len(stack) - 1)] for name, stack in self.defined.items()}
        return LayoutBook({n: layout for n, layout in layouts.items() if layout is not None}), self.problems

    def _resolve(self, name: str, level: int, done: dict, chain: list[str]) -> Layout | None:
        key = (name, level)
        if key in done:
            return done[key]
        definition = self.defined[name][level]
        raw, source = definition.raw, definition.source
        parent_name = raw.get("extends")
        base: Layout | None = None
        if isinstance(parent_name, str):
            label = f"{name}" if level == len(self.defined[name]) - 1 else f"{name} (shadowed)"
            if parent_name == name:
                parent_level = level - 1
            else:
                parent_level = len(self.defined.get(parent_name, [])) - 1
            if parent_name not in self.defined or parent_level < 0:
                known = ", ".join(sorted(self.defined)) or "none"
                self.problem(source, f"{definition.where}.extends",
                             f"extends unknown layout {parent_name!r}; known: {known}")
                done[key] = None
                return None
            if (parent_name, parent_level) in [c[1] for c in chain] or (parent_name, parent_level) == key:
                loop = " → ".join([c[0] for c in chain] + [label, parent_name])
                self.problem(source, f"{definition.where}.extends", f"extends cycle: {loop}",
                             hint="a layout cannot inherit from itself, directly or through others")
                done[key] = None
                return None
            base = self._resolve(parent_name, parent_level, done, chain + [(label, key)])
            if base is None:
                done[key] = None
                return None
        inherited = base.defaults if base else {}
        new = {e.name for e in definition.elements} - {e.name for e in (base.elements if base else ())}
        elements = compact.with_defaults(self._merge(definition, base), definition.raw.get("defaults"), inherited,
                                         {e.name: set(e.props) for e in definition.elements}, new)
        # A value out of range was reported where it is written; the layout goes on without it.
        reference = raw.get("reference_size", base.reference_mm if base else None)
        if reference is not None and value_problem(None, "reference_size",
                                                   list(reference) if isinstance(reference, tuple) else reference):
            reference = None
        safe = raw.get("safe", base.safe_mm if base else DEFAULT_SAFE_MM)
        layout = Layout(
            name=name,
            side=raw.get("side", base.side if base else "face"),
            elements=tuple(elements),
            reference_mm=tuple(float(v) for v in reference) if reference else None,
            safe_mm=DEFAULT_SAFE_MM if value_problem(None, "safe", safe) else float(safe),
            folder=source.path.parent,
            builtin=source.builtin,
            defaults=compact.merged_defaults(inherited, definition.raw.get("defaults")),
        )
        done[key] = layout
        return layout

    def _merge(self, definition: _Definition, base: Layout | None) -> list[Element]:
        source = definition.source
        if base is None:
            return [e for e in definition.elements if e.type]
        merged = list(base.elements)
        names = [e.name for e in merged]
        removed = definition.raw.get("remove", [])
        for index, name in enumerate(removed if isinstance(removed, list) else []):
            if name not in names:
                self.problem(source, f"{definition.where}.remove[{index}]",
                             f"remove names {name!r}, which {base.name!r} does not have; it has: {', '.join(names)}")
        for element in definition.elements:
            if element.name in names:
                inherited = merged[names.index(element.name)]
                kind = element.type or inherited.type
                props = {**inherited.props, **{k: v for k, v in element.props.items() if k != "after"}}
                combined = Element(element.name, kind, props, element.where, element.source, element.line)
                if element.type and element.type != inherited.type:
                    combined = Element(element.name, kind, {k: v for k, v in element.props.items() if k != "after"},
                                       element.where, element.source, element.line)
                self._check_element(source, combined)
                merged[names.index(element.name)] = combined
                continue
            if not element.type:
                self.problem(source, f"{element.where}.type", f"new element {element.name!r} needs a type "
                             f"({base.name!r} has no element of that name to override); allowed: "
                             f"{', '.join(ELEMENT_TYPES)}")
                continue
            after = element.props.get("after")
            clean = Element(element.name, element.type, {k: v for k, v in element.props.items() if k != "after"},
                            element.where, element.source, element.line)
            if after is not None:
                if after not in names:
                    self.problem(source, f"{element.where}.after", f"no inherited element {after!r}; "
                                 f"known: {', '.join(names)}")
                    merged.append(clean)
                else:
                    merged.insert(names.index(after) + 1, clean)
            else:
                merged.append(clean)
            names = [e.name for e in merged]
        return [e for e in merged if e.name not in (removed if isinstance(removed, list) else [])]
