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

Composited for a CMYK press (`to_cmyk`, a drawing of one opacity), the picture is made in inks,
as a RIP blends the PDF/X-4 file: the drawing is drawn opaque over white and over black, which
gives its own colour and how much of each pixel it covers; that colour's CMYK is laid over the
CMYK of what lies beneath by coverage times opacity. What lies beneath is pdfium's drawing
converted, except where an earlier picture of the same stream still shows: there its inks are
taken. A run of such drawings with nothing painted between them (a soft shadow's or glow's
copies, `_runs`) becomes one picture, each laid over the inks of the ones before, so they
blend in CMYK, not in RGB, and the file holds one picture, not twelve. A grey
pixel becomes black ink only, as the vector greys do (`pdfx._Converter.colour`). A stencil
mask (PDF 1.3, no transparency) leaves the pixels the drawing does not touch out of the
picture, so the vector drawing beneath (a gradient) shows there in its own inks.

Soft masks and blend modes stay an error naming where they are, with `--pdfx x4` as the way
out: deckgen's layouts draw neither and svglib leaves both out of SVG art, so only a PDF made
some other way could hold one.
"""

from __future__ import annotations

import io
import math
import zlib
from dataclasses import dataclass, replace
from typing import Callable

from ..core.errors import OptionError

FLATTEN_PPI = 600  # the picture's resolution: text and edges under a panel stay sharp in print
FIND_PPI = 150  # where a see-through text or gradient paints is found at this resolution
SAME_SHOWN = 3  # levels of 255 two composites of the same drawings may differ by (rounding)
MARGIN_PT = 1.0  # and widened by this much (more than a pixel at FIND_PPI: anti-aliased edges)
PATH_OPS = {"m", "l", "c", "v", "y", "re", "h"}
FILLS = {"f", "F", "f*", "B", "B*", "b", "b*"}
STROKES = {"S", "s", "B", "B*", "b", "b*"}
TEXT_SHOWS = {"Tj", "TJ", "'", '"'}
# what ends a run of see-through drawings: painting, or a clip (a bare "n" ends an empty path: nothing)
PAINTS = FILLS | STROKES | TEXT_SHOWS | {"W", "W*", "sh", "Do", "BI", "BT", "ET"}
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
class _Flattened:
    """A picture made for a drawing of this stream: where its pixels start (from the stream's
    top left corner, at `FLATTEN_PPI`: every render of the stream shares that pixel grid), what
    pdfium shows there once the drawing is drawn, and its CMYK."""

    left: int
    top: int
    shown: object
    inks: object


KEPT_PICTURES = 16  # the last pictures a see-through drawing may lie on (a soft edge's twelve copies)


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
    lies under it and the CMYK of its own colour, mixed by its coverage and opacity (see the
    module's docstring). Without it, and for
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
    earlier: list[_Flattened] = []  # this stream's pictures so far, newest last
    for number, together in enumerate(_runs(run, instructions, targets)):
        found = [target.bbox for target in together if target.bbox]
        if any(target.bbox is None for target in together):  # what the run changes, drawn without it and with it
            span = _changed(document, resources, box, instructions, replace(together[0], index=together[-1].index))
            found += [span] if span is not None else []
        placed, last = b"", together[-1]
        if found:
            bbox = (min(b[0] for b in found), min(b[1] for b in found), max(b[2] for b in found),
                    max(b[3] for b in found))
            name = _unused_name(resources, number)
            picture, (left, bottom, right, top) = _picture(run, resources, box, instructions, together, bbox, earlier)
            resources.XObject[name] = picture
            place = _multiply((right - left, 0, 0, top - bottom, left, bottom), _inverse(last.ctm))
            placed = b"q %s cm %s Do Q" % (" ".join(f"{v:.6f}" for v in place).encode(), str(name).encode())
        for target in together:  # the picture is placed after the last drawing of the run
            _remove(replaced, instructions, target, placed if target is last else b"")
    pieces = [replaced[index] if index in replaced else pikepdf.unparse_content_stream([instruction])
              for index, instruction in enumerate(instructions)]
    data = b"\n".join(pieces)
    if isinstance(owner, pikepdf.Page):
        owner.obj.Contents = document.make_stream(data)
    else:
        owner.write(data)
    _opaque(resources, data)
    return count + len(targets)


def _remove(replaced: dict[int, bytes], instructions, target: Target, placed: bytes) -> None:
    """The target's drawing taken out of the stream (`replaced`), the picture `placed` after it."""
    operator = str(instructions[target.index].operator)
    if target.start is not None:  # a text object: its text made invisible, the picture after it
        replaced[target.start] = b"BT " + INVISIBLE_TEXT
        replaced.update({index: b"" for index in range(target.start + 1, target.index)
                         if str(instructions[index].operator) == "Tr"})
        replaced[target.index] = b"%d Tr ET\n" % target.mode_after + placed
    else:  # a path is ended unpainted; an image, a form or a gradient is simply not drawn
        replaced[target.index] = (b"n\n" if operator in FILLS | STROKES else b"") + placed


def _runs(run: _Run, instructions, targets: list[Target]) -> list[list[Target]]:
    """The targets in runs flattened into one picture: see-through drawings of one opacity each,
    composited in CMYK, with nothing painted between them (a soft shadow's or glow's copies)."""
    runs: list[list[Target]] = []
    for target in targets:
        previous = runs[-1][-1] if runs else None
        if (previous is not None and run.to_cmyk is not None and None not in (previous.alpha, target.alpha)
                and previous.depth == target.depth
                and not any(str(instruction.operator) in PAINTS
                            for instruction in instructions[previous.index + 1:target.begin])):
            runs[-1].append(target)
        else:
            runs.append([target])
    return runs


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


def _picture(run: _Run, resources, box, instructions, targets: list[Target], bbox, earlier: list[_Flattened]):
    """What the stream shows over `bbox` (within `box`) once the targets (a run, `_runs`) are
    drawn, as an image XObject (CMYK when composited in CMYK, see `flatten`), and the rectangle
    it covers. `earlier` (this stream's pictures so far) gets this one, when composited in CMYK."""
    import pikepdf
    from PIL import Image, ImageChops

    covered = (max(bbox[0], box[0]), max(bbox[1], box[1]), min(bbox[2], box[2]), min(bbox[3], box[3]))
    scale, document, first = FLATTEN_PPI / 72, run.document, targets[0]
    if run.to_cmyk is None or first.alpha is None:  # one target: see `_runs`
        image = _render(document, resources, box, instructions[:first.index + 1], first.depth, covered, scale)
        space = pikepdf.Name.DeviceRGB
        stencil = None
    else:
        shown = _render(document, resources, box, instructions[:first.begin], first.depth, covered, scale)
        origin = (math.ceil((covered[0] - box[0]) * scale), math.ceil((box[3] - covered[3]) * scale))  # as pdfium crops
        image = _over_earlier(_neutral_black(run.to_cmyk, shown), shown, origin, earlier)
        touched = Image.new("L", shown.size, 0)
        for target in targets:
            # the drawing made opaque over white and over black: its own colour and how much of each pixel it covers
            over_white, over_black = (
                _render(document, resources, box, instructions[:target.begin] + _backdrop(grey)
                        + instructions[target.begin:target.index + 1], target.depth, covered, scale)
                for grey in (1, 0))
            colour, cover = _unmixed(shown, over_white, over_black, 0 if target is first else SAME_SHOWN)
            painted = cover.point(lambda value, alpha=target.alpha: round(value * alpha))
            image = Image.composite(_neutral_black(run.to_cmyk, colour), image, painted)
            shown = Image.composite(colour, shown, painted)
            touched = ImageChops.lighter(touched, cover.point(lambda value: 255 if value else 0))
        space = pikepdf.Name.DeviceCMYK
        stencil = _stencil(document, touched)
        earlier[:] = [*earlier[1 - KEPT_PICTURES:], _Flattened(*origin, shown, image)]
    picture = document.make_stream(zlib.compress(image.tobytes(), 9))
    picture.Type, picture.Subtype = pikepdf.Name.XObject, pikepdf.Name.Image
    picture.Width, picture.Height, picture.BitsPerComponent = image.width, image.height, 8
    picture.ColorSpace, picture.Filter = space, pikepdf.Name.FlateDecode
    if stencil is not None:
        picture.Mask = stencil
    return picture, covered


def _backdrop(grey: int) -> list:
    """Instructions that paint everything in reach white (1) or black (0), opaque, and leave the
    state opaque for the drawing after them (which then shows its own colour and coverage)."""
    import pikepdf

    opaque = pikepdf.ContentStreamInstruction([pikepdf.Name(OPAQUE_STATE)], pikepdf.Operator("gs"))
    return [pikepdf.ContentStreamInstruction([], pikepdf.Operator("q")), opaque,
            pikepdf.ContentStreamInstruction([grey], pikepdf.Operator("g")),
            pikepdf.ContentStreamInstruction([-1e5, -1e5, 2e5, 2e5], pikepdf.Operator("re")),
            pikepdf.ContentStreamInstruction([], pikepdf.Operator("f")),
            pikepdf.ContentStreamInstruction([], pikepdf.Operator("Q")), opaque]


def _unmixed(under, over_white, over_black, tolerance: int):
    """A drawing's own colour and its coverage (L, 255 = all) in each pixel, from it drawn opaque
    over white and over black: a pixel covered by `m` shows colour * m + backdrop * (1 - m). Where
    both show what lies `under` (clipped away: the backdrop did not reach it either), within
    `tolerance`, it covers nothing."""
    from PIL import Image, ImageChops, ImageMath

    uncovered = [ImageChops.invert(ImageChops.subtract(white, black))
                 for white, black in zip(over_white.split(), over_black.split())]
    cover = ImageChops.lighter(ImageChops.lighter(uncovered[0], uncovered[1]), uncovered[2])
    untouched = ImageChops.invert(ImageChops.lighter(_differs(over_white, under, tolerance),
                                                     _differs(over_black, under, tolerance)))
    cover = ImageChops.subtract(cover, untouched)
    colour = Image.merge("RGB", [ImageMath.lambda_eval(
        lambda a: (a["premultiplied"] * 255 + a["cover"] / 2) / (a["cover"] + (a["cover"] == 0)),
        premultiplied=channel, cover=cover).convert("L") for channel in over_black.split()])
    return colour, cover


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


def _over_earlier(inks, shown, origin: tuple[int, int], earlier: list[_Flattened]):
    """`inks` (the CMYK of what pdfium `shown`s beneath a see-through drawing) taken from the
    newest earlier picture over each pixel, where the page still shows what it shows: a drawing
    over an earlier see-through one (a soft edge's copies) then composites over that one's inks,
    as a RIP blends them in CMYK, not over the CMYK of pdfium's RGB blend of the two."""
    from PIL import Image, ImageChops

    decided = Image.new("L", shown.size, 0)
    for picture in reversed(earlier):
        left, top = max(origin[0], picture.left), max(origin[1], picture.top)
        right = min(origin[0] + shown.width, picture.left + picture.shown.width)
        bottom = min(origin[1] + shown.height, picture.top + picture.shown.height)
        if right <= left or bottom <= top:
            continue
        here = (left - origin[0], top - origin[1], right - origin[0], bottom - origin[1])
        there = (left - picture.left, top - picture.top, right - picture.left, bottom - picture.top)
        # unchanged since (equal but for pdfium's rounding of the blend), and no newer picture here
        same = ImageChops.invert(_differs(shown.crop(here), picture.shown.crop(there), SAME_SHOWN))
        inks.paste(picture.inks.crop(there), here[:2], ImageChops.subtract(same, decided.crop(here)))
        decided.paste(255, here)
    return inks


def _differs(one, other, tolerance: int):
    """A mask of the pixels where two RGB pictures differ by more than `tolerance` in any channel."""
    from PIL import ImageChops

    red, green, blue = ImageChops.difference(one, other).split()
    return ImageChops.lighter(ImageChops.lighter(red, green), blue).point(lambda value: 255 if value > tolerance else 0)


def _stencil(document, changed):
    """An explicit mask (a 1-bit stencil, PDF 1.3, no transparency) that leaves out of the picture
    the pixels the drawing does not change: there the vector drawing beneath shows itself, in its
    own inks, instead of a picture of it (a gradient's pixels converted one by one differ a little
    from the gradient converted by its stops)."""
    import pikepdf
    from PIL import ImageChops

    masked_out = ImageChops.invert(changed).convert("1")  # 1: not painted
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
