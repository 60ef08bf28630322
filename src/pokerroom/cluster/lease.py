"""One owner per room: a Redis lease with a TTL, and the fencing token that comes with it.

Why both: a lease alone cannot stop a node that was paused (SIGSTOP, a long GC, a VM migration) from writing
after its lease ran out and another node took the room; so every takeover also gets a **fencing token**, a
number larger than any earlier owner's, which every durable write carries and PostgreSQL checks
(``store.claim`` / ``prepare_save(fence=)``): the old owner's late writes are refused (``Fenced``).

- **acquire** (one Lua script, atomic): ``SET lease owner NX PX ttl``; only the winner then ``INCR``s the
  room's takeover counter. The token is ``epoch_ms * 2**20 + counter`` where ``epoch_ms`` is Redis's own
  ``TIME`` when its counters began: if Redis loses its data (restarted without persistence), the counters
  restart at 1 but the epoch is later, so tokens still only grow and the stored token never blocks every
  future owner.
- **renew**: every owned lease in one script, compare-owner-then-``PEXPIRE``; a lease found gone or held by
  another node is **lost**.
- **release**: compare-owner-then-``DEL`` (never delete another node's lease).
- **served**: a renewal and a release also write the room's ``served`` key (Redis ``TIME``), and ``acquire``
  answers how long ago that was (:attr:`Lease.unserved_ms`): how long the room had no owner, measured by
  one clock (Redis's), so the new owner gives that time back to the player whose turn it is
  (``Rooms.resume``). A renewal is at most ``ttl/3`` before a death, so a player is never charged, at
  worst given a renewal period more.
- **local validity**: a lease is trusted only until ``sent + ttl - margin`` of the last successful renewal,
  by this process's monotonic clock (the request left before Redis set the TTL, so Redis's expiry is
  later). Past that the node must stop writing for the room even if Redis cannot be reached to ask, and
  drop it: another node may take it the moment the TTL passes.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pokerroom.cluster.keys import Keys

log = logging.getLogger("pokerroom.cluster")

TOKEN_BITS = 20  # takeovers per room per Redis epoch before the token would reach the next epoch's range

_ACQUIRE = """
if not redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  return false
end
local epoch = redis.call('GET', KEYS[3])
if not epoch then
  local t = redis.call('TIME')
  epoch = tostring(tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000))
  redis.call('SET', KEYS[3], epoch)
end
local n = redis.call('INCR', KEYS[2])
local served = redis.call('GET', KEYS[4])
local unserved = -1
if served then
  local t = redis.call('TIME')
  unserved = math.max(0, tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000) - tonumber(served))
end
return {epoch, tostring(n), tostring(unserved)}
"""

# KEYS: the leases, then their rooms' served keys (as many); ARGV: node id, lease TTL ms, served keys' PX
_RENEW = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local n = #KEYS / 2
local out = {}
for i = 1, n do
  if redis.call('GET', KEYS[i]) == ARGV[1] then
    redis.call('PEXPIRE', KEYS[i], ARGV[2])
    redis.call('SET', KEYS[n + i], now, 'PX', ARGV[3])
    out[i] = 1
  else
    out[i] = 0
  end
end
return out
"""

_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  local t = redis.call('TIME')
  redis.call('SET', KEYS[2], tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000), 'PX', ARGV[2])
  return redis.call('DEL', KEYS[1])
end
return 0
"""

SERVED_KEEP_MS = 24 * 3600 * 1000  # a room unowned longer than a day counts from its newest change instead


def make_token(epoch_ms: int, counter: int) -> int:
    """The fencing token of the ``counter``-th takeover in Redis epoch ``epoch_ms`` (fits a bigint)."""
    return (epoch_ms << TOKEN_BITS) + counter


#: rooms whose leases one MGET of a scan reads (:meth:`Leases.owners`)
OWNERS_CHUNK = 500


@dataclass
class Lease:
    """A lease this node holds: its fencing token and until when (monotonic seconds) it may act on it.
    ``unserved_ms``: when it was acquired, how long ago the room's last owner renewed or released it (None:
    not known, e.g. a new room or a Redis that lost its data)."""

    code: str
    token: int
    valid_until: float
    unserved_ms: int | None = None


class Leases:
    """The leases of one node. ``owned`` holds only leases whose local validity has not run out."""

    def __init__(self, redis: Any, keys: Keys, node_id: str, ttl_s: float, margin_s: float | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        if ttl_s <= 0:
            raise ValueError("lease TTL must be positive")
        self.redis = redis
        self.keys = keys
        self.node_id = node_id
        self.ttl_s = ttl_s
        self.ttl_ms = max(1, int(ttl_s * 1000))
        # stop acting this long before the TTL could pass: covers a write in flight and clock drift
        self.margin_s = margin_s if margin_s is not None else min(1.0, ttl_s / 4)
        self.clock = clock
        self.owned: dict[str, Lease] = {}
        self._acquire = redis.register_script(_ACQUIRE)
        self._renew = redis.register_script(_RENEW)
        self._release = redis.register_script(_RELEASE)
        self.renewed_at: float | None = None  # monotonic time of the last successful renewal (readiness)
        self.renew_failures = 0

    @property
    def renew_every_s(self) -> float:
        return self.ttl_s / 3

    async def acquire(self, code: str) -> Lease | None:
        """Take the room's lease if nobody holds it; the new lease (with its token) or None."""
        sent = self.clock()
        got = await self._acquire(keys=[self.keys.lease(code), self.keys.fence(code), self.keys.epoch,
                                        self.keys.served(code)], args=[self.node_id, self.ttl_ms])
        if not got:
            return None
        epoch, counter, unserved = (int(x) for x in got)
        lease = Lease(code, make_token(epoch, counter), sent + self.ttl_s - self.margin_s,
                      None if unserved < 0 else unserved)
        self.owned[code] = lease
        return lease

    def valid(self, code: str) -> Lease | None:
        """The lease if this node may still act on it now (by its own clock), else None."""
        lease = self.owned.get(code)
        if lease is None or self.clock() >= lease.valid_until:
            return None
        return lease

    def expired(self) -> list[str]:
        """Codes of owned leases whose local validity ran out (renewals failed): drop them now."""
        now = self.clock()
        return [code for code, lease in list(self.owned.items()) if now >= lease.valid_until]

    async def renew(self) -> list[str]:
        """Renew every owned lease in one round trip; returns the codes found lost (and forgets them).

        A Redis error propagates: the leases stay until their local validity runs out (see :meth:`expired`).
        """
        codes = list(self.owned)
        sent = self.clock()
        got = await self._renew(**self._renew_call(codes)) if codes else []
        return self._renewed(codes, got, sent)

    def _renew_call(self, codes: list[str]) -> dict[str, list[Any]]:
        return {"keys": [self.keys.lease(c) for c in codes] + [self.keys.served(c) for c in codes],
                "args": [self.node_id, self.ttl_ms, SERVED_KEEP_MS]}

    def _renewed(self, codes: list[str], got: list[Any], sent: float) -> list[str]:
        lost: list[str] = []
        for code, ok in zip(codes, list(got), strict=True):
            lease = self.owned.get(code)
            if lease is None:
                continue  # released meanwhile
            if int(ok):
                lease.valid_until = max(lease.valid_until, sent + self.ttl_s - self.margin_s)
            else:
                lost.append(code)
                self.owned.pop(code, None)
        self.renewed_at = sent
        return lost

    async def release(self, code: str) -> bool:
        """Give the lease up (only if it is still ours); True if it was deleted."""
        self.owned.pop(code, None)
        return bool(await self._release(keys=[self.keys.lease(code), self.keys.served(code)],
                                        args=[self.node_id, SERVED_KEEP_MS]))

    def forget(self, code: str) -> None:
        """Stop renewing a lease without touching Redis (it was lost, or the room is being dropped)."""
        self.owned.pop(code, None)

    async def owner(self, code: str) -> str | None:
        """The node holding a room's lease, or None."""
        value = await self.redis.get(self.keys.lease(code))
        return None if value is None else _text(value)

    async def owners(self, codes: list[str]) -> list[str | None]:
        """The holders of many rooms' leases (None: free), an MGET per :data:`OWNERS_CHUNK` rooms.

        Why chunks: reading one reply of 10,000 leases took the event loop 40-55 ms at a stretch, every
        scan; the loop serves other rooms between two chunks' replies."""
        out: list[str | None] = []
        for at in range(0, len(codes), OWNERS_CHUNK):
            values = await self.redis.mget([self.keys.lease(c) for c in codes[at:at + OWNERS_CHUNK]])
            out += [None if v is None else _text(v) for v in values]
        return out

    def keep(self, redis_url: str, on_lost: Callable[[str], None]) -> threading.Event:
        """Renew every ``ttl/3`` on a thread of its own, with its own Redis connection; ``on_lost(code)``
        (called on that thread) for each lease lost or locally expired. Returns the event that stops it.

        Why a thread: a renewal must not wait behind a busy event loop (hundreds of frames to build, a GC
        pause): a late renewal is a lost room. The thread only needs the GIL for a few microseconds."""
        import redis

        stop = threading.Event()
        timeout = max(0.2, self.ttl_s / 2)  # a slow answer is still an answer (the validity is from `sent`)
        client = redis.Redis.from_url(redis_url, socket_timeout=timeout, socket_connect_timeout=timeout)
        script = client.register_script(_RENEW)

        def run() -> None:
            due = time.monotonic()
            while not stop.is_set():
                due = max(due + self.renew_every_s, time.monotonic())  # a fixed rate
                if stop.wait(due - time.monotonic()):
                    break
                lost: list[str] = []
                codes = list(self.owned)
                sent = self.clock()
                try:
                    call = self._renew_call(codes)
                    got = script(keys=call["keys"], args=call["args"]) if codes else []
                    lost = self._renewed(codes, got, sent)
                    self.renew_failures = 0
                except Exception as exc:  # Redis unreachable: keep trying; local expiry below decides
                    self.renew_failures += 1
                    if self.renew_failures == 1 or self.renew_failures % 30 == 0:
                        log.warning("lease renewal failed (%s: %s)", type(exc).__name__, exc)
                try:
                    for code in self.expired():
                        self.owned.pop(code, None)
                        lost.append(code)
                except Exception:  # never let the renewal thread die
                    log.exception("lease expiry check failed")
                for code in lost:
                    try:
                        on_lost(code)
                    except Exception:
                        log.exception("room %s: dropping after a lost lease failed", code)
            client.close()

        threading.Thread(target=run, name="pokerroom-leases", daemon=True).start()
        return stop


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)
