"""Readiness checks of one server process: what ``/readyz`` runs.

Why a registry: a single node is ready when its store answers; a cluster node also needs Redis and
PostgreSQL reachable and its leases renewing. The app owns one :class:`Readiness` (``ServerConfig.readiness``)
and adds the store check at start-up; the cluster node adds its own checks to the same registry, so
``/readyz`` never needs to know which kind of node it serves.

A check is an async callable returning ``(ok, detail)``. Checks run concurrently, each bounded by a timeout
(a hung dependency answers "not ready", it never hangs the probe), and an exception counts as a failure
whose detail is the exception's text.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

Check = Callable[[], Awaitable[tuple[bool, str]]]

#: how long one check may take before it counts as failed (a load balancer probes every few seconds)
CHECK_TIMEOUT_S = 2.0


@dataclass(frozen=True)
class CheckResult:
    """One check's answer: whether it passed, why (free text for operators) and how long it took."""

    name: str
    ok: bool
    detail: str
    ms: float

    def to_json(self) -> dict[str, Any]:
        return {"ok": self.ok, "detail": self.detail, "ms": round(self.ms, 1)}


@dataclass
class Readiness:
    """Named readiness checks; ``await run()`` answers all of them. Names are unique (a re-add replaces)."""

    timeout_s: float = CHECK_TIMEOUT_S
    checks: dict[str, Check] = field(default_factory=dict)

    def add(self, name: str, check: Check) -> None:
        """Register ``check`` under ``name`` (e.g. "store", "redis", "postgres", "leases")."""
        self.checks[name] = check

    def remove(self, name: str) -> None:
        self.checks.pop(name, None)

    async def _one(self, name: str, check: Check) -> CheckResult:
        t0 = time.perf_counter()
        try:
            async with asyncio.timeout(self.timeout_s):
                ok, detail = await check()
        except TimeoutError:
            ok, detail = False, f"no answer within {self.timeout_s:g} s"
        except Exception as exc:  # a failing dependency is an answer ("not ready"), never a 500
            ok, detail = False, f"{type(exc).__name__}: {exc}"
        return CheckResult(name, bool(ok), str(detail), (time.perf_counter() - t0) * 1000.0)

    async def run(self) -> list[CheckResult]:
        """Every check's result, in registration order."""
        items = list(self.checks.items())
        return list(await asyncio.gather(*(self._one(name, check) for name, check in items)))


def store_check(store: Any) -> Check:
    """The store answers a trivial query (in a thread: a store call blocks, and may wait for the writer).

    Uses the store's ``ping()`` when it has one, else reads the action log of a room code that cannot exist
    (``log`` is part of every store: SQLite and PostgreSQL answer it from an index, with no rows)."""

    def query() -> None:
        ping = getattr(store, "ping", None)
        if callable(ping):
            ping()
        else:
            store.log("-readyz-", 0)

    async def check() -> tuple[bool, str]:
        await asyncio.to_thread(query)
        return True, "answers"

    return check
