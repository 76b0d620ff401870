"""Card ids come from codes: a renamed card keeps its files in every output, its translation and
its diff entry; an explicit id still wins; ids that collide are errors at the card's field.

Everything runs through the CLI on a deck written here: three cards with art, a layout that
draws the name in a known band, a German overlay."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

from PIL import Image, ImageChops, ImageDraw

DECK = '''\
[deck]
id = "reef"
name = "Reef"
players = { min = 2, max = 4 }
card_size = "poker"
layout = "reef"

[[kinds]]
id = "fish"
name = "Fish"
color = "#1d6fb5"

[[cards]]
name = "Conch"
code = "CO"
kind = "fish"
art = "art/conch.png"
text = "Worth one pearl."

[[cards]]
name = "Sardine"
code = "SA"
kind = "fish"
count = 3
art = "art/sardine.png"
text = "Worth two pearls."

[[cards]]
name = "Grouper"
code = "GR"
kind = "fish"
art = "art/grouper.png"
text = "Worth three pearls."

[layouts.reef]
reference_size = [63, 88]

[[layouts.reef.elements]]
name = "name"
type = "text"
field = "name"
x = "5mm"
y = "5mm"
width = "100% - 10mm"
height = "10mm"
size = [14, 8]

[[layouts.reef.elements]]
name = "art"
type = "image"
src = "{art}"
x = "5mm"
y = "20mm"
width = "100% - 10mm"
height = "40mm"
fit = "cover"

[[layouts.reef.elements]]
name = "text"
type = "text"
field = "text"
x = "5mm"
y = "65mm"
width = "100% - 10mm"
height = "15mm"
size = [11, 7]
'''

GERMAN = '''\
[translation]
lang = "de"

[deck]
name = "Riff"

[cards.SA]
name = "Sardelle"
'''

NAME_BAND_MM = (5, 15)  # the name element's top and bottom, from the trim's top edge
BLEED_MM = 3  # `deckgen images` default


def _reef(folder: Path) -> Path:
    for stem, colour in (("conch", (230, 180, 120)), ("sardine", (120, 170, 230)), ("grouper", (90, 140, 90))):
        picture = Image.new("RGB", (600, 450), colour)
        ImageDraw.Draw(picture).ellipse((200, 120, 400, 330), fill=(255, 255, 255))
        (folder / "art").mkdir(parents=True, exist_ok=True)
        picture.save(folder / "art" / f"{stem}.png")
    (folder / "translations").mkdir()
    (folder / "translations" / "reef.de.toml").write_text(GERMAN, encoding="utf-8")
    deck = folder / "reef.toml"
    deck.write_text(DECK, encoding="utf-8")
    return deck


def _files(folder: Path) -> list[str]:
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file())


def _unhashed(names: list[str]) -> list[str]:
    """TTS sheet names carry a hash of their picture (so TTS reloads a changed sheet)."""
    return sorted(re.sub(r"-[0-9a-f]{8}\.jpg$", ".jpg", name) for name in names)


def _build(run_cli, deck: Path, out: Path) -> None:
    for args in (("images", deck, "-o", out, "--dpi", "60"),
                 ("images", deck, "-o", out, "--dpi", "60", "--lang", "de"),
                 ("export", "tts", deck, "-o", out),
                 ("export", "tts", deck, "-o", out, "--lang", "de"),
                 ("export", "lackey", deck, "-o", out),
                 ("print", deck, "--service", "tgc", "-o", out)):
        result = run_cli(*args)
        assert result.exit_code == 0, (args, result.stdout + result.stderr)


def _pixels(path: Path) -> Image.Image:
    return Image.open(path).convert("RGB")


def _changed_band_mm(before: Path, after: Path, bleed_mm: float, height_mm: float) -> tuple[float, float]:
    """Top and bottom of the pixels that differ, in mm from the trim's top edge."""
    old, new = _pixels(before), _pixels(after)
    box = ImageChops.difference(old, new).getbbox()
    assert box is not None, f"{after.name}: nothing changed"
    scale = (height_mm + 2 * bleed_mm) / new.height
    return box[1] * scale - bleed_mm, box[3] * scale - bleed_mm


def test_a_renamed_card_keeps_its_files_translation_and_diff_entry(tmp_path, run_cli):
    deck = _reef(tmp_path / "v2")
    out = tmp_path / "out"
    _build(run_cli, deck, out)
    reef = out / "reef"
    images, tgc, tts = reef / "images", reef / "tgc", reef / "tts"
    assert {"co.png", "sa.png", "gr.png"} <= set(_files(images))  # ids from the codes, not the names
    assert {"co.png", "sa.png", "gr.png"} <= set(_files(tgc))
    before = {folder: _files(folder) for folder in (images, reef / "de" / "images", tgc, reef / "lackey")}
    tts_before = _files(tts)
    kept = tmp_path / "before"
    shutil.copytree(reef, kept)
    shutil.copytree(deck.parent, tmp_path / "v1")

    deck.write_text(DECK.replace('name = "Sardine"', 'name = "Pilchard"'), encoding="utf-8")
    _build(run_cli, deck, out)

    # The same files, none left over, in every output keyed on card ids.
    for folder, names in before.items():
        assert _files(folder) == names, folder
    assert _unhashed(_files(tts)) == _unhashed(tts_before) and len(_files(tts)) == len(tts_before)
    carddata = (reef / "lackey" / "reef" / "sets" / "carddata.txt").read_text(encoding="cp1252")
    assert "Pilchard\treef\tsa\t" in carddata and "Sardine" not in carddata
    # Only the renamed card's pictures changed, and only in the band its name is drawn in.
    for folder, bleed_mm in ((images, BLEED_MM), (tgc, 1 / 8 * 25.4)):
        for name in ("co.png", "gr.png"):
            assert ImageChops.difference(_pixels(kept / folder.name / name), _pixels(folder / name)).getbbox() is None
        top, bottom = _changed_band_mm(kept / folder.name / "sa.png", folder / "sa.png", bleed_mm, 88.9 if
                                       folder == tgc else 88)
        assert NAME_BAND_MM[0] - 0.5 <= top and bottom <= NAME_BAND_MM[1] + 0.5, (folder.name, top, bottom)
    # The German overlay, keyed by the code, still names the card; its German picture is unchanged.
    assert ImageChops.difference(_pixels(kept / "de" / "images" / "sa.png"),
                                 _pixels(reef / "de" / "images" / "sa.png")).getbbox() is None
    german = json.loads((reef / "de" / "tts" / "reef.json").read_text(encoding="utf-8"))
    nicknames = {card["Nickname"] for pile in german["ObjectStates"] for card in pile.get("ContainedObjects", [pile])}
    assert "Sardelle" in nicknames and "Pilchard" not in nicknames
    english = json.loads((tts / "reef.json").read_text(encoding="utf-8"))
    assert "Pilchard" in {card["Nickname"] for pile in english["ObjectStates"]
                          for card in pile.get("ContainedObjects", [pile])}

    # diff: one renamed card, not a removal and an addition; the reprint list holds it alone.
    result = run_cli("diff", tmp_path / "v1" / "reef.toml", deck, "--json")
    assert result.exit_code == 1, result.stdout + result.stderr
    report = json.loads(result.stdout)
    cards = [change for change in report["changes"] if change["section"] == "cards"]
    assert [(c["action"], c["id"], c["printed"]) for c in cards] == [("renamed", "sa", True)]
    assert cards[0]["fields"]["name"] == {"old": "Sardine", "new": "Pilchard"}
    assert report["reprint"] == [{"id": "sa", "code": "SA", "copies": 3}]
    text = run_cli("diff", tmp_path / "v1" / "reef.toml", deck).stdout
    assert "cards: 1 renamed; reprint 3 card(s) of 1 design(s)" in text
    assert "> sa 'Pilchard' [SA] x3 (renamed from 'Sardine') (printed face changed)" in text


def test_an_explicit_id_still_wins(tmp_path, run_cli):
    deck = _reef(tmp_path / "reef")
    deck.write_text(DECK.replace('name = "Sardine"', 'id = "silver-sardine"\nname = "Sardine"'), encoding="utf-8")
    out = tmp_path / "out"
    assert run_cli("images", deck, "-o", out, "--dpi", "40").exit_code == 0
    images = out / "reef" / "images"
    assert _files(images) == ["back.png", "co.png", "gr.png", "silver-sardine.png"]
    # A new code keeps an explicit id (a code-derived one would change with it).
    deck.write_text(deck.read_text(encoding="utf-8").replace('code = "SA"', 'code = "SR"'), encoding="utf-8")
    assert run_cli("images", deck, "-o", out, "--dpi", "40").exit_code == 0
    assert _files(images) == ["back.png", "co.png", "gr.png", "silver-sardine.png"]


def _line_of(text: str, needle: str) -> int:
    return text[:text.index(needle)].count("\n") + 1


def test_two_codes_that_give_one_id_are_an_error_at_the_second_code(tmp_path, run_cli):
    deck = _reef(tmp_path / "reef")
    text = DECK.replace('code = "CO"', 'code = "G-R"').replace('code = "GR"', 'code = "G+R"')
    deck.write_text(text, encoding="utf-8")
    result = run_cli("validate", deck, "--simulate", "0")
    said = result.stdout + result.stderr
    assert result.exit_code != 0 and "Traceback" not in said
    line = _line_of(text, 'code = "G+R"')
    assert f"{deck}:{line}: error: cards[2].code:" in said, said
    assert "the card's id 'g-r', from its code 'G+R', is already used by cards[0] 'Conch'" in said
    assert 'id = "grouper"' in said  # the hint: give the card its own id


def test_a_code_that_gives_the_reserved_id_is_an_error_at_the_code(tmp_path, run_cli):
    deck = _reef(tmp_path / "reef")
    text = DECK.replace('code = "GR"', 'code = "BACK"')
    deck.write_text(text, encoding="utf-8")
    result = run_cli("images", deck, "-o", tmp_path / "out")
    said = result.stdout + result.stderr
    assert result.exit_code != 0 and "Traceback" not in said
    line = _line_of(text, 'code = "BACK"')
    assert f"{deck}:{line}: error: cards[2].code:" in said, said
    assert "'back'" in said and "reserved" in said and "give the card its own id" in said
    assert not (tmp_path / "out" / "reef" / "images").exists()


def test_sheet_rows_whose_codes_give_one_id_are_an_error_at_the_cell(tmp_path, run_cli):
    deck = _reef(tmp_path / "reef")
    (deck.parent / "more.csv").write_text("name,code,kind\nRay,A-1,fish\nEel,A+1,fish\n", encoding="utf-8")
    deck.write_text(DECK + '\n[[card_sources]]\nfile = "more.csv"\n', encoding="utf-8")
    result = run_cli("validate", deck, "--simulate", "0")
    said = result.stdout + result.stderr
    assert result.exit_code != 0 and "Traceback" not in said
    assert "more.csv" in said and "B3" in said and "'a-1', from its code 'A+1'" in said, said


def test_an_overlay_keyed_by_the_old_name_derived_id_is_told_the_code(tmp_path, run_cli):
    deck = _reef(tmp_path / "reef")
    overlay = deck.parent / "translations" / "reef.de.toml"
    overlay.write_text(GERMAN.replace("[cards.SA]", "[cards.sardine]"), encoding="utf-8")
    result = run_cli("validate", deck, "--lang", "de", "--simulate", "0")
    said = result.stdout + result.stderr
    assert result.exit_code != 0 and "Traceback" not in said
    line = _line_of(GERMAN, "[cards.SA]")
    assert f"{overlay}:{line}: error: cards.sardine: names no card" in said, said
    assert "key its table by the code, [cards.SA]" in said
