"""Fixtures of the room-server tests: real uvicorn servers on free 127.0.0.1 ports (see server_helpers)."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from server_fake_engine import FakeEngine
from server_helpers import LiveServer

from pokerroom.server.app import ServerConfig
from pokerroom.server.edge.limits import Limits


@pytest.fixture
def make_server(tmp_path: Path) -> Iterator[Callable[..., LiveServer]]:
    """``make_server(engine=..., **config)`` starts a server; all are stopped at teardown."""
    started: list[LiveServer] = []

    def make(**kw: Any) -> LiveServer:
        kw.setdefault("engine", FakeEngine())
        # scripted players act far faster than people; only the flood test keeps the real rate limit
        kw.setdefault("limits", Limits(rate_per_second=5000, rate_burst=5000, history_rate_per_second=5000,
                                       history_burst=5000))
        kw.setdefault("static_dir", tmp_path / "static")
        kw.setdefault("warm_up", False)
        srv = LiveServer(ServerConfig(**kw)).start()
        started.append(srv)
        return srv

    yield make
    for srv in started:
        srv.stop()


@pytest.fixture
def real_server(make_server: Callable[..., LiveServer]) -> LiveServer:
    """A server on the real rules engine (an engine that does not import is an error, never a skip)."""
    return make_server(engine=None)


@pytest.fixture
def server(make_server: Callable[..., LiveServer]) -> LiveServer:
    """A server on the stand-in engine with an in-memory store."""
    return make_server()


