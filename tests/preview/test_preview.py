"""`deckgen watch` without a browser: drawings match the build, hashes follow the drawing's
inputs, a broken save keeps the last good pictures, the server keeps to its folders."""

from __future__ import annotations

import http.client
import io
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from generator.deck.loader import load_deck
from generator.preview.app import start_preview
from generator.preview.hashing import card_hashes
from generator.preview.session import PreviewSession
from generator.faces.images import card_pngs, write_images

from tests.conftest import DECKS, ROOT

FIXTURES = ROOT / "tests" / "fixtures"


@pytest.fixture
def qv2(tmp_path) -> Path:
    """A copy of Quidditch v2 to edit, in a folder of its own."""
    folder = tmp_path / "deck"
    folder.mkdir()
    path = folder / "quidditch-v2.toml"
    shutil.copy(DECKS / "quidditch-v2.toml", path)
    return path


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_preview_pictures_are_the_builds_pictures(tmp_path):
    deck = load_deck(DECKS / "wizard.toml")
    written = write_images(deck, tmp_path, dpi=100, bleed_mm=3.0)
    cards = [deck.cards[0], deck.cards[-1], None]
    pngs = card_pngs(deck, cards, 100, 3.0)
    by_name = {path.name: path.read_bytes() for path in written}
    assert pngs[0] == by_name[f"{deck.cards[0].id}.png"]
    assert pngs[1] == by_name[f"{deck.cards[-1].id}.png"]
    assert pngs[2] == by_name["back.png"]


def test_hashes_change_with_what_the_drawing_reads(qv2, tmp_path):
    before = card_hashes(load_deck(qv2))
    edit(qv2, 'text = "Gain 3 dominance."', 'text = "Gain 3 dominance at once."')
    after_text = card_hashes(load_deck(qv2))
    assert [key for key in before if before[key] != after_text[key]] == ["face:sweeping-play"]

    # A kind's colour is part of the deck's look, which every drawing is hashed with.
    edit(qv2, 'color = "#2f5d8a"\n[[kinds]]', 'color = "#115511"\n[[kinds]]')
    after_look = card_hashes(load_deck(qv2))
    assert all(after_text[key] != after_look[key] for key in after_text)


def test_hash_covers_art_bytes(tmp_path):
    from PIL import Image

    folder = tmp_path / "deck"
    folder.mkdir()
    path = folder / "deck.toml"
    shutil.copy(DECKS / "quidditch-v2.toml", path)
    Image.new("RGB", (40, 30), "#336699").save(folder / "quaffle.png")
    edit(path, 'code = "QUAFFLE"', 'code = "QUAFFLE"\nart = "quaffle.png"')
    before = card_hashes(load_deck(path))
    Image.new("RGB", (40, 30), "#993366").save(folder / "quaffle.png")
    after = card_hashes(load_deck(path))
    assert [key for key in before if before[key] != after[key]] == ["face:quaffle"]


def test_hashes_follow_the_layout_each_card_takes(qv2):
    """A layout of the deck's own, edited in the deck file, redraws the cards that use it only;
    an edit that merely moves lines redraws nothing."""
    edit(qv2, 'code = "QUAFFLE"', 'code = "QUAFFLE"\nlayout = "plain"')
    with qv2.open("a", encoding="utf-8") as handle:
        handle.write('\n[layouts.plain]\nextends = "text"\n\n[[layouts.plain.elements]]\nname = "name"\n'
                     'color = "#000000"\n')
    before = card_hashes(load_deck(qv2))
    edit(qv2, 'color = "#000000"', 'color = "#333333"')
    after = card_hashes(load_deck(qv2))
    assert [key for key in before if before[key] != after[key]] == ["face:quaffle"]
    edit(qv2, '[layouts.plain]', '# a comment that moves the layout down a line\n[layouts.plain]')
    assert card_hashes(load_deck(qv2)) == after


def test_reload_redraws_only_the_changed_card(qv2, tmp_path, monkeypatch):
    session = PreviewSession(qv2, tmp_path / "out", dpi=40)
    session.reload(check=False)
    drawn = []
    from generator.preview import session as session_module

    real = session_module.card_pngs
    monkeypatch.setattr(session_module, "card_pngs",
                        lambda deck, cards, *rest: drawn.extend(cards) or real(deck, cards, *rest))
    edit(qv2, 'text = "Gain 3 dominance."', 'text = "Gain 3 dominance at once."')
    update = session.reload(check=False)
    assert update["changed"] == ["face:sweeping-play"]
    assert [card.id for card in drawn] == ["sweeping-play"]


def test_broken_save_keeps_pictures_and_reports_like_the_cli(qv2, tmp_path, run_cli):
    session = PreviewSession(qv2, tmp_path / "out", dpi=40)
    session.reload(check=False)
    good = {card.key: card.hash for card in session.cards}
    edit(qv2, 'code = "SWEEP"', 'code = "QUAFFLE"')  # a duplicate code: the loader refuses it
    update = session.reload(check=False)
    cli = run_cli("show", str(qv2))
    assert cli.exit_code == 1
    assert update["type"] == "error"
    assert update["error"] == cli.stderr.splitlines()
    assert re.match(rf"{re.escape(str(qv2))}:\d+: error: ", update["error"][0])
    assert {card.key: card.hash for card in session.cards} == good
    assert all(session.image(digest, 40) for digest in good.values())
    edit(qv2, 'code = "QUAFFLE"\nkind = "action"', 'code = "SWEEP"\nkind = "action"')
    assert session.reload(check=False)["type"] == "cards" and session.error == []


def test_lint_badges_and_problems_point_at_cards(tmp_path):
    session = PreviewSession(FIXTURES / "overflowing-text.toml", tmp_path / "out", dpi=40)
    session.reload()
    overflowing = [card for card in session.cards if "overflow" in card.badges]
    assert overflowing, session.problems
    linked = [p for p in session.problems if p.get("card") == overflowing[0].key]
    assert linked and "does not fit its box" in linked[0]["text"]


def test_memory_of_pictures_stays_with_the_current_cards(qv2, tmp_path):
    session = PreviewSession(qv2, tmp_path / "out", dpi=30)
    session.reload(check=False)
    for round_ in range(3):
        edit(qv2, f'text = "Gain 3 dominance.{" x" * round_}"', f'text = "Gain 3 dominance.{" x" * (round_ + 1)}"')
        session.reload(check=False)
    assert len(session._images) == len(session.cards)


# -- the server ------------------------------------------------------------------------------

@pytest.fixture
def preview(qv2, tmp_path):
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "built.txt").write_text("an output\n")
    (tmp_path / "secret.txt").write_text("outside both folders\n")
    running = start_preview(qv2, output_dir=tmp_path / "out", dpi=40)
    try:
        yield running
    finally:
        running.stop()


def get(preview, path: str, host: str | None = None) -> tuple[int, bytes]:
    address, port = preview.server.server_address[:2]
    connection = http.client.HTTPConnection(address, port, timeout=10)
    try:
        connection.putrequest("GET", path, skip_host=True)
        connection.putheader("Host", host or f"{address}:{port}")
        connection.endheaders()
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


def test_server_serves_its_folders(preview):
    assert get(preview, "/deck/quidditch-v2.toml")[0] == 200
    assert get(preview, "/output/built.txt") == (200, b"an output\n")
    status, page = get(preview, "/")
    assert status == 200 and b"Quidditch v2" in page
    card = preview.session.cards[0]
    status, png = get(preview, f"/img/40/{card.hash}.png")
    assert status == 200 and png.startswith(b"\x89PNG")


@pytest.mark.parametrize("path", [
    "/deck/../secret.txt", "/deck/%2e%2e/secret.txt", "/deck/%2E%2E%2Fsecret.txt", "/deck/..%2fsecret.txt",
    "/output/../secret.txt", "/output/%2e%2e%2fsecret.txt", "/deck/..%5c..%2fsecret.txt",
    "/deck/%2ftmp%2f..%2fetc%2fpasswd", "/deck//etc/passwd", "/output/..%2f..%2f..%2f..%2fetc%2fpasswd",
    "/deck/%252e%252e%252fsecret.txt", "/deck/%00secret.txt",
])
def test_server_refuses_files_outside_its_folders(preview, path):
    status, body = get(preview, path)
    assert status in (403, 404)
    assert b"outside both folders" not in body and b"root:" not in body


def test_server_refuses_links_leading_out(preview, tmp_path):
    (preview.session.folder / "link.txt").symlink_to(tmp_path / "secret.txt")
    assert get(preview, "/deck/link.txt")[0] == 403


def test_server_answers_only_to_its_own_name(preview):
    assert get(preview, "/", host="evil.example")[0] == 403
    assert get(preview, "/", host=f"localhost:{preview.server.server_address[1]}")[0] == 200


def test_old_pictures_are_gone_after_an_edit(preview, qv2):
    old = next(card.hash for card in preview.session.cards if card.key == "face:sweeping-play")
    edit(qv2, 'text = "Gain 3 dominance."', 'text = "Gain 3 dominance at once."')
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and get(preview, f"/img/40/{old}.png")[0] == 200:
        time.sleep(0.05)
    assert get(preview, f"/img/40/{old}.png")[0] == 404
    new = next(card.hash for card in preview.session.cards if card.key == "face:sweeping-play")
    assert new != old and get(preview, f"/img/40/{new}.png")[0] == 200


# -- the command -----------------------------------------------------------------------------

def test_watch_command_serves_until_interrupted(qv2):
    process = subprocess.Popen([sys.executable, "-m", "generator", "watch", str(qv2), "--port", "0", "--dpi", "30"],
                               cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        play = process.stdout.readline()  # the Play tab's table comes first
        assert play.startswith("the deck's game at a table (the Play tab): http://127.0.0.1:"), play
        line = process.stdout.readline()
        match = re.search(r"at http://127\.0\.0\.1:(\d+)/ \(Ctrl-C stops\)", line)
        assert match, line + process.stderr.read()
        connection = http.client.HTTPConnection("127.0.0.1", int(match.group(1)), timeout=10)
        connection.request("GET", "/")
        assert connection.getresponse().status == 200
        connection.close()
        edit(qv2, 'text = "Gain 3 dominance."', 'text = "Gain 3 dominance at once."')
        assert process.stdout.readline() == "redrawn: SWEEP\n"
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=20)
        assert process.returncode == 0, err
        assert "stopped" in out and "Traceback" not in err
    finally:
        if process.poll() is None:
            process.kill()


def test_watch_command_names_a_missing_deck(run_cli):
    result = run_cli("watch", "no-such-deck", "--port", "0")
    assert result.exit_code == 2
    assert "no deck 'no-such-deck'" in result.stderr and "Traceback" not in result.stderr


def test_watch_command_reports_a_busy_port(run_cli, preview):
    port = preview.server.server_address[1]
    result = run_cli("watch", "wizard", "--port", str(port))
    assert result.exit_code == 2
    assert f"cannot serve on 127.0.0.1:{port}" in result.stderr


# -- the watcher -----------------------------------------------------------------------------

def wait_for(condition, seconds: float = 20.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


def test_a_burst_of_saves_redraws_once(qv2, tmp_path):
    updates = []
    running = start_preview(qv2, output_dir=tmp_path / "out", dpi=30, on_reload=updates.append)
    try:
        for words in ("once", "twice", "thrice"):  # an editor saving three times in a row
            edit(qv2, 'text = "Gain 3 dominance', f'text = "Gain 3 dominance {words}')
        wait_for(lambda: updates)
        time.sleep(0.5)
        assert len(updates) == 1 and updates[0]["changed"] == ["face:sweeping-play"]

        # Save as an editor does: write a temporary file beside the deck, rename it over the deck.
        temporary = qv2.with_name(".quidditch-v2.toml.swp-new")
        temporary.write_text(qv2.read_text(encoding="utf-8").replace(
            'type_line = "Action"\ncorner = "+3"\ntext = "Gain 3', 'type_line = "Action"\ncorner = "+4"\ntext = "Gain 3'),
                             encoding="utf-8")
        os.replace(temporary, qv2)
        wait_for(lambda: len(updates) == 2)
        time.sleep(0.5)
        assert len(updates) == 2 and updates[1]["changed"] == ["face:sweeping-play"]
    finally:
        running.stop()


def test_saving_an_art_image_redraws_its_card(tmp_path):
    from PIL import Image

    folder = tmp_path / "deck"
    (folder / "art").mkdir(parents=True)
    path = folder / "deck.toml"
    shutil.copy(DECKS / "quidditch-v2.toml", path)
    Image.new("RGB", (40, 30), "#336699").save(folder / "art" / "quaffle.png")
    edit(path, 'code = "QUAFFLE"', 'code = "QUAFFLE"\nart = "art/quaffle.png"')
    updates = []
    running = start_preview(path, output_dir=tmp_path / "out", dpi=30, on_reload=updates.append)
    try:
        session = running.session
        first = next(card.hash for card in session.cards if card.key == "face:quaffle")
        before = Image.open(io.BytesIO(session.image(first, 30)))
        # A new picture of another shape and colour: the card shows it, not a cached size or image.
        Image.new("RGB", (30, 60), "#993366").save(folder / "art" / "quaffle.png")
        wait_for(lambda: updates)
        assert updates[-1]["changed"] == ["face:quaffle"]
        second = next(card.hash for card in session.cards if card.key == "face:quaffle")
        after = Image.open(io.BytesIO(session.image(second, 30)))
        fresh = Image.open(io.BytesIO(card_pngs(load_deck(path), [load_deck(path).card("QUAFFLE")], 30)[0]))
        assert after.tobytes() == fresh.tobytes() != before.tobytes()

        # Art that is missing keeps the last good pictures and names the file, like the build;
        # putting the picture there mends it.
        edit(path, 'art = "art/quaffle.png"', 'art = "art/snitch.png"')
        wait_for(lambda: updates[-1]["type"] == "error")
        assert "art/snitch.png does not exist" in updates[-1]["error"][0]
        assert next(card.hash for card in session.cards if card.key == "face:quaffle") == second
        Image.new("RGB", (40, 30), "#c9a227").save(folder / "art" / "snitch.png")
        wait_for(lambda: updates[-1]["type"] == "cards")
        assert updates[-1]["changed"] == ["face:quaffle"]
    finally:
        running.stop()


def test_a_card_that_cannot_be_drawn_shows_an_error_and_the_watch_goes_on(qv2, tmp_path, monkeypatch):
    from generator.preview import session as session_module

    session = PreviewSession(qv2, tmp_path / "out", dpi=30)
    session.reload(check=False)
    monkeypatch.setattr(session_module, "card_pngs", lambda *args: 1 / 0)
    edit(qv2, 'text = "Gain 3 dominance."', 'text = "Gain 3 dominance at once."')
    update = session.reload(check=False)
    assert update["type"] == "error" and "cannot draw the cards" in update["error"][0]
    monkeypatch.undo()
    assert session.reload(check=False)["changed"] == ["face:sweeping-play"]


def test_check_plays_games_only_when_asked(tmp_path):
    quiet = PreviewSession(DECKS / "wizard.toml", tmp_path / "out", dpi=30)
    quiet.reload()
    assert "playtest" not in quiet.checks or "no playtest" in quiet.checks
    asked = PreviewSession(DECKS / "wizard.toml", tmp_path / "out", dpi=30, simulate=1)
    asked.reload()
    assert re.search(r"playtest of \d+ games", asked.checks), asked.checks


def test_the_watch_follows_the_files_a_deck_reads(tmp_path):
    """Saving a shared layouts file, a font or an icon redraws as saving the deck file does."""
    designer = tmp_path / "designer"
    shutil.copytree(DECKS.parent / "examples" / "designer", designer)
    session = PreviewSession(designer / "cauldron-club.toml", tmp_path / "out", dpi=30)
    session.reload(check=False)
    watched = session.watched_files()
    for name in ("layouts/club.toml", "fonts/LiberationSerif-Regular.ttf"):
        assert (designer / name).resolve() in watched, name
    assert any(path.parent.name == "icons" for path in watched)
