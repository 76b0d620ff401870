"""The preview under hostile and careless input: a card that fails to draw is shown on the
page and as one line, never a traceback; a client that sends nothing is dropped after the read
timeout while others are served; files are streamed, not read whole; the listen backlog is
large enough for a page's burst of requests."""

from __future__ import annotations

import http.client
import socket
import time
import urllib.request

import pytest

from generator.preview import server as preview_server
from generator.preview import session as preview_session
from generator.preview.app import start_preview
from tests.badinput import TINY


@pytest.fixture
def tiny(tmp_path):
    path = tmp_path / "decks" / "tiny.toml"
    path.parent.mkdir()
    path.write_text(TINY, encoding="utf-8")
    return path


@pytest.fixture
def preview(tiny, tmp_path):
    running = start_preview(tiny, output_dir=tmp_path / "out", dpi=30)
    yield running
    running.stop()


def test_a_drawing_failure_is_one_line_on_the_page_not_a_traceback(preview, monkeypatch, capfd):
    def broken(*args, **kwargs):
        raise RuntimeError("a drawing bug")

    monkeypatch.setattr(preview_session, "card_pngs", broken)
    (preview.session.deck_path).write_text(TINY.replace('name = "Joker"', 'name = "Jester"'), encoding="utf-8")
    update = preview.session.reload(check=False)
    assert update["type"] == "error"
    assert update["error"] == [f"deckgen: error: cannot draw the cards of {preview.session.deck_path}: "
                               "RuntimeError: a drawing bug"]
    with urllib.request.urlopen(preview.url + "state", timeout=10) as answer:
        assert b"a drawing bug" in answer.read()
    captured = capfd.readouterr()
    assert "Traceback" not in captured.out + captured.err


def test_a_silent_client_is_dropped_and_others_are_served(preview, monkeypatch):
    monkeypatch.setattr(preview_server.PreviewHandler, "timeout", 1.0)
    host, port = preview.server.server_address[:2]
    slow = socket.create_connection((host, port), timeout=10)
    slow.sendall(b"GET / HTTP/1.1\r\nHost: ")  # and then nothing
    started = time.monotonic()
    with urllib.request.urlopen(preview.url + "state", timeout=10) as answer:
        assert answer.status == 200
    assert slow.recv(1024) == b""  # closed by the server
    assert time.monotonic() - started < 8
    slow.close()


def test_files_are_streamed_whole_and_exact(preview, tiny):
    big = tiny.parent / "big.bin"
    data = bytes(range(256)) * (5 * 4096 + 3)  # over 5 MB, not a multiple of the server's piece
    big.write_bytes(data)
    host, port = preview.server.server_address[:2]
    connection = http.client.HTTPConnection(host, port, timeout=20)
    connection.request("GET", "/deck/big.bin")
    answer = connection.getresponse()
    assert answer.status == 200 and int(answer.getheader("Content-Length")) == len(data)
    assert answer.read() == data
    connection.close()


def test_the_backlog_takes_a_pages_burst():
    assert preview_server.PreviewServer.request_queue_size >= 64
