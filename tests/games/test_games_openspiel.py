"""An outside oracle, when OpenSpiel is installed (`pip install open_spiel`; skipped
otherwise): random OpenSpiel `oh_hell` games replayed in our Wizard engine must offer the
same legal bids and cards at every step and end with the same tricks.

Oh Hell is Wizard without Wizards and Jesters, and its "hook" (the last bidder may never
make the bids even) is our `never-even` restriction. Only suit cards are dealt and the
turned card is OpenSpiel's trump card, so every Wizard rule that applies is exercised."""

from __future__ import annotations

import random

import pytest

from generator.games.base import game_for
from generator.games.tricks import ChooseSeat, Deal
from generator.games.trick.actions import BID, TurnUp
from generator.deck.loader import load_deck

from tests.conftest import DECKS

pyspiel = pytest.importorskip("pyspiel")

GAME = game_for(load_deck(DECKS / "wizard.toml"), {"bid_restriction": "never-even"})


def our_card(text: str) -> int:
    """OpenSpiel writes suit then rank ("ST" is the Ten of Spades); our codes are rank then suit."""
    rank = "10" if text[1] == "T" else text[1]
    return GAME.table.index(rank + text[0])


@pytest.mark.parametrize("players, tricks", [(3, 4), (4, 5), (5, 7), (6, 3)])
def test_oh_hell_games_replay_identically(players, tricks):
    spiel_game = pyspiel.load_game(f"oh_hell(players={players},num_tricks_fixed={tricks})")
    for seed in range(25):
        rng = random.Random(seed)
        spiel = spiel_game.new_initial_state()
        chance = []  # (first: the fixed trick count) dealer, each dealt card, the trump card
        while spiel.is_chance_node():
            outcome = rng.choice(spiel.chance_outcomes())[0]
            chance.append(spiel.action_to_string(outcome))
            spiel.apply_action(outcome)
        dealer = int(chance[-2 - players * tricks])
        dealt = [our_card(text) for text in chance[-1 - players * tricks:-1]]
        ours = GAME.new_state(players)
        ours.apply(ChooseSeat(dealer))
        ours.round = tricks - 1  # a round of `tricks` cards each
        ours.apply(Deal(tuple(tuple(dealt[seat::players]) for seat in range(players))))
        ours.apply(TurnUp(our_card(chance[-1])))
        while not spiel.is_terminal():
            assert ours.current_player() == spiel.current_player()
            spiel_legal = spiel.legal_actions()
            texts = {spiel.action_to_string(a): a for a in spiel_legal}
            if ours.phase == ours.PLAY:
                assert {our_card(t) for t in texts} == set(ours.legal_actions())
                choice = rng.choice(sorted(texts))
                ours.apply(our_card(choice))
            else:
                assert {int(t) for t in texts} == {a - BID for a in ours.legal_actions()}
                choice = rng.choice(sorted(texts))
                ours.apply(BID + int(choice))
            spiel.apply_action(texts[choice])
        entry = ours.history[-1]
        expected = [won + (10 if won == bid else 0) for won, bid in zip(entry["won"], entry["bids"])]
        assert [int(r) for r in spiel.returns()] == expected
