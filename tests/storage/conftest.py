"""Fixtures of the shared store tests: every test runs on SQLite (memory, file) and PostgreSQL alike.

PostgreSQL is the machine's server (``tests/services.py``): each test gets a database of its own, dropped
afterwards. No mock: the same assertions hold for both real backends.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from store_backends import Backend, open_pg, pg_damage, sqlite_damage

from pokerroom.server.storage import RoomStore, Store
from services import fresh_database


@contextmanager
def _opened(kind: str, tmp_path: Path) -> Iterator[Backend]:
    """The backend ``kind``; every store it opened is closed afterwards."""
    opened: list[RoomStore] = []

    def tracked(make: Callable[[], RoomStore]) -> Callable[[], RoomStore]:
        def open_() -> RoomStore:
            store = make()
            opened.append(store)
            return store
        return open_

    try:
        if kind == "sqlite-memory":
            yield Backend("sqlite-memory", tracked(lambda: Store(None)), sqlite_damage(None), False)
        elif kind == "sqlite-file":
            path = tmp_path / "rooms.sqlite3"
            yield Backend("sqlite-file", tracked(lambda: Store(path)), sqlite_damage(path), True)
        else:
            with fresh_database("store") as url:
                try:
                    yield Backend("postgres", tracked(lambda: open_pg(url)), pg_damage(url), True, url)
                finally:
                    for store in opened:
                        store.close()
                    opened.clear()
    finally:
        for store in opened:
            store.close()


@pytest.fixture(params=["sqlite-memory", "sqlite-file", "postgres"])
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Backend]:
    """One backend per parameter."""
    with _opened(request.param, tmp_path) as made:
        yield made


@pytest.fixture(params=["sqlite-file", "postgres"])
def durable_backend(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Backend]:
    """The backends whose data outlives a connection (a reopened store must find it)."""
    with _opened(request.param, tmp_path) as made:
        yield made


@pytest.fixture
def store(backend: Backend) -> RoomStore:
    return backend.open()
