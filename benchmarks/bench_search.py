"""Search players' decisions per second, engine by engine: how long one `ismcts-N` or `pimc-N`
decision takes at the positions a real game reaches.

Run: python benchmarks/bench_search.py [--bots ismcts-50,ismcts-200,pimc-5] [--positions P] [--repeats R]
For each engine (its deck in decks/, and Oh Hell from examples/rules; a typical player count), P
positions are taken from one seeded heuristic game (every few decisions, all seats); each bot decides at each of them, R
rounds interleaved across bots; the median round gives decisions per second of wall time and
per second of this process's CPU time (what a loaded machine changes least), and CPU
microseconds per iteration (an iteration is one sampled world and one playout; for pimc-N a
world and a playout per legal action). The machine is shared: the load average is printed with
the figures.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from generator.deck.loader import load_deck  # noqa: E402
from generator.games.base import CHANCE, TERMINAL, game_for  # noqa: E402
from generator.games.bots import make_bot  # noqa: E402

# the four shipped engines, and Oh Hell for a rules-language deck with long rounds (examples/rules)
TABLES = (("decks/wizard", 4), ("decks/wizard-hearts", 4), ("decks/muggle-quidditch", 2), ("decks/quidditch-v2", 4),
          ("examples/rules/oh-hell", 3))


def positions(game, players: int, count: int) -> list:
    """Copies of the decision points of one seeded heuristic game, spread over the whole game."""
    rng = random.Random(1)
    bots = [make_bot(game, "heuristic", random.Random(seat)) for seat in range(players)]
    state, found = game.new_state(players), []
    while state.current_player() != TERMINAL:
        player = state.current_player()
        if player == CHANCE:
            state.apply(state.sample_chance(rng))
            continue
        if len(state.legal_actions()) > 1:
            found.append(state.clone())
        state.apply(bots[player].choose(state))
    step = max(1, len(found) // count)
    return found[::step][:count]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bots", default="ismcts-50,ismcts-200,pimc-5")
    parser.add_argument("--positions", type=int, default=30)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    kinds = args.bots.split(",")
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} cores")
    print(f"{'engine':<18} {'players':>7} {'bot':<12} {'decisions/s':>12} {'per CPU s':>12} {'CPU us/iter':>13}")
    for deck_path, players in TABLES:
        deck_id = deck_path.rsplit("/", 1)[1]
        game = game_for(load_deck(ROOT / f"{deck_path}.toml"))
        spots = positions(game, players, args.positions)
        rounds: dict[str, list[float]] = {kind: [] for kind in kinds}
        cpu: dict[str, list[float]] = {kind: [] for kind in kinds}
        for repeat in range(args.repeats):
            for kind in kinds if repeat % 2 == 0 else reversed(kinds):
                bot = make_bot(game, kind, random.Random(repeat))
                started, used = time.perf_counter(), time.process_time()
                for state in spots:
                    bot.choose(state.clone())
                rounds[kind].append(time.perf_counter() - started)
                cpu[kind].append(time.process_time() - used)
        for kind in kinds:
            seconds = statistics.median(rounds[kind]) / len(spots)
            cpu_seconds = statistics.median(cpu[kind]) / len(spots)
            budget = int(kind.split("-")[1])
            print(f"{deck_id:<18} {players:>7} {kind:<12} {1 / seconds:>12.1f} {1 / cpu_seconds:>12.1f} "
                  f"{cpu_seconds / budget * 1e6:>13.0f}")
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
