"""A game log's [params] change the deck's engine parameters for that game only, within what
the deck can deal: a hand larger than the deck allows is refused where it is written."""

from __future__ import annotations

from tests.conftest import ROOT

EXAMPLE = ROOT / "examples" / "muggle-quidditch.toml"


def test_a_hand_the_deck_cannot_deal_is_refused(run_cli, tmp_path):
    text = EXAMPLE.read_text(encoding="utf-8")
    start = text.index("\n[")
    log = tmp_path / "game.toml"
    log.write_text(text[:start] + "\n[params]\nhand_size = 1000\ndraw_to = 1000\n" + text[start:], encoding="utf-8")
    line = log.read_text(encoding="utf-8").splitlines().index("hand_size = 1000") + 1
    result = run_cli("referee", "muggle-quidditch", log)
    assert result.exit_code == 2, result.stdout + result.stderr
    assert (f"game.toml:{line}: error: params.hand_size: a hand of 1000 cards for each of 2 players needs 2000 "
            "cards; the deck has 54") in result.stderr


def test_the_example_with_its_own_hand_is_still_refereed(run_cli):
    assert run_cli("referee", "muggle-quidditch", EXAMPLE).exit_code == 0
