"""The validator's outputs for the terminal and as JSON: problems first (file:line: severity),
then the figures, the targets and what matters most (`headline`); the command that plays a
playtest again. The HTML page is `generator.validate.page`."""

from __future__ import annotations

import json
import shlex
from typing import TYPE_CHECKING

from ..core.errors import Problem
from .findings import never_played
from .headline import card_summary, nothing_found, target_sentence, top
from .tally import figures_kept

if TYPE_CHECKING:
    from . import DeckReport, Report
    from .playtest import Playtest, Run


def problem_line(problem: Problem) -> str:
    """`file:line: severity: field: message`, the way compilers write it, without the hint."""
    field = f"{problem.field}: " if problem.field else ""
    return f"{problem.location}: {problem.severity}: {field}{problem.message}"


def percent(value: float | None) -> str:
    """A share as a whole percentage, or - when there is none."""
    return "-" if value is None else f"{value * 100:.0f}%"


def run_title(run: "Run") -> str:
    """A run's name: its setting and player count."""
    return f"{run.setting.name}, {run.players} players"


def _run_table(playtest: "Playtest", runs: list["Run"]) -> list[str]:
    """One line per (setting, player count); intervals and card figures are in --json and --report."""
    width = max(len(run.setting.name) for run in runs)
    lines = [f"  {'setting':<{width}}  players  games  capped  failed  {'moves (5-95%)':<18}  leads  margin"
             "  wins by seat (fair share, 95% interval ±)"]
    for run in runs:
        data = playtest.figures(run)
        row = (f"  {run.setting.name:<{width}}  {run.players:>7}  {data['games']:>5}  {data['capped']:>6}  "
               f"{sum(data['failures'].values()):>6}  ")
        if data["completed"]:
            length = data["length"]
            spread = max(max(seat["win_rate"] - seat["low"], seat["high"] - seat["win_rate"]) for seat in data["seats"])
            wins = "/".join(f"{seat['win_rate'] * 100:.0f}" for seat in data["seats"])
            moves = f"{length['p50']} ({length['p5']}-{length['p95']})"
            row += (f"{moves:<18}  {data['lead_changes']['mean']:>5}  {data['winning_margin']['p50']:>6}  "
                    f"{wins}% ({percent(data['fair_share'])}, ±{spread * 100:.0f})")
        lines.append(row.rstrip())
    return lines


def _card_lines(playtest: "Playtest", run: "Run") -> list[str]:
    """Usage (share of games a card was played in) and which cards decide games, for one run."""
    deck = playtest.deck
    data = playtest.figures(run)
    lines = []
    played = sorted((row for row in data.get("cards", ()) if row["plays"]), key=lambda row: -row["games_share"]["count"])
    if played:
        def card(row: dict) -> str:
            return f"{row['name']} {percent(row['games_share']['rate'])}"

        lines += [f"  cards played, {run_title(run)}: share of games a card was played in",
                  "    most: " + "; ".join(card(row) for row in played[:5]),
                  "    least: " + "; ".join(card(row) for row in played[-5:])]
    never = never_played(deck, run.tally) if run.tally.tracks_cards else []
    if never:
        lines.append(f"    never played by these bots: {', '.join(never)}")
    cards = (data.get("metrics") or {}).get("cards")
    if cards:
        lines.append(f"  {run_title(run)}: {card_summary(cards)}")
    return lines


def problems_text(report: "DeckReport") -> list[str]:
    """Every problem with its fix, then the deck's status line."""
    lines = []
    for problem in report.sorted_problems():
        lines.append(problem_line(problem))
        if problem.hint:
            lines.append(f"    fix: {problem.hint}")
    if report.unreadable:
        status = "unreadable"
    elif report.problems:
        status = f"{len(report.errors)} error(s), {len(report.warnings)} warning(s)"
    else:
        status = "ok"
    lines.append(f"{report.ref}: {status}")
    return lines


def figures_text(report: "DeckReport") -> list[str]:
    """Composition by player count, the playtest table, the targets and what matters most."""
    per_players = report.composition.get("per_players", {})
    lines = []
    if per_players or report.note or report.playtest:
        lines.append(f"{report.deck.id if report.deck else report.ref}:")
    if per_players:
        counts = list(per_players)
        names = list(dict.fromkeys(name for figures in per_players.values() for name in figures))
        lines.append("  " + f"{'players':<14}" + "".join(f"{n:>6}" for n in counts))
        for name in names:
            lines.append("  " + f"{name:<14}" + "".join(f"{per_players[n].get(name, '-'):>6}" for n in counts))
    if report.note:
        lines.append(f"  {report.note}")
    if report.playtest:
        playtest = report.playtest
        amount = (f"games until every seat is within ± {playtest.precision * 100:g} points (at most "
                  f"{playtest.max_games:,})" if playtest.precision is not None else f"{playtest.games} games")
        lines.append(f"  playtest: {amount} per setting and player count, {playtest.bot} bots, seed {playtest.seed}"
                     + (f", {playtest.reused_chunks} chunk(s) reused from the checkpoint" if playtest.reused_chunks else ""))
        lines += _run_table(playtest, playtest.runs)
        if playtest.targets:
            lines.append("  targets:")
            lines += [f"    {target_sentence(check)}" for check in playtest.targets]
        picked = top(playtest)
        lines.append("  what matters most:" if picked else f"  {nothing_found(playtest)}")
        lines += [f"    {index}. {finding['text']}" for index, finding in enumerate(picked, start=1)]
        for run in playtest.runs:
            if run.tally.games and not run.setting.params:
                lines += _card_lines(playtest, run)
        lines.append(f"  {playtest.family.statement()}")
    return lines


def report_text(report: "Report") -> str:
    """Problems of every deck first, then the figures."""
    lines = [line for deck in report.decks for line in problems_text(deck)]
    with figures_kept():
        figures = [line for deck in report.decks for line in figures_text(deck)]
    return "\n".join(lines + ([""] + figures if figures else []))


def reproduce_command(report: "DeckReport") -> str:
    """The command that plays this playtest again, figure for figure."""
    playtest = report.playtest
    words = ["deckgen", "validate", report.ref]
    if playtest.precision is not None:
        words += ["--simulate", "auto", "--precision", f"{playtest.precision:g}", "--max-games", str(playtest.max_games)]
    else:
        words += ["--simulate", str(playtest.games)]
    words += ["--seed", str(playtest.seed), "--bot", playtest.bot]
    for sweep in playtest.sweeps:
        words += ["--sweep", sweep]
    if not playtest.order:
        words.append("--no-skill")
    words.append("--report")
    return " ".join(shlex.quote(word) for word in words)


JSON_LINE_DEPTH = 3  # the report, its sections, their items (a playtest's runs): a line each


def report_json(data, depth: int = JSON_LINE_DEPTH, indent: str = "") -> str:
    """The report as JSON laid out to `depth` levels (a line per run, so two reports diff run by run),
    deeper values each on one line: written by json's C encoder, where an indented dump of a
    full playtest (megabytes of per-card rows) takes Python a second."""
    if depth and isinstance(data, (dict, list)) and data:
        inner = indent + " "
        if isinstance(data, dict):
            items = [f"{json.dumps(str(key), ensure_ascii=False)}: {report_json(value, depth - 1, inner)}"
                     for key, value in data.items()]
            opening, closing = "{", "}"
        else:
            items = [report_json(value, depth - 1, inner) for value in data]
            opening, closing = "[", "]"
        body = f",\n{inner}".join(items)
        text = f"{opening}\n{inner}{body}\n{indent}{closing}"
    else:
        text = json.dumps(data, ensure_ascii=False)
    return text + "\n" if not indent else text
