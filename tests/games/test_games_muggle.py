"""Muggle Quidditch rules, one scenario per rule and per ruling of decks/muggle-quidditch.toml.

Every position is built by hand from the rule text: who holds what, who has which team,
what lies on the piles. Then one action is tried and the outcome compared with what the
rule says should happen (or the rule id the refusal must cite).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import generator.games.muggle_quidditch as engine
from generator.games.base import CHANCE, TERMINAL, IllegalAction, game_for
from generator.games.muggle_quidditch import Bludger, ChooseHouse, Discard, Dive, Draw, Goal, Lose, MuggleQuidditchGame, Pass, Recruit, Shuffle, Spot
from generator.deck.loader import load_deck

from tests.conftest import DECKS

DECK = load_deck(DECKS / "muggle-quidditch.toml")


def make_game(**params) -> MuggleQuidditchGame:
    return game_for(DECK, params)


def position(game: MuggleQuidditchGame | None = None, *, houses=("hearts", "diamonds"), hands=((), ()),
             teams=({}, {}), draw=(), discard=(), snitch=0, phase="action", active=0, turn=5):
    """A mid-match state. `draw` is listed top card first; `discard` bottom to top."""
    state = (game or make_game()).new_state(2)
    state.houses = list(houses)
    state.hands = [list(hand) for hand in hands]
    state.teams = [dict(team) for team in teams]
    state.draw_pile = list(reversed(draw))
    state.discard_pile = list(discard)
    state.snitch = ["JK"] * snitch
    state.phase = phase
    state.active = active
    state.turn = turn
    return state


def refused(state, action) -> IllegalAction:
    with pytest.raises(IllegalAction) as caught:
        state.apply(action)
    return caught.value


def goal(first, second):
    return Goal(make_game().goal_pair(first, second))


# --- the deck ---------------------------------------------------------------------------------

def test_deck_has_54_cards_with_roles_by_rank():
    """mq.components.deck, mq.components.roles, ruling mq.ruling.card-roles."""
    assert DECK.total == 54 and DECK.engine == "muggle-quidditch"
    kinds = {card.code: card.kind for card in DECK.cards}
    assert [kinds[f"A{s}"] for s in "HSDC"] == ["seeker"] * 4
    assert [kinds[f"K{s}"] for s in "HSDC"] == ["keeper"] * 4
    assert [kinds[f"Q{s}"] for s in "HSDC"] == ["chaser"] * 4
    assert [kinds[f"J{s}"] for s in "HSDC"] == ["beater"] * 4
    assert sum(1 for card in DECK.copies() if card.kind == "quaffle") == 36
    joker = DECK.card("JK")
    assert joker.kind == "joker" and joker.count == 2


def test_houses_follow_the_suits():
    """mq.components.houses: Hearts Gryffindor, Spades Hufflepuff, Diamonds Slytherin, Clubs Ravenclaw."""
    game = make_game()
    assert [game.house_name(suit) for suit in ("hearts", "spades", "diamonds", "clubs")] == [
        "Gryffindor", "Hufflepuff", "Slytherin", "Ravenclaw"]
    assert game.suit_named("slytherin") == "diamonds" and game.suit_named("H") == "hearts"


def test_declared_bounds():
    game = make_game()
    assert (game.min_players, game.max_players) == (2, 2)
    assert game.score_bounds(2) == (0, 18 * 10 + 150)
    assert game.max_actions(2) == 3 + 5 * 400
    with pytest.raises(Exception, match="2-2 players"):
        game.new_state(3)


# --- setup ------------------------------------------------------------------------------------

def test_first_player_picks_first_and_houses_differ():
    """mq.setup.houses, ruling mq.ruling.houses."""
    state = make_game().new_state(2)
    assert state.current_player() == 0
    state.apply(ChooseHouse("spades"))
    assert state.current_player() == 1
    assert ChooseHouse("spades") not in state.legal_actions()
    error = refused(state, ChooseHouse("spades"))
    assert (error.rule, error.ruling) == ("mq.setup.houses", "mq.ruling.houses")
    assert "house hearts" in error.legal
    state.apply(ChooseHouse("clubs"))
    assert state.current_player() == CHANCE


def test_deal_gives_six_each_alternately_and_the_non_dealer_starts():
    """mq.setup.deal, mq.setup.first."""
    game = make_game()
    state = game.new_state(2)
    state.apply(ChooseHouse("hearts"))
    state.apply(ChooseHouse("diamonds"))
    order = tuple(game.all_codes)
    state.apply(Shuffle(order))
    assert state.hands[0] == list(order[0:12:2]) and state.hands[1] == list(order[1:12:2])
    assert len(state.draw_pile) == 42 and state.draw_pile[-1] == order[12]
    assert (state.current_player(), state.turn, state.phase) == (0, 1, "draw")


def test_a_shuffle_must_hold_every_card_once():
    """mq.setup.deal: the shuffle orders all 54 cards."""
    game = make_game()
    state = game.new_state(2)
    state.apply(ChooseHouse("hearts"))
    state.apply(ChooseHouse("diamonds"))
    error = refused(state, Shuffle(tuple(game.all_codes[:-1])))
    assert error.rule == "mq.setup.deal"
    error = refused(state, Draw(False))
    assert error.rule == "mq.setup.deal"


# --- the turn -----------------------------------------------------------------------------------

def test_draw_fills_the_hand_to_seven_from_the_top():
    """mq.turn.draw: after a goal the hand is 5, so two cards are drawn."""
    state = position(hands=(["2H", "3H", "4H", "5H", "6H"], []), draw=["7C", "8C", "9C"], phase="draw")
    assert state.legal_actions() == [Draw(False)]  # empty discard pile: nothing to take
    state.apply(Draw(False))
    assert state.hands[0][-2:] == ["7C", "8C"] and state.draw_pile == ["9C"]
    assert state.phase == "action" and state.record.drew == ["7C", "8C"]


def test_the_top_discard_comes_first_and_only_once():
    """mq.turn.discard-pile, ruling mq.ruling.draw."""
    state = position(hands=(["2H", "3H", "4H", "5H", "6H"], []), draw=["7C", "8C"], discard=["9D", "10D"],
                     phase="draw")
    state.apply(Draw(True))
    assert state.hands[0][-2:] == ["10D", "7C"] and state.discard_pile == ["9D"]
    error = refused(state, Draw(True))
    assert error.rule == "mq.turn.discard-pile"


def test_cannot_take_from_an_empty_discard_pile():
    """ruling mq.ruling.draw."""
    state = position(hands=(["2H"], []), draw=["7C"], phase="draw")
    error = refused(state, Draw(True))
    assert (error.rule, error.ruling) == ("mq.turn.discard-pile", "mq.ruling.draw")
    assert error.legal == ("draw",)


def test_a_jack_from_the_discard_pile_waits_a_turn():
    """mq.turn.discard-pile: no team, no Bludger with it this turn; discarding it is allowed."""
    state = position(hands=(["2H", "3H", "4H", "5H", "6H"], []), teams=({}, {"chaser": "QD"}),
                     draw=["7C"], discard=["JS"], phase="draw")
    state.apply(Draw(True))
    for action in (Recruit("JS"), Bludger("JS", "QD")):
        assert action not in state.legal_actions()
        error = refused(state, action)
        assert (error.rule, error.ruling) == ("mq.turn.discard-pile", "mq.ruling.draw")
    assert Discard("JS") in state.legal_actions()
    state.apply(Discard("JS"))
    assert state.discard_pile[-1] == "JS" and state.active == 1


def test_exactly_one_action_then_the_turn_passes():
    """mq.turn.order, mq.turn.actions."""
    state = position(hands=(["AH", "2C"], ["3C"]), phase="action")
    state.apply(Recruit("AH"))
    assert (state.active, state.turn, state.phase) == (1, 6, "draw")
    error = refused(state, Discard("3C"))
    assert error.rule == "mq.turn.order"


def test_discarding_is_always_possible_and_passing_only_with_an_empty_hand():
    """mq.turn.actions, ruling mq.ruling.hand-size."""
    state = position(hands=(["9C"], []))
    assert Discard("9C") in state.legal_actions() and Pass() not in state.legal_actions()
    error = refused(state, Pass())
    assert (error.rule, error.ruling) == ("mq.turn.actions", "mq.ruling.hand-size")
    empty = position(hands=([], ["9C"]))
    assert empty.legal_actions() == [Pass()]
    empty.apply(Pass())
    assert empty.active == 1


# --- the team ---------------------------------------------------------------------------------------

def test_a_player_joins_the_position_of_its_rank():
    """mq.team.positions: any suit plays; number cards and Jokers are not players."""
    state = position(hands=(["QS", "7H", "JK"], []))
    assert Recruit("QS") in state.legal_actions()
    assert Recruit("7H") not in state.legal_actions()
    assert refused(state, Recruit("7H")).rule == "mq.team.positions"
    state.apply(Recruit("QS"))
    assert state.teams[0] == {"chaser": "QS"}


def test_swapping_a_player_discards_the_old_one():
    """mq.team.replace."""
    state = position(hands=(["KH"], []), teams=({"keeper": "KC"}, {}))
    state.apply(Recruit("KH"))
    assert state.teams[0]["keeper"] == "KH" and state.discard_pile == ["KC"]


# --- goals ---------------------------------------------------------------------------------------

def test_a_goal_is_two_number_cards_making_twelve():
    """mq.goal.pair, mq.scoring.points: 10 points, the pair on the score pile."""
    state = position(hands=(["7H", "5S", "9C"], []), teams=({"chaser": "QC"}, {}))
    assert state.legal_actions()[0] == goal("7H", "5S")
    state.apply(goal("5S", "7H"))
    assert state.goals[0] == 1 and state.score(0) == 10 and sorted(state.score_piles[0]) == ["5S", "7H"]


def test_twelve_needs_two_sixes_and_no_face_cards():
    """ruling mq.ruling.goal-cards: an Ace is never 1, a court card never a number."""
    state = position(hands=(["6H", "6C", "AS", "JD", "8C", "3D"], []), teams=({"chaser": "QC"}, {}))
    goals = [action for action in state.legal_actions() if isinstance(action, Goal)]
    assert goals == [goal("6H", "6C")]
    error = refused(state, Goal(("AS", "JD")))
    assert (error.rule, error.ruling) == ("mq.goal.pair", "mq.ruling.goal-cards")
    assert refused(state, Goal(("8C", "3D"))).rule == "mq.goal.pair"


def test_no_chaser_no_goal():
    """mq.goal.chaser."""
    state = position(hands=(["7H", "5S"], []), teams=({"keeper": "KH"}, {}))
    assert not any(isinstance(action, Goal) for action in state.legal_actions())
    assert refused(state, goal("7H", "5S")).rule == "mq.goal.chaser"


@pytest.mark.parametrize("keeper, pair, allowed", [
    (None, ("6D", "6S"), True),  # no Keeper: anything goes
    ("KD", ("7H", "5H"), True),  # defender's own-suit Keeper: both cards of the scorer's suit
    ("KD", ("7H", "5S"), False),
    ("KS", ("7H", "5S"), True),  # another Keeper keeps out only the defender's suit
    ("KS", ("7D", "5S"), False),
    ("KH", ("8C", "4S"), True),  # even a Keeper of the scorer's own suit
    ("KH", ("8D", "4S"), False),
])
def test_the_defending_keeper_limits_the_suits(keeper, pair, allowed):
    """mq.goal.keeper, ruling mq.ruling.keeper (strict reading). Scorer Hearts, defender Diamonds."""
    state = position(hands=(list(pair), []), teams=({"chaser": "QC"}, {"keeper": keeper} if keeper else {}))
    action = goal(*pair)
    assert (action in state.legal_actions()) is allowed
    if not allowed:
        error = refused(state, action)
        assert (error.rule, error.ruling) == ("mq.goal.keeper", "mq.ruling.keeper")


def test_sixes_never_pass_a_home_keeper():
    """Only one Six of each suit exists, so two sixes are never both of the scorer's suit."""
    state = position(hands=(["6H", "6C"], []), teams=({"chaser": "QC"}, {"keeper": "KD"}))
    assert refused(state, goal("6H", "6C")).rule == "mq.goal.keeper"


def test_loose_keeper_variant_needs_one_card_of_your_suit():
    """mq.variants.loose-keeper."""
    game = make_game(keeper_rule="loose")
    state = position(game, hands=(["7H", "5S", "8C", "4S"], []), teams=({"chaser": "QC"}, {"keeper": "KD"}))
    assert goal("7H", "5S") in state.legal_actions()
    assert goal("8C", "4S") not in state.legal_actions()
    error = refused(state, goal("8C", "4S"))
    assert (error.rule, error.ruling) == ("mq.variants.loose-keeper", "mq.ruling.keeper")


def test_simple_keepers_variant_only_bars_the_defenders_suit():
    """mq.variants.simple-keepers, ruling mq.ruling.simple-keepers."""
    game = make_game(keeper_rule="simple")
    state = position(game, hands=(["8C", "4S", "7D", "5H"], []), teams=({"chaser": "QC"}, {"keeper": "KD"}))
    assert goal("8C", "4S") in state.legal_actions()
    error = refused(state, goal("7D", "5H"))
    assert (error.rule, error.ruling) == ("mq.variants.simple-keepers", "mq.ruling.simple-keepers")


# --- Bludgers ---------------------------------------------------------------------------------------

def test_a_bludger_from_hand_removes_the_target_and_the_jack():
    """mq.bludger.hand, ruling mq.ruling.bludger: the victim first, the Jack on top."""
    state = position(hands=(["JS", "2C"], []), teams=({}, {"chaser": "QD", "keeper": "KD"}))
    assert {a for a in state.legal_actions() if isinstance(a, Bludger)} == {Bludger("JS", "QD"),
                                                                              Bludger("JS", "KD")}
    state.apply(Bludger("JS", "QD"))
    assert state.teams[1] == {"keeper": "KD"} and state.discard_pile == ["QD", "JS"]
    assert state.hands[0] == ["2C"] and state.active == 1


def test_a_bludger_needs_a_target_on_the_other_team():
    state = position(hands=(["JS"], []), teams=({"chaser": "QC"}, {}))
    assert not any(isinstance(action, Bludger) for action in state.legal_actions())
    error = refused(state, Bludger("JS", "QC"))
    assert (error.rule, error.ruling) == ("mq.bludger.hand", "mq.ruling.bludger")


def test_the_defender_may_give_up_the_beater_instead():
    """mq.bludger.defence: the player hit chooses."""
    state = position(hands=(["JS"], []), teams=({}, {"seeker": "AD", "beater": "JD"}))
    state.apply(Bludger("JS", "AD"))
    assert state.current_player() == 1 and state.phase == "response"
    assert state.legal_actions() == [Lose("AD"), Lose("JD")]
    assert refused(state, Lose("QH")).rule == "mq.bludger.defence"
    state.apply(Lose("JD"))
    assert state.teams[1] == {"seeker": "AD"} and state.discard_pile == ["JD", "JS"]
    assert (state.active, state.phase) == (1, "draw")


def test_a_bludger_at_the_beater_itself_gets_no_answer():
    state = position(hands=(["JS"], []), teams=({}, {"seeker": "AD", "beater": "JD"}))
    state.apply(Bludger("JS", "JD"))
    assert state.teams[1] == {"seeker": "AD"} and state.phase == "draw"


def test_the_team_beater_can_hit_but_costs_a_card_from_hand():
    """mq.bludger.team."""
    state = position(hands=(["2C", "9H"], []), teams=({"beater": "JC"}, {"keeper": "KD"}))
    assert Bludger("JC", "KD") in state.legal_actions()
    state.apply(Bludger("JC", "KD"))
    assert state.teams == [{}, {}] and state.phase == "extra-discard" and state.current_player() == 0
    assert state.legal_actions() == [Discard("2C"), Discard("9H")]
    assert refused(state, Recruit("2C")).rule == "mq.bludger.team"
    state.apply(Discard("9H"))
    assert state.discard_pile == ["KD", "JC", "9H"] and state.hands[0] == ["2C"] and state.active == 1


def test_an_empty_hand_skips_the_discard_after_a_team_bludger():
    """ruling mq.ruling.hand-size: with no cards, pass or send the team Beater; no discard follows."""
    state = position(hands=([], []), teams=({"beater": "JC"}, {"keeper": "KD"}))
    assert state.legal_actions() == [Pass(), Bludger("JC", "KD")]
    state.apply(Bludger("JC", "KD"))
    assert (state.active, state.phase) == (1, "draw") and state.discard_pile == ["KD", "JC"]


# --- the Snitch ---------------------------------------------------------------------------------------

def test_spotting_needs_a_seeker_and_an_unspotted_snitch():
    """mq.snitch.spot."""
    state = position(hands=(["JK"], []))
    assert Spot() not in state.legal_actions()
    assert refused(state, Spot()).rule == "mq.snitch.spot"
    state = position(hands=(["JK"], []), teams=({"seeker": "AC"}, {}))
    state.apply(Spot())
    assert state.snitch == ["JK"] and state.hands[0] == []
    again = position(hands=(["JK"], []), teams=({"seeker": "AC"}, {}), snitch=1)
    assert Spot() not in again.legal_actions() and refused(again, Spot()).rule == "mq.snitch.spot"


def test_the_dive_needs_a_spotted_snitch():
    """mq.snitch.dive."""
    state = position(hands=(["JK"], []), teams=({"seeker": "AC"}, {"seeker": "AD"}))
    assert Dive() not in state.legal_actions()
    assert refused(state, Dive()).rule == "mq.snitch.dive"


def test_the_only_seeker_catches_the_snitch_at_once():
    """mq.snitch.dive, ruling mq.ruling.dive-start, mq.scoring.points, mq.end.capture."""
    state = position(hands=(["JK"], []), teams=({"seeker": "AC"}, {"chaser": "QD"}), snitch=1, draw=["2C"])
    state.goals = [0, 3]
    state.apply(Dive())
    assert state.current_player() == TERMINAL and state.caught_by == 0
    assert state.score_piles[0] == ["JK", "JK"] and state.draw_pile == ["2C"]
    outcome = state.outcome()
    assert outcome.scores == (150, 30) and outcome.winners == (0,) and outcome.reason == "finished"


def test_the_snitch_is_lost_when_the_last_seeker_goes():
    """mq.snitch.lost, ruling mq.ruling.snitch-lost: the Joker lands on top of the Bludger's cards."""
    state = position(hands=(["JS"], []), teams=({}, {"seeker": "AD"}), snitch=1)
    state.apply(Bludger("JS", "AD"))
    assert state.snitch == [] and state.discard_pile == ["AD", "JS", "JK"]


def test_the_snitch_stays_while_one_seeker_remains():
    state = position(hands=(["JS"], []), teams=({"seeker": "AC"}, {"seeker": "AD"}), snitch=1)
    state.apply(Bludger("JS", "AD"))
    assert state.snitch == ["JK"]


# --- the dive ----------------------------------------------------------------------------------------

DIVE_PILE = ["2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "10C", "2S", "3S", "4S", "5S", "6S"]


def dive_position(my_seeker="AH", their_seeker="AS", draw=DIVE_PILE, discard=(), active=0):
    hands = (["JK"], []) if active == 0 else ([], ["JK"])
    return position(hands=hands, teams=({"seeker": my_seeker}, {"seeker": their_seeker}), snitch=1,
                    draw=draw, discard=discard, active=active)


def test_dive_quotas_follow_the_seekers_suit():
    """mq.dive.draws: 5 cards, +2 for your own house suit, +1 neutral, +0 the rival's."""
    game = make_game()
    assert game.dive_quota("AH", "hearts", "diamonds") == 7
    assert game.dive_quota("AS", "hearts", "diamonds") == 6
    assert game.dive_quota("AD", "hearts", "diamonds") == 5


def test_dive_alternates_from_the_starter_and_the_longer_share_goes_on_alone():
    """mq.dive.draws: seat 0 (Hearts Seeker AH: 7 cards) starts; seat 1 (Diamonds, AS neutral: 6)."""
    pile = ["2C", "KC", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "10C", "2S", "QS", "3S", "4S"]
    state = dive_position(draw=pile)
    state.houses = ["hearts", "diamonds"]
    state.apply(Dive())
    # order turned: 0,1,0,1,... then seat 0 alone for its 7th card
    assert state.record.dive == pile[:13]
    assert state.caught_by == 1  # seat 1 turned KC, the highest card


def test_the_highest_rank_wins_whatever_the_suit():
    """mq.dive.winner: Ace high; suits do not matter."""
    pile = ["AD"] + ["2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "10C", "2S", "3S", "4S"]
    state = dive_position(draw=pile)
    state.apply(Dive())
    assert state.caught_by == 0 and state.outcome().scores == (150, 0)
    assert state.score_piles[0] == ["JK", "JK"]


def test_a_tied_dive_lets_the_snitch_escape():
    """mq.dive.tie, ruling mq.ruling.dive-tie: Jokers, then the dive cards in the order turned, to the
    discard pile (the last card turned on top); the turn passes."""
    pile = ["10C", "10D", "2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "2S", "3S", "4S", "5S"]
    state = dive_position(my_seeker="AD", their_seeker="AH", draw=pile)  # quotas 5 and 5
    state.apply(Dive())
    assert state.caught_by is None and state.snitch == []
    assert state.discard_pile == ["JK", "JK"] + pile[:10]
    assert (state.active, state.phase, state.turn) == (1, "draw", 6)


def test_a_team_bludger_that_loses_the_snitch_leaves_the_forced_discard_on_top():
    """ruling mq.ruling.lost-snitch-top: Seeker, Beater, then the lost Snitch's Joker; the forced discard last."""
    state = position(hands=(["2C", "3C"], []), teams=({"beater": "JS"}, {"seeker": "AD"}), snitch=1,
                     discard=["9H"])
    state.apply(Bludger("JS", "AD"))
    assert state.phase == "extra-discard" and state.snitch == []
    state.apply(Discard("3C"))
    assert state.discard_pile == ["9H", "AD", "JS", "JK", "3C"]


def test_the_dive_rebuilds_an_empty_draw_pile():
    """mq.dive.short, ruling mq.ruling.dive-length: shuffle the discard pile and keep diving."""
    state = dive_position(my_seeker="AD", their_seeker="AH", draw=["2C", "3C"], discard=["KS", "4D"])
    state.apply(Dive())
    assert state.current_player() == CHANCE and state.shuffle_cards == ["KS", "4D"]
    state.apply(Shuffle(("4D", "KS")))
    assert state.record.dive == ["2C", "3C", "4D", "KS"] and state.record.dive_shuffle == ("4D", "KS")
    assert state.caught_by == 1  # seat 1 turned 3C and KS; the dive stopped when nothing was left


def test_the_dive_stops_when_nothing_is_left_to_draw():
    state = dive_position(my_seeker="AD", their_seeker="AH", draw=["9C", "2C"])
    state.apply(Dive())
    assert state.record.dive == ["9C", "2C"] and state.caught_by == 0


# --- rebuilding the draw pile ------------------------------------------------------------------------

def test_an_empty_draw_pile_is_rebuilt_with_the_jokers_from_both_hands():
    """mq.deck.reshuffle, ruling mq.ruling.reshuffle: the Joker on the table stays."""
    state = position(hands=(["JK", "2C", "3C", "4C", "5C"], ["6C"]), teams=({"seeker": "AC"}, {}),
                     draw=["7C"], discard=["8D", "9D"], snitch=1, phase="draw")
    state.hands[1].append("JK")
    state.snitch = []
    state.apply(Draw(False))
    assert state.current_player() == CHANCE
    assert sorted(state.shuffle_cards) == ["8D", "9D", "JK", "JK"]
    assert "JK" not in state.hands[0] + state.hands[1]
    with pytest.raises(IllegalAction) as caught:
        state.apply(Shuffle(("8D", "9D", "JK")))
    assert caught.value.rule == "mq.deck.reshuffle"
    state.apply(Shuffle(("JK", "9D", "8D", "JK")))
    assert state.hands[0] == ["2C", "3C", "4C", "5C", "7C", "JK", "9D"]
    assert state.draw_pile == ["JK", "8D"] and state.record.draw_shuffle == ("JK", "9D", "8D", "JK")


def test_the_draw_pile_is_rebuilt_the_moment_its_last_card_is_drawn():
    """mq.deck.reshuffle, ruling mq.ruling.reshuffle (as the source says): emptying the pile rebuilds it
    at once, before the action, so the card discarded afterwards starts the new discard pile."""
    state = position(hands=(["JK", "2C", "3C", "4C", "5C", "6C"], []), draw=["7C"], discard=["8D", "9D"],
                     phase="draw")
    state.apply(Draw(False))
    assert state.hands[0] == ["2C", "3C", "4C", "5C", "6C", "7C"]  # full, and the Joker went into the rebuild
    assert state.current_player() == CHANCE and sorted(state.shuffle_cards) == ["8D", "9D", "JK"]
    state.apply(Shuffle(("9D", "JK", "8D")))
    assert state.phase == "action" and state.record.draw_shuffle == ("9D", "JK", "8D")
    assert state.hands[0][-1] == "9D" and state.record.drew == ["7C", "9D"]  # back to 7 without the Joker
    state.apply(Discard("2C"))
    assert state.discard_pile == ["2C"] and state.draw_pile == ["8D", "JK"]


def test_the_dive_rebuilds_the_pile_the_moment_it_runs_out():
    state = dive_position(my_seeker="AD", their_seeker="AH", draw=["2C", "3C", "4C"], discard=["KS"])
    state.apply(Dive())
    state.apply(Shuffle(("KS",)))  # after 4C emptied it, not when the next card was wanted
    assert state.record.dive[:4] == ["2C", "3C", "4C", "KS"] and state.record.dive_shuffle == ("KS",)


def test_a_spotted_snitch_is_not_shuffled_in():
    state = position(hands=(["2C", "3C", "4C", "5C", "6C"], []), draw=[], discard=["8D"],
                     snitch=1, phase="draw", teams=({"seeker": "AC"}, {}))
    state.apply(Draw(False))
    assert state.shuffle_cards == ["8D"] and state.snitch == ["JK"]


def test_nothing_is_rebuilt_from_an_empty_discard_pile():
    """ruling mq.ruling.reshuffle: Jokers stay in hand, the hand stays short."""
    state = position(hands=(["JK", "2C"], []), draw=["3C"], phase="draw")
    state.apply(Draw(False))
    assert state.hands[0] == ["JK", "2C", "3C"] and state.phase == "action"
    assert Shuffle(()) not in state.legal_actions()
    error = refused(state, Shuffle(("3C",)))
    assert (error.rule, error.ruling) == ("mq.deck.reshuffle", "mq.ruling.reshuffle")


# --- the end ----------------------------------------------------------------------------------------

def test_the_catcher_can_still_lose_on_goals():
    """mq.end.capture: the higher total wins, whoever caught the Snitch."""
    state = position(hands=(["JK"], []), teams=({"seeker": "AC"}, {}), snitch=1)
    state.goals = [1, 17]
    state.apply(Dive())
    assert state.outcome().scores == (160, 170) and state.outcome().winners == (1,)


def test_equal_totals_are_a_draw():
    """mq.end.tie."""
    state = position(hands=(["JK"], []), teams=({"seeker": "AC"}, {}), snitch=1)
    state.goals = [0, 15]
    state.apply(Dive())
    assert state.outcome().winners == (0, 1)


def test_the_turn_cap_stops_the_match_on_goals_alone():
    """mq.end.turn-cap, ruling mq.ruling.turn-cap, variant short-match."""
    game = make_game(**DECK.variant("short-match").params)
    assert game.params["max_turns"] == 100
    state = position(game, hands=(["2C"], []), turn=100)
    state.goals = [2, 1]
    state.apply(Discard("2C"))
    outcome = state.outcome()
    assert state.current_player() == TERMINAL and outcome.scores == (20, 10) and outcome.winners == (0,)
    assert outcome.reason.startswith("turn-cap") and "100 turns" in outcome.reason
    error = refused(state, Draw(False))
    assert (error.rule, error.ruling) == ("mq.end.turn-cap", "mq.ruling.turn-cap")


# --- refusals, texts ------------------------------------------------------------------------------

def test_every_refusal_cites_a_rule_of_the_deck_and_lists_the_legal_moves():
    rule_ids = {rule.id for rule in DECK.rules()}
    ruling_ids = {ruling.id for ruling in DECK.rulings}
    state = position(hands=(["7H", "5S", "QS"], []), teams=({}, {}))
    error = refused(state, goal("7H", "5S"))
    assert error.rule in rule_ids and error.legal == ("team QS", "discard 7H", "discard 5S", "discard QS")
    assert error.where == {"turn": 5, "player": 0}
    source = "".join(path.read_text(encoding="utf-8") for path in Path(engine.__file__).parent.glob("muggle_quidditch*.py"))
    cited = set(re.findall(r'"(mq\.[a-z0-9.-]+)"', source))
    assert cited, "the engine cites rule ids"
    assert cited <= rule_ids | ruling_ids, cited - rule_ids - ruling_ids


def test_actions_read_back_as_written():
    game = make_game()
    state = position(hands=(["7H", "5S", "JS", "JK", "AC"], []), teams=({"chaser": "QC", "seeker": "AH",
                     "beater": "JC"}, {"keeper": "KS", "beater": "JD"}), snitch=1)
    actions = state.legal_actions()
    assert {type(action) for action in actions} >= {Goal, Recruit, Bludger, Dive, Discard}
    for action in actions + [ChooseHouse("clubs"), Draw(True), Draw(False), Lose("KS"), Pass(), Spot(),
                             Shuffle(("2C", "JK"))]:
        assert game.parse_action(state, game.format_action(state, action)) == action
    assert game.parse_action(state, "goal 5s 7h") == goal("7H", "5S")
    assert game.parse_action(state, "house Gryffindor") == ChooseHouse("hearts")
    for bad in ("score 7H 5S", "goal 7H", "team XX", "draw twice", "spot 7H"):
        with pytest.raises(ValueError):
            game.parse_action(state, bad)


def test_engine_parameters_are_checked():
    with pytest.raises(Exception, match="keeper_rule"):
        make_game(keeper_rule="lenient")
    with pytest.raises(Exception, match="max_turns"):
        make_game(max_turns=0)
    with pytest.raises(Exception, match="unknown parameter"):
        make_game(snitch_value=30)
