"""Limits that keep one room, one socket or one stranger from hurting the rest.

Why: the server runs on a friend's laptop or a tiny VPS; a flood, a giant frame or a cross-site page
opening sockets must cost almost nothing and never change game state. Caps are configurable so the load
benchmark and tests can raise or lower them.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from urllib.parse import urlsplit


@dataclass(frozen=True)
class Limits:
    """All the caps in one place (defaults suit a home server)."""

    max_message_bytes: int = 4096  # one websocket text frame (UTF-8 bytes)
    max_body_bytes: int = 4096  # one HTTP request body
    rate_per_second: float = 20.0  # sustained messages per connection
    rate_burst: float = 40.0  # bucket size
    max_rooms: int = 1000
    max_spectators: int = 20  # per room
    max_tabs_per_seat: int = 4
    max_connections: int = 5000  # whole server
    send_queue: int = 512  # frames waiting for a slow socket before it is dropped
    send_queue_bytes: int = 1 << 20  # bytes waiting for a slow socket before it is dropped
    history_rate_per_second: float = 0.5  # ``history`` requests per connection (each answer is ~50 KB)
    history_burst: float = 3.0
    rooms_per_address: int = 30  # open rooms created from one client address (0: no cap): a household
    room_creations_per_minute: float = 10.0  # and how fast one address may create them
    connections_per_address: int = 100  # open TCP connections (HTTP and websocket) from one address
    hello_timeout_s: float = 10.0  # a websocket must say ``hello`` within this, or it is closed
    header_timeout_s: float = 10.0  # an HTTP request's headers must arrive within this
    body_timeout_s: float = 10.0  # and its body within this
    # per client (edge/clients.py: the forwarded address behind a trusted proxy, IPv6 by /64), 0: no limit
    sockets_per_second_per_client: float = 10.0  # new websockets
    sockets_burst_per_client: float = 100.0
    hellos_per_second_per_client: float = 10.0
    hellos_burst_per_client: float = 100.0
    history_per_second_per_client: float = 1.0  # on top of each socket's own history rate
    history_burst_per_client: float = 6.0
    resync_per_second_per_client: float = 10.0
    resync_burst_per_client: float = 30.0
    resync_per_second: float = 2.0  # each socket's own resync rate; more is held and coalesced
    resync_burst: float = 3.0
    history_bytes_per_second: float = 2_000_000.0  # every history answer of the process together
    trusted_proxies: tuple[str, ...] = field(default_factory=tuple)  # peers whose X-Forwarded-For we believe
    allowed_origins: tuple[str, ...] = field(default_factory=tuple)


class TokenBucket:
    """Classic token bucket: ``allow()`` spends one token; tokens refill at ``rate`` per second."""

    __slots__ = ("_last", "_tokens", "burst", "rate")

    def __init__(self, rate: float, burst: float) -> None:
        self.rate = rate
        self.burst = burst
        self._tokens = burst
        self._last = time.monotonic()

    def allow(self, now: float | None = None) -> bool:
        t = time.monotonic() if now is None else now
        self._tokens = min(self.burst, self._tokens + max(0.0, t - self._last) * self.rate)
        self._last = t
        if self._tokens >= 1.0:
            self._tokens -= 1.0
            return True
        return False

    def level(self, now: float | None = None) -> float:
        """The tokens there would be now (nothing is spent)."""
        t = time.monotonic() if now is None else now
        return min(self.burst, self._tokens + max(0.0, t - self._last) * self.rate)

    def retry_after(self, now: float | None = None) -> float:
        """Seconds until one token is there (0.0 if one is)."""
        missing = 1.0 - self.level(now)
        return 0.0 if missing <= 0 else missing / self.rate if self.rate > 0 else float("inf")


def origin_allowed(origin: str | None, host: str | None, allowed: tuple[str, ...]) -> bool:
    """Is a websocket handshake's ``Origin`` acceptable?

    Browsers always send ``Origin``; a page on another site opening a socket to our room (cross-site
    websocket hijacking) is refused unless its origin is configured. Non-browser clients (tests, the load
    benchmark, bots) send none and are not a CSRF risk, so a missing origin is allowed.
    """
    if origin is None:
        return True
    origin = origin.strip()
    if origin in allowed or "*" in allowed:
        return True
    if origin == "null":
        return False
    parts = urlsplit(origin)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        return False
    return host is not None and parts.netloc.lower() == host.strip().lower()
