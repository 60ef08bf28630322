"""Unit checks of the edge guards: forwarded addresses, the descriptor cap, the accept-error
log filter and the per-address counters. The behaviour against a real server is in test_hardening.py."""

from __future__ import annotations

import asyncio
import errno
import logging
import resource
from concurrent.futures import ThreadPoolExecutor

import pytest

from pokerroom.server.edge.guard import (
    ACCEPT_BACKLOG,
    FD_RESERVE,
    AcceptErrorFilter,
    AddressCounter,
    ConnectionGuard,
    RoomCreationGuard,
    client_address,
    descriptor_cap,
)


def test_forwarded_address_only_from_a_trusted_proxy() -> None:
    assert client_address("1.2.3.4", "9.9.9.9", ()) == "1.2.3.4"
    assert client_address("1.2.3.4", "9.9.9.9", ("10.0.0.1",)) == "1.2.3.4"
    assert client_address("10.0.0.1", "9.9.9.9", ("10.0.0.1",)) == "9.9.9.9"
    # the client may prepend anything; the last hop not a trusted proxy is what the proxy saw
    assert client_address("10.0.0.1", "6.6.6.6, 9.9.9.9, 10.0.0.2", ("10.0.0.1", "10.0.0.2")) == "9.9.9.9"
    assert client_address("10.0.0.1", None, ("10.0.0.1",)) == "10.0.0.1"


def test_descriptor_cap_follows_the_soft_limit() -> None:
    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    assert descriptor_cap(10**9) == max(16, soft - FD_RESERVE - 2 * ACCEPT_BACKLOG)
    assert descriptor_cap(10) == 10


def test_counters() -> None:
    c = AddressCounter(2)
    assert c.acquire("a") and c.acquire("a") and not c.acquire("a") and c.acquire("b")
    c.release("a")
    assert c.acquire("a")
    g = RoomCreationGuard(open_cap=1, per_minute=0)
    assert g.admit("a")
    g.created("a", "room1")
    assert not g.admit("a") and g.admit("b")
    g.closed("room1")
    assert g.admit("a") and g.refused == 1


class _Transport:
    def __init__(self, address: str) -> None:
        self.address, self.paused, self.aborted = address, False, False

    def get_extra_info(self, key: str) -> object:
        return (self.address, 1234) if key == "peername" else None

    def pause_reading(self) -> None:
        self.paused = True

    def abort(self) -> None:
        self.aborted = True

    def is_closing(self) -> bool:
        return self.aborted


def test_a_connection_refused_for_its_rate_is_held_then_aborted() -> None:
    """A client reconnecting in a loop is held unread for a second instead of refused at once (so it cannot
    come straight back), other refusals are aborted at once, and a held one gives its place to a newcomer."""

    async def main() -> None:
        guard = ConnectionGuard(total=40, per_address=2, header_timeout_s=5.0, per_second=0.001)
        first = [_Transport("10.0.0.1") for _ in range(2)]
        assert all(guard.admit(t) for t in first)
        for t in first:
            guard.release(t)
        looping = _Transport("10.0.0.1")
        assert not guard.admit(looping) and guard.hold(looping)  # the burst (2) is spent: held
        assert looping.paused and not looping.aborted and guard.stats()["held"] == 1
        over = [_Transport("10.0.0.2") for _ in range(3)]
        assert guard.admit(over[0]) and guard.admit(over[1]) and not guard.admit(over[2])
        assert not guard.hold(over[2])  # over the per-address cap: aborted at once by the caller
        guard.let_go(looping)
        assert looping.aborted and guard.stats()["held"] == 0 and guard.stats()["heldTotal"] == 1
        again = _Transport("10.0.0.1")
        assert not guard.admit(again) and guard.hold(again)
        others = [_Transport(f"10.1.0.{i}") for i in range(guard.cap - 3)]  # the house is full with it held
        assert all(guard.admit(t) for t in others)
        assert guard.admit(_Transport("10.2.0.1")) and again.aborted  # the held one made room

    with ThreadPoolExecutor(1) as pool:  # a loop of its own (a browser test's may be running in this thread)
        pool.submit(asyncio.run, main()).result()


def test_accept_errors_are_logged_once_per_interval(caplog: pytest.LogCaptureFixture) -> None:
    loop = asyncio.new_event_loop()
    try:
        seen: list[dict[str, object]] = []
        loop.set_exception_handler(lambda _loop, ctx: seen.append(ctx))
        filt = AcceptErrorFilter(loop, every_s=60.0)
        filt.install()
        with caplog.at_level(logging.ERROR, logger="pokerroom.server"):
            for _ in range(2000):
                loop.call_exception_handler({"message": "socket.accept() out of system resource",
                                             "exception": OSError(errno.EMFILE, "Too many open files")})
            loop.call_exception_handler({"message": "something else", "exception": ValueError("x")})
        assert len([r for r in caplog.records if "cannot accept" in r.message]) == 1
        assert filt.total == 2000 and filt.suppressed == 1999
        assert len(seen) == 1 and seen[0]["message"] == "something else"  # other errors pass through
    finally:
        loop.close()
