"""Prometheus metrics of one server process (``/metrics``), on ``prometheus-client`` when it is installed.

Why optional: ``prometheus-client`` comes with the ``cluster`` extra, and ``make run`` (one process on
SQLite) does not install it. :class:`Metrics` therefore always exists and is always safe to call; without
the package it only keeps its plain counters and :meth:`Metrics.render` answers ``None`` (the app then
answers 404 with a sentence). The package is imported when an app is built, never when this module is.

Why one registry per app: tests build many apps in one process, and the global default registry refuses a
second metric of the same name. Hot-path counts (frames and bytes sent, one per frame) are plain integers
read by a collector at scrape time, so a frame costs an addition, not a lock.

What the cluster code calls (it owns no instrument of its own): :meth:`observe_relay` for each relayed
message's added latency, :meth:`count_takeover` for each room taken over, :meth:`bind` to say what "rooms
owned" and "connections" are on that node.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from typing import Any

log = logging.getLogger("pokerroom.server")

#: seconds; a commit is a store write (group commit) plus building and queueing every socket's frames
COMMIT_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
#: seconds; a relay hop is one Redis round trip on the same machine or LAN
RELAY_BUCKETS = (0.0005, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0)
MISSING = ("메트릭은 cluster 추가 설치가 필요해요 (pip install 'pokerroom[cluster]'): "
           "prometheus-client is not installed")


class Metrics:
    """This node's instruments; without prometheus-client every method leaves only the plain counters."""

    def __init__(self, node_id: str = "") -> None:
        self.node_id = node_id
        self.frames_sent = 0
        self.bytes_sent = 0
        self._rooms: Callable[[], int] = lambda: 0
        self._connections: Callable[[], int] = lambda: 0
        self.registry: Any = None
        self._actions: Any = None
        self._commit: Any = None
        self._relay: Any = None
        self._takeovers: Any = None
        try:
            import prometheus_client as prom
        except ImportError:
            return
        self._build(prom)

    @property
    def enabled(self) -> bool:
        return self.registry is not None

    @property
    def content_type(self) -> str:
        from prometheus_client import CONTENT_TYPE_LATEST

        return str(CONTENT_TYPE_LATEST)

    def _build(self, prom: Any) -> None:
        from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily

        reg = prom.CollectorRegistry(auto_describe=True)
        self.registry = reg
        self._actions = prom.Counter("pokerroom_actions", "Changes committed to a room, by kind (action, "
                                     "bot, timeout, start, leave, ...).", ["kind"], registry=reg)
        self._commit = prom.Histogram("pokerroom_commit_seconds", "One change: store write and every "
                                      "socket's frames queued.", buckets=COMMIT_BUCKETS, registry=reg)
        self._relay = prom.Histogram("pokerroom_relay_seconds", "Latency a relay hop to the owning node "
                                     "adds to a message.", buckets=RELAY_BUCKETS, registry=reg)
        self._takeovers = prom.Counter("pokerroom_takeovers", "Rooms this node took over from another node.",
                                       registry=reg)
        metrics = self

        class Live:
            """Gauges and hot-path counters read when scraped."""

            def collect(self) -> Iterator[Any]:
                info = GaugeMetricFamily("pokerroom_node_info", "This node's id.", labels=["node"])
                info.add_metric([metrics.node_id], 1)
                yield info
                yield GaugeMetricFamily("pokerroom_rooms_owned", "Rooms this node owns (serves).",
                                        value=metrics._safe(metrics._rooms))
                yield GaugeMetricFamily("pokerroom_connections", "Open websocket connections.",
                                        value=metrics._safe(metrics._connections))
                yield CounterMetricFamily("pokerroom_frames_sent", "Websocket frames sent.",
                                          value=metrics.frames_sent)
                yield CounterMetricFamily("pokerroom_frame_bytes_sent", "Bytes of websocket frames sent.",
                                          value=metrics.bytes_sent)

            def describe(self) -> list[Any]:
                return []  # collected (not described) at registration: nothing is read before the app runs

        reg.register(Live())

    @staticmethod
    def _safe(read: Callable[[], int]) -> float:
        try:
            return float(read())
        except Exception:
            log.debug("metrics gauge failed", exc_info=True)
            return float("nan")

    # --- what the app and the cluster node call -------------------------------------------------------

    def bind(self, *, rooms: Callable[[], int] | None = None,
             connections: Callable[[], int] | None = None) -> None:
        """Say how to read the gauges (read at scrape time): rooms owned, open connections."""
        if rooms is not None:
            self._rooms = rooms
        if connections is not None:
            self._connections = connections

    def committed(self, kind: str, seconds: float) -> None:
        """One change committed and published (``Rooms`` calls this after every accepted change)."""
        if self._actions is not None:
            self._actions.labels(kind).inc()
            self._commit.observe(seconds)

    def frame_sent(self, nbytes: int) -> None:
        """One frame written to a socket (its sender task calls this)."""
        self.frames_sent += 1
        self.bytes_sent += nbytes

    def observe_relay(self, seconds: float) -> None:
        """The latency one relay hop added to a message (the cluster relay calls this)."""
        if self._relay is not None:
            self._relay.observe(seconds)

    def count_takeover(self) -> None:
        """This node took a room over (the cluster node calls this once per room)."""
        if self._takeovers is not None:
            self._takeovers.inc()

    def render(self) -> bytes | None:
        """The Prometheus text exposition, or None without prometheus-client."""
        if self.registry is None:
            return None
        from prometheus_client import generate_latest

        body: bytes = generate_latest(self.registry)
        return body
