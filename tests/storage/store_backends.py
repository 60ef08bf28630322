"""The backends of the shared store tests: how to open each store, and how to damage one of its rows.

(A module of its own, not ``conftest``: test modules import :class:`Backend`, and ``conftest`` is a name
every test directory has.)
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from pokerroom.server.storage import RoomStore, Store


@dataclass
class Backend:
    """How to open a store of one backend, and how to damage one of its rows behind its back."""

    name: str
    open: Callable[[], RoomStore]
    damage: Callable[[RoomStore, str], None]
    durable: bool  # a second open() sees the first one's data
    url: str = ""


def sqlite_damage(path: Path | None) -> Callable[[RoomStore, str], None]:
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


def pg_damage(url: str) -> Callable[[RoomStore, str], None]:
    def damage(store: RoomStore, code: str) -> None:
        import psycopg

        with psycopg.connect(url, autocommit=True) as conn:  # JSONB holds valid JSON: a non-object is damage
            conn.execute("UPDATE rooms SET meta='\"oops\"'::jsonb WHERE code=%s", (code,))
    return damage


def open_pg(url: str) -> RoomStore:
    from pokerroom.server.storage.postgres import PgStore

    return PgStore(url)
