"""The group-commit writer (``storage/writer.py``) wakes the event loop once per committed batch, and
gathers writes into one transaction for a store that asks it to.

Why it matters: every ``call_soon_threadsafe`` writes a byte to the loop's self-pipe and costs the loop a
pass through its selector; with many rooms writing at once, a batch of N writes woke the loop N times.
Persist-before-publish is unchanged: no caller resumes before its batch is committed.
"""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Any

from pokerroom.server.storage import GroupWriter
from pokerroom.server.storage.base import Op
from pokerroom.server.storage.writer import GATHER_MAX


class _HeldStore:
    """Holds its first batch until released, so the next submissions queue up as one batch."""

    def __init__(self) -> None:
        self.batches: list[list[Op]] = []
        self.entered = threading.Event()
        self.release = threading.Event()

    def apply_batch(self, ops: list[Op]) -> None:
        self.batches.append(list(ops))
        if len(self.batches) == 1:
            self.entered.set()
            self.release.wait(10)


def test_a_batch_of_writes_wakes_the_loop_once() -> None:
    store = _HeldStore()
    writer = GroupWriter(store)

    async def main() -> tuple[int, list[Any]]:
        loop = asyncio.get_running_loop()
        first = asyncio.ensure_future(writer.submit("log", ("HOLD",), None))
        await loop.run_in_executor(None, store.entered.wait, 10)
        tasks = [asyncio.ensure_future(writer.submit("log", (f"R{i}",), None)) for i in range(5)]
        await asyncio.sleep(0.05)  # all five queued behind the held batch
        wakeups = 0
        original = loop.call_soon_threadsafe

        def counting(*args: Any, **kwargs: Any) -> Any:
            nonlocal wakeups
            wakeups += 1
            return original(*args, **kwargs)

        loop.call_soon_threadsafe = counting  # type: ignore[method-assign]
        store.release.set()
        await first
        done = await asyncio.gather(*tasks)
        return wakeups, done

    try:
        wakeups, done = asyncio.run(main())
    finally:
        writer.close()
    assert done == [None] * 5
    assert [len(b) for b in store.batches] == [1, 5]
    # the held batch's wake-up and the five writes' batch: two, not six
    assert wakeups == 2


class _Recorder:
    """Records each batch and when it was applied."""

    def __init__(self, gather_s: float = 0.0) -> None:
        self.gather_s = gather_s
        self.batches: list[tuple[float, list[Op]]] = []

    def apply_batch(self, ops: list[Op]) -> None:
        self.batches.append((time.monotonic(), list(ops)))


def _submit_spread(writer: GroupWriter, count: int, gap_s: float) -> tuple[list[float], list[float]]:
    """``count`` writes ``gap_s`` apart; (when each was submitted, when each caller resumed)."""

    async def one(i: int, sent: list[float], done: list[float]) -> None:
        await asyncio.sleep(i * gap_s)
        sent[i] = time.monotonic()
        await writer.submit("log", (f"R{i}",), None)
        done[i] = time.monotonic()

    async def main() -> tuple[list[float], list[float]]:
        sent, done = [0.0] * count, [0.0] * count
        await asyncio.gather(*(one(i, sent, done) for i in range(count)))
        return sent, done

    return asyncio.run(main())


def test_a_busy_store_that_asks_to_gather_gets_writes_that_arrive_apart_in_one_transaction() -> None:
    # PostgreSQL pays a round trip, a commit and a WAL flush per transaction: once writes come often, those
    # arriving a few milliseconds apart wait (up to the store's ``gather_s``) and go together
    store = _Recorder(gather_s=1.0)
    writer = GroupWriter(store, rate_period_s=0.1)
    try:
        _submit_spread(writer, 20, 0.01)  # busy: a hundred writes a second
        warm = len(store.batches)
        sent, done = _submit_spread(writer, 4, 0.02)
    finally:
        writer.close()
    assert [len(ops) for _, ops in store.batches[warm:]] == [4]
    applied = store.batches[warm][0]
    assert applied >= sent[0] + 1.0 - 0.01  # the first write waited its window out...
    assert all(d >= applied for d in done)  # ...and nobody resumed before the commit


def test_a_quiet_store_commits_each_write_at_once_even_when_asked_to_gather() -> None:
    # a few writes a second: a window would catch nothing, only delay them
    store = _Recorder(gather_s=0.12)
    writer = GroupWriter(store, rate_period_s=0.1)
    try:
        sent, _done = _submit_spread(writer, 3, 1.5)  # under one a second: 0.12 s would catch ~0.1 write
    finally:
        writer.close()
    assert [len(ops) for _, ops in store.batches] == [1] * 3
    assert all(at - s < 0.1 for (at, _), s in zip(store.batches, sent, strict=True))  # not the window


def test_without_gathering_each_write_apart_is_its_own_transaction() -> None:
    store = _Recorder()  # SQLite's case: a transaction costs little more than its operations
    writer = GroupWriter(store, rate_period_s=0.1)
    try:
        _submit_spread(writer, 20, 0.01)
        # (50 ms apart: 20 ms apart, a loop starved that long by a busy machine woke two writes' timers in one
        # pass, and they went as one batch whatever the writer does)
        sent, _done = _submit_spread(writer, 4, 0.05)
    finally:
        writer.close()
    assert [len(ops) for _, ops in store.batches[-4:]] == [1, 1, 1, 1]
    assert all(at - s < 0.2 for (at, _), s in zip(store.batches[-4:], sent, strict=True))


def test_a_full_batch_ends_the_wait() -> None:
    store = _Recorder(gather_s=5.0)
    writer = GroupWriter(store, rate_period_s=0.0)  # (each batch sets the rate: one write makes it busy)
    try:
        _submit_spread(writer, 1, 0.0)
        warm = len(store.batches)
        start = time.monotonic()
        _submit_spread(writer, GATHER_MAX, 0.0)
        took = time.monotonic() - start
    finally:
        writer.close()
    assert [len(ops) for _, ops in store.batches[warm:]] == [GATHER_MAX]
    assert took < 2.0  # not the 5 s window


def test_closing_commits_a_gathering_batch_at_once() -> None:
    store = _Recorder(gather_s=5.0)
    writer = GroupWriter(store, rate_period_s=0.0)
    _submit_spread(writer, 1, 0.0)
    warm = len(store.batches)

    async def main() -> float:
        task = asyncio.ensure_future(writer.submit("log", ("R1",), None))
        await asyncio.sleep(0.05)
        start = time.monotonic()
        await asyncio.get_running_loop().run_in_executor(None, writer.close)
        await task
        return time.monotonic() - start

    took = asyncio.run(main())
    assert [len(ops) for _, ops in store.batches[warm:]] == [1]
    assert took < 2.0
