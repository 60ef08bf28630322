"""Per-address and per-process caps at the edge of the server.

Why a module of its own: these limits protect the process, not a room. A stranger may open thousands of
sockets, trickle request headers forever, create hundreds of rooms or push the process to its descriptor
limit; each of those must cost the attacker more than it costs us, and must never lock out the friends
playing. So:

- every TCP connection (HTTP and websocket alike) is counted per client address and in total, *at the
  transport*, before any HTTP parsing: one over the cap is aborted at once, so its descriptor is freed
  straight away and the total stays below the process's descriptor limit (``RLIMIT_NOFILE``) — an accept
  never fails with ``EMFILE`` and ``/healthz`` keeps answering;
- a connection refused only for its client's *rate* (a client reconnecting in a loop) is held unread for
  :data:`RATE_HOLD_S` before it is aborted, while the house has room for it: a refusal at once let each
  attacker's worker come straight back (60 workers: ~700 refused connections a second, 12 % of a core), a
  held one makes it wait; a held connection is let go first whenever a slot is needed;
- a request's headers must arrive within ``header_timeout_s`` of its first byte (slowloris);
- accept errors that still happen are logged at most once per interval, with a count;
- room creation is limited per client address (open rooms and a rate).

The client address is the peer's, except when the peer is a configured trusted proxy: then it is the last
address of ``X-Forwarded-For`` that is not itself a trusted proxy. A forwarded header from anyone else is
ignored (it is trivially forged).
"""

from __future__ import annotations

import asyncio
import errno
import logging
import resource
import time
from collections.abc import Iterable
from typing import Any

from pokerroom.server.edge.clients import KeyedBuckets, client_group, whole_seconds
from pokerroom.server.edge.fairshare import OPS_RESERVE, FairShare, full_house_response, ops_request
from pokerroom.server.edge.limits import TokenBucket
from pokerroom.server.wire import protocol as P

log = logging.getLogger("pokerroom.server")

RATE_HOLD_S = 1.0  # a connection refused for its client's rate is held about this long, unread, then aborted
HELD_MAX = 256  # connections held at once (never more than the house has room for)
FD_RESERVE = 64  # descriptors kept for the store, the listening socket, log files and static files
ACCEPT_BACKLOG = 64  # listen backlog, and so the most sockets asyncio accepts in one go; a refused socket is
#                      closed one loop turn later, so up to twice this many may be open beyond the cap: the
#                      descriptor cap keeps 2 * ACCEPT_BACKLOG free on top of FD_RESERVE
ACCEPT_ERRNOS = frozenset({errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM})


def client_address(peer: str | None, forwarded_for: str | None, trusted: Iterable[str]) -> str:
    """The address a request is counted under (see the module docstring)."""
    host = peer or "?"
    trusted_set = set(trusted)
    if host not in trusted_set or not forwarded_for:
        return host
    for hop in reversed([h.strip() for h in forwarded_for.split(",")]):
        if hop and hop not in trusted_set:
            return hop[:64]
    return host


def descriptor_cap(configured: int, reserve: int = FD_RESERVE + 2 * ACCEPT_BACKLOG) -> int:
    """The most connections this process can hold: ``configured``, but never more than the soft descriptor
    limit minus ``reserve`` (but at least 16), so the process never runs out of descriptors for its own
    files."""
    try:
        soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    except (OSError, ValueError):
        return configured
    if soft == resource.RLIM_INFINITY or soft <= 0:
        return configured
    return min(configured, max(16, soft - reserve))


class AddressCounter:
    """Open things per address; ``acquire`` refuses past ``per_address`` (0: no per-address cap)."""

    def __init__(self, per_address: int) -> None:
        self.per_address = per_address
        self.counts: dict[str, int] = {}

    def acquire(self, address: str) -> bool:
        n = self.counts.get(address, 0)
        if self.per_address and n >= self.per_address:
            return False
        self.counts[address] = n + 1
        return True

    def release(self, address: str) -> None:
        n = self.counts.get(address, 0) - 1
        if n > 0:
            self.counts[address] = n
        else:
            self.counts.pop(address, None)


CREATION_RATE_TEXT = "이 주소에서 방을 너무 빨리 만들었어요. 잠시 후, {n}초 후에 다시 해 주세요"
OPEN_CAP_TEXT = ("이 주소에서 연 방이 {n}개예요. 아무도 없는 방은 {m}분 뒤에 닫혀요. 잠시 후 다시 해 주세요")


class RoomCreationGuard:
    """Room creation per client address: at most ``open_cap`` open rooms and ``per_minute`` creations a
    minute (burst as large), so one client cannot take the whole server's room cap."""

    def __init__(self, open_cap: int, per_minute: float) -> None:
        self.open = AddressCounter(open_cap)
        self.per_minute = per_minute
        self._buckets: dict[str, TokenBucket] = {}
        self.owner: dict[str, str] = {}  # room code -> address that created it
        self.refused = 0

    def admit(self, address: str) -> bool:
        """May ``address`` create a room now? (Does not count it yet: see :meth:`created`.)"""
        return self.refusal(address) is None

    def refusal(self, address: str, open_wait_s: float = 60.0) -> P.ProtocolError | None:
        """None if ``address`` may create a room now, else the 429 that says how long to wait: the rate's
        own wait, or ``open_wait_s`` (the idle close: how soon one of its rooms can go) for the open cap.
        Why say it: "잠시 후" left a host pressing the button again and again, each time refused."""
        if self.open.per_address and self.open.counts.get(address, 0) >= self.open.per_address:
            self.refused += 1
            minutes = max(1, round(open_wait_s / 60))
            return P.ProtocolError("too_many_rooms_here", OPEN_CAP_TEXT.format(n=self.open.per_address,
                                   m=minutes), 429, whole_seconds(open_wait_s))
        if self.per_minute > 0:
            bucket = self._buckets.get(address)
            if bucket is None:
                if len(self._buckets) > 10_000:
                    self._buckets.clear()  # bounded memory; a reset only forgives old clients
                bucket = self._buckets[address] = TokenBucket(self.per_minute / 60.0, self.per_minute)
            if not bucket.allow():
                self.refused += 1
                n = whole_seconds(bucket.retry_after())
                return P.ProtocolError("too_many_rooms_here", CREATION_RATE_TEXT.format(n=n), 429, n)
        return None

    def created(self, address: str, code: str) -> None:
        self.open.acquire(address)
        self.owner[code] = address

    def closed(self, code: str) -> None:
        address = self.owner.pop(code, None)
        if address is not None:
            self.open.release(address)


class ConnectionGuard:
    """Counts every TCP connection per client group (an IPv4 address, an IPv6 /64) and in total, shares a
    full house fairly among the groups (:mod:`~pokerroom.server.edge.fairshare`), keeps a few slots for the
    operator's paths, and times out slow request headers.

    :meth:`protocols` wraps uvicorn's HTTP and websocket protocol classes; the wrappers call
    :meth:`admit` when a connection is made and :meth:`release` when it is lost (a websocket upgrade hands the
    transport to the websocket protocol, whose loss releases it).
    """

    def __init__(self, total: int, per_address: int, header_timeout_s: float,
                 exempt: Iterable[str] = (), per_second: float = 0.0) -> None:
        self.total = total
        self.per_address = AddressCounter(per_address)
        # new connections per client a second (burst: the per-address cap): refused here, before any HTTP
        # parsing, a client reconnecting in a loop costs an accept and a close, not a handshake each
        self.rate = KeyedBuckets(per_second, max(1.0, per_address or 100))
        self.refused_rate = 0
        self.header_timeout_s = header_timeout_s
        self.exempt = frozenset(exempt)  # trusted proxies: every client arrives through them
        self._open: dict[Any, str] = {}  # transport -> client group
        self._idle: dict[Any, None] = {}  # transports that have not sent a whole request yet, oldest first
        # the last few slots of the total are kept for the operator's paths (see fairshare)
        self.ops_reserve = min(OPS_RESERVE, max(1, total // 8))
        self.cap = total - self.ops_reserve
        self.share = FairShare(self.cap)
        self._ops: dict[Any, bool] = {}  # on probation in the reserve (operator's paths only) -> has spoken
        self.ops_admitted = 0
        self.evicted = 0
        self.refused_total = 0
        self.refused_address = 0
        self.header_timeouts = 0
        self._held: dict[Any, asyncio.TimerHandle] = {}  # refused for their rate, held unread (oldest first)
        self.held_total = 0
        self._rate_refused = False  # the last refusal of :meth:`admit` was for the client's rate

    def hold(self, transport: Any) -> bool:
        """Hold a connection :meth:`admit` just refused for its client's rate, unread, for
        :data:`RATE_HOLD_S`, then abort it; False (abort it now) for any other refusal or without room."""
        if (not self._rate_refused or len(self._held) >= HELD_MAX
                or len(self._open) + len(self._held) >= self.cap):
            return False
        transport.pause_reading()
        # spread over 0.5-1.5 holds: held all alike, a loop's workers would all come back in the same instant.
        # The spread is the golden-ratio sequence over the holds so far (evenly spread, and no randomness
        # outside the dealer's generator: tests/test_cards_rng.py)
        hold_s = RATE_HOLD_S * (0.5 + (self.held_total * 0.6180339887498949) % 1.0)
        self._held[transport] = asyncio.get_running_loop().call_later(hold_s, self.let_go, transport)
        self.held_total += 1
        return True

    def let_go(self, transport: Any) -> None:
        """Abort a held connection (its time is up, a slot is needed, or it went away)."""
        timer = self._held.pop(transport, None)
        if timer is not None:
            timer.cancel()
            transport.abort()

    def admit(self, transport: Any) -> bool:
        self._rate_refused = False
        if self._held and len(self._open) + len(self._held) >= self.cap:
            self.let_go(next(iter(self._held)))  # a held connection never takes a slot from a newcomer
        peer = transport.get_extra_info("peername")
        address = str(peer[0]) if isinstance(peer, tuple) and peer else "?"
        exempt = address in self.exempt
        group = address if exempt else client_group(address)
        if len(self._open) >= self.cap:
            self._sweep()
        if len(self._open) >= self.cap:
            # Full: make room by dropping a connection of the group holding the most, if it holds more than
            # this one would (its oldest that has not sent a request yet, else its oldest). Idle sockets from
            # many addresses then only churn each other, a flood from a few keeps no more than its share,
            # and a newcomer gets through.
            victim = self.share.victim(group, prefer=self._idle, spare=self.exempt)
            if victim is None:  # else the oldest that has not sent a request (a real client sends it at
                mine = self.share.held(group) + 1  # once) of a group no smaller than this one would be
                victim = next((t for t in self._idle if self.share.held(self._open[t]) >= mine), None)
            if victim is not None:
                self.release(victim)
                victim.abort()
                self.evicted += 1
        if len(self._open) >= self.cap:
            self.refused_total += 1
            if len(self._ops) >= self.ops_reserve:  # make room: the oldest probe that has said nothing yet
                silent = next((t for t, spoke in self._ops.items() if not spoke), None)
                if silent is not None:
                    self.release(silent)
                    silent.abort()
            if len(self._ops) < self.ops_reserve:  # a probe of /healthz must still get in (see fairshare)
                self._ops[transport] = False
                return True
            return False
        if not exempt and not self.per_address.acquire(group):
            self.refused_address += 1
            return False
        if not exempt and self.rate.take(group):
            self.per_address.release(group)
            self.refused_rate += 1
            self._rate_refused = True
            return False
        if exempt:
            self.per_address.counts[group] = self.per_address.counts.get(group, 0) + 1
        self._open[transport] = group
        self._idle[transport] = None
        self.share.add(group, transport)
        return True

    def on_probation(self, transport: Any) -> bool:
        """Was ``transport`` let in beyond the cap, for the operator's paths only?"""
        return transport in self._ops

    def spoke(self, transport: Any) -> None:
        """A probation connection asked for an operator's path: it is no longer made room of."""
        self._ops[transport] = True
        self.ops_admitted += 1

    def busy(self, transport: Any) -> None:
        """The connection has sent a whole request: it is no longer a candidate for eviction."""
        self._idle.pop(transport, None)

    def release(self, transport: Any) -> None:
        self._idle.pop(transport, None)
        self._ops.pop(transport, None)
        group = self._open.pop(transport, None)
        if group is not None:
            self.per_address.release(group)
            self.share.remove(group, transport)

    def _sweep(self) -> None:
        """Forget transports that closed without telling us (belt and braces against a leaked count)."""
        for transport in [t for t in (*self._open, *self._ops) if t.is_closing()]:
            self.release(transport)

    def stats(self) -> dict[str, int]:
        return {"open": len(self._open), "cap": self.total, "refusedTotal": self.refused_total,
                "refusedPerAddress": self.refused_address, "refusedRate": self.refused_rate,
                "headerTimeouts": self.header_timeouts, "evicted": self.evicted,
                "groups": len(self.share.groups), "opsProbation": len(self._ops),
                "opsAdmitted": self.ops_admitted, "held": len(self._held), "heldTotal": self.held_total}

    def protocols(self, http_cls: type[Any], ws_cls: type[Any] | None) -> tuple[type[Any], type[Any] | None]:
        """Subclasses of uvicorn's protocol classes that go through this guard."""
        guard = self

        class GuardedHTTP(http_cls):  # type: ignore[misc]
            _guard_timer: asyncio.TimerHandle | None = None
            _guard_admitted = False
            _guard_held: Any = None  # the transport, while it is held (refused for its rate)

            def connection_made(self, transport: Any) -> None:
                if not guard.admit(transport):
                    if guard.hold(transport):  # refused for its rate: held unread, then aborted
                        self._guard_held = transport
                    else:
                        transport.abort()  # frees the descriptor now; nothing was parsed
                    return
                self._guard_admitted = True
                super().connection_made(transport)
                self._guard_arm()

            def connection_lost(self, exc: Exception | None) -> None:
                if not self._guard_admitted:
                    if self._guard_held is not None:
                        guard.let_go(self._guard_held)
                    return
                self._guard_cancel()
                guard.release(self.transport)
                super().connection_lost(exc)

            _guard_head = b""  # the start of a request on probation, until its request line is read

            def data_received(self, data: bytes) -> None:
                if self._guard_timer is None and self._guard_waiting():
                    self._guard_arm()
                transport = self.transport
                if transport is not None and guard.on_probation(transport) and self._guard_waiting():
                    data = self._guard_head + data
                    verdict = ops_request(data)
                    if verdict is None:
                        self._guard_head = data
                        return
                    self._guard_head = b""
                    if not verdict:
                        transport.write(full_house_response())
                        transport.close()
                        return
                    guard.spoke(transport)
                super().data_received(data)
                transport = self.transport
                if transport is not None and (getattr(self, "cycle", None) is not None
                                              or transport.get_protocol() is not self):
                    guard.busy(transport)  # a request arrived, or the socket became a websocket

            def _guard_waiting(self) -> bool:
                cycle = getattr(self, "cycle", None)
                return cycle is None or bool(getattr(cycle, "response_complete", False))

            def _guard_arm(self) -> None:
                if guard.header_timeout_s <= 0:
                    return
                cycle = getattr(self, "cycle", None)
                loop = asyncio.get_running_loop()
                self._guard_timer = loop.call_later(guard.header_timeout_s, self._guard_fire, cycle)

            def _guard_cancel(self) -> None:
                if self._guard_timer is not None:
                    self._guard_timer.cancel()
                    self._guard_timer = None

            def _guard_fire(self, cycle: Any) -> None:
                self._guard_timer = None
                transport = self.transport
                if transport is None or transport.is_closing() or transport.get_protocol() is not self:
                    return  # closed, or upgraded to a websocket (the hello deadline takes over)
                if getattr(self, "cycle", None) is cycle and self._guard_waiting():
                    guard.header_timeouts += 1
                    transport.close()  # the headers of a request did not arrive in time

        if ws_cls is None:
            return GuardedHTTP, None

        class GuardedWS(ws_cls):  # type: ignore[valid-type,misc]
            def connection_lost(self, exc: Exception | None) -> None:
                guard.release(getattr(self, "transport", None))
                super().connection_lost(exc)

        return GuardedHTTP, GuardedWS


class AcceptErrorFilter:
    """An event-loop exception handler that logs accept errors (``EMFILE`` & co.) at most once per
    ``every_s`` seconds with a count, instead of one traceback each (hundreds of MB of log a minute)."""

    def __init__(self, loop: asyncio.AbstractEventLoop, every_s: float = 10.0) -> None:
        self.loop = loop
        self.every_s = every_s
        self.previous = loop.get_exception_handler()
        self.suppressed = 0
        self.total = 0
        self._last = 0.0

    def install(self) -> None:
        self.loop.set_exception_handler(self)

    def __call__(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        exc = context.get("exception")
        if isinstance(exc, OSError) and exc.errno in ACCEPT_ERRNOS:
            self.total += 1
            now = time.monotonic()
            if now - self._last >= self.every_s:
                log.error("cannot accept connections: %s (%d more like it since the last report)",
                          exc.strerror or exc, self.suppressed)
                self._last = now
                self.suppressed = 0
            else:
                self.suppressed += 1
            return
        if self.previous is not None:
            self.previous(loop, context)
        else:
            loop.default_exception_handler(context)
