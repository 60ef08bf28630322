"""Messages between nodes over Redis pub/sub: one channel per node, plus one every node hears.

Why pub/sub (and not streams): what crosses is live traffic for sockets that exist right now (a client's
message to the room's owner, a frame back to the node holding the socket); if a node is gone its sockets are
gone too, and nothing durable travels here (PostgreSQL is the source of truth, acks go out only after the
commit). Pub/sub delivers in order per publishing connection and costs one hop.

Why one publisher task: every ``send`` is queued (a room's ``conn.send`` must never block) and one task
writes everything pending on one connection, one ``PUBLISH`` per destination carrying a list of items, and
goes on without waiting for the answers (:mod:`~pokerroom.cluster.redis_wire`, decision 0084). One
connection keeps each destination's items in order, and a busy node sends many frames per write. Each
``PUBLISH`` answers how many subscribers got it: 0 means the destination node is not listening (dead or
restarting), which ``on_undelivered`` is told as the answer arrives, so the caller can react at once
instead of waiting for a TTL.

What travels is declared in :mod:`~pokerroom.cluster.messages` (each kind, its encoder and decoder, the
batch format); the relay queues typed messages and answers two kinds itself: a ``Probe`` (its own
liveness check) and a ``Reply`` (the answer to its requests).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import time
from collections.abc import Callable
from typing import Any

from pokerroom.cluster import messages as M
from pokerroom.cluster.keys import Keys
from pokerroom.cluster.redis_wire import Endpoint, NeverConnected, Publisher, Subscription

log = logging.getLogger("pokerroom.cluster")

MAX_PENDING = 200_000  # items queued while Redis is unreachable before the oldest are dropped


Sent = tuple[str, list[M.Message]]  # one PUBLISH: its channel and its items


class Relay:
    """This node's end of the relay: a subscriber task and a publisher task."""

    def __init__(self, redis: Any, keys: Keys, node_id: str, on_message: Callable[[M.Routed], None],
                 on_undelivered: Callable[[str, list[M.Message]], None] | None = None,
                 on_resubscribed: Callable[[], None] | None = None, *,
                 on_frames_lost: Callable[[str, list[M.Message]], None] | None = None) -> None:
        self.redis = redis  # for the occasional check; the relay's own traffic goes through ``endpoint``
        self.endpoint = Endpoint.of(redis)
        self._link: Publisher[Sent] | None = None
        # the pause before a new publishing connection after one was lost with publishes unanswered; it
        # doubles while that keeps happening: a Redis that keeps failing is not answered with a stream of
        # the views that make the lost frames good
        self._relink_pause = 0.0
        self._closing = False
        # called with the frames (and welcomes) to a node that a failed publish may have lost: their sockets
        # need a fresh view, or a player whose turn it now is may never learn it
        self.on_frames_lost = on_frames_lost
        # called each time the subscription is made again after an outage: whatever was published to this
        # node meanwhile (frames of its relayed sockets) is lost, so those sockets need a fresh snapshot
        self.on_resubscribed = on_resubscribed
        self._subscribed_before = False
        self.keys = keys
        self.node_id = node_id
        self.on_message = on_message
        self.on_undelivered = on_undelivered
        self._pending: dict[str, list[M.Message]] = {}  # channel -> messages, in order
        self._count = 0
        self._wake = asyncio.Event()
        self._ready = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []
        self._requests: dict[str, asyncio.Future[Any]] = {}
        self._ids = itertools.count(1)
        self.published = 0
        self.received = 0
        self._probe_sent: float | None = None  # monotonic time of the last probe sent to ourselves
        self._heard = 0.0  # monotonic time of the last message received

    async def start(self) -> None:
        """Subscribe (returns once the subscription is in place) and start publishing."""
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._subscriber()), loop.create_task(self._publisher())]
        async with asyncio.timeout(10):
            await self._ready.wait()

    async def check(self) -> bool:
        """Is this node's channel subscribed on Redis? If not (a restarted Redis the subscriber connection
        came back to without its subscriptions), the subscriber starts over. True if it was fine."""
        now = time.monotonic()
        # a probe sent to ourselves at the last check must have come back since (subscribed but not
        # reading is as bad as not subscribed)
        sent = self._probe_sent
        deaf = sent is not None and now - sent > 2.0 and self._heard < sent
        got = await self.redis.pubsub_numsub(self.keys.channel(self.node_id))
        if got and int(got[0][1]) > 0 and not deaf:
            if self._probe_sent is None or self._heard >= self._probe_sent:
                self._probe_sent = now
                self.send(self.node_id, M.Probe())
            return True
        self._probe_sent = None
        log.warning("relay: this node's channel has no working subscriber on Redis; subscribing again")
        old = self._tasks[0]
        old.cancel()
        with contextlib.suppress(BaseException):
            await old
        self._tasks[0] = asyncio.get_running_loop().create_task(self._subscriber())
        return False

    async def close(self) -> None:
        """Publish what is pending (briefly), then stop both tasks."""
        if self._count:
            self._wake.set()
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(2):
                    while self._count:
                        await asyncio.sleep(0.01)
        self._closing = True
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(BaseException):
                await task
        if self._link is not None and self._link.transport is not None:
            self._link.transport.close()  # after what is written has gone
        for fut in self._requests.values():
            if not fut.done():
                fut.cancel()

    # --- sending --------------------------------------------------------------------------------------

    def send(self, node_id: str, msg: M.Message) -> None:
        """Queue one message for a node (never blocks)."""
        self._queue(self.keys.channel(node_id), msg)

    def broadcast(self, msg: M.Message) -> None:
        """Queue one message for every node (this one included)."""
        self._queue(self.keys.broadcast, msg)

    def _queue(self, channel: str, msg: M.Message) -> None:
        self._pending.setdefault(channel, []).append(msg)
        self._count += 1
        if self._count > MAX_PENDING:
            for items in self._pending.values():
                if items:
                    items.pop(0)
                    self._count -= 1
                    break
        self._wake.set()

    async def request(self, node_id: str, ask: M.Ask, timeout_s: float) -> Any:
        """Ask a node and wait for its reply's body (TimeoutError after ``timeout_s``)."""
        rid = f"{self.node_id}:{next(self._ids)}"
        fut: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._requests[rid] = fut
        try:
            self.send(node_id, M.Request(rid, self.node_id, ask))
            async with asyncio.timeout(timeout_s):
                return await fut
        finally:
            self._requests.pop(rid, None)

    def reply(self, request: M.Request, body: Any) -> None:
        """Answer a request (from :meth:`request` on another node)."""
        self.send(request.origin, M.Reply(request.rid, body))

    async def _publisher(self) -> None:
        delay = 0.05
        while True:
            await self._wake.wait()
            self._wake.clear()
            if not self._pending:
                continue
            try:
                link = await self._publishing_link()
            except NeverConnected as exc:
                # nothing was sent: everything stays queued, in order, for the next try
                log.warning("relay publish failed (%s: %s); retrying", type(exc).__name__, exc)
                delay = await self._pause(delay)
                continue
            batch, self._pending = self._pending, {}
            sent = sum(len(items) for items in batch.values())
            link.publish([(channel.encode(), M.encode_batch(items), (channel, items))
                          for channel, items in batch.items()])
            delay = 0.05
            self._count -= sent
            self.published += sent
            await link.drained()

    async def _publishing_link(self) -> Publisher[Sent]:
        """The connection publishes go out on, made again if it was lost (:class:`NeverConnected` if it
        cannot be)."""
        link = self._link
        if link is not None and link.transport is not None:
            return link
        if self._relink_pause:
            await asyncio.sleep(self._relink_pause)
        link = Publisher(self._answered, self.endpoint.reply_timeout)
        await self.endpoint.open(link)
        link.closed.add_done_callback(lambda _: self._link_lost(link))
        self._link = link
        return link

    def _answered(self, sent: Sent, answer: int | Exception) -> None:
        """A publish's answer: nobody heard a node's channel (the node is dead or restarting), or Redis
        refused the publish (then, as for a lost connection, what it carried is made good, not resent)."""
        channel, items = sent
        if not isinstance(answer, Exception):
            self._relink_pause = 0.0
        if isinstance(answer, Exception):
            log.warning("relay: Redis refused a publish (%s); %d items dropped", answer, len(items))
            self._lost({channel: items})
        elif answer == 0 and channel != self.keys.broadcast and self.on_undelivered is not None:
            try:
                self.on_undelivered(channel.rsplit(":", 1)[1], items)
            except Exception:
                log.exception("relay: on_undelivered failed")

    def _link_lost(self, link: Publisher[Sent]) -> None:
        """The publishing connection is gone. Publishes it wrote without an answer may or may not have
        arrived: sending them again could repeat frames, which breaks a socket's chain of view deltas, so
        what they carried is made good instead (``_lost``: a fresh whole view to each socket concerned, the
        senders of client messages told); waiting for the next change's view is not enough when that change
        is the lost view's reader's to make."""
        if self._link is link:
            self._link = None
        unanswered = link.unanswered()
        if not unanswered or self._closing:
            return
        self._relink_pause = min(1.0, max(0.05, self._relink_pause * 2))
        log.warning("relay: the connection to Redis was lost (or Redis stopped answering for %.1f s); %d "
                    "items may not have arrived", self.endpoint.reply_timeout,
                    sum(len(items) for _, items in unanswered))
        batch: dict[str, list[M.Message]] = {}
        for channel, items in unanswered:
            batch.setdefault(channel, []).extend(items)
        self._lost(batch)

    async def _pause(self, delay: float) -> float:
        """Wait ``delay`` after a failed publish, then publish again; the next failure's pause (doubled, up
        to 1 s)."""
        await asyncio.sleep(delay)
        self._wake.set()
        return min(1.0, delay * 2)

    def _lost(self, batch: dict[str, list[M.Message]]) -> None:
        """A batch that may not have arrived: the senders of its client messages are told (as undelivered),
        and the owner of its frames makes them good (``on_frames_lost``)."""
        for channel, items in batch.items():
            if channel == self.keys.broadcast:
                continue
            node = channel.rsplit(":", 1)[1]
            msgs: list[M.Message] = [m for m in items if isinstance(m, M.ClientMsg)]
            frames: list[M.Message] = [m for m in items if isinstance(m, M.Frame | M.Welcome)]
            for told, what in ((self.on_undelivered, msgs), (self.on_frames_lost, frames)):
                if told is not None and what:
                    try:
                        told(node, what)
                    except Exception:
                        log.exception("relay: telling of a lost batch failed")

    # --- receiving ------------------------------------------------------------------------------------

    async def _subscriber(self) -> None:
        """Listen on this node's channel and the broadcast channel, subscribing again after a Redis
        outage."""
        delay = 0.05
        while True:
            sub = Subscription(self._dispatch)
            try:
                await self.endpoint.open(sub)
                async with asyncio.timeout(self.endpoint.reply_timeout):
                    await sub.subscribe([self.keys.channel(self.node_id), self.keys.broadcast])
                self._ready.set()
                if self._subscribed_before and self.on_resubscribed is not None:
                    try:
                        self.on_resubscribed()
                    except Exception:
                        log.exception("relay: on_resubscribed failed")
                self._subscribed_before = True
                delay = 0.05
                await sub.closed
                raise ConnectionError("the subscription's connection closed")
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.warning("relay subscriber lost Redis (%s: %s); resubscribing", type(exc).__name__, exc)
                await asyncio.sleep(delay)
                delay = min(0.5, delay * 2)
            finally:
                sub.abort()

    def _dispatch(self, data: bytes) -> None:
        try:
            msgs = M.decode_batch(data)
        except ValueError:  # orjson.JSONDecodeError included
            log.warning("relay: undecodable message dropped")
            return
        self._heard = time.monotonic()
        for msg in msgs:
            if isinstance(msg, M.Probe):
                continue
            self.received += 1
            if isinstance(msg, M.Reply):
                fut = self._requests.get(msg.rid)
                if fut is not None and not fut.done():
                    fut.set_result(msg.body)
                continue
            try:
                self.on_message(msg)
            except Exception:
                log.exception("relay: handling a %s failed", type(msg).__name__)
