"""Fixtures of the multi-node tests: real ``pokerroom serve`` node processes on one Redis and
one PostgreSQL, each test with its own key prefix and database (tests/services.py).

The helper modules (nodes, faults, truth, table) and the server tests' helpers (the websocket ``Client`` and
the frame scanner of tests/server/server_helpers.py) are put on ``sys.path`` here, as tests/server does.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
for extra in (HERE, HERE.parent / "server", HERE.parent):
    if str(extra) not in sys.path:
        sys.path.insert(0, str(extra))

from faults import PrivateRedis, TcpProxy  # noqa: E402


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every cluster test starts processes and waits for leases: a generous per-test timeout."""
    for item in items:
        if HERE in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.timeout(360))


@pytest.fixture
def private_redis(tmp_path: Path) -> Iterator[PrivateRedis]:
    """A redis-server of this test's own, which the test may restart (never the machine's Redis)."""
    server = PrivateRedis(tmp_path)
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def pg_proxy() -> Iterator[TcpProxy]:
    """A TCP proxy in front of the test PostgreSQL, which the test may cut and restore."""
    from services import PG_ADMIN_URL

    port = int(PG_ADMIN_URL.rsplit(":", 1)[1].split("/")[0]) if PG_ADMIN_URL.count(":") > 1 else 5432
    proxy = TcpProxy(port)
    try:
        yield proxy
    finally:
        proxy.close()


@pytest.fixture
def prefix() -> Iterator[str]:
    """A Redis key prefix of this test's own; its keys are deleted afterwards (cluster unit tests)."""
    from services import redis_prefix

    with redis_prefix("cl") as p:
        yield p


@pytest.fixture
def redis_url() -> str:
    from services import REDIS_URL

    return REDIS_URL


@pytest.fixture
def database() -> Iterator[str]:
    """A PostgreSQL database of this test's own (dropped afterwards)."""
    from services import fresh_database

    with fresh_database("cl") as url:
        yield url
