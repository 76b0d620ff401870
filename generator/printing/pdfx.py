"""PDF/X for print shops: every colour converted to CMYK through an ICC profile, and the file marked as PDF/X.

reportlab draws in RGB and writes no PDF/X; no Python library does. This module takes
the finished PDF and, with pikepdf:

- rewrites every `rg`/`RG` colour in every content stream (pages and forms) as `k`/`K`,
  converted through the output profile by littleCMS (Pillow's ImageCms);
- converts every RGB image to CMYK the same way (an image's colour-key mask, `faces.masks`,
  becomes a stencil mask, which PDF/X-1a allows);
- refuses transparency for PDF/X-1a (soft masks, constant alpha, blend modes), naming what has it;
- adds the OutputIntent with the profile, the PDF/X version keys and `Trapped`, and a
  TrimBox and BleedBox on every page (the page itself when a page has none: a sheet is
  not trimmed);
- checks nothing RGB is left, and saves with the version PDF/X asks for (1.3 for
  X-1a:2001, 1.4 for X-1a:2003, 1.6 for X-4) and a deterministic file ID.

The profile: `--icc-profile PATH` (your print shop's), else the first of `SYSTEM_PROFILES`
found: Ghostscript's "Artifex CMYK SWOP Profile" from Debian's libgs-common (AGPL-3+
data; deckgen reads it where the system installed it and does not ship it).
"""

from __future__ import annotations

import base64
import hashlib
import io
import uuid
import warnings
import zlib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageChops, ImageCms, ImageMath

from ..core.errors import DeckgenError, OptionError
from ..core.files import RefusedInput, read_input
from .flatten import flatten

SYSTEM_PROFILES = (
    Path("/usr/share/color/icc/ghostscript/default_cmyk.icc"),
    Path("/usr/share/ghostscript/iccprofiles/default_cmyk.icc"),
)


@dataclass(frozen=True, slots=True)
class Standard:
    name: str  # what --pdfx takes
    version: str  # GTS_PDFXVersion
    conformance: str | None  # GTS_PDFXConformance (X-1a:2001 only)
    pdf_version: str
    transparency: bool

    @property
    def label(self) -> str:
        """What users know it as: PDF/X-1a:2001, PDF/X-1a:2003, PDF/X-4."""
        return self.conformance or self.version


STANDARDS = {
    "x1a": Standard("x1a", "PDF/X-1:2001", "PDF/X-1a:2001", "1.3", False),
    "x1a-2003": Standard("x1a-2003", "PDF/X-1a:2003", None, "1.4", False),
    "x4": Standard("x4", "PDF/X-4", None, "1.6", True),
}
RGB_OPERATORS = {"rg": "k", "RG": "K"}


def standard(name: str) -> Standard:
    if name not in STANDARDS:
        raise OptionError(f"--pdfx {name!r} is unknown; choose one of {', '.join(STANDARDS)}")
    return STANDARDS[name]


def output_profile(path: Path | None) -> Path:
    """The CMYK output profile: the one given, else the system's; a clear error when there is none."""
    candidates = [path] if path is not None else [p for p in SYSTEM_PROFILES if p.exists()]
    if not candidates:
        raise OptionError("--color cmyk needs a CMYK ICC profile: give your print shop's with --icc-profile PATH, "
                          "or install Debian's libgs-common, whose Artifex SWOP profile deckgen then uses")
    chosen = candidates[0]
    try:
        profile = _open_profile(chosen)
        space = profile.profile.xcolor_space.strip()
        if space == "CMYK":  # a profile that opens may still be cut short: build what printing builds
            _Converter(chosen)
            ImageCms.getProfileDescription(profile)
    except RefusedInput as error:
        raise OptionError(f"--icc-profile {chosen}: {error.problem.message}; {error.problem.hint}") from None
    except (OSError, ValueError, TypeError, ImageCms.PyCMSError) as error:
        raise OptionError(f"--icc-profile {chosen}: not a readable ICC profile ({error}); give a CMYK .icc "
                          "or .icm file as your print shop sends it") from None
    if space != "CMYK":
        raise OptionError(f"--icc-profile {chosen}: a profile for {space}; "
                          "PDF/X for print needs a CMYK output profile")
    return chosen


def _open_profile(path: Path):
    """The ICC profile at `path`, read through the opener (a FIFO or a huge file is refused)."""
    return ImageCms.getOpenProfile(io.BytesIO(read_input(path, "profile")))


class _Converter:
    """sRGB to the output profile's CMYK, with black-point compensation; single colours cached.

    A neutral colour (R = G = B: black text, line art, crop marks, greys) becomes black ink only,
    K = 1 - grey, as print shops ask: a profile would build it from all four inks (rich black,
    C70 M67 Y66 K78 for black), which smears thin text and marks when the plates shift.
    """

    def __init__(self, profile: Path, ink_limit: float | None = None):
        self.ink_limit = ink_limit  # total area coverage, C+M+Y+K as a fraction (2.4 = 240 %)
        self.transform = ImageCms.buildTransform(
            ImageCms.createProfile("sRGB"), _open_profile(profile), "RGB", "CMYK",
            renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC, flags=ImageCms.Flags.BLACKPOINTCOMPENSATION)

    @lru_cache(maxsize=4096)
    def colour(self, r: float, g: float, b: float) -> tuple[float, float, float, float]:
        if r == g == b:
            return (0.0, 0.0, 0.0, round(1 - r, 4))
        pixel = Image.new("RGB", (1, 1), tuple(round(v * 255) for v in (r, g, b)))
        c, m, y, k = self.image(pixel).getpixel((0, 0))
        return tuple(round(v / 255, 4) for v in (c, m, y, k))  # type: ignore[return-value]

    def _limited(self, image):
        """Where C+M+Y+K passes the ink limit, C, M and Y scaled down together (K and the hue's
        proportions kept) until the total is the limit."""
        room_for = int(self.ink_limit * 255)
        c, m, y, k = (band.convert("I") for band in image.split())

        def scaled(band):
            return ImageMath.lambda_eval(
                lambda a: a["band"] - (a["band"] - a["band"] * (room_for - a["k"]) / (a["cmy"] + (a["cmy"] == 0)))
                * (a["cmy"] > room_for - a["k"]),
                band=band, k=k, cmy=ImageMath.lambda_eval(lambda a: a["c"] + a["m"] + a["y"], c=c, m=m, y=y))

        return Image.merge("CMYK", [scaled(c).convert("L"), scaled(m).convert("L"), scaled(y).convert("L"),
                                    k.convert("L")])

    def image(self, image):
        # littleCMS's own transform: ImageCms.applyTransform also serialises the 180 KB profile
        # into every output image's info, which costs more than converting a colour.
        rgb = image.convert("RGB")
        out = Image.new("CMYK", rgb.size)
        self.transform.transform.apply(rgb.getim(), out.getim())
        return self._limited(out) if self.ink_limit else out


def convert(pdf: bytes, profile: Path, pdfx: str = "x1a", title: str = "",
            labels: dict[str, str] | None = None, ink_limit: float | None = None) -> bytes:
    """The PDF with every colour in CMYK and marked as the PDF/X standard `pdfx`.

    `labels` names drawings (form XObjects) for error messages, e.g. {"/Card3": "card 'Firebolt'"}.
    `ink_limit` caps total area coverage (C+M+Y+K, 2.4 = 240 %) in every colour and image pixel.
    """
    import pikepdf

    chosen = standard(pdfx)
    converter = _Converter(profile, ink_limit)
    document = pikepdf.open(io.BytesIO(pdf))
    seen: set[tuple[int, int]] = set()
    if not chosen.transparency:
        flatten(document, lambda where: (labels or {}).get(where.rsplit(", ", 1)[-1], where), converter.image)
    for number, page in enumerate(document.pages, start=1):
        _convert_resources(document, page.obj, converter, chosen, f"page {number}", seen, labels or {})
        _rewrite_stream(document, page, converter)
        for box in ("/TrimBox", "/BleedBox"):
            if box not in page.obj:
                page.obj[box] = page.obj.get("/TrimBox", page.mediabox)
    _mark(document, profile, chosen, title, _document_id(pdf, profile, chosen))
    problems = rgb_left(document)
    if problems:
        raise DeckgenError(f"internal: RGB left after converting to CMYK: {problems[0]}")
    out = io.BytesIO()
    document.save(out, deterministic_id=True, force_version=chosen.pdf_version,
                  object_stream_mode=pikepdf.ObjectStreamMode.disable, linearize=False)
    return out.getvalue()


def _convert_resources(document, owner, converter: _Converter, chosen: Standard, where: str, seen,
                       labels: dict[str, str]) -> None:
    import pikepdf


    resources = owner.get("/Resources")
    if resources is None:
        return
    if not chosen.transparency:
        for name, state in (resources.get("/ExtGState") or {}).items():
            for key in ("/CA", "/ca"):
                if key in state and float(state[key]) < 1:
                    raise OptionError(f"{where}: {name} draws see-through ({key} {float(state[key]):g}); "
                                      f"{chosen.label} allows no transparency: use --pdfx x4")
            if "/SMask" in state and state["/SMask"] != pikepdf.Name("/None"):
                raise OptionError(f"{where}: {name} has a soft mask; {chosen.label} allows no transparency: "
                                  "use --pdfx x4")
    for name, shading in (resources.get("/Shading") or {}).items():
        _convert_shading(shading, converter, f"{where}, shading {name}", seen)
    for name, pattern in (resources.get("/Pattern") or {}).items():
        if pattern.objgen in seen:
            continue
        seen.add(pattern.objgen)
        if "/Shading" in pattern:
            _convert_shading(pattern.Shading, converter, f"{where}, pattern {name}", seen)
        else:  # a tiling pattern: a content stream of its own
            _convert_resources(document, pattern, converter, chosen, f"{where}, pattern {name}", seen, labels)
            _rewrite_stream(document, pattern, converter)
    for name, xobject in (resources.get("/XObject") or {}).items():
        key = xobject.objgen
        if key in seen:
            continue
        seen.add(key)
        if xobject.get("/Subtype") == "/Image":
            _convert_image(xobject, converter, chosen, f"{where}, image {name}", document)
        elif xobject.get("/Subtype") == "/Form":
            _convert_resources(document, xobject, converter, chosen, labels.get(str(name), f"{where}, drawing {name}"),
                               seen, labels)
            _rewrite_stream(document, xobject, converter)


def _convert_shading(shading, converter: _Converter, where: str, seen) -> None:
    """An RGB gradient (an SVG's linear or radial gradient) turned CMYK: the colours its function
    runs between go through the profile like any other colour (the ink limit too), so the blend
    runs between the converted ends."""
    import pikepdf

    if shading.objgen in seen and shading.objgen != (0, 0):
        return
    seen.add(shading.objgen)
    if shading.get("/ColorSpace") != pikepdf.Name.DeviceRGB:
        return
    functions = shading.get("/Function")
    for function in (functions if isinstance(functions, pikepdf.Array) else [functions]):
        _convert_function(function, converter, where)
    if "/Background" in shading:
        shading.Background = pikepdf.Array(converter.colour(*(float(v) for v in shading.Background)))
    shading.ColorSpace = pikepdf.Name.DeviceCMYK


def _convert_function(function, converter: _Converter, where: str) -> None:
    """An exponential function's ends (C0, C1) in CMYK; a stitching function's parts each."""
    import pikepdf

    kind = int(function.get("/FunctionType", -1))
    if kind == 3:
        for part in function.Functions:
            _convert_function(part, converter, where)
        return
    if kind != 2:
        raise OptionError(f"{where}: a gradient drawn by a type {kind} function, which deckgen cannot convert "
                          "to CMYK; simplify the gradient in the SVG (two or more plain colour stops)")
    for key, default in (("/C0", (0.0, 0.0, 0.0)), ("/C1", (1.0, 1.0, 1.0))):
        rgb = [float(v) for v in function.get(key, pikepdf.Array(default))]
        function[key] = pikepdf.Array(converter.colour(*rgb))


def _convert_image(image, converter: _Converter, chosen: Standard, where: str, document) -> None:
    import pikepdf
    from pikepdf import Name

    if "/SMask" in image and not chosen.transparency:
        raise OptionError(f"{where} has transparent pixels (an art file with an alpha channel); "
                          f"{chosen.label} allows no transparency: flatten the art or use --pdfx x4")
    space = image.get("/ColorSpace")
    if space in (Name.DeviceGray, Name.DeviceCMYK) or "/ImageMask" in image:
        return
    pil = pikepdf.PdfImage(image).as_pil_image()
    if isinstance(image.get("/Mask"), pikepdf.Array):
        image.Mask = _stencil(document, image, pil)
    cmyk = converter.image(pil)
    image.write(zlib.compress(cmyk.tobytes(), 9), filter=Name.FlateDecode)
    image.ColorSpace = Name.DeviceCMYK
    image.BitsPerComponent = 8
    for key in ("/DecodeParms", "/Decode"):
        if key in image:
            del image[key]


def _stencil(document, image, pil):
    """An image's colour-key mask (`faces.masks`: the pixels of one RGB colour are not painted) as
    a stencil mask image, which stays true once the colours are CMYK (1: not painted)."""
    import pikepdf

    low, high = [int(v) for v in image.Mask][0::2], [int(v) for v in image.Mask][1::2]
    bands = [band.point(lambda v, a=a, b=b: 255 if a <= v <= b else 0)
             for band, a, b in zip(pil.convert("RGB").split(), low, high)]
    hidden = ImageChops.multiply(ImageChops.multiply(bands[0], bands[1]), bands[2]).convert("1")
    stencil = pikepdf.Stream(document, zlib.compress(hidden.tobytes(), 9))
    stencil.update({"/Type": pikepdf.Name.XObject, "/Subtype": pikepdf.Name.Image, "/Width": pil.width,
                    "/Height": pil.height, "/ImageMask": True, "/BitsPerComponent": 1,
                    "/Filter": pikepdf.Name.FlateDecode})
    return document.make_indirect(stencil)


def _rewrite_stream(document, owner, converter: _Converter) -> None:
    """RGB colour operators as CMYK ones, and RGB inline images (an SVG's embedded picture, which
    reportlab writes into the stream itself) as CMYK inline images."""
    import pikepdf

    instructions = pikepdf.parse_content_stream(owner)
    changed = False
    pieces: list[bytes] = []
    for operands, operator in instructions:
        replacement = RGB_OPERATORS.get(str(operator))
        if replacement:
            cmyk = converter.colour(*(float(v) for v in operands))
            pieces.append(pikepdf.unparse_content_stream(
                [pikepdf.ContentStreamInstruction(list(cmyk), pikepdf.Operator(replacement))]))
            changed = True
        elif str(operator) == "INLINE IMAGE" and operands[0].obj.get("/ColorSpace") not in (
                pikepdf.Name.DeviceGray, pikepdf.Name.DeviceCMYK):
            pieces.append(_cmyk_inline(operands[0], converter))
            changed = True
        else:
            if str(operator) in ("cs", "CS") and str(operands[0]) == "/DeviceRGB":
                raise DeckgenError("internal: an RGB colour space (cs/CS) that deckgen does not convert")
            pieces.append(pikepdf.unparse_content_stream([pikepdf.ContentStreamInstruction(operands, operator)]))
    if changed:
        data = b"\n".join(pieces)
        if isinstance(owner, pikepdf.Page):
            owner.obj.Contents = document.make_stream(data)
        else:
            owner.write(data)


def _cmyk_inline(inline, converter: _Converter) -> bytes:
    """An inline image's pixels through the profile, written back as a CMYK inline image (ASCII85
    over Flate, as reportlab writes them, so no byte sequence in the data reads as `EI`)."""
    pixels = converter.image(inline.as_pil_image())
    data = base64.a85encode(zlib.compress(pixels.tobytes(), 9)) + b"~>"
    return (b"BI\n/W %d /H %d /BPC 8 /CS /CMYK /F [ /A85 /Fl ]\nID\n" % (pixels.width, pixels.height)
            + data + b"\nEI")


def _document_id(pdf: bytes, profile: Path, chosen: Standard) -> str:
    """A uuid URN fixed by what was drawn, the profile and the standard: the same input gives the
    same file (deckgen's outputs are deterministic), a changed one a new document."""
    digest = hashlib.sha256(pdf + chosen.name.encode() + str(profile).encode()).digest()
    return f"uuid:{uuid.UUID(bytes=digest[:16], version=4)}"


def _mark(document, profile: Path, chosen: Standard, title: str, document_id: str) -> None:
    import pikepdf
    from pikepdf import Dictionary, Name, String

    description = ImageCms.getProfileDescription(_open_profile(profile)).strip() or profile.name
    icc = document.make_stream(read_input(profile, "profile"))
    icc.N = 4
    document.Root.OutputIntents = pikepdf.Array([Dictionary(
        Type=Name.OutputIntent, S=Name.GTS_PDFX, OutputConditionIdentifier=String("Custom"),
        OutputCondition=String(description), Info=String(description), RegistryName=String("http://www.color.org"),
        DestOutputProfile=icc)])
    info = document.docinfo
    info[Name.GTS_PDFXVersion] = String(chosen.version)
    if chosen.conformance:
        info[Name.GTS_PDFXConformance] = String(chosen.conformance)
    info[Name.Trapped] = Name("/False")
    if title:
        info[Name.Title] = String(title)
    if "/ModDate" not in info and "/CreationDate" in info:
        info[Name.ModDate] = info[Name.CreationDate]
    if chosen.name == "x4":
        with document.open_metadata(set_pikepdf_as_editor=False, update_docinfo=False) as meta:
            # the Info dictionary's title, author, subject, keywords, creator, producer and dates, so the
            # two say the same (ISO 15930-7 asks that they agree)
            with warnings.catch_warnings():  # it warns of Trapped and the PDF/X keys, set below
                warnings.filterwarnings("ignore", message="The metadata field", category=UserWarning)
                meta.load_from_docinfo(info)
            meta["pdfxid:GTS_PDFXVersion"] = chosen.version
            meta["xmp:MetadataDate"] = meta.get("xmp:ModifyDate", "2000-01-01T00:00:00Z")
            meta["pdf:Trapped"] = "False"
            # PDF/X-4 (ISO 15930-7, 6.7.2) also asks for the media-management identity of the file.
            meta["xmpMM:DocumentID"] = meta["xmpMM:InstanceID"] = document_id
            meta["xmpMM:VersionID"] = "1"
            meta["xmpMM:RenditionClass"] = "default"


def rgb_left(document) -> list[str]:
    """Where RGB remains (empty: none): colour operators and inline images in every content stream,
    images, shadings, patterns and named colour spaces, through every form and pattern."""
    import pikepdf

    found: list[str] = []
    seen: set[tuple[int, int]] = set()

    def rgb_space(space) -> bool:
        if space is None:
            return False
        if isinstance(space, pikepdf.Array) and len(space):
            family = space[0]
            if family == pikepdf.Name.ICCBased:
                return int(space[1].get("/N", 0)) == 3
            if family == pikepdf.Name.Indexed:
                return rgb_space(space[1])
            if family in (pikepdf.Name.Separation, pikepdf.Name.DeviceN):
                return rgb_space(space[2])
            return family in (pikepdf.Name.DeviceRGB, pikepdf.Name.CalRGB)
        return space in (pikepdf.Name.DeviceRGB, pikepdf.Name.CalRGB, pikepdf.Name("/RGB"))

    def first_time(thing) -> bool:
        if thing.objgen != (0, 0) and thing.objgen in seen:
            return False
        seen.add(thing.objgen)
        return True

    def streams(owner, where):
        for operands, operator in pikepdf.parse_content_stream(owner):
            if str(operator) in RGB_OPERATORS or (str(operator) == "INLINE IMAGE"
                                                  and rgb_space(operands[0].obj.get("/ColorSpace"))):
                found.append(f"{where}: {'RGB inline image' if str(operator) == 'INLINE IMAGE' else operator}")
                return
        resources = (owner.obj if isinstance(owner, pikepdf.Page) else owner).get("/Resources") or {}
        for name, space in (resources.get("/ColorSpace") or {}).items():
            if rgb_space(space):
                found.append(f"{where}: RGB colour space {name}")
        for name, shading in (resources.get("/Shading") or {}).items():
            if first_time(shading) and rgb_space(shading.get("/ColorSpace")):
                found.append(f"{where}: RGB shading {name}")
        for name, pattern in (resources.get("/Pattern") or {}).items():
            if not first_time(pattern):
                continue
            if "/Shading" in pattern:
                if rgb_space(pattern.Shading.get("/ColorSpace")):
                    found.append(f"{where}: RGB shading in pattern {name}")
            else:
                streams(pattern, f"{where}, pattern {name}")
        for name, xobject in (resources.get("/XObject") or {}).items():
            if not first_time(xobject):
                continue
            if xobject.get("/Subtype") == "/Image" and rgb_space(xobject.get("/ColorSpace")):
                found.append(f"{where}: RGB image {name}")
            elif xobject.get("/Subtype") == "/Form":
                streams(xobject, f"{where}, {name}")

    for number, page in enumerate(document.pages, start=1):
        streams(page, f"page {number}")
    return found


COLOR_MODES = ("rgb", "cmyk")


@dataclass(frozen=True, slots=True)
class ColorOptions:
    """`--color`, `--pdfx` and `--icc-profile`: RGB as drawn, or CMYK PDF/X."""

    mode: str = "rgb"
    pdfx: str = "x1a"
    icc_profile: Path | None = None
    ink_limit: float | None = None  # a print service's total-ink cap (2.4 = 240 %); None: the profile's own

    def checked(self) -> "ColorOptions":
        if self.mode not in COLOR_MODES:
            raise OptionError(f"--color {self.mode!r} is unknown; choose one of {', '.join(COLOR_MODES)}")
        standard(self.pdfx)
        if self.mode == "cmyk":
            output_profile(self.icc_profile)
        return self

    def apply(self, pdf: bytes, title: str, labels: dict[str, str]) -> bytes:
        if self.mode == "rgb":
            return pdf
        return convert(pdf, output_profile(self.icc_profile), self.pdfx, title, labels, self.ink_limit)


def _cmyk_pixels(image):
    """A CMYK image XObject's own pixels, its soft mask left out (pikepdf would apply the mask and
    turn the image into RGBA, losing the inks)."""
    import pikepdf

    size = (int(image.Width), int(image.Height))
    if int(image.get("/BitsPerComponent", 8)) == 8:
        try:
            data = image.read_bytes()
        except pikepdf.PdfError:
            data = b""  # a filter qpdf does not decode (DCT): let PdfImage decode it
        if len(data) == size[0] * size[1] * 4:
            return Image.frombytes("CMYK", size, data)
    return pikepdf.PdfImage(image).as_pil_image().convert("CMYK")


def _shading_inks(shading) -> list[float]:
    """Total ink at each colour a CMYK gradient's functions run between (its highest lies at one)."""
    import pikepdf

    if shading.get("/ColorSpace") != pikepdf.Name.DeviceCMYK:
        return []
    totals: list[float] = []
    pending = list(shading.Function) if isinstance(shading.get("/Function"), pikepdf.Array) else [shading.Function]
    while pending:
        function = pending.pop()
        pending.extend(function.get("/Functions") or [])
        totals += [sum(float(v) for v in function[key]) for key in ("/C0", "/C1") if key in function]
    return totals


def max_total_ink(pdf: bytes) -> float:
    """The highest total area coverage (C+M+Y+K, 2.4 = 240 %) anywhere in the file: every CMYK
    colour set in a page or form, every colour a gradient runs between, and every pixel of every
    CMYK image, read back from the bytes."""
    import pikepdf

    highest = 0.0
    seen: set[tuple[int, int]] = set()
    with pikepdf.open(io.BytesIO(pdf)) as document:
        def visit(owner, resources):
            nonlocal highest
            for operands, _operator in pikepdf.parse_content_stream(owner, "k K"):
                highest = max(highest, sum(float(v) for v in operands))
            for shading in ((resources or {}).get("/Shading") or {}).values():
                highest = max([highest] + _shading_inks(shading))
            for xobject in ((resources or {}).get("/XObject") or {}).values():
                if xobject.objgen in seen:
                    continue
                seen.add(xobject.objgen)
                if xobject.get("/Subtype") == "/Form":
                    visit(xobject, xobject.get("/Resources"))
                elif xobject.get("/ColorSpace") == pikepdf.Name.DeviceCMYK:
                    bands = _cmyk_pixels(xobject).split()
                    total = ImageMath.lambda_eval(lambda a: a["c"] + a["m"] + a["y"] + a["k"],
                                                  c=bands[0], m=bands[1], y=bands[2], k=bands[3])
                    highest = max(highest, total.getextrema()[1] / 255)

        for page in document.pages:
            visit(page, page.obj.get("/Resources"))
    return highest
