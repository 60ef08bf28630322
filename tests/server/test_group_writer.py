"""The group-commit writer (``storage/writer.py``) wakes the event loop once per committed batch.

Why it matters: every ``call_soon_threadsafe`` writes a byte to the loop's self-pipe and costs the loop a
pass through its selector; with many rooms writing at once, a batch of N writes woke the loop N times.
Persist-before-publish is unchanged: no caller resumes before its batch is committed.
"""

from __future__ import annotations

import asyncio
import threading
from typing import Any

from pokerroom.server.storage import GroupWriter
from pokerroom.server.storage.base import Op


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
