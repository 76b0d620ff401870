"""The TinyMUX fixtures the MUSH table tests share, one server per test module: `server`, the
`wizard` (#1, who creates the module's characters, its `NAMES`) and the connected `players`.

A test module imports them (`from .mush_fixtures import players, server, wizard`) and sets
`NAMES`, the characters it plays with."""

from __future__ import annotations

import pytest

from .mush_table_support import connect, create_players, start_server


@pytest.fixture(scope="module")
def server():
    with start_server() as mush:
        yield mush


@pytest.fixture(scope="module")
def wizard(server, request):
    with server.client() as client:
        create_players(client, request.module.NAMES)
        yield client


@pytest.fixture(scope="module")
def players(server, wizard, request):
    clients = connect(server, wizard, request.module.NAMES)
    yield clients
    for client in clients.values():
        client.close()
