"""What a playtest finds wrong, as `Problem`s pointing at the deck's lines: engine failures and
dead ends with a seed that replays them, games that only the length cap stops, seats that win
more or less than a fair share beyond chance, and cards that never enter play."""

from __future__ import annotations

from statistics import NormalDist
from typing import TYPE_CHECKING

from ..core.errors import Problem
from ..deck.locate import Locator
from ..deck.model import Deck
from ..games.base import engine_class
from .endings import stall_note
from .stats import wilson
from .tally import FAILURE_KINDS, Failure, Tally

if TYPE_CHECKING:
    from .playtest import Playtest, Run

CAPPED_WARNING_SHARE = 0.10  # a share of games stopped by the length cap surely above this is worth a warning
NEVER_PLAYED_MIN_GAMES = 20  # fewer games say little about a card never played
BALANCE_MIN_GAMES = 20  # below this, intervals are too wide and too rough to accuse a seat


def _replay_hint(deck: Deck, run: "Run", failure: Failure, bot: str) -> str:
    if failure.kind == "setting":
        return "fix the parameter, or narrow the sweep"
    if run.setting.params and run.setting.variant is None:
        return (f"replay: play_game(game_for(deck, {dict(run.setting.params)}), {run.players}, "
                f"seed={failure.seed}, bots=[{bot!r}] * {run.players})")
    variant = f" --variant {run.setting.variant}" if run.setting.variant else ""
    return (f"replay: deckgen simulate {deck.id} --players {run.players} --seed {run.run_seed} "
            f"--games {failure.index + 1} --bot {bot}{variant} (the last game is the one)")


def problems(deck: Deck, result: "Playtest") -> list[Problem]:
    """Every problem a playtest found, run by run, pointed at the setting's field."""
    locate = Locator(deck)
    # Every seat of every run is one test of fairness, and every run's share of capped games one
    # test of whether games end, made at the report's level (`Playtest.family`).
    level_z = result.family.z
    found = []
    for run in result.runs:
        tally = run.tally
        field = locate.variant_field(run.setting.variant) if run.setting.variant else (
            "engine" if run.setting.params else "deck.engine")
        where = f"{run.setting.name}, {run.players} players"
        for kind in FAILURE_KINDS:
            if not tally.failures[kind]:
                continue
            example = next(f for f in tally.examples if f.kind == kind)
            seeds = ", ".join(f"game {f.index + 1} seed {f.seed}" for f in tally.examples if f.kind == kind)
            lead = {"setting": "the engine refuses this setting",
                    "engine error": "the engine failed",
                    "no legal action": "dead end: a player had no legal action",
                    "endless": "a game ran past the engine's declared maximum length"}[kind]
            count = "" if kind == "setting" else f" in {tally.failures[kind]} of {tally.played} games ({seeds})"
            found.append(locate.problem(field, f"{where}: {lead}{count}: {example.message}",
                                           hint=_replay_hint(deck, run, example, result.bot)))
        stalls = stall_note(deck, run.setting.params, run.players, result.bot, tally.examples) if tally.capped else ""
        if tally.games and tally.capped == tally.games:
            found.append(locate.problem(
                field, f"{where}: no game ended by the rules; all {tally.games} stopped at the engine's length cap"
                       f"{stalls}", hint="the game cannot end with this setting: check how it is meant to finish"))
        elif tally.games and wilson(tally.capped, tally.games, level_z)[0] > CAPPED_WARNING_SHARE:
            found.append(locate.problem(
                field, f"{where}: {tally.capped} of {tally.games} games ({tally.capped / tally.games:.0%}) "
                       f"stopped at the engine's length cap instead of ending by the rules{stalls}",
                hint=f"more than {CAPPED_WARNING_SHARE:.0%} of games even allowing for chance; games this long "
                     "may never end at a real table", severity="warning"))
        found += _seat_balance(locate, field, where, tally, level_z)
        found += _card_usage(deck, locate, field, where, tally, result.bot)
    return found


def _card_usage(deck: Deck, locate: Locator, field: str, where: str, tally: Tally, bot: str) -> list[Problem]:
    if not tally.tracks_cards or not tally.games:
        return []
    profile = engine_class(deck).playtest
    problems = []
    ending = deck.find_card(profile.ending_card) if profile.ending_card else None
    if ending is not None and not tally.card_plays[ending.code]:
        problems.append(locate.problem(
            field, f"{where}: the {ending.name} never entered play in {tally.games} games, and it is the only "
                   "way a game ends", hint="check what keeps it out: where it starts, the turn cap, the deck size"))
    # Heuristic bots skip cards they undervalue; only random bots, which try every legal
    # action, make a card never played a sign that it cannot be played.
    never = never_played(deck, tally)
    if bot == "random" and never and tally.games >= NEVER_PLAYED_MIN_GAMES:
        problems.append(locate.problem(
            field, f"{where}: never played in {tally.games} games of random play: {', '.join(never)}",
            hint="random bots try every legal play, so these cards may be unplayable: check their conditions",
            severity="warning"))
    return problems


def never_played(deck: Deck, tally: Tally) -> list[str]:
    """Names of the cards nobody played, leaving out the ending card and cards never played by rule."""
    profile = engine_class(deck).playtest
    return [card.name for card in deck.cards
            if not tally.card_plays[card.code] and not profile.never_played(card) and card.id != profile.ending_card]


def balance_tested(tally: Tally) -> bool:
    """Whether a run's seats get a test of fairness: enough games, and more than one seat."""
    return tally.games >= BALANCE_MIN_GAMES and tally.players >= 2


def _seat_balance(locate: Locator, field: str, where: str, tally: Tally, z: float) -> list[Problem]:
    """A warning for each seat whose win rate misses the fair share even by an interval at `z`."""
    if not balance_tested(tally):
        return []
    share = tally.fair_share()
    confidence = 1 - 2 * (1 - NormalDist().cdf(z))
    problems = []
    for row in tally.seat_rows(z=z):
        if row["low"] > share or row["high"] < share:
            side = "more" if row["low"] > share else "less"
            problems.append(locate.problem(
                field, f"{where}: seat {row['seat']} wins {row['win_rate']:.1%} of {tally.games} games, "
                       f"{side} than a fair {share:.1%} even allowing for chance ({confidence:.2%} interval "
                       f"{row['low']:.1%}-{row['high']:.1%})",
                hint="look at who starts and who deals; bots play every seat the same way", severity="warning"))
    return problems
