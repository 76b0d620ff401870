"""`deckgen images` and a print service's folder hold exactly the current cards: pictures of
removed cards, or of cards whose id changed (a card without its own id takes it from its code), go, and only pictures deckgen wrote itself (a file someone else put
there stays)."""

from __future__ import annotations

from tests.designer.tidepool import make


def _pictures(folder) -> list[str]:
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*.png"))


def _recode_conch(deck) -> None:
    """A new code, and so a new id: the Conch's pictures co.png become qc.png."""
    deck.write_text(deck.read_text(encoding="utf-8").replace('code = "CO"', 'code = "QC"'), encoding="utf-8")


def test_images_folder_keeps_a_users_own_picture(tmp_path, run_cli):
    deck = make(tmp_path / "tidepool")
    out = tmp_path / "out"
    assert run_cli("images", deck, "-o", out, "--dpi", "30").exit_code == 0
    images = out / "tidepool" / "images"
    (images / "my-sketch.png").write_bytes((images / "co.png").read_bytes())
    _recode_conch(deck)
    assert run_cli("images", deck, "-o", out, "--dpi", "30").exit_code == 0
    assert _pictures(images) == ["back.png", "backs/gr.png", "backs/ht.png", "backs/qc.png",
                                 "backs/sa.png", "gr.png", "ht.png", "my-sketch.png",
                                 "qc.png", "sa.png"]


def test_one_card_drawn_then_the_deck_shrinks(tmp_path, run_cli):
    deck = make(tmp_path / "tidepool")
    out = tmp_path / "out"
    assert run_cli("images", deck, "-o", out, "--dpi", "30").exit_code == 0
    assert run_cli("images", deck, "-o", out, "--dpi", "30", "--card", "HT").exit_code == 0
    assert "ht.png" in _pictures(out / "tidepool" / "images")  # the High Tide, its id from its code
    text = deck.read_text(encoding="utf-8")
    start = text.index("[[cards]]\nname = \"High Tide\"")
    deck.write_text(text[:start] + text[text.index("[[card_sources]]"):], encoding="utf-8")
    assert run_cli("images", deck, "-o", out, "--dpi", "30").exit_code == 0
    assert "ht.png" not in _pictures(out / "tidepool" / "images")


def test_tgc_folder_holds_exactly_the_current_cards(tmp_path, run_cli):
    deck = make(tmp_path / "tidepool")
    out = tmp_path / "out"
    first = run_cli("print", deck, "--service", "tgc", "-o", out)
    assert first.exit_code == 0, first.stdout + first.stderr
    folder = out / "tidepool" / "tgc"
    assert "co.png" in _pictures(folder)
    _recode_conch(deck)
    assert run_cli("print", deck, "--service", "tgc", "-o", out).exit_code == 0
    pictures = _pictures(folder)
    assert "co.png" not in pictures and "backs/co.png" not in pictures
    assert "qc.png" in pictures and "backs/qc.png" in pictures
    listed = {line.split(",")[0] for line in (folder / "cards.csv").read_text(encoding="utf-8").splitlines()[1:]}
    assert set(pictures) == listed
