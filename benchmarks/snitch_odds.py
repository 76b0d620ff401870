"""Muggle Quidditch: how often a seat catches the Snitch, by what its position shows at the start
of its turns, over heuristic matches (the odds `KnownCards.outlook` reads for search players).

Run: python benchmarks/snitch_odds.py [--games N]
Prints, for each (own Seeker, rival Seeker, Jokers on the table, own Jokers, rival Jokers) seen,
the number of turn starts and the share after which that seat went on to catch the Snitch.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from generator.deck.loader import load_deck  # noqa: E402
from generator.games.base import CHANCE, TERMINAL, game_for  # noqa: E402
from generator.games.bots import make_bot  # noqa: E402
from generator.games.simulate import derive_seed, game_seed  # noqa: E402


def key(state, seat: int) -> tuple:
    other = 1 - seat
    return ("seeker" in state.teams[seat], "seeker" in state.teams[other], len(state.snitch),
            min(state.hands[seat].count("JK"), 2), min(state.hands[other].count("JK"), 2))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1500)
    args = parser.parse_args()
    game = game_for(load_deck(ROOT / "decks" / "muggle-quidditch.toml"))
    seen, caught = Counter(), Counter()
    for index in range(args.games):
        seed = game_seed(77, index)
        rng = random.Random(derive_seed(seed, "chance"))
        bots = [make_bot(game, "heuristic", random.Random(derive_seed(seed, "seat", seat))) for seat in (0, 1)]
        state, samples = game.new_state(2), []
        while state.current_player() != TERMINAL:
            player = state.current_player()
            if player == CHANCE:
                state.apply(state.sample_chance(rng))
                continue
            if state.phase == "draw":
                samples += [(key(state, seat), seat) for seat in (0, 1)]
            state.apply(bots[player].choose(state))
        for position, seat in samples:
            seen[position] += 1
            caught[position] += state.caught_by == seat
    print("own Seeker, rival Seeker, Jokers on the table, own Jokers, rival Jokers: turn starts, share caught")
    for position in sorted(seen, key=lambda position: -seen[position]):
        print(f"  {position}: {seen[position]}, {caught[position] / seen[position]:.3f}")


if __name__ == "__main__":
    main()
