"""Crash-safe persistence of rooms in an embedded SQLite database (WAL).

Why: a friend's server may be killed at any moment (SIGKILL, OOM, a closed laptop). Every accepted change is
committed *before* anything is sent. A change is stored in one of two ways:

- a **snapshot** (``save``): the room's metadata (members, token digests, host, phase), the engine state
  (which includes the dealing RNG, so the next cards survive) with the version it belongs to
  (``snapshot_version``), and the change's action-log row, in one transaction;
- a **log row** only (``log``): a change the engine can recompute exactly from the previous state (a
  player's or bot's action, a timeout: the engine is pure and deterministic), written as one small
  ``actions`` row. The room's version is then the newest row's.

Loading a room gives its last snapshot and the log rows after it (:attr:`StoredRoom.replay`); the room
server re-applies them. So a change costs a write proportional to the action, not to the state (issue 13),
and the room server takes a snapshot at least once per hand. WAL with ``synchronous=NORMAL`` keeps commits
cheap and survives a process kill (only an OS crash could lose the last commits). ``path=None`` gives an
in-memory store for tests.

Checkpoints (copying the WAL into the database file, with an fsync) are taken by a background thread on
its own connection instead of inside a commit: an automatic checkpoint would stall the event loop, and
with it every room, for as long as the disk takes to fsync (hundreds of ms on a busy machine).
"""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

_SCHEMA = """
CREATE TABLE IF NOT EXISTS rooms (
    code TEXT PRIMARY KEY,
    meta TEXT NOT NULL,
    state TEXT,
    version INTEGER NOT NULL,
    updated_ms INTEGER NOT NULL,
    snapshot_version INTEGER
);
CREATE TABLE IF NOT EXISTS actions (
    code TEXT NOT NULL,
    version INTEGER NOT NULL,
    kind TEXT NOT NULL,
    player_id TEXT,
    client_msg_id TEXT,
    action TEXT,
    at_ms INTEGER NOT NULL,
    PRIMARY KEY (code, version)
);
CREATE TABLE IF NOT EXISTS hands (
    code TEXT NOT NULL,
    seq INTEGER NOT NULL,
    data TEXT NOT NULL,
    PRIMARY KEY (code, seq)
);
"""

log = logging.getLogger("pokerroom.server")

HANDS_KEPT = 10  # finished hands kept per room (the history a player can review)


_UPSERT = ("INSERT INTO rooms(code, meta, state, version, updated_ms, snapshot_version) VALUES (?,?,?,?,?,?) "
           "ON CONFLICT(code) DO UPDATE SET meta=excluded.meta, state=excluded.state, "
           "version=excluded.version, updated_ms=excluded.updated_ms, "
           "snapshot_version=excluded.snapshot_version")
#: a store written before log-only changes existed: its state always belongs to its version
_MIGRATE = ("ALTER TABLE rooms ADD COLUMN snapshot_version INTEGER",
            "UPDATE rooms SET snapshot_version=version WHERE snapshot_version IS NULL")
_LOG = "INSERT OR REPLACE INTO actions VALUES (?,?,?,?,?,?,?)"
_HAND = "INSERT OR REPLACE INTO hands(code, seq, data) VALUES (?,?,?)"
_HAND_PRUNE = "DELETE FROM hands WHERE code=? AND seq<=?"


@dataclass(frozen=True)
class LogRow:
    """One accepted change: what, by whom, and the client's message id (for duplicate detection)."""

    version: int
    kind: str  # "action" | "timeout" | "bot" | "start" | "leave" | "join" (a seat) | "preaction"
    player_id: str | None
    client_msg_id: str | None
    action: dict[str, Any] | None
    at_ms: int


@dataclass(frozen=True)
class StoredRoom:
    """A room as stored: its last snapshot (``state`` belongs to ``version``) and the log rows after it,
    oldest first, which the room server re-applies to reach the room's newest version."""

    code: str
    meta: dict[str, Any]
    state: str | None
    version: int
    updated_ms: int
    replay: tuple[LogRow, ...] = ()

    @property
    def newest_version(self) -> int:
        return self.replay[-1].version if self.replay else self.version

    @property
    def newest_ms(self) -> int:
        return max([self.updated_ms, *(row.at_ms for row in self.replay)])


class StoreError(Exception):
    """The store file cannot be used at all (a damaged header); the message says which file and what to do."""


class Store:
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
        self._busy_timeout_ms = busy_timeout_ms
        try:
            with self._lock:
                if path is not None:
                    self._db.execute("PRAGMA journal_mode=WAL")
                    self._db.execute("PRAGMA wal_autocheckpoint=0")
                self._db.execute("PRAGMA synchronous=NORMAL")
                self._db.execute(f"PRAGMA busy_timeout={int(busy_timeout_ms)}")
                self._db.executescript(_SCHEMA)
                columns = {row[1] for row in self._db.execute("PRAGMA table_info(rooms)")}
                if "snapshot_version" not in columns:  # pragma: no cover - a store from before issue 13
                    for sql in _MIGRATE:
                        self._db.execute(sql)
        except sqlite3.DatabaseError as exc:
            self._db.close()
            raise StoreError(
                f"the room store {path} cannot be opened ({exc}): its file header is damaged or it is not "
                "a pokerroom SQLite store. Move the file away (or restore a backup) and start again; "
                "nothing was changed.") from None
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

    @staticmethod
    def prepare_save(code: str, meta: dict[str, Any], state: str | None, version: int, now_ms: int,
                     log: LogRow | None = None, hands: list[tuple[int, dict[str, Any]]] | None = None
                     ) -> tuple[str, tuple[Any, ...]]:
        """The ``("save", params)`` operation for :meth:`apply_batch`, serialised by the caller so the
        writer thread does as little Python (GIL) work as possible. ``hands`` are finished hands
        ``(seq, record)`` to store with this change; only the newest :data:`HANDS_KEPT` per room stay."""
        room = (code, json.dumps(meta, ensure_ascii=False, separators=(",", ":")), state, version, now_ms,
                version)
        row = None if log is None else Store._log_params(code, log)
        extra: list[tuple[str, tuple[Any, ...]]] = []
        for seq, record in hands or ():
            extra.append((_HAND, (code, seq, json.dumps(record, ensure_ascii=False, separators=(",", ":")))))
        if hands:
            extra.append((_HAND_PRUNE, (code, max(seq for seq, _ in hands) - HANDS_KEPT)))
        return ("save", (room, row, tuple(extra)))

    @staticmethod
    def _log_params(code: str, log: LogRow) -> tuple[Any, ...]:
        return (code, log.version, log.kind, log.player_id, log.client_msg_id,
                None if log.action is None else json.dumps(log.action, separators=(",", ":")), log.at_ms)

    @staticmethod
    def prepare_log(code: str, log: LogRow) -> tuple[str, tuple[Any, ...]]:
        """The ``("log", params)`` operation: a change stored as its action-log row alone (the room's
        snapshot stays as it is; loading re-applies the row)."""
        return ("log", (Store._log_params(code, log),))

    def append_log(self, code: str, log: LogRow) -> None:
        """Store a replayable change as its log row only (see the module docstring)."""
        self.apply_batch([self.prepare_log(code, log)])

    def save(self, code: str, meta: dict[str, Any], state: str | None, version: int, now_ms: int,
             log: LogRow | None = None, hands: list[tuple[int, dict[str, Any]]] | None = None) -> None:
        """Upsert the room and append its log row (and finished hands), atomically."""
        self.apply_batch([self.prepare_save(code, meta, state, version, now_ms, log, hands)])

    def delete(self, code: str) -> None:
        """Forget a closed room entirely: its chips vanish with it (poker.md §12)."""
        self.apply_batch([("delete", (code,))])

    def apply_batch(self, ops: list[tuple[str, tuple[Any, ...]]]) -> None:
        """Run prepared ``save`` and ``delete`` operations in order, in ONE transaction.

        Saves only (the usual case) go in two ``executemany`` calls, so a batch of any size costs the
        writer thread a handful of GIL hand-offs rather than several per room.
        """
        with self._lock:
            self._db.execute("BEGIN")
            try:
                if all(op == "save" or op == "log" for op, _ in ops):
                    # snapshots first, then every log row: a room's rows never precede its snapshot
                    # within a batch either, since a snapshot's version is newer than any earlier row
                    self._db.executemany(_UPSERT, [args[0] for op, args in ops if op == "save"])
                    self._db.executemany(_LOG, [args[1] if op == "save" else args[0] for op, args in ops
                                                if (args[1] if op == "save" else args[0]) is not None])
                    for op, args in ops:
                        for sql, params in args[2] if op == "save" and len(args) > 2 else ():
                            self._db.execute(sql, params)
                else:
                    for op, args in ops:
                        if op == "save":
                            self._db.execute(_UPSERT, args[0])
                            if args[1] is not None:
                                self._db.execute(_LOG, args[1])
                            for sql, params in args[2] if len(args) > 2 else ():
                                self._db.execute(sql, params)
                        elif op == "log":
                            self._db.execute(_LOG, args[0])
                        elif op == "delete":
                            self._db.execute("DELETE FROM rooms WHERE code=?", args)
                            self._db.execute("DELETE FROM actions WHERE code=?", args)
                            self._db.execute("DELETE FROM hands WHERE code=?", args)
                        else:
                            raise ValueError(f"unknown store operation {op!r}")
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise

    def load_all(self) -> list[StoredRoom]:
        """Every readable room: its last snapshot and the log rows stored after it, read one room at a time
        (issue #12.6).

        Why one by one: a single damaged row (bad JSON in its metadata, random bytes, a wrong type) used to
        fail the whole start-up, so no room was served. Now a damaged room is left untouched in the store,
        its code is logged and kept in :attr:`damaged` (the server answers 404 for it), and the rest load.
        Columns are read as bytes and decoded here, so invalid UTF-8 is a damaged row, not an exception
        from the driver.
        """
        with self._lock:
            ids = self._db.execute("SELECT rowid, CAST(code AS BLOB) FROM rooms").fetchall()
        out: list[StoredRoom] = []
        self.damaged = []
        for rowid, raw_code in ids:
            code = bytes(raw_code or b"").decode("utf-8", "replace")
            try:
                with self._lock:
                    meta, state, version, ms = self._db.execute(
                        "SELECT CAST(meta AS BLOB), CAST(state AS BLOB), snapshot_version, updated_ms "
                        "FROM rooms WHERE rowid=?", (rowid,)).fetchone()
                data = json.loads(bytes(meta).decode("utf-8"))
                if not isinstance(data, dict) or not isinstance(version, int) or not isinstance(ms, int):
                    raise ValueError("not a room row")
                text = None if state is None else bytes(state).decode("utf-8")
                out.append(StoredRoom(code, data, text, version, ms, tuple(self.log(code, after=version))))
            except Exception as exc:  # any damage quarantines this room only
                log.error("room %s: its stored row is damaged (%s); it stays in the store, quarantined",
                          code, type(exc).__name__)
                self.damaged.append(code)
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
        return [LogRow(v, k, p, c, None if a is None else json.loads(a), t) for v, k, p, c, a, t in rows]

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


class GroupWriter:
    """Group commit: store writes from every room, batched into one transaction on one thread.

    Why: a write must finish before its change is published (so a crash never loses what players saw),
    but doing it on the event loop lets one slow disk operation freeze every room, and one thread writing
    one transaction per change is throttled by GIL hand-offs with the busy event loop. Here each caller
    awaits a future while the thread takes *everything* pending, commits it at once, and resolves all.
    """

    def __init__(self, store: Store) -> None:
        self._store = store
        self._pending: list[tuple[str, tuple[Any, ...], asyncio.Future[None]]] = []
        self._cond = threading.Condition()
        self._closed = False
        self._thread = threading.Thread(target=self._run, name="pokerroom-store", daemon=True)
        self._thread.start()

    async def submit(self, op: str, *args: Any) -> None:
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        with self._cond:
            if self._closed:
                raise RuntimeError("the store writer is closed")
            self._pending.append((op, args, future))
            self._cond.notify()
        await future

    def _run(self) -> None:
        while True:
            with self._cond:
                while not self._pending and not self._closed:
                    self._cond.wait()
                if not self._pending:
                    return
                batch, self._pending = self._pending, []
            error: BaseException | None = None
            try:
                self._store.apply_batch([(op, args) for op, args, _ in batch])
            except BaseException as exc:
                error = exc
            for _, _, future in batch:
                future.get_loop().call_soon_threadsafe(_settle, future, error)

    def close(self) -> None:
        """Finish what is pending, then stop the thread."""
        with self._cond:
            self._closed = True
            self._cond.notify()
        self._thread.join(timeout=30)


def _settle(future: asyncio.Future[None], error: BaseException | None) -> None:
    if future.done():
        return
    if error is None:
        future.set_result(None)
    else:
        future.set_exception(error)
