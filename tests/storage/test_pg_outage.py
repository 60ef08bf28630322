"""PostgreSQL unreachable: a batch fails promptly with StoreUnavailable, the writer thread never
hangs, nothing is half-applied, and the next batch after PostgreSQL is back succeeds.

The outage is made by a TCP proxy this test owns (:mod:`pg_proxy`) between the store and the machine's
PostgreSQL, which is never stopped: ``refuse`` (connections closed) and ``blackhole`` (silent link).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Iterator
from urllib.parse import urlsplit, urlunsplit

import pytest
from pg_proxy import TcpProxy

from pokerroom.server.storage import GroupWriter, LogRow, StoreUnavailable
from pokerroom.server.storage.base import Op
from pokerroom.server.storage.postgres import PgStore
from services import fresh_database

pytestmark = pytest.mark.timeout(120)


def _via(url: str, port: int) -> str:
    parts = urlsplit(url)
    user = f"{parts.username}@" if parts.username else ""
    return urlunsplit((parts.scheme, f"{user}127.0.0.1:{port}", parts.path, parts.query, ""))


@contextlib.contextmanager
def _behind_a_proxy() -> Iterator[tuple[str, TcpProxy, PgStore]]:
    """A fresh database, a proxy in front of it and a store (short timeouts) that reaches it through the
    proxy: (the database's own URL, the proxy, the store); all closed afterwards."""
    with fresh_database("outage") as url:
        parts = urlsplit(url)
        with TcpProxy((parts.hostname or "127.0.0.1", parts.port or 5432)) as proxy:
            store = PgStore(_via(url, proxy.port), connect_timeout_s=2, statement_timeout_ms=1500,
                            batch_timeout_s=2.5)
            try:
                yield url, proxy, store
            finally:
                store.close()


def _row(version: int) -> LogRow:
    return LogRow(version, "action", "p1", f"c{version}", {"type": "k.call"}, version)


def _timed_failure(store: PgStore, version: int) -> float:
    t0 = time.monotonic()
    with pytest.raises(StoreUnavailable):
        store.apply_batch([store.prepare_log("R", _row(version))])
    return time.monotonic() - t0


@pytest.mark.parametrize("mode", ["refuse", "blackhole"])
def test_an_unreachable_database_fails_the_batch_promptly_then_writes_resume(mode: str) -> None:
    with _behind_a_proxy() as (_url, proxy, store):
        store.save("R", {"m": 1}, "s", 1, 1, _row(1))
        proxy.cut(mode)
        first = _timed_failure(store, 2)  # the open connection dies (or stays silent)
        again = _timed_failure(store, 3)  # reconnecting fails too
        print(f"\n{mode}: outage error after {first:.2f} s, then {again:.2f} s (reconnect)")
        assert first < 4.0 and again < 4.0
        proxy.restore()
        store.apply_batch([store.prepare_log("R", _row(4))])
        assert [r.version for r in store.log("R")] == [1, 4], "failed batches left nothing behind"


async def _submit(writer: GroupWriter, op: Op) -> None:
    await writer.submit(op[0], *op[1])


def test_the_group_writer_reports_the_outage_to_its_callers_and_recovers() -> None:
    with _behind_a_proxy() as (url, proxy, store):
        writer = GroupWriter(store)

        async def main() -> tuple[float, BaseException | None]:
            await _submit(writer, store.prepare_save("R", {}, "s", 1, 1, _row(1)))
            proxy.cut("blackhole")
            t0 = time.monotonic()
            outcome: BaseException | None = None
            try:
                await _submit(writer, store.prepare_log("R", _row(2)))
            except StoreUnavailable as exc:
                outcome = exc
            took = time.monotonic() - t0
            proxy.restore()
            await _submit(writer, store.prepare_log("R", _row(3)))
            return took, outcome

        try:
            took, outcome = asyncio.run(main())
        finally:
            writer.close()
        assert isinstance(outcome, StoreUnavailable) and took < 4.0
        check = PgStore(url)
        try:
            assert [r.version for r in check.log("R")] == [1, 3]
        finally:
            check.close()


def test_connections_that_died_while_idle_are_replaced_without_failing_a_write() -> None:
    """PostgreSQL went away and came back between two writes: the next write (and read) just works."""
    with _behind_a_proxy() as (_url, proxy, store):
        store.save("R", {"m": 1}, "s", 1, 1, _row(1))
        assert store.codes() == ["R"]
        proxy.cut("refuse")  # both open connections are closed under the store
        proxy.restore()
        store.apply_batch([store.prepare_log("R", _row(2))])
        assert [r.version for r in store.log("R")] == [1, 2]
