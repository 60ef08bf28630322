"""Fixtures of the room-server tests: real uvicorn servers on the real rules engine, on 127.0.0.1 ports
they bind themselves (see server_helpers)."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from server_helpers import LiveServer

from pokerroom.server.app import ServerConfig
from pokerroom.server.edge.limits import Limits

#: every per-client rate lifted (edge/clients.py): the scripted clients all come from 127.0.0.1
UNLIMITED_CLIENTS: dict[str, float] = {
    "sockets_per_second_per_client": 0, "hellos_per_second_per_client": 0,
    "history_per_second_per_client": 0, "resync_per_second_per_client": 0, "resync_per_second": 0,
    "history_bytes_per_second": 0}


@pytest.fixture
def make_server(tmp_path: Path) -> Iterator[Callable[..., LiveServer]]:
    """``make_server(**config)`` starts a server on the real rules engine (``engine=None``: the server's
    own); all are stopped at teardown."""
    started: list[LiveServer] = []

    def make(**kw: Any) -> LiveServer:
        kw.setdefault("engine", None)  # None: the real rules engine
        # scripted players act far faster than people; only the flood test keeps the real rate limit
        kw.setdefault("limits", Limits(rate_per_second=5000, rate_burst=5000, history_rate_per_second=5000,
                                       history_burst=5000, **UNLIMITED_CLIENTS))
        kw.setdefault("static_dir", tmp_path / "static")
        kw.setdefault("warm_up", False)
        srv = LiveServer(ServerConfig(**kw)).start()
        started.append(srv)
        return srv

    yield make
    for srv in started:
        srv.stop()


@pytest.fixture
def server(make_server: Callable[..., LiveServer]) -> LiveServer:
    """A server on the real rules engine with an in-memory store (an engine that does not import is an
    error, never a skip)."""
    return make_server()


