"""The validation report a designer reads (validation.html, with validation.json beside it).

Its first screen answers the questions first: the verdict on each of the deck's [playtest]
targets and the three findings that matter most (`headline`), each with its confidence, then a
table of contents. Below: problems, composition, the playtest's runs (each folded away under its
title), the cards that decide games as sorted charts with their intervals and group sizes,
skill, and the `--compare` comparison. Charts are inline SVG (`charts`): no script, nothing fetched.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

import jinja2

from ..core.cachefile import template_code
from ..core.output import write_text
from ..core.resources import TEMPLATES as SHIPPED_TEMPLATES
from . import charts
from .headline import card_summary, level, nothing_found, percent_text, target_sentence, top
from .report import percent, report_json, reproduce_command, run_title
from .tally import figures_kept

if TYPE_CHECKING:
    from . import DeckReport
    from .playtest import Playtest, Run

TEMPLATES = SHIPPED_TEMPLATES / "validate"
VERDICT_CLASS = {"holds": "ok", "misses": "error", "unclear": "warning", "not evaluated": "muted"}


def card_chart(cards: dict, title: str) -> str | None:
    """The cards' effects, largest first, each with its interval at the report's level and its
    group size (games in which some seats held it and others not); None when none was tested."""
    tested = sorted((row for row in cards["rows"] if "effect" in row),
                    key=lambda row: (-row["effect"]["value"], row["name"]))
    if not tested:
        return None
    marks = {"decides": "●", "matters": "○"}
    scale, unit = (1, "points a round") if cards["per_round"] else (100, "points of win rate")
    return charts.diverging(
        [(f"{marks.get(row['verdict'], '')}{row['name']} · {row['games']:,}", row["effect"]["value"],
          row["effect"]["low"], row["effect"]["high"]) for row in tested], title, scale=scale, unit=unit)


def _card_view(playtest: "Playtest", run: "Run", cards: dict) -> dict:
    return {"chart": card_chart(cards, f"Card effect, {run_title(run)}"), "cards": cards,
            "summary": _sentence(card_summary(cards)), "players": run.players, "title": run_title(run),
            "few": [row["name"] for row in cards["rows"] if row["verdict"] == "too few"],
            "idle": [row["name"] for row in cards["rows"] if row["verdict"] == "negligible"],
            "matters": [row["name"] for row in cards["rows"] if row["verdict"] == "matters"]}


def _sentence(text: str) -> str:
    """Text as a sentence: its first letter upper case, the rest (card names) as they are."""
    return text[:1].upper() + text[1:]


def _run_view(playtest: "Playtest", run: "Run", index: int) -> dict:
    data = playtest.figures(run)
    view = {"title": run_title(run), "anchor": f"run-{index + 1}", "setting": run.setting.name,
            "players": run.players, "data": data, "params": dict(run.setting.params), "run_seed": run.run_seed}
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
        if metrics.get("cards"):
            view["cards"] = _card_view(playtest, run, metrics["cards"])
    if data.get("cards"):
        rows = sorted(data["cards"], key=lambda row: (-row["games_share"]["count"], row["name"]))
        view["card_chart"] = charts.bars(
            [(row["name"], row["games_share"]["rate"] or 0.0, percent(row["games_share"]["rate"])) for row in rows],
            f"Card usage, {run_title(run)}")
    return view


@lru_cache(maxsize=1)
def _environment():
    """The report templates, compiled once per process (a build writes a report per deck)."""

    return jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATES), autoescape=True,
                              trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True,
                              bytecode_cache=template_code("report"))


def report_html(report: "DeckReport", comparison: dict | None = None) -> str:
    """The whole page of one deck's validation."""
    deck, playtest = report.deck, report.playtest
    runs = [_run_view(playtest, run, index) for index, run in enumerate(playtest.runs)] if playtest else []
    skill = [{"title": run_title(run), "bot": run.bot, **playtest.figures(run)["metrics"]["skill"]}
             for run in (playtest.skill if playtest else ()) if run.tally.metrics and run.tally.metrics.focus_games]
    targets = [{**check, "sentence": target_sentence(check), "css": VERDICT_CLASS[check["verdict"]]}
               for check in (playtest.targets if playtest else ())]
    deciding = [run["cards"] for run in runs if run.get("cards") and run["setting"] == "deck rules"]
    return _environment().get_template("report.html.j2").render(
        report=report, deck=deck, problems=report.sorted_problems(), runs=runs, percent=percent,
        playtest=playtest, per_players=report.composition.get("per_players", {}), skill=skill,
        comparison=comparison, targets=targets, findings=top(playtest) if playtest else [],
        nothing=nothing_found(playtest) if playtest else "", deciding=deciding,
        level=level(playtest) if playtest else "", percent_text=percent_text,
        command=reproduce_command(report) if playtest else "")


def write_report(report: "DeckReport", out_dir: Path, comparison: dict | None = None) -> list[Path]:
    """validation.html and validation.json for one deck into out_dir."""
    with figures_kept():
        html = write_text(out_dir / "validation.html", report_html(report, comparison))
        data = write_text(out_dir / "validation.json", report_json(report.as_dict()))
    return [html, data]
