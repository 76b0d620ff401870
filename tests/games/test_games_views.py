"""What one seat sees (`GameState.view`, `Game.action_view`), for the four shipped decks and the
rules engine's examples:
its own hand, every public card, and nothing of another seat's hidden cards. The main check
is the one a cheater would run: change what the seat cannot see (swap cards between other
hands, or between a hand and the draw pile) and the seat's view must not change at all."""

from __future__ import annotations

import random

import pytest

from generator.deck.loader import load_deck
from generator.games.base import CHANCE, TERMINAL, game_for
from generator.games.bots import make_bot
from generator.games.trick.actions import BIDDING, PASS, PASSING
from tests.conftest import DECKS, ROOT

SEATS = {"wizard": 4, "wizard-hearts": 4, "muggle-quidditch": 2, "quidditch-v2": 3,
         "hearts": 4, "spades": 4, "oh-hell": 5, "whist": 4, "corsairs": 3, "euchre": 4, "german-whist": 2}
RULES_EXAMPLES = ROOT / "examples" / "rules"


def game_of(deck_id: str, **params):
    shipped = DECKS / f"{deck_id}.toml"
    path = shipped if shipped.exists() else RULES_EXAMPLES / f"{deck_id}.toml"
    return game_for(load_deck(path), params or None)


def played_states(game, players: int, seed: int, every: int = 3):
    """(state before, action, state after) along a game of heuristic bots, every few actions."""
    rng = random.Random(seed)
    bots = [make_bot(game, "heuristic", random.Random(seed + seat)) for seat in range(players)]
    state = game.new_state(players)
    count = 0
    while state.current_player() != TERMINAL and count < 2000:
        actor = state.current_player()
        action = state.sample_chance(rng) if actor == CHANCE else bots[actor].choose(state)
        after = state.clone()
        after.apply(action)
        if count % every == 0 or actor == CHANCE:
            yield state, action, after
        state = after
        count += 1


def with_hidden_cards_moved(state, seat: int, rng: random.Random):
    """A copy of `state` that differs only in what `seat` cannot see, or None if nothing can move."""
    other = state.clone()
    others = [s for s in range(state.num_players) if s != seat]
    if isinstance(other.hands[0], dict):  # quidditch-v2: hands and the draw pile count cards by id
        holder = next((s for s in others if other.hands[s]), None)
        spare = [card for card, n in other.draw.items() if n]
        if holder is None or not spare:
            return None
        taken = rng.choice(sorted(other.hands[holder]))
        given = rng.choice(sorted(spare))
        for pile, card, change in ((other.hands[holder], taken, -1), (other.draw, taken, 1),
                                   (other.draw, given, -1), (other.hands[holder], given, 1)):
            pile[card] = pile.get(card, 0) + change
            if not pile[card]:
                del pile[card]
        return other
    if hasattr(other, "draw_pile"):  # muggle quidditch: a card of the other hand trades places with the pile
        holder = others[0]
        if not other.hands[holder] or not other.draw_pile:
            return None
        i, j = rng.randrange(len(other.hands[holder])), rng.randrange(len(other.draw_pile))
        other.hands[holder][i], other.draw_pile[j] = other.draw_pile[j], other.hands[holder][i]
        return other
    holders = [s for s in others if other.hands[s]]  # trick games: two other hands swap a card
    stock = [i for i, card in enumerate(other.info.stock) if card != other.info.turned]
    if len(holders) == 1 and stock:  # two players: the other hand trades a card with the stock
        holder, i, j = holders[0], rng.randrange(len(other.hands[holders[0]])), rng.choice(stock)
        other.hands[holder][i], other.info.stock[j] = other.info.stock[j], other.hands[holder][i]
        return other
    if len(holders) < 2:
        return None
    a, b = rng.sample(holders, 2)
    i, j = rng.randrange(len(other.hands[a])), rng.randrange(len(other.hands[b]))
    other.hands[a][i], other.hands[b][j] = other.hands[b][j], other.hands[a][i]
    return other


@pytest.mark.parametrize("deck_id", sorted(SEATS))
def test_a_seat_cannot_tell_hidden_cards_apart(deck_id):
    game = game_of(deck_id)
    players = SEATS[deck_id]
    rng = random.Random(3)
    checked = 0
    for seed in (1, 2):
        for state, _, _ in played_states(game, players, seed):
            seat = rng.randrange(players)
            moved = with_hidden_cards_moved(state, seat, rng)
            if moved is None:
                continue
            assert moved.view(seat) == state.view(seat)
            assert moved.view(None) == state.view(None)
            checked += 1
    assert checked > 40


@pytest.mark.parametrize("deck_id", sorted(SEATS))
def test_a_seat_sees_its_own_hand_and_every_hand_size(deck_id):
    game = game_of(deck_id)
    players = SEATS[deck_id]
    for state, _, _ in played_states(game, players, 5, every=11):
        sizes = []
        for seat in range(players):
            view = state.view(seat)
            held = state.hands[seat]
            count = sum(held.values()) if isinstance(held, dict) else len(held)
            assert len(view["hand"]) == count
            sizes.append(count)
            assert set(view) == {"hand", "hand_sizes", "areas", "counters", "columns", "rounds", "scores"}
        assert state.view(None)["hand"] == []
        assert state.view(0)["hand_sizes"] == sizes


def test_wizard_deals_are_told_without_their_cards_and_the_turned_card_is_public():
    game = game_of("wizard")
    deals = turns = 0
    for before, action, after in played_states(game, 3, 7):
        if type(action).__name__ == "Deal":
            for seat in (None, 0, 1, 2):
                event = game.action_view(before, action, after, seat)
                assert event["seat"] is None and "deals round" in event["text"]
                assert not any(game.table.code[card] in event["text"].split() for hand in action.hands for card in hand)
            deals += 1
        if type(action).__name__ == "TurnUp":
            assert game.table.code[action.card] in game.action_view(before, action, after, 1)["text"]
            assert any(card["code"] == game.table.code[action.card]
                       for area in after.view(2)["areas"] for card in area["cards"])
            turns += 1
    assert deals > 5 and turns > 5


def test_wizard_hidden_bids_stay_hidden_until_everyone_has_bid():
    game = game_of("wizard", bidding="hidden", bid_restriction="none")
    seen_hidden = seen_open = 0
    for before, action, after in played_states(game, 3, 9, every=1):
        if before.phase != BIDDING:
            continue
        bidder = before.current_player()
        for seat in range(3):
            text = game.action_view(before, action, after, seat)["text"]
            assert text == (f"bids {action - 1000}" if seat == bidder else "bids")
        if after.phase == BIDDING:
            bids = after.view((bidder + 1) % 3)["columns"]["Bid"]
            assert bids[bidder] == "?"
            assert after.view(bidder)["columns"]["Bid"][bidder] == action - 1000
            seen_hidden += 1
        else:
            assert after.view(0)["columns"]["Bid"] == after.bids
            seen_open += 1
    assert seen_hidden and seen_open


def test_wizard_hearts_passes_are_seen_by_the_passer_alone():
    game = game_of("wizard-hearts")
    passes = 0
    for before, action, after in played_states(game, 4, 4, every=1):
        if before.phase != PASSING or action < PASS:
            continue
        passer = before.current_player()
        code = game.table.code[action - PASS]
        for seat in range(4):
            text = game.action_view(before, action, after, seat)["text"]
            assert (code in text.split()) == (seat == passer)
            areas = after.view(seat)["areas"]
            passing = [card["code"] for area in areas if area["kind"] == "pass" for card in area["cards"]]
            if seat != passer:
                assert code not in passing
        passes += 1
    assert passes >= 12


def test_muggle_quidditch_draws_are_named_to_the_drawer_only():
    game = game_of("muggle-quidditch")
    draws = 0
    for before, action, after in played_states(game, 2, 6, every=1):
        if type(action).__name__ != "Draw" or not after.record.drew:
            continue
        drawer = before.current_player()
        drawn = after.record.drew
        mine = game.action_view(before, action, after, drawer)["text"]
        theirs = game.action_view(before, action, after, 1 - drawer)["text"]
        assert all(code in mine.split() for code in drawn)
        assert theirs.endswith(f"draws {len(drawn)} card(s)")
        draws += 1
    assert draws > 10


def test_quidditch_v2_cards_drawn_into_a_hand_are_named_to_its_holder_only():
    game = game_of("quidditch-v2")
    draws = 0
    for before, action, after in played_states(game, 3, 2, every=1):
        frame = before.stack[-1]
        if type(action).__name__ != "Draw" or frame[4] != "hand":
            continue
        holder = frame[3]
        code = before._code(action.card)
        for seat in range(3):
            text = game.action_view(before, action, after, seat)["text"]
            assert text == (f"draws {code}" if seat == holder else "draws a card")
        draws += 1
    assert draws > 10
