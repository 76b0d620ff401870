"""Engine speed: full random games per second and actions per second for each engine
(with every rule checked on every action), games with the heuristic bots the validator
plays with, the time to referee a complete 6-player Wizard log, and OpenSpiel's oh_hell
and hearts driven from Python the same way, if installed.

    python benchmarks/bench_engines.py [--seconds 2] [--repeats 3]

Figures are medians over repeats of CPU time (so other load on the machine matters less).
Each repeat runs every row once, in turn, so load that comes and goes falls on all rows
alike; "vs OpenSpiel" is the median over repeats of our actions/s divided by OpenSpiel's
in the same repeat (Wizard against oh_hell, Wizard Hearts against hearts).
"actions" counts what our engines count: a whole deal is one chance action. OpenSpiel deals
one card per chance action, so "card actions" also counts each dealt card as one action,
for a like-for-like comparison.
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from generator.games.base import CHANCE, ENGINES, TERMINAL, game_for  # noqa: E402
from generator.games.bots import RandomBot  # noqa: E402
from generator.games.referee import referee_file  # noqa: E402
from generator.games.simulate import game_log_text, play_game  # noqa: E402
from generator.games.tricks import Deal  # noqa: E402
from generator.loader import deck_paths, load_deck  # noqa: E402

PLAYERS = {"wizard": 4, "wizard-hearts": 5, "muggle-quidditch": 2, "quidditch-v2": 2}
OPENSPIEL_PEER = {"wizard": "oh_hell", "wizard-hearts": "hearts"}


def engine_decks():
    decks = {}
    for path in deck_paths(ROOT / "decks"):
        deck = load_deck(path)
        module = ENGINES.get(deck.engine or "", ":").split(":")[0]
        if deck.engine and deck.engine not in decks and module and importlib.util.find_spec(module):
            decks[deck.engine] = deck
    return decks


def bot_games(game, num_players: int, seconds: float, seed: int, kind: str = "random") -> dict:
    """Play games between bots of `kind` for about `seconds` of CPU time; count games and actions."""
    rng = random.Random(seed)
    bots = [RandomBot(random.Random(seed + seat)) if kind == "random" else game.bot(kind, random.Random(seed + seat))
            for seat in range(num_players)]
    games = actions = card_actions = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        state = game.new_state(num_players)
        while True:
            player = state.current_player()
            if player == TERMINAL:
                break
            if player == CHANCE:
                action = state.sample_chance(rng)
                if isinstance(action, Deal):
                    card_actions += sum(map(len, action.hands)) - 1
            else:
                action = bots[player].choose(state)
            state.apply(action)
            actions += 1
        games += 1
    elapsed = time.process_time() - start
    return {"games/s": games / elapsed, "actions/s": actions / elapsed,
            "card actions/s": (actions + card_actions) / elapsed, "actions/game": actions / games}


def openspiel_games(name: str, seconds: float, seed: int) -> dict:
    import pyspiel

    game = pyspiel.load_game(name)
    rng = random.Random(seed)
    games = actions = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, weights = zip(*state.chance_outcomes())
                action = rng.choices(outcomes, weights)[0]
            else:  # picked as our RandomBot picks
                legal = state.legal_actions()
                action = legal[int(rng.random() * len(legal))]
            state.apply_action(action)
            actions += 1
        games += 1
    elapsed = time.process_time() - start
    return {"games/s": games / elapsed, "actions/s": actions / elapsed, "card actions/s": actions / elapsed,
            "actions/game": actions / games}


def median_of(runs: list[dict]) -> dict:
    return {key: statistics.median(run[key] for run in runs) for key in runs[0]}


def replay_time(repeats: int) -> tuple[float, int]:
    """Median seconds to referee a complete 6-player Wizard log from its file (parse included)."""
    deck = load_deck(ROOT / "decks" / "wizard.toml")
    game = game_for(deck)
    players = ["Ann", "Ben", "Cleo", "Dev", "Eli", "Fay"]
    _, actions = play_game(game, 6, 1, ["heuristic"] * 6, keep_actions=True)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "wizard-6p.toml"
        path.write_text(game_log_text(game, players, actions))
        times = []
        for _ in range(repeats):
            start = time.process_time()
            report = referee_file(deck, path)
            times.append(time.process_time() - start)
        assert report.legal and report.finished
    return statistics.median(times), len(actions)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="CPU seconds per repeat")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()

    # (label, peer OpenSpiel game or None, one timed run from a seed)
    rows = []
    for engine_id, deck in sorted(engine_decks().items()):
        game = game_for(deck)
        n = PLAYERS.get(engine_id, game.min_players)
        rows.append((f"deckgen {engine_id} ({n}p)", OPENSPIEL_PEER.get(engine_id),
                     lambda seed, game=game, n=n: bot_games(game, n, args.seconds, seed)))
        rows.append((f"deckgen {engine_id} ({n}p), heuristic bots", None,
                     lambda seed, game=game, n=n: bot_games(game, n, args.seconds, seed, "heuristic")))
    if importlib.util.find_spec("pyspiel"):
        for name in ("oh_hell", "hearts"):
            rows.append((f"OpenSpiel {name} (Python loop)", None,
                         lambda seed, name=name: openspiel_games(name, args.seconds, seed)))
    else:
        print("(OpenSpiel not installed: `pip install open_spiel` to compare)")

    runs: dict[str, list[dict]] = {label: [] for label, _, _ in rows}
    for seed in range(args.repeats):  # every row once per repeat
        for label, _, run in rows:
            runs[label].append(run(seed))
    spiel = {label.split()[1]: by_repeat for label, by_repeat in runs.items() if label.startswith("OpenSpiel")}

    print(f"full games, median of {args.repeats} x {args.seconds:g} CPU s")
    print(f"{'engine':<42} {'games/s':>9} {'actions/s':>11} {'card actions/s':>15} {'actions/game':>13} "
          f"{'vs OpenSpiel':>13}")
    for label, peer, _ in rows:
        figures = median_of(runs[label])
        versus = ""
        if peer in spiel:
            ratios = [ours["actions/s"] / theirs["actions/s"] for ours, theirs in zip(runs[label], spiel[peer])]
            versus = f"{statistics.median(ratios):.2f}x"
        print(f"{label:<42} {figures['games/s']:>9.0f} {figures['actions/s']:>11.0f} "
              f"{figures['card actions/s']:>15.0f} {figures['actions/game']:>13.0f} {versus:>13}")

    seconds, actions = replay_time(max(5, args.repeats * 5))
    print(f"\nreferee a complete 6-player Wizard log ({actions} actions, TOML parse included): "
          f"median {seconds * 1000:.1f} ms")
    print(f"peak memory (max RSS): {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")


if __name__ == "__main__":
    main()
