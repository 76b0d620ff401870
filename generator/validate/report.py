"""The validator's outputs: a terminal summary (problems first, then figures), an HTML report
with inline SVG charts, and the `deckgen build` step that writes both for every deck."""

from __future__ import annotations

import json
import shlex
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

import jinja2

from ..core.cachefile import template_code
from ..core.errors import Problem
from ..core.output import write_text
from ..core.resources import TEMPLATES as SHIPPED_TEMPLATES
from ..deck.model import Deck
from . import charts
from .findings import never_played
from .tally import figures_kept

if TYPE_CHECKING:
    from . import DeckReport, Report
    from .playtest import Playtest, Run

TEMPLATES = SHIPPED_TEMPLATES / "validate"


def problem_line(problem: Problem) -> str:
    """`file:line: severity: field: message`, the way compilers write it, without the hint."""
    field = f"{problem.field}: " if problem.field else ""
    return f"{problem.location}: {problem.severity}: {field}{problem.message}"


def _percent(value: float | None) -> str:
    return "-" if value is None else f"{value * 100:.0f}%"


def _points(lift: float | None) -> str:
    """A difference of win rates in percentage points: +4, -12, ±0."""
    if lift is None:
        return ""
    points = round(lift * 100)
    return f"{points:+d}" if points else "±0"


def run_title(run: "Run") -> str:
    return f"{run.setting.name}, {run.players} players"


def _run_table(deck: Deck, runs: list["Run"]) -> list[str]:
    """One line per (setting, player count); intervals and card figures are in --json and --report."""
    width = max(len(run.setting.name) for run in runs)
    lines = [f"  {'setting':<{width}}  players  games  capped  failed  {'moves (5-95%)':<18}  leads  margin"
             "  wins by seat (fair share, 95% interval ±)"]
    for run in runs:
        data = run.tally.as_dict(deck)
        row = (f"  {run.setting.name:<{width}}  {run.players:>7}  {data['games']:>5}  {data['capped']:>6}  "
               f"{sum(data['failures'].values()):>6}  ")
        if data["completed"]:
            length = data["length"]
            spread = max(max(seat["win_rate"] - seat["low"], seat["high"] - seat["win_rate"]) for seat in data["seats"])
            wins = "/".join(f"{seat['win_rate'] * 100:.0f}" for seat in data["seats"])
            moves = f"{length['p50']} ({length['p5']}-{length['p95']})"
            row += (f"{moves:<18}  {data['lead_changes']['mean']:>5}  {data['winning_margin']['p50']:>6}  "
                    f"{wins}% ({_percent(data['fair_share'])}, ±{spread * 100:.0f})")
        lines.append(row.rstrip())
    return lines


def _card_lines(deck: Deck, run: "Run") -> list[str]:
    played = sorted((row for row in run.tally.card_rows(deck) if row["plays"]), key=lambda row: -row["games_share"])

    def card(row: dict) -> str:
        lift = "" if row["lift"] is None else f" ({_points(row['lift'])})"
        return f"{row['name']} {_percent(row['games_share'])}{lift}"

    lines = [f"  cards, {run_title(run)}: share of games a card was played in (its player's win rate "
             "against the average, in points)",
             "    most: " + "; ".join(card(row) for row in played[:5]),
             "    least: " + "; ".join(card(row) for row in played[-5:])]
    never = never_played(deck, run.tally)
    if never:
        lines.append(f"    never played by these bots: {', '.join(never)}")
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
    """Composition by player count and the playtest table."""
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
        lines += _run_table(playtest.deck, playtest.runs)
        lines += ["  " + line for line in summary_sentences(playtest)]
        for run in playtest.runs:
            if run.tally.tracks_cards and run.tally.games and not run.setting.params:
                lines += _card_lines(playtest.deck, run)
    return lines


def report_text(report: "Report") -> str:
    """Problems of every deck first, then the figures."""
    lines = [line for deck in report.decks for line in problems_text(deck)]
    figures = [line for deck in report.decks for line in figures_text(deck)]
    return "\n".join(lines + ([""] + figures if figures else []))


def _games_word(count: int) -> str:
    return f"{count:,} game{'s' if count != 1 else ''}"


def summary_sentences(playtest: "Playtest") -> list[str]:
    """The plain-language findings of a playtest, one sentence each, every one saying how many
    games it rests on (the main setting of each player count, and the cards that matter)."""
    sentences = []
    for run in [run for run in playtest.runs if not run.setting.params] or playtest.runs:
        if run.tally.metrics is None or not run.tally.games:
            continue
        data = run.tally.as_dict(playtest.deck)
        figures = data["metrics"]
        where = f"{run.players}-player games ({run.setting.name})"
        fair = data["fair_share"]
        seat = max(data["seats"], key=lambda row: abs(row["win_rate"] - fair))
        half = max(seat["win_rate"] - seat["low"], seat["high"] - seat["win_rate"])
        gap = round((seat["win_rate"] - fair) * 100)
        side = "fair" if not gap else f"{abs(gap)} point{'s' if abs(gap) != 1 else ''} {'more' if gap > 0 else 'less'} than fair"
        sentences.append(f"Seat {seat['seat']} wins {seat['win_rate'] * 100:.0f}% ± {half * 100:.1f} in {where}: "
                         f"{side} ({fair * 100:.0f}%), from {_games_word(run.tally.games)}.")
        outcome = figures["outcome"]
        balance = outcome["balance"]
        if balance.get("value") is not None:
            sentences.append(f"Balance {balance['value']:.2f} (95% {balance['low']:.2f}–{balance['high']:.2f}) and "
                             f"{outcome['timeouts']['rate'] * 100:.0f}% of games stopped at the length cap "
                             f"in {where}, from {_games_word(run.tally.games)}.")
        turns, tension = figures["duration"]["turns"], figures["tension"]
        sentences.append(
            f"A game takes a median {turns['p50']} moves (5–95%: {turns['p5']}–{turns['p95']}); the lead changes "
            f"at {tension['lead_change']['mean'] * 100:.0f}% of checkpoints and the winner trails by "
            f"{tension['drama'].get('mean', 0) * 100:.0f}% of the score range on average, from "
            f"{_games_word(run.tally.games)}.")
        cards = figures.get("cards")
        if cards:
            deciding = [row["name"] for row in cards["rows"] if row["verdict"] == "decides games"]
            idle = [row["name"] for row in cards["rows"] if row["verdict"] == "never matters"]
            seat_games = cards["seat_games_reaching_turn"]
            sentences.append(
                f"Cards held before turn {cards['turn']}: {len(deciding)} decide games"
                + (f" ({', '.join(deciding[:6])}{', …' if len(deciding) > 6 else ''})" if deciding else "")
                + f", {len(idle)} never matter (within ± {cards['negligible'] * 100:.0f} points), from "
                  f"{seat_games:,} seat-games that reached turn {cards['turn']}.")
    for run in playtest.skill:
        skill = run.tally.metrics.focus_games and run.tally.as_dict(playtest.deck)["metrics"].get("skill")
        if skill and not run.setting.params:
            won = skill["heuristic_win_rate"]
            sentences.append(f"Skill: one heuristic seat among random ones wins {won['rate'] * 100:.0f}% of "
                             f"{run.players}-player games, Order {skill['order']:.2f} (95% {skill['low']:.2f} to "
                             f"{skill['high']:.2f}; 0 is luck, 1 always wins), from {_games_word(skill['games'])}.")
    return sentences


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
    if not playtest.skill:
        words.append("--no-skill")
    words.append("--report")
    return " ".join(shlex.quote(word) for word in words)


# -- HTML ---------------------------------------------------------------------------------------

def _run_view(deck: Deck, run: "Run") -> dict:
    data = run.tally.as_dict(deck)
    view = {"title": run_title(run), "setting": run.setting.name, "players": run.players, "data": data, "params": dict(run.setting.params), "run_seed": run.run_seed}
    if data["completed"]:
        view["length_chart"] = charts.histogram(data["length_histogram"], f"Game length, {run_title(run)}",
                                                "moves per game")
        view["seat_chart"] = charts.intervals(
            [(f"seat {row['seat']}", row["win_rate"], row["low"], row["high"]) for row in data["seats"]],
            f"Win rate by seat, {run_title(run)}", reference=data["fair_share"])
    metrics = data.get("metrics")
    if metrics:
        tension = metrics["tension"]
        for key, name, unit in (("lead_change", "Lead changes", "% of checkpoints where the leader changed"),
                                ("drama", "Drama", "% of the score range the eventual winner trailed by, on average")):
            if tension[key].get("histogram"):
                bins = [(round(low * 100), round(high * 100), count) for low, high, count in tension[key]["histogram"]]
                view[f"{key}_chart"] = charts.histogram(bins, f"{name}, {run_title(run)}", unit)
        cards = metrics.get("cards")
        tested = sorted((row for row in (cards or {}).get("rows", ()) if "controlled" in row),
                        key=lambda row: (-row["controlled"]["difference"], row["name"]))
        if tested:
            view["impact_chart"] = charts.diverging(
                [(row["name"], row["controlled"]["difference"], row["controlled"]["low"], row["controlled"]["high"])
                 for row in tested], f"Card impact, {run_title(run)}")
            view["deciding"] = [row for row in tested if row["verdict"] == "decides games"]
            view["idle"] = [row for row in tested if row["verdict"] == "never matters"]
    if data.get("cards"):
        rows = sorted(data["cards"], key=lambda row: -row["games_share"])
        peak = max(row["games_share"] for row in rows) or 1
        view["card_chart"] = charts.bars(
            [(row["name"], row["games_share"] / peak,
              _percent(row["games_share"]) + ("" if row["lift"] is None else f" ({_points(row['lift'])})"))
             for row in rows], f"Card usage, {run_title(run)}")
    return view


@lru_cache(maxsize=1)
def _environment():
    """The report templates, compiled once per process (a build writes a report per deck)."""

    return jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATES), autoescape=True,
                              trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True,
                              bytecode_cache=template_code("report"))


def report_html(report: "DeckReport", comparison: dict | None = None) -> str:
    environment = _environment()
    deck = report.deck
    playtest = report.playtest
    runs = [_run_view(deck, run) for run in playtest.runs] if playtest else []
    skill = [{"title": run_title(run), **run.tally.as_dict(deck)["metrics"]["skill"]}
             for run in (playtest.skill if playtest else ()) if run.tally.metrics and run.tally.metrics.focus_games]
    return environment.get_template("report.html.j2").render(
        report=report, deck=deck, problems=report.sorted_problems(), runs=runs, percent=_percent,
        playtest=playtest, per_players=report.composition.get("per_players", {}),
        summary=summary_sentences(playtest) if playtest else [], skill=skill, comparison=comparison,
        command=reproduce_command(report) if playtest else "")


def write_report(report: "DeckReport", out_dir: Path, comparison: dict | None = None) -> list[Path]:
    """validation.html and validation.json for one deck into out_dir."""
    with figures_kept():
        html = write_text(out_dir / "validation.html", report_html(report, comparison))
        data = write_text(out_dir / "validation.json", report_json(report.as_dict()))
    return [html, data]


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
