"""The PostgreSQL link's watchdog (``storage/pg_link.py``) cuts a call that runs past its deadline, whether
its thread was asleep with no deadline or still waiting for an earlier call's.

Why both: arming no longer wakes a thread that waits for an earlier deadline (a busy writer armed it at
every commit); such a thread must still find the new call when it wakes, and cut it on time.
"""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator
from contextlib import contextmanager
from types import SimpleNamespace
from typing import Any

from pokerroom.server.storage.pg_link import Watchdog

SECONDS = 0.3


def _conn(sock: socket.socket) -> Any:
    return SimpleNamespace(pgconn=SimpleNamespace(socket=sock.fileno()))


@contextmanager
def _watched() -> Iterator[tuple[Watchdog, socket.socket, socket.socket]]:
    """A watchdog and a connected pair of sockets (mine, the peer's), stopped and closed afterwards."""
    watchdog = Watchdog(SECONDS)
    mine, peer = socket.socketpair()
    try:
        yield watchdog, mine, peer
    finally:
        watchdog.stop()
        mine.close()
        peer.close()


def _hung_call(watchdog: Watchdog, sock: socket.socket) -> tuple[bool, bytes, float]:
    """A call blocked on a socket that never answers: (cut by the watchdog, what it read, seconds taken)."""
    start = time.monotonic()
    with watchdog.guard(_conn(sock)) as fired:
        data = sock.recv(1)  # returns b"" once the watchdog shuts the socket down
    return fired.is_set(), data, time.monotonic() - start


def test_a_hung_call_after_many_quick_ones_is_cut_on_time() -> None:
    with _watched() as (watchdog, mine, _peer):
        quick = []
        for _ in range(50):  # the thread waits for the first of these deadlines, not woken again
            with watchdog.guard(_conn(mine)) as fired:
                pass
            quick.append(fired.is_set())
        time.sleep(0.1)
        cut, data, took = _hung_call(watchdog, mine)
    assert quick == [False] * 50
    assert cut and data == b""
    assert SECONDS - 0.05 <= took < SECONDS + 1.0


def test_a_hung_call_wakes_an_idle_watchdog() -> None:
    with _watched() as (watchdog, mine, _peer):
        with watchdog.guard(_conn(mine)):
            pass
        time.sleep(SECONDS + 0.2)  # that deadline passed: the thread now sleeps with none
        cut, data, took = _hung_call(watchdog, mine)
    assert cut and data == b""
    assert SECONDS - 0.05 <= took < SECONDS + 1.0


def test_a_call_that_answers_is_never_cut() -> None:
    with _watched() as (watchdog, mine, peer):
        peer.sendall(b"x")
        with watchdog.guard(_conn(mine)) as fired:
            data = mine.recv(1)
        time.sleep(SECONDS + 0.2)
        still_open = peer.send(b"y") == 1 and mine.recv(1) == b"y"
    assert data == b"x" and not fired.is_set() and still_open
