"""`deckgen print DECK --service NAME`: each print service's files, sizes, colour mode and zip, and
its rules enforced card by card."""

from __future__ import annotations

import csv
import json
import zipfile
from dataclasses import replace

import pytest
import pypdf
from PIL import Image, ImageMath

from tests.conftest import DECK_PATHS, DECKS, ROOT
from tests.printing.test_pdfx import _images, _streams, check_pdfx
from tests.faces.test_render import deck_with_layout, text_cards, write_deck
from generator.deck.loader import load_deck
from generator.faces import service_specs
from generator.printing.services import rule_problems, write_service
from generator.deck.sizes import pt

QV2 = DECKS / "quidditch-v2.toml"


@pytest.mark.parametrize("name", sorted(service_specs.SERVICES))
def test_the_shipped_decks_pass_every_services_rules(name):
    spec = service_specs.SERVICES[name]
    decks = [load_deck(path) for path in DECK_PATHS]
    checked = [deck for deck in decks if deck.card_size.name in spec.trims_mm]
    assert len(checked) == len(decks)  # every shipped deck is a size each service prints
    for deck in checked:
        assert rule_problems(deck, spec) == [], (deck.id, name)


def edgy_deck(tmp_path):
    """Two text cards; the second takes a layout whose title sits 2 mm inside the cut."""
    path = write_deck(tmp_path, text_cards(2))
    path.write_text(path.read_text().replace('code = "C2"', 'code = "C2"\nlayout = "edgy"', 1) + """
[layouts.edgy]
extends = "text"

[[layouts.edgy.elements]]
name = "name"
x = "2mm"
""")
    return path


@pytest.mark.parametrize("name", sorted(service_specs.SERVICES))
def test_text_in_the_cut_zone_fails_naming_the_card_line_and_the_rule(run_cli, tmp_path, name):
    path = edgy_deck(tmp_path)
    result = run_cli("print", path, "-o", tmp_path / "out", "--service", name)
    spec = service_specs.SERVICES[name]
    assert result.exit_code == 1, result.stderr
    line = next(number for number, row in enumerate(path.read_text().splitlines(), 1) if 'name = "Card 2"' in row)
    assert f"{path}:{line}:" in result.stderr, result.stderr
    assert "card 'Card 2': its name reaches 2.0" in result.stderr  # 2 mm at the deck's size, scaled to the service's trim
    assert f"{spec.title} keeps text {spec.safe_mm:.2f} mm inside the cut (safe zone)" in result.stderr
    assert "Card 1" not in result.stderr
    assert not (tmp_path / "out" / "tiny").exists()


def test_a_size_the_service_does_not_print_is_refused(run_cli, tmp_path):
    deck = write_deck(tmp_path, text_cards(2))
    deck.write_text(deck.read_text().replace('players = {', 'card_size = "square"\nplayers = {', 1))
    result = run_cli("print", deck, "-o", tmp_path / "out", "--service", "mpc")
    assert result.exit_code == 2
    assert "MakePlayingCards (--service mpc) prints poker, poker-in cards" in result.stderr
    assert "is square" in result.stderr
    unknown = run_cli("print", deck, "-o", tmp_path / "out", "--service", "kinkos")
    assert unknown.exit_code == 2 and "--service 'kinkos'" in unknown.stderr


@pytest.mark.parametrize("name, size", [("tgc", (825, 1125)), ("mpc", (822, 1122)), ("printerstudio", (822, 1122))])
def test_image_services_get_exact_pixels_rgb_pngs_a_manifest_and_a_zip(run_cli, tmp_path, name, size):
    deck = load_deck(write_deck(tmp_path, text_cards(3)))
    result = run_cli("print", deck.source, "-o", tmp_path / "out", "--service", name)
    assert result.exit_code == 0, result.stderr
    folder = tmp_path / "out" / "tiny" / name
    names = sorted(p.name for p in folder.iterdir())
    assert names == sorted([f"{card.id}.png" for card in deck.cards] + ["back.png", "cards.csv"])
    for png in folder.glob("*.png"):
        with Image.open(png) as image:
            assert image.format == "PNG" and image.mode == "RGB" and image.size == size, png
            assert image.info["dpi"] == pytest.approx((300, 300), abs=0.01)
    rows = list(csv.DictReader((folder / "cards.csv").open()))
    assert rows[-1] == {"file": "back.png", "card": "card back", "count": str(deck.total), "back": ""}
    assert {row["back"] for row in rows[:-1]} == {"back.png"}
    with zipfile.ZipFile(tmp_path / "out" / "tiny" / f"tiny-{name}.zip") as archive:
        assert sorted(archive.namelist()) == names
        assert archive.read("back.png") == (folder / "back.png").read_bytes()
    first = (tmp_path / "out" / "tiny" / f"tiny-{name}.zip").read_bytes()
    assert run_cli("print", deck.source, "-o", tmp_path / "out", "--service", name).exit_code == 0
    assert (tmp_path / "out" / "tiny" / f"tiny-{name}.zip").read_bytes() == first  # deterministic


def test_drivethrucards_gets_one_cmyk_pdf_x1a_2003_page_per_side_at_2_75_by_3_75_in(tmp_path):
    deck = load_deck(QV2)
    files, archive, _max_ink = write_service(deck, tmp_path, "dtc")
    (pdf,) = files
    assert pdf.name == "quidditch-v2-dtc.pdf"
    data = pdf.read_bytes()
    reader = check_pdfx(data, "PDF/X-1a:2003", "1.4", transparency_allowed=False)
    assert len(reader.pages) == 2 * deck.total
    for page in (reader.pages[0], reader.pages[-1]):
        assert [float(v) for v in page.mediabox] == pytest.approx([0, 0, 2.75 * 72, 3.75 * 72], abs=0.01)
        assert [float(v) for v in page["/TrimBox"]] == pytest.approx([9, 9, 9 + 2.5 * 72, 9 + 3.5 * 72], abs=0.01)
    with zipfile.ZipFile(archive) as bundle:
        assert bundle.namelist() == ["quidditch-v2-dtc.pdf"]


def test_rule_check_measures_at_the_service_s_trim(tmp_path):
    deck = load_deck(edgy_deck(tmp_path))
    spec = service_specs.SERVICES["tgc"]
    problems = rule_problems(deck, spec)
    assert problems and all("The Game Crafter" in p.message for p in problems)
    # 2 mm at the deck's 63 mm width is 2.02 mm at The Game Crafter's 63.5 mm trim.
    assert not rule_problems(deck, replace(spec, safe_mm=2.01))
    assert rule_problems(deck, replace(spec, safe_mm=2.03))
    assert pt(spec.safe_mm) == pytest.approx(9.0)  # 1/8 in


def _page_texts(pdf_path) -> list[str]:
    """Each page's text as pdfium (a second renderer, not the writer's) reads it."""
    import pypdfium2

    document = pypdfium2.PdfDocument(pdf_path)
    return [" ".join(document[index].get_textpage().get_text_range().split()) for index in range(len(document))]


def test_drivethrucards_pages_run_back_then_face_for_every_card(run_cli, tmp_path):
    deck = load_deck(write_deck(tmp_path, text_cards(3)))
    result = run_cli("print", deck.source, "-o", tmp_path / "out", "--service", "dtc")
    assert result.exit_code == 0, result.stderr
    texts = _page_texts(tmp_path / "out" / "tiny" / "dtc" / "tiny-dtc.pdf")
    assert len(texts) == 2 * deck.total
    faces = [card.name for card in deck.copies()]
    for number, name in enumerate(faces):
        back, face = texts[2 * number], texts[2 * number + 1]
        assert name in face and name not in back, (number, back, face)
    assert len(set(texts[0::2])) == 1  # every odd page is the same shared back


@pytest.mark.parametrize("args, refused", [
    (["--card-size", "tarot"], "--card-size"), (["--bleed", "0"], "--bleed"), (["--paper", "letter"], "--paper"),
    (["--duplex", "short-edge"], "--duplex"), (["--one-per-page", "--proof"], "--proof, --one-per-page"),
    (["--gap", "2", "--calibration"], "--gap, --calibration")])
@pytest.mark.parametrize("name", ["dtc", "tgc"])
def test_a_service_refuses_each_option_it_cannot_honour_by_name(run_cli, tmp_path, name, args, refused):
    path = write_deck(tmp_path, text_cards(2))
    result = run_cli("print", path, "-o", tmp_path / "out", "--service", name, *args)
    assert result.exit_code == 2, result.stderr
    assert f"--service {name} cannot honour {refused}:" in result.stderr, result.stderr
    assert "sets the card size, bleed" in result.stderr and "Traceback" not in result.stderr
    assert not (tmp_path / "out").exists()


def test_an_image_service_refuses_cmyk_and_pdfx_a_pdf_service_honours_them(run_cli, tmp_path):
    path = write_deck(tmp_path, text_cards(2))
    result = run_cli("print", path, "-o", tmp_path / "out", "--service", "mpc", "--color", "cmyk", "--pdfx", "x4")
    assert result.exit_code == 2 and "--service mpc cannot honour --color, --pdfx:" in result.stderr, result.stderr
    assert "colour (RGB)" in result.stderr
    honoured = run_cli("print", path, "-o", tmp_path / "out", "--service", "dtc", "--color", "cmyk")
    assert honoured.exit_code == 0, honoured.stderr


def test_a_translucent_layout_goes_to_drivethrucards_flattened_or_as_pdf_x4_when_asked(run_cli, tmp_path):
    path = deck_with_layout(tmp_path, "glass", 'name = "panel"\ntype = "shape"\nx = "10mm"\ny = "10mm"\n'
                                               'width = "20mm"\nheight = "20mm"\nfill = "#204080"\nopacity = 0.5')
    flattened = run_cli("print", path, "-o", tmp_path / "flat", "--service", "dtc")
    assert flattened.exit_code == 0, flattened.stderr  # DTC's PDF/X-1a:2003, the panel flattened...
    flat = check_pdfx((tmp_path / "flat" / "tiny" / "dtc" / "tiny-dtc.pdf").read_bytes(), "PDF/X-1a:2003", "1.4",
                      transparency_allowed=False)
    assert len(flat.pages) == 4
    result = run_cli("print", path, "-o", tmp_path / "out", "--service", "dtc", "--pdfx", "x4")
    assert result.exit_code == 0, result.stderr  # ...and it works
    data = (tmp_path / "out" / "tiny" / "dtc" / "tiny-dtc.pdf").read_bytes()
    reader = check_pdfx(data, "PDF/X-4", "1.6", transparency_allowed=True)
    assert len(reader.pages) == 4
    alphas = {float(state.get_object().get("/ca", 1)) for _where, _ops, resources in _streams(reader)
              for state in ((resources or {}).get("/ExtGState") or {}).values()}
    assert 0.5 in alphas, alphas  # the panel kept its transparency


def _total_ink_by_pypdf(pdf_path) -> float:
    """Highest C+M+Y+K, read with pypdf (not deckgen's own measurer): every k/K operand in every page
    and form, and every pixel of every CMYK image."""
    reader = pypdf.PdfReader(pdf_path)
    highest = 0.0
    for _where, operations, _resources in _streams(reader):
        for operands, operator in operations:
            if operator in (b"k", b"K"):
                highest = max(highest, sum(float(v) for v in operands))
    for image in _images(reader):
        if image["/ColorSpace"] == "/DeviceCMYK":
            pixels = Image.frombytes("CMYK", (image["/Width"], image["/Height"]), image.get_data())  # decoded
            c, m, y, k = pixels.split()
            total = ImageMath.lambda_eval(lambda a: a["c"] + a["m"] + a["y"] + a["k"], c=c, m=m, y=y, k=k)
            highest = max(highest, total.getextrema()[1] / 255)
    return highest


def test_drivethrucards_total_ink_stays_within_240_percent_and_is_reported(run_cli, tmp_path):
    wizard = DECKS / "wizard.toml"
    plain = run_cli("print", wizard, "-o", tmp_path / "plain", "--one-per-page", "--color", "cmyk")
    assert plain.exit_code == 0, plain.stderr
    unlimited = _total_ink_by_pypdf(tmp_path / "plain" / "wizard" / "wizard-cards-cmyk.pdf")
    assert unlimited > 2.5  # the profile alone builds the navy back's darks past DTC's limit
    result = run_cli("print", wizard, "-o", tmp_path / "out", "--service", "dtc", "--json")
    assert result.exit_code == 0, result.stderr
    reported = json.loads(result.stdout)["max_total_ink_percent"]
    measured = _total_ink_by_pypdf(tmp_path / "out" / "wizard" / "dtc" / "wizard-dtc.pdf")
    assert measured <= 2.4 + 1 / 255 and reported <= 240.0
    assert reported == pytest.approx(measured * 100, abs=0.5)
    assert "highest total ink (C+M+Y+K) measured in the file: 240%" in run_cli(
        "print", wizard, "-o", tmp_path / "out", "--service", "dtc").stdout


def test_a_designer_deck_with_art_and_translucent_panels_stays_within_dtc_s_ink_limit(run_cli, tmp_path):
    """Own art images (with soft masks) and see-through panels, as PDF/X-4: every pixel counted."""
    deck = ROOT / "examples" / "designer" / "cauldron-club.toml"
    result = run_cli("print", deck, "-o", tmp_path, "--service", "dtc", "--pdfx", "x4", "--json")
    assert result.exit_code == 0, result.stderr
    pdf = tmp_path / "cauldron-club" / "dtc" / "cauldron-club-dtc.pdf"
    assert any(image["/ColorSpace"] == "/DeviceCMYK" for image in _images(pypdf.PdfReader(pdf)))
    assert _total_ink_by_pypdf(pdf) <= 2.4 + 1 / 255
    assert json.loads(result.stdout)["max_total_ink_percent"] <= 240.0


@pytest.mark.parametrize("x, passes", [("20mm", True), ("1mm", False)])
def test_turned_text_is_measured_where_it_is_drawn_not_at_its_anchor(run_cli, tmp_path, x, passes):
    """A title turned a quarter in the middle of the card used to 'reach −20 mm from the cut'."""
    path = deck_with_layout(tmp_path, "turned", f'name = "name"\nx = "{x}"\ny = "30mm"\nwidth = "30mm"\n'
                                                 'height = "8mm"\nrotate = 90')
    result = run_cli("print", path, "-o", tmp_path / "out", "--service", "tgc")
    if passes:
        assert result.exit_code == 0, result.stderr
    else:
        assert result.exit_code == 1 and "its name reaches" in result.stderr, result.stderr
        assert "reaches -" not in result.stderr and "reaches −" not in result.stderr
