"""Helpers shared by the trick-taking engine tests."""

from __future__ import annotations

import pytest

from generator.games.base import IllegalAction
from generator.deck.model import Deck


def refused(deck: Deck, state, action) -> IllegalAction:
    """Apply an action the rules forbid: it must raise, cite a real rule, and leave the state as it was."""
    before = (state.legal_actions(), state.current_player(), [list(h) for h in state.hands])
    with pytest.raises(IllegalAction) as caught:
        state.apply(action)
    assert (state.legal_actions(), state.current_player(), [list(h) for h in state.hands]) == before
    assert deck.rule(caught.value.rule)  # cites a real rule of the deck
    return caught.value
