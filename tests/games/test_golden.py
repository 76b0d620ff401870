"""Golden referee messages, Black-style: every case under tests/games/golden/<deck id>/ is an
input and the exact output a user sees, run through the CLI. Adding a regression is adding
files; nothing here changes.

- `<case>.toml` is either a game log (`deckgen referee DECK <case>.toml`) or a question for
  `deckgen rule DECK ...`: a file with `question = "..."` and optionally `variants = [...]`.
  Its first comment lines say what the case is about.
- `<case>.expected` is stdout, then `--- stderr ---` and stderr when there is any, then
  `--- exit N ---`.
- `<case>.json.expected`, when present, is the same command's `--json` output (kept for every
  question, and for the logs whose JSON fields matter: the player, the rule, the legal moves).

Write or refresh the expected files with `DECKGEN_UPDATE_GOLDEN=1 python -m pytest
tests/games/test_golden.py` and read the diff before committing it: the expected files are the
review. A second test enumerates every rule, ruling and card-rule id the engines can cite
(found in generator/games/) and fails when one has no golden case citing it.
"""

from __future__ import annotations

import os
import re
import tomllib
from pathlib import Path

import pytest

from generator.deck.loader import load_deck

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = Path(__file__).resolve().parent / "golden"
ENGINES = ROOT / "generator" / "games"
UPDATE = os.environ.get("DECKGEN_UPDATE_GOLDEN") == "1"
CASES = sorted(GOLDEN.glob("*/*.toml"))


def _command(case: Path, as_json: bool) -> list[str]:
    deck = case.parent.name
    decks = os.path.relpath(ROOT / "decks", case.parent)  # relative: no machine's path in the output
    data = tomllib.loads(case.read_text(encoding="utf-8"))
    if "question" in data:
        args = ["rule", deck, data["question"], "--decks-dir", decks]
        for variant in data.get("variants", []):
            args += ["--variant", variant]
    else:
        args = ["referee", deck, case.name, "--decks-dir", decks]
    return args + (["--json"] if as_json else [])


def _seen(result) -> str:
    text = result.stdout
    if result.stderr:
        text += "--- stderr ---\n" + result.stderr
    return text + f"--- exit {result.exit_code} ---\n"


def _check(run_cli, case: Path, as_json: bool) -> None:
    expected_file = case.with_suffix(".json.expected" if as_json else ".expected")
    seen = _seen(run_cli(*_command(case, as_json), cwd=case.parent))
    if UPDATE:
        expected_file.write_text(seen, encoding="utf-8")
        return
    assert expected_file.exists(), f"{expected_file.name} is missing: run with DECKGEN_UPDATE_GOLDEN=1 and review it"
    assert seen == expected_file.read_text(encoding="utf-8"), f"{case.relative_to(ROOT)}: the output changed"


@pytest.mark.parametrize("case", CASES, ids=[f"{case.parent.name}/{case.stem}" for case in CASES])
def test_golden_case(run_cli, case):
    _check(run_cli, case, as_json=False)
    is_question = "question" in tomllib.loads(case.read_text(encoding="utf-8"))
    if is_question or case.with_suffix(".json.expected").exists():
        _check(run_cli, case, as_json=True)


def test_every_case_says_what_it_is_about():
    for case in CASES:
        assert case.read_text(encoding="utf-8").startswith("# "), f"{case.name}: start with a comment saying why"
    stray = [path.name for path in GOLDEN.glob("*/*") if path.suffix not in (".toml", ".expected")
             or path.suffix == ".expected" and not path.name.split(".")[0] + ".toml"
             in {case.name for case in path.parent.glob("*.toml")}]
    assert not stray, f"expected files without a case: {stray}"


# -- the sweep: every id an engine can cite has a golden case citing it --------------------

def _strings(value) -> set[str]:
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*map(_strings, value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*map(_strings, value)) if value else set()
    return set()


def citable_ids(deck_id: str) -> set[str]:
    """The deck's rule and ruling ids, and `card:<id>` rules, that appear in the engines' source
    or data (generator/games/), or in the deck's own [rules] (the rules engine cites those), so
    the engine can cite them."""
    deck = load_deck(ROOT / "decks" / f"{deck_id}.toml")
    ids = {rule.id for rule in deck.rules()} | {ruling.id for ruling in deck.rulings}
    source = "\n".join(path.read_text(encoding="utf-8") for path in sorted(ENGINES.rglob("*"))
                       if path.suffix in (".py", ".toml", ".json") and "__pycache__" not in path.parts)
    cited = {rule_id for rule_id in ids if re.search(rf"[\"']{re.escape(rule_id)}[\"']", source)}
    cited |= ids & _strings(deck.trick_rules or {})
    constants = dict(re.findall(r"^([A-Z][A-Z0-9_]*) = \"([^\"]+)\"", source, re.M))
    cards = re.findall(r"\"card:([a-z0-9-]+)\"", source)
    cards += [constants.get(name, name) for name in re.findall(r"\"card:\" \+ ([A-Z][A-Z0-9_]*)", source)]
    for card in cards:  # "card:penalty", or "card:" + POWBEAT; only this deck's cards
        found = deck.find_card(card)
        if found is not None:
            cited.add(f"card:{found.id}")
    return cited


def cited_in_goldens(deck_id: str) -> set[str]:
    text = "\n".join(path.read_text(encoding="utf-8") for path in (GOLDEN / deck_id).glob("*.expected"))
    return set(re.findall(r"[\w.:-]+", text))


@pytest.mark.parametrize("deck_id", sorted(path.name for path in GOLDEN.iterdir() if path.is_dir()))
def test_every_rule_an_engine_can_cite_has_a_golden_case(deck_id):
    citable = citable_ids(deck_id)
    assert citable, f"found no rule ids of {deck_id} in generator/games/"
    missing = sorted(rule_id for rule_id in citable if rule_id not in cited_in_goldens(deck_id))
    assert not missing, f"no golden case in tests/games/golden/{deck_id}/ cites: {', '.join(missing)}"
