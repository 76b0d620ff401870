"""`deckgen validate --compare`, paired by seed: both arms play the same games, so a difference is
measured game by game (McNemar's exact test on the games won in one arm only), the comparison
says how many games came out differently at all, and a rule the bots never exercise is reported
as such, not as "no difference"; with [playtest] targets it says which arm moves toward them."""

from __future__ import annotations

from dataclasses import replace

import pytest

from generator.core.errors import OptionError
from generator.deck.loader import load_deck
from generator.deck.model import PlaytestTargets
from generator.validate.compare import compare, comparison_text
from generator.validate.playtest import Playtest, Run, Setting
from generator.validate.tally import GameKey, Tally

from tests.conftest import DECKS
from tests.validate.deck_copies import deck_copy

GAMES = 2000


def _run(winner, moves=lambda game: 50, digest=lambda game: game, games: int = GAMES) -> Run:
    """A two-seat run whose game i was won by seat winner(i), kept game by game."""
    tally = Tally(2, keep_games=True)
    for game in range(games):
        seat = winner(game)
        tally.add_game((10, 0) if seat == 0 else (0, 10), (seat,), "finished", moves(game), 0, [])
        tally.keep(0, GameKey(digest(game), moves(game), False, False, 1 << seat))
    return Run(Setting("deck rules", {}), 2, 11, tally)


def _playtest(deck, run: Run) -> Playtest:
    return Playtest(deck, 1, GAMES, "random", runs=[run])


def test_a_paired_difference_is_found_and_the_diverged_games_counted():
    deck = replace(load_deck(DECKS / "muggle-quidditch.toml"), playtest=PlaytestTargets(first_seat_win=(0.55, 0.65)))
    old = _run(lambda game: game % 2)  # seat 1 wins the even games: 50%
    # The new rules turn one game in ten (those seat 2 won) into seat 1's: 60%, a game longer.
    new = _run(lambda game: 0 if game % 10 == 1 else game % 2, moves=lambda game: 51 if game % 10 == 1 else 50,
               digest=lambda game: game + (10 ** 6 if game % 10 == 1 else 0))
    result = compare(_playtest(deck, old), _playtest(deck, new), precision=0.05)
    row = result["rows"][0]
    assert row["games"] == GAMES and row["diverged"] == 200 and row["exercised"]
    seat = row["seats"][0]
    assert seat["a"] == 0.5 and seat["b"] == 0.6 and seat["difference"] == 0.1 and seat["discordant"] == [0, 200]
    assert seat["low"] < 0.1 < seat["high"] and seat["differs"] and seat["p_holm"] < 1e-50
    assert row["length"]["difference"] == 0.1 and row["length"]["differs"]
    assert "McNemar" in result["test"] and "Holm" in result["test"] and result["tests"] == 4
    assert row["targets"] == [{"target": "playtest.first_seat_win", "a": 0.5, "b": 0.6, "verdict": "moves toward"}]
    text = "\n".join(comparison_text(result))
    assert "200 of 2000 games came out differently" in text and "won in one arm only 0 / 200" in text


def test_rules_the_bots_never_exercise_are_not_called_no_difference():
    deck = load_deck(DECKS / "muggle-quidditch.toml")
    same = compare(_playtest(deck, _run(lambda game: game % 2)), _playtest(deck, _run(lambda game: game % 2)))
    row = same["rows"][0]
    assert row["diverged"] == 0 and not row["exercised"]
    text = "\n".join(comparison_text(same))
    assert "the bots never exercised this difference: all 2000 games played out the same" in text
    assert "no difference found" not in text


def test_arms_of_different_lengths_are_paired_as_far_as_both_played():
    """With --simulate auto one arm may stop sooner: games 0..N-1 of both share their seeds."""
    deck = load_deck(DECKS / "muggle-quidditch.toml")
    row = compare(_playtest(deck, _run(lambda game: game % 2)),
                  _playtest(deck, _run(lambda game: 0, games=500)))["rows"][0]
    assert row["games"] == 500 and row["diverged"] == 250 and row["seats"][0]["discordant"] == [0, 250]


def test_arms_that_do_not_share_their_games_are_refused():
    deck = load_deck(DECKS / "muggle-quidditch.toml")
    other = _run(lambda game: game % 2)
    other.run_seed = 12
    with pytest.raises(OptionError, match="same seed"):
        compare(_playtest(deck, _run(lambda game: game % 2)), _playtest(deck, other))


def test_a_variant_that_restates_the_rules_is_never_exercised_through_the_cli(run_cli, tmp_path):
    restated = ('\n[[variants]]\nid = "restated"\nname = "The rules again"\ntext = "The same rules."\n'
                'params = { bid_restriction = "every-round", bidding = "open" }\n')
    deck, _ = deck_copy(tmp_path, "wizard", "wizard-three", restated, players=(3, 3), variants=("never-even",))
    result = run_cli("validate", str(deck), "--compare", "--simulate", "20", "--workers", "1", "--no-skill")
    assert result.exit_code in (0, 1), result.stderr
    blocks = result.stdout.split("compare:")[1].split("\n  wizard-three deck rules vs ")
    restated = next(block for block in blocks if block.startswith("wizard-three variant restated"))
    assert "the bots never exercised this difference: all 20 games played out the same" in restated
    never_even = next(block for block in blocks if block.startswith("wizard-three variant never-even"))
    assert "games came out differently" in never_even


def test_compare_two_decks_through_the_cli(run_cli, tmp_path):
    copy = tmp_path / "wizard-copy.toml"
    copy.write_text((DECKS / "wizard.toml").read_text(encoding="utf-8").replace('id = "wizard"', 'id = "wizard-copy"', 1),
                    encoding="utf-8")
    result = run_cli("validate", "wizard", str(copy), "--compare", "--simulate", "6", "--sweep", "players=3",
                     "--workers", "1", "--no-skill")
    assert "compare: paired by seed: McNemar's exact test" in result.stdout
    assert "wizard vs wizard-copy, 3 players (6 games, same seeds)" in result.stdout
    assert "the bots never exercised this difference" in result.stdout  # the same deck: the same games
    too_many = run_cli("validate", "wizard", "wizard", "wizard", "--compare")
    assert too_many.exit_code == 2 and "--compare takes one deck" in too_many.stderr
