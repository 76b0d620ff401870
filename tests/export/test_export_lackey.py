"""The LackeyCCG export, read back: card data, deck file, images, plugin info, updater files, zip."""

from __future__ import annotations

import io
import os
import re
import random
import xml.etree.ElementTree as ET
import zipfile
from collections import Counter
from pathlib import Path
from urllib.parse import quote

import jinja2
import pytest
from PIL import Image

from generator.export import ExportError, inside
from generator.export.lackey import lackey_checksum, lackey_names
from generator.export.text import Escaped, environment
from generator.deck.loader import load_deck
from generator.deck.markup import to_plain

from tests.conftest import DECK_PATHS
from tests.export_support import (BASE_URL, read_dek_zones, deck_ids, export, published_checksum, read_carddata, read_dek,
                             real_exports, tree, write_deck)  # noqa: F401 (real_exports: a fixture)

@pytest.fixture(scope="module")
def exported(real_exports) -> dict[str, Path]:
    """deck id -> its lackey/ folder."""
    return {deck_id: real_exports / deck_id / "lackey" for deck_id in deck_ids()}


def in_cp1252(text: str) -> bool:
    try:
        text.encode("cp1252")
        return True
    except UnicodeEncodeError:
        return False


@pytest.mark.parametrize("deck_path", DECK_PATHS, ids=deck_ids())
def test_card_data_holds_every_card_with_its_fields(exported, deck_path):
    deck = load_deck(deck_path)
    plugin = exported[deck.id] / deck.id
    header, rows = read_carddata(plugin / "sets" / "carddata.txt")
    assert header[:3] == ["Name", "Set", "ImageFile"]
    assert all(len(row) == len(header) for row in rows)
    assert len(rows) == len(deck.cards)
    names = lackey_names(deck)
    by_name = {row[0]: dict(zip(header, row)) for row in rows}
    for card in deck.cards:
        row = by_name[names[card.id]]
        assert (plugin / "sets" / "setimages" / row["Set"] / f"{row['ImageFile']}.jpg").is_file()
        expected = {"Type": card.type_line, "Text": " ".join(to_plain(card.text, deck).split()),
                    "CornerValue": card.corner, "Suit": deck.suit(card.suit).name if card.suit else ""}
        for column, value in expected.items():
            if column in row and value:
                # Kept exactly where Windows-1252 can hold it; respelled otherwise (another test).
                assert row[column] == value if in_cp1252(value) else row[column]


@pytest.mark.parametrize("deck_path", DECK_PATHS, ids=deck_ids())
def test_deck_file_lists_every_copy_of_every_card(exported, deck_path):
    deck = load_deck(deck_path)
    plugin = exported[deck.id] / deck.id
    header, rows = read_carddata(plugin / "sets" / "carddata.txt")
    known = {(row[0], row[2], row[1]) for row in rows}
    listed = read_dek(plugin / "decks" / f"{deck.id} (one player loads it).dek")
    assert len(listed) == deck.total
    assert set(listed) <= known
    names = lackey_names(deck)
    assert Counter(name for name, _, _ in listed) == Counter({names[c.id]: c.count for c in deck.cards})


@pytest.mark.parametrize("deck_path", DECK_PATHS, ids=deck_ids())
def test_images_are_jpegs_with_the_back_s_shape(exported, deck_path):
    deck = load_deck(deck_path)
    plugin = exported[deck.id] / deck.id
    back = Image.open(plugin / "cardback.jpg")
    faces = sorted((plugin / "sets" / "setimages").rglob("*.jpg"))
    assert len(faces) == len(deck.cards)
    for path in [*faces, plugin / "spawned.jpg"]:
        with Image.open(path) as image:
            assert image.format == "JPEG" and image.mode == "RGB"
            assert image.size == back.size
    width_mm, height_mm = deck.card_size.width_mm, deck.card_size.height_mm
    assert abs(back.size[0] / back.size[1] - width_mm / height_mm) < 0.01
    assert 300 <= back.size[0] <= 500 or 300 <= back.size[1] <= 600


def test_zip_holds_the_plugin_folder_with_fixed_dates(exported):
    for deck_id, folder in exported.items():
        with zipfile.ZipFile(folder / f"{deck_id}.zip") as archive:
            infos = archive.infolist()
            assert [i.filename for i in infos] == sorted(i.filename for i in infos)
            assert {i.date_time for i in infos} == {(1980, 1, 1, 0, 0, 0)}
            assert {i.filename: archive.read(i) for i in infos} == {
                f"{deck_id}/{name}": data for name, data in tree(folder / deck_id).items()}


def test_checksum_of_known_bytes():
    # Worked by hand from the published algorithm (research §1.7): signed bytes, CR and LF
    # skipped, C remainder modulo 10**8 after every byte, minus one.
    assert lackey_checksum(b"") == -1
    assert lackey_checksum(b"A\r\nB") == 65 + 66 - 1
    assert lackey_checksum(b"\xff\n") == -1 - 1
    assert lackey_checksum(b"\x80\x7f") == -128 + 127 - 1
    # 787402 x 127 = 100000054: the total passes 10**8 once and keeps 54.
    assert lackey_checksum(b"\x7f" * 787402) == 54 - 1
    # 781250 x -128 = -10**8 exactly, which leaves 0; one more byte gives -128.
    assert lackey_checksum(b"\x80" * 781251) == -128 - 1
    # Total climbs past 10**8, wraps, then falls below zero: a final remainder alone would differ.
    climb_then_fall = b"\x7f" * 787402 + b"\x80" * 10
    assert lackey_checksum(climb_then_fall) == 54 - 1280 - 1


def test_checksum_agrees_with_the_published_loop():
    rng = random.Random(7)
    samples = [bytes(rng.randrange(256) for _ in range(rng.randrange(1, 3000))) for _ in range(50)]
    samples += [b"\x7f" * 790_000 + bytes(rng.randrange(256) for _ in range(5000))]
    for data in samples:
        assert lackey_checksum(data) == published_checksum(data)


@pytest.mark.parametrize("deck_path", DECK_PATHS, ids=deck_ids())
def test_updatelist_lists_every_file_with_its_checksum(exported, deck_path):
    deck = load_deck(deck_path)
    plugin = exported[deck.id] / deck.id
    lines = (plugin / "updatelist.txt").read_text("cp1252").splitlines()
    name, date = lines[0].split("\t")
    assert name == deck.id and len(date) == 8 and date[2] == date[5] == "-"
    # As merlinofchaos/lackey-example's updatelist.txt: files, then the card image URL list.
    assert lines[-2:] == ["CardURLFiles:", "CardImageUrls1.txt"]
    listed = {}
    for line in lines[1:-2]:
        install_path, url, checksum = line.split("\t")
        relative = install_path.removeprefix(f"plugins/{deck.id}/")
        assert url == f"{BASE_URL}/{quote(relative)}"
        listed[relative] = int(checksum)
    files = tree(plugin)
    images = {path for path in files if path.startswith("sets/setimages/")}
    assert set(listed) == set(files) - {"updatelist.txt"} - images
    # Card images are fetched on demand: `<Set>/<file>.jpg<TAB><URL>` after `CardImageURLs:`.
    image_lines = files["CardImageUrls1.txt"].decode("cp1252").splitlines()
    assert image_lines[0] == "CardImageURLs:"
    assert sorted(line.split("\t") for line in image_lines[1:]) == sorted(
        [path.removeprefix("sets/setimages/"), f"{BASE_URL}/{path}"] for path in images)
    assert all(listed[path] == lackey_checksum(files[path]) for path in listed)
    # The text files by the published loop too (the images are many bytes for a Python loop).
    assert all(listed[path] == published_checksum(files[path]) for path in listed if not path.endswith(".jpg"))
    version = ET.fromstring(files["version.txt"])
    assert version.findtext("updateurl") == f"{BASE_URL}/updatelist.txt"
    assert version.findtext("lastupdateYYMMDD") == date[6:] + date[:2] + date[3:5]


def test_no_updater_files_without_a_base_url(tmp_path):
    assert export("lackey", DECK_PATHS[0], "-o", tmp_path) == 0
    deck = load_deck(DECK_PATHS[0])
    plugin = tmp_path / deck.id / "lackey" / deck.id
    assert (plugin / "plugininfo.txt").is_file()
    assert not (plugin / "updatelist.txt").exists() and not (plugin / "version.txt").exists()


def plugininfo(folder: Path, deck_id: str) -> ET.Element:
    return ET.fromstring((folder / deck_id / "lackey" / deck_id / "plugininfo.txt").read_bytes())


def test_plugininfo_gives_a_quidditch_table_its_tallies_and_coin(tmp_path):
    cards = [{"name": "Weaving", "code": "WV", "kind": "action", "count": 2, "corner": "+1",
              "text": "Add one to your dominance."},
             {"name": "Trick Play", "code": "TP", "kind": "action", "text": "Flip a coin: heads, add two."}]
    write_deck(tmp_path, "pitch", cards, engine="quidditch-v2")
    assert export("lackey", tmp_path / "pitch.toml", "-o", tmp_path / "out") == 0
    info = plugininfo(tmp_path / "out", "pitch")
    assert [s.findtext("label") for s in info.findall("playerstat")] == ["Points", "Dominance"]
    functions = {f.findtext("kind") for f in info.findall("generalfunction")}
    assert "FLIPCOIN" in functions and "ROLLD6" not in functions and "TRANSFERCARD" in functions
    zones = {z.findtext("label"): z for z in info.findall("gamezone")}
    assert {"Hand", "Deck", "Discard", "Play"} <= set(zones)
    assert zones["Deck"].findtext("isshared") == "yes"
    deck_zone = info.find("deckzone")
    assert deck_zone.findtext("label") == "Deck" and deck_zone.findtext("shuffle") == "yes"


def test_plugininfo_of_a_trick_taking_deck_keeps_score_bids_and_tricks(exported):
    info = plugininfo(exported["wizard"].parent.parent, "wizard")
    assert [s.findtext("label") for s in info.findall("playerstat")] == ["Score", "Bid"]
    assert "Tricks" in {z.findtext("label") for z in info.findall("gamezone")}
    assert "ROLLD6" not in {f.findtext("kind") for f in info.findall("generalfunction")}


def test_dvorak_decks_get_the_wiki_s_eight_columns(tmp_path):
    cards = [{"name": "Typo", "code": "TY", "kind": "thing", "type_line": "Thing - Bug",
              "text": "You may take an action to destroy *Typo*.\n\nRoll a die first."},
             {"name": "Hotfix", "code": "HF", "kind": "action", "flavor": "Ship it."},
             {"name": "Reviewer", "code": "RV", "kind": "seeker"}]
    kinds = (("thing", "Thing"), ("action", "Action"), ("seeker", "Seeker"))  # a Dvorak deck may add kinds
    write_deck(tmp_path, "bugs", cards, kinds=kinds)
    assert export("lackey", tmp_path / "bugs.toml", "-o", tmp_path / "out") == 0
    plugin = tmp_path / "out" / "bugs" / "lackey" / "bugs"
    header, rows = read_carddata(plugin / "sets" / "carddata.txt")
    assert header == ["Name", "Set", "ImageFile", "Type", "CornerValue", "Text", "FlavorText", "Creator"]
    assert rows[0] == ["Typo", "bugs", "ty", "Thing - Bug", "",  # ImageFile: the id, from the code TY
                       "You may take an action to destroy Typo. Roll a die first.", "", "Test Designer"]
    assert rows[1][3] == "Action" and rows[1][6] == "Ship it." and rows[2][3] == "Seeker"
    info = ET.fromstring((plugin / "plugininfo.txt").read_bytes())
    assert "ROLLD6" in {f.findtext("kind") for f in info.findall("generalfunction")}
    assert export("lackey", tmp_path / "bugs.toml", "-o", tmp_path / "full", "--layout", "full") == 0
    full_header, _ = read_carddata(tmp_path / "full" / "bugs" / "lackey" / "bugs" / "sets" / "carddata.txt")
    assert full_header[:5] == ["Name", "Set", "ImageFile", "Code", "Type"] and "Creator" not in full_header


def test_cards_sharing_a_name_stay_apart(tmp_path):
    cards = [{"name": "Playing Tough", "code": "PT1", "kind": "thing", "text": "Roll a die."},
             {"name": "Playing Tough", "id": "playing-tough-2", "code": "PT2", "kind": "thing",
              "count": 2, "text": "Roll a die, then think."}]
    write_deck(tmp_path, "tough", cards)
    assert export("lackey", tmp_path / "tough.toml", "-o", tmp_path / "out") == 0
    plugin = tmp_path / "out" / "tough" / "lackey" / "tough"
    _, rows = read_carddata(plugin / "sets" / "carddata.txt")
    assert [row[0] for row in rows] == ["Playing Tough", "Playing Tough [PT2]"]
    assert Counter(name for name, _, _ in read_dek(plugin / "decks" / "tough (one player loads it).dek")) == {
        "Playing Tough": 1, "Playing Tough [PT2]": 2}


def test_characters_outside_cp1252_are_spelled_in_it(tmp_path):
    cards = [{"name": "Café Őrs", "code": "CO", "kind": "thing", "corner": "★",
              "text": "Score 2 − 1 → 1 point with the ⚗."}]
    write_deck(tmp_path, "accents", cards)
    assert export("lackey", tmp_path / "accents.toml", "-o", tmp_path / "out") == 0
    plugin = tmp_path / "out" / "accents" / "lackey" / "accents"
    _, rows = read_carddata(plugin / "sets" / "carddata.txt")
    assert rows[0][0] == "Café Ors" and rows[0][4] == "*"
    assert rows[0][5] == "Score 2 - 1 -> 1 point with the [alembic]."
    assert read_dek(plugin / "decks" / "accents (one player loads it).dek")[0][0] == "Café Ors"
    assert "Café".encode("cp1252") in (plugin / "sets" / "carddata.txt").read_bytes()


def test_utf8_encoding_keeps_every_letter(tmp_path):
    cards = [{"name": "Дракон Ωμέγα", "code": "DR", "kind": "thing", "text": "Ωmega."}]
    write_deck(tmp_path, "letters", cards)
    assert export("lackey", tmp_path / "letters.toml", "-o", tmp_path / "out", "--encoding", "utf-8") == 0
    plugin = tmp_path / "out" / "letters" / "lackey" / "letters"
    _, rows = read_carddata(plugin / "sets" / "carddata.txt", encoding="utf-8")
    assert rows[0][:3] == ["Дракон Ωμέγα", "letters", "dr"]  # the id, from the code DR, not the non-Latin name
    assert read_dek(plugin / "decks" / "letters (one player loads it).dek") == [("Дракон Ωμέγα", "dr", "letters")]


def test_image_file_names_that_collide_are_refused(tmp_path, capsys):
    cards = [{"name": "One", "id": "a.b", "code": "A1", "kind": "thing"},
             {"name": "Two", "id": "a_b", "code": "A2", "kind": "thing"}]
    write_deck(tmp_path, "clash", cards)
    assert export("lackey", tmp_path / "clash.toml", "-o", tmp_path / "out") == 1
    err = capsys.readouterr().err
    assert "'Two' (code A2)" in err and "'a_b'" in err and "'One' (code A1)" in err
    assert not (tmp_path / "out" / "clash" / "lackey").exists()


def test_zip_is_readable_as_a_plugin_install(exported):
    deck_id, folder = next(iter(exported.items()))
    with zipfile.ZipFile(folder / f"{deck_id}.zip") as archive:
        names = archive.namelist()
        assert f"{deck_id}/plugininfo.txt" in names and f"{deck_id}/sets/carddata.txt" in names
        with archive.open(f"{deck_id}/cardback.jpg") as back:
            assert Image.open(io.BytesIO(back.read())).format == "JPEG"


def test_templates_cannot_write_deck_text_without_a_filter():
    env = environment("lackey", {"xml": lambda value: Escaped(value.replace("&", "&amp;"))})
    assert env.from_string("<a>{{ name|xml }} {{ 3 }}</a>").render(name="R&D") == "<a>R&amp;D 3</a>"
    with pytest.raises(jinja2.TemplateError, match="without an escaping filter"):
        env.from_string("<a>{{ name }}</a>").render(name="R&D")


def test_paths_outside_the_export_folder_are_refused(tmp_path):
    assert inside(tmp_path, "sets", "x.jpg") == tmp_path / "sets" / "x.jpg"
    with pytest.raises(ExportError, match="outside"):
        inside(tmp_path / "lackey", "..", "..", "escape.txt")


def test_quidditch_v2_sets_out_the_quaffle_and_the_snitch(exported):
    """Rules qv2.setup: the Quaffle face up in the centre, the Snitch first on the discard pile;
    each superzone is a deckzone of plugininfo.txt that loads into a gamezone of that name."""
    plugin = exported["quidditch-v2"] / "quidditch-v2"
    zones = read_dek_zones(plugin / "decks" / "quidditch-v2 (one player loads it).dek")
    assert [name for name, _, _ in zones["Centre"]] == ["Quaffle"]
    assert [name for name, _, _ in zones["Discard"]] == ["Golden Snitch"]
    assert "Quaffle" not in [name for name, _, _ in zones["Deck"]] and len(zones["Deck"]) == 54
    info = (plugin / "plugininfo.txt").read_text("cp1252")
    for zone in zones:
        assert re.search(rf"<deckzone><label>{zone}</label>.*<gamezonetoloadto>{zone}</gamezonetoloadto>", info)
        assert f"<gamezone><label>{zone}</label>" in info
    assert re.findall(r"<phase><label>([^<]+)</label></phase>", info) == [
        "Start of turn", "Draw", "Play", "Manoeuvre", "End of turn", "Hand limit"]
    assert re.findall(r"<playerstat><label>([^<]+)</label>", info) == ["Points", "Dominance"]
    wizard_zones = read_dek_zones(exported["wizard"] / "wizard" / "decks" / "wizard (one player loads it).dek")
    assert list(wizard_zones) == ["Deck"]
    wizard_info = (exported["wizard"] / "wizard" / "plugininfo.txt").read_text("cp1252")
    assert re.findall(r"<deckzone><label>([^<]+)</label>", wizard_info) == ["Deck"]
    assert "<phase>" not in wizard_info


def test_each_back_is_a_shared_pile_of_its_own(run_cli, tmp_path):
    """Lackey shows one card back; cards whose kind has its own back are kept in a pile of their
    own (examples/designer: Ingredients and Recipes), each with its Draw button."""
    designer = Path(__file__).resolve().parents[2] / "examples" / "designer" / "cauldron-club.toml"
    assert run_cli("export", "lackey", designer, "-o", tmp_path).exit_code == 0
    deck = load_deck(designer)
    plugin = tmp_path / deck.id / "lackey" / deck.id
    [dek] = (plugin / "decks").glob("*.dek")
    assert dek.name == "cauldron-club (one player loads it).dek"  # what Lackey's Load Deck dialog shows
    zones = read_dek_zones(dek)
    assert list(zones) == ["Ingredient Deck", "Recipe Deck"]
    kind_of = {card.name: card.kind for card in deck.cards}
    for zone, kind in (("Ingredient Deck", "ingredient"), ("Recipe Deck", "recipe")):
        assert {kind_of[name] for name, _, _ in zones[zone]} == {kind}
    assert Counter(name for cards in zones.values() for name, _, _ in cards) == \
        Counter(card.name for card in deck.copies())
    info = (plugin / "plugininfo.txt").read_text("cp1252")
    for zone in zones:
        assert f"<deckzone><label>{zone}</label><shuffle>yes</shuffle><isshared>yes</isshared>" \
               f"<gamezonetoloadto>{zone}</gamezonetoloadto></deckzone>" in info
        assert f"<label>Draw from {zone}</label>" in info and f"<sourcegamezone>{zone}</sourcegamezone>" in info


def lackey_release(run_cli, deck_file: Path, out: Path) -> tuple[str, str]:
    """(version.txt's lastupdateYYMMDD, what the export told the designer on stderr)."""
    result = run_cli("export", "lackey", deck_file, "-o", out, "--base-url", BASE_URL)
    assert result.exit_code == 0, result.stderr
    version = (out / deck_file.stem / "lackey" / "wizard" / "version.txt").read_text("cp1252")
    return re.search(r"<lastupdateYYMMDD>(\d{6})</lastupdateYYMMDD>", version)[1], result.stderr


def test_release_date_comes_from_the_deck_else_its_file_with_a_warning(run_cli, tmp_path, monkeypatch):
    """Lackey offers an update only for a later date: the deck's date, a version that is a date,
    else the deck file's last change, said on stderr (so every edit makes a later release)."""
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    text = (DECK_PATHS[0].parent / "wizard.toml").read_text("utf-8")
    deck_file = tmp_path / "wizard.toml"
    deck_file.write_text(text, "utf-8")  # version "1.0": no date
    os.utime(deck_file, (1_800_000_000, 1_800_000_000))  # 2027-01-15 UTC
    day, said = lackey_release(run_cli, deck_file, tmp_path / "a")
    assert day == "270115" and "has no date" in said and "2027-01-15" in said and 'date = "YYYY-MM-DD"' in said
    deck_file.write_text(text.replace('version = "1.0"', 'version = "1.0"\ndate = "2026-11-30"', 1), "utf-8")
    assert lackey_release(run_cli, deck_file, tmp_path / "b") == ("261130", "")
    deck_file.write_text(text.replace('version = "1.0"', 'version = "2026.12.01"', 1), "utf-8")
    assert lackey_release(run_cli, deck_file, tmp_path / "c") == ("261201", "")
    deck_file.write_text(text.replace('version = "1.0"', 'version = "1.0"\ndate = "2026-02-30"', 1), "utf-8")
    failed = run_cli("export", "lackey", deck_file, "-o", tmp_path / "d", "--base-url", BASE_URL)
    assert failed.exit_code != 0 and "[deck] date '2026-02-30' is not a real date" in failed.stderr
    assert "Traceback" not in failed.stderr
    deck_file.write_text(text.replace('version = "1.0"', 'version = "1.0"\ndate = "30.11.2026"', 1), "utf-8")
    failed = run_cli("export", "lackey", deck_file, "-o", tmp_path / "e", "--base-url", BASE_URL)
    assert failed.exit_code != 0 and "date" in failed.stderr and "Traceback" not in failed.stderr


def test_a_name_in_double_quotes_is_the_same_in_carddata_and_deck(exported):
    """Quidditch v2's "It's all gone quiet over there!": written as it is in the tab-separated
    card data (no CSV quoting: Lackey splits at tabs only) and XML-escaped in the .dek."""
    plugin = exported["quidditch-v2"] / "quidditch-v2"
    name = "\"It's all gone quiet over there!\""
    _header, rows = read_carddata(plugin / "sets" / "carddata.txt")
    assert [row[0] for row in rows].count(name) == 1
    assert name in [card_name for card_name, _, _ in read_dek(plugin / "decks" / "quidditch-v2 (one player loads it).dek")]
    assert "&quot;It&apos;s all gone quiet over there!&quot;</name>" in (
        plugin / "decks" / "quidditch-v2 (one player loads it).dek").read_text("cp1252")
