"""Muggle Quidditch engine speed: full seeded games per second and actions per second.

Run: python benchmarks/bench_muggle.py [--games N] [--repeats R]
Plays N games per repeat for each pairing (random, heuristic, heuristic vs random) through
the same loop the simulator uses (`generator.games.simulate.play_game`), and a bare loop of
random legal actions without the bot layer. Prints the median over the repeats, the spread,
the mean game length, and the peak memory of this process. Peer figure to compare with
(docs/../research): OpenSpiel's hearts/oh_hell driven from Python run ≈0.4-0.5 M actions/s.
"""

from __future__ import annotations

import argparse
import random
import resource
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from generator.games.base import CHANCE, TERMINAL, game_for  # noqa: E402
from generator.games.simulate import game_seed, play_game  # noqa: E402
from generator.loader import load_deck  # noqa: E402


def bare_random(game, games: int, seed: int) -> int:
    """Random legal actions straight on the state; returns the number of actions."""
    actions = 0
    for index in range(games):
        rng = random.Random(game_seed(seed, index))
        state = game.new_state(2)
        while (player := state.current_player()) != TERMINAL:
            legal = None if player == CHANCE else state.legal_actions()
            state.apply(state.sample_chance(rng) if legal is None else legal[int(rng.random() * len(legal))])
            actions += 1
    return actions


def with_bots(game, games: int, seed: int, bots: list[str]) -> int:
    return sum(play_game(game, 2, game_seed(seed, index), bots, index=index)[0].actions for index in range(games))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    game = game_for(load_deck(ROOT / "decks" / "muggle-quidditch.toml"))
    runs = {
        "bare random loop": lambda: bare_random(game, args.games, 1),
        "random, random": lambda: with_bots(game, args.games, 1, ["random", "random"]),
        "heuristic, heuristic": lambda: with_bots(game, args.games, 1, ["heuristic", "heuristic"]),
        "heuristic, random": lambda: with_bots(game, args.games, 1, ["heuristic", "random"]),
    }
    print(f"muggle-quidditch, {args.games} games x {args.repeats} repeats (max_turns {game.params['max_turns']})")
    print(f"{'players':<22} {'games/s':>9} {'(min-max)':>17} {'actions/s':>10} {'actions/game':>13}")
    for name, run in runs.items():
        rates, actions = [], 0
        for _ in range(args.repeats):
            start = time.perf_counter()
            actions = run()
            rates.append(args.games / (time.perf_counter() - start))
        median = statistics.median(rates)
        per_game = actions / args.games
        print(f"{name:<22} {median:>9.0f} {f'({min(rates):.0f}-{max(rates):.0f})':>17} "
              f"{median * per_game:>10.0f} {per_game:>13.1f}")
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory (this process): {peak_mb:.0f} MB")


if __name__ == "__main__":
    main()
