"""Play many seeded games with bots and summarise them in constant memory.

Game `i` of a run with seed `S` is played from `game_seed(S, i)` alone: its chance draws
and each seat's bot have their own generators derived from it. So any game can be played
again on its own, and a process pool that splits the indices gets identical figures.
`play_games` streams `GameRecord`s; `SimulationStats` folds them into win rates by seat,
score distribution and game length, keeping counters whose size does not grow with N.
"""

from __future__ import annotations

import hashlib
import random
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator, Sequence

from ..core.errors import DeckgenError, OptionError
from ..core.output import write_text
from . import fastpath
from .base import CHANCE, TERMINAL, Action, Game, GameState
from .bots import make_bot
from .logs import dump_log


def game_seed(seed: int, index: int) -> int:
    """The seed of game `index` in a run seeded `seed` (stable across Python versions and processes)."""
    return derive_seed(seed, "game", index)


def derive_seed(seed: int, *parts: object) -> int:
    digest = hashlib.sha256("/".join(str(part) for part in (seed, *parts)).encode()).digest()
    return int.from_bytes(digest[:8], "big")


@dataclass(frozen=True, slots=True)
class GameRecord:
    index: int
    seed: int
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    actions: int  # every action, chance included
    decisions: int  # actions taken by players
    rounds: int  # rounds (hands, turns) the engine's summary lists; 0 if it lists none
    reason: str


def play_game(game: Game, num_players: int, seed: int, bots: Sequence[str],
              keep_actions: bool = False, index: int = 0,
              observe: Callable[[GameState, int, Action], None] | None = None) -> tuple[GameRecord, list[Action] | None]:
    """Play one full game from `seed`; return its record and, if asked, every action in order.
    `observe(state, player, action)` is called before each action is applied (player is
    `CHANCE` for chance): the validator counts card plays and lead changes with it.
    Games between random players that keep no actions and are not observed are played by
    the compiled playout when there is one (`fastpath`): the same games, faster."""
    chance_rng = random.Random(derive_seed(seed, "chance"))
    seat_rngs = [random.Random(derive_seed(seed, "seat", seat)) for seat in range(len(bots))]
    limit = game.max_actions(num_players)
    if not keep_actions and observe is None and all(kind == "random" for kind in bots):
        game.check_players(num_players)
        played = fastpath.playout(game, num_players, chance_rng, seat_rngs)
        if played is not None:  # the same game, played in compiled code
            if played.actions > limit:
                raise DeckgenError(f"{game.id}: game {index} (seed {seed}) passed its declared length of {limit} actions")
            return GameRecord(index, seed, played.scores, played.winners, played.actions, played.decisions,
                              played.rounds, played.reason), None
    state = game.new_state(num_players)
    players = [make_bot(game, kind, rng) for kind, rng in zip(bots, seat_rngs)]
    history: list[Action] | None = [] if keep_actions else None
    actions = decisions = 0
    while True:
        player = state.current_player()
        if player == TERMINAL:
            break
        if actions >= limit:
            raise DeckgenError(f"{game.id}: game {index} (seed {seed}) passed its declared length of {limit} actions")
        if player == CHANCE:
            action = state.sample_chance(chance_rng)
        else:
            action = players[player].choose(state)
            decisions += 1
        if observe is not None:
            observe(state, player, action)
        state.apply(action)
        actions += 1
        if history is not None:
            history.append(action)
    outcome = state.outcome()
    rounds = len(state.summary().get("rounds", ()))
    record = GameRecord(index, seed, tuple(outcome.scores), tuple(outcome.winners), actions, decisions,
                        rounds, outcome.reason)
    return record, history


MAX_GAMES = 1_000_000  # in one run: hours of play; past it a typo, not a plan


def play_games(game: Game, num_players: int, games: int, seed: int, bots: Sequence[str],
               save_logs: Path | None = None) -> Iterator[GameRecord]:
    """Play games 0..games-1 of the run seeded `seed`, yielding each record as it finishes."""
    if not 0 <= games <= MAX_GAMES:
        raise OptionError(f"--games {games:,}: give 0 to {MAX_GAMES:,} games")
    game.check_players(num_players)
    players = [f"P{seat + 1}" for seat in range(num_players)]
    for index in range(games):
        seed_i = game_seed(seed, index)
        record, history = play_game(game, num_players, seed_i, bots, keep_actions=save_logs is not None, index=index)
        if save_logs is not None:
            write_text(save_logs / f"game-{index + 1:05d}.toml", game_log_text(game, players, history or [],
                       comments=[f"deckgen simulate {game.deck.id} --players {num_players} --seed {seed}: "
                                 f"game {index + 1}, bots {','.join(bots)}"]))
        yield record


def game_log_text(game: Game, players: Sequence[str], actions: Sequence[Action], comments: Sequence[str] = (),
                  undone: Sequence[dict] = (), every_param: bool = False) -> str:
    """A complete log (header and the engine's tables) of a game played with `actions`, with the
    moves taken back at the table (`[[undo]]` entries: after, player, moves) if any. The log's
    `[params]` holds those that differ from the deck's, or with `every_param` all of them (a
    game at a table whose deck file may change after it: the log keeps the rules it was played by)."""
    header: dict = {"deck": game.deck.id, "players": list(players)}
    changed = {key: value for key, value in game.params.items()
               if every_param or game.deck.params.get(key, game.defaults.get(key)) != value}
    if changed:
        header["params"] = changed
    if undone:
        header["undo"] = [dict(entry) for entry in undone]
    return dump_log(header, game.log_body(players, actions), comments)


class SimulationStats:
    """Streaming summary of game records: constant memory in the number of games."""

    def __init__(self, num_players: int, lower_score_wins: bool = False):
        self.num_players = num_players
        self.lower_score_wins = lower_score_wins
        self.games = 0
        self.wins = [0.0] * num_players  # a shared win counts 1/k for each of k winners
        self.outright = [0] * num_players
        self.shared_games = 0
        self.capped = 0
        self.score_sum = [0] * num_players
        self.score_min = [None] * num_players
        self.score_max = [None] * num_players
        self.scores: Counter[int] = Counter()  # every final score, for the distribution
        self.winning_scores: Counter[int] = Counter()
        self.lengths: Counter[int] = Counter()  # actions per game
        self.decisions = 0
        self.rounds: Counter[int] = Counter()

    def add(self, record: GameRecord) -> None:
        self.games += 1
        share = 1 / len(record.winners) if record.winners else 0.0
        for seat in record.winners:
            self.wins[seat] += share
            self.winning_scores[record.scores[seat]] += 1
        if len(record.winners) == 1:
            self.outright[record.winners[0]] += 1
        elif record.winners:
            self.shared_games += 1
        if record.reason != "finished":
            self.capped += 1
        for seat, score in enumerate(record.scores):
            self.score_sum[seat] += score
            self.score_min[seat] = score if self.score_min[seat] is None else min(self.score_min[seat], score)
            self.score_max[seat] = score if self.score_max[seat] is None else max(self.score_max[seat], score)
            self.scores[score] += 1
        self.lengths[record.actions] += 1
        self.decisions += record.decisions
        self.rounds[record.rounds] += 1

    def as_dict(self) -> dict:
        games = max(self.games, 1)
        return {
            "games": self.games,
            "players": self.num_players,
            "seats": [
                {"seat": seat + 1, "win_rate": round(self.wins[seat] / games, 4), "outright_wins": self.outright[seat],
                 "mean_score": round(self.score_sum[seat] / games, 2), "min_score": self.score_min[seat],
                 "max_score": self.score_max[seat]}
                for seat in range(self.num_players)
            ],
            "shared_wins": self.shared_games,
            "capped_games": self.capped,
            "scores": _distribution(self.scores),
            "winning_scores": _distribution(self.winning_scores),
            "length_actions": _distribution(self.lengths),
            "decisions_per_game": round(self.decisions / games, 2),
            "rounds": _distribution(self.rounds),
        }

    def text(self) -> str:
        data = self.as_dict()
        lines = [f"{data['games']} games, {data['players']} players"
                 + (f", {data['capped_games']} stopped by the length cap" if data["capped_games"] else "")]
        lines.append("  seat  win rate  outright  mean score    min    max")
        for row in data["seats"]:
            lines.append(f"  {row['seat']:>4}  {row['win_rate'] * 100:7.1f}%  {row['outright_wins']:>8}  "
                         f"{row['mean_score']:>10}  {row['min_score']!s:>5}  {row['max_score']!s:>5}")
        lines.append(f"  shared wins: {data['shared_wins']} games")
        for label, key in (("final scores", "scores"), ("winning scores", "winning_scores"),
                           ("game length (actions)", "length_actions"), ("rounds per game", "rounds")):
            d = data[key]
            if d["count"] and (d["max"] or key != "rounds"):  # an engine that lists no rounds has none to show
                lines.append(f"  {label}: mean {d['mean']}, sd {d['sd']}, min {d['min']}, "
                             f"5% {d['p5']}, median {d['p50']}, 95% {d['p95']}, max {d['max']}")
        lines.append(f"  decisions per game: {data['decisions_per_game']}")
        return "\n".join(lines)


def _distribution(counts: Counter[int]) -> dict:
    total = sum(counts.values())
    if not total:
        return {"count": 0}
    mean = sum(value * n for value, n in counts.items()) / total
    variance = sum(n * (value - mean) ** 2 for value, n in counts.items()) / total
    ordered = sorted(counts.items())

    def quantile(q: float):
        target, seen = q * (total - 1), 0
        for value, n in ordered:
            seen += n
            if seen > target:
                return value
        return ordered[-1][0]

    return {"count": total, "mean": round(mean, 2), "sd": round(variance ** 0.5, 2), "min": ordered[0][0],
            "p5": quantile(0.05), "p50": quantile(0.5), "p95": quantile(0.95), "max": ordered[-1][0]}


def run(game: Game, num_players: int, games: int, seed: int, bots: Sequence[str], save_logs: Path | None = None,
        on_game: Callable[[GameRecord], None] | None = None) -> SimulationStats:
    """Play and summarise a run; `on_game` is called after each game (for a progress bar)."""
    stats = SimulationStats(num_players, game.lower_score_wins)
    for record in play_games(game, num_players, games, seed, bots, save_logs):
        stats.add(record)
        if on_game:
            on_game(record)
    return stats
