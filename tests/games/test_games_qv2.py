"""Quidditch v2 engine: one hand-built scenario (at least) per card and per ruling.

Each test is tagged with `@covers(...)`, naming the card ids and ruling ids it checks;
`test_every_card_and_ruling_has_a_scenario` fails if any card or ruling of the deck has none.
Positions are built with `QuidditchV2State.set_up_position`; actions are written exactly as
in a game log (P1, P2... for seats, card codes for cards).
"""

from __future__ import annotations

import pytest

from generator.core.errors import DeckgenError
from generator.games.base import CHANCE, IllegalAction, game_for
from generator.deck.loader import load_deck

DECK = load_deck("decks/quidditch-v2.toml")
GAME = game_for(DECK)
COVERED: set[str] = set()


def covers(*ids: str):
    """Record which cards (ids) and rulings (qv2.ruling.*) a test checks."""
    for identifier in ids:
        assert identifier.startswith("qv2.ruling.") or DECK.find_card(identifier), identifier
    COVERED.update(ids)
    return lambda test: test


def position(players: int = 2, game=GAME, **setup):
    state = game.new_state(players)
    state.set_up_position(**setup)
    return state


def act(state, *texts: str) -> None:
    for text in texts:
        state.apply(state.parse_action(text))


def legal(state) -> set[str]:
    return {state.format_action(action) for action in state.legal_actions()}


def decision(state) -> str:
    """The kind of decision pending: 'play', 'manoeuvre', 'draw', 'roll'..."""
    return state.stack[-1][1]


def rejects(state, text: str, rule: str, ruling: str | None = None) -> IllegalAction:
    with pytest.raises(IllegalAction) as caught:
        act(state, text)
    assert caught.value.rule == rule, caught.value.as_dict()
    if ruling is not None:
        assert caught.value.ruling == ruling, caught.value.as_dict()
    assert caught.value.legal, "an illegal action lists what was legal"
    return caught.value


def in_play(state, seat: int) -> list[str]:
    return [state.game.code(t.card) for t in state.table if t.owner == seat]


def hand(state, seat: int) -> dict[str, int]:
    return {state.game.code(card): n for card, n in state.hands[seat].items()}


# ------------------------------------------------------------------------------ the balls

@covers("quaffle")
def test_quaffle_starts_centre_cannot_be_targeted_and_returns_after_a_goal():
    state = GAME.new_state(2)
    assert state.quaffle is None and state.zone_counts()["quaffle"] == 1
    state = position(hands=[["STUNNED"], []], dominance=[5, 0], quaffle=0)
    with pytest.raises(IllegalAction) as caught:
        act(state, "play STUNNED P1:QUAFFLE")
    assert caught.value.rule == "qv2.cards.targets"
    act(state, "score P2")
    assert state.score == [10, 0] and state.quaffle is None and state.dom[0] == 3
    assert state.summary()["quaffle"] == "centre"


@covers("golden-snitch", "bludger-the-seeker", "daring-risk", "qv2.ruling.snitch-play")
def test_snitch_from_hand_is_caught_by_the_single_highest_seeker_total():
    state = position(hands=[["SNITCH", "BTSEEK", "DARING", "WEAVE"], ["PERFECT"]])
    act(state, "play SNITCH")
    assert decision(state) == "reveal" and state.current_player() == 0
    assert legal(state) == {"reveal none", "reveal BTSEEK", "reveal DARING", "reveal BTSEEK DARING"}
    act(state, "reveal BTSEEK DARING", "reveal PERFECT")
    assert state.is_terminal()
    outcome = state.outcome()
    assert outcome.scores == (150, 0) and outcome.winners == (0,) and outcome.reason == "finished"
    assert {"bludger-the-seeker", "daring-risk", "perfect-catch"} <= set(state.discard)


@covers("golden-snitch", "qv2.ruling.snitch-play")
def test_snitch_escapes_on_a_tie_and_counts_as_the_thing_of_the_turn():
    state = position(hands=[["SNITCH", "BTSEEK", "LPASS", "WEAVE"], ["PERFECT"]])
    act(state, "play SNITCH", "reveal BTSEEK", "reveal PERFECT")
    assert not state.is_terminal() and state.score == [0, 0]
    assert state.discard[-1] == "golden-snitch"
    assert legal(state) == {"play WEAVE", "end"}  # the Thing play is used up


@covers("qv2.ruling.snitch-play")
def test_catching_the_snitch_does_not_win_a_game_you_are_losing_by_more():
    state = position(hands=[["SNITCH", "QUICK"], []], scores=[0, 160])
    act(state, "play SNITCH", "reveal QUICK")
    assert state.outcome().scores == (150, 160) and state.outcome().winners == (1,)


@covers("qv2.ruling.snitch-discard-pile")
def test_the_snitch_cannot_be_drawn_before_the_first_reshuffle():
    state = GAME.new_state(2)
    act(state, "first P1")
    assert "golden-snitch" in state.discard and state.draw.get("golden-snitch") is None
    error = rejects(state, "draw SNITCH", "qv2.setup.snitch", "qv2.ruling.snitch-discard-pile")
    assert "draw WEAVE to P1" in error.legal


@covers("bludger-the-seeker", "daring-risk", "perfect-catch", "obstruction-by-the-chaser", "nudge-off-course",
        "quick-off-the-mark", "qv2.ruling.seeker-cards")
@pytest.mark.parametrize("code", ["BTSEEK", "DARING", "PERFECT", "OBSTRUCT", "NUDGE", "QUICK"])
def test_each_seeker_card_counts_one_and_cannot_be_played(code):
    state = position(hands=[["SNITCH", code, "WEAVE"], ["WEAVE"]])
    rejects(state, f"play {code}", "qv2.snitch.seekers", "qv2.ruling.seeker-cards")
    act(state, "play SNITCH", f"reveal {code}")
    assert state.outcome().winners == (0,)


@covers("qv2.ruling.seeker-cards")
def test_seeker_cards_may_be_discarded_to_the_hand_limit():
    state = position(hands=[["BTSEEK", "DARING", "PERFECT", "NUDGE", "QUICK", "OBSTRUCT"], []], step="hand_limit")
    assert decision(state) == "discard" and "discard QUICK" in legal(state)
    act(state, "discard QUICK")
    assert state.hand_size(0) == 5 and decision(state) == "draw"


# ------------------------------------------------------------------------------ dominance cards

@covers("sweeping-play", "weaving")
@pytest.mark.parametrize("code, gain", [("SWEEP", 3), ("WEAVE", 1)])
def test_plain_dominance_actions(code, gain):
    state = position(hands=[[code], []], dominance=[1, 0])
    act(state, f"play {code}")
    assert state.dom == [1 + gain, 0] and state.discard[-1] == DECK.card(code).id


@covers("lightning-passing", "qv2.ruling.start-of-turn")
def test_lightning_passing_acts_at_the_start_of_its_controllers_turn_only():
    state = position(table=[("LPASS", 0), ("LPASS", 1)], step="start")
    assert state.dom == [1, 0] and decision(state) == "draw"  # before the draw


@covers("qv2.ruling.start-of-turn", "supporters")
@pytest.mark.parametrize("order, expected", [((("LPASS", 0), ("SUPPORT", 0)), 1), ((("SUPPORT", 0), ("LPASS", 0)), 2)])
def test_start_of_turn_effects_resolve_oldest_first(order, expected):
    state = position(table=list(order), dominance=[0, 1], step="start")
    assert state.dom[0] == expected


@covers("supporters", "qv2.ruling.supporters")
@pytest.mark.parametrize("dominance, gain", [([0, 1], 1), ([1, 1], 0), ([2, 1], 0)])
def test_supporters_help_only_a_team_strictly_behind_everyone(dominance, gain):
    state = position(players=3, table=[("SUPPORT", 0)], dominance=dominance + [3], step="start")
    assert state.dom[0] == dominance[0] + gain


@covers("trick-play", "qv2.ruling.trick-play")
@pytest.mark.parametrize("dominance, coin, after", [
    ([0, 2], "heads", 4),   # heads and strictly lowest: 2 + 2
    ([1, 1], "heads", 3),   # a shared lowest is not lowest: 2
    ([3, 1], "heads", 5),
    ([0, 2], "tails", 1),
])
def test_trick_play_flips_a_coin(dominance, coin, after):
    state = position(hands=[["TRICK"], []], dominance=dominance)
    act(state, "play TRICK")
    assert state.current_player() == CHANCE and legal(state) == {"coin heads", "coin tails"}
    act(state, f"coin {coin}")
    assert state.dom[0] == after


@covers("tactical-bludgering", "qv2.ruling.tactical-bludgering")
@pytest.mark.parametrize("before, after", [(5, 3), (4, 2), (1, 1), (0, 0)])
def test_tactical_bludgering_halves_an_opponent_rounding_up(before, after):
    state = position(hands=[["TACBLUD"], []], dominance=[0, before])
    assert legal(state) == {"play TACBLUD P2", "end"}
    act(state, "play TACBLUD P2")
    assert state.dom[1] == after


@covers("its-all-gone-quiet", "qv2.ruling.quiet")
def test_quiet_gives_one_and_lets_the_single_points_leader_draw():
    state = position(hands=[["QUIET"], []], scores=[0, 20])
    act(state, "play QUIET")
    assert state.dom[0] == 1 and state.current_player() == 1 and legal(state) == {"accept", "decline"}
    act(state, "accept", "draw WEAVE to P2")
    assert hand(state, 1) == {"WEAVE": 1}
    tied = position(hands=[["QUIET"], []], scores=[10, 10])
    act(tied, "play QUIET")
    assert tied.dom[0] == 1 and decision(tied) == "manoeuvre"  # nobody draws


@covers("qv2.ruling.actions-first")
def test_an_action_is_on_the_discard_pile_while_it_takes_effect():
    state = position(hands=[["QUIET"], []], scores=[10, 0], draw=[], discard=[])
    act(state, "play QUIET", "accept")
    assert state.reshuffles == 2 and legal(state) == {"draw QUIET to P1"}


# ------------------------------------------------------------------------------ ongoing Things

@covers("playing-tough")
def test_playing_tough_gains_then_rolls_and_fouls_on_a_one():
    state = position(table=[("TOUGH", 0)], dominance=[0, 0], quaffle=1, step="start")
    assert state.dom[0] == 1 and decision(state) == "roll"
    act(state, "roll 1")
    assert in_play(state, 0) == [] and "playing-tough" in state.discard
    assert state.score == [0, 10] and state.quaffle is None
    safe = position(table=[("TOUGH", 0)], step="start")
    act(safe, "roll 2")
    assert in_play(safe, 0) == ["TOUGH"] and safe.score == [0, 0]


@covers("playing-tough", "qv2.ruling.playing-tough-text")
def test_playing_tough_may_be_destroyed_at_the_end_of_your_turn():
    assert DECK.card("TOUGH").count == 2 and sum(c.name == "Playing Tough" for c in DECK.cards) == 1
    state = position(table=[("TOUGH", 0), ("TOUGH", 0)], step="end")
    assert legal(state) == {"destroy P1:TOUGH#1", "destroy P1:TOUGH#2", "decline"}
    act(state, "destroy P1:TOUGH#2")
    assert legal(state) == {"destroy P1:TOUGH", "decline"}
    act(state, "decline")
    assert in_play(state, 0) == ["TOUGH"]


@covers("qv2.ruling.penalty-receiver", "qv2.ruling.goal-against")
def test_with_three_players_playing_toughs_controller_picks_who_scores():
    state = position(players=3, table=[("TOUGH", 0)], hands=[[], ["SAVED"], ["SAVED"]], step="start")
    act(state, "roll 1")
    assert state.current_player() == 0 and legal(state) == {"pick P2", "pick P3"}
    act(state, "pick P3")
    assert state.score == [0, 0, 10]  # the goal is against P1, so no Saved is asked of P2 or P3


@covers("outside-problems", "qv2.ruling.outside-problems")
def test_outside_problems_drains_its_target_and_goes_when_they_reach_zero():
    state = position(table=[("OUTPROB", 0, 1)], dominance=[3, 2], active=1, step="start")
    assert state.dom[1] == 1 and in_play(state, 0) == ["OUTPROB"]
    state = position(table=[("OUTPROB", 0, 1)], dominance=[3, 1], active=1, step="start")
    assert state.dom[1] == 0 and in_play(state, 0) == [] and "outside-problems" in state.discard


@covers("outside-problems", "qv2.ruling.outside-problems")
def test_outside_problems_goes_the_moment_its_target_passes_its_controller():
    state = position(hands=[["OUTPROB", "TACBLUD"], []], dominance=[2, 2])
    act(state, "play OUTPROB P2")
    assert in_play(state, 0) == ["OUTPROB"]
    state.dom[0] = 1  # as after a loss; the check runs after every step
    act(state, "play TACBLUD P2")
    assert state.dom[1] == 1 and in_play(state, 0) == ["OUTPROB"]
    overtaken = position(hands=[["OUTPROB"], []], dominance=[1, 2])
    act(overtaken, "play OUTPROB P2")
    assert in_play(overtaken, 0) == []


@covers("match-nerves", "qv2.ruling.match-nerves")
@pytest.mark.parametrize("roll, draws", [(1, False), (2, False), (3, True), (6, True)])
def test_match_nerves_can_cost_the_target_its_draw(roll, draws):
    state = position(table=[("NERVES", 0, 1)], hands=[[], ["WEAVE"]], active=1, step="start")
    act(state, f"roll {roll}")
    assert (decision(state) == "draw") is draws


@covers("match-nerves", "qv2.ruling.match-nerves")
def test_match_nerves_is_destroyed_when_its_target_scores_any_goal():
    state = position(table=[("NERVES", 1, 0)], hands=[["PENALTY"], []])
    act(state, "play PENALTY P2")
    assert state.score == [10, 0] and in_play(state, 1) == []


@covers("rain", "qv2.ruling.rain")
def test_rain_by_the_roll():
    state = position(table=[("RAIN", 1)], dominance=[2, 2], step="start")
    act(state, "roll 2")
    assert legal(state) == {"pick P1", "pick P2", "decline"}  # anyone, yourself included, or nobody
    act(state, "pick P2")
    assert state.dom == [2, 1]
    for roll, dom, stays in ((4, [2, 2], True), (5, [1, 2], True), (6, [1, 2], False)):
        state = position(table=[("RAIN", 1)], dominance=[2, 2], step="start")
        act(state, f"roll {roll}")
        assert state.dom == dom and (in_play(state, 1) == ["RAIN"]) is stays and decision(state) == "draw"


@covers("rain")
def test_rain_acts_on_every_players_turn():
    state = position(table=[("RAIN", 0)], active=1, dominance=[0, 3], step="start")
    act(state, "roll 5")
    assert state.dom == [0, 2]


# ------------------------------------------------------------------------------ broomsticks

@covers("nimbus-2000", "qv2.ruling.broomsticks")
def test_nimbus_2000_needs_no_opponent_broom_at_all():
    alone = position(table=[("N2000", 0)], step="start")
    assert alone.dom[0] == 1
    rivalled = position(table=[("N2000", 0), ("N2000", 1)], step="start")
    assert rivalled.dom[0] == 0


@covers("nimbus-2001", "qv2.ruling.broomsticks")
@pytest.mark.parametrize("rival, gain", [(None, 1), ("N2000", 1), ("FIREBOLT", 0)])
def test_nimbus_2001_needs_no_faster_opponent_broom(rival, gain):
    table = [("N2001", 0)] + ([(rival, 1)] if rival else [])
    assert position(table=table, step="start").dom[0] == gain


@covers("firebolt", "qv2.ruling.firebolt-type")
def test_firebolt_always_gains_and_is_a_broomstick():
    assert DECK.card("FIREBOLT").type_line == "Thing - Broomstick"
    assert position(table=[("FIREBOLT", 0), ("N2001", 1)], step="start").dom[0] == 1
    state = position(table=[("N2000", 0)], hands=[["FIREBOLT"], []])
    act(state, "play FIREBOLT")
    assert in_play(state, 0) == ["FIREBOLT"] and "nimbus-2000" in state.discard


@covers("nimbus-2000", "nimbus-2001", "qv2.ruling.broomsticks")
def test_playing_another_broomstick_destroys_the_old_one():
    state = position(table=[("N2000", 0), ("N2000", 1)], hands=[["N2001"], []])
    act(state, "play N2001")
    assert in_play(state, 0) == ["N2001"] and in_play(state, 1) == ["N2000"]


@covers("blistering-speed", "qv2.ruling.blistering-speed")
def test_blistering_speed_gains_two_unless_a_faster_broom_stops_it():
    plain = position(hands=[["BLISTER"], []])
    act(plain, "play BLISTER")
    assert plain.dom[0] == 2
    outpaced = position(hands=[["BLISTER"], []], table=[("N2000", 1)])  # no broom of your own: any broom is faster
    act(outpaced, "play BLISTER")
    assert outpaced.dom[0] == 0
    blocked = position(hands=[["BLISTER"], ["FIREBOLT", "N2000"]], table=[("N2001", 0)])
    act(blocked, "play BLISTER")
    assert blocked.current_player() == 1 and legal(blocked) == {"discard FIREBOLT", "decline"}
    act(blocked, "discard FIREBOLT")
    assert blocked.dom[0] == 0 and "firebolt" in blocked.discard
    declined = position(hands=[["BLISTER"], ["FIREBOLT"]], table=[("N2001", 0)])
    act(declined, "play BLISTER", "decline")
    assert declined.dom[0] == 2


# ------------------------------------------------------------------------------ Player cards

@covers("nippy-seeker")
def test_nippy_seeker_adds_one_to_the_seeker_total():
    state = position(hands=[["SNITCH", "QUICK"], ["NUDGE"]], table=[("NIPPY", 0)])
    act(state, "play SNITCH", "reveal QUICK", "reveal NUDGE")
    assert state.outcome().winners == (0,)


@covers("accurate-beater", "qv2.ruling.thresholds")
def test_bludger_needs_a_lead_of_three_or_two_with_accurate_beater():
    state = position(hands=[[], ["WEAVE", "SAVED"]], dominance=[2, 0], step="manoeuvre")
    assert "bludger P2" not in legal(state)
    rejects(state, "bludger P2", "qv2.manoeuvre.bludger", "qv2.ruling.thresholds")
    accurate = position(hands=[[], ["WEAVE", "SAVED"]], dominance=[2, 0], table=[("ACCBEAT", 0)], step="manoeuvre")
    act(accurate, "bludger P2")
    assert accurate.current_player() == 1 and legal(accurate) == {"discard WEAVE", "discard SAVED"}
    act(accurate, "discard SAVED")
    assert hand(accurate, 1) == {"WEAVE": 1} and accurate.dom[0] == 1


@covers("powerful-beater", "qv2.ruling.beaters")
def test_powerful_beater_makes_the_discard_random():
    state = position(hands=[[], ["WEAVE", "SAVED"]], dominance=[3, 0], table=[("POWBEAT", 0)], step="manoeuvre")
    assert {"bludger P2 random"} == {a for a in legal(state) if a.startswith("bludger")}
    rejects(state, "bludger P2", "card:powerful-beater", "qv2.ruling.beaters")
    act(state, "bludger P2 random")
    assert state.current_player() == CHANCE and legal(state) == {"random SAVED", "random WEAVE"}
    act(state, "random SAVED")
    assert hand(state, 1) == {"WEAVE": 1}


@covers("accurate-beater", "powerful-beater", "qv2.ruling.beaters")
def test_with_both_beaters_each_bludger_uses_one_ability():
    both = [("ACCBEAT", 0), ("POWBEAT", 0)]
    close = position(hands=[[], ["WEAVE"]], dominance=[2, 0], table=both, step="manoeuvre")
    assert {a for a in legal(close) if a.startswith("bludger")} == {"bludger P2"}
    rejects(close, "bludger P2 random", "card:accurate-beater", "qv2.ruling.beaters")
    far = position(hands=[[], ["WEAVE"]], dominance=[3, 0], table=both, step="manoeuvre")
    assert {a for a in legal(far) if a.startswith("bludger")} == {"bludger P2", "bludger P2 random"}


@covers("crack-shot-chaser", "qv2.ruling.thresholds")
def test_score_needs_four_above_every_opponent_or_three_with_crack_shot_chaser():
    state = position(players=3, dominance=[4, 0, 1], quaffle=0, step="manoeuvre")
    assert not {a for a in legal(state) if a.startswith("score")}
    rejects(state, "score P2", "qv2.manoeuvre.score", "qv2.ruling.thresholds")
    state = position(players=3, dominance=[5, 0, 1], quaffle=0, step="manoeuvre")
    assert {"score P2", "score P3"} <= legal(state)
    crack = position(players=3, dominance=[4, 0, 1], quaffle=0, table=[("CRACK", 0)], step="manoeuvre")
    assert {"score P2", "score P3"} <= legal(crack)
    no_ball = position(dominance=[9, 0], quaffle=1, step="manoeuvre")
    rejects(no_ball, "score P2", "qv2.manoeuvre.score")


@covers("sure-handed-chaser", "qv2.ruling.thresholds")
@pytest.mark.parametrize("dominance, chaser, allowed", [
    ([2, 1], False, True), ([2, 1], True, False), ([3, 1], True, True), ([1, 1], False, False)])
def test_snatch_needs_a_higher_dominance_and_two_against_a_sure_handed_chaser(dominance, chaser, allowed):
    table = [("SUREHAND", 1)] if chaser else []
    state = position(dominance=dominance, quaffle=1, table=table, step="manoeuvre")
    assert ("snatch" in legal(state)) is allowed
    if not allowed:
        rejects(state, "snatch", "card:sure-handed-chaser" if chaser else "qv2.manoeuvre.snatch")


@covers("competitive-captain", "qv2.ruling.captain", "qv2.ruling.turn-order")
def test_captain_draws_two_and_discards_two_before_the_hand_limit():
    cards = ["WEAVE", "WEAVE", "TRICK", "TRICK", "SWEEP", "SAVED", "PASS"]
    state = position(hands=[cards, []], dominance=[1, 1], table=[("CAPTAIN", 0)], step="manoeuvre")
    act(state, "outfly P2")
    assert state.dom == [1, 0] and legal(state) == {"accept", "decline"}
    act(state, "accept", "draw STUNNED to P1", "draw PENALTY to P1")
    assert state.hand_size(0) == 9
    act(state, "discard WEAVE", "discard TRICK")  # the captain's two
    assert decision(state) == "discard" and state.hand_size(0) == 7  # now the hand limit
    act(state, "discard WEAVE", "discard TRICK")
    assert state.hand_size(0) == 5 and state.active == 1


@covers("competitive-captain", "qv2.ruling.captain")
def test_captain_offers_no_draw_when_there_is_nothing_to_draw():
    state = position(hands=[["WEAVE"], []], dominance=[1, 1], table=[("CAPTAIN", 0)], draw=[], discard=[],
                     step="manoeuvre")
    act(state, "outfly P2")  # no "accept"/"decline" asked; P2 has nothing to do, so P1's next turn comes
    assert state.turn_slots == 3 and decision(state) == "play" and hand(state, 0) == {"WEAVE": 1}


@covers("top-keeper", "qv2.ruling.goals")
@pytest.mark.parametrize("roll, saved", [(4, False), (5, True), (6, True)])
def test_top_keeper_saves_on_five_or_six(roll, saved):
    state = position(dominance=[5, 0], quaffle=0, table=[("KEEPER", 1)], step="manoeuvre")
    act(state, "score P2")
    assert state.current_player() == CHANCE
    act(state, f"roll {roll}")
    assert state.dom[0] == 3  # the score's cost is paid either way
    assert state.score == ([0, 0] if saved else [10, 0])
    assert state.quaffle == (1 if saved else None)


# ------------------------------------------------------------------------------ Things that pick

@covers("flying-high", "qv2.ruling.flying-high", "qv2.ruling.blank")
def test_flying_high_blanks_its_target_while_its_controller_has_the_quaffle():
    state = position(hands=[["FLYHIGH"], []], table=[("KEEPER", 1)], dominance=[5, 0], quaffle=0)
    assert legal(state) == {"play FLYHIGH P2:KEEPER", "end"}
    act(state, "play FLYHIGH P2:KEEPER")
    keeper = state.table[0]
    assert state.is_blank(keeper)
    act(state, "score P2")  # blank Top Keeper: no roll
    assert state.score == [10, 0] and hand(state, 0) == {"FLYHIGH": 1} and in_play(state, 0) == []
    assert not state.is_blank(keeper)


@covers("flying-high", "qv2.ruling.flying-high")
def test_flying_high_needs_a_thing_to_choose_and_is_inert_without_the_quaffle():
    nothing = position(hands=[["FLYHIGH", "WEAVE"], []])
    assert "play FLYHIGH" not in " ".join(legal(nothing))
    state = position(table=[("LPASS", 1), ("FLYHIGH", 0, 0)], active=1, quaffle=None, step="start")
    assert state.dom[1] == 1  # Flying High's controller does not hold the Quaffle
    blank = position(table=[("LPASS", 1), ("FLYHIGH", 0, 0)], active=1, quaffle=0, step="start")
    assert blank.dom[1] == 0


@covers("qv2.ruling.blank")
def test_a_blank_broomstick_is_still_a_broomstick_and_a_blank_card_does_nothing():
    state = position(table=[("N2000", 0), ("N2000", 1), ("FLYHIGH", 0, 1)], quaffle=0, step="start")
    assert state.is_blank(state.table[1]) and state.dom[0] == 0  # the blank rival broom still counts
    outprob = position(table=[("OUTPROB", 0, 1), ("FLYHIGH", 1, 0)], dominance=[1, 3], quaffle=1)
    assert in_play(outprob, 0) == ["OUTPROB"]  # blank: its self-destruction waits
    outprob.quaffle = None
    act(outprob, "skip")
    assert in_play(outprob, 0) == []


@covers("stunned-by-a-bludger", "qv2.ruling.stunned")
def test_stunned_destroys_any_player_card_and_needs_one():
    state = position(hands=[["STUNNED"], []], table=[("KEEPER", 1), ("LPASS", 1), ("NIPPY", 0)])
    assert {a for a in legal(state) if a.startswith("play")} == {"play STUNNED P2:KEEPER", "play STUNNED P1:NIPPY"}
    rejects(state, "play STUNNED P2:LPASS", "card:stunned-by-a-bludger", "qv2.ruling.stunned")
    act(state, "play STUNNED P2:KEEPER")
    assert in_play(state, 1) == ["LPASS"] and "top-keeper" in state.discard
    none = position(hands=[["STUNNED", "WEAVE"], []], table=[("LPASS", 1)])
    assert legal(none) == {"play WEAVE", "end"}


@covers("dopplebeater-defence", "qv2.ruling.dopplebeater")
def test_dopplebeater_costs_a_card_skips_a_turn_and_forbids_bludger():
    state = position(hands=[["DOPPLE", "WEAVE"], ["SAVED"]], dominance=[5, 0])
    act(state, "play DOPPLE P2 discarding WEAVE")
    assert "weaving" in state.discard and state.missed == [0, 1]
    assert not {a for a in legal(state) if a.startswith("bludger")}
    rejects(state, "bludger P2", "card:dopplebeater-defence")
    act(state, "skip")
    assert state.active == 0 and state.turn_slots == 3  # P2's turn was skipped whole
    lonely = position(hands=[["DOPPLE"], []])
    assert "play DOPPLE" not in " ".join(legal(lonely))


@covers("qv2.ruling.dopplebeater")
def test_dopplebeater_without_a_card_to_discard_is_rejected():
    state = position(hands=[["DOPPLE", "WEAVE"], []])
    rejects(state, "play DOPPLE P2", "card:dopplebeater-defence", "qv2.ruling.dopplebeater")


@covers("wronski-feint", "qv2.ruling.wronski")
def test_wronski_feint_strips_two_seekers_and_locks_out_search_and_snitch():
    state = position(hands=[["WRONSKI", "SNITCH"], ["BTSEEK", "DARING", "PERFECT", "WEAVE"]], dominance=[1, 0])
    rejects(state, "play WRONSKI P1", "qv2.cards.targets", "qv2.ruling.wronski")
    act(state, "play WRONSKI P2")
    assert state.current_player() == 1 and legal(state) == {"discard BTSEEK", "discard DARING", "discard PERFECT"}
    act(state, "discard BTSEEK", "discard PERFECT")
    assert hand(state, 1) == {"DARING": 1, "WEAVE": 1} and state.dom[0] == 1
    assert "play SNITCH" not in legal(state)
    rejects(state, "play SNITCH", "card:wronski-feint", "qv2.ruling.wronski")
    assert decision(state) == "manoeuvre" and "search" not in legal(state)  # no card left to play
    rejects(state, "search", "card:wronski-feint", "qv2.ruling.wronski")
    played_on = state.own_turns[0]
    for own_turn, locked in ((played_on + 3, True), (played_on + 4, False)):
        state.own_turns[0] = own_turn
        assert state.locked_out(0) is locked


@covers("wronski-feint", "qv2.ruling.wronski")
def test_wronski_feint_against_no_seekers_costs_a_point():
    state = position(hands=[["WRONSKI"], ["WEAVE"]], dominance=[2, 0])
    act(state, "play WRONSKI P2")
    assert state.dom[0] == 1 and hand(state, 1) == {"WEAVE": 1}
    one = position(hands=[["WRONSKI"], ["QUICK", "WEAVE"]], dominance=[2, 0])
    act(one, "play WRONSKI P2", "discard QUICK")
    assert hand(one, 1) == {"WEAVE": 1} and one.dom[0] == 2


# ------------------------------------------------------------------------------ goals and responses

@covers("saved", "qv2.ruling.goals", "qv2.ruling.responses")
def test_saved_stops_a_goal_costs_the_scorer_and_takes_the_quaffle():
    state = position(hands=[[], ["SAVED"]], dominance=[5, 0], quaffle=0, table=[("KEEPER", 1)],
                     step="manoeuvre")
    act(state, "score P2")
    assert state.current_player() == 1 and legal(state) == {"play SAVED", "decline"}  # before Top Keeper
    act(state, "play SAVED")
    assert state.score == [0, 0] and state.dom[0] == 2 and state.quaffle == 1
    declined = position(hands=[[], ["SAVED"]], dominance=[5, 0], quaffle=0, table=[("KEEPER", 1)], step="manoeuvre")
    act(declined, "score P2", "decline")
    assert declined.current_player() == CHANCE  # now Top Keeper rolls


@covers("saved", "pass", "qv2.ruling.responses")
def test_response_cards_cannot_be_played_in_the_play_step():
    state = position(hands=[["SAVED", "PASS", "WEAVE"], []])
    assert legal(state) == {"play WEAVE", "end"}
    rejects(state, "play SAVED", "qv2.response.general", "qv2.ruling.responses")
    rejects(state, "play PASS", "qv2.response.general", "qv2.ruling.responses")


@covers("qv2.ruling.responses")
def test_a_response_on_your_own_turn_leaves_your_action_free():
    state = position(table=[("TOUGH", 0)], hands=[["SAVED", "WEAVE"], []], step="start")
    act(state, "roll 1")
    assert state.current_player() == 0 and legal(state) == {"play SAVED", "decline"}
    act(state, "play SAVED", "draw TRICK to P1")
    assert state.score == [0, 0] and {"play WEAVE", "play TRICK"} <= legal(state)


@covers("pass", "qv2.ruling.pass-triggers")
def test_pass_keeps_the_quaffle_against_a_snatch():
    state = position(hands=[[], ["PASS"]], dominance=[3, 0], quaffle=1, step="manoeuvre")
    act(state, "snatch")
    assert state.current_player() == 1 and legal(state) == {"play PASS", "decline"}
    act(state, "play PASS")
    assert state.quaffle == 1 and state.dom[0] == 2
    lost = position(hands=[[], ["PASS"]], dominance=[3, 0], quaffle=1, step="manoeuvre")
    act(lost, "snatch", "decline")
    assert lost.quaffle == 0


@covers("pass", "saved", "qv2.ruling.pass-triggers")
def test_pass_answers_the_quaffle_moving_after_a_save_but_not_your_own_goal():
    state = position(hands=[["PASS"], ["SAVED"]], dominance=[5, 0], quaffle=0, step="manoeuvre")
    act(state, "score P2", "play SAVED")
    assert state.current_player() == 0 and legal(state) == {"play PASS", "decline"}
    act(state, "play PASS")
    assert state.quaffle == 0 and state.score == [0, 0]
    own_goal = position(hands=[["PASS"], []], dominance=[5, 0], quaffle=0, step="manoeuvre")
    act(own_goal, "score P2")
    assert own_goal.quaffle is None and hand(own_goal, 0) == {"PASS": 1}


@covers("qv2.ruling.pass-triggers")
def test_pass_answers_an_opponents_penalty_goal_that_sends_your_quaffle_home():
    state = position(hands=[["PENALTY"], ["PASS"]], quaffle=1)
    act(state, "play PENALTY P2")
    assert state.score == [10, 0] and state.current_player() == 1 and legal(state) == {"play PASS", "decline"}
    act(state, "play PASS")
    assert state.quaffle == 1


@covers("qv2.ruling.pass-triggers", "playing-tough")
def test_pass_answers_a_penalty_goal_your_own_playing_tough_gave_away():
    state = position(table=[("TOUGH", 0)], hands=[["PASS"], []], quaffle=0, step="start")
    act(state, "roll 1")
    assert state.score == [0, 10] and legal(state) == {"play PASS", "decline"}
    act(state, "play PASS")
    assert state.quaffle == 0


@covers("strayed-off-the-pitch", "qv2.ruling.strayed", "qv2.ruling.pass-triggers")
def test_strayed_passes_the_quaffle_left_and_pass_cannot_answer():
    state = position(players=3, hands=[["STRAYED"], ["PASS"], []], quaffle=1)
    act(state, "play STRAYED")
    assert state.quaffle == 2 and hand(state, 1) == {"PASS": 1}
    two = position(hands=[["STRAYED"], []], quaffle=0)
    act(two, "play STRAYED")
    assert two.quaffle == 1
    centre = position(hands=[["STRAYED"], []], quaffle=None)
    act(centre, "play STRAYED")
    assert centre.quaffle is None


@covers("penalty", "qv2.ruling.penalty-card")
def test_penalty_scores_unless_an_opponent_discards_two():
    state = position(hands=[["PENALTY"], ["WEAVE", "TRICK", "SWEEP"]])
    act(state, "play PENALTY P2")
    assert state.current_player() == 1 and legal(state) == {"accept", "decline"}
    act(state, "accept", "discard WEAVE", "discard TRICK")
    assert state.score == [0, 0] and hand(state, 1) == {"SWEEP": 1}
    scored = position(hands=[["PENALTY"], ["WEAVE", "TRICK"]])
    act(scored, "play PENALTY P2", "decline")
    assert scored.score == [10, 0]
    short = position(hands=[["PENALTY"], ["WEAVE"]])
    act(short, "play PENALTY P2")  # one card cannot stop it
    assert short.score == [10, 0]


@covers("qv2.ruling.penalty-card", "qv2.ruling.goal-against")
def test_with_three_players_any_opponent_may_stop_a_penalty_in_turn_order():
    state = position(players=3, hands=[["PENALTY"], ["WEAVE", "TRICK"], ["SWEEP", "SAVED", "PASS"]])
    act(state, "play PENALTY P3")
    assert state.current_player() == 1
    act(state, "decline")
    assert state.current_player() == 2
    act(state, "decline")
    assert state.current_player() == 2 and legal(state) == {"play SAVED", "decline"}  # only the named defender saves
    act(state, "play SAVED")
    assert state.score == [0, 0, 0] and state.quaffle == 2


@covers("qv2.ruling.goal-against")
def test_a_score_names_the_opponent_and_only_they_may_save_it():
    state = position(players=3, hands=[[], ["SAVED"], []], dominance=[5, 0, 0], quaffle=0, step="manoeuvre")
    act(state, "score P3")
    assert state.score == [10, 0, 0] and hand(state, 1) == {"SAVED": 1}


@covers("blagging", "qv2.ruling.blagging-any-time")
def test_blagging_as_your_action():
    state = position(hands=[["BLAG", "LPASS", "SWEEP"], ["WEAVE", "TRICK", "TRICK"]], quaffle=0)
    act(state, "play BLAG P2")
    assert state.current_player() == 1 and decision(state) == "discard"
    act(state, "discard WEAVE", "discard TRICK")
    assert state.score == [0, 10] and state.quaffle is None
    assert legal(state) == {"play LPASS", "end"}  # Blagging was this turn's Action


@covers("blagging", "qv2.ruling.blagging-any-time", "qv2.ruling.responses")
def test_blagging_out_of_turn_right_after_the_draw():
    state = position(hands=[["WEAVE", "TRICK"], ["BLAG"]], step="draw")
    act(state, "draw SWEEP to P1")
    assert state.current_player() == 1 and legal(state) == {"play BLAG P1", "decline"}
    act(state, "play BLAG P1", "discard WEAVE", "discard TRICK")
    assert state.score == [10, 0] and state.current_player() == 0 and legal(state) == {"play SWEEP", "end"}
    assert not state.action_played


@covers("blagging", "qv2.ruling.blagging-any-time")
def test_snitch_blagging_discards_now_and_gives_the_goal_after_the_seekers():
    state = position(hands=[["SNITCH", "BTSEEK", "DARING", "QUICK"], ["BLAG", "NUDGE"]], scores=[0, 0])
    act(state, "play SNITCH")
    assert state.current_player() == 1 and legal(state) == {"play BLAG P1", "decline"}
    act(state, "play BLAG P1", "discard BTSEEK", "discard DARING")
    assert state.score == [0, 0]  # the penalty waits
    act(state, "reveal QUICK", "reveal NUDGE")  # 1 against 1: the Snitch escapes
    assert state.score == [10, 0] and not state.is_terminal()


@covers("qv2.ruling.blagging-any-time", "qv2.ruling.snitch-play")
def test_a_blagging_penalty_still_counts_after_the_snitch_is_caught():
    state = position(hands=[["SNITCH", "BTSEEK", "DARING", "QUICK"], ["BLAG"]], scores=[0, 0])
    act(state, "play SNITCH", "play BLAG P1", "discard BTSEEK", "discard DARING", "reveal QUICK")
    assert state.is_terminal() and state.outcome().scores == (160, 0)


# ------------------------------------------------------------------------------ manoeuvres and turn

@covers("qv2.ruling.thresholds")
def test_a_manoeuvre_needs_a_point_of_dominance():
    state = position(hands=[["WEAVE"], []], dominance=[0, 0], quaffle=None)
    assert "end" in legal(state)
    act(state, "end")
    assert state.active == 1  # no manoeuvre step without dominance to pay
    broke = position(dominance=[0, 0], step="manoeuvre")
    assert broke.active == 1


def test_outfly_costs_nothing_in_the_end_and_search_discards_what_it_turns_up():
    state = position(dominance=[1, 2], step="manoeuvre")
    act(state, "outfly P2")
    assert state.dom == [1, 1]
    search = position(dominance=[1, 0], draw=["WEAVE", "TRICK", "SWEEP", "PASS", "SAVED", "PENALTY"],
                      discard=[], step="manoeuvre")
    act(search, "search", "turn WEAVE", "turn TRICK", "turn SWEEP", "turn PASS", "turn SAVED")
    assert sorted(search.discard) == ["pass", "saved", "sweeping-play", "trick-play", "weaving"]
    assert search.draw_total == 1 and search.dom[0] == 0


@covers("qv2.ruling.search-short-deck", "qv2.ruling.snitch-play")
def test_search_reshuffles_without_the_turned_cards_and_plays_a_snitch_for_free():
    state = position(hands=[["NUDGE"], []], dominance=[1, 0], draw=["WEAVE", "TRICK"],
                     discard=["SNITCH", "SWEEP"], step="manoeuvre")
    act(state, "search", "turn WEAVE", "turn TRICK")
    assert state.reshuffles == 2 and state.draw == {"golden-snitch": 1, "sweeping-play": 1}
    act(state, "turn SNITCH", "turn SWEEP")  # both piles now empty: only four turned up
    assert decision(state) == "reveal" and state.current_player() == 0
    act(state, "reveal NUDGE")
    assert state.outcome().winners == (0,)


@covers("qv2.ruling.empty-piles")
def test_with_both_piles_empty_the_draw_is_skipped():
    state = position(hands=[["WEAVE"], []], draw=[], discard=[], step="draw")
    assert decision(state) == "play" and state.reshuffles == 2


@covers("qv2.ruling.turn-order")
def test_turn_steps_run_start_draw_blagging_play_manoeuvre_end_limit():
    state = position(table=[("LPASS", 0), ("TOUGH", 0)], hands=[["WEAVE"] * 4 + ["TRICK"] * 2, ["BLAG"]],
                     step="start")
    steps = []
    for text in ("roll 3", "draw SWEEP to P1", "decline", "play WEAVE", "outfly P2", "decline", "discard TRICK"):
        steps.append(decision(state))
        act(state, text)
    assert steps == ["roll", "draw", "blag", "play", "manoeuvre", "end", "discard"]
    assert state.active == 1


@covers("qv2.ruling.turn-cap")
def test_the_turn_cap_ends_a_game_that_will_not_end():
    game = game_for(DECK, {"turn_cap": 2})
    state = game.new_state(2)
    import random

    rng = random.Random(3)
    while not state.is_terminal():
        state.apply(state.sample_chance(rng) if state.current_player() == CHANCE
                    else rng.choice(state.legal_actions()))
    assert state.turn_slots <= 4
    assert state.outcome().reason in ("turn-cap", "finished")
    capped = state.outcome().reason == "turn-cap"
    assert capped and state.turn_slots == 4  # this seed does not find the Snitch in four turns


@covers("qv2.ruling.players")
def test_two_to_six_players():
    assert (GAME.min_players, GAME.max_players) == (2, 6) == (DECK.min_players, DECK.max_players)
    for count in (1, 7):
        with pytest.raises(DeckgenError):
            GAME.new_state(count)
    six = GAME.new_state(6)
    import random

    rng = random.Random(0)
    while six.turn_slots == 0:
        six.apply(six.sample_chance(rng))
    assert all(six.hand_size(seat) == 5 for seat in range(6)) and six.draw_total == 24


@covers("qv2.ruling.type-lines", "qv2.ruling.firebolt-type")
def test_type_lines_and_deck_composition():
    assert DECK.total == 56 and len(DECK.cards) == 39
    assert DECK.card("SAVED").type_line == DECK.card("PASS").type_line == "Action - Response"
    assert DECK.card("BLAG").type_line == "Action - Any time"
    assert {c.type_line for c in DECK.cards if c.kind == "seeker"} == {"Seeker"}
    assert sum(c.count for c in DECK.cards if c.kind == "seeker") == 8
    assert {c.code for c in DECK.cards if c.type_line == "Thing - Broomstick"} == {"N2000", "N2001", "FIREBOLT"}
    for card in DECK.cards:
        if card.ruling:
            DECK.ruling(card.ruling)


def test_every_card_and_ruling_has_a_scenario():
    cards = {card.id for card in DECK.cards}
    rulings = {ruling.id for ruling in DECK.rulings}
    assert cards - COVERED == set(), "cards without a scenario test"
    assert rulings - COVERED == set(), "rulings without a test"
