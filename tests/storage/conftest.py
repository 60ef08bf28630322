"""Fixtures of the shared store tests: every test runs on SQLite (memory, file) and PostgreSQL alike.

PostgreSQL is the machine's server (``tests/services.py``): each test gets a database of its own, dropped
afterwards. No mock: the same assertions hold for both real backends.
"""

from __future__ import annotations

import sqlite3
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from services import fresh_database

from pokerroom.server.storage import RoomStore, Store


@dataclass
class Backend:
    """How to open a store of one backend, and how to damage one of its rows behind its back."""

    name: str
    open: Callable[[], RoomStore]
    damage: Callable[[RoomStore, str], None]
    durable: bool  # a second open() sees the first one's data
    url: str = ""


def _sqlite_damage(path: Path | None) -> Callable[[RoomStore, str], None]:
    def damage(store: RoomStore, code: str) -> None:
        assert isinstance(store, Store)
        sql = "UPDATE rooms SET meta='{\"code\": oops' WHERE code=?"
        if path is None:
            store._db.execute(sql, (code,))  # an in-memory store has only its own connection
        else:
            db = sqlite3.connect(path, isolation_level=None)
            db.execute(sql, (code,))
            db.close()
    return damage


def _pg_damage(url: str) -> Callable[[RoomStore, str], None]:
    def damage(store: RoomStore, code: str) -> None:
        import psycopg

        with psycopg.connect(url, autocommit=True) as conn:  # JSONB holds valid JSON: a non-object is damage
            conn.execute("UPDATE rooms SET meta='\"oops\"'::jsonb WHERE code=%s", (code,))
    return damage


def _open_pg(url: str) -> RoomStore:
    from pokerroom.server.storage.postgres import PgStore

    return PgStore(url)


@pytest.fixture(params=["sqlite-memory", "sqlite-file", "postgres"])
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Backend]:
    """One backend per parameter; every store it opened is closed afterwards."""
    opened: list[RoomStore] = []

    def tracked(make: Callable[[], RoomStore]) -> Callable[[], RoomStore]:
        def open_() -> RoomStore:
            store = make()
            opened.append(store)
            return store
        return open_

    try:
        if request.param == "sqlite-memory":
            yield Backend("sqlite-memory", tracked(lambda: Store(None)), _sqlite_damage(None), False)
        elif request.param == "sqlite-file":
            path = tmp_path / "rooms.sqlite3"
            yield Backend("sqlite-file", tracked(lambda: Store(path)), _sqlite_damage(path), True)
        else:
            with fresh_database("store") as url:
                try:
                    yield Backend("postgres", tracked(lambda: _open_pg(url)), _pg_damage(url), True, url)
                finally:
                    for store in opened:
                        store.close()
                    opened.clear()
    finally:
        for store in opened:
            store.close()


@pytest.fixture
def store(backend: Backend) -> RoomStore:
    return backend.open()
