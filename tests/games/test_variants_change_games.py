"""Every shipped variant changes the games heuristic players play: the heuristics use the rules
the variants change (Wizard's bids in the final round, the bids each player can see; Wizard
Hearts' Shun leads; the Keepers; the turn cap; the Seekers and the Snitch), so `--compare`
never reports "no difference" for a rule its players never exercised.

Each variant is simulated through the CLI as a user would, and its JSON must differ from the
deck's own rules; for Wizard also from the variants that differ from it in one rule only."""

from __future__ import annotations

import json

import pytest

from generator.deck.loader import load_deck

from tests.conftest import DECKS

GAMES = {"wizard": 200, "wizard-hearts": 60, "muggle-quidditch": 100, "quidditch-v2": 40}
PLAYERS = {"wizard": 3, "wizard-hearts": 4, "muggle-quidditch": 2, "quidditch-v2": 3}
VARIANTS = [(deck_id, variant.id) for deck_id in GAMES for variant in load_deck(DECKS / f"{deck_id}.toml").variants]


def _games(run_cli, deck_id: str, variant: str | None) -> dict:
    args = ["simulate", deck_id, "-n", str(GAMES[deck_id]), "-p", str(PLAYERS[deck_id]), "--bot", "heuristic",
            "--seed", "3", "--json"]
    result = run_cli(*args, *(["--variant", variant] if variant else []))
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    data.pop("bots")
    return data


@pytest.mark.parametrize(("deck_id", "variant"), VARIANTS, ids=[f"{d}-{v}" for d, v in VARIANTS])
def test_each_variant_changes_the_games(run_cli, deck_id, variant):
    assert _games(run_cli, deck_id, variant) != _games(run_cli, deck_id, None)


@pytest.mark.parametrize(("variant", "other"), [
    ("final-round", "no-restriction"),  # the restriction binds only in the final round: bids must reach it there
    ("hidden-bids", "no-restriction"),  # neither restricts; hidden bids cannot be bid against
    ("delayed-bids", "hidden-bids"),  # both hide the bids while bidding; delayed ones stay hidden in play
])
def test_wizard_variants_one_rule_apart_play_differently(run_cli, variant, other):
    assert _games(run_cli, "wizard", variant) != _games(run_cli, "wizard", other)
