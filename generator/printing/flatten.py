"""Transparency flattened, for PDF/X-1a (which allows none): each translucent drawing replaced by
a picture of what the page shows there.

A layout's `opacity` (a translucent panel over art) and art or icons with transparent pixels
(an image with a soft mask) draw see-through. PDF/X-1a forbids that, so before the file is
converted to CMYK every such drawing is flattened, as a prepress flattener does it:

- the stream (a page or a card's form) is drawn by pdfium up to and including the translucent
  drawing, exactly as a viewer composites it, at `FLATTEN_PPI`, over the rectangle the drawing
  covers;
- the drawing is replaced by that picture, placed on the same rectangle, and everything drawn
  after it (the text on the panel) stays vector on top;
- the graphics states' opacities are then set to 1, so nothing in the file is see-through.

A see-through shape or image covers the rectangle of its path or its placement. Text drawn
see-through (a text element with `opacity`), a gradient painted see-through (`sh`) and a form
placed see-through cover what they change: the stream is drawn at `FIND_PPI` without the
drawing and with it, and the pixels that differ, widened by `MARGIN_PT`, are the rectangle
flattened. The text then stays in the file as invisible text (render mode 3) under its
picture, so it can still be searched and copied, and the picture is placed after the text
object (a picture may not be drawn inside one).

Soft masks and blend modes stay an error naming where they are, with `--pdfx x4` as the way
out: deckgen's layouts draw neither and svglib leaves both out of SVG art, so only a PDF made
some other way could hold one.
"""

from __future__ import annotations

import io
import zlib
from dataclasses import dataclass
from typing import Callable

from ..core.errors import OptionError

FLATTEN_PPI = 600  # the picture's resolution: text and edges under a panel stay sharp in print
FIND_PPI = 150  # where a see-through text or gradient paints is found at this resolution
MARGIN_PT = 1.0  # and widened by this much (more than a pixel at FIND_PPI: anti-aliased edges)
PATH_OPS = {"m", "l", "c", "v", "y", "re", "h"}
FILLS = {"f", "F", "f*", "B", "B*", "b", "b*"}
STROKES = {"S", "s", "B", "B*", "b", "b*"}
TEXT_SHOWS = {"Tj", "TJ", "'", '"'}
FILLED_TEXT, STROKED_TEXT = {0, 2, 4, 6}, {1, 2, 5, 6}  # text render modes that fill, that stroke
INVISIBLE_TEXT = b"3 Tr"
OPAQUE_STATE = "/DeckgenOpaque"  # a graphics state in the scratch files only: a drawing made opaque


@dataclass(frozen=True)
class Target:
    """A see-through drawing: the instruction that paints it (a text object's ET), the
    transformation and q depth there, the rectangle it covers in the stream's space (None:
    found by drawing), and for text the index of its BT and the render mode after it."""

    index: int
    ctm: tuple
    depth: int
    bbox: tuple | None
    begin: int  # the drawing's first instruction (its path's first point, its BT)
    alpha: float | None  # its one opacity, for compositing in CMYK; None: several, or a soft mask
    start: int | None = None
    mode_after: int = 0


def _multiply(a, b):
    """a then b, PDF's row-vector matrices."""
    return (a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3], a[2] * b[0] + a[3] * b[2],
            a[2] * b[1] + a[3] * b[3], a[4] * b[0] + a[5] * b[2] + b[4], a[4] * b[1] + a[5] * b[3] + b[5])


def _inverse(m):
    det = m[0] * m[3] - m[1] * m[2]
    return (m[3] / det, -m[1] / det, -m[2] / det, m[0] / det,
            (m[2] * m[5] - m[3] * m[4]) / det, (m[1] * m[4] - m[0] * m[5]) / det)


def _apply(m, x, y):
    return (m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5])


def _path_points(operator: str, values: list[float]) -> list[tuple[float, float]]:
    if operator == "re":
        x, y, w, h = values
        return [(x, y), (x + w, y), (x, y + h), (x + w, y + h)]
    return list(zip(values[0::2], values[1::2]))


@dataclass
class _Run:
    """One flattening of a document: what an error calls a place, the CMYK conversion, the
    forms already flattened."""

    document: object
    where_of: Callable[[str], str]
    to_cmyk: Callable | None
    done: set


def flatten(document, where_of=lambda where: where, to_cmyk=None) -> int:
    """Flatten every translucent drawing in every page and form of the pikepdf `document`; the
    number flattened. `where_of` turns "page 2, /Card3" into what an error should call it.

    `to_cmyk` (an RGB picture to the output's CMYK) makes a drawing of one opacity composite in
    CMYK, as a RIP composites the same drawing kept see-through: the picture is the CMYK of what
    lies under it and the CMYK of it drawn opaque, mixed by its opacity. Without it, and for
    soft-masked art, the picture is pdfium's RGB composite."""
    run = _Run(document, where_of, to_cmyk, set())
    count = 0
    for number, page in enumerate(document.pages, start=1):
        count += _flatten_owner(run, page, [float(v) for v in page.mediabox], f"page {number}")
    return count


def _flatten_owner(run: _Run, owner, box, where) -> int:
    import pikepdf

    document = run.document
    holder = owner.obj if isinstance(owner, pikepdf.Page) else owner
    resources = holder.get("/Resources") or pikepdf.Dictionary()
    count = 0
    for name, xobject in (resources.get("/XObject") or {}).items():
        if xobject.get("/Subtype") == "/Form" and xobject.objgen not in run.done:
            run.done.add(xobject.objgen)
            count += _flatten_owner(run, xobject, [float(v) for v in xobject.BBox], run.where_of(f"{where}, {name}"))
    instructions = list(pikepdf.parse_content_stream(owner))
    targets = _translucent(instructions, resources, run.where_of(where))
    if not targets:  # a state may still be set see-through around nothing (a text element left empty)
        _opaque(resources)
        return count
    if not resources.is_indirect:  # copied into a scratch file to draw from, which needs an indirect object
        resources = holder.Resources = document.make_indirect(resources)
    replaced: dict[int, bytes] = {}
    for number, target in enumerate(targets):
        bbox = target.bbox or _changed(document, resources, box, instructions, target)
        placed = b""
        if bbox is not None:
            name = _unused_name(resources, number)
            picture, (left, bottom, right, top) = _picture(run, resources, box, instructions, target, bbox)
            resources.XObject[name] = picture
            place = _multiply((right - left, 0, 0, top - bottom, left, bottom), _inverse(target.ctm))
            placed = b"q %s cm %s Do Q" % (" ".join(f"{v:.6f}" for v in place).encode(), str(name).encode())
        operator = str(instructions[target.index].operator)
        if target.start is not None:  # a text object: its text made invisible, the picture after it
            replaced[target.start] = b"BT " + INVISIBLE_TEXT
            replaced.update({index: b"" for index in range(target.start + 1, target.index)
                             if str(instructions[index].operator) == "Tr"})
            replaced[target.index] = b"%d Tr ET\n" % target.mode_after + placed
        else:  # a path is ended unpainted; an image, a form or a gradient is simply not drawn
            replaced[target.index] = (b"n\n" if operator in FILLS | STROKES else b"") + placed
    pieces = [replaced[index] if index in replaced else pikepdf.unparse_content_stream([instruction])
              for index, instruction in enumerate(instructions)]
    data = b"\n".join(pieces)
    if isinstance(owner, pikepdf.Page):
        owner.obj.Contents = document.make_stream(data)
    else:
        owner.write(data)
    _opaque(resources, data)
    return count + len(targets)


def _translucent(instructions, resources, where: str) -> list[Target]:
    """Each drawing painted see-through, in stream order."""
    states = resources.get("/ExtGState") or {}
    xobjects = resources.get("/XObject") or {}
    ctm, fill, stroke, width, mode = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0), 1.0, 1.0, 1.0, 0
    stack: list = []
    points: list[tuple[float, float]] = []
    path_begin, text_start, text_alphas = 0, None, set()
    found = []
    for index, (operands, operator) in enumerate(instructions):
        op = str(operator)
        if op == "q":
            stack.append((ctm, fill, stroke, width, mode))
        elif op == "Q" and stack:
            ctm, fill, stroke, width, mode = stack.pop()
        elif op == "cm":
            ctm = _multiply(tuple(float(v) for v in operands), ctm)
        elif op == "w":
            width = float(operands[0])
        elif op == "Tr":
            mode = int(operands[0])
        elif op == "gs":
            state = states.get(str(operands[0])) or {}
            fill, stroke = float(state.get("/ca", fill)), float(state.get("/CA", stroke))
            if "/SMask" in state and str(state["/SMask"]) != "/None" or str(state.get("/BM", "/Normal")) not in (
                    "/Normal", "/Compatible"):
                raise OptionError(f"{where}: a soft mask or blend mode ({operands[0]}), which deckgen cannot "
                                  "flatten for PDF/X-1a: use --pdfx x4")
        elif op in PATH_OPS:
            path_begin = path_begin if points else index
            points += [_apply(ctm, x, y) for x, y in _path_points(op, [float(v) for v in operands])]
        elif op in FILLS or op in STROKES or op == "n":
            alphas = _alphas(fill if op in FILLS else None, stroke if op in STROKES else None)
            if min(alphas, default=1) < 1 and points:
                reach = (width / 2 * abs(ctm[0] * ctm[3] - ctm[1] * ctm[2]) ** 0.5) if op in STROKES else 0.0
                xs, ys = [p[0] for p in points], [p[1] for p in points]
                found.append(Target(index, ctm, len(stack),
                                    (min(xs) - reach, min(ys) - reach, max(xs) + reach, max(ys) + reach),
                                    path_begin, _one(alphas)))
            points = []
        elif op == "BT":
            text_start, text_alphas = index, set()
        elif op in TEXT_SHOWS:
            text_alphas |= _alphas(fill if mode in FILLED_TEXT else None, stroke if mode in STROKED_TEXT else None)
        elif op == "ET":
            if min(text_alphas, default=1) < 1 and text_start is not None:
                found.append(Target(index, ctm, len(stack), None, text_start, _one(text_alphas), text_start, mode))
            text_start = None
        elif op == "sh" and fill < 1:
            found.append(Target(index, ctm, len(stack), None, index, fill))
        elif op == "Do":
            xobject = xobjects.get(str(operands[0]))
            if xobject is None:
                continue
            if xobject.get("/Subtype") == "/Image" and (fill < 1 or "/SMask" in xobject):
                corners = [_apply(ctm, x, y) for x, y in ((0, 0), (1, 0), (0, 1), (1, 1))]
                xs, ys = [p[0] for p in corners], [p[1] for p in corners]
                found.append(Target(index, ctm, len(stack), (min(xs), min(ys), max(xs), max(ys)), index,
                                    None if "/SMask" in xobject else fill))
            elif xobject.get("/Subtype") == "/Form" and (fill < 1 or stroke < 1):
                found.append(Target(index, ctm, len(stack), None, index, _one({fill, stroke})))
    return found


def _alphas(fill: float | None, stroke: float | None) -> set[float]:
    """The opacities a painting uses: its fill's, its stroke's, each when it paints one."""
    return {alpha for alpha in (fill, stroke) if alpha is not None}


def _one(alphas: set) -> float | None:
    """The opacity of a drawing painted with these (None when they differ)."""
    return next(iter(alphas)) if len(alphas) == 1 else None


def _changed(document, resources, box, instructions, target: Target) -> tuple | None:
    """The rectangle (in the stream's space, within `box`) whose pixels the target's drawing
    changes, widened by `MARGIN_PT`; None when it changes none (drawn wholly clipped away)."""
    from PIL import ImageChops

    scale = FIND_PPI / 72
    without = _render(document, resources, box, instructions[:target.begin], target.depth, box, scale)
    drawn = _render(document, resources, box, instructions[:target.index + 1], target.depth, box, scale)
    pixels = ImageChops.difference(without, drawn).getbbox()
    if pixels is None:
        return None
    left, top, right, bottom = pixels  # in pixels from the box's top left corner
    return (box[0] + left / scale - MARGIN_PT, box[3] - bottom / scale - MARGIN_PT,
            box[0] + right / scale + MARGIN_PT, box[3] - top / scale + MARGIN_PT)


def _unused_name(resources, number: int):
    import pikepdf

    if "/XObject" not in resources:
        resources.XObject = pikepdf.Dictionary()
    index = number
    while f"/Flat{index}" in resources.XObject:
        index += 1
    return pikepdf.Name(f"/Flat{index}")


def _picture(run: _Run, resources, box, instructions, target: Target, bbox):
    """What the stream shows over `bbox` (within `box`) once the target is drawn, as an image
    XObject (CMYK when composited in CMYK, see `flatten`), and the rectangle it covers."""
    import pikepdf
    from PIL import Image

    covered = (max(bbox[0], box[0]), max(bbox[1], box[1]), min(bbox[2], box[2]), min(bbox[3], box[3]))
    scale, document = FLATTEN_PPI / 72, run.document
    if run.to_cmyk is None or target.alpha is None:
        image = _render(document, resources, box, instructions[:target.index + 1], target.depth, covered, scale)
        space = pikepdf.Name.DeviceRGB
        stencil = None
    else:
        under = _render(document, resources, box, instructions[:target.begin], target.depth, covered, scale)
        made_opaque = pikepdf.ContentStreamInstruction([pikepdf.Name(OPAQUE_STATE)], pikepdf.Operator("gs"))
        opaque = instructions[:target.begin] + [made_opaque] + instructions[target.begin:target.index + 1]
        drawn = _render(document, resources, box, opaque, target.depth, covered, scale)
        image = Image.blend(_neutral_black(run.to_cmyk, under), _neutral_black(run.to_cmyk, drawn), target.alpha)
        space = pikepdf.Name.DeviceCMYK
        stencil = _stencil(document, under, drawn)
    picture = document.make_stream(zlib.compress(image.tobytes(), 9))
    picture.Type, picture.Subtype = pikepdf.Name.XObject, pikepdf.Name.Image
    picture.Width, picture.Height, picture.BitsPerComponent = image.width, image.height, 8
    picture.ColorSpace, picture.Filter = space, pikepdf.Name.FlateDecode
    if stencil is not None:
        picture.Mask = stencil
    return picture, covered


def _neutral_black(to_cmyk, image):
    """The RGB picture in CMYK as the vector colours are converted: a grey pixel (R = G = B) in
    black ink only, K = 1 - grey (`pdfx._Converter.colour`), the others through the profile, so
    a black shadow or a grey panel flattened prints with the same inks as drawn in vector."""
    from PIL import Image, ImageChops

    red, green, blue = image.split()
    coloured = ImageChops.lighter(ImageChops.difference(red, green), ImageChops.difference(green, blue))
    grey = coloured.point(lambda value: 255 if value == 0 else 0)
    nothing = Image.new("L", image.size, 0)
    black_ink = Image.merge("CMYK", (nothing, nothing, nothing, ImageChops.invert(red)))
    return Image.composite(black_ink, to_cmyk(image), grey)


def _stencil(document, under, drawn):
    """An explicit mask (a 1-bit stencil, PDF 1.3, no transparency) that leaves out of the picture
    the pixels the drawing does not change: there the vector drawing beneath shows itself, in its
    own inks, instead of a picture of it (a gradient's pixels converted one by one differ a little
    from the gradient converted by its stops)."""
    import pikepdf
    from PIL import ImageChops

    changed = ImageChops.difference(under, drawn).convert("L")
    masked_out = changed.point(lambda value: 0 if value else 255).convert("1")  # 1: not painted
    stencil = document.make_stream(zlib.compress(masked_out.tobytes(), 9))
    stencil.Type, stencil.Subtype = pikepdf.Name.XObject, pikepdf.Name.Image
    stencil.Width, stencil.Height, stencil.BitsPerComponent = masked_out.width, masked_out.height, 1
    stencil.ImageMask, stencil.Filter = True, pikepdf.Name.FlateDecode
    return stencil


def _render(document, resources, box, prefix, depth: int, covered, scale: float):
    """The stream's `prefix` (its open q's closed) drawn by pdfium over `covered`, an RGB image."""
    import pikepdf
    import pypdfium2

    scratch = pikepdf.new()
    scratch.add_blank_page(page_size=(box[2] - box[0], box[3] - box[1]))
    page = scratch.pages[0]
    page.obj.MediaBox = pikepdf.Array(box)
    page.obj.Resources = scratch.copy_foreign(resources)
    states = page.obj.Resources.get("/ExtGState")
    if states is None:
        states = page.obj.Resources.ExtGState = pikepdf.Dictionary()
    states[OPAQUE_STATE] = pikepdf.Dictionary(Type=pikepdf.Name.ExtGState, ca=1, CA=1)
    page.obj.Contents = scratch.make_stream(pikepdf.unparse_content_stream(prefix) + b"\nQ" * depth)
    buffer = io.BytesIO()
    scratch.save(buffer)
    left, bottom, right, top = covered
    rendered = pypdfium2.PdfDocument(buffer.getvalue())  # the scratch file, in memory
    try:
        bitmap = rendered[0].render(scale=scale, crop=(left - box[0], bottom - box[1], box[2] - right, box[3] - top))
        return bitmap.to_pil().convert("RGB")
    finally:
        rendered.close()


def _opaque(resources, data: bytes | None = None) -> None:
    """Every graphics state made opaque, and images the stream `data` no longer draws
    (soft-masked art that was flattened) dropped from the resources."""
    for state in (resources.get("/ExtGState") or {}).values():
        for key in ("/ca", "/CA"):
            if key in state:
                state[key] = 1
    xobjects = (resources.get("/XObject") or {}) if data is not None else {}
    for name in list(xobjects.keys()):
        if xobjects[name].get("/Subtype") == "/Image" and (str(name).encode() + b" Do") not in data:
            del xobjects[name]
