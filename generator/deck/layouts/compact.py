"""The compact form of layouts: `box`, presets and per-layout defaults, expanded before the checks.

An element may write `box = [x, y, width, height]` for its four placement fields, and
`preset = "NAME"` to start from a named set of fields in its layout's `presets` (or an
extended layout's); a layout's `defaults = { text = { family = "Garamond" } }` gives every
element of a type the values it does not set itself in that layout, inherited elements
included. Everything is expanded into the ordinary fields, so the checks, `layout show` and
the drawing see one form only.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Callable

BOX_FIELDS = ("x", "y", "width", "height")
NOT_DEFAULTS = ("name", "type", "after", "preset", "box")


def expand(item: Any, presets: dict, where: str, problem: Callable[[str, str], None]) -> Any:
    """An element's table with its preset's fields under its own and its box spelt out."""
    if not isinstance(item, dict):
        return item
    expanded = dict(item)
    preset = expanded.pop("preset", None)
    if preset is not None:
        if not isinstance(preset, str) or preset not in presets:
            problem(f"{where}.preset", f"unknown preset {preset!r}; known: {', '.join(sorted(presets)) or 'none'} "
                    "(a layout's presets = { NAME = { ... } })")
        else:
            expanded = {**presets[preset], **expanded}
    box = expanded.pop("box", None)
    if box is not None:
        if not isinstance(box, list) or len(box) != 4:
            problem(f"{where}.box", f"{box!r} is not [x, y, width, height]; each a length (mm as a number, "
                    "'5mm', '8pt', '25%', '100% - 6mm')")
            return expanded
        both = [key for key in BOX_FIELDS if key in expanded and key in item]
        if both:
            problem(f"{where}.box", f"box and {', '.join(both)} are both given; write the box or the fields")
        expanded.update({key: value for key, value in zip(BOX_FIELDS, box) if key not in item})
    return expanded


def merged_defaults(inherited: dict, own: Any) -> dict:
    """A layout's defaults by type: those of the layout it extends, under its own."""
    result = {kind: dict(fields) for kind, fields in inherited.items()}
    for kind, fields in (own.items() if isinstance(own, dict) else []):
        if isinstance(fields, dict):
            result[kind] = {**result.get(kind, {}), **{k: v for k, v in fields.items() if k not in NOT_DEFAULTS}}
    return result


def with_defaults(elements: list, own_defaults: Any, inherited: dict, written: dict[str, set],
                  new: set[str]) -> list:
    """The layout's elements with defaults filled in: its own defaults wherever an element does
    not set the field in this layout (`written`), inherited ones included; the defaults of the
    layouts it extends only on its `new` elements (the inherited ones have had them)."""
    own = merged_defaults({}, own_defaults)
    if not own and not inherited:
        return elements
    result = []
    for element in elements:
        fields = dict(inherited.get(element.type, {})) if element.name in new else {}
        fields.update(own.get(element.type, {}))
        mine = written.get(element.name, set())
        extra = {key: value for key, value in fields.items() if key not in mine}
        if extra:
            element = replace(element, props={**element.props, **extra})
        result.append(element)
    return result
