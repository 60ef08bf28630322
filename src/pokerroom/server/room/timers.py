"""The server's clock, per-room deadline timers and the rooms' delayed work.

Why a clock object: the engine speaks epoch milliseconds (``deadline(state)``), and tests must not wait
20 real seconds for a turn to time out. :class:`Clock` maps real time to game time with a ``time_scale``
(0.01 = a 20 s turn lasts 0.2 s), and every wait goes through it. At scale 1 game time is wall time, so
deadlines stored before a crash resume correctly after a restart.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Coroutine
from typing import Any


class Clock:
    """Game time in epoch ms, running ``1 / time_scale`` times faster than the wall clock."""

    def __init__(self, time_scale: float = 1.0) -> None:
        if time_scale <= 0:
            raise ValueError("time_scale must be positive")
        self.time_scale = time_scale
        self._wall0_ms = time.time() * 1000.0
        self._mono0 = time.monotonic()

    def now_ms(self) -> int:
        return int(self._wall0_ms + (time.monotonic() - self._mono0) * 1000.0 / self.time_scale)

    def not_before(self, game_ms: int) -> None:
        """Never run behind a time already used (restored rooms were saved at ``game_ms``).

        Game time must not go backwards across a restart, or a deadline stored by a faster-running test
        clock (or before a wall-clock step back) would be postponed.
        """
        behind = game_ms - self.now_ms()
        if behind > 0:
            self._wall0_ms += behind

    def ago(self, real_ms: float) -> int:
        """The game time ``real_ms`` of real time ago."""
        return self.now_ms() - int(real_ms / self.time_scale)

    def real_seconds(self, game_ms: float) -> float:
        """Real seconds to wait for ``game_ms`` of game time."""
        return max(0.0, game_ms) / 1000.0 * self.time_scale


class DeadlineTimer:
    """At most one pending deadline; re-arming replaces it. Fires ``callback`` as a task."""

    def __init__(self, clock: Clock, callback: Callable[[], Coroutine[Any, Any, None]]) -> None:
        self._clock = clock
        self._callback = callback
        self._handle: asyncio.TimerHandle | None = None
        self.deadline_ms: int | None = None
        self._tasks: set[asyncio.Task[None]] = set()

    def arm(self, deadline_ms: int | None) -> None:
        if deadline_ms == self.deadline_ms and self._handle is not None:
            return
        self.cancel()
        self.deadline_ms = deadline_ms
        if deadline_ms is None:
            return
        loop = asyncio.get_running_loop()
        # A small margin so the engine sees now >= deadline when it fires.
        delay = self._clock.real_seconds(deadline_ms - self._clock.now_ms()) + 0.002
        self._handle = loop.call_later(delay, self._fire)

    def _fire(self) -> None:
        self._handle = None
        task: asyncio.Task[None] = asyncio.get_running_loop().create_task(self._callback())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def cancel(self) -> None:
        if self._handle is not None:
            self._handle.cancel()
        self._handle = None
        self.deadline_ms = None


class Later:
    """Delayed work of the rooms (a bot's move, a retry after a store outage), as tasks that ``cancel``
    stops at once. Shared by the parts that schedule such work (``clock``, ``driver``) and the rooms' stop."""

    def __init__(self) -> None:
        self._tasks: set[asyncio.Task[None]] = set()

    def __call__(self, seconds: float, make: Callable[[], Coroutine[Any, Any, None]]) -> None:
        """Run ``make()`` after ``seconds`` of real time."""
        async def run() -> None:
            await asyncio.sleep(seconds)
            await make()

        task = asyncio.get_running_loop().create_task(run())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def cancel(self) -> None:
        for task in list(self._tasks):
            task.cancel()
