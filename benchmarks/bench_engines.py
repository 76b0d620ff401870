"""Engine speed on matched games, against OpenSpiel driven from Python and OpenSpiel's own
C++ loop, plus the cost per action of every engine and of refereeing a long log.

    python benchmarks/bench_engines.py [--seconds 1] [--repeats 5]

What is matched (printed again at the top of each run):
- Wizard, 4 players, one hand of each size 1..12 (the first 12 rounds of a game: deal,
  turn-up, trump choice after a Wizard, bids, tricks) against OpenSpiel's `oh_hell` with
  players=4 and num_tricks_fixed=1..12 (52 cards in 4 suits of 13: the same hand sizes,
  the same bids-then-tricks shape; a fresh `oh_hell` game per hand). Random players.
- Wizard Hearts, 4 players (98 cards: hands of 24, 3 cards passed on three hands of four)
  against OpenSpiel's `hearts` (4 players, hands of 13, 3 cards passed on three hands of
  four). Whole Wizard Hearts games to 25 points; `hearts` hands one after another. The
  hands differ in length, so the hand rows also print tricks per second.
- A decision is an action by a player (a bid, a trump choice, a pass, a card). Chance (a
  deal, a turned card, a dealer) is not a decision on either side, but its cost is in
  both sides' time: per decision means the whole loop's CPU time over the decisions.
- Chance is sampled cheaply on both sides: deckgen's `sample_chance` (one action per
  deal), and for OpenSpiel a uniform pick from `legal_actions()` at each chance node
  (OpenSpiel deals a card per chance action; the run checks on one game that every chance
  node of these games is uniform, so the pick is exact). Players pick uniformly with one
  `random()` per decision, the same loop on both sides.
- OpenSpiel's C++ loop is `pyspiel.evaluate_bots` with `make_uniform_random_bot` players
  (chance sampled in C++): whole hands per second, the figure a compiled playout is set against.
- deckgen's Python engine is the rules engine (`generator.games.trick`) playing decks/wizard.toml
  and decks/wizard-hearts.toml from their [rules]; the hand-written engines it replaced
  (tests/oracles/, the same games seed for seed) run beside it as "retired hand-written engine",
  and the run prints how many times their time per decision the rules engine takes.
- deckgen's compiled playout (`generator.games.fastpath`, the C extension
  `generator.games._playout`) plays the same games as the Python engine for the same
  seeds (tests/games/test_games_fastpath.py); its row is shown when the extension is built.

Figures are medians over repeats of CPU time per row (the machine is shared). Each repeat
runs every row once, in an order rotated from repeat to repeat; a ratio is the median of
the per-repeat ratios between rows of the same repeat, >1 meaning deckgen is faster.
Peak memory (max RSS of the process) is printed at the end.
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

from generator.games.base import CHANCE, TERMINAL, game_for  # noqa: E402
from generator.games.referee import referee_file  # noqa: E402
from generator.games.simulate import game_log_text, play_game  # noqa: E402
from generator.deck.loader import load_deck  # noqa: E402

try:
    from generator.games import fastpath  # noqa: E402
except ImportError:  # a branch without the compiled playout
    fastpath = None
try:  # the hand-written engines the rules engine replaced, kept as test oracles (issue 32)
    from tests.oracles.wizard import WizardGame as RetiredWizard  # noqa: E402
    from tests.oracles.wizard_hearts import WizardHeartsGame as RetiredHearts  # noqa: E402
except ImportError:  # a checkout from before the rules engine
    RetiredWizard = RetiredHearts = None

PLAYERS = 4
RETIRED = "deckgen %s, retired hand-written engine"
WIZARD_HANDS = range(1, 13)  # oh_hell with 4 players and 52 cards deals at most 12 each
SPIEL_TERMINAL = -4  # pyspiel.PlayerId.TERMINAL; CHANCE is -1 on both sides


class Tally:
    """What one timed run did: hands, decisions, tricks, CPU seconds."""

    def __init__(self):
        self.hands = self.decisions = self.tricks = 0
        self.seconds = 0.0

    def per_decision_us(self) -> float:
        return self.seconds / self.decisions * 1e6

    def hands_per_s(self) -> float:
        return self.hands / self.seconds

    def tricks_per_s(self) -> float:
        return self.tricks / self.seconds


def timed(seconds: float, unit) -> Tally:
    """Run `unit(tally, rng)` again and again for about `seconds` of CPU time."""
    tally, rng = Tally(), random.Random(7)
    start = time.process_time()
    while time.process_time() - start < seconds:
        unit(tally, rng)
    tally.seconds = time.process_time() - start
    return tally


# -- deckgen, Python engine -----------------------------------------------------------------
def deckgen_unit(game, rounds: int | None):
    """One game (cut to `rounds` rounds when given) with random players, the loop the
    simulator runs: chance from `sample_chance`, a player's pick from `legal_actions()`."""
    def unit(tally: Tally, rng: random.Random) -> None:
        state = game.new_state(PLAYERS)
        if rounds is not None:
            state.rounds_total = rounds  # Wizard's rounds 1..rounds, then the game ends
        decisions = 0
        while True:
            player = state.current_player()
            if player == TERMINAL:
                break
            if player == CHANCE:
                action = state.sample_chance(rng)
            else:
                legal = state.legal_actions()
                action = legal[int(rng.random() * len(legal))]
                decisions += 1
            state.apply(action)
        tally.decisions += decisions
        tally.hands += len(state.history)
        tally.tricks += len(state.history) * game.hand_size(PLAYERS) if rounds is None else sum(range(1, rounds + 1))
    return unit


def fast_unit(game, rounds: int | None):
    """The same games through the compiled playout."""
    def unit(tally: Tally, rng: random.Random) -> None:
        seed = rng.getrandbits(64)
        played = fastpath.playout(game, PLAYERS, random.Random(seed),
                                  [random.Random(seed + seat + 1) for seat in range(PLAYERS)], rounds=rounds)
        tally.decisions += played.decisions
        tally.hands += played.rounds
        tally.tricks += played.rounds * game.hand_size(PLAYERS) if rounds is None else sum(range(1, rounds + 1))
    return unit


# -- OpenSpiel ------------------------------------------------------------------------------
def spiel_games():
    import pyspiel

    oh_hell = [pyspiel.load_game("oh_hell", {"players": PLAYERS, "num_tricks_fixed": k}) for k in WIZARD_HANDS]
    hearts = pyspiel.load_game("hearts")
    return oh_hell, hearts


def spiel_hand(state, rng: random.Random) -> int:
    """Play an OpenSpiel state to its end from Python; return the decisions made."""
    decisions = 0
    while True:
        player = state.current_player()
        if player == SPIEL_TERMINAL:
            return decisions
        legal = state.legal_actions()
        state.apply_action(legal[int(rng.random() * len(legal))])
        if player != CHANCE:
            decisions += 1


def spiel_python_unit(games: list, tricks: list[int]):
    def unit(tally: Tally, rng: random.Random) -> None:
        for game, count in zip(games, tricks):
            tally.decisions += spiel_hand(game.new_initial_state(), rng)
            tally.hands += 1
            tally.tricks += count
    return unit


def spiel_cpp_unit(games: list, tricks: list[int], decisions_per_hand: list[float]):
    import pyspiel

    bots = [pyspiel.make_uniform_random_bot(seat, 100 + seat) for seat in range(PLAYERS)]

    def unit(tally: Tally, rng: random.Random) -> None:
        for game, count, decisions in zip(games, tricks, decisions_per_hand):
            pyspiel.evaluate_bots(game.new_initial_state(), bots, rng.getrandbits(31))
            tally.hands += 1
            tally.tricks += count
            tally.decisions += decisions  # as counted on the same game from Python (C++ does not say)
    return unit


def check_uniform_chance(game, rng: random.Random) -> None:
    """Every chance node of one game has equal probabilities, so a uniform pick from
    `legal_actions()` samples exactly what OpenSpiel's own sampler would."""
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            probabilities = {p for _, p in state.chance_outcomes()}
            assert max(probabilities) - min(probabilities) < 1e-12, (str(game), probabilities)
        legal = state.legal_actions()
        state.apply_action(legal[int(rng.random() * len(legal))])


def mean_decisions(game, hands: int = 200) -> float:
    rng = random.Random(3)
    return sum(spiel_hand(game.new_initial_state(), rng) for _ in range(hands)) / hands


# -- the report -----------------------------------------------------------------------------
def run_rows(rows: dict, seconds: float, repeats: int) -> dict[str, list[Tally]]:
    runs: dict[str, list[Tally]] = {label: [] for label in rows}
    labels = list(rows)
    for repeat in range(repeats):
        shift = repeat % len(labels)
        for label in labels[shift:] + labels[:shift]:
            runs[label].append(timed(seconds, rows[label]))
    return runs


def median_ratio(runs: dict[str, list[Tally]], ours: str, theirs: str, figure) -> float:
    """Median over repeats of figure(theirs) / figure(ours) for a cost, so >1 means ours is faster."""
    return statistics.median(figure(t) / figure(o) for o, t in zip(runs[ours], runs[theirs]))


def print_table(title: str, runs: dict[str, list[Tally]], peers: list[tuple[str, str]]) -> None:
    print(f"\n{title}")
    print(f"  {'row':<52} {'us/decision':>11} {'hands/s':>9} {'tricks/s':>9} {'decisions/hand':>14}")
    for label, tallies in runs.items():
        us = statistics.median(t.per_decision_us() for t in tallies)
        hands = statistics.median(t.hands_per_s() for t in tallies)
        tricks = statistics.median(t.tricks_per_s() for t in tallies)
        per_hand = statistics.median(t.decisions / t.hands for t in tallies)
        print(f"  {label:<52} {us:>11.2f} {hands:>9.0f} {tricks:>9.0f} {per_hand:>14.1f}")
    for ours, theirs in peers:
        if ours in runs and theirs in runs:
            decision = median_ratio(runs, ours, theirs, Tally.per_decision_us)
            hand = median_ratio(runs, theirs, ours, Tally.hands_per_s)
            trick = median_ratio(runs, theirs, ours, Tally.tricks_per_s)
            print(f"  {ours} vs {theirs}: per decision {decision:.2f}x, per hand {hand:.2f}x, "
                  f"per trick {trick:.2f}x  (>1: deckgen faster)")


def per_action_rows(seconds: float, repeats: int) -> None:
    """Microseconds per action (chance included) of every engine with random players through
    `play_game`: in the Python engine (keep_actions=True keeps it there) and, where there is
    one, the compiled playout the simulator takes. The Quidditch v2 goal (<= 8 us) is about
    the Python row."""
    decks = {"wizard": 4, "wizard-hearts": 4, "muggle-quidditch": 2, "quidditch-v2": 2}
    rows = {}
    for deck, players in decks.items():
        game = game_for(load_deck(ROOT / "decks" / f"{deck}.toml"))
        rows[(deck, "Python engine")] = (game, players, True)
        if fastpath is not None and fastpath.supports(game):
            rows[(deck, "compiled playout")] = (game, players, False)
    results: dict[tuple, list[float]] = {key: [] for key in rows}
    counts: dict[tuple, float] = {}
    keys = list(rows)
    for repeat in range(repeats):
        for key in keys[repeat % len(keys):] + keys[:repeat % len(keys)]:
            game, players, python = rows[key]
            rng, actions, games_played = random.Random(repeat), 0, 0
            start = time.process_time()
            while time.process_time() - start < seconds:
                record, _ = play_game(game, players, rng.getrandbits(64), ["random"] * players, keep_actions=python)
                actions += record.actions
                games_played += 1
            results[key].append((time.process_time() - start) / actions * 1e6)
            counts[key] = actions / games_played
    print("\nevery engine through play_game (the simulator's path), random players, whole games, chance included")
    print(f"  {'deck':<20} {'path':<18} {'players':>7} {'us/action':>10} {'actions/game':>13}")
    for (deck, path), figures in results.items():
        print(f"  {deck:<20} {path:<18} {decks[deck]:>7} {statistics.median(figures):>10.2f} "
              f"{counts[(deck, path)]:>13.0f}")


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
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=1.0, help="CPU seconds per row and repeat")
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()

    wizard = game_for(load_deck(ROOT / "decks" / "wizard.toml"))
    hearts_game = game_for(load_deck(ROOT / "decks" / "wizard-hearts.toml"))
    fast = fastpath is not None and fastpath.available()
    spiel = importlib.util.find_spec("pyspiel") is not None
    print(f"matched: Wizard {PLAYERS}p rounds of {WIZARD_HANDS[0]}-{WIZARD_HANDS[-1]} cards vs oh_hell(players={PLAYERS}, "
          f"num_tricks_fixed={WIZARD_HANDS[0]}..{WIZARD_HANDS[-1]}, num_suits=4, num_cards_per_suit=13); "
          f"Wizard Hearts {PLAYERS}p (hands of {hearts_game.hand_size(PLAYERS)}) vs hearts (4p, hands of 13); "
          "random players, chance sampled uniformly from legal actions")
    if not spiel:
        print("OpenSpiel is not installed, so only deckgen's rows are shown: "
              "`pip install -e '.[bench]'` (or `pip install open_spiel`) to compare")
    if not fast:
        print(f"compiled playout not available ({fastpath.why_unavailable() if fastpath else 'no fastpath module'}); "
              "Python engine only")

    wizard_rows = {"deckgen wizard, Python engine": deckgen_unit(wizard, WIZARD_HANDS[-1])}
    hearts_rows = {"deckgen wizard-hearts, Python engine": deckgen_unit(hearts_game, None)}
    if RetiredWizard is not None:
        wizard_rows[RETIRED % "wizard"] = deckgen_unit(RetiredWizard(wizard.deck), WIZARD_HANDS[-1])
        hearts_rows[RETIRED % "wizard-hearts"] = deckgen_unit(RetiredHearts(hearts_game.deck), None)
    if fast and fastpath.supports(wizard):
        wizard_rows["deckgen wizard, compiled playout"] = fast_unit(wizard, WIZARD_HANDS[-1])
    if fast and fastpath.supports(hearts_game):
        hearts_rows["deckgen wizard-hearts, compiled playout"] = fast_unit(hearts_game, None)
    if spiel:
        oh_hell, hearts = spiel_games()
        rng = random.Random(1)
        for game in (*oh_hell, hearts):
            check_uniform_chance(game, rng)
        tricks = list(WIZARD_HANDS)
        wizard_rows["OpenSpiel oh_hell, Python loop"] = spiel_python_unit(oh_hell, tricks)
        wizard_rows["OpenSpiel oh_hell, C++ loop (evaluate_bots)"] = spiel_cpp_unit(
            oh_hell, tricks, [PLAYERS + PLAYERS * k for k in tricks])
        hearts_rows["OpenSpiel hearts, Python loop"] = spiel_python_unit([hearts] * 4, [13] * 4)
        hearts_rows["OpenSpiel hearts, C++ loop (evaluate_bots)"] = spiel_cpp_unit([hearts] * 4, [13] * 4,
                                                                                    [mean_decisions(hearts)] * 4)

    wizard_runs = run_rows(wizard_rows, args.seconds, args.repeats)
    hearts_runs = run_rows(hearts_rows, args.seconds, args.repeats)
    print(f"\nmedians of {args.repeats} repeats x {args.seconds:g} CPU s per row")
    for name, runs, peer in (("wizard", wizard_runs, "oh_hell"), ("wizard-hearts", hearts_runs, "hearts")):
        pairs = [(f"deckgen {name}, {kind}", f"OpenSpiel {peer}, {loop}")
                 for kind in ("Python engine", "compiled playout")
                 for loop in ("Python loop", "C++ loop (evaluate_bots)")]
        print_table(f"{name} against OpenSpiel {peer}", runs, pairs)
        if RETIRED % name in runs:
            times = median_ratio(runs, RETIRED % name, f"deckgen {name}, Python engine", Tally.per_decision_us)
            print(f"  the rules engine takes {times:.2f}x the retired engine's time per decision (budget 1.5x)")

    per_action_rows(args.seconds, max(3, args.repeats // 2))
    seconds, actions = replay_time(max(5, args.repeats * 2))
    print(f"\nreferee a complete 6-player Wizard log ({actions} actions, TOML parse included): "
          f"median {seconds * 1000:.1f} ms")
    print(f"peak memory (max RSS of this process): {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")


if __name__ == "__main__":
    main()
