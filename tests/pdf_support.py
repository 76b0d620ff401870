"""Reading generated PDFs back: what a page draws and where, and whether its fonts are embedded."""

from __future__ import annotations

from dataclasses import dataclass, field

import pypdf
from pypdf.generic import ContentStream


@dataclass
class Drawn:
    """One form placed on a page: its name, its origin and its clip rectangle, in page coordinates."""

    form: str
    origin: tuple[float, float]
    clip: tuple[float, float, float, float] | None  # x0, y0, x1, y1


@dataclass
class PageContent:
    forms: list[Drawn] = field(default_factory=list)
    lines: list[tuple[float, float, float, float]] = field(default_factory=list)  # stroked m/l segments
    dashed: list[tuple[float, float, float, float]] = field(default_factory=list)
    rects: list[tuple[float, float, float, float]] = field(default_factory=list)  # stroked rectangles
    filled: list[tuple[float, float, float, float]] = field(default_factory=list)  # filled rectangles
    stroke_colors: set[tuple[float, ...]] = field(default_factory=set)


def _multiply(a, b):
    """a then b (PDF row-vector convention: [x y 1] · a · b)."""
    return (a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3], a[2] * b[0] + a[3] * b[2],
            a[2] * b[1] + a[3] * b[3], a[4] * b[0] + a[5] * b[2] + b[4], a[4] * b[1] + a[5] * b[3] + b[5])


def _apply(m, x, y):
    return (m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5])


def page_content(reader: pypdf.PdfReader, number: int) -> PageContent:
    """Interpret a page's own content stream (not inside its forms): transformations, clips, forms, strokes."""
    page = reader.pages[number]
    stream = ContentStream(page.get_contents(), reader)
    found = PageContent()
    ctm, clip, dash = (1, 0, 0, 1, 0, 0), None, False
    stack = []
    path_lines, path_rects, start, pending_clip = [], [], None, None
    for operands, op in stream.operations:
        values = [float(v) for v in operands] if op in (b"cm", b"m", b"l", b"re", b"RG", b"K") else operands
        if op == b"q":
            stack.append((ctm, clip, dash))
        elif op == b"Q":
            ctm, clip, dash = stack.pop()
        elif op == b"cm":
            ctm = _multiply(tuple(values), ctm)
        elif op == b"d":
            dash = bool(operands[0])
        elif op in (b"RG", b"K"):
            found.stroke_colors.add(tuple(round(v, 3) for v in values))
        elif op == b"m":
            start = _apply(ctm, *values)
        elif op == b"l" and start is not None:
            end = _apply(ctm, *values)
            path_lines.append(start + end)
            start = end
        elif op == b"re":
            x0, y0 = _apply(ctm, values[0], values[1])
            x1, y1 = _apply(ctm, values[0] + values[2], values[1] + values[3])
            path_rects.append((min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1)))
        elif op in (b"W", b"W*"):
            pending_clip = path_rects[-1] if path_rects else None
        elif op in (b"S", b"s", b"B", b"b", b"f", b"F", b"f*", b"n", b"B*", b"b*"):
            if op in (b"S", b"s", b"B", b"b", b"B*", b"b*"):
                (found.dashed if dash else found.lines).extend(path_lines)
                found.rects.extend(path_rects)
            if op in (b"f", b"F", b"f*", b"B", b"b", b"B*", b"b*"):
                found.filled.extend(path_rects)
            if pending_clip is not None:
                clip = pending_clip
                pending_clip = None
            path_lines, path_rects, start = [], [], None
        elif op == b"Do":
            found.forms.append(Drawn(str(operands[0]), (ctm[4], ctm[5]), clip))
    return found


def font_problems(reader: pypdf.PdfReader) -> list[str]:
    """Every font a page or a form on it refers to that is not embedded (no FontFile, FontFile2 or FontFile3)."""
    problems: list[str] = []
    seen: set[int] = set()

    def visit(resources, where: str) -> None:
        if resources is None:
            return
        resources = resources.get_object()
        for name, font in (resources.get("/Font") or {}).items():
            font = font.get_object()
            described = font["/DescendantFonts"][0].get_object() if "/DescendantFonts" in font else font
            descriptor = described.get("/FontDescriptor")
            if font.get("/Subtype") == "/Type3":
                continue
            if descriptor is None or not any(key in descriptor.get_object()
                                             for key in ("/FontFile", "/FontFile2", "/FontFile3")):
                problems.append(f"{where}: {name} {font.get('/BaseFont')} is not embedded")
        for xobject in (resources.get("/XObject") or {}).values():
            ref = xobject.indirect_reference.idnum if hasattr(xobject, "indirect_reference") and \
                xobject.indirect_reference else id(xobject)
            xobject = xobject.get_object()
            if xobject.get("/Subtype") == "/Form" and ref not in seen:
                seen.add(ref)
                visit(xobject.get("/Resources"), where)

    for number, page in enumerate(reader.pages):
        visit(page.get("/Resources"), f"page {number + 1}")
    return problems
