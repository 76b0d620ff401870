"""The MUSH game table played on a real TinyMUX server by two connected players and a bystander.

The wizard pastes `deckgen export mush` output, as the deck's owner would; Alice and Bob are
ordinary player characters who connect over their own sockets, sit down and play; Carol
watches. Every command of the table is used, and what each player may see is checked from
the other's connection.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from generator.export.mush_table import card_label
from generator.deck.loader import load_deck

from tests.conftest import DECKS
from tests.mushserver import MushClient, MushServer, tinymux_installed

PLAYERS = {"Alice": "alicepw", "Bob": "bobpw", "Carol": "carolpw"}


@pytest.fixture(scope="module")
def server():
    if not tinymux_installed():
        if os.environ.get("CI"):
            pytest.fail("TinyMUX is not installed on CI: run .ci/install-tinymux.sh before pytest")
        pytest.skip("TinyMUX is not installed (sudo .ci/install-tinymux.sh); CI runs these tests")
    with MushServer() as mush:
        yield mush


@pytest.fixture(scope="module")
def wizard(server):
    with server.client() as client:
        for name, password in PLAYERS.items():
            client.command(f"@pcreate {name}={password}")
            client.command(f"@tel *{name}=here")  # new players start in Limbo, the wizard elsewhere
        yield client


@pytest.fixture(scope="module")
def players(server, wizard):
    clients = {name: server.client(name=name, password=password, queue_watcher=wizard)
               for name, password in PLAYERS.items()}
    yield clients
    for client in clients.values():
        client.close()


def load(run_cli, wizard: MushClient, deck_id: str, out: Path) -> str:
    """Export a deck with the CLI and paste it as the wizard; return the new object's dbref."""
    assert run_cli("export", "mush", deck_id, "--decks-dir", DECKS, "-o", out).exit_code == 0
    path = out / deck_id / f"{deck_id}.mush"
    output = wizard.send_file(path)
    match = re.search(r"^Loaded the .* deck as (#\d+): (\d+) cards\. Type \+deckhelp\.$", output, re.MULTILINE)
    assert match and "FAILED" not in output, output
    return match[1]


def act(player: MushClient, line: str) -> str:
    """What the player sees in answer to `line`: messages other players caused before are read first."""
    player.sync()
    return player.command(line)


def get(wizard: MushClient, thing: str, attribute: str) -> str:
    shown = wizard.command(f"think <[get({thing}/{attribute})]>")
    return shown[1:-1]


def dbref(wizard: MushClient, name: str) -> str:
    return wizard.command(f"think [num(*{name})]")


def zone(wizard: MushClient, thing: str, attribute: str) -> list[str]:
    return get(wizard, thing, attribute).split()


@pytest.fixture
def qv2(run_cli, wizard, players, tmp_path):
    thing = load(run_cli, wizard, "quidditch-v2", tmp_path)
    yield thing
    for client in players.values():
        client.command("+stand")
    wizard.command(f"@destroy/override {thing}")


def test_two_players_play_quidditch_v2(wizard, players, qv2):
    alice, bob, carol = players["Alice"], players["Bob"], players["Carol"]
    deck = load_deck(DECKS / "quidditch-v2.toml")
    copies = list(deck.copies())
    label = {str(number): f"{number}: {card_label(card)}" for number, card in enumerate(copies, start=1)}
    number_of = {card.name: str(number) for number, card in reversed(list(enumerate(copies, start=1)))}
    a, b = dbref(wizard, "Alice")[1:], dbref(wizard, "Bob")[1:]

    # The deck's setup: the Quaffle face up in the centre, the Snitch first on the discard pile.
    assert zone(wizard, qv2, "CENTRE") == [number_of["Quaffle"]]
    assert zone(wizard, qv2, "DISCARDS") == [number_of["Golden Snitch"]]
    assert len(zone(wizard, qv2, "DRAWPILE")) == len(copies) - 2
    table = act(carol, "+table")
    assert f"Centre: {label[number_of['Quaffle']]}" in table
    assert f"Discard pile: 1 card, top card {label[number_of['Golden Snitch']]}." in table

    # Only seated players act.
    assert act(carol, "+draw").startswith("You are not seated at the Quidditch v2 table")
    assert act(alice, "+sit") == "You sit down at the Quidditch v2 table. Seated: Alice."
    assert act(bob, "+sit") == "You sit down at the Quidditch v2 table. Seated: Alice, Bob."
    assert "You are already seated" in act(bob, "+sit")

    # Alice deals; both draw.
    assert act(alice, "+deal 5").startswith("You deal 5 cards to each seated player: Alice, Bob.")
    assert len(zone(wizard, qv2, f"HAND.{a}")) == len(zone(wizard, qv2, f"HAND.{b}")) == 5
    top = zone(wizard, qv2, "DRAWPILE")[0]
    assert act(alice, "+draw").startswith(f"You draw {label[top]}")
    assert act(bob, "+draw").startswith("You draw ")
    alice_hand = zone(wizard, qv2, f"HAND.{a}")
    assert len(alice_hand) == 6 and top in alice_hand
    assert act(alice, "+hand") == "Your hand:\n" + "\n".join(label[n] for n in alice_hand)
    # Bob sees his own hand only.
    bob_hand = zone(wizard, qv2, f"HAND.{b}")
    assert act(bob, "+hand") == "Your hand:\n" + "\n".join(label[n] for n in bob_hand)

    # Alice plays a Thing face up in front of her; Bob sees it on +table, not her hand. (The
    # wizard hands her a known Thing and a known Action from the draw pile first. The Thing is
    # played by name, so it is one with no other copy in her hand: a name plays the first copy
    # it finds there, whichever the deal gave her.)
    pile = zone(wizard, qv2, "DRAWPILE")
    held_names = {copies[int(n) - 1].name for n in alice_hand}
    played = next(n for n in pile if copies[int(n) - 1].kind == "thing" and copies[int(n) - 1].name not in held_names)
    action = next(n for n in pile if copies[int(n) - 1].kind == "action")
    for number in (played, action):
        wizard.command(f"think [u({qv2}/FN.MOVE,{number},HAND.{a})]")
    assert act(alice, f"+play {action}") == f"You play {label[action]} onto the discard pile: it is an Action."
    assert zone(wizard, qv2, "DISCARDS")[-1] == action
    alice_hand = zone(wizard, qv2, f"HAND.{a}")
    assert len(alice_hand) == 7
    played_name = copies[int(played) - 1].name
    assert act(alice, f"+play {played_name.upper()}") == f"You play {label[played]} in front of you."
    bob_table = act(bob, "+table")
    assert f"Alice (hand 6, score 0, dominance 0). In play: {label[played]}" in bob_table
    assert "Bob (hand 6, score 0, dominance 0). In play: nothing" in bob_table
    alice_hand = zone(wizard, qv2, f"HAND.{a}")
    for hidden in alice_hand:
        assert label[hidden] not in bob_table
        assert act(bob, f"+card {hidden}").startswith("You can see no card")
    assert act(bob, f"+card {played}").startswith(f"Card {label[played]}")
    assert "PERMISSION DENIED" in act(bob, f"think [get({qv2}/HAND.{a})]")
    assert label[alice_hand[1]] not in act(bob, f"examine {qv2}")

    # Counters: whole numbers set or change them; everyone sees them on +table.
    assert act(alice, "+score +10") == "Your score is now 10."
    assert act(alice, "+dominance 3") == "Your dominance is now 3."
    assert act(alice, "+dominance -1") == "Your dominance is now 2."
    assert act(alice, "+score lots").startswith("Give a whole number")
    assert "Alice (hand 6, score 10, dominance 2)." in act(carol, "+table")
    assert act(carol, "+score 100").startswith("You are not seated")

    # Take back, play to the centre, destroy, discard, give, reveal.
    assert act(alice, f"+take {played}") == f"You take {label[played]} back into your hand."
    assert act(alice, f"+play/centre {played}") == f"You play {label[played]} to the centre."
    assert zone(wizard, qv2, "CENTRE") == [number_of["Quaffle"], played]
    assert act(bob, f"+take {played}").startswith("You have no card")  # not his to take back
    assert act(bob, f"+destroy {played}") == f"You destroy {label[played]}: it goes to the discard pile."
    assert zone(wizard, qv2, "DISCARDS")[-1] == played
    given = bob_hand[0]
    assert act(bob, f"+give {given}=Carol").startswith("No seated player is called")
    assert act(bob, f"+give {given}=Alice") == f"You give {label[given]} to Alice."
    assert given in zone(wizard, qv2, f"HAND.{a}") and given not in zone(wizard, qv2, f"HAND.{b}")
    discarded = zone(wizard, qv2, f"HAND.{b}")[0]
    assert act(bob, f"+discard {discarded}") == f"You discard {label[discarded]}."
    revealed = act(bob, "+reveal")
    assert revealed.startswith("You reveal your hand: ")
    assert all(label[n] in revealed for n in zone(wizard, qv2, f"HAND.{b}"))
    # Text a player escapes on the command line stays text inside the table's code (unescaped,
    # the player's own line runs as the player, before any $-command sees it).
    assert act(bob, r"+discard \[pemit(me\,PWNED)\]") == 'You have no card "[pemit(me,PWNED)]" in your hand or in play. Type +hand or +table to see them.'
    assert "PWNED" not in act(bob, "+play a,b;c")

    # Resetting: refused to a bystander; a lone seated player's vote is not a majority.
    assert act(carol, "+reset").startswith("Only the deck's owner (Wizard) or a majority")
    assert act(bob, "+reset").startswith("You ask for a reset: 1 of 2 seated players want one")
    assert len(zone(wizard, qv2, f"HAND.{a}")) == 7
    assert act(alice, "+reset").startswith("Alice resets the Quidditch v2 table")
    assert zone(wizard, qv2, f"HAND.{a}") == zone(wizard, qv2, f"HAND.{b}") == []
    assert zone(wizard, qv2, "CENTRE") == [number_of["Quaffle"]]
    assert zone(wizard, qv2, "DISCARDS") == [number_of["Golden Snitch"]]
    assert "Alice (hand 0, score 0, dominance 0)" in act(carol, "+table")

    # The owner resets at once, seated or not.
    act(alice, "+draw")
    assert "Wizard resets the Quidditch v2 table" in wizard.command("+reset")
    assert zone(wizard, qv2, f"HAND.{a}") == []

    # Standing up returns a player's cards; the shuffle brings the discard pile back.
    act(alice, "+draw")
    assert act(alice, "+stand").startswith("You stand up.")
    assert len(zone(wizard, qv2, "DISCARDS")) == 2
    assert act(bob, "+shuffle") == f"You shuffle the discard pile into the draw pile: {len(copies) - 1} cards."
    assert "+deal <n>" in act(carol, "+deckhelp")


def test_wizard_rounds_deal_and_turn_up_trump(run_cli, wizard, players, tmp_path):
    thing = load(run_cli, wizard, "wizard", tmp_path)
    alice, bob = players["Alice"], players["Bob"]
    a = dbref(wizard, "Alice")[1:]
    try:
        act(alice, "+sit")
        act(bob, "+sit")
        assert act(players["Carol"], "+round 3").startswith("You are not seated")
        shown = act(alice, "+round 3")
        assert shown.startswith("You shuffle all 60 cards and deal 3 to each seated player. Trump card: ")
        assert len(zone(wizard, thing, f"HAND.{a}")) == 3 and len(zone(wizard, thing, "TRUMP")) == 1
        assert len(zone(wizard, thing, "DRAWPILE")) == 60 - 7
        assert "Trump card: " in act(bob, "+table")
        assert act(alice, "+round 2").startswith("Players still hold cards")
        assert act(alice, "+bid 2") == "Your bid is now 2."
        card = zone(wizard, thing, f"HAND.{a}")[0]
        assert act(alice, f"+play {card}").endswith("to the centre.")  # a trick game plays to the centre
        assert zone(wizard, thing, "CENTRE") == [card]
        assert act(bob, "+trick").startswith("You take the trick: ")
        assert act(bob, "+table").count("tricks 1") == 1
        assert "Bob (hand 3, bid 0, tricks 1, score 0)" in act(bob, "+table")
    finally:
        act(alice, "+stand")
        act(bob, "+stand")
        wizard.command(f"@destroy/override {thing}")


def test_a_rules_deck_of_a_designer_deals_and_counts_by_its_own_rules(run_cli, wizard, players, tmp_path):
    """Hearts from examples/rules, a game written in TOML alone: its table turns up no trump and
    counts what its [rules] count (a score, no bids), and tricks still go to the winner's pile."""
    deck = Path(__file__).resolve().parents[2] / "examples" / "rules" / "hearts.toml"
    assert run_cli("export", "mush", deck, "-o", tmp_path).exit_code == 0
    output = wizard.send_file(tmp_path / "hearts" / "hearts.mush")
    match = re.search(r"^Loaded the .* deck as (#\d+): 52 cards\. Type \+deckhelp\.$", output, re.MULTILINE)
    assert match and "FAILED" not in output, output
    thing = match[1]
    alice, bob = players["Alice"], players["Bob"]
    a = dbref(wizard, "Alice")[1:]
    try:
        act(alice, "+sit")
        act(bob, "+sit")
        assert act(alice, "+round 13") == "You shuffle all 52 cards and deal 13 to each seated player."
        assert len(zone(wizard, thing, f"HAND.{a}")) == 13 and zone(wizard, thing, "TRUMP") == []
        assert get(wizard, thing, "COUNTERS") == "score"
        help_text = act(players["Carol"], "+deckhelp")
        assert "+score <n>" in help_text and "+bid" not in help_text  # no bids in Hearts and "+tricks" not in help_text
        card = zone(wizard, thing, f"HAND.{a}")[0]
        assert act(alice, f"+play {card}").endswith("to the centre.")
        assert act(bob, "+trick").startswith("You take the trick: ")
        assert act(bob, "+score 3") == "Your score is now 3."
        assert act(bob, "+table").endswith("Alice (hand 12, score 0). In play: nothing\nBob (hand 13, score 3). In play: nothing")
    finally:
        act(alice, "+stand")
        act(bob, "+stand")
        wizard.command(f"@destroy/override {thing}")
