"""`deckgen tuckbox DECK --service tgc`: The Game Crafter's poker tuck box upload image, read back
as pixels. The safe zones below are TGC's, as Squib's tuck_box.yml gives them (the numbers the
module draws by are checked here against the picture, not against themselves)."""

from __future__ import annotations

import json

from PIL import Image

from tests.designer.tidepool import make

BACK = '''
[back]
title = "TIDEPOOL"
pattern = "stripes"
color = "#123456"
accent = "#e0c040"
'''
GROUND = (0x12, 0x34, 0x56)
ACCENT = (0xe0, 0xc0, 0x40)
CONCH_ART = (230, 180, 120)
# x, y, width, height in px from the top-left corner
ZONES = {"lid": (313, 198, 688, 167), "bottom": (313, 1526, 688, 167), "left side": (77, 466, 164, 988),
         "right side": (1080, 466, 164, 988), "back": (313, 466, 688, 989), "front": (1322, 466, 688, 989)}
NOTCH = (1550, 466, 215, 75)  # the thumb notch's box: x 1550-1765, down to y 541


def _deck(tmp_path, name: str | None = None, extra: str = BACK):
    deck = make(tmp_path / "tidepool")
    text = deck.read_text(encoding="utf-8") + extra
    if name is not None:
        text = text.replace('name = "Tidepool"', f'name = "{name}"', 1)
    deck.write_text(text, encoding="utf-8")
    return deck


def _box(run_cli, deck, out):
    result = run_cli("tuckbox", deck, "--service", "tgc", "-o", out, "--json")
    assert result.exit_code == 0, result.stdout + result.stderr
    said = json.loads(result.stdout)
    assert said["file"] == str(out / "tidepool" / "tidepool-tuckbox-tgc.png")
    return said, Image.open(said["file"])


def _in(box, x, y, grow=0):
    left, top, width, height = box
    return left - grow <= x < left + width + grow and top - grow <= y < top + height + grow


def _colours(image, box):
    left, top, width, height = box
    return image.crop((left, top, left + width, top + height)).getcolors(maxcolors=1 << 20)


def _ink_outside_zones(image):
    """Pixels that differ from the ground outside every safe zone (grown by the one pixel an
    anti-aliased edge may touch), and inside the thumb notch."""
    pixels = image.load()
    stray = []
    for y in range(image.height):
        for x in range(image.width):
            if pixels[x, y] == GROUND:
                continue
            if _in(NOTCH, x, y) or not any(_in(zone, x, y, grow=1) for zone in ZONES.values()):
                stray.append((x, y))
    return stray


def test_the_tgc_box_is_the_template_size_with_the_decks_back_and_a_card(tmp_path, run_cli):
    said, image = _box(run_cli, _deck(tmp_path), tmp_path / "out")
    assert image.size == (2325, 1950) and image.mode == "RGB" and said["pixels"] == [2325, 1950]
    assert [round(v) for v in image.info["dpi"]] == [300, 300]
    # The ground fills the whole image (TGC's bleed): corners and the margins between zones.
    for point in ((0, 0), (2324, 1949), (280, 900), (2200, 900), (600, 420)):
        assert image.getpixel(point) == GROUND
    # The back panel is the deck's back: its ground and its stripes in the accent colour.
    back = dict((colour, count) for count, colour in _colours(image, ZONES["back"]))
    area = 688 * 989
    assert back.get(ACCENT, 0) > 0.02 * area and back.get(GROUND, 0) > 0.3 * area
    # The front shows the cover card (the first with art: the conch) and no accent stripes.
    front = dict((colour, count) for count, colour in _colours(image, ZONES["front"]))
    assert front.get(CONCH_ART, 0) > 0.05 * 688 * 989 and ACCENT not in front
    # Text on the sides and the lid: ink that is not the ground.
    for zone in ("left side", "right side", "lid", "bottom"):
        assert len(_colours(image, ZONES[zone])) > 1, zone
    assert _ink_outside_zones(image) == []


def test_a_long_name_is_shrunk_into_its_zones_and_a_far_too_long_one_refused(tmp_path, run_cli):
    name = "Tidepool: Shells, Fish and the Turning Tide"
    _, image = _box(run_cli, _deck(tmp_path, name), tmp_path / "out")
    assert _ink_outside_zones(image) == []
    left, top, width, height = ZONES["left side"]
    inked_rows = [y for y in range(top, top + height)
                  if any(image.getpixel((x, y)) != GROUND for x in range(left, left + width))]
    assert inked_rows and inked_rows[-1] - inked_rows[0] > 0.8 * height  # the turned title, shrunk to the side
    # On the front, between the thumb notch and the card, the title is set on two lines.
    title_rows = [y for y in range(541, 662) if any(image.getpixel((x, y)) != GROUND for x in range(1322, 2010))]
    lines = sum(1 for before, after in zip(title_rows, title_rows[1:]) if after > before + 1) + 1
    assert lines == 2, title_rows

    deck = _deck(tmp_path, extra=BACK + '\n[tuck_box]\ntitle = "' + "Tidepool " * 22 + '"\n')
    result = run_cli("tuckbox", deck, "--service", "tgc", "-o", tmp_path / "again")
    said = result.stdout + result.stderr
    assert result.exit_code == 2, said
    assert "[tuck_box] title" in said and "too long" in said and "Traceback" not in said
    assert not (tmp_path / "again" / "tidepool" / "tidepool-tuckbox-tgc.png").exists()


def test_the_same_deck_gives_the_same_bytes(tmp_path, run_cli):
    deck = _deck(tmp_path)
    first, _ = _box(run_cli, deck, tmp_path / "one")
    second, _ = _box(run_cli, deck, tmp_path / "two")
    with open(first["file"], "rb") as one, open(second["file"], "rb") as two:
        assert one.read() == two.read()


def test_tarot_cards_are_refused_naming_the_size(tmp_path, run_cli):
    deck = _deck(tmp_path)
    deck.write_text(deck.read_text(encoding="utf-8").replace('card_size = "poker"', 'card_size = "tarot"'),
                    encoding="utf-8")
    result = run_cli("tuckbox", deck, "--service", "tgc", "-o", tmp_path / "out")
    said = result.stdout + result.stderr
    assert result.exit_code == 2, said
    assert "tarot cards (70×120 mm)" in said and "poker" in said and "63.5×88.9" in said
    assert "Traceback" not in said
    assert not (tmp_path / "out" / "tidepool" / "tidepool-tuckbox-tgc.png").exists()


def test_other_services_and_paper_with_a_service_are_refused(tmp_path, run_cli):
    deck = _deck(tmp_path)
    result = run_cli("tuckbox", deck, "--service", "mpc", "-o", tmp_path / "out")
    said = result.stdout + result.stderr
    assert result.exit_code == 2 and "tgc" in said and "MakePlayingCards" in said and "DriveThruCards" in said
    result = run_cli("tuckbox", deck, "--service", "tgc", "--paper", "letter", "-o", tmp_path / "out")
    assert result.exit_code == 2 and "--paper letter" in result.stdout + result.stderr
    assert "Traceback" not in result.stdout + result.stderr


def test_a_stack_thicker_than_the_box_is_deep_is_warned_about(tmp_path, run_cli):
    deck = _deck(tmp_path, extra=BACK + "\n[tuck_box]\nstock_mm = 0.5\n")
    deck.write_text(deck.read_text(encoding="utf-8").replace("count = 2", "count = 40", 1), encoding="utf-8")
    said, _ = _box(run_cli, deck, tmp_path / "out")  # 45 cards of 0.5 mm: 22.5 mm
    assert len(said["warnings"]) == 1 and "22.5 mm" in said["warnings"][0]
    plain = _deck(tmp_path)  # 7 cards: no warning
    assert _box(run_cli, plain, tmp_path / "plain")[0]["warnings"] == []
