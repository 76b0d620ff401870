"""The ladder of players (`deckgen validate --ladder`): every engine's levels beat the level below
over a fixed set of deals, the matrix and its intervals come out of the CLI as text and JSON,
the figures do not depend on the backend, and bad levels are refused.

The step tests keep budgets small so the suite stays fast; benchmarks/bench_ladder.py plays the
full matrices at larger budgets (figures in docs/playtesting.md)."""

from __future__ import annotations

import json
import re

import pytest

from generator.deck.loader import load_deck
from generator.validate.ladder import ladder, t_quantile

from tests.conftest import DECKS

# (deck, players, levels, deals): the cheapest table where each step shows in a few deals. Wizard at 3
# players needs pimc-4 (pimc-2 won 41.7% of 8 deals, 28.8-54.6%, fair 33.3%), Muggle Quidditch pimc-8
# (pimc-4 won 58.3% of 12 deals, 35.5-81.1%): docs/playtesting.md, "The ladder".
STEPS = [("wizard", 3, ("random", "heuristic", "pimc-4"), 12),
         ("wizard", 6, ("random", "heuristic", "pimc-2"), 8),
         ("wizard-hearts", 3, ("random", "heuristic", "pimc-2"), 6),
         ("quidditch-v2", 2, ("random", "heuristic", "pimc-4"), 12),
         ("muggle-quidditch", 2, ("random", "heuristic", "pimc-8"), 20)]


@pytest.mark.parametrize(("deck_id", "players", "levels", "deals"), STEPS, ids=[f"{s[0]}-{s[1]}" for s in STEPS])
def test_each_level_beats_the_one_below(deck_id, players, levels, deals):
    result = ladder(load_deck(DECKS / f"{deck_id}.toml"), levels, players, deals=deals, seed=1, workers=2,
                    full=False)
    steps = result.steps()
    assert [(step["upper"], step["lower"]) for step in steps] == list(zip(levels[1:], levels))
    assert all(step["holds"] for step in steps), result.text()
    assert all(step["low"] > 1 / players for step in steps)


def test_the_matrix_through_the_cli(run_cli):
    args = ("validate", "quidditch-v2", "--simulate", "0", "--ladder", "--levels", "random,heuristic,pimc-1",
            "--deals", "3", "--sweep", "players=2", "--seed", "2", "--workers", "1")
    data = json.loads(run_cli(*args, "--json").stdout)["decks"][0]["ladders"][0]
    assert data["levels"] == ["random", "heuristic", "pimc-1"] and data["players"] == 2
    assert len(data["cells"]) == 6 and data["fair_share"] == 0.5
    cells = {(cell["top"], cell["field"]): cell for cell in data["cells"]}
    assert cells["heuristic", "random"]["games"] == 6 and cells["heuristic", "random"]["deals"] == 3
    # pimc-1 never leaves the heuristic's choice: a search seat that plays the heuristic's very games
    assert cells["pimc-1", "heuristic"]["share"] == 0.5 == cells["heuristic", "pimc-1"]["share"]
    assert data["steps"][1] == {"upper": "pimc-1", "lower": "heuristic", "share": 0.5, "low": 0.5, "high": 0.5,
                                "holds": False}
    shown = run_cli(*args)
    text = shown.stdout
    assert "Ladder, 2 players" in text and "heuristic over random" in text and "NOT shown" in text
    assert "pimc-1 does not beat heuristic at 95%" in text  # the step that fails is a warning
    # no progress bar where stderr is no terminal: a line per finished cell instead, each once
    lines = [line for line in shown.stderr.splitlines() if line.startswith("ladder, 2 players: ")]
    assert len(lines) == 6 and re.search(r"; 6 of 6 pairings done, \d+ s so far$", lines[-1])
    assert any(line.startswith("ladder, 2 players: pimc-1 against heuristic: 50.0% of the wins (95% interval "
                               "50.0%-50.0%), 3 deals, 6 games; ") for line in lines)


def test_the_figures_do_not_depend_on_the_backend():
    deck = load_deck(DECKS / "quidditch-v2.toml")
    options = dict(levels=["random", "heuristic"], players=3, deals=4, seed=5)
    alone = ladder(deck, workers=1, **options)
    pooled = ladder(deck, workers=2, **options)
    assert json.dumps(alone.as_dict()) == json.dumps(pooled.as_dict())
    assert [tally.state() for tally in alone.cells.values()] == [tally.state() for tally in pooled.cells.values()]


@pytest.mark.parametrize(("levels", "message"), [("random", "two or more different players"),
                                                 ("random,random", "two or more different players"),
                                                 ("random,ismcts-0", "budget is 1 to"),
                                                 ("random,alphazero", "unknown bot")])
def test_bad_levels_are_refused(run_cli, levels, message):
    result = run_cli("validate", "wizard", "--simulate", "0", "--ladder", "--levels", levels)
    assert result.exit_code == 2 and message in result.stderr and "Traceback" not in result.stderr


def test_students_t_quantiles():
    for df, table in ((3, 3.182), (5, 2.571), (10, 2.228), (30, 2.042), (1000, 1.962)):
        assert abs(t_quantile(df) - table) < (0.02 if df == 3 else 0.002)
