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
from .mush_table_support import TableGame, act, connect, create_players, load, start_server

NAMES = ["Ann", "Ben", "Cleo"]


@pytest.fixture(scope="module")
def table_server():
    with start_server() as server:
        yield server


@pytest.fixture(scope="module")
def wizard(table_server):
    with table_server.client() as client:
        create_players(client, NAMES)
        yield client


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


def test_three_players_play_a_whole_game_of_wizard(run_cli, table_server, wizard, tmp_path):
    deck = load_deck(DECKS / "wizard.toml")
    thing = load(run_cli, wizard, "wizard", tmp_path)
    players = connect(table_server, wizard, NAMES)
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
