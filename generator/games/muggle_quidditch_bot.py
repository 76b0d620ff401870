"""Muggle Quidditch's heuristic player (`deckgen simulate --bot heuristic`)."""

from __future__ import annotations

from .base import Action
from .bots import HeuristicBot
from .muggle_quidditch_rules import (ACTION, DRAW, EXTRA_DISCARD, GOAL_SUM, JOKER, POSITIONS, RESPONSE, Bludger,
                                     Discard, Dive, Draw, Goal, Recruit, Spot)
from .muggle_quidditch_state import MuggleQuidditchState


class MuggleQuidditchBot(HeuristicBot):
    """A simple sensible player. It reads only its own hand and what is public (both teams, the
    discard pile, the score piles, the Jokers on the table), never the other hand or the draw pile.

    Its priorities: dive when the dive favours it (and there are cards to dive for) and the Snitch
    would win the match; score any goal; spot the Snitch when it holds both Jokers; fill the team
    (Chaser first); knock out the rival Seeker once the Snitch is spotted, a rival Keeper that
    blocks one of its pairs, or the rival Chaser; otherwise discard its least useful card."""

    def choose(self, state: MuggleQuidditchState) -> Action:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        me = state.current_player()
        if state.phase == DRAW:
            return self._draw(state, me)
        if state.phase == RESPONSE:
            return self._answer(state, me, legal)
        if state.phase in (ACTION, EXTRA_DISCARD):
            return self._act(state, me, legal)
        return self.pick(legal)

    def _draw(self, state: MuggleQuidditchState, me: int) -> Action:
        top = state.discard_pile[-1] if state.discard_pile else None
        if top is not None and len(state.hands[me]) < state.game.params["draw_to"] and self._wanted(state, me, top):
            return Draw(True)
        return Draw(False)

    def _wanted(self, state: MuggleQuidditchState, me: int, card: str) -> bool:
        game = state.game
        kind = game.kind_of[card]
        team = state.teams[me]
        if kind == "joker":
            return "seeker" in team
        if kind == "beater" and state.snitch and "seeker" in state.teams[1 - me]:
            return True  # a Bludger for the rival Seeker, and one Jack fewer for the rival to guard it with
        if kind in POSITIONS:
            return kind not in team
        if game.suit_of[card] == state.houses[1 - me]:
            return False  # any rival Keeper will keep it out
        partner_value = GOAL_SUM - game.value_of[card]
        keeper = state.teams[1 - me].get("keeper")
        return any(game.value_of[other] == partner_value and other != card
                   and game.goal_refusal((card, other), state.houses[me], state.houses[1 - me], keeper) is None
                   for other in state.hands[me])

    def _answer(self, state: MuggleQuidditchState, me: int, legal: list[Action]) -> Action:
        return min(legal, key=lambda action: self._member_value(state, me, action.card))

    def _member_value(self, state: MuggleQuidditchState, me: int, card: str) -> int:
        kind = state.game.kind_of[card]
        if kind == "seeker":
            return 6 if state.snitch else 3
        own = state.game.suit_of[card] == state.houses[me]
        return {"chaser": 5, "keeper": 4 + own, "beater": 3}[kind]

    def _act(self, state: MuggleQuidditchState, me: int, legal: list[Action]) -> Action:
        if state.phase == EXTRA_DISCARD:
            return self._least_useful(state, me, legal)
        game = state.game
        them = 1 - me
        team, rival_team = state.teams[me], state.teams[them]
        by_type: dict[type, list[Action]] = {}
        for action in legal:
            by_type.setdefault(type(action), []).append(action)
        snitch_wins = state.score(me) + game.params["snitch_points"] > state.score(them)
        if Dive in by_type and snitch_wins:
            rival_seeker = rival_team.get("seeker")
            mine = game.dive_quota(team["seeker"], state.houses[me], state.houses[them])
            theirs = (game.dive_quota(rival_seeker, state.houses[them], state.houses[me]) if rival_seeker else 0)
            cards_to_dive_for = state.draw_pile or state.discard_pile  # both piles empty: a certain tie
            if rival_seeker is None or (mine >= theirs and cards_to_dive_for):
                return by_type[Dive][0]
        if Goal in by_type:
            return self.pick(by_type[Goal])
        if Spot in by_type and state.hands[me].count(JOKER) == 2 and snitch_wins:
            return by_type[Spot][0]  # and dive next turn with the other Joker
        recruits = self._useful_recruits(state, me, by_type.get(Recruit, []))
        if recruits:
            return recruits[0]
        bludger = self._bludger_choice(state, me, by_type.get(Bludger, []))
        if bludger is not None:
            return bludger
        return self._least_useful(state, me, by_type.get(Discard, legal))

    def _useful_recruits(self, state: MuggleQuidditchState, me: int, recruits: list[Action]) -> list[Action]:
        game = state.game
        team = state.teams[me]
        order = {"chaser": 0, "seeker": 1, "keeper": 2, "beater": 3}
        useful = []
        for action in recruits:
            kind = game.kind_of[action.card]
            current = team.get(kind)
            upgrade = (current is not None and kind in ("seeker", "keeper")
                       and game.suit_of[action.card] == state.houses[me] != game.suit_of[current])
            if current is None or upgrade:
                useful.append(action)
        return sorted(useful, key=lambda action: order[game.kind_of[action.card]])

    def _bludger_choice(self, state: MuggleQuidditchState, me: int, bludgers: list[Action]) -> Action | None:
        if not bludgers:
            return None
        rival_team = state.teams[1 - me]
        targets = []
        if state.snitch and "seeker" in state.teams[me] and "seeker" in rival_team:
            targets.append(rival_team["seeker"])
        if "keeper" in rival_team and self._keeper_blocks_a_pair(state, me):
            targets.append(rival_team["keeper"])
        if "chaser" in rival_team:
            targets.append(rival_team["chaser"])
        own_beater = state.teams[me].get("beater")
        for target in targets:
            options = [action for action in bludgers if action.target == target]
            from_hand = [action for action in options if action.jack != own_beater]
            if from_hand or options:
                return (from_hand or options)[0]
        return None

    def _keeper_blocks_a_pair(self, state: MuggleQuidditchState, me: int) -> bool:
        """Whether the rival Keeper stops a goal this hand could otherwise score."""
        if "chaser" not in state.teams[me]:
            return False
        game = state.game
        keeper = state.teams[1 - me]["keeper"]
        numbers = [card for card in state.hands[me] if game.value_of[card] is not None]
        return any(game.value_of[first] + game.value_of[second] == GOAL_SUM
                   and game.goal_refusal((first, second), state.houses[me], state.houses[1 - me], keeper) is not None
                   for index, first in enumerate(numbers) for second in numbers[index + 1:])

    def _least_useful(self, state: MuggleQuidditchState, me: int, discards: list[Action]) -> Action:
        scored = [(self._card_value(state, me, action.card), action) for action in discards]
        lowest = min(value for value, _ in scored)
        return self.pick([action for value, action in scored if value == lowest])

    def _card_value(self, state: MuggleQuidditchState, me: int, card: str) -> int:
        game = state.game
        kind = game.kind_of[card]
        team = state.teams[me]
        if kind == "joker":
            return 8
        if kind == "beater":
            return 6
        if kind in POSITIONS:
            current = team.get(kind)
            if current is None:
                return 7
            return 4 if game.suit_of[card] == state.houses[me] != game.suit_of[current] else 1
        value = 2
        partner = GOAL_SUM - game.value_of[card]
        if any(game.value_of[other] == partner and other != card for other in state.hands[me]):
            value += 2
        if game.suit_of[card] == state.houses[me]:
            value += 1
        if game.suit_of[card] == state.houses[1 - me]:
            value -= 2
        return value
