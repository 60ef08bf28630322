"""Crash-safe persistence of rooms in an embedded SQLite database (WAL): the single-node store.

Why: a friend's server may be killed at any moment (SIGKILL, OOM, a closed laptop). Every accepted change is
committed *before* anything is sent. A change is stored in one of two ways:

- a **snapshot** (``save``): the room's metadata (members, token digests, host, phase), the engine state
  (which includes the dealing RNG, so the next cards survive) with the version it belongs to
  (``snapshot_version``), and the change's action-log row, in one transaction;
- a **log row** only (``log``): a change the engine can recompute exactly from the previous state (a
  player's or bot's action, a fired pre-action, a timeout: the engine is pure and deterministic), written
  as one small ``actions`` row. The room's version is then the newest row's.

The room's pre-actions (the room's, not the engine's) are in the snapshot's metadata; when they change
between snapshots (a player chooses one, a change uses or cancels one), their few hundred bytes go to the
room's ``preactions`` row, in the same transaction as the change's log row (see :mod:`.base`).

Loading a room gives its last snapshot and the log rows after it (:attr:`StoredRoom.replay`); the room
server re-applies them. So a change costs a write proportional to the action, not to the state (issue 13),
and the room server takes a snapshot at least once per hand. WAL with ``synchronous=NORMAL`` keeps commits
cheap and survives a process kill (only an OS crash could lose the last commits). ``path=None`` gives an
in-memory store for tests.

Checkpoints (copying the WAL into the database file, with an fsync) are taken by a background thread on
its own connection instead of inside a commit: an automatic checkpoint would stall the event loop, and
with it every room, for as long as the disk takes to fsync (hundreds of ms on a busy machine).

The schema is versioned (``schema_version``, :data:`MIGRATIONS`): opening a store from an older pokerroom
upgrades it in place, once. Fencing tokens are kept and checked exactly as PostgreSQL does (the same store
tests run on both), although a single node never sends one.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pokerroom.server.storage import base
from pokerroom.server.storage.base import (
    HANDS_KEPT,
    TOMBSTONE_KEPT_MS,
    Fenced,
    LogRow,
    Op,
    StoredRoom,
    StoreError,
    quarantine,
)

_UPSERT = ("INSERT INTO rooms(code, meta, state, version, updated_ms, snapshot_version, fence) "
           "VALUES (?,?,?,?,?,?,?) ON CONFLICT(code) DO UPDATE SET meta=excluded.meta, state=excluded.state, "
           "version=excluded.version, updated_ms=excluded.updated_ms, "
           "snapshot_version=excluded.snapshot_version, fence=MAX(rooms.fence, excluded.fence)")
_LOG = "INSERT OR REPLACE INTO actions VALUES (?,?,?,?,?,?,?)"
_HAND = "INSERT OR REPLACE INTO hands(code, seq, data) VALUES (?,?,?)"
_HAND_PRUNE = "DELETE FROM hands WHERE code=? AND seq<=?"
_PRE = "INSERT INTO preactions(code, data) VALUES (?,?) ON CONFLICT(code) DO UPDATE SET data=excluded.data"
_PRE_DROP = "DELETE FROM preactions WHERE code=?"
_TOMBSTONE = ("INSERT INTO fences(code, fence, deleted_ms) SELECT code, MAX(fence, coalesce(?, 0)), ? "
              "FROM rooms WHERE code=? AND MAX(fence, coalesce(?, 0)) > 0 "
              "ON CONFLICT(code) DO UPDATE SET fence=MAX(fences.fence, excluded.fence), "
              "deleted_ms=excluded.deleted_ms")
_TOMBSTONE_PRUNE = "DELETE FROM fences WHERE deleted_ms < ?"


def _columns(db: sqlite3.Connection, table: str) -> set[str]:
    return {row[1] for row in db.execute(f"PRAGMA table_info({table})")}


def _m1_tables(db: sqlite3.Connection) -> None:
    """The first schema (before issue 13): rooms, their action log and finished hands."""
    db.execute("CREATE TABLE IF NOT EXISTS rooms (code TEXT PRIMARY KEY, meta TEXT NOT NULL, state TEXT, "
               "version INTEGER NOT NULL, updated_ms INTEGER NOT NULL)")
    db.execute("CREATE TABLE IF NOT EXISTS actions (code TEXT NOT NULL, version INTEGER NOT NULL, "
               "kind TEXT NOT NULL, player_id TEXT, client_msg_id TEXT, action TEXT, at_ms INTEGER NOT NULL, "
               "PRIMARY KEY (code, version))")
    db.execute("CREATE TABLE IF NOT EXISTS hands (code TEXT NOT NULL, seq INTEGER NOT NULL, "
               "data TEXT NOT NULL, PRIMARY KEY (code, seq))")


def _m2_snapshot_version(db: sqlite3.Connection) -> None:
    """Issue 13 (log-only changes): the version a snapshot belongs to. A store written before it always
    stored the state of its version."""
    if "snapshot_version" not in _columns(db, "rooms"):
        db.execute("ALTER TABLE rooms ADD COLUMN snapshot_version INTEGER")
    db.execute("UPDATE rooms SET snapshot_version=version WHERE snapshot_version IS NULL")


def _m3_fence(db: sqlite3.Connection) -> None:
    """Issue 14: each room's fencing token (only ever raised)."""
    if "fence" not in _columns(db, "rooms"):
        db.execute("ALTER TABLE rooms ADD COLUMN fence INTEGER NOT NULL DEFAULT 0")


def _m4_tombstones(db: sqlite3.Connection) -> None:
    """Issue 14: the token of a deleted room, so an old owner's late write cannot resurrect it."""
    db.execute("CREATE TABLE IF NOT EXISTS fences (code TEXT PRIMARY KEY, fence INTEGER NOT NULL)")


def _m5_preactions(db: sqlite3.Connection) -> None:
    """Issue 13: a room's pre-actions changed since its snapshot, so that choosing, using or cancelling one
    is a small write instead of a snapshot."""
    db.execute("CREATE TABLE IF NOT EXISTS preactions (code TEXT PRIMARY KEY, data TEXT NOT NULL)")


def _m6_tombstone_age(db: sqlite3.Connection) -> None:
    """When each tombstone was left, so the old ones can be pruned (the ones there now count from today)."""
    if "deleted_ms" not in _columns(db, "fences"):
        db.execute("ALTER TABLE fences ADD COLUMN deleted_ms INTEGER NOT NULL DEFAULT 0")
    db.execute("UPDATE fences SET deleted_ms=? WHERE deleted_ms=0", (int(time.time() * 1000),))
    db.execute("CREATE INDEX IF NOT EXISTS fences_deleted_ms ON fences (deleted_ms)")


#: numbered migrations: migration N is ``MIGRATIONS[N-1]``, applied once, in order, each idempotent
MIGRATIONS: tuple[Callable[[sqlite3.Connection], None], ...] = (
    _m1_tables, _m2_snapshot_version, _m3_fence, _m4_tombstones, _m5_preactions, _m6_tombstone_age)


def migrate(db: sqlite3.Connection) -> int:
    """Bring the schema to the newest version in one transaction (a concurrent opener waits, then finds
    nothing to do); returns the version. A store from a newer pokerroom is refused, untouched."""
    db.execute("BEGIN IMMEDIATE")
    try:
        db.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, "
                   "applied_ms INTEGER NOT NULL)")
        current = db.execute("SELECT coalesce(max(version), 0) FROM schema_version").fetchone()[0]
        if current > len(MIGRATIONS):
            raise StoreError(f"the room store has schema version {current}, newer than this pokerroom "
                             f"({len(MIGRATIONS)}); run the newer pokerroom or restore a backup")
        for number, step in enumerate(MIGRATIONS, 1):
            if number > current:
                step(db)
                db.execute("INSERT INTO schema_version VALUES (?,?)", (number, int(time.time() * 1000)))
        db.execute("COMMIT")
    except BaseException:
        db.execute("ROLLBACK")
        raise
    return len(MIGRATIONS)


class Store(base.PreparedOps):
    """A tiny synchronous store; the room's single writer calls it inside its lock."""

    def __init__(self, path: str | Path | None, checkpoint_every_s: float = 1.0,
                 busy_timeout_ms: int = 5000) -> None:
        if path is not None:
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(
            ":memory:" if path is None else str(path), isolation_level=None, check_same_thread=False
        )
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._checkpointer: threading.Thread | None = None
        self.damaged: list[str] = []  # codes of rooms whose stored row could not be read (load_all)
        self.tombstone_kept_ms = TOMBSTONE_KEPT_MS  # how long a deleted room's token is kept (tests: shorter)
        self._busy_timeout_ms = busy_timeout_ms
        try:
            with self._lock:
                if path is not None:
                    self._db.execute("PRAGMA journal_mode=WAL")
                    self._db.execute("PRAGMA wal_autocheckpoint=0")
                self._db.execute("PRAGMA synchronous=NORMAL")
                self._db.execute(f"PRAGMA busy_timeout={int(busy_timeout_ms)}")
                migrate(self._db)
        except sqlite3.DatabaseError as exc:
            self._db.close()
            raise StoreError(
                f"the room store {path} cannot be opened ({exc}): its file header is damaged or it is not "
                "a pokerroom SQLite store. Move the file away (or restore a backup) and start again; "
                "nothing was changed.") from None
        except StoreError:
            self._db.close()
            raise
        if path is not None:
            self._checkpointer = threading.Thread(
                target=self._checkpoint_loop, args=(str(path), checkpoint_every_s),
                name="pokerroom-checkpoint", daemon=True)
            self._checkpointer.start()

    def _checkpoint_loop(self, path: str, every: float) -> None:
        db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        db.execute(f"PRAGMA busy_timeout={int(self._busy_timeout_ms)}")
        try:
            while not self._stop.wait(every):
                try:
                    db.execute("PRAGMA wal_checkpoint(PASSIVE)")  # never blocks the writer
                except sqlite3.Error:
                    pass
        finally:
            db.close()

    def append_log(self, code: str, log: LogRow) -> None:
        """Store a replayable change as its log row only (see the module docstring)."""
        self.apply_batch([self.prepare_log(code, log)])

    def save(self, code: str, meta: dict[str, Any], state: str | None, version: int, now_ms: int,
             log: LogRow | None = None, hands: list[tuple[int, dict[str, Any]]] | None = None,
             fence: int | None = None) -> None:
        """Upsert the room and append its log row (and finished hands), atomically."""
        self.apply_batch([self.prepare_save(code, meta, state, version, now_ms, log, hands, fence)])

    def delete(self, code: str) -> None:
        """Forget a closed room entirely: its chips vanish with it (poker.md §12)."""
        self.apply_batch([("delete", (code,))])

    def apply_batch(self, ops: list[Op]) -> None:
        """Run prepared operations in order, in ONE transaction; then raise :class:`Fenced` for the rooms
        whose writes carried an outdated fencing token (none of their operations ran).

        Saves and logs only (the usual case) go in a few ``executemany`` calls, so a batch of any size
        costs the writer thread a handful of GIL hand-offs rather than several per room.
        """
        with self._lock:
            self._db.execute("BEGIN")
            try:
                refused: frozenset[str] = frozenset()
                codes = base.fenced_codes(ops)
                if codes:
                    marks = ",".join("?" * len(codes))
                    stored = dict(self._db.execute(
                        f"SELECT code, fence FROM fences WHERE code IN ({marks})", codes).fetchall())
                    stored.update(self._db.execute(
                        f"SELECT code, fence FROM rooms WHERE code IN ({marks})", codes).fetchall())
                    ops, refused = base.without_refused(ops, stored)
                if base.only_saves_and_logs(ops):
                    g = base.grouped(ops)
                    self._db.executemany(_UPSERT, g.rooms)
                    self._db.executemany(_LOG, g.rows)
                    self._db.executemany(_HAND, g.hands)
                    self._db.executemany(_HAND_PRUNE, g.prunes)
                    if g.pre_drop:
                        self._db.executemany(_PRE_DROP, g.pre_drop)
                    if g.pre_set:
                        self._db.executemany(_PRE, g.pre_set)
                else:
                    for op in ops:
                        self._apply_one(op)
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
        if refused:
            raise Fenced(refused)

    def _apply_one(self, op: Op) -> None:
        kind, args = op
        if kind == "save":
            self._db.execute(_UPSERT, args[0])
            if args[1] is not None:
                self._db.execute(_LOG, args[1])
            self._db.executemany(_HAND, args[2])
            if args[3] is not None:
                self._db.execute(_HAND_PRUNE, args[3])
            self._db.execute(_PRE_DROP, (args[0][0],))
        elif kind == "log":
            self._db.execute(_LOG, args[0])
            if len(args) > 2 and args[2] is not None:
                self._db.execute(_PRE, args[2])
            if len(args) > 3:
                self._db.executemany(_HAND, args[3])
        elif kind == "pre":
            self._db.execute(_PRE, args[0])
        elif kind == "delete":
            fence = args[1] if len(args) > 1 else None
            now_ms = int(time.time() * 1000)
            self._db.execute(_TOMBSTONE, (fence, now_ms, args[0], fence))
            self._db.execute(_TOMBSTONE_PRUNE, (now_ms - self.tombstone_kept_ms,))
            code = (args[0],)
            self._db.execute("DELETE FROM rooms WHERE code=?", code)
            self._db.execute("DELETE FROM actions WHERE code=?", code)
            self._db.execute("DELETE FROM hands WHERE code=?", code)
            self._db.execute(_PRE_DROP, code)
        else:
            raise ValueError(f"unknown store operation {kind!r}")

    def claim(self, code: str, token: int) -> bool:
        """Raise the room's fencing token to ``token`` if newer (True); False otherwise or without a row."""
        with self._lock:
            cur = self._db.execute("UPDATE rooms SET fence=? WHERE code=? AND fence<?", (token, code, token))
        return cur.rowcount == 1

    def codes(self) -> list[str]:
        """Every stored room code (damaged rooms too), sorted. A code that is not UTF-8 text is damage: read
        as bytes (the driver would raise for the whole listing), quarantined and left out."""
        with self._lock:
            raw = self._db.execute("SELECT CAST(code AS BLOB) FROM rooms ORDER BY code").fetchall()
        out: list[str] = []
        for (data,) in raw:
            blob = bytes(data or b"")
            try:
                out.append(blob.decode("utf-8"))
            except UnicodeDecodeError as exc:
                quarantine(self.damaged, blob.decode("utf-8", "replace"), exc)
        return out

    def has(self, code: str) -> bool:
        with self._lock:
            return self._db.execute("SELECT 1 FROM rooms WHERE code=?", (code,)).fetchone() is not None

    def _load_where(self, where: str, key: Any, code: str) -> StoredRoom | None:
        """One room row, decoded as bytes so invalid UTF-8 is damage (not a driver exception); None if absent.
        Raises on damage."""
        with self._lock:
            row = self._db.execute(
                "SELECT CAST(meta AS BLOB), CAST(state AS BLOB), snapshot_version, updated_ms, fence, "
                "(SELECT CAST(data AS BLOB) FROM preactions WHERE preactions.code=rooms.code) "
                f"FROM rooms WHERE {where}", (key,)).fetchone()
        if row is None:
            return None
        return base.decode_stored(code, row, lambda version: self.log(code, after=version))

    def load(self, code: str) -> StoredRoom | None:
        """One room: its last snapshot and the log rows after it; None if absent or damaged (then its
        code is in :attr:`damaged`)."""
        try:
            return self._load_where("code=?", code, code)
        except Exception as exc:
            quarantine(self.damaged, code, exc)
            return None

    def load_all(self) -> list[StoredRoom]:
        """Every readable room: its last snapshot and the log rows stored after it, read one room at a time
        (a damaged room is quarantined, not fatal: docs/decisions/0012-damaged-rooms-quarantined.md).

        Why one by one: a single damaged row (bad JSON in its metadata, random bytes, a wrong type) used to
        fail the whole start-up, so no room was served. Now a damaged room is left untouched in the store,
        its code is logged and kept in :attr:`damaged` (the server answers 404 for it), and the rest load.
        """
        with self._lock:
            ids = self._db.execute("SELECT rowid, CAST(code AS BLOB) FROM rooms").fetchall()
        out: list[StoredRoom] = []
        self.damaged = []
        for rowid, raw_code in ids:
            code = bytes(raw_code or b"").decode("utf-8", "replace")
            try:
                room = self._load_where("rowid=?", rowid, code)
                if room is not None:
                    out.append(room)
            except Exception as exc:  # any damage quarantines this room only
                quarantine(self.damaged, code, exc)
        return out

    def hands(self, code: str) -> list[tuple[int, dict[str, Any]]]:
        """The stored finished hands of a room, ``(seq, record)``, oldest first (at most HANDS_KEPT)."""
        with self._lock:
            rows = self._db.execute(
                "SELECT seq, data FROM hands WHERE code=? ORDER BY seq DESC LIMIT ?", (code, HANDS_KEPT)
            ).fetchall()
        return [(seq, json.loads(data)) for seq, data in reversed(rows)]

    def recent_acks(self, code: str, limit: int = 512) -> list[tuple[str, str, int]]:
        """(player_id, client_msg_id, version) of the newest client actions, oldest first."""
        with self._lock:
            rows = self._db.execute(
                "SELECT player_id, client_msg_id, version FROM actions WHERE code=? AND client_msg_id "
                "IS NOT NULL ORDER BY version DESC LIMIT ?", (code, limit)
            ).fetchall()
        return [(p, c, v) for p, c, v in reversed(rows)]

    def log(self, code: str, after: int = -1) -> list[LogRow]:
        """The action log of a room, oldest first: every row, or those newer than version ``after``."""
        with self._lock:
            rows = self._db.execute(
                "SELECT version, kind, player_id, client_msg_id, action, at_ms FROM actions WHERE code=? "
                "AND version>? ORDER BY version", (code, after)
            ).fetchall()
        return [base.log_row(*row) for row in rows]

    def close(self) -> None:
        """Stop the checkpointer and fold the WAL into the database file."""
        self._stop.set()
        if self._checkpointer is not None:
            self._checkpointer.join(timeout=10)
        with self._lock:
            if self._checkpointer is not None:
                try:
                    self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
                except sqlite3.Error:
                    pass
            self._db.close()
