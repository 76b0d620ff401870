"""Property-based fuzzing (hypothesis): TOML re-spelt with every string form into the log
parser and the referee, and decks with random engine parameters, props and sizes into the
loader, the validator's checks and the engines. Whatever the input, the outcome is a result
or a deckgen error, never another exception and never a hang (each example runs under an
alarm as well as hypothesis's deadline)."""

from __future__ import annotations

import random
import tomllib

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from generator.core.errors import DeckgenError
from generator.games.base import game_for
from generator.games.logs import _ValuePositions, parse_log
from generator.games.referee import referee_file
from generator.games.simulate import play_game
from generator.deck.loader import check_deck, load_deck
from generator.validate.composition import check_composition

from tests.badinput import deadline, deck_text
from tests.conftest import DECKS
from tests.games.test_bad_logs import GOOD

WIZARD = load_deck(DECKS / "wizard.toml")
FUZZ = settings(max_examples=300, deadline=5000, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                         HealthCheck.too_slow])

# Characters that stress a TOML scanner: quotes of both kinds, backslashes, brackets, braces,
# comment and key punctuation, newlines, tabs, and a little beyond ASCII.
_TRICKY = st.lists(st.sampled_from(list("\"'\\[]{}#=.,\n\t abcé♥") + ['"""', "'''", '\\"', '\\\\']),
                  max_size=10).map("".join)


def _escape_basic(text: str, rng: random.Random, multiline: bool) -> str:
    out = []
    for char in text:
        if char == "\\":
            out.append("\\\\")
        elif char == '"':
            # A multi-line string may hold up to two quotes unescaped: `\"""` and `""\"` are legal.
            raw_run = len(out) >= 2 and out[-1] == out[-2] == '"'
            choice = rng.random()
            out.append('"' if multiline and choice < 0.4 and not raw_run else '\\"' if choice < 0.8 else '\\u0022')
        elif char == "\n":
            out.append("\n" if multiline and rng.random() < 0.7 else "\\n")
        elif char == "\t":
            out.append("\\t")
        elif rng.random() < 0.1:
            out.append(f"\\u{ord(char):04X}")
        else:
            out.append(char)
    return "".join(out)


def spell(text: str, form: int, rng: random.Random) -> str:
    """`text` as one of TOML's four string forms (falling back to a basic string where a
    literal form cannot hold it)."""
    if form == 1 and "'" not in text and "\n" not in text:
        return f"'{text}'"
    if form == 2:
        return '"""' + _escape_basic(text, rng, multiline=True) + '"""'
    if form == 3 and "'''" not in text and not text.endswith("'") and "\\" not in text[-1:]:
        return "'''" + text + "'''"
    return '"' + _escape_basic(text, rng, multiline=False) + '"'


@st.composite
def toml_values(draw, rng: random.Random):
    """(TOML text of a value, how many newlines it holds)."""
    kind = draw(st.integers(0, 3))
    if kind == 0:
        return spell(draw(_TRICKY), draw(st.integers(0, 3)), rng)
    if kind == 1:
        items = [spell(draw(_TRICKY), draw(st.integers(0, 3)), rng) for _ in range(draw(st.integers(0, 3)))]
        joiner = draw(st.sampled_from([", ", ",\n  ", " ,\n# a comment ] }\n "]))
        return "[" + joiner.join(items) + (",\n" if items and draw(st.booleans()) else "") + "]"
    if kind == 2:
        pairs = [f"{spell(draw(_TRICKY), 0, rng)} = {spell(draw(_TRICKY), draw(st.integers(0, 3)), rng)}"
                 for _ in range(draw(st.integers(0, 2)))]
        return "{ " + ", ".join(pairs) + " }"
    return draw(st.sampled_from(["1", "-7", "3.5", "true", "1979-05-27", "[[1, 2], [3]]", "inf"]))


@st.composite
def junk_documents(draw):
    """GOOD with a few extra top-level keys of awkward values, and the line each key is on."""
    rng = random.Random(draw(st.integers(0, 2**32)))
    header, body = GOOD.split("\n[[rounds]]", 1)
    lines = header.rstrip("\n").split("\n")
    keys = {}
    for index in range(draw(st.integers(1, 4))):
        key = f"junk{index}"
        value = draw(toml_values(rng))
        keys[key] = len(lines) + 1
        lines.extend(f"{key} = {value}".split("\n"))
    return "\n".join(lines) + "\n\n[[rounds]]" + body, keys


def _parses(text: str) -> bool:
    try:
        tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return False
    return True


@FUZZ
@given(junk_documents())
def test_line_finder_places_every_key_whatever_the_strings(document):
    text, keys = document
    if not _parses(text):
        return  # a spelling TOML itself refuses: nothing for the line finder to do
    with deadline(10):
        positions = _ValuePositions(text)
        for key, line in keys.items():
            assert positions.line(key) == line, (key, text)
        assert positions.line("rounds[0].tricks[0][1]") == text.split("\n").index('  ["3D", "KC", "3H"],') + 1


@FUZZ
@given(junk_documents())
def test_referee_reports_the_first_junk_key_on_its_line(document):
    text, keys = document
    if not _parses(text):
        return
    with deadline(10):
        try:
            parse_log(text, WIZARD, ("rounds",))
        except DeckgenError as error:
            problem = error.problem
            assert problem.field == "junk0" and problem.line == keys["junk0"], (str(problem), text)
        else:
            raise AssertionError("an unknown key was accepted")


@FUZZ
@given(st.lists(st.sampled_from(list("\"'\\[]{}#=.,\n\t ab1") + ['"""', "'''"]), max_size=40).map("".join))
def test_line_finder_never_loops_or_crashes_on_any_text(text):
    with deadline(10):
        positions = _ValuePositions(text)
        for field in ("a", "a[0]", "a.b", "rounds[0].tricks[1]", '"q"'):
            line = positions.line(field)
            assert line is None or 1 <= line <= text.count("\n") + 1


# -- decks -> loader -> validator's checks -> engine ------------------------------------------------

_ANY_VALUE = st.recursive(
    st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=8),
    lambda inner: st.one_of(st.lists(inner, max_size=3),
                            st.dictionaries(st.text(alphabet="abc3", min_size=1, max_size=3), inner, max_size=3)),
    max_leaves=6,
)


def _toml(value) -> str | None:
    """A value as TOML, or None for what TOML cannot hold (None)."""
    if value is None:
        return None
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        text = repr(value)
        return {"nan": "nan", "inf": "inf", "-inf": "-inf"}.get(text, text)
    if isinstance(value, str):
        return '"' + "".join(f"\\u{ord(c):04X}" if c in '"\\' or not c.isprintable() else c for c in value) + '"'
    if isinstance(value, list):
        items = [_toml(item) for item in value]
        return None if None in items else "[" + ", ".join(items) + "]"
    pairs = [(key, _toml(item)) for key, item in value.items()]
    return None if any(item is None for _, item in pairs) else "{ " + ", ".join(
        f'"{key}" = {item}' for key, item in pairs) + " }"


def _checked(path):
    try:
        return check_deck(path)
    except DeckgenError:  # unreadable: a clear error is the right outcome
        return None, []


ENGINE_DECKS = {
    "wizard": ["bidding", "bid_restriction", "tie_break"],
    "wizard-hearts": ["pass_count", "passing", "max_hands", "target_score", "cauldron"],
    "muggle-quidditch": ["houses", "hand_size", "draw_to", "max_turns", "keeper_rule"],
    "quidditch-v2": ["hand_size", "turn_cap", "snitch_start", "score_margin"],
}


@settings(max_examples=120, deadline=20000,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(deck=st.sampled_from(sorted(ENGINE_DECKS)), data=st.data())
def test_random_engine_parameters_are_refused_or_played(tmp_path_factory, deck, data):
    text = deck_text(deck)
    name = data.draw(st.sampled_from(ENGINE_DECKS[deck]))
    value = _toml(data.draw(_ANY_VALUE))
    if value is None:
        return
    lines = [line for line in text.split("\n") if not line.startswith(f"{name} =")]
    at = lines.index("[engine]") + 1
    lines.insert(at, f"{name} = {value}")
    path = tmp_path_factory.mktemp("fuzz") / f"{deck}.toml"
    path.write_text("\n".join(lines), encoding="utf-8")
    with deadline(30):
        loaded, problems = _checked(path)
        if loaded is None or any(p.severity == "error" for p in problems):
            return
        composition = check_composition(loaded)
        try:
            game = game_for(loaded)
        except DeckgenError:
            assert composition.problems, "the engine refused a deck the validator passed"
            return
        if any(p.severity == "error" for p in composition.problems):
            return
        players = loaded.min_players
        play_game(game, players, seed=1, bots=["random"] * players)


@settings(max_examples=80, deadline=20000,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(value=_ANY_VALUE, card=st.sampled_from(["props = { dominance = 3 }", "save_on = [5, 6]",
                                                "props = { speed = 2 }", "props = { heads = 2, lowest_bonus = 2"]))
def test_random_quidditch_props_are_refused_or_played(tmp_path_factory, value, card):
    spelled = _toml(value)
    if spelled is None:
        return
    text = deck_text("quidditch-v2")
    key = "save_on" if card == "save_on = [5, 6]" else card.split("{ ")[1].split(" =")[0]
    old = card if card.startswith("save_on") else card.split(", ")[0]
    assert old in text, old
    new = f"{key} = {spelled}" if key == "save_on" else old.replace(old.split("{ ")[1], f"{key} = {spelled}")
    path = tmp_path_factory.mktemp("fuzz") / "quidditch-v2.toml"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    with deadline(30):
        loaded, problems = _checked(path)
        if loaded is None or any(p.severity == "error" for p in problems):
            return
        try:
            game = game_for(loaded)
        except DeckgenError:
            assert check_composition(loaded).problems
            return
        for seed in (1, 2):
            play_game(game, 2, seed=seed, bots=["random", "random"])


@FUZZ
@given(st.lists(st.sampled_from(["KC", "3H", "3D", "AS", "JE", "WZ", "x", "", "kc", 3, True, ["KC"]]),
                min_size=0, max_size=5))
def test_referee_on_random_tricks_rules_or_refuses(tmp_path_factory, trick):
    played = _toml(trick)
    text = GOOD.replace('["3D", "KC", "3H"]', played, 1)
    path = tmp_path_factory.mktemp("fuzz") / "game.toml"
    path.write_text(text, encoding="utf-8")
    with deadline(10):
        try:
            referee_file(WIZARD, path)
        except DeckgenError:
            pass
