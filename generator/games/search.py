"""Search players over the generic Game/GameState API: determinized Monte Carlo (PIMC) and
single-observer information-set Monte Carlo tree search (SO-ISMCTS: Cowling, Powley and
Whitehouse, IEEE TCIAIG 2012). They play any engine whose states can sample the worlds a seat
cannot tell apart (`GameState.determinize`), so they never read a card their seat has not seen.

Budgets are counts, never seconds, so a game replays exactly from its seed on any machine:
- `pimc-N` samples N worlds and plays every legal action out once in each, with the same
  world and the same playout draws for every action (common random numbers), then takes the
  action with the best total;
- `ismcts-N` runs N iterations, each in a freshly sampled world, down one tree of the seat's
  information sets: an action is chosen by UCB1 over the times it was available (legal in
  that world), an untried one is added, and a playout scores the leaf.

A playout plays the world forward with the engine's heuristic players (random ones where it
has none) for `Game.search_stages` of the engine's scoring steps (`GameState.stage()`; 0 plays
to the end), then rewards each seat in [0, 1] by what it gained on the others since the
decision, read from `GameState.outlook()` in units of `Game.standing_scale`
(0.5 + tanh(gain / scale) / 2); a finished game adds the seat's share of the win.

Both start from the engine's heuristic choice (its playout player's, at the true position,
which reads only what the seat may see) and leave it only for the best action when its reward
beats the heuristic's by more than z standard errors of the difference (paired over the same
worlds for PIMC), z the normal quantile for a one-sided test at `FALSE_SWITCH` shared by the
other actions (Bonferroni: the best of many noisy estimates beats any one of them by chance).
At small budgets the playouts are noisy, and a noisy argmax plays worse than the heuristic it
plays out with. That heuristic draws from the seat's own generator exactly as a
heuristic seat would (the search and its playouts have generators of their own, seeded from
its state without drawing from it), so a search seat that never leaves the heuristic's choice
plays the very game a heuristic seat plays, and comparisons on shared deals stay paired.
"""

from __future__ import annotations

import random
from math import log, sqrt, tanh
from statistics import NormalDist

from .base import CHANCE, TERMINAL, Action, Bot, Game, GameState

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing at start-up
if TYPE_CHECKING:
    from typing import Callable, Sequence

EXPLORATION = 0.7  # UCB1's constant for rewards in [0, 1]
WIN_WEIGHT = 0.75  # at the end of a game, the reward is mostly the share of the win
FALSE_SWITCH = 0.2  # the chance of leaving the heuristic's choice for an action no better, per decision


class SearchBot(Bot):
    """What both search players share: the playout players, the playout and its reward."""

    def __init__(self, game: Game, budget: int, rng: random.Random,
                 rollout_player: Callable[[random.Random], Bot]):
        super().__init__(rng)
        self.game = game
        self.budget = budget
        self.guide = rollout_player(rng)  # the heuristic choice to improve on, on the seat's generator
        self.search_rng = random.Random(f"search {rng.getstate()}")
        # the playouts' own generator, so common random numbers can restart it for each action
        self.rollout_rng = random.Random(f"playouts {rng.getstate()}")
        self.rollout_player = rollout_player
        self.players: list[Bot] = []
        self.sign = -1 if game.lower_score_wins else 1

    def _setup(self, state: GameState) -> tuple[list[float], int | None]:
        """The playout players for this table, the outlook to measure gains from, and the stage a
        playout stops at (None: the end)."""
        if len(self.players) != state.num_players:
            self.players = [self.rollout_player(self.rollout_rng) for _ in range(state.num_players)]
        stages = self.game.search_stages
        return list(state.outlook()), state.stage() + stages if stages else None

    def playout(self, state: GameState, before: Sequence[float], stop: int | None) -> list[float]:
        """Play `state` forward (it is changed) and reward every seat."""
        players, rng = self.players, self.rollout_rng
        while True:
            player = state.current_player()
            if player == TERMINAL or stop is not None and state.stage() >= stop:
                break
            state.apply(state.sample_chance(rng) if player == CHANCE else players[player].choose(state))
        return self.rewards(state, before)

    def rewards(self, state: GameState, before: Sequence[float]) -> list[float]:
        sign, scale = self.sign, self.game.standing_scale
        gains = [sign * (now - then) for now, then in zip(state.outlook(), before)]
        others = len(gains) - 1
        total = sum(gains)
        shaped = [0.5 + 0.5 * tanh((gain - (total - gain) / others) / scale) for gain in gains]
        if not state.is_terminal():
            return shaped
        winners = state.outcome().winners
        share = 1 / len(winners) if winners else 0.0
        return [WIN_WEIGHT * (share if seat in winners else 0.0) + (1 - WIN_WEIGHT) * value
                for seat, value in enumerate(shaped)]


class PimcBot(SearchBot):
    """Determinized Monte Carlo: `budget` sampled worlds, every legal action played out in each."""

    def choose(self, state: GameState) -> Action:
        legal = list(state.legal_actions())
        guide = self.guide.choose(state)
        if len(legal) == 1:
            return guide
        seat = state.current_player()
        guided = legal.index(guide)
        before, stop = self._setup(state)
        rewards: list[list[float]] = [[] for _ in legal]
        rng, rollout_rng = self.search_rng, self.rollout_rng
        for _ in range(self.budget):
            world = state.determinize(seat, rng)
            draws = rng.getrandbits(64)
            for index, action in enumerate(legal):
                trial = world.clone()
                trial.apply(action)
                rollout_rng.seed(draws)
                rewards[index].append(self.playout(trial, before, stop)[seat])
        best = max(range(len(legal)), key=lambda index: (sum(rewards[index]), -index))
        differences = [mine - theirs for mine, theirs in zip(rewards[best], rewards[guided])]
        return legal[best] if _beats(differences, len(legal)) else legal[guided]


def _z(actions: int) -> float:
    """Standard errors the best of `actions` must beat the heuristic's choice by (see the module doc)."""
    return NormalDist().inv_cdf(1 - FALSE_SWITCH / max(actions - 1, 1))


def _beats(differences: Sequence[float], actions: int) -> bool:
    """Whether paired reward differences are above 0 by more than `_z(actions)` standard errors."""
    count = len(differences)
    if count < 2:
        return False
    mean = sum(differences) / count
    variance = sum((d - mean) ** 2 for d in differences) / (count - 1)
    return mean > _z(actions) * sqrt(variance / count)


class Node:
    """One information set's edge in the ISMCTS tree: reached by one player's action."""

    __slots__ = ("children", "visits", "total", "squares", "available")

    def __init__(self) -> None:
        self.children: dict[int, dict[Action, Node]] = {}  # by the player to act, then by action
        self.visits = 0
        self.total = 0.0  # rewards of the player who chose the action leading here
        self.squares = 0.0  # ... and their squares, for the final choice's standard error
        self.available = 1  # iterations in which that action was legal


class IsmctsBot(SearchBot):
    """SO-ISMCTS with `budget` iterations; the most visited action is played."""

    def choose(self, state: GameState) -> Action:
        legal = list(state.legal_actions())
        guided = self.guide.choose(state)
        if len(legal) == 1:
            return guided
        seat = state.current_player()
        before, stop = self._setup(state)
        root = Node()
        for _ in range(self.budget):
            self._iterate(state.determinize(seat, self.search_rng), root, before, stop, guided)
        choices = root.children.get(seat, {})
        best = max(legal, key=lambda action: _visits(choices.get(action)))
        return best if _clearly_better(choices.get(best), choices.get(guided), len(legal)) else guided

    def _iterate(self, world: GameState, node: Node, before: Sequence[float], stop: int | None,
                 first: Action) -> None:
        """One iteration; `first` is tried before the other actions at the root."""
        rng = self.search_rng
        path: list[tuple[int, Node]] = []
        while True:
            player = world.current_player()
            if player == TERMINAL:
                break
            if player == CHANCE:
                world.apply(world.sample_chance(rng))
                continue
            children = node.children.get(player)
            if children is None:
                children = node.children[player] = {}
            legal = world.legal_actions()
            untried = []
            best = best_value = None
            for action in legal:
                child = children.get(action)
                if child is None:
                    untried.append(action)
                    continue
                child.available += 1
                if not untried:
                    value = child.total / child.visits + EXPLORATION * sqrt(log(child.available) / child.visits)
                    if best_value is None or value > best_value:
                        best, best_value = action, value
            if untried:
                if not path and first in untried:
                    action = first
                else:
                    action = untried[rng.randrange(len(untried))] if len(untried) > 1 else untried[0]
                child = children[action] = Node()
                world.apply(action)
                path.append((player, child))
                break
            node = children[best]
            world.apply(best)
            path.append((player, node))
        rewards = self.playout(world, before, stop)
        for player, child in path:
            reward = rewards[player]
            child.visits += 1
            child.total += reward
            child.squares += reward * reward


def _clearly_better(node: Node | None, guided: Node | None, actions: int) -> bool:
    """Whether an action's mean reward beats the heuristic choice's by more than `_z(actions)`
    standard errors of the difference (unpaired: each came from its own worlds)."""
    if node is None or guided is None or node is guided:
        return node is not None and node is guided
    if node.visits < 2 or guided.visits < 2:
        return False
    spread = 0.0
    for child in (node, guided):
        mean = child.total / child.visits
        spread += max(child.squares / child.visits - mean * mean, 0.0) / (child.visits - 1)
    return node.total / node.visits - guided.total / guided.visits > _z(actions) * sqrt(spread)


def _visits(node: Node | None) -> tuple[int, float]:
    """How a root action ranks: visits, then mean reward."""
    return (0, 0.0) if node is None else (node.visits, node.total / node.visits)


def can_search(game: Game) -> bool:
    """Whether the engine's states sample what a seat has not seen (search players need it)."""
    state_type = type(game.new_state(game.min_players))
    return state_type.determinize is not GameState.determinize
