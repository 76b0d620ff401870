"""Game-log reading and writing: field paths, the line each field is on, and a written
log read back (names with spaces, quotes and accents included)."""

from __future__ import annotations

import tomllib

import pytest

from generator.games.base import game_for
from generator.games.logs import MalformedLog, dump_log, field_path, parse_log
from generator.games.referee import referee
from generator.games.simulate import game_log_text, play_game
from generator.deck.loader import load_deck

from tests.conftest import DECKS

WIZARD = load_deck(DECKS / "wizard.toml")

TEXT = '''deck = "wizard"
players = ["Ann", "Bo Ray",
  "Cy"]

[params]
tie_break = "shared"

[[rounds]]
dealer = "Ann"
hands."Bo Ray" = ["7H", "QS"]
bids = { Ann = 1, "Bo Ray" = 0 }
tricks = [
  ["7H", "JE", "QS"],  # a comment with ] and , in it
  { lead = "Cy", cards = ["2S",
                          "3S"] },
]

[[rounds]]
dealer = "Bo Ray"
'''


@pytest.mark.parametrize("field, line", [
    ("deck", 1), ("players[2]", 3), ("params.tie_break", 6), ("rounds[0]", 8), ('rounds[0].hands."Bo Ray"[1]', 10),
    ('rounds[0].hands', 10), ('rounds[0].bids."Bo Ray"', 11), ("rounds[0].tricks[0][2]", 13),
    ("rounds[0].tricks[1].lead", 14), ("rounds[0].tricks[1].cards[1]", 15), ("rounds[1].dealer", 19),
    ("rounds[5]", None),
])
def test_line_of_each_field(field, line):
    log = parse_log(TEXT, WIZARD, ("rounds",))
    assert log.line(field) == line


def test_field_paths_quote_what_needs_it():
    assert field_path("rounds[0].hands", "Bo Ray") == 'rounds[0].hands."Bo Ray"'
    assert field_path("", "players") == "players" and field_path("rounds", 2) == "rounds[2]"


def test_dump_reads_back_as_the_same_data():
    header = {"deck": "wizard", "players": ["Anna Lee", 'Bo "B"', "Çelik"]}
    body = {"rounds": [{"dealer": "Anna Lee", "hands": {"Anna Lee": ["7H"], 'Bo "B"': ["8H"], "Çelik": ["9H"]},
                        "bids": {"Anna Lee": 0, 'Bo "B"': 1, "Çelik": 0}, "tricks": [["7H", "8H", "9H"]]}]}
    text = dump_log(header, body, comments=["a comment"])
    assert text.startswith("# a comment\n")
    assert tomllib.loads(text) == {**header, **body}


def test_saved_log_with_awkward_names_replays():
    game = game_for(WIZARD)
    record, actions = play_game(game, 3, 1, ["random"] * 3, keep_actions=True)
    names = ["Anna Lee", 'Bo "B" Ray', "Çelik"]
    report = referee(parse_log(game_log_text(game, names, actions), WIZARD, ("rounds",)))
    assert report.legal and report.scores == list(record.scores)


def test_malformed_values_name_their_field():
    bad = TEXT.replace('bids = { Ann = 1, "Bo Ray" = 0 }', 'bids = { Ann = 1, "Bo Ray" = "none", Cy = 0 }')
    bad = bad.replace('hands."Bo Ray" = ["7H", "QS"]\n', 'hands.Ann = ["2C"]\nhands."Bo Ray" = ["7H"]\nhands.Cy = ["3C"]\nturned = "JE"\n')
    bad = bad.replace("[[rounds]]\ndealer = \"Bo Ray\"\n", "")
    with pytest.raises(MalformedLog) as caught:
        referee(parse_log(bad, WIZARD, ("rounds",)))
    problem = caught.value.problem
    assert problem.field == 'rounds[0].bids."Bo Ray"' and problem.line == 14 and "a bid must be" in problem.message
