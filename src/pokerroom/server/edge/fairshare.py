"""A full house shared fairly: the process's connections divided among client groups, and a few slots that
only ``/healthz``, ``/readyz`` and ``/metrics`` may use.

Why: a cap per exact address and a cap in all left a gap between them. Twelve addresses with 100 sockets each
reached the whole server's cap (832 under ``ulimit -n 1024``) in 2.2 s, and from then on ``/healthz`` and a
newcomer from a fresh address were refused for as long as the flood was held; on IPv6 an attacker holds a
whole /64, so "per address" is no cap at all. So connections are counted per *client group*
(``clients.client_group``: IPv4 address, IPv6 /64) and, once the house is full, a newcomer whose group holds
less than the group holding the most takes one of that group's connections (the oldest that has not sent a
request yet, else its oldest): no group keeps more than the others while someone waits, and a group that
holds the most is refused. The health and metrics paths cannot be told apart before a request is read, so
a full house still admits up to :data:`OPS_RESERVE` connections on probation: their first request line must
be a ``GET``/``HEAD`` of one of :data:`OPS_PATHS`, anything else gets a 503 that says when to come back.
"""

from __future__ import annotations

import json
from collections.abc import Container
from typing import Any

OPS_RESERVE = 16  # connections beyond the cap, for the operator's paths only (taken from the accept reserve)
OPS_PATHS = (b"/healthz", b"/readyz", b"/metrics")
OPS_RETRY_S = 5
_LINE_MAX = 256  # a request line longer than this without its end is not an operator's probe


class FairShare:
    """Open connections (any hashable item) per client group, oldest first, against a total."""

    def __init__(self, total: int) -> None:
        self.total = total
        self.groups: dict[str, dict[Any, None]] = {}
        self.count = 0

    def held(self, group: str) -> int:
        items = self.groups.get(group)
        return 0 if items is None else len(items)

    def share(self, group: str) -> int:
        """The total divided among the groups holding connections, ``group`` included (at least 1)."""
        groups = len(self.groups) + (group not in self.groups)
        return max(1, self.total // groups)

    def add(self, group: str, item: Any) -> None:
        self.groups.setdefault(group, {})[item] = None
        self.count += 1

    def remove(self, group: str, item: Any) -> None:
        items = self.groups.get(group)
        if items is None or item not in items:
            return
        del items[item]
        self.count -= 1
        if not items:
            del self.groups[group]

    def victim(self, group: str, prefer: Container[Any] = (), spare: Container[str] = ()) -> Any | None:
        """When full: a connection to make room for one more of ``group``: from the group holding the most
        (not one of ``spare``), if it holds more than ``group`` would with it; one in ``prefer`` first (idle
        ones), else its oldest. None: ``group`` is among those holding the most, it waits."""
        mine = self.held(group) + 1
        largest, most = None, mine
        for name, items in self.groups.items():
            if len(items) > most and name not in spare:
                largest, most = name, len(items)
        if largest is None:
            return None
        items = self.groups[largest]
        return next((item for item in items if item in prefer), next(iter(items)))


def ops_request(head: bytes) -> bool | None:
    """Is the request starting with ``head`` a ``GET``/``HEAD`` of an operator's path? None: not sure yet."""
    end = head.find(b"\r\n")
    if end < 0:
        end = head.find(b"\n")
    if end < 0:
        return None if len(head) < _LINE_MAX else False
    parts = head[:end].split(b" ")
    if len(parts) != 3 or parts[0] not in (b"GET", b"HEAD"):
        return False
    path = parts[1].split(b"?", 1)[0]
    return path in OPS_PATHS


def full_house_response() -> bytes:
    """The 503 a probation connection gets for anything but an operator's path (Korean, with a retry)."""
    text = f"서버가 가득 찼어요. {OPS_RETRY_S}초 후에 다시 해 주세요"
    body = json.dumps({"error": {"code": "server_full", "message": text, "retryAfter": OPS_RETRY_S}},
                      ensure_ascii=False).encode()
    return (b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json; charset=utf-8\r\n"
            b"Retry-After: %d\r\nConnection: close\r\nContent-Length: %d\r\n\r\n" % (OPS_RETRY_S, len(body))
            + body)


class ClientSlots:
    """Open websockets per client group, counted by the app: at most ``per_client`` each (0: no cap) and, once
    the house is half full, no more than the group's share of ``total``.

    Why at the app as well as at the transport: behind a ``--trusted-proxy`` every TCP connection is the
    proxy's, so only here, where the forwarded address is read, is a client counted (400 websockets from one
    forwarded address were all accepted). Refused, not evicted: a proxied socket cannot be told apart from
    its neighbours before it is upgraded.
    """

    def __init__(self, total: int, per_client: int) -> None:
        self.share = FairShare(total)
        self.per_client = per_client
        self.refused = 0

    def acquire(self, group: str, item: Any) -> bool:
        held = self.share.held(group)
        if (self.per_client and held >= self.per_client) or \
                (self.share.count >= self.share.total // 2 and held >= self.share.share(group)):
            self.refused += 1
            return False
        self.share.add(group, item)
        return True

    def release(self, group: str, item: Any) -> None:
        self.share.remove(group, item)
