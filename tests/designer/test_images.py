"""`deckgen images --card CODE` draws one card; a full run leaves exactly the current cards' pictures."""

from __future__ import annotations

from PIL import Image

from tests.designer.tidepool import make


def test_one_card_is_drawn_alone(tmp_path, run_cli):
    deck = make(tmp_path / "tidepool")
    result = run_cli("images", deck, "--card", "GR", "-o", tmp_path / "out", "--dpi", "60")
    assert result.exit_code == 0, result.stdout + result.stderr
    images = tmp_path / "out" / "tidepool" / "images"
    assert sorted(p.relative_to(images).as_posix() for p in images.rglob("*.png")) == \
        ["backs/gr.png", "gr.png"]  # the Grouper, its id from its code
    back = Image.open(images / "backs" / "gr.png").convert("RGB")
    assert back.getpixel((back.width // 2, back.height // 2)) == (0x1d, 0x6f, 0xb5)  # the fish kind's back
    assert "1 face(s)" in result.stdout


def test_an_unknown_card_lists_the_codes(tmp_path, run_cli):
    deck = make(tmp_path / "tidepool")
    result = run_cli("images", deck, "--card", "XX", "-o", tmp_path / "out")
    assert result.exit_code != 0
    said = result.stdout + result.stderr
    assert "--card 'XX'" in said and "CO, HT, SA, GR" in said and "Traceback" not in said


def test_a_renamed_card_keeps_its_picture_and_a_recoded_one_leaves_none_behind(tmp_path, run_cli):
    deck = make(tmp_path / "tidepool")
    out = tmp_path / "out"
    assert run_cli("images", deck, "-o", out, "--dpi", "60").exit_code == 0
    images = out / "tidepool" / "images"
    pictures = sorted(p.relative_to(images).as_posix() for p in images.rglob("*.png"))
    assert "co.png" in pictures and "backs/co.png" in pictures  # the Conch: its id comes from its code
    deck.write_text(deck.read_text(encoding="utf-8").replace('name = "Conch"', 'name = "Queen Conch"'),
                    encoding="utf-8")
    assert run_cli("images", deck, "-o", out, "--dpi", "60").exit_code == 0
    assert sorted(p.relative_to(images).as_posix() for p in images.rglob("*.png")) == pictures
    deck.write_text(deck.read_text(encoding="utf-8").replace('code = "CO"', 'code = "QC"'), encoding="utf-8")
    assert run_cli("images", deck, "-o", out, "--dpi", "60").exit_code == 0
    assert not (images / "co.png").exists() and not (images / "backs" / "co.png").exists()
    assert (images / "qc.png").is_file() and (images / "backs" / "qc.png").is_file()
    assert len(list(images.glob("*.png"))) == 5  # four faces and the deck's back
