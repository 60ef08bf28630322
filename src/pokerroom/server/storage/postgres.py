"""The PostgreSQL room store of a cluster: the source of truth every node shares.

Same tables and semantics as the SQLite store (:mod:`.sqlite`): a room's snapshot, its action log, its
finished hands, its pre-actions changed since the snapshot. What PostgreSQL adds is **fencing**: every write
carries the writing node's token and a room refuses a token older than its stored one, so a node that lost its
lease (paused, cut off) can never overwrite the new owner's work. The check runs in the same transaction as
the write, a batch being one call of a PL/pgSQL function (:mod:`.pg_apply`): it locks the rows of every
fenced room it writes (``SELECT ... FOR UPDATE``, in code order so two nodes never deadlock), skips the
operations of rooms whose token is outdated, writes the rest and commits; then :class:`Fenced` names the
refused rooms. A refused room's operations never run, so one fenced room never aborts the batch (no savepoint
is needed), and a concurrent :meth:`PgStore.claim` waits for the lock.

**Outages.** The writer thread must never hang: connecting gives up after ``connect_timeout_s``, the server
cancels a statement after ``statement_timeout_ms``, and a watchdog shuts the socket down if a whole batch
takes longer than ``batch_timeout_s`` (a link that swallows packets answers nothing at all). The error is
:class:`StoreUnavailable`; the connection is dropped and the next batch connects again, so writes resume
as soon as PostgreSQL is back.

Connections (:mod:`.pg_link`): one for the writer thread (batches), one for everything else (reads,
claims), each behind a lock and (re)opened on demand. A deleted room leaves a tombstone with its token
(``fences``), so even a closed room refuses a stale owner's late write. ``meta``, actions and hands are
JSONB (an operator can query them); the engine state is TEXT (opaque, not worth parsing on every snapshot).
"""

from __future__ import annotations

import json
import time
from typing import Any

import psycopg

from pokerroom.server.storage import base, pg_apply
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
from pokerroom.server.storage.pg_link import Conn, Link

#: numbered migrations: migration N is ``MIGRATIONS[N-1]``, statements applied once, in order
MIGRATIONS: tuple[tuple[str, ...], ...] = (
    ("CREATE TABLE IF NOT EXISTS rooms (code TEXT PRIMARY KEY, meta JSONB NOT NULL, state TEXT, "
     "version BIGINT NOT NULL, snapshot_version BIGINT NOT NULL, updated_ms BIGINT NOT NULL, "
     "fence BIGINT NOT NULL DEFAULT 0)",
     "CREATE TABLE IF NOT EXISTS actions (code TEXT NOT NULL, version BIGINT NOT NULL, kind TEXT NOT NULL, "
     "player_id TEXT, client_msg_id TEXT, action JSONB, at_ms BIGINT NOT NULL, PRIMARY KEY (code, version))",
     "CREATE TABLE IF NOT EXISTS hands (code TEXT NOT NULL, seq BIGINT NOT NULL, data JSONB NOT NULL, "
     "PRIMARY KEY (code, seq))"),
    # tombstones: the token of a deleted room, so an old owner's late write cannot resurrect it
    ("CREATE TABLE IF NOT EXISTS fences (code TEXT PRIMARY KEY, fence BIGINT NOT NULL)",),
    # issue 13: a room's pre-actions changed since its snapshot (a small write instead of a snapshot)
    ("CREATE TABLE IF NOT EXISTS preactions (code TEXT PRIMARY KEY, data JSONB NOT NULL)",),
    # when each tombstone was left, so the old ones can be pruned (the ones there now count from today)
    ("ALTER TABLE fences ADD COLUMN IF NOT EXISTS deleted_ms BIGINT NOT NULL DEFAULT 0",
     "UPDATE fences SET deleted_ms = (extract(epoch FROM clock_timestamp()) * 1000)::bigint "
     "WHERE deleted_ms = 0",
     "CREATE INDEX IF NOT EXISTS fences_deleted_ms ON fences (deleted_ms)"),
    # a batch of writes as one statement (pg_apply.py)
    (pg_apply.FUNCTION,),
    # a tombstone left by a node still on code before migration 6 (a rolling upgrade) names no time: it is
    # stamped with the time it is written, not 0, which the next delete would prune at once
    ("ALTER TABLE fences ALTER COLUMN deleted_ms SET DEFAULT "
     "(extract(epoch FROM clock_timestamp()) * 1000)::bigint",
     "UPDATE fences SET deleted_ms = (extract(epoch FROM clock_timestamp()) * 1000)::bigint "
     "WHERE deleted_ms = 0"),
)
#: how long a write waits for others to join its transaction (``GroupWriter``, decision 0059): a transaction
#: costs PostgreSQL and the writer thread several times what one more operation in it does
GATHER_S = 0.008

_MIGRATION_LOCK = 0x706F6B6572  # pg_advisory_xact_lock key: nodes starting together migrate one at a time

def migrate(conn: Conn) -> int:
    """Bring the schema to the newest version in one transaction (under an advisory lock, so nodes starting
    together do it once); returns the version. A database from a newer pokerroom is refused, untouched."""
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (_MIGRATION_LOCK,))
        conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, "
                     "applied_ms BIGINT NOT NULL)")
        row = conn.execute("SELECT coalesce(max(version), 0) FROM schema_version").fetchone()
        current = int(row[0]) if row else 0
        if current > len(MIGRATIONS):
            raise StoreError(f"the room database has schema version {current}, newer than this pokerroom "
                             f"({len(MIGRATIONS)}); run the newer pokerroom")
        for number, statements in enumerate(MIGRATIONS, 1):
            if number > current:
                for sql in statements:
                    conn.execute(sql)  # constant DDL, not user input
                conn.execute("INSERT INTO schema_version VALUES (%s, %s)", (number, int(time.time() * 1000)))
    return len(MIGRATIONS)


class PgStore(base.PreparedOps):
    """The room store on PostgreSQL (psycopg 3, synchronous: batches run on the GroupWriter thread).

    ``synchronous_commit=False`` lets a commit return before PostgreSQL flushed its WAL (faster, like the
    SQLite store's ``synchronous=NORMAL``), at the price of losing the last acknowledged changes if the
    *database server* crashes; the default keeps PostgreSQL's guarantee (a node's death never loses them
    either way). ``gather_s``: how long the group-commit writer lets a write wait for others to join its
    transaction (:data:`GATHER_S`; 0: commit at once)."""

    def __init__(self, url: str, *, connect_timeout_s: float = 2.0, statement_timeout_ms: int = 3000,
                 batch_timeout_s: float = 4.0, synchronous_commit: bool = True,
                 gather_s: float = GATHER_S) -> None:
        self.url = url
        self.gather_s = gather_s  # read by the GroupWriter: how long a write waits for others to join it
        self._synchronous_commit = synchronous_commit
        self.damaged: list[str] = []
        self.tombstone_kept_ms = TOMBSTONE_KEPT_MS  # how long a deleted room's token is kept (tests: shorter)
        self._connect_timeout_s = connect_timeout_s
        self._statement_timeout_ms = statement_timeout_ms
        self._writer = Link(self._open, batch_timeout_s, "write")
        self._reader = Link(self._open, batch_timeout_s, "read")
        self.schema_version = self._reader.run(migrate)

    def _open(self) -> Conn:
        return psycopg.connect(
            self.url, autocommit=True, connect_timeout=max(1, round(self._connect_timeout_s)),
            application_name="pokerroom",
            options=f"-c statement_timeout={int(self._statement_timeout_ms)} "
                    f"-c lock_timeout={int(self._statement_timeout_ms)} "
                    f"-c idle_in_transaction_session_timeout={int(self._statement_timeout_ms) * 2}"
                    + ("" if self._synchronous_commit else " -c synchronous_commit=off"),
            keepalives=1, keepalives_idle=5, keepalives_interval=2, keepalives_count=3,
            tcp_user_timeout=int(self._statement_timeout_ms))

    # --- writes ------------------------------------------------------------------------------------------

    def apply_batch(self, ops: list[Op]) -> None:
        """Run prepared operations in ONE transaction, fenced rooms' rows locked first; then raise
        :class:`Fenced` for the rooms whose writes carried an outdated token (none of theirs ran)."""
        refused = self._writer.run(lambda conn: self._apply(conn, ops, self.tombstone_kept_ms))
        if refused:
            raise Fenced(refused)

    @staticmethod
    def _apply(conn: Conn, ops: list[Op], tombstone_kept_ms: int) -> frozenset[str]:
        """One statement, one round trip, its own transaction (``pg_apply``; a second when a batch of action
        rows names a room without a row): the refused rooms' codes."""
        return pg_apply.apply(conn, ops, int(time.time() * 1000), tombstone_kept_ms)

    def append_log(self, code: str, log: LogRow, fence: int | None = None) -> None:
        self.apply_batch([self.prepare_log(code, log, fence)])

    def save(self, code: str, meta: dict[str, Any], state: str | None, version: int, now_ms: int,
             log: LogRow | None = None, hands: list[tuple[int, dict[str, Any]]] | None = None,
             fence: int | None = None) -> None:
        self.apply_batch([self.prepare_save(code, meta, state, version, now_ms, log, hands, fence)])

    def delete(self, code: str, fence: int | None = None) -> None:
        self.apply_batch([("delete", (code,) if fence is None else (code, fence))])

    def claim(self, code: str, token: int) -> bool:
        """Raise the room's fencing token to ``token`` if newer (True); False otherwise or without a row.
        Waits for a batch holding the room's row lock, so a claim never lands inside a fenced write."""
        def work(conn: Conn) -> bool:
            cur = conn.execute("UPDATE rooms SET fence=%s WHERE code=%s AND fence<%s", (token, code, token))
            return cur.rowcount == 1
        return self._reader.run(work)

    # --- reads -------------------------------------------------------------------------------------------

    def codes(self) -> list[str]:
        """Every stored room code, sorted."""
        return self._reader.run(
            lambda conn: [str(row[0]) for row in conn.execute("SELECT code FROM rooms ORDER BY code")])

    def has(self, code: str) -> bool:
        return self._reader.run(
            lambda conn: conn.execute("SELECT 1 FROM rooms WHERE code=%s", (code,)).fetchone() is not None)

    def _load(self, code: str) -> StoredRoom | None:
        """One room, in one read transaction (the snapshot and its rows agree); raises on damage."""
        def work(conn: Conn) -> tuple[Any, ...] | None:
            with conn.transaction():
                conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
                row = conn.execute("SELECT meta::text, state, snapshot_version, updated_ms, fence, "
                                   "(SELECT data::text FROM preactions WHERE preactions.code=rooms.code) "
                                   "FROM rooms WHERE code=%s", (code,)).fetchone()
                if row is None:
                    return None
                rows = conn.execute(_LOG_SELECT, (code, row[2])).fetchall()
                return (*row, rows)
        found = self._reader.run(work)
        if found is None:
            return None
        return base.decode_stored(code, found, lambda _version: (base.log_row(*row) for row in found[6]))

    def load(self, code: str) -> StoredRoom | None:
        """One room: its last snapshot and the log rows after it; None if absent or damaged (then its code
        is in :attr:`damaged`). An unreachable database raises :class:`StoreUnavailable`."""
        try:
            return self._load(code)
        except StoreError:
            raise
        except Exception as exc:
            quarantine(self.damaged, code, exc)
            return None

    def load_all(self) -> list[StoredRoom]:
        """Every readable room, one at a time: a damaged row quarantines that room only (see SQLite)."""
        self.damaged = []
        out = [room for room in (self.load(code) for code in self.codes()) if room is not None]
        return out

    def hands(self, code: str) -> list[tuple[int, dict[str, Any]]]:
        """The stored finished hands of a room, ``(seq, record)``, oldest first (at most HANDS_KEPT)."""
        rows = self._reader.run(lambda conn: conn.execute(
            "SELECT seq, data::text FROM hands WHERE code=%s ORDER BY seq DESC LIMIT %s", (code, HANDS_KEPT)
        ).fetchall())
        return [(int(seq), json.loads(data)) for seq, data in reversed(rows)]

    def recent_acks(self, code: str, limit: int = 512) -> list[tuple[str, str, int]]:
        """(player_id, client_msg_id, version) of the newest client actions, oldest first."""
        rows = self._reader.run(lambda conn: conn.execute(
            "SELECT player_id, client_msg_id, version FROM actions WHERE code=%s AND client_msg_id "
            "IS NOT NULL ORDER BY version DESC LIMIT %s", (code, limit)).fetchall())
        return [(str(p), str(c), int(v)) for p, c, v in reversed(rows)]

    def log(self, code: str, after: int = -1) -> list[LogRow]:
        """The action log of a room, oldest first: every row, or those newer than version ``after``."""
        rows = self._reader.run(lambda conn: conn.execute(_LOG_SELECT, (code, after)).fetchall())
        return [base.log_row(*row) for row in rows]

    def close(self) -> None:
        self._writer.close()
        self._reader.close()


_LOG_SELECT = ("SELECT version, kind, player_id, client_msg_id, action::text, at_ms FROM actions "
               "WHERE code=%s AND version>%s ORDER BY version")
