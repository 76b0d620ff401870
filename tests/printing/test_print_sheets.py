"""Print sheets as a print shop would check them: read back from the PDF, every card's bleed, every
crop mark's place and length, back offsets, sides, fold-over and proof sheets, and the calibration sheet."""

from __future__ import annotations

import io
import itertools

import pypdf
import pypdfium2
import pytest

from tests.conftest import DECKS
from tests.pdf_support import page_content
from tests.faces.test_render import text_cards, write_deck
from generator.core.errors import OptionError
from generator.deck.loader import load_deck
from generator.deck.model import CARD_SIZES_MM
from generator.printing import sheets
from generator.printing.layout import MARK_OFFSET_MM, MIN_MARK_MM, sheet_layout
from generator.printing.sheets import SheetOptions
from generator.deck.sizes import PAPERS_MM, pt

WIZARD = DECKS / "wizard.toml"
TOLERANCE = 0.01
SPACINGS = [(3.0, None), (3.0, 0.0), (1.5, 3.0), (0.0, 0.0), (2.0, None), (3.175, 1.0)]


def _layouts():
    for paper, size, (bleed, gap) in itertools.product(sorted(PAPERS_MM), sorted(CARD_SIZES_MM), SPACINGS):
        try:
            yield paper, size, bleed, gap, sheet_layout(paper, CARD_SIZES_MM[size], bleed, gap)
        except OptionError as error:
            assert "--" in str(error)  # names an option to change
            continue


def _occupancies(layout):
    """Full, one card, and a partly filled last sheet with a row and a half."""
    counts = {layout.per_page, 1, min(layout.per_page, layout.columns + max(1, layout.columns // 2))}
    return [range(count) for count in sorted(counts)]


def _touches(mark, rect, margin=0.0) -> bool:
    x0, y0, x1, y1 = mark
    return (min(x0, x1) < rect.right + margin and max(x0, x1) > rect.x - margin and
            min(y0, y1) < rect.top + margin and max(y0, y1) > rect.y - margin)


def test_every_layout_keeps_marks_printable_visible_and_off_every_bleed():
    checked = 0
    for paper, size, bleed, gap, layout in _layouts():
        for occupied in _occupancies(layout):
            clips = layout.clips(occupied)
            marks = layout.marks(occupied)
            assert marks, (paper, size)
            for mark in marks:
                x0, y0, x1, y1 = mark
                where = (paper, size, bleed, gap, mark)
                for value, limit in ((x0, layout.page_width), (x1, layout.page_width),
                                     (y0, layout.page_height), (y1, layout.page_height)):
                    low, high = layout.printer_margin - TOLERANCE, limit - layout.printer_margin + TOLERANCE
                    assert low <= value <= high, where
                assert abs(x1 - x0) + abs(y1 - y0) >= pt(MIN_MARK_MM) - TOLERANCE, where
                # No mark comes within its offset of any card's bleed.
                assert not any(_touches(mark, clip, pt(MARK_OFFSET_MM) - TOLERANCE) for clip in clips), where
            checked += 1
    assert checked > 100  # every paper, card size and spacing: not a vacuous loop


def test_every_card_has_bleed_on_all_four_sides_on_full_and_partial_sheets():
    for paper, size, bleed, gap, layout in _layouts():
        shared = min(layout.bleed, layout.gap / 2)
        for occupied in _occupancies(layout):
            used = set(occupied)
            for index, clip in zip(sorted(used), layout.clips(occupied)):
                slot = layout.slots[index]
                row, column = divmod(index, layout.columns)
                neighbours = {"left": column > 0 and index - 1 in used,
                              "right": column < layout.columns - 1 and index + 1 in used,
                              "up": index - layout.columns in used, "down": index + layout.columns in used}
                grown = {"left": slot.x - clip.x, "right": clip.right - slot.right,
                         "up": clip.top - slot.top, "down": slot.y - clip.y}
                for side, amount in grown.items():
                    want = shared if neighbours[side] else layout.bleed
                    assert amount == pytest.approx(want, abs=1e-6), (paper, size, bleed, gap, index, side)
                    if gap is None:  # the default gutter: every card its whole bleed, whatever its neighbours
                        assert amount == pytest.approx(layout.bleed, abs=1e-6)


@pytest.mark.parametrize("paper, deck_id", [("a4", "wizard"), ("letter", "quidditch-v2")])
def test_default_sheets_read_back_from_the_pdf(paper, deck_id):
    deck = load_deck(DECKS / f"{deck_id}.toml")
    options = SheetOptions(paper=paper)
    layout = options.layout(deck)
    reader = pypdf.PdfReader(io.BytesIO(sheets.print_sheets(deck, options)))
    per_page = layout.per_page
    sheet_count = -(-deck.total // per_page)
    assert len(reader.pages) == 2 * sheet_count
    assert deck.total % per_page, "the deck must leave a partly filled last sheet"
    for sheet in range(sheet_count):
        count = min(per_page, deck.total - sheet * per_page)
        faces = page_content(reader, 2 * sheet)
        assert len(faces.forms) == count
        for drawn, slot in zip(faces.forms, layout.slots):
            assert drawn.origin == pytest.approx((slot.x, slot.y), abs=TOLERANCE)
            x0, y0, x1, y1 = drawn.clip
            # Whole bleed on every side of every card, the last sheet's included.
            assert (slot.x - x0, y1 - slot.top, x1 - slot.right, slot.y - y0) == pytest.approx(
                (layout.bleed,) * 4, abs=TOLERANCE)
        for x0, y0, x1, y1 in faces.lines:
            assert min(x0, x1) >= layout.printer_margin - TOLERANCE
            assert max(x0, x1) <= layout.page_width - layout.printer_margin + TOLERANCE
            assert min(y0, y1) >= layout.printer_margin - TOLERANCE
            assert max(y0, y1) <= layout.page_height - layout.printer_margin + TOLERANCE
            assert abs(x1 - x0) + abs(y1 - y0) >= pt(MIN_MARK_MM) - TOLERANCE
        # the edge marks, and each gutter mark twice (a white edge under the black line)
        marks = list(layout.marks(range(count))) + 2 * list(layout.gutter_marks(range(count)))
        expected = sorted(tuple(round(v, 2) for v in mark) for mark in marks)
        assert sorted(tuple(round(v, 2) for v in mark) for mark in faces.lines) == expected
        backs = page_content(reader, 2 * sheet + 1)
        assert len(backs.forms) == count and not backs.lines


@pytest.mark.parametrize("paper", sorted(PAPERS_MM))
@pytest.mark.parametrize("size", sorted(CARD_SIZES_MM))
def test_every_card_size_reads_back_with_its_bleed_and_printable_marks(tmp_path, paper, size):
    deck = load_deck(write_deck(tmp_path, text_cards(5)))
    for bleed, gap in ((3.0, None), (1.5, 3.0), (3.0, 0.0)):
        options = SheetOptions(paper=paper, card_size=size, bleed_mm=bleed, gap_mm=gap)
        try:
            layout = options.layout(deck)
        except OptionError:
            continue  # named options to change: checked in the geometry tests
        reader = pypdf.PdfReader(io.BytesIO(sheets.print_sheets(deck, options)))
        count = min(5, layout.per_page)
        faces = page_content(reader, 0)
        for drawn, clip in zip(faces.forms, layout.clips(range(count))):
            assert drawn.clip == pytest.approx((clip.x, clip.y, clip.right, clip.top), abs=TOLERANCE)
        assert faces.lines
        for x0, y0, x1, y1 in faces.lines:
            assert layout.printer_margin - TOLERANCE <= min(x0, x1) and min(y0, y1) >= layout.printer_margin - TOLERANCE
            assert max(x0, x1) <= layout.page_width - layout.printer_margin + TOLERANCE
            assert max(y0, y1) <= layout.page_height - layout.printer_margin + TOLERANCE
            assert abs(x1 - x0) + abs(y1 - y0) >= pt(MIN_MARK_MM) - TOLERANCE


def test_a_gutter_holds_both_bleeds_by_default_and_shared_cuts_are_an_option():
    gutter = sheet_layout("a4", (63, 88), 3.0)
    assert gutter.gap == pytest.approx(pt(6))
    assert (gutter.orientation, gutter.columns, gutter.rows) == ("landscape", 4, 2)
    # White-edged cards need no bleed: shared cuts put nine on a portrait A4 sheet.
    shared = sheet_layout("a4", (63, 88), 0.0, 0.0)
    assert (shared.orientation, shared.columns, shared.rows) == ("portrait", 3, 3)
    cut_xs, _ = shared.cuts()
    assert len(cut_xs) == shared.columns + 1


def test_no_room_for_marks_is_an_error_that_names_the_options():
    with pytest.raises(OptionError) as caught:
        sheet_layout("letter", (150, 270), 3.0, printer_margin_mm=6)
    message = str(caught.value)
    assert "does not fit on letter" in message and "--paper a4" in message and "--card-size" in message
    with pytest.raises(OptionError) as caught:
        sheet_layout("a4", (190, 270), 3.0, printer_margin_mm=6)
    assert "--printer-margin" in str(caught.value) and "--bleed" in str(caught.value)


# Duplex and the back offset ---------------------------------------------------------------------

@pytest.mark.parametrize("paper, duplex", [("a4", "long-edge"), ("a4", "short-edge"), ("letter", "long-edge")])
@pytest.mark.parametrize("offset", [(0.0, 0.0), (1.5, -0.75)])
def test_backs_land_behind_faces_after_the_printer_offset_is_cancelled(paper, duplex, offset):
    deck = load_deck(WIZARD)
    options = SheetOptions(paper=paper, duplex=duplex, back_offset_mm=offset)
    layout = options.layout(deck)
    reader = pypdf.PdfReader(io.BytesIO(sheets.print_sheets(deck, options)))
    plain = pypdf.PdfReader(io.BytesIO(sheets.print_sheets(deck, SheetOptions(paper=paper, duplex=duplex))))
    faces, backs = page_content(reader, 0), page_content(reader, 1)
    unshifted = page_content(plain, 1)
    # Faces pages never move; backs pages move by exactly the shift, every one of them.
    assert [f.origin for f in faces.forms] == [f.origin for f in page_content(plain, 0).forms]
    shift = layout.back_shift(duplex, offset)
    assert abs(shift[0]) + abs(shift[1]) == pytest.approx(pt(abs(offset[0]) + abs(offset[1])))
    for moved, still in zip(backs.forms, unshifted.forms):
        assert moved.origin == pytest.approx((still.origin[0] + shift[0], still.origin[1] + shift[1]), abs=1e-3)
    # A printer that puts backs `offset` mm right and up (seen from the front) then lands them exactly.
    axis = layout.mirror_axis(duplex)
    for face, back in zip(faces.forms, backs.forms):
        x, y = back.origin
        if axis == "x":
            seen = (layout.page_width - x - layout.card_width, y)
        else:
            seen = (x, layout.page_height - y - layout.card_height)
        printed = (seen[0] + pt(offset[0]), seen[1] + pt(offset[1]))
        assert printed == pytest.approx(face.origin, abs=1e-3)


def test_landscape_sheets_turn_their_backs_about_the_paper_s_long_edge():
    layout = sheet_layout("a4", (63, 88), 3.0)
    assert layout.orientation == "landscape"
    assert layout.mirror_axis("long-edge") == "y" and layout.mirror_axis("short-edge") == "x"
    portrait = sheet_layout("a4", (63, 88), 3.0, orientation="portrait")
    assert portrait.mirror_axis("long-edge") == "x" and portrait.mirror_axis("short-edge") == "y"


def _rendered(data: bytes, page: int, dpi: int = 20):
    pdf = pypdfium2.PdfDocument(data)
    image = pdf[page].render(scale=dpi / 72).to_pil().convert("RGB")
    pdf.close()
    return image


@pytest.mark.parametrize("duplex", ["long-edge", "short-edge"])
def test_the_dark_back_is_behind_each_face_and_nothing_behind_empty_slots(tmp_path, duplex):
    deck = load_deck(write_deck(tmp_path, text_cards(4)))
    options = SheetOptions(paper="letter", duplex=duplex)
    layout = options.layout(deck)
    assert layout.per_page > 4
    data = sheets.print_sheets(deck, options)
    dpi = 20
    backs = _rendered(data, 1, dpi)
    turned = backs.transpose(0 if layout.mirror_axis(duplex) == "x" else 1)  # left-right, or top-bottom
    scale = dpi / 72
    for index, slot in enumerate(layout.slots):
        cx, cy = slot.center
        behind = turned.getpixel((int(cx * scale), int((layout.page_height - cy) * scale)))
        if index < 4:
            assert sum(behind) < 600, (index, behind)
        else:
            assert behind == (255, 255, 255), index


# Sides, fold-over, proof -------------------------------------------------------------------------

def test_fronts_only_and_backs_only():
    deck = load_deck(WIZARD)
    both = pypdf.PdfReader(io.BytesIO(sheets.print_sheets(deck)))
    fronts = pypdf.PdfReader(io.BytesIO(sheets.print_sheets(deck, SheetOptions(sides="fronts"))))
    backs = pypdf.PdfReader(io.BytesIO(sheets.print_sheets(deck, SheetOptions(sides="backs"))))
    assert len(fronts.pages) == len(backs.pages) == len(both.pages) // 2
    for number in range(len(fronts.pages)):
        assert [f.origin for f in page_content(fronts, number).forms] == \
            [f.origin for f in page_content(both, 2 * number).forms]
        assert [f.origin for f in page_content(backs, number).forms] == \
            [f.origin for f in page_content(both, 2 * number + 1).forms]
    assert fronts.trailer["/Root"]["/ViewerPreferences"]["/Duplex"] == "/Simplex"
    assert sheets.sheets_filename(deck, SheetOptions(sides="backs")) == "wizard-print-a4-backs.pdf"


def test_fold_over_sheets_put_each_back_beside_its_face_across_the_fold():
    deck = load_deck(WIZARD)
    options = SheetOptions(fold=True)
    layout = options.layout(deck)
    reader = pypdf.PdfReader(io.BytesIO(sheets.print_sheets(deck, options)))
    per_sheet = options.cards_per_sheet(layout)
    assert layout.columns % 2 == 0 and per_sheet == layout.per_page // 2
    assert len(reader.pages) == -(-deck.total // per_sheet)
    page = page_content(reader, 0)
    back_form = page.forms[1].form
    fold = layout.page_width / 2
    for face, back in zip(page.forms[0::2], page.forms[1::2]):
        assert back.form == back_form and face.form != back_form
        assert face.origin[0] + layout.card_width <= fold
        # Mirrored across the fold line: folding puts the back exactly behind the face.
        assert back.origin[0] == pytest.approx(2 * fold - face.origin[0] - layout.card_width, abs=1e-3)
        assert back.origin[1] == pytest.approx(face.origin[1], abs=1e-3)
    assert page.dashed and all(x0 == pytest.approx(fold) == x1 for x0, _y0, x1, _y1 in page.dashed)
    last = page_content(reader, len(reader.pages) - 1)
    assert len(last.forms) == 2 * (deck.total - per_sheet * (len(reader.pages) - 1))
    with pytest.raises(OptionError, match="--fold"):
        sheets.print_sheets(deck, SheetOptions(fold=True, calibration=True))


def test_proof_draws_cut_line_safe_area_and_corners_over_every_card():
    deck = load_deck(WIZARD)
    options = SheetOptions(proof=True)
    layout = options.layout(deck)
    reader = pypdf.PdfReader(io.BytesIO(sheets.print_sheets(deck, options)))
    faces = page_content(reader, 0)
    trims = {tuple(round(v, 2) for v in (s.x, s.y, s.right, s.top)) for s in layout.slots}
    safe = {tuple(round(v, 2) for v in (s.x + pt(3), s.y + pt(3), s.right - pt(3), s.top - pt(3)))
            for s in layout.slots}
    drawn = {tuple(round(v, 2) for v in rect) for rect in faces.rects}
    assert trims <= drawn and safe <= drawn
    assert (0.902, 0.0, 0.494) in faces.stroke_colors  # the cut line's magenta
    plain = page_content(pypdf.PdfReader(io.BytesIO(sheets.print_sheets(deck))), 0)
    assert not ({tuple(round(v, 2) for v in rect) for rect in plain.rects} & trims)



@pytest.mark.parametrize("corner, radius_mm", [("1/4in", 6.35), ("2", 2.0), ("square", 0.0)])
def test_proof_draws_the_corners_the_chosen_corner_radius_cuts(run_cli, tmp_path, corner, radius_mm):
    result = run_cli("print", WIZARD, "-o", tmp_path, "--proof", "--corner-radius", corner)
    assert result.exit_code == 0, result.stderr
    (pdf,) = (tmp_path / "wizard").glob("*-proof.pdf")
    faces = page_content(pypdf.PdfReader(pdf), 0)
    layout = SheetOptions(proof=True).layout(load_deck(WIZARD))
    # A rounded rectangle's bottom edge runs from x + r to right - r along the cut line.
    edges = {tuple(round(v, 1) for v in line) for line in faces.lines}
    for slot in layout.slots:
        bottom = tuple(round(v, 1) for v in (slot.x + pt(radius_mm), slot.y, slot.right - pt(radius_mm), slot.y))
        assert (bottom in edges) == (radius_mm > 0), (corner, bottom)
    corner_green = (0.165, 0.616, 0.227)
    assert (corner_green in faces.stroke_colors) == (radius_mm > 0)

# Calibration -------------------------------------------------------------------------------------

def test_calibration_sheet_has_true_rulers_instructions_and_mirrored_back_lines():
    deck = load_deck(WIZARD)
    options = SheetOptions(calibration=True, back_offset_mm=(1.0, 0.5))
    layout = options.layout(deck)
    data = sheets.print_sheets(deck, options)
    reader = pypdf.PdfReader(io.BytesIO(data))
    assert len(reader.pages) == len(pypdf.PdfReader(io.BytesIO(sheets.print_sheets(deck))).pages) + 2
    front_text = reader.pages[0].extract_text()
    for words in ("100 mm", "--back-offset RIGHT,UP", "deckgen printer save", "1, 0.5 mm"):
        assert words in front_text, words
    front = page_content(reader, 0)
    horizontal = sorted((abs(x1 - x0) for x0, y0, x1, y1 in front.lines if abs(y1 - y0) < 1e-6), reverse=True)
    assert horizontal[0] == pytest.approx(pt(101.6), abs=1e-3)  # the 4 in ruler
    assert horizontal[1] == pytest.approx(pt(100), abs=1e-3)  # the 100 mm ruler
    back = page_content(reader, 1)
    assert back.lines and (0.816, 0.008, 0.106) in back.stroke_colors
    for x0, y0, x1, y1 in front.lines + back.lines:
        for value, limit in ((x0, layout.page_width), (x1, layout.page_width),
                             (y0, layout.page_height), (y1, layout.page_height)):
            assert layout.printer_margin <= value + 1.0 and value <= limit - layout.printer_margin + 1.0


def test_seen_through_the_light_the_calibration_reads_the_offset_it_cancels():
    """Front and back rasterised and laid over each other as a light shows them: with a 2 mm
    correction already applied and a perfect printer, the red line sits 2 mm left of zero."""
    deck = load_deck(WIZARD)
    dpi = 200
    options = SheetOptions(paper="a4", calibration=True, back_offset_mm=(2.0, 0.0))
    layout = options.layout(deck)
    data = sheets.print_sheets(deck, options)
    back = _rendered(data, 1, dpi).transpose(0 if layout.mirror_axis("long-edge") == "x" else 1)
    from generator.printing.calibration import SCALE_GAP_MM, target_points

    x, y = target_points(layout)[0]
    scale = dpi / 72
    row = int((layout.page_height - (y - pt(SCALE_GAP_MM) - pt(1))) * scale)
    reds = [px for px in range(int((x - pt(8)) * scale), int((x + pt(8)) * scale))
            if back.getpixel((px, row))[0] > 150 and back.getpixel((px, row))[1] < 120]
    assert reds
    centre = sum(reds) / len(reds) / scale
    assert centre - x == pytest.approx(-pt(2.0), abs=pt(0.2))


# Print-and-cut -----------------------------------------------------------------------------------

def test_print_and_cut_sheets_carry_silhouette_marks_and_an_svg_that_matches(run_cli, tmp_path):
    import xml.etree.ElementTree as ElementTree

    from generator.printing.cutfile import CUTTER_BLEED_MM, CUTTER_GAP_MM, mark_rects_mm
    from generator.printing.layout import KEEP_CLEAR_MM

    deck = load_deck(WIZARD)
    result = run_cli("print", WIZARD, "-o", tmp_path, "--registration", "silhouette", "--json")
    assert result.exit_code == 0, result.stderr
    # without --bleed and --gap, the cutter's own: 0.5 mm bleed, 1 mm gap
    options = SheetOptions(registration="silhouette", bleed_mm=CUTTER_BLEED_MM, gap_mm=CUTTER_GAP_MM)
    layout = options.layout(deck)
    assert layout.per_page == 8  # as many poker cards as fit inside the marks
    folder = tmp_path / "wizard"
    reader = pypdf.PdfReader(folder / "wizard-print-a4-silhouette.pdf")
    faces = page_content(reader, 0)
    assert not faces.lines  # no crop marks: the machine cuts
    page_h_mm = layout.page_height / pt(1)
    marks_pt = [(pt(x), layout.page_height - pt(y + h), pt(x + w), layout.page_height - pt(y))
                for x, y, w, h in mark_rects_mm((layout.page_width / pt(1), page_h_mm))]
    drawn = {tuple(round(v, 2) for v in rect) for rect in faces.filled}
    assert {tuple(round(v, 2) for v in rect) for rect in marks_pt} <= drawn
    clear = pt(KEEP_CLEAR_MM) - TOLERANCE
    for mark in marks_pt:  # no mark comes within 1 mm of any card's bleed
        for clip in layout.clips():
            assert not (mark[0] - clear < clip.right and mark[2] + clear > clip.x
                        and mark[1] - clear < clip.top and mark[3] + clear > clip.y)
    for drawn_form, clip in zip(faces.forms, layout.clips()):
        assert drawn_form.clip == pytest.approx((clip.x, clip.y, clip.right, clip.top), abs=TOLERANCE)
    back_fills = {tuple(round(v, 2) for v in rect) for rect in page_content(reader, 1).filled}
    assert not back_fills & {tuple(round(v, 2) for v in rect) for rect in marks_pt}
    # The SVG: the same page, the same marks, one rounded outline per card where the PDF puts it.
    svg = ElementTree.parse(folder / "wizard-print-a4-silhouette-cut.svg").getroot()
    ns = {"svg": "http://www.w3.org/2000/svg"}
    assert layout.orientation == "landscape"  # A4 turned: four cards across
    assert svg.get("width") == "297mm" and svg.get("viewBox") == "0 0 297 210"
    cuts = svg.findall("svg:g[@id='cut']/svg:rect", ns)
    assert len(cuts) == layout.per_page
    for rect, slot in zip(cuts, layout.slots):
        assert float(rect.get("x")) == pytest.approx(slot.x / pt(1), abs=1e-3)
        assert float(rect.get("y")) == pytest.approx(page_h_mm - slot.top / pt(1), abs=1e-3)
        assert float(rect.get("rx")) == pytest.approx(3.2)  # the poker card's own corner
    svg_marks = [tuple(float(r.get(k)) for k in ("x", "y", "width", "height"))
                 for r in svg.findall("svg:g[@id='registration']/svg:rect", ns)]
    assert [v for mark in svg_marks for v in mark] == pytest.approx(
        [v for mark in mark_rects_mm((297, 210)) for v in mark])
    # A partly filled last sheet gets its own cut file.
    partial = load_deck(write_deck(tmp_path, text_cards(layout.per_page + 1)))
    assert run_cli("print", partial.source, "-o", tmp_path / "p", "--registration", "silhouette").exit_code == 0
    last = ElementTree.parse(tmp_path / "p" / "tiny" / "tiny-print-a4-silhouette-cut-last.svg").getroot()
    assert len(last.findall("svg:g[@id='cut']/svg:rect", ns)) == 1


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_print_and_cut_fits_eight_poker_cards_with_the_chosen_corners(run_cli, tmp_path, paper):
    import xml.etree.ElementTree as ElementTree

    result = run_cli("print", WIZARD, "-o", tmp_path, "--registration", "silhouette", "--paper", paper,
                     "--corner-radius", "1/8in")
    assert result.exit_code == 0, result.stderr
    svg = ElementTree.parse(tmp_path / "wizard" / f"wizard-print-{paper}-silhouette-cut.svg").getroot()
    cuts = svg.findall("{http://www.w3.org/2000/svg}g[@id='cut']/{http://www.w3.org/2000/svg}rect")
    assert len(cuts) >= 8 and {rect.get("rx") for rect in cuts} == {"3.175"}
    reader = pypdf.PdfReader(tmp_path / "wizard" / f"wizard-print-{paper}-silhouette.pdf")
    assert len(page_content(reader, 0).forms) == len(cuts)
    # A hand-cut bleed still fits, fewer to a sheet; a corner larger than half the card is refused.
    hand_bleed = SheetOptions(paper=paper, registration="silhouette").layout(load_deck(WIZARD))
    assert hand_bleed.per_page == {"letter": 6, "a4": 4}[paper]
    refused = run_cli("print", WIZARD, "-o", tmp_path, "--registration", "silhouette", "--corner-radius", "40")
    assert refused.exit_code == 2 and "--corner-radius 40" in refused.stderr


def test_calibration_scale_digits_are_legible_at_arm_s_length(run_cli, tmp_path):
    """Every digit on the targets' scales is set at 10 pt or more, as pdfium reads the file."""
    result = run_cli("print", WIZARD, "-o", tmp_path, "--calibration")
    assert result.exit_code == 0, result.stderr
    (pdf,) = (tmp_path / "wizard").glob("*.pdf")
    document = pypdfium2.PdfDocument(pdf)
    text = document[0].get_textpage()
    from generator.printing.calibration import target_points

    layout = SheetOptions(calibration=True).layout(load_deck(WIZARD))
    near_targets = []
    for index in range(text.count_chars()):
        character = text.get_text_range(index, 1)
        left, bottom, right, top = text.get_charbox(index)
        if character.isdigit() and any(abs(left - x) < pt(25) and abs(bottom - y) < pt(25)
                                       for x, y in target_points(layout)):
            near_targets.append(pypdfium2.raw.FPDFText_GetFontSize(text.raw, index))
    assert len(near_targets) == 5 * 2 * 5  # five targets, two scales, digits 4 2 0 2 4
    assert min(near_targets) >= 10, sorted(set(near_targets))
