"""The compiled playouts (`generator.games.playout_shapes`) play only Wizard's and Wizard Hearts'
shapes: a Wizard or Wizard Hearts deck given a newer part of the rules language in its TOML (the
deal moving right, a dealer who may sit out, cards above the trumps, no trump named) is left to
the Python engine, which plays them."""

from __future__ import annotations

import pytest

from generator.deck.loader import load_deck
from generator.games.base import game_for
from generator.games.playout_shapes import hearts_shape, wizard_shape

from tests.conftest import DECKS

WIZARD = ("wizard", 'hand = "round"', wizard_shape)
HEARTS = ("wizard-hearts", 'hand = "cards // players"', hearts_shape)
def changed(tmp_path, name: str, anchor: str, extra: str):
    text = (DECKS / f"{name}.toml").read_text(encoding="utf-8")
    assert anchor in text
    path = tmp_path / f"{name}.toml"
    path.write_text(text.replace(anchor, f"{anchor}\n{extra}", 1), encoding="utf-8")
    return game_for(load_deck(path))


@pytest.mark.parametrize("name, anchor, shape", [WIZARD, HEARTS], ids=["wizard", "wizard-hearts"])
def test_the_decks_as_shipped_have_their_shape(name, anchor, shape):
    assert shape(game_for(load_deck(DECKS / f"{name}.toml"))) is not None


@pytest.mark.parametrize("name, anchor, shape", [WIZARD, HEARTS], ids=["wizard", "wizard-hearts"])
def test_the_deal_moving_right_goes_to_python(tmp_path, name, anchor, shape):
    assert shape(changed(tmp_path, name, anchor, 'rotation = "right"')) is None


@pytest.mark.parametrize("extra, anchor", [
    ('dealer_sits_out = "players == 99"', 'hand = "round"'),  # a dealer who may sit out
    ("may_name_none = true", 'dealer_chooses = "kind:wizard"'),
    ('top = ["rank:jack suit:trump"]', 'dealer_chooses = "kind:wizard"'),
])
def test_wizard_with_a_newer_rule_goes_to_python(tmp_path, extra, anchor):
    assert wizard_shape(changed(tmp_path, "wizard", anchor, extra)) is None
