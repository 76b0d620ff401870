"""The conformance suite (generator.games.conformance) over every registered engine: each of
its declared player counts, under the deck's rules and each variant, on seeded random games;
its player range; its questions' examples. Then the suite itself: an engine that breaks a
promise is caught by the check for that promise."""

from __future__ import annotations

import random
import tomllib

import pytest

from generator.core.plugins import engine_names
from generator.deck.loader import deck_paths, load_deck
from generator.games import conformance
from generator.games.base import IllegalAction, engine_class, game_for
from generator.games.conformance import NotConforming, check_players, check_questions, check_setting
from generator.games.muggle_quidditch import MuggleQuidditchGame
from generator.games.muggle_quidditch_state import MuggleQuidditchState
from generator.games.questions import Question
from generator.games.trick.game import RulesGame

from tests.conftest import DECKS, ROOT

GAMES = 3  # per setting and player count; `deckgen engines check` plays 4 by default


def _engine_decks() -> dict[str, list]:
    """The decks in decks/ (then examples/) by the registered engine that plays them: the first
    deck of each engine, and every deck the rules engine plays (each is a game of its own)."""
    paths = list(deck_paths(DECKS)) + sorted(ROOT.glob("examples/**/*.toml"))
    found: dict[str, list] = {}
    for path in paths:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        if not isinstance(data.get("deck"), dict):
            continue  # a game log or a layouts file
        name = data["deck"].get("engine") or (RulesGame.id if "rules" in data else None)
        if name not in engine_names() or (found.get(name) and name != RulesGame.id):
            continue  # no engine, one not installed here, or one already played by another deck
        found.setdefault(name, []).append(load_deck(path))
    return found


ENGINE_DECKS = _engine_decks()


def _decks():
    """(engine, deck) for every deck above, and a missing deck for an engine none plays."""
    return [pytest.param(name, deck, id=f"{name}-{deck.id}" if name == RulesGame.id else name)
            for name in engine_names() for deck in ENGINE_DECKS.get(name, [None])]


def _settings():
    """(engine, deck, setting, player count) for every deck above."""
    params = []
    for entry in _decks():
        name, deck = entry.values
        if deck is None:
            params.append(pytest.param(name, None, None, 0, id=f"{name}-no-deck"))
            continue
        game = game_for(deck)
        for setting, _ in conformance.settings(deck):
            for players in range(game.min_players, game.max_players + 1):
                params.append(pytest.param(name, deck, setting, players,
                                           id=f"{entry.id}-{setting.replace(' ', '-')}-{players}p"))
    return params


def _require(name, deck):
    assert deck is not None, f"engine {name!r} is registered, but no deck in decks/ or examples/ plays it"
    return deck


def test_the_shipped_engines_are_registered_by_entry_point():
    assert {RulesGame.id, "muggle-quidditch", "quidditch-v2"} <= set(engine_names())


@pytest.mark.parametrize("engine, deck, setting, players", _settings())
def test_random_games_keep_every_promise(engine, deck, setting, players):
    deck = _require(engine, deck)
    params = dict(conformance.settings(deck))[setting]
    check_setting(game_for(deck, params), players, GAMES, seed=len(setting))


@pytest.mark.parametrize("engine, deck", _decks())
def test_the_declared_player_range_holds(engine, deck):
    for _, params in conformance.settings(_require(engine, deck)):
        check_players(game_for(deck, params))


@pytest.mark.parametrize("engine, deck", _decks())
def test_every_question_answers_its_example(engine, deck):
    check_questions(game_for(_require(engine, deck)))


# --- the suite catches what it promises to catch ------------------------------------------------

MUGGLE = DECKS / "muggle-quidditch.toml"


class NarrowScores(MuggleQuidditchGame):
    def score_bounds(self, num_players):
        return 0, 0


class ShortGames(MuggleQuidditchGame):
    def max_actions(self, num_players):
        return 20


class LaxState(MuggleQuidditchState):
    """Takes any action at a player's turn that it cannot apply, as if it were the first legal one."""

    def apply(self, action):
        if self.current_player() >= 0 and action not in self.legal_actions():
            action = self.legal_actions()[0]
        super().apply(action)


class VagueState(MuggleQuidditchState):
    """Refuses with a rule the deck does not have."""

    def apply(self, action):
        if self.current_player() >= 0 and action not in self.legal_actions():
            raise IllegalAction("no", "no.such.rule")
        super().apply(action)


class SharedState(MuggleQuidditchState):
    def clone(self):
        return self  # a "clone" that is its original


class MoodyState(MuggleQuidditchState):
    def sample_chance(self, rng):
        return super().sample_chance(random.Random())  # ignores the seeded generator


def played_on(state_class):
    """A Muggle Quidditch engine whose games are played on `state_class`."""

    class Engine(MuggleQuidditchGame):
        def new_state(self, num_players=2):
            self.check_players(num_players)
            return state_class(self)

    return Engine


class Crowded(MuggleQuidditchGame):
    max_players = 3  # declares a count it cannot play


def _wrong_answer(game, words):
    return {"answer": "maybe", "rules": ["mq.goal.pair"]}  # a play question must say allowed or not


class Evasive(MuggleQuidditchGame):
    questions = (Question("play", "play", "play CARD", "may I play it", "play 7H", _wrong_answer),)


@pytest.mark.parametrize("engine, check", [
    (NarrowScores, "random-games"), (ShortGames, "random-games"), (played_on(LaxState), "illegal-actions"),
    (played_on(VagueState), "illegal-actions"), (played_on(SharedState), "clone-and-replay"),
    (played_on(MoodyState), "determinism"),
], ids=["narrow-scores", "short-games", "lax", "vague", "shared-clone", "moody-chance"])
def test_a_broken_promise_is_caught_by_its_check(engine, check):
    game = engine(load_deck(MUGGLE))
    with pytest.raises(NotConforming) as caught:
        check_setting(game, 2, GAMES)
    assert caught.value.check == check, str(caught.value)


def test_a_player_count_the_engine_cannot_play_is_caught():
    with pytest.raises(NotConforming, match="a game for 3 players does not say it has that many") as caught:
        check_players(Crowded(load_deck(MUGGLE)))
    assert caught.value.check == "players"


def test_a_question_that_answers_out_of_protocol_is_caught():
    with pytest.raises(NotConforming, match="no 'allowed'"):
        check_questions(Evasive(load_deck(MUGGLE)))
