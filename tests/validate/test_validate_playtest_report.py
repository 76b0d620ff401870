"""The playtest report in a real headless Chromium: the summary at the top says how many games
each finding rests on, the charts are there (seat intervals, length, lead changes, drama, card
impact), the reproducing command is printed, and nothing is fetched from outside."""

from __future__ import annotations

import shlex

from generator.cli.app import main

from tests.browser import external_requests


def test_the_report_renders_its_metrics_and_charts(run_cli, tmp_path, page):
    args = ("validate", "muggle-quidditch", "--simulate", "40", "--workers", "1", "--seed", "2", "--bot", "random",
            "--sweep", "players=2", "--report", "--output", str(tmp_path))
    result = run_cli(*args)
    assert result.exit_code in (0, 1), result.stderr
    path = tmp_path / "muggle-quidditch" / "validation.html"
    page.goto(path.as_uri())
    summary = page.locator("section.summary li").all_inner_texts()
    assert summary[0].startswith("Seat ") and "in 2-player games (deck rules)" in summary[0]
    assert all("from 40 games" in line or "seat-games" in line for line in summary), summary
    assert any(line.startswith("Skill: one heuristic seat") for line in summary)
    titles = page.eval_on_selector_all("svg", "nodes => nodes.map(n => n.getAttribute('aria-label'))")
    for title in ("Win rate by seat, deck rules, 2 players", "Game length, deck rules, 2 players",
                  "Lead changes, deck rules, 2 players", "Drama, deck rules, 2 players",
                  "Card impact, deck rules, 2 players"):
        assert title in titles
    impact = page.locator("svg[aria-label^='Card impact'] rect")
    assert impact.count() >= 40  # one bar per card held by some seats and not others
    assert page.locator("svg").first.bounding_box()["width"] > 300
    table = page.locator("table.metrics").inner_text()
    for metric in ("Balance", "First seat wins", "Completion", "Timeouts", "Decision moves", "Branching factor",
                   "Lead change", "Drama", "Decisiveness", "Stability", "Score difference, at the end"):
        assert metric in table
    command = page.locator("code.command").inner_text()
    assert command == ("deckgen validate muggle-quidditch --simulate 40 --seed 2 --bot random "
                       "--sweep players=2 --report")
    assert external_requests(page.deckgen_requests) == []
    # The printed command gives the same page.
    again = tmp_path / "again"
    assert main([*shlex.split(command)[1:], "--workers", "1", "--output", str(again)]) in (0, 1)
    assert (again / "muggle-quidditch" / "validation.html").read_text() == path.read_text()


def test_the_report_fits_a_phone(run_cli, tmp_path, chromium):
    run_cli("validate", "wizard", "--simulate", "6", "--workers", "1", "--sweep", "players=3", "--report",
            "--output", str(tmp_path))
    context = chromium.new_context(viewport={"width": 390, "height": 800})
    try:
        phone = context.new_page()
        phone.goto((tmp_path / "wizard" / "validation.html").as_uri())
        assert phone.locator("section.summary").is_visible()
        widths = phone.eval_on_selector_all("svg", "nodes => nodes.map(n => n.getBoundingClientRect().right)")
        assert widths and max(widths) <= 390
        assert phone.evaluate("document.documentElement.scrollWidth") <= 390  # nothing widens the page
    finally:
        context.close()
