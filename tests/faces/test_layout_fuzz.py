"""`validate` is the gate: layouts made of ordinary and hostile values (NaN, infinities, 1e30,
negative sizes, [0, 0] dashes, opacities past 1, words where colours go, corners that are not
pairs, variables that cards fill with any of these) are loaded; whatever the loader and the
validator's drawing checks pass is then drawn (faces and backs to a PDF, which must parse).
Anything but a deckgen error, anywhere on that path, fails; so does a hang (an alarm per
example). Hypothesis keeps the run bounded (`FUZZ`), well under a minute."""

from __future__ import annotations

import io
import json
import math

import pypdfium2
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from reportlab.pdfgen.canvas import Canvas

from generator.core.errors import DeckgenError
from generator.deck.loader import check_deck
from generator.deck.sizes import pt
from generator.faces import cards
from generator.faces.check import render_problems
from tests.badinput import TINY, deadline

FUZZ = settings(max_examples=300, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])

# Values a field of each sort may be given: mostly of the right type, ordinary or hostile
# (NaN, infinities, 1e30, negatives, zeros, words), and variables that cards fill with those.
BAD_NUMBERS = [math.nan, math.inf, -math.inf, 1e30, -1e30, -4, 0, 1e-9]
VARIABLES = ["{props.word}", "{props.big}", "{props.nan}", "{props.colour}", "{props.neg}", "{props.empty}"]
LENGTH = [0, 5, 20, "50%", "100% - 6mm", "12mm", "4pt", -3, "-5mm", "9" * 40 + "mm", *BAD_NUMBERS, *VARIABLES]
COLOUR = ["#112233", "#ffffff", "lighten(#112233, 0.4)", "ink_on(#ffffff)", "mix(#000000, #ffffff, 0.5)", "none",
          "#zzzzzz", "red", "lighten(#112233, 2)", "mix(#000000, #ffffff, nan)", "darken(#123456, abc)",
          "{suit.color}", "{kind.color}", *VARIABLES]
SIZE = [9, 12, [12, 7], [9, 6], [1e30, 9], [9, 1e30], [-3, -9], [12], [1, 2, 3], ["{props.big}", 9], *BAD_NUMBERS]
POOLS = {
    **dict.fromkeys(["x", "y", "width", "height", "radius", "pip_size", "ace_size", "glyph_size"], LENGTH),
    **dict.fromkeys(["color", "fill", "stroke", "badge", "rule_color", "accent", "sky"], COLOUR),
    "size": SIZE, "stroke_width": [0.5, 2, "0.3mm", *BAD_NUMBERS, *VARIABLES],
    "step": [11, 4, "4mm", 0.001, "0.001mm", *BAD_NUMBERS, *VARIABLES],
    "line_spacing": [1.2, 1, 0.1, 100, *BAD_NUMBERS], "max_lines": [1, 3, 0, -1, 10**9],
    "opacity": [0.5, 1, 0, 2, -1, "0.3", "50%", "abc", *BAD_NUMBERS, *VARIABLES],
    "dash": [[2, 1], [0, 0], [], [1e30, 1], [math.nan, 1], [-1, 2], list(range(1, 20)), ["a"]],
    "points": [[[0, 0], [100, 0], [50, 100]], [[0, 0], [100, 0], [50, math.nan]], [[0, 0], [1e30, 0], [0, 5]],
               [[1], [2], [3]], [[0, 0, 0], [1, 1], [2, 2]], [["a", 0], [1, 1], [2, 2]], [[0, 0]]],
    "count": [1, 5, 10, 11, 0, -1, "{props.neg}", "{props.word}"],
    "text": ["{name} — {props.word}", "=1+1", "{props.big}", "", "x" * 300],
    "glyph": ["♥", "", "{props.word}", "AB"], "label": ["A", "", "{props.big}"],
    "gradient": ["linear(45deg, #ff0000, #0000ff 30%)", "radial(#ffffff, #000000)", "linear(#ff0000)",
                 "linear(99999deg, #ff0000, #00ff00)", "radial(#ff0000 80%, #00ff00 10%)", "linear(nan, #000000)",
                 "radial({props.colour}, #000000)", "linear(#ff0000, {props.word})"],
    "shadow_offset": [[1, 1], [-3, 2], [1e30, 0], [math.nan, 1], [1], ["a", 1]],
    "glow_width": [2, "1mm", 1e30, -1, *BAD_NUMBERS],
    **dict.fromkeys(["glow_blur", "shadow_blur"], [4, "2mm", 0, 101, -1, "1e30mm", *BAD_NUMBERS, *VARIABLES]),
    "shadow": ["#000000", "{props.word}", "#12"],
    "glow": ["#7cf2ff", "red"], "rotate": [0, 90, 33.5, -400, 1e30, math.nan, "{props.big}"],
    "box": [[1, 2, 3, 4], [1, 2], ["a", 1, 2, 3], [1, 2, "100%", "1e30mm"]],
    "letter": ["K", "Z", "", "{props.word}"], "mirrored": [True, False],
}
ANYTHING = [3, "abc", True, [1, 2], {"a": 1}, math.nan]
FIELDS = {
    "text": ["x", "y", "width", "height", "size", "color", "line_spacing", "max_lines", "opacity", "rotate",
             "badge", "rule_color", "align", "transform", "text", "anchor", "frame", "mirrored", "stroke",
             "shadow", "shadow_offset", "shadow_blur", "glow", "glow_width", "glow_blur", "box"],
    "shape": ["x", "y", "width", "height", "shape", "fill", "stroke", "stroke_width", "dash", "radius", "points",
              "opacity", "rotate", "anchor", "shadow", "shadow_offset", "shadow_blur", "glow", "glow_width",
              "glow_blur", "box"],
    "pattern": ["x", "y", "width", "height", "pattern", "color", "step", "opacity"],
    "icon": ["x", "y", "width", "height", "glyph", "color", "opacity", "rotate"],
    "pips": ["x", "y", "width", "height", "color", "glyph", "pip_size", "ace_size", "count"],
    "index": ["x", "y", "width", "height", "label", "glyph", "color", "size", "glyph_size"],
    "figure": ["x", "y", "width", "height", "figure", "color", "accent", "letter", "shape", "sky", "glyph"],
}
CHOICES = {"shape": ["rect", "roundrect", "ellipse", "line", "polygon", "star"],
           "anchor": ["center", "bottom-right", "nowhere"], "frame": ["trim", "bleed", "safe"],
           "pattern": ["dots", "waves", "stripes", "diamonds"], "figure": ["court", "wizard", "jester", "crest"],
           "align": ["left", "center"], "transform": ["upper", "stacked"]}
PROPS = 'props = { word = "abc", big = 1e30, nan = nan, colour = "#00ff00", neg = -7, empty = "" }'


def toml(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf") if math.isinf(value) else repr(value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, list):
        return "[" + ", ".join(toml(item) for item in value) + "]"
    return "{ " + ", ".join(f"{key} = {toml(item)}" for key, item in value.items()) + " }"


@st.composite
def layouts(draw) -> str:
    lines = ["[layouts.fuzz]"]
    if draw(st.booleans()):
        lines.append(f"reference_size = {toml(draw(st.sampled_from([[63, 88], [1e-3, 88], [math.inf, 5], [10, 10]])))}")
    for index in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(sorted(FIELDS)))
        lines += ["", "[[layouts.fuzz.elements]]", f'name = "e{index}"', f'type = "{kind}"']
        for field in draw(st.lists(st.sampled_from(FIELDS[kind]), max_size=6, unique=True)):
            pool = CHOICES.get(field, []) + VARIABLES[:2] if field in CHOICES else POOLS.get(field, ANYTHING)
            if field in ("color", "fill") and draw(st.booleans()):
                pool = POOLS["gradient"]
            if draw(st.integers(0, 9)) == 0:  # now and then a value of any type at all
                pool = ANYTHING
            lines.append(f"{field} = {toml(draw(st.sampled_from(pool)))}")
    return "\n".join(lines) + "\n"


def _deck_text(layout: str) -> str:
    text = TINY.replace('players = { min = 2, max = 4 }', 'players = { min = 2, max = 4 }\nlayout = "fuzz"')
    return text.replace('count = 2\n', f'count = 2\n{PROPS}\n') + "\n" + layout


def _load_and_draw(path) -> str:
    """What happened on the path a user's deck takes: 'refused' by the loader or the drawing
    checks, or 'drawn'."""
    deck, problems = check_deck(path)
    if deck is None or any(problem.severity == "error" for problem in problems):
        return "refused"
    width, height = deck.card_size.width_mm, deck.card_size.height_mm
    if any(problem.severity == "error" for problem in render_problems(deck, width, height, allow_low_res=True)):
        return "refused"
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(pt(width) + 20, pt(height) + 20), pageCompression=0)
    for card in deck.cards:
        cards.draw_face(canvas, deck, card, 10, 10, pt(width), pt(height), pt(3))
        canvas.showPage()
    cards.draw_back(canvas, deck, 10, 10, pt(width), pt(height), pt(3))
    canvas.save()
    pdf = buffer.getvalue()
    assert b" nan " not in pdf and b" inf " not in pdf, "a NaN or an infinity reached the PDF"
    document = pypdfium2.PdfDocument(pdf)
    document[0].render(scale=0.2)
    document.close()
    return "drawn"


OUTCOMES: dict[str, int] = {}


@FUZZ
@given(layout=layouts())
def test_whatever_the_loader_passes_is_drawn(tmp_path_factory, layout):
    folder = tmp_path_factory.mktemp("fuzz")
    path = folder / "fuzz.toml"
    path.write_text(_deck_text(layout), encoding="utf-8")
    with deadline(20):
        try:
            outcome = _load_and_draw(path)
        except DeckgenError:
            outcome = "refused"
    OUTCOMES[outcome] = OUTCOMES.get(outcome, 0) + 1


def test_the_fuzzer_both_refuses_and_draws():
    """Not blind: over its examples the fuzzer reaches drawing as well as refusals (run after
    the fuzz test, in file order)."""
    if not OUTCOMES:
        pytest.skip("run with the fuzz test")
    assert OUTCOMES.get("drawn", 0) > 5 and OUTCOMES.get("refused", 0) > 5, OUTCOMES
