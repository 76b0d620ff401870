"""Translations of a deck with icons and art: the overlay sees the deck's icons, and may add or
replace icons and pictures for its language."""

from __future__ import annotations

from PIL import Image, ImageDraw

from generator.deck.loader import load_deck
from generator.deck.translate import translated
from tests.designer.tidepool import GERMAN, art, make, overlay


def test_an_overlay_of_a_deck_with_icons_validates_and_builds(tmp_path, run_cli):
    deck = make(tmp_path / "tidepool")
    overlay(deck)
    result = run_cli("validate", deck, "--lang", "de")
    assert result.exit_code == 0, result.stdout + result.stderr
    assert "unknown icon" not in result.stdout + result.stderr
    images = run_cli("images", deck, "--lang", "de", "-o", tmp_path / "out", "--dpi", "60")
    assert images.exit_code == 0, images.stdout + images.stderr
    assert (tmp_path / "out" / "tidepool" / "de" / "images").is_dir()


def test_an_unknown_icon_in_a_translated_text_is_still_an_error(tmp_path, run_cli):
    deck = make(tmp_path / "tidepool")
    path = overlay(deck, GERMAN + '\n[cards.CO]\ntext = "Wert {icon:muschel}."\n')
    result = run_cli("validate", deck, "--lang", "de")
    assert result.exit_code == 1
    assert f"{path.name}" in result.stdout + result.stderr
    assert "unknown icon 'muschel'" in result.stdout + result.stderr


def test_an_overlay_adds_and_replaces_icons_and_art(tmp_path, run_cli):
    deck = make(tmp_path / "tidepool")
    german_shell = Image.new("RGBA", (64, 64), (0, 0, 0, 0))
    ImageDraw.Draw(german_shell).rectangle((8, 8, 56, 56), fill=(0, 0, 0, 255))
    german_shell.save(deck.parent / "icons" / "muschel.png")
    art(deck.parent / "art" / "konche.png", (200, 60, 60))
    overlay(deck, GERMAN + '''
[icons]
shell = "icons/muschel.png"
star = "icons/wave.svg"

[cards.CO]
name = "Muschel"
text = "Wert {icon:shell}{icon:star}."
art = "art/konche.png"
''')
    result = run_cli("validate", deck, "--lang", "de")
    assert result.exit_code == 0, result.stdout + result.stderr
    german = translated(load_deck(deck), "de").deck
    icons = {icon.name: icon.path.name for icon in german.icons}
    assert icons == {"shell": "muschel.png", "wave": "wave.svg", "star": "wave.svg"}
    conch = german.find_card("CO")
    assert conch.art.name == "konche.png" and conch.name == "Muschel"
    assert deck.parent / "art" / "konche.png" in german.inputs  # the preview rebuilds when it changes
    images = run_cli("images", deck, "--lang", "de", "-o", tmp_path / "out", "--dpi", "60")
    assert images.exit_code == 0, images.stdout + images.stderr
    face = Image.open(tmp_path / "out" / "tidepool" / "de" / "images" / "co.png").convert("RGB")
    middle = face.getpixel((face.width // 2, face.height // 5))
    assert middle[0] > 150 and middle[1] < 120, middle  # the German art (red), not the base (sand)


def test_a_missing_file_in_an_overlay_names_the_overlay_and_field(tmp_path, run_cli):
    deck = make(tmp_path / "tidepool")
    overlay(deck, GERMAN + '\n[icons]\nshell = "icons/nowhere.png"\n\n[cards.CO]\nart = "art/nowhere.png"\n')
    result = run_cli("validate", deck, "--lang", "de")
    assert result.exit_code == 1
    said = result.stdout + result.stderr
    assert "icons.shell" in said and "nowhere.png" in said
    assert "cards.CO.art" in said and "Traceback" not in said


def test_a_card_keyed_by_its_code_keeps_its_translation_when_renamed(tmp_path, run_cli):
    deck = make(tmp_path / "tidepool")
    overlay(deck, GERMAN + '\n[cards.CO]\nname = "Muschel"\ntext = "Wert {icon:shell}."\n')
    deck.write_text(deck.read_text(encoding="utf-8").replace('name = "Conch"', 'name = "Queen Conch"'),
                    encoding="utf-8")
    result = run_cli("validate", deck, "--lang", "de")
    assert result.exit_code == 0, result.stdout
    assert "names no card" not in result.stdout
    assert translated(load_deck(deck), "de").deck.find_card("CO").name == "Muschel"


def test_validate_lang_asks_only_for_the_phrases_the_rulebook_uses(tmp_path, run_cli):
    """Tidepool's rules hold no figures of play and it has no rulings, variants or suits: its
    overlay is not asked for the Quidditch engines' or the trick figures' words."""
    from generator.deck.phrases import PHRASES, needed_phrases

    deck = make(tmp_path / "tidepool")
    overlay(deck)
    said = run_cli("validate", deck, "--lang", "de", "--simulate", "0").stdout
    asked = {line.split("phrases.", 1)[1].split(": not translated")[0].strip('"')
             for line in said.splitlines() if "warning: phrases." in line}
    assert asked == set(needed_phrases(set(), set()))
    assert {"Contents", "Card reference"} <= asked
    assert not asked & {"Trick", "Keeper", "Bludger", "the Quaffle is in the centre", "Rulings of this edition",
                        "Variants", "{count} in each suit:"}
    assert len(asked) < len(PHRASES) / 2
    trick = needed_phrases({"trick"}, {"rulings"})
    assert "Trick" in trick and "no trump" in trick and "Ruling {number}" in trick and "Keeper" not in trick
