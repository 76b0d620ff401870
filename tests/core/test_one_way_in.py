"""Every file deckgen reads is opened by `generator.core.files`: a scan of generator/ for any
other way of opening a file (open, os.open, read_text/read_bytes, Pillow's, openpyxl's,
svglib's, littleCMS's, reportlab's font and image readers, zip files and Jinja loaders by
name), where only the calls listed below, each with its reason, may stay."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.conftest import ROOT

PACKAGE = ROOT / "generator"
# Calls (or attribute names) that open a file by its name.
OPENERS = {"open", "read_text", "read_bytes", "load_workbook", "svg2rlg", "load_svg_file", "getOpenProfile",
           "TTFontFile", "ImageReader", "fdopen", "ZipFile", "FileSystemLoader", "from_file_path", "copy2",
           "copyfile", "drawImage", "parse", "PdfDocument"}
# What a call opens when its first argument is one of these: bytes in memory, not a file.
IN_MEMORY = ("io.BytesIO(", "BytesIO(", "buffer.getvalue()", "raw", "data", "padded", "prepared", "_tinted(", "_grey(", "written", "handle", "named",
             "fileobj=", "faces.pdf", "self.rulebook.pdf", "ImageReader(")
# Writing is output's business (`core.output`, sealed cache entries): only reads are scanned.
WRITES = ("'wb'", "'w'", "O_WRONLY")
XML_MODULES = ("ET", "etree", "ElementTree", "minidom")
# file: call -> why it may open a file by name.
ALLOWED = {
    "core/files.py": {"os.open(target, flags)": "the opener itself",
                      "io.open(descriptor, 'rb', closefd=True)": "the opener wraps the descriptor it checked"},
    "core/output.py": {"os.open(temp, flags, 438)": "creates an output file (writing, O_EXCL)"},
    "printing/pdfx.py": {"image.read_bytes()": "a pikepdf image object's stream, in a PDF deckgen wrote: no file"},
    "build/run.py": {"os.open(output_dir, os.O_RDONLY)": "locks the output folder (a folder, never read)"},
    "build/uptodate.py": {
        "os.open(output_dir, os.O_RDONLY)": "locks the output folder (a folder, never read)",
        "os.open(final, os.O_RDONLY | getattr(os, 'O_DIRECTORY', 0))": "a folder descriptor for lstat(dir_fd=)",
    },
    "build/steps.py": {"shutil.copy2(final / name, destination)":
                       "copies a file this build wrote, checked regular by `unchanged` (lstat) first"},
    "faces/art.py": {"canvas.drawImage(str(path), left, bottom, drawn_w, drawn_h, mask='auto')":
                     "reportlab embeds a raster image once per PDF by its name (a JPEG as it is); "
                     "draw_image checks the file through the opener just before"},
    "rulebook/webfonts.py": {"uharfbuzz.Blob.from_file_path(str(FONT_DIR / FACES[key]))":
                             "a font shipped inside deckgen's package"},
    "rulebook/templated.py": {"open('/proc/self/statm')": "the kernel's memory figures for the template budget"},
    "export/cards.py": {"zipfile.ZipFile(out, 'w', zipfile.ZIP_DEFLATED)": "writes into memory"},
    "export/lackey.py": {"zipfile.ZipFile(buffer, 'w')": "writes into memory"},
    "printing/services.py": {"zipfile.ZipFile(buffer, 'w', zipfile.ZIP_DEFLATED)": "writes into memory"},
    "rulebook/pdf_page.py": {"super().drawImage(image, x, y, width, height, *args, **kwargs)":
                             "an <img> of a paragraph: only deckgen's icon placeholders (data: URIs; deck prose is escaped)"},
    "core/localweb.py": {"webbrowser.open(url)": "opens the browser, not a file",
                         "jinja2.FileSystemLoader(folder)": "the page templates shipped with deckgen (preview, play)"},
}
# Jinja environments over deckgen's own shipped templates (the designer's go through the opener).
SHIPPED_TEMPLATES = ("FileSystemLoader(TEMPLATES", "jinja2.FileSystemLoader(TEMPLATES")


def _calls():
    for path in sorted(PACKAGE.rglob("*.py")):
        relative = path.relative_to(PACKAGE).as_posix()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            function = node.func
            name = function.id if isinstance(function, ast.Name) else getattr(function, "attr", None)
            if name in OPENERS:
                yield relative, node.lineno, name, ast.unparse(node)


def _reads_memory(name: str, source: str) -> bool:
    """Whether a call found by name reads no file: a parser of a string, a reader of bytes in
    memory, a writer, or Jinja over deckgen's own templates."""
    if name == "parse":  # markup.parse(text), figures.parse(...) parse strings; XML parsers read files
        return not source.startswith(tuple(f"{module}.parse(" for module in XML_MODULES))
    inside = source[source.index("(") + 1:]
    return inside.startswith(IN_MEMORY) or source.startswith(SHIPPED_TEMPLATES) or any(w in source for w in WRITES)


def test_no_file_is_opened_around_the_opener():
    found = []
    for relative, line, name, source in _calls():
        if source in ALLOWED.get(relative, {}) or _reads_memory(name, source):
            continue
        found.append(f"generator/{relative}:{line}: {source}")
    assert not found, "open these through generator.core.files (or list them in ALLOWED with the reason):\n" + \
        "\n".join(found)


def test_the_allowed_list_is_not_stale():
    seen = {(relative, source) for relative, _, _, source in _calls()}
    stale = [f"{relative}: {source}" for relative, calls in ALLOWED.items() for source in calls
             if (relative, source) not in seen]
    assert not stale, "no longer in the code, drop them from ALLOWED:\n" + "\n".join(stale)


def test_the_scan_finds_a_raw_open(tmp_path):
    """The scan is not blind: each way of opening by name it looks for is caught in a sample."""
    samples = ["open(path)", "open(path, 'rb')", "os.open(path, os.O_RDONLY)", "path.read_text()", "Image.open(path)",
               "load_workbook(path)", "svg2rlg(str(path))", "ImageCms.getOpenProfile(str(path))",
               "TTFontFile(str(path))", "zipfile.ZipFile(path)", "jinja2.FileSystemLoader(folder)",
               "etree.parse(path)", "canvas.drawImage(str(path), 0, 0)", "shutil.copy2(a, b)"]
    for sample in samples:
        node = ast.parse(sample).body[0].value
        function = node.func
        name = function.id if isinstance(function, ast.Name) else function.attr
        assert name in OPENERS and not _reads_memory(name, ast.unparse(node)), sample
