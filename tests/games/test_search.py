"""Search players and the worlds they sample (`GameState.determinize`), for every engine:

- a sampled world keeps everything the seat has seen (its cards, the public cards and counts,
  the others' hand sizes, the legal actions) and moves only what it has not seen, never against
  a void a player showed, a card the seat passed, or a card taken face up;
- a world depends on the seat's information alone: sampling again from a sampled world gives
  the very world sampled from the true one (so a search player cannot find the hidden cards'
  true places, and chooses the same from both);
- search players replay exactly from a seed, through the CLI too, and bad names are refused.
"""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from generator.deck.loader import load_deck
from generator.games.base import CHANCE, TERMINAL, game_for
from generator.games.bots import make_bot
from generator.games.simulate import derive_seed, play_game
from generator.games.trick.actions import PASSING

from tests.conftest import DECKS

TABLES = [("wizard", 3), ("wizard", 6), ("wizard-hearts", 4), ("wizard-hearts", 5), ("muggle-quidditch", 2),
          ("quidditch-v2", 2), ("quidditch-v2", 5)]
VARIANT_TABLES = [("wizard", "hidden-bids", 4), ("wizard", "delayed-bids", 4), ("quidditch-v2", "returned-seekers", 3)]


def _game(deck_id: str, variant: str | None = None):
    deck = load_deck(DECKS / f"{deck_id}.toml")
    return game_for(deck, dict(deck.variant(variant).params) if variant else None)


def _snapshot(state) -> dict:
    """Every field of a state as plain comparable data (the game and its tables left out)."""
    names = getattr(type(state), "__slots__", None) or vars(state)
    return {name: getattr(state, name) for name in names
            if name not in ("game", "table", "params", "suit_of", "claims", "_legal", "draw_cards", "opponent_seats")}


def _seen(state, seat: int) -> dict:
    """What the seat sees: engine by engine, its own cards, the public table and the hand sizes."""
    sizes = [sum(Counter(hand).values()) for hand in state.hands]  # a list, or card -> copies
    if hasattr(state, "trick"):  # the rules engine's trick games
        info = state.info
        seen = {"hand": state.hands[seat], "trick": state.trick, "won": state.won, "totals": state.totals,
                "voids": info.voids, "sizes": sizes, "turn": state.turn, "phase": state.phase,
                "turned": info.turned, "passed": info.passed[seat] if info.passed else []}
        if state.game.bidding is not None:
            seen["bids"] = [bid if state.sees_bid(seat, other) else "?" for other, bid in enumerate(state.bids)]
        return seen
    if hasattr(state, "snitch_zone"):  # Quidditch v2
        return {"hand": state.hands[seat], "table": state.table, "discard": state.discard, "dom": state.dom,
                "score": state.score, "quaffle": state.quaffle, "sizes": sizes, "draw_total": state.draw_total,
                "shown": state.shown, "stack": state.stack}
    return {"hand": state.hands[seat], "teams": state.teams, "discard": state.discard_pile, "sizes": sizes,
            "draw": len(state.draw_pile), "shown": state.shown, "phase": state.phase, "scores": state.standing()}


def _every_card(state) -> Counter:
    if hasattr(state, "zone_counts"):
        return Counter(state.zone_counts())
    if hasattr(state, "all_cards"):
        return Counter(state.all_cards())
    held = Counter(card for hand in state.hands for card in hand)
    held.update(state.info.aside)  # the cards left over this round
    if state.phase == PASSING:  # passed, not yet received
        held.update(card for passed in state.info.passed for card in passed)
    return held


def _check_world(game, state, seat: int, world) -> None:
    assert _seen(world, seat) == _seen(state, seat)
    assert _every_card(world) == _every_card(state)
    assert list(world.legal_actions()) == list(state.legal_actions())
    if hasattr(state, "info") and state.info.voids:  # nobody holds a suit they showed void in
        suit_of = state.table.suit
        for other, hand in enumerate(world.hands):
            assert not any(state.info.voids[other] >> suit_of[card] & 1 for card in hand if suit_of[card] >= 0)
    for other, known in enumerate(getattr(state, "shown", ())):  # cards taken face up stay where they went
        assert not Counter(known) - Counter(world.hands[other])


def _positions(game, players: int, seed: int, every: int = 5):
    """Decision points of a seeded heuristic game, every `every`-th one."""
    rng = random.Random(seed)
    bots = [make_bot(game, "heuristic", random.Random(derive_seed(seed, seat))) for seat in range(players)]
    state = game.new_state(players)
    decisions = 0
    while state.current_player() != TERMINAL:
        player = state.current_player()
        if player == CHANCE:
            state.apply(state.sample_chance(rng))
            continue
        decisions += 1
        if decisions % every == 0:
            yield state
        state.apply(bots[player].choose(state))


@pytest.mark.parametrize(("deck_id", "players"), TABLES, ids=[f"{d}-{p}" for d, p in TABLES])
def test_worlds_keep_what_the_seat_saw_and_depend_on_nothing_else(deck_id, players):
    game = _game(deck_id)
    moved = checked = 0
    for position, state in enumerate(_positions(game, players, seed=11)):
        seat = state.current_player()
        world = state.determinize(seat, random.Random(position))
        _check_world(game, state, seat, world)
        again = world.determinize(seat, random.Random(1000 + position))
        assert _snapshot(again) == _snapshot(state.determinize(seat, random.Random(1000 + position)))
        moved += _snapshot(world) != _snapshot(state)
        checked += 1
    assert checked >= 10 and moved >= checked // 2  # the worlds do move what the seat has not seen


@pytest.mark.parametrize(("deck_id", "variant", "players"), VARIANT_TABLES, ids=[f"{d}-{v}" for d, v, _ in VARIANT_TABLES])
def test_worlds_under_variants_that_hide_or_show_more(deck_id, variant, players):
    game = _game(deck_id, variant)
    guessed = 0
    for position, state in enumerate(_positions(game, players, seed=3, every=3)):
        seat = state.current_player()
        world = state.determinize(seat, random.Random(position))
        _check_world(game, state, seat, world)
        if hasattr(state, "bids"):
            unseen = [other for other in range(players) if state.bids[other] is not None
                      and not state.sees_bid(seat, other)]
            guessed += bool(unseen)
    if variant.endswith("bids"):
        assert guessed  # bids the seat cannot see are guessed, not copied


def test_a_search_player_chooses_the_same_in_every_world_the_seat_cannot_tell_apart():
    game = _game("wizard-hearts")
    for position, state in enumerate(_positions(game, 4, seed=2, every=9)):
        seat = state.current_player()
        world = state.determinize(seat, random.Random(position))
        choices = [make_bot(game, "ismcts-12", random.Random(7)).choose(s) for s in (state, world)]
        assert choices[0] == choices[1]
        if position == 5:
            break


@pytest.mark.parametrize(("deck_id", "players"), [("wizard", 6), ("muggle-quidditch", 2), ("quidditch-v2", 3)])
def test_search_games_replay_from_their_seed(deck_id, players):
    game = _game(deck_id)
    bots = ["ismcts-8", "pimc-2"] + ["heuristic"] * (players - 2)
    first = play_game(game, players, 99, bots, keep_actions=True)
    assert play_game(game, players, 99, bots, keep_actions=True) == first
    assert first[0].reason == "finished"


def test_simulate_with_search_players_through_the_cli(run_cli):
    args = ("simulate", "wizard", "-n", "2", "-p", "6", "--seed", "4", "--json",
            "--bot", "ismcts-6,heuristic,pimc-1,heuristic,random,heuristic")
    first = run_cli(*args)
    assert first.exit_code == 0, first.stderr
    assert json.loads(first.stdout)["bots"][0] == "ismcts-6"
    assert run_cli(*args).stdout == first.stdout


@pytest.mark.parametrize("name", ["ismcts-0", "mcts-5", "pimc-", "ismcts-1000001"])
def test_unknown_or_unbounded_search_players_are_refused(run_cli, name):
    result = run_cli("simulate", "wizard", "-n", "1", "--bot", name)
    assert result.exit_code == 2
    assert "bot" in result.stderr and "Traceback" not in result.stderr


def test_the_dealers_turned_up_trump_stays_with_the_dealer_in_every_world():
    """Whist turns the dealer's last card for trump, face up: until it is played, every world a
    seat samples leaves it in the dealer's hand."""
    deck = load_deck(DECKS.parent / "examples" / "rules" / "whist.toml")
    game = game_for(deck)
    held = 0
    for position, state in enumerate(_positions(game, game.min_players, seed=5, every=2)):
        seat, turned = state.current_player(), state.info.turned
        world = state.determinize(seat, random.Random(position))
        assert sorted(world.hands[seat]) == sorted(state.hands[seat])
        if seat != state.dealer and turned is not None and turned in state.hands[state.dealer]:
            assert turned in world.hands[state.dealer]
            held += 1
    assert held >= 3


def test_muggle_quidditch_worlds_after_the_draw_pile_is_rebuilt():
    """A rebuilt draw pile is the discards (seen by both); when it is rebuilt every unseen card is
    in the other hand, so a sampled world's draw pile holds only cards of the rebuilt pile."""
    game = _game("muggle-quidditch")
    checked = 0
    for seed in range(4):
        rng = random.Random(seed)
        bots = [make_bot(game, "heuristic", random.Random(derive_seed(seed, seat))) for seat in range(2)]
        state, rebuilt = game.new_state(2), None
        while state.current_player() != TERMINAL:
            player = state.current_player()
            if player == CHANCE:
                if state.turn:  # a rebuild, not the deal
                    rebuilt = Counter(state.shuffle_cards)
                state.apply(state.sample_chance(rng))
                continue
            if rebuilt is not None:
                world = state.determinize(player, random.Random(checked))
                assert not Counter(world.draw_pile) - rebuilt
                assert Counter(world.hands[1 - player]) - rebuilt == Counter(state.hands[1 - player]) - rebuilt
                checked += 1
            state.apply(bots[player].choose(state))
    assert checked >= 50
