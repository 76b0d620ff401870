"""Colour-vision checks: CIEDE2000 against Sharma's published pairs, Machado 2009 simulations,
the threshold against the Okabe-Ito palette, and `deckgen validate` warning about suits and kinds
told apart only by colour."""

from __future__ import annotations

from itertools import combinations

import pytest

from generator.deck.palettes import OKABE_ITO
from generator.validate.colourvision import MACHADO, MIN_DELTA_E, delta_e2000, distance, simulate
from tests.designer.tidepool import make


@pytest.mark.parametrize("first, second, expected", [  # Sharma, Wu and Dalal (2005), Table 1
    ((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485), 2.0425),
    ((50.0, 0.0, 0.0), (50.0, -1.0, 2.0), 2.3669),
    ((50.0, 2.5, 0.0), (73.0, 25.0, -18.0), 27.1492),
    ((2.0776, 0.0795, -1.135), (0.9033, -0.0636, -0.5514), 0.9082),
    ((50.0, 2.5, 0.0), (50.0, 3.1736, 0.5854), 1.0),
])
def test_ciede2000_matches_the_published_pairs(first, second, expected):
    assert delta_e2000(first, second) == pytest.approx(expected, abs=1e-4)


def test_simulations_keep_grey_and_merge_red_with_green():
    for vision in MACHADO:  # each matrix's rows sum to 1: neutrals stay neutral
        assert all(abs(c - 0.5) < 0.01 for c in simulate("#808080", vision))
    assert distance("#d62728", "#2ca02c") > 60  # far apart for typical vision
    assert distance("#d62728", "#2ca02c", "deuteranopia") < MIN_DELTA_E


def test_the_threshold_is_cleared_by_every_okabe_ito_pair():
    closest = min(distance(a, b, vision) for a, b in combinations(OKABE_ITO.values(), 2) for vision in MACHADO)
    assert MIN_DELTA_E < closest < MIN_DELTA_E + 1.5  # 10.9: orange and reddish purple under tritanopia


def _tidepool(tmp_path, shell: str, fish: str, suits: str = ""):
    deck = make(tmp_path / "tidepool")
    text = deck.read_text(encoding="utf-8").replace('"#b5651d"', f'"{shell}"', 1).replace('"#1d6fb5"', f'"{fish}"', 1)
    deck.write_text(text.replace("[[kinds]]", suits + "\n[[kinds]]", 1), encoding="utf-8")
    return deck


def test_validate_warns_about_kinds_told_apart_only_by_colour(tmp_path, run_cli):
    deck = _tidepool(tmp_path, "#d62728", "#2ca02c")
    result = run_cli("validate", deck, "--simulate", "0")
    said = result.stdout + result.stderr
    assert "warning: kinds[1].color: kinds 'shell' (#d62728) and 'fish' (#2ca02c) have the same layout" in said
    assert "deuteranopia ΔE00 4.6" in said and "okabe-ito" in said


def test_okabe_ito_colours_and_distinct_marks_pass(tmp_path, run_cli):
    deck = _tidepool(tmp_path, "okabe-ito.vermillion", "okabe-ito.blue")
    said = run_cli("validate", deck, "--simulate", "0")
    assert "differ only by colour" not in said.stdout + said.stderr


SUITS = '''
[[suits]]
id = "reef"
name = "Reef"
symbol = "●"
code = "R"
color = "{first}"

[[suits]]
id = "kelp"
name = "Kelp"
symbol = "{symbol}"
code = "K"
color = "{second}"
'''


def test_validate_warns_about_suits_with_one_symbol_and_near_colours(tmp_path, run_cli):
    suits = SUITS.replace("{first}", "#d62728").replace("{second}", "#2ca02c")
    deck = _tidepool(tmp_path, "#b5651d", "#1d6fb5", suits.replace("{symbol}", "●"))
    said = run_cli("validate", deck, "--simulate", "0")
    assert "warning: suits[1].color: suits 'reef' (#d62728) and 'kelp' (#2ca02c) have the same symbol" in said.stdout
    deck = _tidepool(tmp_path / "other", "#b5651d", "#1d6fb5", suits.replace("{symbol}", "▲"))
    said = run_cli("validate", deck, "--simulate", "0")
    assert "suits 'reef'" not in said.stdout + said.stderr
