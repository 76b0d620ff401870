"""The MUSH game table on a real TinyMUX server, played by connected player characters.

The wizard pastes `deckgen export mush` output, as the deck's owner would; Alice, Bob and Carol
are ordinary player characters on their own sockets; Dave and Eve pass by. What each of them
receives is read from their own connection: answers, room messages, and what stays hidden.
"""

from __future__ import annotations

import random
import re

import pytest

from generator.deck.loader import load_deck
from generator.export.mush_table import card_label

from ..conftest import DECKS
from .mush_fixtures import players, server, wizard  # noqa: F401 (fixtures)
from .mush_table_support import act, get, load, zone

NAMES = ["Alice", "Bob", "Carol", "Dave", "Eve"]


@pytest.fixture
def load_table(run_cli, wizard, players, tmp_path):
    """Load a deck's table as the wizard; every table loaded is destroyed after the test."""
    loaded = []

    def load_deck_table(deck_id: str) -> str:
        loaded.append(load(run_cli, wizard, deck_id, tmp_path / str(len(loaded))))
        for client in players.values():
            client.sync()
        return loaded[-1]

    yield load_deck_table
    for thing in loaded:
        wizard.command(f"@destroy/instant {thing}")
    for client in players.values():
        client.sync()


@pytest.fixture
def table(load_table):
    return load_table("quidditch-v2")


def dbref(wizard, name: str) -> str:
    return wizard.command(f"think [num(*{name})]")[1:]


def heard(players, everyone_but: str) -> dict[str, str]:
    """What every other character received since they last looked."""
    return {name: client.sync() for name, client in players.items() if name != everyone_but}


def test_counters_are_numbers_for_every_sign(wizard, players, table):
    """+score adds and takes away on the number, from -1000 to 1000 (the whole range through the
    table's function, a seeded sample through the command players type)."""
    checked = wizard.command(
        f"think [iter(lnum(-1000,1000),if(not(and(eq(u({table}/FN.NEWVALUE,##,+7),add(##,7)),"
        f"eq(u({table}/FN.NEWVALUE,##,-1000),sub(##,1000)),eq(u({table}/FN.NEWVALUE,##,+1000),add(##,1000)),"
        f"eq(u({table}/FN.NEWVALUE,##,abs(##)),abs(##)))),##))]")
    assert checked.split() == []  # no value from -1000 to 1000 goes wrong
    for old in range(-1000, 1001, 125):
        for typed, expected in ((f"+{abs(old)}", old + abs(old)), ("-5", old - 5), ("+20", old + 20),
                                (str(abs(old)), abs(old)), (f"-{abs(old)}", old - abs(old))):
            assert wizard.command(f"think [u({table}/FN.NEWVALUE,{old},{typed})]") == str(expected), (old, typed)
    alice, bob = players["Alice"], players["Bob"]
    act(alice, "+sit"), act(bob, "+sit"), act(alice, "+start")
    rng = random.Random(36)
    value = 0
    for _step in range(40):
        typed = rng.choice([f"+{rng.randint(0, 1000)}", f"-{rng.randint(0, 1000)}", str(rng.randint(-1000, 1000))])
        value = value + int(typed) if typed[0] in "+-" else int(typed)
        assert act(alice, f"+score {typed}") == f"Your score is now {value}."
    for bad in ("lots", "+", "--5", "+-5", "1.5", "1234567890"):
        assert act(alice, f"+score {bad}").startswith("Give a whole number"), bad
    assert f"Alice (hand 5, score {value}, dominance 0" in act(bob, "+table")


def test_the_table_is_locked_to_its_room_and_owner(wizard, players, table):
    dave = players["Dave"]
    assert act(dave, "get Quidditch v2 Deck") == "You can’t pick that up."
    act(dave, f"@tel {table}=me"), act(dave, f"@destroy {table}"), act(dave, "drop Quidditch v2 Deck")
    assert wizard.command(f"think [loc({table})] [hasflag({table},going)]") == wizard.command("think [loc(me)] 0")
    assert act(players["Alice"], "+sit").startswith("You sit down")
    assert act(players["Alice"], "+hand") == "Your hand is empty."


def test_seats_close_when_the_game_starts_and_only_a_vote_reopens_one(wizard, players, table):
    alice, bob, carol, dave, eve = (players[name] for name in NAMES)
    assert act(alice, "+start").startswith("You are not seated")
    act(alice, "+sit")
    assert act(alice, "+draw").startswith("The game at the Quidditch v2 table has not started: type +start when 2 to 6")
    assert act(alice, "+start") == "A game of Quidditch v2 is for 2 to 6 players: 1 is seated."
    act(bob, "+sit")
    started = act(bob, "+start")
    assert started.startswith("Bob starts a game of Quidditch v2 for Alice, Bob. The seats are closed: newcomers watch.")
    assert re.search(r"(Alice|Bob) takes the first turn\. Each player is dealt 5 cards", started)
    # Newcomers watch: they cannot sit, vote, or touch a card.
    assert act(dave, "+sit").startswith("A game is being played at the Quidditch v2 table and its seats are closed")
    assert act(eve, "+reset").startswith("Only the deck's owner (Wizard) or a majority of the players seated when")
    in_play = zone(wizard, table, "CENTRE")
    assert act(dave, f"+destroy {in_play[0]}").startswith("You are not seated")
    # A reset needs a majority of the two who started: one vote is not enough.
    assert act(alice, "+reset") == "You ask for a new game: 1 of 2 players agree and 2 are needed."
    assert len(zone(wizard, table, f"HAND.{dbref(wizard, 'Alice')}")) == 5
    # A leaver's seat waits; a newcomer asks, and only the players still seated decide.
    act(bob, "+stand")
    assert zone(wizard, table, f"HAND.{dbref(wizard, 'Bob')}")  # Bob's cards wait in his seat
    assert act(dave, "+sit").startswith("You ask to take the empty seat of Bob")
    assert act(eve, "+admit Dave").startswith("You are not seated")
    assert "Dave takes the seat of Bob, with its hand, cards and counters." in act(alice, "+admit Dave")
    assert act(dave, "+hand").startswith("Your hand:") and len(act(dave, "+hand").split("\n")) == 6
    assert zone(wizard, table, "SEATS") == [f"#{dbref(wizard, 'Alice')}", f"#{dbref(wizard, 'Dave')}"]
    assert act(bob, "+sit").startswith("A game is being played")  # his seat is Dave's now
    # Dave inherits Bob's vote right: Alice and Dave make the majority.
    assert act(dave, "+reset").startswith("Dave resets the Quidditch v2 table: the game is over")
    assert zone(wizard, table, "SEATS") == [f"#{dbref(wizard, 'Alice')}", f"#{dbref(wizard, 'Dave')}"]
    assert get(wizard, table, "GAME") == ""
    for name in ("Alice", "Dave"):
        act(players[name], "+stand")


def test_every_message_reaches_every_other_character_whole(wizard, players, table):
    """Messages with what used to be cut at a semicolon: standing up, both vote messages, a leaver."""
    alice, bob = players["Alice"], players["Bob"]
    act(alice, "+sit")
    heard(players, "")
    expected = {
        ("Bob", "+sit"): "Bob sits down at the Quidditch v2 table.",
        ("Bob", "+stand"): "Bob stands up from the Quidditch v2 table. Their cards go to the discard pile.",
    }
    for (name, line), message in expected.items():
        act(players[name], line)
        for other, text in heard(players, name).items():
            assert text == message, (line, other, text)
    act(bob, "+sit"), act(alice, "+start")
    heard(players, "")
    act(alice, "+reset")
    for other, text in heard(players, "Alice").items():
        assert text == ("Alice asks for a new game at the Quidditch v2 table: 1 of 2 players agree and 2 are "
                        "needed. Players, type +reset to agree."), other
    act(bob, "+stand")
    for other, text in heard(players, "Bob").items():
        assert text == ("Bob leaves the Quidditch v2 table. Their seat is empty: someone may ask for it with +sit, "
                        "and the players decide with +admit."), other
    act(players["Carol"], "+sit")
    heard(players, "")
    act(alice, "+admit Carol")
    for other, text in heard(players, "Alice").items():
        assert text == "The players at the Quidditch v2 table agree: Carol takes the seat of Bob, with its hand, "\
                       "cards and counters.", other
    act(alice, "+reset"), act(players["Carol"], "+reset")
    assert all(text.endswith("+log shows the last game.") for text in heard(players, "Carol").values())
    act(alice, "+stand"), act(players["Carol"], "+stand")


def test_quidditch_v2_moves(wizard, players, table):
    """Quaffle possession (never destroyed), die and coin announced, Search, who played what."""
    alice, bob, carol = players["Alice"], players["Bob"], players["Carol"]
    deck = load_deck(DECKS / "quidditch-v2.toml")
    copies = list(deck.copies())
    label = {str(number): f"{number}: {card_label(card)}" for number, card in enumerate(copies, start=1)}
    quaffle = next(str(n) for n, card in enumerate(copies, start=1) if card.props.get("ball") == "quaffle")
    a, b = dbref(wizard, "Alice"), dbref(wizard, "Bob")
    act(alice, "+sit"), act(bob, "+sit"), act(alice, "+start")
    heard(players, "")
    assert act(alice, "+quaffle") == "Alice takes control of the Quaffle from the centre."  # told to the room
    assert heard(players, "Alice")["Bob"] == "Alice takes control of the Quaffle from the centre."
    assert zone(wizard, table, f"PLAY.{a}") == [quaffle]
    assert "Alice (hand 5, score 0, dominance 0, controls the Quaffle)." in act(carol, "+table")
    for move in ("+destroy Quaffle", "+discard Quaffle", "+take Quaffle"):
        assert act(bob if move == "+destroy Quaffle" else alice, move) == \
            f"{label[quaffle]} can never be destroyed or leave play (rule 5.3)."
    act(bob, "+quaffle")
    assert heard(players, "Bob")["Carol"] == "Bob takes control of the Quaffle from Alice."
    act(alice, "+quaffle/centre")
    assert zone(wizard, table, "CENTRE")[0] == quaffle
    heard(players, "")
    for command, pattern in (("+roll", r"Alice rolls a die at the Quidditch v2 table: [1-6]\."),
                             ("+flip", r"Alice flips a coin at the Quidditch v2 table: (heads|tails)\.")):
        assert re.fullmatch(pattern, act(alice, command))
        for text in heard(players, "Alice").values():
            assert re.fullmatch(pattern, text), text
    top = zone(wizard, table, "DRAWPILE")[:5]
    act(bob, "+search")
    seen = heard(players, "")["Carol"]
    assert seen.startswith("Bob searches and turns up " + ", ".join(label[n].split(": ", 1)[1] for n in top))
    assert zone(wizard, table, "DISCARDS")[-5:] == top and len(zone(wizard, table, "DRAWPILE")) == 56 - 2 - 10 - 5
    played = zone(wizard, table, f"HAND.{b}")[0]
    act(bob, f"+play/centre {played}")
    assert f"{label[played]} (played by Bob)" in act(carol, "+table")
    act(alice, "+reset"), act(bob, "+reset")
    act(alice, "+stand"), act(bob, "+stand")


def test_player_counts_come_from_the_deck(wizard, players, load_table):
    load_table("wizard")
    alice, bob = players["Alice"], players["Bob"]
    act(alice, "+sit"), act(bob, "+sit")
    assert act(alice, "+start") == "A game of Wizard is for 3 to 6 players: 2 are seated."
    assert act(alice, "+round 1").startswith("The game at the Wizard table has not started")
    act(alice, "+stand"), act(bob, "+stand")


def test_wizard_hearts_turns_up_the_shun_suit_and_keeps_a_trick_pile_per_player(wizard, players, load_table):
    table = load_table("wizard-hearts")
    alice, bob, carol = players["Alice"], players["Bob"], players["Carol"]
    for client in (alice, bob, carol):
        act(client, "+sit")
    act(alice, "+start")
    heard(players, "")
    act(alice, "+round")
    shown = heard(players, "Alice")["Dave"]
    match = re.fullmatch(r"Alice deals a new hand\. Turned up: (.*)\. The Shun suit is (\w+)\. The cards go back, are "
                         r"shuffled, and each player is dealt 32 \(2 stay face down in the Cauldron\)\. Type \+hand "
                         r"to see yours\.", shown)
    assert match, shown
    turned = match[1].split(", ")
    assert all("Luck" in card for card in turned[:-1]) and "Luck" not in turned[-1] and match[2] in turned[-1]
    assert get(wizard, table, "LOG.2") == "hand Alice" and get(wizard, table, "LOG.3").startswith("shun Alice ")
    seats = {name: dbref(wizard, name) for name in ("Alice", "Bob", "Carol")}
    assert all(len(zone(wizard, table, f"HAND.{seat}")) == 32 for seat in seats.values())
    for name, seat in seats.items():
        act(players[name], f"+play {zone(wizard, table, f'HAND.{seat}')[0]}")
    centre = zone(wizard, table, "CENTRE")
    assert act(bob, "+trick").startswith("You take the trick: ")
    assert zone(wizard, table, f"TRICKS.{seats['Bob']}") == centre
    assert act(bob, "+tricks").startswith("Your trick pile, 3 cards:")
    assert act(alice, "+tricks") == "Your trick pile is empty."
    assert "Bob (hand 31, score 0, trick pile 3 cards)" in act(carol, "+table")
    act(alice, "+reset"), act(bob, "+reset")
    for client in (alice, bob, carol):
        act(client, "+stand")
