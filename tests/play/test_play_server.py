"""`deckgen play`'s server and table without a browser: nothing without a link, the local
server rules (own Host, same-origin JSON, bounded bodies), each link's powers, the owner's undo
written into the log and reported by the referee, chance dealt again the same way after an
undo, new rules after a save, and the command itself."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from http.client import HTTPConnection
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from generator.deck.loader import load_deck
from generator.games.base import game_for
from generator.play.app import parse_seats, start_table
from generator.play.table import SeatPlan, Table, TableError
from tests.conftest import DECKS, ROOT
from tests.play.checks import referee_scores


@pytest.fixture
def wizard_table(tmp_path):
    table = start_table("wizard", decks_dir=DECKS, logs_dir=tmp_path / "logs", bot_delay=0, seed=21,
                        seats=parse_seats("person,person,heuristic"), watch=False, dpi=30)
    yield table
    table.stop()


def request(table, path: str, body: bytes | None = None, headers: dict | None = None) -> tuple[int, bytes]:
    """A raw request to the table's server, headers as given (the Host is the server's unless said)."""
    address = urlsplit(table.url)
    connection = HTTPConnection(address.hostname, address.port, timeout=10)
    sent = {"Host": address.netloc, **(headers or {})}
    connection.request("POST" if body is not None else "GET", path, body=body, headers=sent)
    response = connection.getresponse()
    answer = response.status, response.read()
    connection.close()
    return answer


def post(url: str, body: dict, origin: str) -> tuple[int, dict]:
    data = json.dumps(body).encode()
    sent = urllib.request.Request(url, data=data, method="POST",
                                  headers={"Content-Type": "application/json", "Origin": origin})
    try:
        with urllib.request.urlopen(sent) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def state(url: str) -> dict:
    return json.loads(urllib.request.urlopen(url + "state").read())


def origin(table) -> str:
    return table.url.rstrip("/")


def wait_for(condition, seconds: float = 20) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


def test_nothing_is_reachable_without_a_link(wizard_table):
    owner = urlsplit(wizard_table.owner_url).path
    forged = "/t/" + "A" * 24 + "/"
    for path in ("/", "/state", "/t/", forged, forged + "state", forged + "card/1/0.png", owner + "../state",
                 owner.replace("/t/", "/t/x") + "state", "/t/%2e%2e/state"):
        status, body = request(wizard_table, path)
        assert status == 404, path
        assert body.startswith(b"nothing here: open a link") and b"P1" not in body
    assert request(wizard_table, owner + "state")[0] == 200
    assert request(wizard_table, owner + "card/1/back.png")[0] == 200
    assert request(wizard_table, owner + "card/1/999.png")[0] == 404


def test_the_local_server_rules(wizard_table):
    owner = urlsplit(wizard_table.owner_url).path
    good = {"Content-Type": "application/json", "Origin": origin(wizard_table)}
    assert request(wizard_table, owner + "state", headers={"Host": "evil.example:80"})[0] == 403
    assert request(wizard_table, owner + "act", b"{}", {"Content-Type": "application/json"})[0] == 403
    assert request(wizard_table, owner + "act", b"{}", {**good, "Origin": "http://evil.example"})[0] == 403
    assert request(wizard_table, owner + "act", b"{}", {**good, "Content-Type": "text/plain"})[0] == 415
    assert request(wizard_table, owner + "act", b"x" * 20000, good)[0] == 413
    status, body = request(wizard_table, owner + "act", b"not json", good)
    assert status == 400 and json.loads(body)["error"] == "the request is not JSON"
    address = urlsplit(wizard_table.url)
    connection = HTTPConnection(address.hostname, address.port, timeout=10)
    connection.request("GET", owner, headers={"Host": address.netloc})
    response = connection.getresponse()
    assert "default-src 'none'" in response.getheader("Content-Security-Policy")
    assert response.getheader("Referrer-Policy") == "no-referrer"
    connection.close()


def test_each_link_has_its_own_powers(wizard_table):
    seat_url = wizard_table.seat_urls()[1]
    wait_for(lambda: state(wizard_table.owner_url)["game"]["to_act"] is not None)
    status, answer = post(seat_url + "undo", {}, origin(wizard_table))
    assert status == 403 and answer["error"] == "only the table's owner may do that"
    for url, seat in ((wizard_table.owner_url, 0), (seat_url, 1)):
        seen = state(url)
        assert seen["you"]["seat"] == seat and ("owner" in seen) == (seat == 0)
        game = seen["game"]
        if game["to_act"] != seat:
            status, answer = post(url + "act", {"text": "bid 0"}, origin(wizard_table))
            assert status == 409 and answer["error"].startswith("it is not your turn: the game waits for")
    assert "links" not in json.dumps(state(seat_url))


def play_people(table, until, seconds: float = 120) -> None:
    """Both people make their first legal move whenever it is their turn, over HTTP, until `until()`."""
    urls = [table.owner_url, *table.seat_urls().values()]
    deadline = time.monotonic() + seconds
    while not until():
        assert time.monotonic() < deadline
        for url in urls:
            game = state(url)["game"]
            if game["your_turn"]:
                status, answer = post(url + "act", {"move": game["moves"][-1]["id"], "step": game["step"]},
                                      origin(table))
                assert status == 200, answer


def test_an_undo_is_written_in_the_log_and_the_game_still_referees(wizard_table):
    session = wizard_table.session
    played = session.table
    play_people(wizard_table, lambda: played.state.round >= 2 and played.state.trick_number >= 1)
    owner = wizard_table.owner_url
    before = len(played.actions)
    status, answer = post(owner + "undo", {}, origin(wizard_table))
    assert status == 200 and answer["state"]["owner"]["undone"]
    taken = answer["state"]["owner"]["undone"][0]
    assert taken["after"] < before and taken["player"] in ("P1", "P2") and taken["moves"][0].startswith(taken["player"])
    log = played.log_path.read_text()
    assert "[[undo]]" in log and f"after = {taken['after']}" in log
    play_people(wizard_table, lambda: played.over, seconds=300)
    report = referee_scores("wizard", played.log_path)
    assert report["status"] == "legal" and report["scores"] == played.outcome()["scores"]
    assert report["undone"] == [taken]
    text = subprocess.run([sys.executable, "-m", "generator", "referee", "wizard", str(played.log_path)],
                          cwd=ROOT, capture_output=True, text=True, timeout=120).stdout
    assert f"Taken back at the table after action {taken['after']}: " in text


def test_chance_taken_back_by_an_undo_is_dealt_again_the_same_way(tmp_path):
    game = game_for(load_deck(DECKS / "wizard.toml"))
    table = Table(game, [SeatPlan("Ann", "person"), SeatPlan("Bot", "random"), SeatPlan("Cy", "random")],
                  tmp_path / "game.toml", 5, [])
    while table.person_to_act() is None or table.state.round < 1:
        if table.person_to_act() is not None:
            table.apply(table.state.legal_actions()[0])
        else:
            table.play_automatic()
    dealt_before = [action for action, actor in zip(table.actions, table.actors) if actor < 0]
    person = max(index for index, actor in enumerate(table.actors) if actor == 0)
    assert any(actor < 0 for actor in table.actors[person:]), "the undo should take back a deal"
    move = table.actions[person]
    table.undo()
    assert len(table.undone) == 1 and len(table.actions) == person
    table.apply(move)  # the same move again: the same cards come
    while table.person_to_act() is None:
        table.play_automatic()
    dealt_after = [action for action, actor in zip(table.actions, table.actors) if actor < 0]
    assert dealt_after[:len(dealt_before)] == dealt_before
    with pytest.raises(TableError, match="no move by a person"):
        Table(game, [SeatPlan("A", "random"), SeatPlan("B", "random"), SeatPlan("C", "random")],
              tmp_path / "other.toml", 1, []).undo()


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_a_saved_deck_brings_its_rules_to_the_next_game_only(tmp_path):
    deck = tmp_path / "wizard.toml"
    shutil.copy(DECKS / "wizard.toml", deck)
    table = start_table(deck, logs_dir=tmp_path / "logs", bot_delay=0, seed=2, seats=parse_seats("person,heuristic,heuristic"),
                        dpi=30)
    try:
        session = table.session
        first = session.table
        play_people(table, lambda: first.state.round >= 1)
        edit(deck, 'bid_restriction = "every-round"', 'bid_restriction = "never-even"')
        wait_for(lambda: state(table.owner_url)["owner"]["new_rules"])
        assert first.game.params["bid_restriction"] == "every-round" and session.table is first
        edit(deck, 'bid_restriction = "never-even"', 'bid_restriction = "sometimes"')
        wait_for(lambda: state(table.owner_url)["owner"]["reload_error"])
        assert "sometimes" in state(table.owner_url)["owner"]["reload_error"][0]
        edit(deck, 'bid_restriction = "sometimes"', 'bid_restriction = "never-even"')
        wait_for(lambda: not state(table.owner_url)["owner"]["reload_error"])
        play_people(table, lambda: first.state.round >= 2)
        status, answer = post(table.owner_url + "deal", {}, origin(table))
        assert status == 200 and answer["state"]["game"]["number"] == 2
        second = session.table
        assert second.game.params["bid_restriction"] == "never-even" and not answer["state"]["owner"]["new_rules"]
        assert answer["state"]["deck"]["pictures"] == "card/2/"
        assert 'bid_restriction = "every-round"' in first.log_path.read_text()
        assert 'bid_restriction = "never-even"' in second.log_path.read_text()
        for log in (first.log_path, second.log_path):  # each replays under the rules it was played by
            assert referee_scores(deck, log)["status"] in ("legal", "incomplete")
    finally:
        table.stop()


def run_play(*args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "generator", "play", *args], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})


def test_the_command_prints_each_link_and_stops_on_ctrl_c(tmp_path):
    process = run_play("wizard", "--port", "0", "--seats", "person,person,heuristic", "--names", "Ann,Ben,Bot",
                       "--bot-delay", "0", "--logs", str(tmp_path / "logs"), "--seed", "4")
    try:
        lines = [process.stdout.readline() for _ in range(4)]
        assert lines[0].startswith("table for Wizard (decks/wizard.toml); games are saved in")
        owner = lines[1].split(": ", 1)[1].strip()
        ben = lines[2].split(": ", 1)[1].strip()
        assert lines[1].startswith("your link") and lines[2].startswith("  Ben's link: http://127.0.0.1:")
        assert lines[3].strip() == "Ctrl-C stops"
        assert state(owner)["you"] == {"seat": 0, "owner": True, "name": "Ann"}
        assert state(ben)["you"]["name"] == "Ben" and state(ben)["seats"][2] == {"name": "Bot", "kind": "heuristic"}
        assert (tmp_path / "logs" / "game-001.toml").is_file()
    finally:
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=20)
    assert process.returncode == 0 and "stopped" in out and "Traceback" not in err


def test_sharing_on_the_network_is_said_out_loud(tmp_path):
    process = run_play("wizard", "--port", "0", "--host", "0.0.0.0", "--players", "3", "--logs", str(tmp_path))
    try:
        first = process.stdout.readline()
        assert first.startswith("warning: --host 0.0.0.0 lets every computer on the network reach this table")
    finally:
        process.send_signal(signal.SIGINT)
        process.communicate(timeout=20)


@pytest.mark.parametrize("args, code, message", [
    (["--seats", "person,wizardly,heuristic"], 2, "seat 2: 'wizardly' is neither a person nor a bot"),
    (["--seats", "person"], 2, "wizard is for 3-6 players, not 1"),
    (["--players", "3", "--names", "Ann,Ann,Bo"], 2, "seat 2: 'Ann' sits at the table already"),
    (["--players", "3", "--names", "Ann,Bo"], 2, "--names gives 2 names for 3 seats"),
    (["--players", "3", "--names", "Ann,B o,Cy"], 2, "seat 2: the name 'B o' must be one word"),
    (["--names", "Ann,Bo,Cy"], 2, "--names needs --seats or --players"),
    (["--variant", "nope", "--players", "3"], 1, "deck 'wizard' has no variant 'nope'; known: no-restriction"),
])
def test_bad_options_are_refused_with_a_reason(run_cli, args, code, message):
    result = run_cli("play", "wizard", "--port", "0", *args)
    assert result.exit_code == code and message in result.stderr and "Traceback" not in result.stderr


def test_a_deck_without_an_engine_cannot_be_played(run_cli, tmp_path):
    assert run_cli("new", str(tmp_path / "mine"), "--kind", "picture").exit_code == 0
    result = run_cli("play", str(tmp_path / "mine"), "--port", "0")
    assert result.exit_code == 1 and "names no engine" in result.stderr and "cannot be refereed, simulated or played" \
        in result.stderr
