"""The MUSH table in its room: who may paste it where, several tables side by side, updating a
table, its rules and its journal. On a real TinyMUX with connected player characters."""

from __future__ import annotations

import re

import pytest

from ..conftest import DECKS
from .mush_fixtures import players, server, wizard  # noqa: F401 (fixtures)
from .mush_table_support import act, get, load

NAMES = ["Builder", "Alice", "Bob", "Carol"]


@pytest.fixture
def export(run_cli, tmp_path):
    def export_deck(deck_id: str):
        assert run_cli("export", "mush", deck_id, "--decks-dir", DECKS, "-o", tmp_path).exit_code == 0
        return tmp_path / deck_id / f"{deck_id}.mush"
    return export_deck


def loaded_as(output: str) -> str:
    match = re.search(r"^Loaded the .* deck as (#\d+): \d+ cards\. Type \+deckhelp\.$", output, re.MULTILINE)
    assert match and "FAILED" not in output, output
    return match[1]


def test_a_builder_places_the_table_in_a_room_they_do_not_control(wizard, players, export):
    """The issue's case: a player without rights over the room; `drop` places what `tel()` could not."""
    builder = players["Builder"]
    thing = loaded_as(builder.send_file(export("wizard")))
    assert wizard.command(f"think [loc({thing})] [owner({thing})]") == \
        f"{wizard.command('think [loc(*Builder)]')} {wizard.command('think [num(*Builder)]')}"
    assert act(players["Alice"], "get Wizard Deck") == "You can’t pick that up."
    act(builder, f"@destroy {thing}")


def test_a_paste_that_cannot_place_the_table_says_so_and_undoes_itself(wizard, players, export):
    """A room whose drop-to sends dropped things elsewhere: the table never stands here."""
    builder = players["Builder"]
    hall = wizard.command("@dig/teleport Windy Hall").split("created as room ")[-1].split(".")[0]
    limbo = wizard.command("think [num(#0)]")
    wizard.command(f"@link here={limbo}")  # everything dropped here goes to Limbo
    wizard.command(f"@tel *Builder={hall}")
    try:
        output = builder.send_file(export("wizard"))
        assert "FAILED: the table could not be put down in this room (see the message above): it is destroyed again." \
            in output, output
        assert "Loaded the" not in output
        made = re.search(r"Loading the Wizard deck into (#\d+)\.\.\.", output)[1]
        assert wizard.command(f"think [hasflag({made},going)]") == "1" or \
            wizard.command(f"think [isdbref({made})]") == "0"
        assert wizard.command("think [v(*Builder/DECKGEN.DECK)][v(*Builder/DECKGEN.MODE)]") == ""
    finally:
        wizard.command(f"@tel *Builder={wizard.command('think [loc(*Alice)]')}")
        wizard.command(f"@tel me={wizard.command('think [loc(*Alice)]')}")


def test_several_tables_in_one_room_answer_by_name(run_cli, wizard, players, tmp_path):
    alice, bob, carol = players["Alice"], players["Bob"], players["Carol"]
    first = load(run_cli, wizard, "wizard", tmp_path / "a")
    second = load(run_cli, wizard, "quidditch-v2", tmp_path / "b")
    third = load(run_cli, wizard, "wizard", tmp_path / "c")
    try:
        assert [get(wizard, thing, "TABLENAME") for thing in (first, second, third)] == \
            ["wizard", "quidditch-v2", "wizard-2"]
        which = act(carol, "+table")  # one answer, not three
        assert which == ("There are 3 game tables here: wizard, quidditch-v2, wizard-2. Name the one you mean, as in "
                         "+table wizard or +sit wizard, and your commands go to it.")
        assert act(alice, "+sit quidditch-v2") == "You sit down at the Quidditch v2 table. Seated: Alice."
        assert act(alice, "+hand") == "Your hand is empty."  # her commands go to her table only
        assert act(alice, "+sit wizard") == "You are seated at another table here: +stand there first."
        assert act(bob, "+sit wizard-2").endswith("Seated: Bob.")
        assert act(carol, "+table wizard-2").startswith("The Wizard table, called wizard-2 here")
        assert act(carol, "+rules").startswith("Rules of Wizard.")  # she named wizard-2 last
        assert act(carol, "+rules quidditch-v2 8.6").startswith("8.6 Search\n")
        assert act(carol, "+deckhelp").startswith("The Quidditch v2 table")  # and now quidditch-v2
        assert act(carol, "+sit nowhere") == ('There is no game table called "nowhere" here. Tables here: wizard, '
                                              'quidditch-v2, wizard-2.')
        assert get(wizard, first, "SEATS") == "" and get(wizard, third, "SEATS").split() == \
            [wizard.command("think [num(*Bob)]")]
    finally:
        for name in ("Alice", "Bob"):
            act(players[name], "+stand")
        for thing in (first, second, third):
            wizard.command(f"@destroy/instant {thing}")


def test_rules_and_the_journal(run_cli, wizard, players, tmp_path):
    alice, bob, carol = players["Alice"], players["Bob"], players["Carol"]
    thing = load(run_cli, wizard, "muggle-quidditch", tmp_path)
    try:
        index = act(carol, "+rules")
        assert index.startswith("Rules of Muggle Quidditch. Type +rules and a number")
        assert "\n6 Scoring goals: 6.1 A pair that makes twelve, 6.2 No Chaser, no goal, 6.3 The defending Keeper" \
            in index
        assert act(carol, "+rules 6.2") == "6.2 No Chaser, no goal\nYou may only score while a Chaser (a Queen " \
                                           "of any suit) stands on your team."
        assert act(carol, "+rules mq.goal.chaser").startswith("6.2 No Chaser, no goal")
        assert act(carol, "+rules keeper").startswith("Several rules match \"keeper\": ")
        assert act(carol, "+rules quaffle cannon") == ('No rule of the Muggle Quidditch game matches "quaffle cannon".'
                                                      " Type +rules for the list of its rules.")
        assert act(carol, "+log") == "Nothing has been played at the Muggle Quidditch table yet."
        act(alice, "+sit"), act(bob, "+sit"), act(alice, "+start")
        act(alice, "+house gryffindor"), act(alice, "+draw")
        assert act(carol, "+log").startswith("The journal of a game in play holds every hand")
        assert act(alice, "+log").startswith("The journal of a game in play")
        assert act(alice, "+log 0") .startswith("The journal of a game in play")
        owner_view = wizard.command(f"think [u({thing}/FN.LOGPAGE,1)]")  # the owner may look at any time
        assert re.match(r"Journal of the Muggle Quidditch table: entries 1 to 6 of 6\.\n1: start Alice Bob\n"
                        r"2: order( \w+){54}\n3: deal Alice( \w+){6}\n4: deal Bob( \w+){6}\n5: house Alice hearts\n"
                        r"6: draw Alice \w+$", owner_view), owner_view
        act(alice, "+reset"), act(bob, "+reset")
        assert act(carol, "+log").startswith("Journal of the Muggle Quidditch table: entries 1 to 6 of 6.")
        assert act(carol, "+log 2") == "The journal of the Muggle Quidditch table has only 6 entries."
    finally:
        act(alice, "+stand"), act(bob, "+stand")
        wizard.command(f"@destroy/instant {thing}")


def test_table_update_reloads_cards_between_games_and_refuses_during_one(run_cli, wizard, players, tmp_path):
    alice, bob = players["Alice"], players["Bob"]
    thing = load(run_cli, wizard, "quidditch-v2", tmp_path)
    export = tmp_path / "quidditch-v2" / "quidditch-v2.mush"
    try:
        act(alice, "+sit"), act(bob, "+sit")
        assert act(alice, "+table/update").startswith("Only the table's owner (Wizard) can update")
        act(alice, "+start")
        assert wizard.command("+table/update").startswith("A game is being played at the Quidditch v2 table: update it "
                                                          "once the game is over")
        act(alice, "+reset"), act(bob, "+reset")
        assert wizard.command("+table/update") == ("The Quidditch v2 table waits for its new cards: paste the new "
                                                   "export of the deck here now. Seated players stay seated.")
        wizard.command(f"&CARD.1.NAME {thing}=Stale name")
        wizard.command(f"&CARD.999.NAME {thing}=A card the new export does not have")
        output = wizard.send_file(export)
        assert f"Updating the Quidditch v2 table {thing} with the new cards..." in output
        assert f"Loaded the Quidditch v2 deck as {thing}: 56 cards. Type +deckhelp." in output
        assert get(wizard, thing, "CARD.1.NAME") == "Quaffle" and get(wizard, thing, "CARD.999.NAME") == ""
        assert get(wizard, thing, "UPDATE.BY") == ""
        assert len(get(wizard, thing, "SEATS").split()) == 2  # the players stay seated
        assert wizard.command("think [words(lcon(here))]") == wizard.command("think [words(lcon(here))]")
        # Pasted again without +table/update, the export makes a second table beside the first.
        second = loaded_as(wizard.send_file(export))
        assert second != thing and get(wizard, second, "TABLENAME") == "quidditch-v2-2"
        wizard.command(f"@destroy/instant {second}")
    finally:
        act(alice, "+stand"), act(bob, "+stand")
        wizard.command(f"@destroy/instant {thing}")
