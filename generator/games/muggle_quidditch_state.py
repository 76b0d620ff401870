"""Muggle Quidditch: one moment of a match, the legal actions there, and what each action does
(the rules the game in `generator.games.muggle_quidditch` is built from).
"""

from __future__ import annotations

import random

from .base import CHANCE, TERMINAL, Action, Game, GameState, Outcome, Pending
from .muggle_quidditch_known import KnownCards
from .muggle_quidditch_refusals import MuggleQuidditchRefusals
from .muggle_quidditch_rules import (ACTION, DEAL, DIVING, DRAW, DRAW_FROM_PILE, DRAWING, EXTRA_DISCARD, GOAL_SUM,
                                     HOUSES, JOKER, OVER, POSITIONS, RESPONSE, SHUFFLING, TAKE_DISCARD, Bludger,
                                     ChooseHouse, Discard, Dive, DiveRows, Draw, Goal, Lose, Pass, Recruit, Shuffle,
                                     Spot, TurnRecord)
from .muggle_quidditch_view import mq_view


class MuggleQuidditchState(MuggleQuidditchRefusals, KnownCards, GameState):
    num_players = 2

    def __init__(self, game: Game):
        self.game = game
        self.houses: list[str | None] = [None, None]
        self.hands: list[list[str]] = [[], []]
        self.shown: list[list[str]] = [[], []]  # cards each hand is known to hold (taken from the discard pile)
        self.teams: list[dict[str, str]] = [{}, {}]  # position -> card
        self.score_piles: list[list[str]] = [[], []]
        self.goals = [0, 0]
        self.draw_pile: list[str] = []  # the top is the end of the list
        self.discard_pile: list[str] = []  # the top is the end of the list
        self.snitch: list[str] = []  # Jokers on the table
        self.dive: DiveRows | None = None
        self.phase = HOUSES
        self.active = 0  # whose turn it is; seat 1 deals, so seat 0 starts
        self.turn = 0  # turns started
        self.fresh_jack: str | None = None  # a Jack taken from the discard pile this turn
        self.bludger: tuple[str, str, bool] | None = None  # a Bludger awaiting its answer: jack, target, from team
        self.shuffle_for: str | None = None  # what a pending shuffle resumes
        self.shuffle_cards: list[str] = []  # the cards the pending shuffle orders
        self.caught_by: int | None = None
        self.capped = False
        self.record = TurnRecord()

    # -- GameState API --

    def current_player(self) -> int:
        phase = self.phase
        if phase == OVER:
            return TERMINAL
        if phase == SHUFFLING:
            return CHANCE
        if phase == HOUSES:
            return 0 if self.houses[0] is None else 1
        if phase == RESPONSE:
            return 1 - self.active
        return self.active

    def pending(self) -> Pending | None:
        phase, name = self.phase, self.player_name
        turn = f" in turn {self.turn}" if self.turn else ""
        if phase == OVER:
            return None
        if phase == SHUFFLING:
            what = {DEAL: "the shuffle and deal that start the match", DRAWING: "the rebuilt draw pile's order",
                    DIVING: "the rebuilt draw pile's order, for the dive"}[self.shuffle_for]
            return Pending(CHANCE, what + turn, "mq.setup.deal" if self.shuffle_for == DEAL else "mq.deck.reshuffle")
        if phase == HOUSES:
            seat = self.current_player()
            return Pending(seat, f"{name(seat)}'s choice of house", "mq.setup.houses")
        seat = self.current_player()
        if phase == DRAW:
            return Pending(seat, f"{name(seat)}'s draw step{turn}", "mq.turn.draw")
        if phase == RESPONSE:
            return Pending(seat, f"{name(seat)}'s choice of what leaves the team after the Bludger on "
                                 f"{self.bludger[1]}{turn}", "mq.bludger.defence")
        if phase == EXTRA_DISCARD:
            return Pending(seat, f"{name(seat)}'s discard after the team Beater's Bludger{turn}", "mq.bludger.team")
        return Pending(seat, f"{name(seat)}'s action{turn}", "mq.turn.actions")

    def legal_actions(self) -> list[Action]:
        phase = self.phase
        if phase == ACTION:
            return self._action_choices()
        if phase == DRAW:
            if self.discard_pile and len(self.hands[self.active]) < self.game.params["draw_to"]:
                return [DRAW_FROM_PILE, TAKE_DISCARD]
            return [DRAW_FROM_PILE]
        if phase == HOUSES:
            return [ChooseHouse(suit.id) for suit in self.game.deck.suits if suit.id not in self.houses]
        if phase == RESPONSE:
            return [Lose(self.bludger[1]), Lose(self.teams[1 - self.active]["beater"])]
        if phase == EXTRA_DISCARD:
            return [self.game.discard_of[card] for card in _distinct(self.hands[self.active])]
        return []  # terminal, or chance: see sample_chance

    def _action_choices(self) -> list[Action]:
        hand = self.hands[self.active]
        if not hand:
            return [Pass()] + self._bludgers()
        game = self.game
        team = self.teams[self.active]
        cards = _distinct(hand) if hand.count(JOKER) > 1 else hand
        recruit_of = game.recruit_of  # exactly the team players (Aces, Kings, Queens, Jacks)
        fresh = self.fresh_jack
        actions: list[Action] = self._goals() if "chaser" in team else []
        actions += [recruit_of[card] for card in cards if card in recruit_of and card != fresh]
        if self.teams[1 - self.active]:  # `_bludgers` finds no target on an empty team
            actions += self._bludgers()
        if "seeker" in team and JOKER in hand:
            if not self.snitch:
                actions.append(Spot())
            elif len(self.snitch) == 1:
                actions.append(Dive())
        discard_of = game.discard_of
        actions += [discard_of[card] for card in cards]
        return actions

    def _goals(self) -> list[Action]:
        me = self.active
        game = self.game
        value_of, goal_of = game.value_of, game.goal_of
        numbers = [(card, value_of[card]) for card in self.hands[me] if value_of[card] is not None]
        keeper = self.teams[1 - me].get("keeper")
        goals: list[Action] = []
        for index, (first, value) in enumerate(numbers):
            wanted = GOAL_SUM - value
            for second, other in numbers[index + 1:]:
                if other != wanted:
                    continue
                goal = goal_of[first, second]
                if keeper is None or game.goal_refusal(goal.cards, self.houses[me], self.houses[1 - me],
                                                       keeper) is None:
                    goals.append(goal)
        return goals

    def _bludgers(self) -> list[Action]:
        me = self.active
        targets = list(self.teams[1 - me].values())
        if not targets:
            return []
        kind_of = self.game.kind_of
        jacks = [card for card in self.hands[me] if kind_of[card] == "beater" and card != self.fresh_jack]
        if "beater" in self.teams[me]:
            jacks.append(self.teams[me]["beater"])
        bludger_of = self.game.bludger_of
        return [bludger_of[jack, target] for jack in jacks for target in targets]

    def apply(self, action: Action) -> None:
        kind, phase = type(action), self.phase
        # The two commonest actions are legal on these plain facts (`_refusal` finds nothing to
        # refuse in them): a draw from the pile in the draw step, and discarding a held card in
        # the action step. Anything else is checked in full.
        if not (kind is Draw and phase == DRAW and not action.from_discard
                or kind is Discard and phase == ACTION and action.card in self.hands[self.active]):
            self._check(action)
        EFFECTS[kind](self, action)

    # One effect per action type, looked up by type in `EFFECTS` (cheaper than a match).

    def _take_house(self, action: ChooseHouse) -> None:
        self.houses[self.current_player()] = action.suit
        if None not in self.houses:
            self._await_shuffle(DEAL, list(self.game.all_codes))

    def _draw(self, action: Draw) -> None:
        if action.from_discard:
            card = self.discard_pile.pop()
            self.hands[self.active].append(card)
            self.shown[self.active].append(card)
            self.record.took = card
            if self.game.kind_of[card] == "beater":
                self.fresh_jack = card
        self.phase = ACTION
        self._draw_to_full()

    def _discard(self, action: Discard) -> None:
        self._play_from_hand(self.active, action.card)
        self.discard_pile.append(action.card)
        self._end_turn()

    def _recruit(self, action: Recruit) -> None:
        card = action.card
        self._play_from_hand(self.active, card)
        position = self.game.kind_of[card]
        replaced = self.teams[self.active].get(position)
        if replaced:
            self.discard_pile.append(replaced)
        self.teams[self.active][position] = card
        self._end_turn()

    def _score(self, action: Goal) -> None:
        for card in action.cards:
            self._play_from_hand(self.active, card)
        self.score_piles[self.active].extend(action.cards)
        self.goals[self.active] += 1
        self._end_turn()

    def _spot(self, action: Spot) -> None:
        self._play_from_hand(self.active, JOKER)
        self.snitch.append(JOKER)
        self._end_turn()

    def _dive(self, action: Dive) -> None:
        self._play_from_hand(self.active, JOKER)
        self.snitch.append(JOKER)
        self._start_dive()

    def _pass(self, action: Pass) -> None:
        self._end_turn()

    def sample_chance(self, rng: random.Random) -> Action:
        if self.phase != SHUFFLING:
            raise ValueError("not a chance node: nothing is being shuffled")
        order = list(self.shuffle_cards)
        rng.shuffle(order)
        return Shuffle(tuple(order))

    def outcome(self) -> Outcome | None:
        if self.phase != OVER:
            return None
        scores = (self.score(0), self.score(1))
        best = max(scores)
        winners = tuple(seat for seat in (0, 1) if scores[seat] == best)
        reason = (f"turn-cap: stopped after {self.game.params['max_turns']} turns with the Snitch uncaught"
                  if self.capped else "finished")
        return Outcome(scores, winners, reason, draw=len(winners) > 1)  # mq.end.tie: equal totals draw

    def score(self, seat: int) -> int:
        points = self.goals[seat] * self.game.params["goal_points"]
        if self.caught_by == seat:
            points += self.game.params["snitch_points"]
        return points

    def summary(self) -> dict:
        game = self.game
        columns = {
            "house": [game.house_name(house) if house else None for house in self.houses],
            "team": [" ".join(team[position] for position in POSITIONS if position in team) or None
                     for team in self.teams],
            "goals": list(self.goals),
            "snitch": [game.params["snitch_points"] if self.caught_by == seat else 0 for seat in (0, 1)],
            "score": [self.score(seat) for seat in (0, 1)],
        }
        how = ("the Snitch caught" if self.caught_by is not None else
               "stopped by the turn cap" if self.capped else "in progress")
        played = self.turn if self.phase == OVER else max(self.turn - 1, 0)
        return {
            "scores": [self.score(seat) for seat in (0, 1)],
            "rounds": [{"title": f"Match: {played} turns played, {how}", "columns": columns}],
            "turn": self.turn,
            "houses": list(self.houses),
            "teams": [dict(team) for team in self.teams],
            "hands": [len(hand) for hand in self.hands],
            "snitch_on_table": len(self.snitch),
            "caught_by": self.caught_by,
            "capped": self.capped,
            "draw_pile": len(self.draw_pile),
            "discard_pile": len(self.discard_pile),
        }

    def table_view(self) -> dict:
        areas = [{"title": f"{self.player_name(seat)}'s team",
                  "cards": [self.teams[seat][position] for position in POSITIONS if position in self.teams[seat]]}
                 for seat in (0, 1)]
        areas.append({"title": "Snitch on the table", "cards": list(self.snitch)})
        if self.dive is not None or self.record.dive:
            areas.append({"title": "Dive", "cards": list(self.record.dive)})
        return {"hands": [list(hand) for hand in self.hands], "areas": areas,
                "counters": {"Turn": self.turn, "Draw pile": len(self.draw_pile),
                             "Discard pile": len(self.discard_pile),
                             "Top discard": self.discard_pile[-1] if self.discard_pile else "-",
                             "Goals": " / ".join(map(str, self.goals))},
                "scores": [self.score(seat) for seat in (0, 1)]}

    def view(self, seat: int | None) -> dict:
        return mq_view(self, seat)

    def all_cards(self) -> list[str]:
        """Every card wherever it is: hands, piles, tables, score piles, the dive, a shuffle in
        progress, a Bludger in flight. The game conserves this multiset."""
        cards = self.draw_pile + self.discard_pile + self.snitch + self.shuffle_cards
        for seat in (0, 1):
            cards += self.hands[seat] + list(self.teams[seat].values()) + self.score_piles[seat]
        if self.dive:
            cards += self.record.dive
        if self.bludger:
            cards.append(self.bludger[0])
        return cards

    def __str__(self) -> str:
        lines = [f"turn {self.turn}, phase {self.phase}, to act: {self.current_player()}"]
        for seat in (0, 1):
            team = " ".join(f"{position}={card}" for position, card in self.teams[seat].items())
            lines.append(f"seat {seat} ({self.houses[seat]}): hand {' '.join(self.hands[seat]) or '-'} | "
                         f"team {team or '-'} | goals {self.goals[seat]}")
        top = self.discard_pile[-1] if self.discard_pile else "-"
        lines.append(f"draw pile {len(self.draw_pile)}, discard pile {len(self.discard_pile)} (top {top}), "
                     f"Jokers on the table {len(self.snitch)}")
        return "\n".join(lines)

    # -- effects --

    def _await_shuffle(self, resume: str, cards: list[str]) -> None:
        self.phase = SHUFFLING
        self.shuffle_for = resume
        self.shuffle_cards = cards

    def _apply_shuffle(self, action: Shuffle) -> None:
        order = action.order
        resume = self.shuffle_for
        self.draw_pile = list(reversed(order))
        self.shuffle_cards = []
        self.shuffle_for = None
        if resume == DEAL:
            for _ in range(self.game.params["hand_size"]):
                for seat in (0, 1):  # seat 0, the player who did not deal, gets the first card
                    if self.draw_pile:
                        self.hands[seat].append(self.draw_pile.pop())
            self.turn = 1
            self.phase = DRAW
        elif resume == DRAWING:
            self.record.draw_shuffle = order
            self.phase = ACTION
            self._draw_to_full()
        else:
            self.record.dive_shuffle = order
            self.phase = ACTION
            self._continue_dive()

    def _start_reshuffle(self, resume: str) -> bool:
        """The draw pile has just run out, or a card must be drawn from it empty (mq.ruling.reshuffle):
        Jokers in hands join the discard pile, which becomes the cards to shuffle. False, and nothing
        moves, if the discard pile is empty (there is nothing to rebuild from)."""
        if not self.discard_pile:
            return False
        for seat, hand in enumerate(self.hands):
            while JOKER in hand:
                self._play_from_hand(seat, JOKER)
                self.discard_pile.append(JOKER)
        self.reveal_hands()
        self._await_shuffle(resume, self.discard_pile)
        self.discard_pile = []
        return True

    def _draw_to_full(self) -> None:
        hand = self.hands[self.active]
        target = self.game.params["draw_to"]
        while len(hand) < target:
            if not self.draw_pile:
                self._start_reshuffle(DRAWING)  # if nothing can be rebuilt, the hand stays short
                return
            card = self.draw_pile.pop()
            hand.append(card)
            self.record.drew.append(card)
            if not self.draw_pile and self._start_reshuffle(DRAWING):  # rebuilt the moment it runs out
                return

    def _bludger(self, action: Bludger) -> None:
        jack, target = action.jack, action.target
        me, them = self.active, 1 - self.active
        from_team = self.teams[me].get("beater") == jack
        if from_team:
            del self.teams[me]["beater"]
        else:
            self._play_from_hand(me, jack)
        self.bludger = (jack, target, from_team)
        defender_beater = self.teams[them].get("beater")
        if defender_beater and defender_beater != target:
            self.phase = RESPONSE
        else:
            self._resolve_bludger(target)

    def _lose(self, action: Lose) -> None:
        self._resolve_bludger(action.card)

    def _resolve_bludger(self, victim: str) -> None:
        jack, _, from_team = self.bludger
        me, them = self.active, 1 - self.active
        del self.teams[them][self.game.kind_of[victim]]
        self.discard_pile.append(victim)
        self.discard_pile.append(jack)
        self.bludger = None
        if self.snitch and "seeker" not in self.teams[0] and "seeker" not in self.teams[1]:
            self.discard_pile.extend(self.snitch)
            self.snitch = []
        if from_team and self.hands[me]:
            self.phase = EXTRA_DISCARD
        else:
            self._end_turn()

    def _start_dive(self) -> None:
        me, them = self.active, 1 - self.active
        if "seeker" not in self.teams[them]:
            self._capture(me)
            return
        quotas = [self.game.dive_quota(self.teams[seat]["seeker"], self.houses[seat], self.houses[1 - seat])
                  for seat in (0, 1)]
        self.dive = DiveRows(me, quotas, [[], []])
        self._continue_dive()

    def _continue_dive(self) -> None:
        dive = self.dive
        while (drawer := dive.next_drawer()) is not None:
            if not self.draw_pile:
                if self._start_reshuffle(DIVING):
                    return
                break  # nothing left anywhere: the dive stops with the cards turned so far
            card = self.draw_pile.pop()
            dive.rows[drawer].append(card)
            self.record.dive.append(card)
            if not self.draw_pile and self._start_reshuffle(DIVING):  # rebuilt the moment it runs out
                return
        strength = self.game.strength_of
        best = [max((strength[card] for card in row), default=-1) for row in dive.rows]
        self.dive = None
        if best[0] == best[1]:
            self.discard_pile.extend(self.snitch)  # the Jokers first, buried under the dive cards
            self.snitch = []
            self.discard_pile.extend(self.record.dive)
            self._end_turn()
        else:
            self.discard_pile.extend(self.record.dive)
            self._capture(0 if best[0] > best[1] else 1)

    def _capture(self, seat: int) -> None:
        self.score_piles[seat].extend(self.snitch)
        self.snitch = []
        self.caught_by = seat
        self.phase = OVER

    def _end_turn(self) -> None:
        if self.turn >= self.game.params["max_turns"]:
            self.capped = True
            self.phase = OVER
            return
        self.active = 1 - self.active
        self.turn += 1
        self.fresh_jack = None
        self.record = TurnRecord()
        self.phase = DRAW


def cards_of(action: Action) -> tuple[str, ...]:
    """The cards a turn action uses from the hand."""
    if isinstance(action, Goal):
        return action.cards
    if isinstance(action, Recruit):
        return (action.card,)
    if isinstance(action, Bludger):
        return (action.jack,)
    if isinstance(action, (Spot, Dive)):
        return (JOKER,)
    return ()


EFFECTS = {
    ChooseHouse: MuggleQuidditchState._take_house,
    Shuffle: MuggleQuidditchState._apply_shuffle,
    Draw: MuggleQuidditchState._draw,
    Goal: MuggleQuidditchState._score,
    Recruit: MuggleQuidditchState._recruit,
    Bludger: MuggleQuidditchState._bludger,
    Lose: MuggleQuidditchState._lose,
    Spot: MuggleQuidditchState._spot,
    Dive: MuggleQuidditchState._dive,
    Discard: MuggleQuidditchState._discard,
    Pass: MuggleQuidditchState._pass,
}


def _distinct(cards: list[str]) -> list[str]:
    """Each card code once, in hand order (the two Jokers share a code)."""
    return list(dict.fromkeys(cards))
