"""How often Muggle Quidditch and Quidditch v2 games end by the rules rather than at the engine's
length cap, at every player count, between heuristic-or-better players and between random ones.

Run: python benchmarks/bench_turn_cap.py [--games N] [--search-games M] [--search-bot pimc-4]
Plays N seeded games per player count with heuristic players in every seat and with random ones,
and M with one search player among heuristic ones (its seat moving game by game). Prints the
share of games stopped by the cap with its 95% Wilson interval, and the median length.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from generator.deck.loader import load_deck  # noqa: E402
from generator.games.base import game_for  # noqa: E402
from generator.games.simulate import game_seed, play_game  # noqa: E402
from generator.validate.stats import wilson  # noqa: E402


def measure(game, players: int, games: int, seats) -> str:
    capped, lengths = 0, []
    for index in range(games):
        record, _ = play_game(game, players, game_seed(9, index), seats(index), index=index)
        capped += record.reason != "finished"
        lengths.append(record.actions)
    low, high = wilson(capped, games)
    return (f"{capped:>4} of {games} capped ({capped / games:6.2%}, 95% {low:.2%}-{high:.2%}), "
            f"median {statistics.median(lengths):.0f} actions")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--search-games", type=int, default=40)
    parser.add_argument("--search-bot", default="pimc-4")
    args = parser.parse_args()
    for deck_id in ("muggle-quidditch", "quidditch-v2"):
        game = game_for(load_deck(ROOT / "decks" / f"{deck_id}.toml"))
        for players in range(game.min_players, game.max_players + 1):
            for name, games, seats in (
                    ("heuristic", args.games, lambda index, n=players: ["heuristic"] * n),
                    (f"{args.search_bot} + heuristic", args.search_games,
                     lambda index, n=players: [args.search_bot if seat == index % n else "heuristic"
                                               for seat in range(n)]),
                    ("random", args.games, lambda index, n=players: ["random"] * n)):
                print(f"{deck_id:<17} {players} players, {name:<22} {measure(game, players, games, seats)}",
                      flush=True)


if __name__ == "__main__":
    main()
