"""Engines from other packages, the way a user gets one: the example engine of docs/engines.md
(examples/engine) is built and installed by pip into a folder on the path of a fresh `deckgen`
process, which finds it through the `deckgen.engines` entry points; then every tool works on its
deck with no special case: engines list and check (the conformance suite), rule, simulate,
validate with its playtest, referee with the HTML replay, figures of play. Also: an unknown
engine name, a broken registration, two packages claiming one name, and the registry noticing a
package installed or removed since its last run."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from tests.conftest import DECKS, ROOT

EXAMPLE = ROOT / "examples" / "engine"
PILE_UP = EXAMPLE / "pile-up.toml"
ENGINE_LINE = next(n for n, line in enumerate(PILE_UP.read_text().splitlines(), 1) if line.startswith("engine ="))


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """The example engine's package, built and installed by pip (no dependencies: deckgen is here)."""
    site = tmp_path_factory.mktemp("site")
    source = tmp_path_factory.mktemp("source") / "engine"
    shutil.copytree(EXAMPLE, source)  # pip builds in the source folder: not in the repository
    done = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target", str(site),
                           str(source)], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    assert (site / "deckgen_pile_up-1.0.dist-info" / "entry_points.txt").is_file()
    return site


def deckgen(*args, path: Path | None = None, cache: Path, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    """`deckgen ARGS` as a new process, with `path` (where packages were installed) on its path."""
    env = {**os.environ, "XDG_CACHE_HOME": str(cache), "PYTHONPATH": str(path) if path else ""}
    return subprocess.run([sys.executable, "-m", "generator", *map(str, args)], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=600)


@pytest.fixture
def cache(tmp_path) -> Path:
    return tmp_path / "cache"


def test_the_installed_engine_is_listed_beside_deckgens_own(installed, cache):
    done = deckgen("engines", "list", "--json", path=installed, cache=cache)
    assert done.returncode == 0, done.stderr
    rows = {row["engine"]: row for row in json.loads(done.stdout)}
    assert rows["pile-up"] == {"engine": "pile-up", "package": "deckgen-pile-up 1.0", "target":
                               "deckgen_pile_up:PileUpGame", "players": "2-4", "questions": ["play", "score"]}
    assert rows["rules"]["package"].startswith("deckgen ") and rows["rules"]["target"] == \
        "generator.games.trick.game:RulesGame"
    assert "pile-up" not in deckgen("engines", "list", cache=cache).stdout  # not on this process's path


def test_the_conformance_suite_passes_on_the_example_engine(installed, cache):
    done = deckgen("engines", "check", PILE_UP, "--json", path=installed, cache=cache)
    assert done.returncode == 0, done.stdout + done.stderr
    report = json.loads(done.stdout)
    assert report["engine"] == "pile-up" and report["failures"] == []
    assert "illegal-actions" in report["checks"] and "questions" in report["checks"]


def test_rule_simulate_and_validate_play_the_example(installed, cache):
    listed = deckgen("rule", PILE_UP, path=installed, cache=cache)
    assert "play CARD on TOTAL" in listed.stdout and "deckgen rule pile-up score 5R on 16" in listed.stdout
    yes = deckgen("rule", PILE_UP, "score", "5R", "on", "16", "--json", path=installed, cache=cache)
    assert yes.returncode == 0 and json.loads(yes.stdout)["points"] == 1
    no = deckgen("rule", PILE_UP, "play 6Y on 18", path=installed, cache=cache)
    assert no.returncode == 1 and "No: 6Y would bring the pile past 21" in no.stdout
    assert "Rule 2.2 The limit [pile.play.limit]" in no.stdout
    unclear = deckgen("rule", PILE_UP, "trick 5R 6Y", path=installed, cache=cache)
    assert unclear.returncode == 2 and "ask `play CARD on TOTAL`; or `score CARD on TOTAL`" in unclear.stderr
    first = deckgen("simulate", PILE_UP, "-n", "20", "--players", "3", "--json", path=installed, cache=cache)
    again = deckgen("simulate", PILE_UP, "-n", "20", "--players", "3", "--json", path=installed, cache=cache)
    assert first.returncode == 0 and first.stdout == again.stdout
    assert json.loads(first.stdout)["games"] == 20
    validated = deckgen("validate", PILE_UP, "--simulate", "10", "--workers", "1", "--json", path=installed,
                        cache=cache)
    report = json.loads(validated.stdout)["decks"][0]
    assert not [p for p in report["problems"] if p["severity"] == "error"], report["problems"]
    runs = report["playtest"]["runs"]
    assert {run["players"] for run in runs} >= {2, 3, 4} and all(run["completed"] == 10 for run in runs)
    assert report["composition"]["per_players"]["4"] == {"stock": 8}


def test_referee_and_replay_a_log_of_the_example(installed, cache, tmp_path, page):
    logs = tmp_path / "logs"
    assert deckgen("simulate", PILE_UP, "-n", "1", "--players", "2", "--save-logs", logs, path=installed,
                   cache=cache).returncode == 0
    log = logs / "game-00001.toml"
    assert tomllib.loads(log.read_text())["deck"] == "pile-up"
    legal = deckgen("referee", PILE_UP, log, path=installed, cache=cache)
    assert legal.returncode == 0 and "legal, game finished" in legal.stdout
    text = log.read_text()
    first = text.index('card = "', text.index("[[plays]]"))
    bad = tmp_path / "bad.toml"
    bad.write_text(text[:first] + 'card = "pass"' + text[text.index("\n", first):])
    page_path = tmp_path / "replay.html"
    refused = deckgen("referee", PILE_UP, bad, "--html", "-o", page_path, "--json", path=installed, cache=cache)
    assert refused.returncode == 1
    violation = json.loads(refused.stdout)["violation"]
    assert violation["rule"]["id"] == "pile.play.pass" and violation["field"] == "plays[0].card"
    assert violation["legal"] and violation["line"] is not None
    page.goto(page_path.as_uri())
    page.keyboard.press("End")
    assert page.is_visible("#violation") and page.inner_text("#v-rule") == "Rule 2.3 Passing [pile.play.pass]"
    assert page.locator("#areas th").all_inner_texts() == ["Pile"]
    assert page.locator("#v-legal .chip").all_inner_texts() == violation["legal"]


def test_a_figure_the_engine_has_no_question_for_is_reported_unchecked(installed, cache, tmp_path):
    deck = tmp_path / "pile-up.toml"
    deck.write_text(PILE_UP.read_text() + '\n[[sections.rules]]\nid = "pile.scoring.not-tricks"\ntitle = "No tricks"\n'
                    'text = """Cards are never played in tricks, so this one means nothing:\n\n{trick: 5R 6Y | winner 2}"""\n')
    done = deckgen("validate", deck, "--simulate", "0", "--json", path=installed, cache=cache)
    problems = json.loads(done.stdout)["decks"][0]["problems"]
    unchecked = [p for p in problems if "not checked" in p["message"]]
    assert unchecked and "the pile-up engine answers no `trick` question" in unchecked[0]["message"]
    assert unchecked[0]["severity"] == "warning" and unchecked[0]["line"] is not None
    assert "deckgen rule pile-up" in unchecked[0]["hint"]


def test_an_unknown_engine_is_named_at_its_line_with_the_installed_ones(run_cli, tmp_path):
    deck = tmp_path / "muggle-quidditch.toml"
    text = (DECKS / "muggle-quidditch.toml").read_text()
    deck.write_text(text.replace('engine = "muggle-quidditch"', 'engine = "wizzard"', 1))
    line = next(n for n, text in enumerate(deck.read_text().splitlines(), 1) if text.startswith("engine ="))
    result = run_cli("validate", deck)
    assert result.exit_code == 1
    assert (f"{deck}:{line}: error: deck.engine: unknown engine 'wizzard'; installed: muggle-quidditch, "
            "quidditch-v2, rules") in result.stdout + result.stderr
    assert "Traceback" not in result.stdout + result.stderr


def test_the_registry_sees_a_package_arrive_and_leave(installed, cache, tmp_path):
    folder = tmp_path / "packages"
    folder.mkdir()
    assert "pile-up" not in deckgen("engines", "list", path=folder, cache=cache).stdout
    for item in installed.iterdir():  # what pip put there, as a second install into this folder would
        shutil.copytree(item, folder / item.name)
    assert "pile-up" in deckgen("engines", "list", path=folder, cache=cache).stdout
    assert deckgen("rule", PILE_UP, "play 5R on 16", path=folder, cache=cache).returncode == 0  # deck now cached
    shutil.rmtree(folder / "deckgen_pile_up-1.0.dist-info")
    cached = deckgen("rule", PILE_UP, "play 5R on 16", path=folder, cache=cache)  # the deck cache still holds it
    assert cached.returncode == 1 and "Traceback" not in cached.stderr
    assert f"{PILE_UP}:{ENGINE_LINE}: error: deck.engine: unknown engine 'pile-up'" in cached.stderr
    gone = deckgen("validate", PILE_UP, "--simulate", "0", path=folder, cache=cache)
    assert gone.returncode == 1 and "pile-up" not in deckgen("engines", "list", path=folder, cache=cache).stdout
    assert f"{PILE_UP}:{ENGINE_LINE}: error: deck.engine: unknown engine 'pile-up'; installed: muggle-quidditch" in gone.stdout


def _registration(folder: Path, name: str, lines: str) -> None:
    """A distribution's metadata folder registering engines, as an installer writes it."""
    info = folder / f"{name}-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(f"[deckgen.engines]\n{lines}\n")


def test_a_broken_registration_is_reported_at_the_deck_field(cache, tmp_path):
    folder = tmp_path / "packages"
    _registration(folder, "broken-engine", "pile-up = no_such_module:Game")
    done = deckgen("validate", PILE_UP, "--simulate", "0", path=folder, cache=cache)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert (f"{PILE_UP}:{ENGINE_LINE}: error: deck.engine: the pile-up engine registered by broken-engine 1.0 "
            "(no_such_module:Game) cannot be loaded: ModuleNotFoundError") in done.stdout
    assert "fix: fix or reinstall broken-engine" in done.stdout
    listed = json.loads(deckgen("engines", "list", "--json", path=folder, cache=cache).stdout)
    assert "cannot be loaded" in next(row for row in listed if row["engine"] == "pile-up")["error"]


def test_two_packages_claiming_one_name_are_refused(installed, cache, tmp_path):
    folder = tmp_path / "packages"
    _registration(folder, "another-pile", "pile-up = another_pile:Game")
    done = deckgen("referee", PILE_UP, ROOT / "examples" / "wizard-4p.toml",
                   path=Path(f"{installed}{os.pathsep}{folder}"), cache=cache)
    assert done.returncode == 1
    assert "engine 'pile-up' is registered by more than one package" in done.stderr
    assert "deckgen-pile-up 1.0 (deckgen_pile_up:PileUpGame)" in done.stderr and "another-pile 1.0" in done.stderr
