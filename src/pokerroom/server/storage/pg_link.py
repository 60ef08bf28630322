"""The PostgreSQL connections of a store: (re)opened on demand, never hung.

Why apart from the store: what a batch *writes* (:mod:`.postgres`) and how a connection survives an outage
are two jobs. A :class:`Link` is one connection behind a lock: opened lazily, dropped when broken so the
next call reconnects, replaced once when it died while idle, and watched by a :class:`Watchdog` that cuts
its socket when a call runs past its deadline (a link that swallows packets answers nothing at all, and
neither ``statement_timeout`` nor TCP keepalives end a call already waiting for an answer).
"""

from __future__ import annotations

import os
import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

import psycopg

from pokerroom.server.storage.base import StoreError, StoreUnavailable

T = TypeVar("T")
Conn = psycopg.Connection[tuple[Any, ...]]


class Watchdog:
    """Shuts a connection's socket down when a call on it runs past its deadline: the blocked call then
    fails at once (a server that stopped answering, a link that swallows packets) instead of hanging.

    One thread per connection slot, armed and disarmed around each call (a timer thread per batch would
    cost a thread start on every commit). Arming wakes the thread only when it sleeps with no deadline:
    one that waits for an earlier call's deadline (never later than the new one) finds the new call when it
    wakes, so a busy writer no longer switches to this thread at every commit."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self._cond = threading.Condition()
        self._conn: Conn | None = None
        self._deadline = 0.0
        self._fired = threading.Event()
        self._stopped = False
        self._idle = False  # the thread waits with no deadline: arming must wake it
        self._thread: threading.Thread | None = None

    @contextmanager
    def guard(self, conn: Conn) -> Iterator[threading.Event]:
        fired = threading.Event()
        with self._cond:
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="pokerroom-pg-watchdog", daemon=True)
                self._thread.start()
            self._conn, self._deadline, self._fired = conn, time.monotonic() + self.seconds, fired
            if self._idle:
                self._cond.notify()
        try:
            yield fired
        finally:
            with self._cond:
                self._conn = None

    def _run(self) -> None:
        with self._cond:
            while not self._stopped:
                if self._conn is None:
                    self._idle = True
                    self._cond.wait()
                    self._idle = False
                    continue
                left = self._deadline - time.monotonic()
                if left > 0:
                    self._cond.wait(left)
                    continue
                conn, self._conn = self._conn, None
                self._fired.set()
                try:
                    with socket.socket(fileno=os.dup(conn.pgconn.socket)) as sock:
                        sock.shutdown(socket.SHUT_RDWR)
                except (OSError, psycopg.Error):
                    pass

    def stop(self) -> None:
        with self._cond:
            self._stopped = True
            self._cond.notify()


class Link:
    """One lazily (re)opened connection behind a lock; a broken one is dropped so the next call reconnects."""

    def __init__(self, connect: Callable[[], Conn], batch_timeout_s: float, what: str) -> None:
        self._connect = connect
        self._timeout = batch_timeout_s
        self._what = what
        self._conn: Conn | None = None
        self._watchdog = Watchdog(batch_timeout_s)
        self.lock = threading.Lock()

    def run(self, work: Callable[[Conn], T]) -> T:
        """``work(conn)`` under the lock and the watchdog; connection failures become StoreUnavailable.

        A connection that was opened earlier may have died while idle (PostgreSQL restarted, a proxy cut):
        if it fails at once as broken, ``work`` runs once more on a new connection. That is safe for
        batches too: every operation is an upsert or a delete, so running a batch twice (should the first
        commit have landed unseen) leaves the same rows."""
        with self.lock:
            for attempt in (1, 2):
                reused = self._conn is not None and not self._conn.closed
                conn = self._conn if reused and self._conn is not None else self._open()
                fired = threading.Event()
                try:
                    with self._watchdog.guard(conn) as fired:
                        result = work(conn)
                except psycopg.Error as exc:
                    lost = fired.is_set() or conn.broken or conn.closed
                    if lost or isinstance(exc, psycopg.OperationalError):
                        self._drop()
                    if lost and reused and not fired.is_set() and attempt == 1:
                        continue  # died while idle: try a fresh connection once
                    if lost or isinstance(exc, psycopg.OperationalError):
                        reason = f"no answer within {self._timeout:g} s" if fired.is_set() else str(exc)
                        raise StoreUnavailable(f"PostgreSQL is unavailable ({self._what}): {reason}") from exc
                    raise StoreError(f"PostgreSQL refused the {self._what}: {exc}") from exc
                if fired.is_set():  # done just as the watchdog cut: the socket is gone, reconnect next time
                    self._drop()
                return result
        raise AssertionError("unreachable")  # pragma: no cover

    def _open(self) -> Conn:
        try:
            self._conn = self._connect()
        except psycopg.Error as exc:
            raise StoreUnavailable(f"PostgreSQL is unreachable ({self._what}): {exc}") from exc
        return self._conn

    def _drop(self) -> None:
        if self._conn is not None:
            try:
                self._conn.close()
            except Exception:  # a broken connection may fail to close; it is gone either way
                pass
        self._conn = None

    def close(self) -> None:
        with self.lock:
            self._drop()
        self._watchdog.stop()
