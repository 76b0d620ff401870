"""The playtest report in a real headless Chromium, at a desktop's 1280 px and a phone's 400 px:
the first screen holds the verdict on each declared target, the findings that matter most (each
with its confidence and games) and the start of the table of contents; card effects are a chart
sorted by effect with intervals and group sizes; the runs are folded away; the reproducing
command gives the same page; nothing is fetched from outside."""

from __future__ import annotations

import json
import re
import shlex
from contextlib import contextmanager

import pytest

from generator.cli.app import main

from tests.browser import external_requests
from tests.validate.deck_copies import deck_copy, playtest_table

@pytest.fixture(scope="module")
def report(tmp_path_factory):
    """Wizard for three with one variant and targets, 300 games of each setting: its report."""
    folder = tmp_path_factory.mktemp("report")
    targets = playtest_table((0.25, 0.45), (600, 800), 0.01, [("heuristic", "random", 0.6)])
    deck, _ = deck_copy(folder, "wizard", "wizard-three", targets, players=(3, 3), variants=("no-restriction",))
    out = folder / "out"
    args = ["validate", str(deck), "--simulate", "300", "--workers", "2", "--no-skill", "--report", "--output",
            str(out)]
    assert main(args) in (0, 1)
    return out / "wizard-three" / "validation.html", folder


def _named(path) -> list[str]:
    """The cards the report names, from the JSON written beside the page."""
    data = json.loads(path.with_suffix(".json").read_text(encoding="utf-8"))
    return data["playtest"]["runs"][0]["metrics"]["cards"]["named"]


@contextmanager
def opened(chromium, path, width: int, height: int):
    """The page at this viewport, recording every request it makes."""
    context = chromium.new_context(viewport={"width": width, "height": height})
    try:
        page = context.new_page()
        page.deckgen_requests = []
        page.on("request", lambda request: page.deckgen_requests.append(request.url))
        page.goto(path.as_uri())
        yield page
    finally:
        context.close()


def test_the_first_screen_answers_first(report, chromium):
    path, _ = report
    with opened(chromium, path, 1280, 900) as page:
        verdicts = page.locator("table.targets td.verdict").all_inner_texts()
        assert len(verdicts) == 4 and set(verdicts) <= {"holds", "misses", "unclear", "not evaluated"}
        rows = page.locator("table.targets tr").all_inner_texts()
        assert any("heuristic beats random" in row and "holds" in row for row in rows)
        assert any("seat 1 wins 25%–45% of games, 3 players" in row and re.search(r"\d+\.\d% \(\d+\.\d–\d+\.\d%\)", row)
                   for row in rows)
        findings = page.locator("ol.findings li").all_inner_texts()
        assert 1 <= len(findings) <= 3
        assert all("interval" in finding and "games" in finding for finding in findings)
        named = _named(path)  # with the heuristic players of issue 33 no card is named at 300 games
        assert any(finding.startswith(f"{named[0]} decides 3-player games") for finding in findings) if named else \
            any(finding.startswith("One heuristic player among random ones wins") for finding in findings)
        for selector in ("section.first", "ol.findings", "nav.contents h2"):
            box = page.locator(selector).first.bounding_box()
            assert box["y"] + (box["height"] if selector != "nav.contents h2" else 0) <= 900, selector
        assert "This report makes" in page.locator("section.first").inner_text()
        # The contents lead to every section, the runs among them, folded until asked for.
        links = page.locator("nav.contents a").evaluate_all("nodes => nodes.map(n => n.getAttribute('href'))")
        assert {"#playtest", "#cards", "#run-1", "#run-2", "#skill"} <= set(links)
        assert page.locator("details.run[open]").count() == 0
        page.click("nav.contents a[href='#run-2']")
        assert page.locator("#run-2").evaluate("node => node.closest('details').open")  # opened to show it
        assert page.evaluate("document.documentElement.scrollHeight") < 12_000
        assert external_requests(page.deckgen_requests) == []


def test_card_effects_are_a_sorted_chart_with_intervals_and_groups(report, chromium):
    path, _ = report
    with opened(chromium, path, 1280, 900) as page:
        chart = page.locator("#cards ~ figure svg[aria-label='Card effect, deck rules, 3 players']")
        titles = chart.locator("rect title").evaluate_all("nodes => nodes.map(n => n.textContent)")
        assert len(titles) == 54  # every card of the deck is dealt in every game of three
        values = [float(re.search(r": ([+-]\d+\.\d) points a round", title).group(1)) for title in titles]
        assert values == sorted(values, reverse=True)
        assert all(re.search(r" · 300: .* \([+-]\d+\.\d to [+-]\d+\.\d\)$", title) for title in titles)
        assert chart.locator("line").count() >= 54  # a whisker per card, besides the axis and ticks
        # ● marks the cards the report names (they decide games; with the heuristic players of
        # issue 33 none is named at 300 games), ○ those whose interval clears zero
        assert {title[1:].split(" · ")[0] for title in titles if title.startswith("●")} == set(_named(path))
        assert titles[0].startswith(("●", "○"))
        assert "99." in page.locator("#cards + p").inner_text()  # whiskers at the report's level


def test_the_report_fits_a_phone(report, chromium):
    path, folder = report
    with opened(chromium, path, 400, 800) as phone:
        assert phone.evaluate("document.documentElement.scrollWidth") <= 400  # nothing widens the page
        widths = phone.eval_on_selector_all("svg", "nodes => nodes.map(n => n.getBoundingClientRect().right)")
        assert widths and max(widths) <= 400
        first = phone.locator("section.first").bounding_box()
        assert first["y"] < 400 and phone.locator("table.targets").bounding_box()["y"] < 800
        # The verdicts are read first: they stand in the first column, inside the screen's width.
        for cell in phone.locator("table.targets td.verdict").all():
            box = cell.bounding_box()
            assert box["x"] >= 0 and box["x"] + box["width"] <= 400
        phone.screenshot(path=str(folder / "phone.png"))


def test_the_printed_command_gives_the_same_page(report):
    path, folder = report
    html = path.read_text(encoding="utf-8")
    command = re.search(r'<code class="command">([^<]+)</code>', html).group(1)
    assert command.startswith("deckgen validate ") and "--simulate 300 --seed 1 --bot heuristic --no-skill" in command
    again = folder / "again"
    assert main([*shlex.split(command)[1:], "--workers", "1", "--output", str(again)]) in (0, 1)
    assert (again / "wizard-three" / "validation.html").read_text(encoding="utf-8") == html
