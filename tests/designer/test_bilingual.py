"""Bilingual faces: a layout field shows the German overlay's text beside the English, fitted
like any text, through `deckgen images`; a German text too long for its box is an error."""

from __future__ import annotations

from PIL import Image, ImageChops

from tests.designer.tidepool import GERMAN, make, overlay

# The pool layout with the German name under the English one.
SECOND = '''
[[layouts.pool.elements]]
name = "name_de"
type = "text"
field = "lang.de.name"
x = "5mm"
y = "15mm"
width = "100% - 10mm"
height = "7mm"
style = "italic"
size = [10, 6]
'''


def _face(run_cli, deck, card_id: str = "co") -> Image.Image:
    result = run_cli("images", deck, "--decks-dir", deck.parent, cwd=deck.parent)
    assert result.exit_code == 0, result.stdout + result.stderr
    return Image.open(next(deck.parent.glob(f"output/*/images/{card_id}.png"))).convert("RGB")


def test_the_german_name_is_drawn_under_the_english_one(tmp_path, run_cli):
    deck = make(tmp_path / "tidepool")
    overlay(deck, GERMAN + '\n[cards.CO]\nname = "Muschelhorn"\n')
    layouts = deck.parent / "layouts" / "tide.toml"
    plain = _face(run_cli, deck)
    layouts.write_text(layouts.read_text().replace("\n[layouts.shell-back]", SECOND + "\n[layouts.shell-back]", 1))
    both = _face(run_cli, deck)
    changed = ImageChops.difference(plain, both).getbbox()
    assert changed is not None
    top_mm = changed[1] / both.height * 94 - 3  # 94 mm with the bleed; from the trim's top
    assert 14 < top_mm < 23, top_mm  # only where the German line stands
    both.save(deck.parent / "both.png")
    # A German name that cannot fit even at 6 pt is refused, naming the card and the element.
    overlay(deck, GERMAN + '\n[cards.CO]\nname = "' + "Muschelhornschneckengehäuse " * 12 + '"\n')
    result = run_cli("validate", deck, "--lang", "de", cwd=deck.parent)
    said = result.stdout + result.stderr
    assert result.exit_code != 0 and "CO.name_de" in said and "does not fit" in said and "Traceback" not in said, said
