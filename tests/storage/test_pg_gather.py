"""A busy cluster node's writes share PostgreSQL transactions (``storage/writer.py`` gathering,
``PgStore.gather_s``): fewer transactions than writes, every write stored, every caller resumed after its
commit."""

from __future__ import annotations

import asyncio
import time

import pytest

from pokerroom.server.storage import GroupWriter, LogRow
from pokerroom.server.storage.base import Op
from pokerroom.server.storage.postgres import GATHER_S, PgStore
from services import fresh_database

pytestmark = pytest.mark.timeout(120)

WRITES = 30


def _write_spread(store: PgStore, gap_s: float) -> tuple[int, list[float], list[float]]:
    """``WRITES`` log rows of as many rooms, ``gap_s`` apart, through a busy writer: (transactions, when each
    write was submitted, when each caller resumed)."""
    batches: list[tuple[float, list[Op]]] = []
    apply = store.apply_batch

    def counted(ops: list[Op]) -> None:
        apply(ops)
        batches.append((time.monotonic(), list(ops)))

    store.apply_batch = counted  # type: ignore[method-assign]
    writer = GroupWriter(store, rate_period_s=0.0)  # (each batch sets the rate: the first makes it busy)

    async def one(i: int, sent: list[float], done: list[float]) -> None:
        await asyncio.sleep(i * gap_s)
        row = LogRow(1, "action", "p1", f"m{i}", {"type": "k.call"}, 1_700_000_000_000 + i)
        op, args = store.prepare_log(f"G{i:02d}", row)
        sent[i] = time.monotonic()
        await writer.submit(op, *args)
        done[i] = time.monotonic()

    async def main() -> tuple[list[float], list[float]]:
        sent, done = [0.0] * WRITES, [0.0] * WRITES
        await asyncio.gather(*(one(i, sent, done) for i in range(WRITES)))
        return sent, done

    try:
        sent, done = asyncio.run(main())
    finally:
        writer.close()
    for i in range(WRITES):  # every caller resumed after the commit of the batch that held its write
        committed = next(at for at, ops in batches if any(args[0][0] == f"G{i:02d}" for _, args in ops))
        assert done[i] >= committed
    return len(batches), sent, done


def test_writes_a_few_milliseconds_apart_share_transactions_and_all_are_stored() -> None:
    with fresh_database("gather") as url:
        store = PgStore(url)
        try:
            assert store.gather_s == GATHER_S > 0  # the default a node runs with
            transactions, _sent, _done = _write_spread(store, 0.002)
            stored = [store.log(f"G{i:02d}") for i in range(WRITES)]
        finally:
            store.close()
    # 30 writes over ~60 ms in 8 ms windows: about eight transactions (one each without gathering)
    assert transactions <= WRITES // 3
    assert [[(r.version, r.client_msg_id) for r in rows] for rows in stored] == [
        [(1, f"m{i}")] for i in range(WRITES)]


def test_a_window_of_zero_commits_each_write_apart_at_once() -> None:
    with fresh_database("gather0") as url:
        store = PgStore(url, gather_s=0.0)  # (--store-gather-ms 0)
        try:
            transactions, _sent, _done = _write_spread(store, 0.04)
        finally:
            store.close()
    # a commit takes a millisecond or two: writes 40 ms apart each get their own (a slow one may merge two; on
    # two cores busy with the rest of the suite, 20 ms apart, a third of them merged: 19 transactions of 30)
    assert transactions >= WRITES * 4 // 5
