"""Whole games played at the MUSH table by connected player characters, every move checked.

Three players play a whole game of Wizard, two a whole match of Muggle Quidditch. The table's
journal is replayed through the referee after every move (tests/export/mush_table_support.py),
so an illegal move or a journal the engine reads differently fails at once; at the end the
players read the journal with +log as anyone at the table would, `deckgen mush-log` writes it
as a game log, and `deckgen referee` rules the game legal and finished.
"""

from __future__ import annotations

import json

import pytest

from generator.deck.loader import load_deck
from generator.games.base import CHANCE

from ..conftest import DECKS
from .mush_fixtures import server, wizard  # noqa: F401 (fixtures)
from .mush_table_support import TableGame, act, connect, get, load

NAMES = ["Ann", "Ben", "Cleo"]


def finish_and_referee(run_cli, table: TableGame, tmp_path) -> dict:
    """Players end the game by vote, copy every page of +log and have the referee rule on it."""
    first, second = (table.players[name] for name in table.names[:2])
    assert act(first, "+reset").startswith("You ask for a new game")
    assert "resets the" in act(second, "+reset")
    pages, page = [], 1
    while True:
        shown = act(first, f"+log {page}")
        pages.append(shown)
        if f"more with +log {page + 1}" not in shown:
            break
        page += 1
    journal = tmp_path / "journal.txt"
    journal.write_text("\n".join(pages), encoding="utf-8")
    log = tmp_path / "game.toml"
    written = run_cli("mush-log", table.deck.id, journal, "-o", log, "--decks-dir", DECKS)
    assert written.exit_code == 0, written.stdout + written.stderr
    ruled = run_cli("referee", table.deck.id, log, "--json", "--decks-dir", DECKS)
    report = json.loads(ruled.stdout)
    assert ruled.exit_code == 0 and report["status"] == "legal", ruled.stdout
    return report


def test_three_players_play_a_whole_game_of_wizard(run_cli, server, wizard, tmp_path):
    deck = load_deck(DECKS / "wizard.toml")
    thing = load(run_cli, wizard, "wizard", tmp_path)
    players = connect(server, wizard, NAMES)
    table = TableGame(deck, wizard, thing, players, seed=5)
    try:
        assert "The seats are closed" in table.sit_and_start()
        rounds = 0
        state = table.position()
        while not state.is_terminal():
            seat = state.current_player()
            if seat == CHANCE:  # a new round: its dealer deals it (Ann first), the referee reads the deal
                rounds += 1
                dealer = table.names[(rounds - 1) % len(NAMES)]
                assert "deals" in table.move(dealer, f"+round {rounds}")
                state = table.position()
                continue
            action = table.bot.choose(state)
            words = table.game.format_action(state, action)
            name = table.names[seat]
            before = state.clone()
            if words.startswith("bid "):
                table.move(name, f"+{words}", f"bid {name} {words.split()[1]}")
            elif words.startswith("trump "):
                suit = next(suit.id for suit in deck.suits if suit.name == words.split()[1])
                table.move(name, f"+trump {suit}", f"trump {name} {suit}")
            else:
                table.move(name, f"+play {words}", f"play {name} {words}")
            state.apply(action)
            if len(before.trick) == len(NAMES) - 1:  # the last card of a trick: its winner takes it
                winner = table.names[next(s for s in range(len(NAMES)) if state.won[s] != before.won[s])]
                assert table.move(winner, "+trick", f"trick {winner}").startswith("You take the trick: ")
        assert rounds == 20
        report = finish_and_referee(run_cli, table, tmp_path)
        assert report["finished"] and len(report["rounds"]) == 20
    finally:
        for client in players.values():
            client.close()
        wizard.command(f"@destroy/instant {thing}")  # the next game's table is then the only one in the room


def reshuffle(table: TableGame, name: str, state) -> None:
    """The table rebuilds its draw pile; the engine's position takes that very order."""
    table.move(name, "+shuffle")
    (entry,) = table.added
    assert entry.startswith(f"shuffle {name} "), entry
    state.apply(table.game.parse_action(state, "shuffle " + entry.split(None, 2)[2]))


def mq_table_moves(table: TableGame, state, action) -> None:
    """Carry out one Muggle Quidditch decision at the table, and everything it sets going there:
    the cards a draw step brings, the dive, a rebuilt draw pile, a Snitch that gets away."""
    from generator.games.muggle_quidditch_rules import Dive, DiveRows, Draw

    game, seat = table.game, state.current_player()
    name, other = table.names[seat], table.names[1 - seat]
    words = game.format_action(state, action)
    verb, *args = words.split()
    if verb == "house":
        table.move(name, f"+house {args[0]}", f"house {name} {args[0]}")
    elif isinstance(action, Draw):
        after = state.clone()
        after.apply(action)
        if after.record.took:
            table.move(name, "+draw/discard", f"take {name} {after.record.took}")
        drawn = 0
        while True:
            for card in after.record.drew[drawn:]:
                table.move(name, "+draw", f"draw {name} {card}")
            drawn = len(after.record.drew)
            if after.current_player() != CHANCE:
                break
            reshuffle(table, name, after)  # the draw pile ran out: rebuild it, and draw on
    elif verb == "goal":
        table.move(name, f"+goal {args[0]} {args[1]}", f"goal {name} {args[0]} {args[1]}")
    elif verb == "team":
        table.move(name, f"+play {args[0]}", f"play {name} {args[0]}")
    elif verb == "bludger":
        table.move(name, f"+bludger {args[0]} {args[1]}", f"bludger {name} {args[0]} {args[1]}")
    elif verb == "lose":
        table.move(name, f"+lose {args[0]}", f"lose {name} {args[0]}")
    elif verb == "discard":
        table.move(name, f"+discard {args[0]}", f"discard {name} {args[0]}")
    elif verb == "spot":
        table.move(name, "+spot JK", f"spot {name} JK")
    elif verb == "pass":
        table.move(name, "+pass", f"pass {name}")
    elif isinstance(action, Dive):
        table.move(name, "+dive JK", f"dive {name} JK")
        after = state.clone()
        dive = after.record.dive  # the engine starts a new record when a tied dive ends the turn
        after.apply(action)
        turned = 0
        while True:
            quotas = [game.dive_quota(after.teams[s]["seeker"], after.houses[s], after.houses[1 - s])
                      if "seeker" in after.teams[s] else 0 for s in (0, 1)]
            rows = DiveRows(seat, quotas, [[], []])
            for number, card in enumerate(dive):
                drawer = rows.next_drawer()
                rows.rows[drawer].append(card)
                if number >= turned:
                    table.move(table.names[drawer], "+turnup", f"turnup {table.names[drawer]} {card}")
            turned = len(dive)
            if after.current_player() != CHANCE:
                break
            reshuffle(table, name, after)  # the draw pile ran out in the dive
    else:
        raise AssertionError(f"no table move for {words!r}")


def test_two_players_play_a_whole_match_of_muggle_quidditch(run_cli, server, wizard, tmp_path):
    deck = load_deck(DECKS / "muggle-quidditch.toml")
    thing = load(run_cli, wizard, "muggle-quidditch", tmp_path)
    players = connect(server, wizard, NAMES[:2])
    table = TableGame(deck, wizard, thing, players, seed=3, bot="heuristic")
    try:
        assert "Each player is dealt 6 cards, one at a time, starting with Ann" in table.sit_and_start()
        state = table.game.new_state(2)  # a log names both houses: they are chosen before it is read
        for _seat in (0, 1):
            action = table.bot.choose(state)
            mq_table_moves(table, state, action)
            state.apply(action)
        state = table.position()
        while not state.is_terminal():
            mq_table_moves(table, state, table.bot.choose(state))
            state = table.position()
            if state.snitch == [] and get(wizard, thing, "SNITCH") and not state.is_terminal():
                name = table.names[state.active]  # the Snitch got away: both Seekers are gone
                table.move(name, "+escape", f"escape {name}")
        outcome = state.outcome()
        if outcome.reason == "finished":  # the Snitch is caught (about 2 matches in 100 reach the turn cap)
            catcher = table.names[state.caught_by]
            assert act(players[catcher], "+catch").startswith(f"{catcher} catches the Golden Snitch")
        else:
            assert outcome.reason.startswith("turn-cap"), outcome
        report = finish_and_referee(run_cli, table, tmp_path)
        assert report["finished"] and report["scores"] == list(outcome.scores)
    finally:
        for client in players.values():
            client.close()
        wizard.command(f"@destroy/instant {thing}")  # the next game's table is then the only one in the room
