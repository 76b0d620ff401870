"""Every value a layout can hold is range-checked when the deck loads, so that nothing
`validate` passes can crash `print`, `images` or `watch` (issue 38's cases each named), and
markup that would print as typed is reported."""

from __future__ import annotations

import pytest

from generator.deck.loader import check_deck
from tests.badinput import TINY, deadline

ELEMENT = """
[layouts.bad]
{layout}
[[layouts.bad.elements]]
name = "it"
type = "{type}"
{field}
"""
CASES = [  # (element type, field as written, words of the message)
    ("text", "size = [1e30, 9]", "is out of range; allowed: a size in pt from 1 to 200"),
    ("text", "size = -9", "is out of range"),
    ("text", "size = [9, nan]", "is not a number deckgen can draw with"),
    ("text", "size = [12, 9, 6]", "has 3 sizes"),
    ("text", "line_spacing = 0", "is out of range; allowed: 0.5 to 5 times the size"),
    ("text", "max_lines = 0", "allowed: 1 to 1,000 lines"),
    ("shape", 'shape = "rect"\nstroke = "#000000"\ndash = [0, 0]', "draws nothing (every part is 0)"),
    ("shape", "dash = [1, inf]", "is not a number deckgen can draw with"),
    ("shape", 'shape = "polygon"\npoints = [[0, 0], [100, 0], [50, nan]]', "is not a number deckgen can draw with"),
    ("shape", 'shape = "polygon"\npoints = [[0, 0], [100], [50, 5]]', "is not a pair"),
    ("shape", "opacity = 2", "is out of range; allowed: a number from 0 (invisible) to 1 (opaque)"),
    ("shape", 'opacity = "50%"', "is not an opacity"),
    ("shape", 'fill = "red"', "'red' is not a colour"),
    ("shape", 'fill = "lighten(#112233, nan)"', "'nan' is not an amount from 0 to 1"),
    ("shape", 'fill = "mix(#112233, #ffffff, 2)"', "'2' is not an amount from 0 to 1"),
    ("shape", "stroke_width = -1", "is out of range; allowed: 0 to 100 pt"),
    ("shape", "width = inf", "must be a finite number, found inf"),  # the deck schema says so first
    ("shape", "x = nan", "must be a finite number, found nan"),
    ("shape", 'x = "1e400mm"', "is not a length"),
    ("shape", 'height = "-5mm"', "is out of range"),
    ("pattern", "step = 0", "is out of range; allowed: 2 to 1000 pt"),
    ("pattern", 'step = "0.01mm"', "is out of range"),
    ("index", "size = 1e30", "is out of range"),
    ("text", 'color = "{props.word}"', "is 'abc' on card 'Joker' (JK): 'abc' is not a colour"),
    ("text", 'x = "{props.big}"', "is 1e+30 on card 'Joker' (JK)"),
    ("shape", 'stroke = "#000000"\nstroke_width = "{props.big}"', "is 1e+30 on card 'Joker' (JK): 1e+30 is out of range"),
]


def _deck(tmp_path, field: str, kind: str, layout: str = "") -> object:
    text = TINY.replace('players = { min = 2, max = 4 }', 'players = { min = 2, max = 4 }\nlayout = "bad"')
    text = text.replace("count = 2\n", 'count = 2\nprops = { word = "abc", big = 1e30 }\n')
    path = tmp_path / "tiny.toml"
    path.write_text(text + ELEMENT.format(layout=layout, type=kind, field=field), encoding="utf-8")
    return path


@pytest.mark.parametrize("kind, field, words", CASES, ids=[f"{kind}: {field}" for kind, field, _ in CASES])
def test_a_value_out_of_range_is_an_error_at_load(tmp_path, run_cli, kind, field, words):
    path = _deck(tmp_path, field, kind)
    with deadline(30):
        result = run_cli("validate", path)
    seen = result.stdout + result.stderr
    assert result.exit_code == 1, seen
    assert words in seen and "layouts.bad.elements[0]" in seen, seen
    assert "Traceback" not in seen and "internal error" not in seen


@pytest.mark.parametrize("layout, words", [("reference_size = [0.001, 88]", "each from 10 to 1000"),
                                           ("reference_size = [inf, 88]", "is not a number deckgen can draw with"),
                                           ("safe = 500", "allowed: 0 to 100 mm")])
def test_a_layout_field_out_of_range_is_an_error(tmp_path, layout, words):
    _, problems = check_deck(_deck(tmp_path, 'fill = "#112233"', "shape", layout))
    assert any(words in problem.message for problem in problems if problem.severity == "error"), problems


def test_values_in_range_pass(tmp_path, run_cli):
    field = 'fill = "lighten(#112233, 0.3)"\nopacity = 0.5\ndash = [2, 1]\nstroke = "#000000"\nstroke_width = "0.3mm"'
    result = run_cli("images", _deck(tmp_path, field, "shape"), "--output", tmp_path / "out", "--dpi", "30")
    assert result.exit_code == 0, result.stderr


@pytest.mark.parametrize("text, words, severity", [
    ("**bold", "a ** has no closing **", "warning"), ("{card:JK", "has no closing brace", "error"),
    ("{crad:JK}", "{crad:…} is not a reference", "error"), ("a *stray", "a * has no closing *", "warning")])
def test_broken_markup_is_reported(tmp_path, text, words, severity):
    """A tag that would print as typed is an error (issue 35); an unclosed star only a warning."""
    path = tmp_path / "tiny.toml"
    path.write_text(TINY.replace("count = 2\n", f'count = 2\ntext = "{text}"\n'), encoding="utf-8")
    _, problems = check_deck(path)
    assert [p.field for p in problems if words in p.message and p.severity == severity] == ["cards[0].text"], problems
