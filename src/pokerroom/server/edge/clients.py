"""Rates per client, not per socket: new websockets, hellos, ``history`` and ``resync`` drawn from token
buckets keyed by the client, and a byte budget per second for every history answer of the process.

Why per client: a bucket that lives on a socket is refilled by opening another socket. A client that
connected, said hello, asked for history three times, closed and did it again drew a fresh burst each time
(60 such workers: 1,083-1,632 history answers a second, 55-83 MB/s, and a quiet room's ack p99 went 10.6 ->
227 ms). Keyed by the client, closing a socket gives nothing back.

The client is the address the edge counts a request under (``guard.client_address``: the forwarded one
behind a ``--trusted-proxy``), grouped by :func:`client_group`: an IPv4 address as it is, an IPv6 address by
its /64 (one home or one virtual server is handed a whole /64, so an exact IPv6 address is one of 2^64 an
attacker holds). Friends behind one home router share a client, so every rate here leaves room for a
household.

Why ``resync`` is held rather than refused: a client asks for it when it missed a frame, and an honest one
must still get the newest view; so a ``resync`` beyond its rates is held (one per socket however often it
is asked: the later ones are folded into it) and answered as soon as its socket's and its client's buckets
allow. Sixty spectators asking 18 times a second then cost at most the client's rate in whole views, not
1,032 a second.

Every bucket here forgets a client whose bucket is full again (it is then the same as a new one), so memory
stays bounded by the clients active in the last ``burst / rate`` seconds.
"""

from __future__ import annotations

import asyncio
import ipaddress
import math
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from pokerroom.server.edge.limits import Limits, TokenBucket

CLIENT_KEY = "pokerroom.client"  # the scope key where the websocket endpoint leaves a socket's ClientTag
MAX_KEYS = 10_000  # buckets kept before the full ones are forgotten (a full bucket is a new one)


def client_group(address: str) -> str:
    """The client an address belongs to: IPv4 as is, IPv6 by its /64 (IPv4-mapped IPv6 as the IPv4)."""
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((int(ip) >> 64 << 64, 64)))
    return str(ip)


def whole_seconds(wait_s: float) -> int:
    """A retry-after as a person reads it: whole seconds, at least 1."""
    return max(1, math.ceil(wait_s))


class KeyedBuckets:
    """One :class:`TokenBucket` per key; ``take`` answers 0.0 (allowed) or the seconds until it would be.
    ``rate <= 0``: no limit."""

    def __init__(self, rate: float, burst: float, max_keys: int = MAX_KEYS) -> None:
        self.rate = rate
        self.burst = max(1.0, burst)
        self.max_keys = max_keys
        self.buckets: dict[str, TokenBucket] = {}

    def take(self, key: str, now: float | None = None) -> float:
        if self.rate <= 0:
            return 0.0
        t = time.monotonic() if now is None else now
        bucket = self.buckets.get(key)
        if bucket is None:
            if len(self.buckets) >= self.max_keys:
                self._forget_full(t)
            bucket = self.buckets[key] = TokenBucket(self.rate, self.burst)
        return 0.0 if bucket.allow(t) else bucket.retry_after(t)

    def _forget_full(self, now: float) -> None:
        for key in [k for k, b in self.buckets.items() if b.level(now) >= b.burst]:
            del self.buckets[key]
        if len(self.buckets) >= self.max_keys:  # every client is busy: forgive the oldest half
            for key in list(self.buckets)[: self.max_keys // 2]:
                del self.buckets[key]


class ByteBudget:
    """Bytes a second for one kind of answer, process-wide. ``wait`` is checked before an answer (0.0: go
    ahead) and ``spend`` charges its real size after it is sent, so the balance may dip below zero by one
    answer and then holds the next ones until it has refilled. ``per_second <= 0``: no budget."""

    def __init__(self, per_second: float) -> None:
        self.per_second = per_second
        self._balance = per_second
        self._last = time.monotonic()
        self.spent = 0

    def _refill(self, now: float) -> None:
        self._balance = min(self.per_second, self._balance + max(0.0, now - self._last) * self.per_second)
        self._last = now

    def wait(self, now: float | None = None) -> float:
        if self.per_second <= 0:
            return 0.0
        self._refill(time.monotonic() if now is None else now)
        return 0.0 if self._balance > 0 else (1.0 - self._balance) / self.per_second

    def spend(self, n: int, now: float | None = None) -> None:
        self.spent += n
        if self.per_second > 0:
            self._refill(time.monotonic() if now is None else now)
            self._balance -= n


@dataclass
class ClientRates:
    """The process's per-client buckets (one of each kind) and its history byte budget."""

    sockets: KeyedBuckets
    hellos: KeyedBuckets
    history: KeyedBuckets
    resync: KeyedBuckets
    history_bytes: ByteBudget
    resync_per_socket: tuple[float, float]  # (rate, burst) of each socket's own resync bucket
    refused: Counter[str] = field(default_factory=Counter)

    @classmethod
    def from_limits(cls, limits: Limits) -> ClientRates:
        return cls(
            sockets=KeyedBuckets(limits.sockets_per_second_per_client, limits.sockets_burst_per_client),
            hellos=KeyedBuckets(limits.hellos_per_second_per_client, limits.hellos_burst_per_client),
            history=KeyedBuckets(limits.history_per_second_per_client, limits.history_burst_per_client),
            resync=KeyedBuckets(limits.resync_per_second_per_client, limits.resync_burst_per_client),
            history_bytes=ByteBudget(limits.history_bytes_per_second),
            resync_per_socket=(limits.resync_per_second, limits.resync_burst))

    def stats(self) -> dict[str, Any]:
        """For ``/healthz``: refusals by kind, history bytes sent, clients tracked."""
        return {"refused": dict(self.refused), "historyBytes": self.history_bytes.spent,
                "clients": len(self.sockets.buckets) + len(self.hellos.buckets)}


HELLO_RATE_TEXT = "입장을 너무 자주 했어요. {n}초 후에 다시 해 주세요"
HISTORY_RATE_TEXT = "지난 판 기록은 잠시 후 다시 볼 수 있어요({n}초 후에 다시 해 주세요)"
SOCKETS_RATE_TEXT = "연결을 너무 자주 새로 열었어요. {n}초 후에 다시 해 주세요"


class ClientTag:
    """One socket's client: its key, the process's :class:`ClientRates`, and the socket's own ``resync``
    bucket and held ``resync`` (at most one: see the module docstring)."""

    def __init__(self, key: str, rates: ClientRates) -> None:
        self.key = key
        self.rates = rates
        self.resync_bucket = TokenBucket(*rates.resync_per_socket) if rates.resync_per_socket[0] > 0 else None
        self.held: asyncio.Task[None] | None = None  # a refused resync waiting for its turn
        self.coalesced = 0  # resync requests folded into the held one

    def hello_wait(self) -> float:
        wait = self.rates.hellos.take(self.key)
        if wait:
            self.rates.refused["hello"] += 1
        return wait

    def history_wait(self) -> float:
        """0.0: answer this ``history`` now; else refused, with the seconds to wait."""
        wait = self.rates.history_bytes.wait()
        if wait:
            self.rates.refused["historyBytes"] += 1
            return wait
        wait = self.rates.history.take(self.key)
        if wait:
            self.rates.refused["history"] += 1
        return wait

    def sent(self, text: str) -> None:
        """Every frame sent to this socket: a history answer is charged to the byte budget."""
        if text.startswith('{"type":"history"'):
            self.rates.history_bytes.spend(len(text))

    def resync_wait(self) -> float:
        """0.0: answer this ``resync`` now (a token of the socket and of the client taken); else the wait."""
        bucket = self.resync_bucket
        if bucket is not None and bucket.level() < 1.0:
            return bucket.retry_after()
        wait = self.rates.resync.take(self.key)
        if wait:
            return wait
        if bucket is not None:
            bucket.allow()
        return 0.0

    def resync(self, answer: Callable[[], Awaitable[None]]) -> bool:
        """A ``resync`` asked for: True, answer it now; False, it is held (``answer`` runs once its turn
        comes) or folded into the one already held."""
        if self.held is not None and not self.held.done():
            self.coalesced += 1
            self.rates.refused["resyncCoalesced"] += 1
            return False
        wait = self.resync_wait()
        if not wait:
            return True
        self.rates.refused["resyncHeld"] += 1
        self.held = asyncio.get_running_loop().create_task(self._later(wait, answer))
        return False

    async def _later(self, wait: float, answer: Callable[[], Awaitable[None]]) -> None:
        while wait:
            await asyncio.sleep(wait)
            wait = self.resync_wait()
        await answer()

    def close(self) -> None:
        if self.held is not None and not self.held.done():
            self.held.cancel()
