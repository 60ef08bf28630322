"""Versioned, idempotent schema migrations: the server creates and upgrades its own schema.

Opening a store twice applies nothing twice; a store written by an older pokerroom (before ``schema_version``
existed, even before ``snapshot_version``) is upgraded in place and its rooms load; a store from a newer
pokerroom is refused untouched; nodes starting together on one fresh database migrate it once.
"""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path
from typing import Any

import pytest

from pokerroom.server.storage import Fenced, LogRow, Store, StoreError
from pokerroom.server.storage.sqlite import MIGRATIONS as SQLITE_MIGRATIONS
from services import fresh_database


def _versions_sqlite(path: Path) -> list[int]:
    db = sqlite3.connect(path)
    try:
        return [v for (v,) in db.execute("SELECT version FROM schema_version ORDER BY version")]
    finally:
        db.close()


def test_sqlite_open_twice_applies_each_migration_once(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite3"
    store = Store(path)
    store.save("R", {"m": 1}, "s", 1, 1)
    store.close()
    Store(path).close()
    assert _versions_sqlite(path) == list(range(1, len(SQLITE_MIGRATIONS) + 1))
    again = Store(path)
    assert [room.code for room in again.load_all()] == ["R"]
    again.close()


@pytest.mark.parametrize("era", ["before-issue-13", "before-schema-version"])
def test_an_old_sqlite_store_is_upgraded_in_place(tmp_path: Path, era: str) -> None:
    """The exact tables older pokerrooms wrote, with a room in them: opening upgrades and loads it."""
    path = tmp_path / "old.sqlite3"
    db = sqlite3.connect(path, isolation_level=None)
    extra = "" if era == "before-issue-13" else ", snapshot_version INTEGER"
    db.execute(f"CREATE TABLE rooms (code TEXT PRIMARY KEY, meta TEXT NOT NULL, state TEXT, "
               f"version INTEGER NOT NULL, updated_ms INTEGER NOT NULL{extra})")
    db.execute("CREATE TABLE actions (code TEXT NOT NULL, version INTEGER NOT NULL, kind TEXT NOT NULL, "
               "player_id TEXT, client_msg_id TEXT, action TEXT, at_ms INTEGER NOT NULL, "
               "PRIMARY KEY (code, version))")
    db.execute("CREATE TABLE hands (code TEXT NOT NULL, seq INTEGER NOT NULL, data TEXT NOT NULL, "
               "PRIMARY KEY (code, seq))")
    values: tuple[Any, ...] = ("OLD01", '{"host": "p1"}', "state-7", 7, 700)
    if era != "before-issue-13":
        values += (7,)
    db.execute(f"INSERT INTO rooms VALUES ({','.join('?' * len(values))})", values)
    db.execute("INSERT INTO actions VALUES ('OLD01', 7, 'action', 'p1', 'c7', '{\"type\":\"k.call\"}', 700)")
    db.close()

    store = Store(path)
    try:
        (room,) = store.load_all()
        assert (room.code, room.meta, room.state, room.version, room.fence) == ("OLD01", {"host": "p1"},
                                                                                 "state-7", 7, 0)
        assert room.replay == () and store.recent_acks("OLD01") == [("p1", "c7", 7)]
        store.apply_batch([Store.prepare_log("OLD01", LogRow(8, "timeout", None, None, None, 800))])
        assert store.claim("OLD01", 3)
        assert [r.version for r in (store.load("OLD01") or room).replay] == [8]
    finally:
        store.close()
    assert _versions_sqlite(path) == list(range(1, len(SQLITE_MIGRATIONS) + 1))


def test_a_sqlite_store_from_a_newer_pokerroom_is_refused_untouched(tmp_path: Path) -> None:
    path = tmp_path / "new.sqlite3"
    Store(path).close()
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("INSERT INTO schema_version VALUES (99, 0)")
    db.close()
    with pytest.raises(StoreError, match="newer"):
        Store(path)
    assert _versions_sqlite(path)[-1] == 99


def _versions_pg(url: str) -> list[int]:
    import psycopg

    with psycopg.connect(url) as conn:
        return [int(v) for (v,) in conn.execute("SELECT version FROM schema_version ORDER BY version")]


def test_postgres_open_twice_and_nodes_starting_together_migrate_once() -> None:
    from pokerroom.server.storage.postgres import MIGRATIONS, PgStore

    with fresh_database("migr") as url:
        errors: list[BaseException] = []
        stores: list[PgStore] = []

        def start() -> None:
            try:
                stores.append(PgStore(url))
            except BaseException as exc:
                errors.append(exc)

        threads = [threading.Thread(target=start) for _ in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(30)
        assert errors == [] and len(stores) == 4
        stores[0].save("R", {"m": 1}, "s", 1, 1)
        for store in stores:
            store.close()
        again = PgStore(url)
        try:
            assert again.schema_version == len(MIGRATIONS) and [r.code for r in again.load_all()] == ["R"]
        finally:
            again.close()
        assert _versions_pg(url) == list(range(1, len(MIGRATIONS) + 1))


def test_a_postgres_database_from_a_newer_pokerroom_is_refused() -> None:
    import psycopg

    from pokerroom.server.storage.postgres import PgStore

    with fresh_database("migr") as url:
        PgStore(url).close()
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute("INSERT INTO schema_version VALUES (99, 0)")
        with pytest.raises(StoreError, match="newer"):
            PgStore(url)


def test_a_tombstone_left_by_an_older_node_is_kept_its_week() -> None:
    """During a rolling upgrade a node still on code before tombstone times (migration 6) writes its
    tombstones without one; they are stamped with the time they are written, so a newer node's delete does
    not prune them at once (a paused old owner's late write must still meet its room's tombstone)."""
    import time

    import psycopg

    from pokerroom.server.storage.postgres import PgStore

    with fresh_database("migr") as url:
        store = PgStore(url)
        try:
            before = int(time.time() * 1000)
            with psycopg.connect(url, autocommit=True) as conn:  # what the older code's delete wrote
                conn.execute("INSERT INTO fences(code, fence) VALUES ('OLD01', 7)")
                (stamped,) = conn.execute("SELECT deleted_ms FROM fences WHERE code='OLD01'").fetchone()
            assert before - 5_000 <= stamped <= int(time.time() * 1000) + 5_000
            store.save("NEW01", {}, "s", 1, 1)
            store.apply_batch([("delete", ("NEW01", 3))])  # a newer node's delete prunes past the horizon
            assert store.claim("OLD01", 5) is False
            with psycopg.connect(url) as conn:
                codes = [c for (c,) in conn.execute("SELECT code FROM fences ORDER BY code")]
            assert codes == ["NEW01", "OLD01"], "the older node's tombstone is kept"
            with pytest.raises(Fenced):  # a stale owner's late write still meets the tombstone
                store.apply_batch([store.prepare_save("OLD01", {}, "late", 2, 2, fence=6)])
            assert store.load("OLD01") is None
        finally:
            store.close()
