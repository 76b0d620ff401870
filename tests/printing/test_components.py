"""Components beyond cards through the CLI: `deckgen tuckbox` (sized from the cards, drawn with
the deck's back and name, fold and glue marks) and `deckgen tokens` (tokens drawn by a layout),
rasterised and read back. Also the Okabe-Ito palette and the {version_mark} layout value."""

from __future__ import annotations

import json

import pypdfium2 as pdfium

from tests.designer.tidepool import make

TOKENS = '''
[tuck_box]
stock_mm = 0.5

[[tokens]]
name = "Pearl"
count = 14
text = "1 point"
color = "okabe-ito.yellow"

[[tokens]]
name = "Storm"
count = 3
shape = "square"
size_mm = 20
kind = "tide"
'''


def _deck(tmp_path, extra: str = TOKENS):
    deck = make(tmp_path / "tidepool")
    deck.write_text(deck.read_text(encoding="utf-8") + extra, encoding="utf-8")
    return deck


def _page(path, scale: float = 2.0):
    document = pdfium.PdfDocument(path)
    page = document[0]
    return page.get_size(), page.get_textpage().get_text_range(), page.render(scale=scale).to_pil().convert("RGB")


def test_tuck_box_is_sized_from_the_cards_and_drawn_with_the_deck(tmp_path, run_cli):
    deck = _deck(tmp_path)
    result = run_cli("tuckbox", deck, "--paper", "all", "-o", tmp_path / "out", "--json")
    assert result.exit_code == 0, result.stdout + result.stderr
    said = json.loads(result.stdout)
    # 7 cards (2 conch, 1 high tide, 3 sardines, 1 grouper) x 0.5 mm + 2 x 1.5 mm clearance; poker 63x88 + 3 mm
    assert said["inside_mm"] == {"width": 66.0, "height": 91.0, "depth": 8.0}
    a4, letter = (tmp_path / "out" / "tidepool" / f"tidepool-tuckbox-{p}.pdf" for p in ("a4", "letter"))
    (width, height), text, image = _page(a4)
    assert (round(width), round(height)) == (595, 842)
    assert round(_page(letter)[0][0]) == 612
    assert "Tidepool" in text and "GLUE" in text and "2–4 players · 10 minutes" in text and "7 cards" in text
    # The back panel (left of the piece) shows the default back layout's ground; the front panel
    # a card with art. Measure the piece's printed extent: 2 x 66 + 2 x 8 + 10 mm glue = 158 mm.
    px_per_mm = 2.0 * 72 / 25.4
    rows = [y for y in range(image.height) if any(image.getpixel((x, y)) != (255, 255, 255)
                                                  for x in range(0, image.width, 4))]
    middle = (rows[0] + rows[-1]) // 2 if rows else 0
    inked = [x for x in range(image.width) if image.getpixel((x, middle)) != (255, 255, 255)]
    printed_mm = (inked[-1] - inked[0]) / px_per_mm
    assert 158 + 2 <= printed_mm <= 158 + 2 * 2 + 1  # the glue flap has no bleed, the back panel has 2 mm


def test_a_big_deck_makes_a_deeper_box_and_a_box_too_big_is_refused(tmp_path, run_cli):
    deck = _deck(tmp_path, TOKENS.replace("stock_mm = 0.5", "stock_mm = 1.5").replace(
        "[tuck_box]", "[tuck_box]\nclearance_mm = 10"))
    result = run_cli("tuckbox", deck, "-o", tmp_path / "out")
    assert result.exit_code == 2
    said = result.stdout + result.stderr
    assert "does not fit on a4 paper" in said and "--paper letter" in said and "Traceback" not in said


def test_tokens_are_drawn_by_their_layout_and_cut_round(tmp_path, run_cli):
    deck = _deck(tmp_path)
    result = run_cli("tokens", deck, "-o", tmp_path / "out", "--json")
    assert result.exit_code == 0, result.stdout + result.stderr
    said = json.loads(result.stdout)
    assert said["tokens"] == 17 and said["pages"] == 1
    (_, _), text, image = _page(said["file"])
    assert text.count("Pearl") == 14 and text.count("Storm") == 3 and "1 point" in text
    scale = 2.0 * 72 / 25.4
    # The first pearl: 10 mm margin + 2 mm bleed, 25 mm across; its centre has the Okabe-Ito yellow,
    # just outside its disc (in the square it stands in) is paper.
    left, top = 12 * scale, 12 * scale
    ring_free = image.getpixel((int(left + 25 * scale * 0.5), int(top + 25 * scale * 0.9)))
    assert ring_free == (0xf0, 0xe4, 0x42)
    corner = image.getpixel((int(left - 1.5 * scale), int(top - 1.5 * scale)))
    assert corner == (255, 255, 255)


def test_a_token_whose_text_cannot_fit_is_named(tmp_path, run_cli):
    deck = _deck(tmp_path, TOKENS.replace('text = "1 point"', 'text = "' + "a very long text " * 12 + '"'))
    result = run_cli("tokens", deck, "-o", tmp_path / "out")
    assert result.exit_code == 1
    said = result.stdout + result.stderr
    assert "token 'Pearl'" in said and "tokens[0].text" in said and "Traceback" not in said
    checked = run_cli("validate", deck, "--simulate", "0")  # validate finds it too, at the token's line
    line = deck.read_text(encoding="utf-8").splitlines().index('name = "Pearl"')
    assert checked.exit_code == 1
    assert any(f"tidepool.toml:{number}: error: tokens[0].text" in checked.stdout
               for number in range(line, line + 5))


def test_an_unknown_token_layout_or_colour_is_an_error_at_its_line(tmp_path, run_cli):
    deck = _deck(tmp_path, TOKENS.replace('name = "Storm"', 'name = "Storm"\nlayout = "nope"'))
    result = run_cli("validate", deck, "--simulate", "0")
    said = result.stdout + result.stderr
    assert result.exit_code != 0 and "tokens[1].layout" in said and "unknown layout 'nope'" in said
    deck = _deck(tmp_path, TOKENS.replace("okabe-ito.yellow", "okabe-ito.mauve"))
    said = run_cli("validate", deck, "--simulate", "0")
    assert said.exit_code != 0 and "tokens[0].color" in said.stdout + said.stderr


def test_version_mark_and_palette_colours_reach_the_card(tmp_path, run_cli):
    deck = make(tmp_path / "tidepool")
    text = deck.read_text(encoding="utf-8").replace('version = "0.1"', 'version = "0.1"\nversion_mark = true')
    text = text.replace('color = "#2e7d4f"', 'color = "okabe-ito.bluish-green"')
    deck.write_text(text, encoding="utf-8")
    layouts = deck.parent / "layouts" / "tide.toml"
    layouts.write_text(layouts.read_text(encoding="utf-8") + '''
[[layouts.pool.elements]]
name = "mark"
type = "text"
text = "{version_mark}"
x = "5mm"
y = "100% - 3mm"
width = "100% - 10mm"
height = "3mm"
anchor = "bottom-left"
size = 5
''', encoding="utf-8")
    result = run_cli("print", deck, "--one-per-page", "-o", tmp_path / "out")
    assert result.exit_code == 0, result.stdout + result.stderr
    document = pdfium.PdfDocument(tmp_path / "out" / "tidepool" / "tidepool-cards.pdf")
    faces = [document[i].get_textpage().get_text_range() for i in range(0, len(document), 2)]
    assert any("v0.1 · CO" in face for face in faces) and any("v0.1 · GR" in face for face in faces)
    images = run_cli("images", deck, "--card", "HT", "-o", tmp_path / "out", "--dpi", "30")
    assert images.exit_code == 0
    from PIL import Image
    picture = Image.open(tmp_path / "out" / "tidepool" / "images" / "ht.png").convert("RGB")
    assert picture.getpixel((2, 2)) == (0x00, 0x9e, 0x73)  # the text layout's frame in the kind's colour


def test_the_box_sets_a_time_range_with_an_en_dash_and_curly_quotes(tmp_path, run_cli):
    deck = _deck(tmp_path)
    source = deck.read_text(encoding="utf-8")
    assert 'play_time = "10 minutes"' in source
    deck.write_text(source.replace('play_time = "10 minutes"', 'play_time = "10-15 minutes"')
                    .replace("[tuck_box]\n", '[tuck_box]\ntitle = "Tidepool\'s \\"Big\\" Box"\n'), encoding="utf-8")
    result = run_cli("tuckbox", deck, "--paper", "a4", "-o", tmp_path / "out")
    assert result.exit_code == 0, result.stdout + result.stderr
    text = _page(tmp_path / "out" / "tidepool" / "tidepool-tuckbox-a4.pdf")[1]
    assert "10–15 minutes" in text and "Tidepool’s “Big” Box" in text
