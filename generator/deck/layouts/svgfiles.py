"""SVG files read through deckgen's opener, their references contained.

svglib reads an SVG and every file it references (`<image href>`, `<use href="other.svg#id">`)
by name. Here the SVG itself and each file it references are opened by
`generator.core.files` instead: each reference must be a regular file of at most the image
limit inside the SVG's own folder (which lies inside the deck's), so an SVG cannot draw
`/etc/…`, `../../x.png` or a FIFO into a card. svglib is also given that folder as its
`external_reference_root`. A refused
reference is not drawn, and is listed for the deck's checks to report.

svglib draws paths, shapes, text, images and linear and radial gradients, but silently leaves
out some of SVG: `undrawn_features` names what an SVG uses of that, for a warning.
"""

from __future__ import annotations

import os
import re
import warnings
from functools import lru_cache
from io import BytesIO
from pathlib import Path

from ...core.files import input_problem, open_input, read_input

# Larger than any card art needs at 300 dpi, even a metre tall; past it an image is refused
# before it is decoded (a small "decompression bomb" file can unpack to gigabytes).
MAX_ART_PIXELS = 64_000_000


def read_svg(path: Path, font_map=None) -> tuple[object | None, tuple[str, ...]]:
    """The reportlab drawing of the SVG at `path`, references only inside its folder (None when
    svglib cannot read it), and the references not drawn, each with why.

    `font_map` sets the text: its `find_font(family, weight, style)` gives svglib the reportlab
    font for each font-family name, and the drawing starts in its `initial_font` (a deck's, see
    `faces.svgfonts`). Without one the text is measured in Helvetica, never looked up on the
    machine: such a drawing serves for its size and the checks, not for drawing text."""
    from svglib.svglib import load_svg_file  # svglib and lxml only for decks with SVG art

    root = path.parent
    with open_input(path, "image") as handle:
        svg_root = load_svg_file(handle)
    if svg_root is None:
        return None, ()
    refused: list[str] = []
    fonts = font_map or _UNLOOKED
    renderer = _renderer_class()(str(path), font_map=fonts, external_reference_root=str(root))
    renderer.root, renderer.refused, renderer.fonts = root, refused, fonts
    drawing = renderer.render(svg_root)
    if font_map is not None:
        drawing.initialFontName = font_map.initial_font
    return drawing, tuple(dict.fromkeys(refused))


class _HelveticaOnly:
    """A font map that names Helvetica for every family (svglib's own map would ask fontconfig)."""

    @staticmethod
    def find_font(_font_name: str, _weight: str = "normal", _style: str = "normal") -> tuple[str, bool]:
        return "Helvetica", True


_UNLOOKED = _HelveticaOnly()


# SVG elements (and the attributes that apply them) svglib leaves out of its drawing.
UNDRAWN_ELEMENTS = {"pattern": "a pattern fill (<pattern>)", "filter": "a filter (<filter>: blur, shadow …)",
                    "mask": "a mask (<mask>)", "foreignObject": "embedded HTML (<foreignObject>)",
                    "textPath": "text on a path (<textPath>)", "marker": "line markers (<marker>)"}
UNDRAWN_ATTRIBUTES = {"filter": "filter", "mask": "mask", "mix-blend-mode": "a blend mode (mix-blend-mode)"}


def undrawn_features(path: Path) -> tuple[str, ...]:
    """What the SVG at `path` uses that svglib does not draw (a pattern, filter, mask …), once
    each, in the order first met; empty when it draws all of it."""
    found: list[str] = []
    for node in _elements(path):
        tag = _tag(node)
        if tag in UNDRAWN_ELEMENTS:
            found.append(UNDRAWN_ELEMENTS[tag])
        style = node.attrib.get("style", "")
        for attribute, feature in UNDRAWN_ATTRIBUTES.items():
            if node.attrib.get(attribute, "none") != "none" or re.search(rf"(^|;)\s*{attribute}\s*:\s*(?!none)", style):
                found.append(UNDRAWN_ELEMENTS.get(attribute, feature))
    return tuple(dict.fromkeys(found))


def text_font_families(path: Path) -> tuple[str, ...]:
    """The `font-family` values (as written: "Lobster, serif") the SVG's text is set in, once
    each: each `<text>` and `<tspan>` holding letters takes its own or the nearest enclosing
    element's, from the attribute or a `style` attribute (not from a `<style>` sheet)."""
    found: list[str] = []
    for node in _elements(path):
        if _tag(node) in ("text", "tspan") and (node.text or "").strip():
            family = next(filter(None, map(_font_family, _self_and_ancestors(node))), "")
            if family:
                found.append(family)
    return tuple(dict.fromkeys(found))


def _elements(path: Path):
    from svglib.svglib import load_svg_file

    with open_input(path, "image") as handle:
        root = load_svg_file(handle)
    return [] if root is None else [node for node in root.iter() if isinstance(node.tag, str)]


def _tag(node) -> str:
    return node.tag.rsplit("}", 1)[-1]


def _self_and_ancestors(node):
    while node is not None:
        yield node
        node = node.getparent()


def _font_family(node) -> str:
    declared = re.search(r"(?:^|;)\s*font-family\s*:\s*([^;]+)", node.attrib.get("style", ""))
    return (declared.group(1) if declared else node.attrib.get("font-family", "")).strip()


@lru_cache(maxsize=1)
def _renderer_class():
    """svglib's renderer, resolving each external reference through the opener."""
    from PIL import Image
    from svglib.svglib import ExternalSVG, SvgRenderer, load_svg_file

    class ContainedRenderer(SvgRenderer):
        root: Path
        refused: list[str]
        fonts: object  # the font map, passed on to the SVGs this one uses

        def xlink_href_target(self, node, group=None):
            href = node.attrib.get("{http://www.w3.org/1999/xlink}href") or node.attrib.get("href") or ""
            iri = href.split("#", 1)[0]
            if not iri or re.match(r"^data:", href):
                return super().xlink_href_target(node, group)
            if os.path.isabs(iri) or "://" in iri:
                self.refused.append(f"{iri!r}, which is not a file beside it")
                return None
            path = os.path.normpath(os.path.join(os.path.dirname(self.source_path), iri))
            reason = input_problem(path, "image", within=self.root)
            if reason:
                self.refused.append(f"{iri!r}, which {reason}")
                return None
            if path == self.source_path:
                return super().xlink_href_target(node, group)
            if path.endswith(".svg"):
                if path not in self._external_svgs and path not in self._parent_chain:
                    self._external_svgs[path] = self._external(path)
                return super().xlink_href_target(node, group)
            return self._raster(path, iri)

        def _external(self, path: str):
            """The referenced SVG, read through the opener, drawn by a renderer like this one."""
            external = ExternalSVG.__new__(ExternalSVG)
            with open_input(path, "image", within=self.root) as handle:
                external.root_node = load_svg_file(handle)
            external.renderer = ContainedRenderer(path, parent_svgs=self._parent_chain + [str(self.source_path)],
                                                  font_map=self.fonts, external_reference_root=str(self.root))
            external.renderer.root, external.renderer.refused = self.root, self.refused
            external.renderer.fonts = self.fonts
            external.renderer._use_expansions = self._use_expansions
            external.rendered = False
            return external

        def _raster(self, path: str, iri: str):
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("error", Image.DecompressionBombWarning)
                    image = Image.open(BytesIO(read_input(path, "image", within=self.root)))
                    if image.width * image.height > MAX_ART_PIXELS:
                        raise ValueError(f"more than {MAX_ART_PIXELS:,} pixels")
                    image.load()
            except Exception as error:  # noqa: BLE001 - Pillow raises many kinds; the opener its own
                self.refused.append(f"{iri!r}, which is not an image deckgen can read ({error})")
                return None
            return image.convert("RGBA") if image.mode in ("P", "LA", "PA") else image

    return ContainedRenderer
