"""A cluster node: one ``pokerroom serve --redis ... --database ...`` process among many.

Why this shape: each room has exactly one owner, the node holding its Redis lease; the owner is
the room's single writer, as one process is today, and every write carries the lease's fencing token so
PostgreSQL refuses a stale owner. Every node answers HTTP and websockets for every room: a socket stays on
the node it reached and its messages are relayed to the owner (see :mod:`~pokerroom.cluster.sockets` and
:mod:`~pokerroom.cluster.remote`).

Ownership changes hands in three ways:

- **takeover**: a room whose lease is absent (its owner died, stopped renewing, or handed it over) is taken
  by whichever node wins ``SET NX`` — on a scan of the store's rooms every ``ttl/4``, or at once when a
  socket needs the room; a dead node's rooms first by the survivor whose even part they are
  (:mod:`~pokerroom.cluster.succession`). The winner raises the room's token in PostgreSQL (``claim``; a
  stale winner gives up), loads the room (snapshot + log), adopts it (timers re-armed from the stored
  deadlines, moved later by the time it had no owner) and tells every node "moved", whose sockets then
  say hello to it again and get a fresh snapshot;
- **loss**: a lease found taken or gone on renewal, locally expired (Redis unreachable: the node stops
  ``margin`` before the TTL by its own clock), or a write refused as ``Fenced`` → the room is dropped at once;
- **hand-over** (SIGTERM): writes finish (each room's lock), every lease is released and "moved" told, so
  the others take the rooms over on their sockets' next need, without waiting for a TTL.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import threading
import time
from pathlib import Path
from typing import Any, assert_never

from redis.exceptions import RedisError
from starlette.websockets import WebSocket

from pokerroom.cluster import messages as M
from pokerroom.cluster.fencing import LeaseGuard, moving_error
from pokerroom.cluster.keys import Keys
from pokerroom.cluster.lease import Leases
from pokerroom.cluster.limits import ClusterLimits
from pokerroom.cluster.placement import Registry
from pokerroom.cluster.relay import Relay
from pokerroom.cluster.remote import RemoteConnections
from pokerroom.cluster.settings import NodeSettings, settings_from_args
from pokerroom.cluster.sockets import Sockets
from pokerroom.cluster.succession import Succession
from pokerroom.server.edge.limits import Limits
from pokerroom.server.ops.drain import Drain
from pokerroom.server.ops.metrics import Metrics
from pokerroom.server.room.rooms import Room, Rooms
from pokerroom.server.room.tokens import new_room_code
from pokerroom.server.storage import RoomStore
from pokerroom.server.topology import Topology
from pokerroom.server.websocket import OpenSockets
from pokerroom.server.wire import protocol as P

log = logging.getLogger("pokerroom.cluster")

_REFUSALS = {"rate": "too_many_rooms_here", "address": "too_many_rooms_here", "total": "too_many_rooms"}


def cluster_node(args: Any, limits: Limits, node_id: str) -> ClusterNode:
    """The node ``pokerroom serve --redis ... --database ...`` runs (cli.run's flags and limits); a wrong
    Redis URL fails at once with a sentence (:func:`~pokerroom.cluster.settings.settings_from_args`)."""
    return ClusterNode(settings_from_args(args, node_id), limits)


class ClusterNode:
    """Everything cluster-side of one node. It is the app's :class:`~pokerroom.server.topology.Topology`
    (``ServerConfig.topology``, see :meth:`configure`), so the app's routes reach any room of the cluster."""

    restores_rooms = False  # a room is served only once its lease is won (take, create_here)

    def last_served_ms(self) -> int | None:
        """None: a node restores no room at start (each lease says when its room was last served)."""
        return None

    def __init__(self, settings: NodeSettings, limits: Limits | None = None) -> None:
        self.settings = settings
        self.node_id = settings.node_id
        self.limits = limits or Limits()
        self.keys = Keys(settings.prefix)
        self.ttl_s = settings.lease_ttl_s
        self.scan_every_s = min(2.0, max(0.25, self.ttl_s / 4))
        # a dead node's rooms go to the survivors in even parts; a part its heir leaves two scans is anyone's
        self.succession = Succession(self.node_id, grace_s=2 * self.scan_every_s)
        self.redis: Any = None
        self.rooms: Rooms | None = None
        self.write_guard = LeaseGuard(self)  # every write of the rooms fenced by its lease (fencing.py)
        self.store: Any = None
        self._tasks: list[asyncio.Task[None]] = []  # the renew, heartbeat and scan loops
        self._spawned: set[asyncio.Task[None]] = set()
        self._taking: dict[str, asyncio.Lock] = {}
        self._handed_over = False
        self._keeper: threading.Event | None = None  # stops the lease renewal thread
        self.takeovers = 0  # rooms taken over by this node (metrics)
        self.dropped = 0  # rooms dropped (lease lost or fenced)
        self.last_scan: float | None = None
        self.metrics: Metrics | None = None  # the app's (count_takeover, observe_relay)

    # --- lifecycle ------------------------------------------------------------------------------------

    def make_store(self, data_dir: Path | None = None, busy_timeout_ms: int = 0) -> RoomStore:
        """The PostgreSQL store (schema created and migrated by the store itself); the app's settings for a
        file of its own (``data_dir``, ``busy_timeout_ms``) do not apply."""
        from pokerroom.server.storage.postgres import GATHER_S, PgStore

        gather = self.settings.store_gather_s
        store = PgStore(self.settings.database_url, gather_s=GATHER_S if gather is None else gather)
        self.store = store
        return store

    def configure(self, config: Any) -> None:
        """Hook this node into the app's configuration (``ServerConfig``): its readiness checks and its
        hand-over on SIGTERM (a drain hook: after the rooms freeze, before the sockets get 4012)."""
        topology: Topology = self  # mypy holds this node to the server's seam
        config.topology = topology
        config.node_id = self.node_id
        config.drain_hooks.append(self.hand_over)
        config.readiness.add("cluster", self._ready_check)

    async def _ready_check(self) -> tuple[bool, str]:
        state = self.ready()
        return bool(state["ok"]), ", ".join(f"{k}={v}" for k, v in state.items() if k != "ok")

    async def start(self, rooms: Rooms, metrics: Metrics | None = None) -> None:
        """Connect to Redis, subscribe, announce this node and start renewing, scanning and beating."""
        import redis.asyncio as aioredis

        self.metrics = metrics
        self.loop = asyncio.get_running_loop()
        self.rooms = rooms
        self.store = rooms.store
        prev_close = rooms.on_close

        def closed(code: str) -> None:
            if prev_close is not None:
                prev_close(code)
            self._spawn(self._room_closed(code))

        rooms.on_close = closed
        # a slow answer under load is still an answer (a timeout mid-pipeline leaves its outcome unknown);
        # a dead Redis refuses connections at once. The leases have their own client (lease.Leases.keep).
        self.redis = aioredis.Redis.from_url(self.settings.redis_url, socket_timeout=max(2.0, self.ttl_s),
                                             socket_connect_timeout=max(0.5, self.ttl_s / 3),
                                             health_check_interval=5)
        self.leases = Leases(self.redis, self.keys, self.node_id, self.ttl_s)
        self.registry = Registry(self.redis, self.keys, self.node_id, self.ttl_s)
        self.cluster_limits = ClusterLimits(self.redis, self.keys, self.node_id, self.settings.caps,
                                            self.ttl_s)
        self.relay = Relay(self.redis, self.keys, self.node_id, self._on_message, self._on_undelivered,
                           self._on_resubscribed, on_frames_lost=self._on_frames_lost)
        self.remote = RemoteConnections(rooms, self.relay, self.limits)
        self.sockets = Sockets(self.node_id, rooms, self.relay, self.resolve, self.still_owner,
                               connect=self._connect, disconnect=self._disconnect,
                               route=self.settings.route_to_owner,
                               live=lambda: [n.node_id for n in self.registry.live])
        await self.relay.start()
        with contextlib.suppress(Exception):
            await self._beat()
        loop = asyncio.get_running_loop()
        self._keeper = self.leases.keep(self.settings.redis_url, self._lost_threadsafe)
        self._tasks = [loop.create_task(self._beat_loop()), loop.create_task(self._scan_loop())]
        log.info("node %s joined (prefix %s, lease TTL %.1f s)", self.node_id, self.keys.prefix, self.ttl_s)

    async def hand_over(self) -> None:
        """Graceful shutdown: let every write finish, release every lease and tell the others. Idempotent."""
        if self._handed_over or self.rooms is None:
            return
        self._handed_over = True
        if self._keeper is not None:
            self._keeper.set()
        for task in self._tasks:
            task.cancel()
        with contextlib.suppress(Exception):
            await self.registry.leave()
        for code in list(self.rooms.rooms):
            room = self.rooms.rooms.get(code)
            if room is None:
                continue
            async with room.lock:  # the change in progress (and its write) finishes first
                self._drop(code, reattach=False)
            with contextlib.suppress(Exception):
                await self.leases.release(code)
            self.relay.broadcast(M.Moved(code, None))
        log.info("node %s handed its rooms over", self.node_id)

    async def stop(self) -> None:
        await self.hand_over()
        for task in self._tasks:
            with contextlib.suppress(BaseException):
                await task
        if self.redis is not None:
            with contextlib.suppress(Exception):
                await self.relay.close()
            with contextlib.suppress(Exception):
                await self.redis.aclose()

    # --- fencing (called by the rooms' LeaseGuard) -----------------------------------------------------

    def fence_for_write(self, code: str) -> int:
        lease = None if self._handed_over else self.leases.valid(code)
        if lease is None:
            log.warning("room %s: write refused: this node's lease is not valid now", code)
            raise moving_error()
        return lease.token

    async def still_owner(self, code: str) -> bool:
        """Does this node still own the room (its lease valid now, renewed if it just lapsed)?"""
        if self.leases.valid(code) is not None:
            return True
        await self.ensure_valid(code)
        return self.leases.valid(code) is not None and self.rooms is not None and code in self.rooms.rooms

    async def ensure_valid(self, code: str) -> None:
        if self._handed_over or code not in self.leases.owned or self.leases.valid(code) is not None:
            return
        try:
            async with asyncio.timeout(self.leases.renew_every_s):
                lost = await self.leases.renew()
        except Exception as exc:
            log.warning("room %s: lease renewal before a write failed (%s)", code, type(exc).__name__)
            return
        for gone in lost:
            await self._lost(gone)

    def fenced(self, code: str) -> None:
        self.leases.forget(code)
        self._drop(code)

    def unsure(self, code: str) -> None:
        self._drop(code)
        self._spawn(self._release(code))

    async def _release(self, code: str) -> None:
        try:
            await self.leases.release(code)
        except Exception:  # Redis down too: the lease is forgotten and expires by itself
            self.leases.forget(code)

    def token_of(self, code: str) -> int | None:
        lease = self.leases.owned.get(code)
        return None if lease is None else lease.token

    # --- ownership ------------------------------------------------------------------------------------

    def _drop(self, code: str, reattach: bool = True) -> None:
        """Stop serving a room at once; this node's sockets of it say hello to its owner again (a new
        owner, or this node taking it back if nobody holds it)."""
        assert self.rooms is not None
        room = self.rooms.drop(code)
        if room is not None:
            room.connections.clear()  # nothing more is sent from it: its sockets re-attach elsewhere
            self.dropped += 1
        self.remote.room_dropped(code)
        self.sockets.dropped(code, reattach)

    def _lost_threadsafe(self, code: str) -> None:
        """From the lease thread: drop the room on the event loop."""
        def drop() -> None:
            self._spawn(self._lost(code))

        self.loop.call_soon_threadsafe(drop)

    async def _lost(self, code: str) -> None:
        """A lease was lost (taken, gone, or not renewed in time): drop the room now."""
        log.warning("room %s: lease lost; dropping it", code)
        self._drop(code)

    async def resolve(self, code: str) -> Room | str | None:
        """Where room ``code`` lives: this node's Room, another node's id, or None (no such room).
        Raises when the room exists but no owner can be had right now (Redis or PostgreSQL down)."""
        assert self.rooms is not None
        room = self.rooms.get(code)
        if room is not None:
            return room
        for _ in range(3):
            owner = await self.leases.owner(code)
            if owner is None:  # free: leave it a moment to the node whose part of a dead node's rooms it is
                owner = await self.succession.heir_took(code, {n.node_id for n in self.registry.live},
                                                        self.leases.owner)
            if owner is not None and owner != self.node_id:
                return owner
            taken = await self.take(code)
            if taken is not None:
                return taken
            if not await asyncio.to_thread(self.store.has, code):
                return None
        raise RuntimeError(f"room {code}: no owner could be found")

    async def take(self, code: str) -> Room | None:
        """Take a room whose lease is free: lease, claim, load, adopt, tell everyone. None if lost/absent.
        Bounded in time: a hung Redis or PostgreSQL call must not hold the room's takeover lock forever."""
        if self._handed_over:
            return None
        lock = self._taking.setdefault(code, asyncio.Lock())
        async with asyncio.timeout(2 * self.ttl_s + 10), lock:
            return await self._take(code)

    async def _take(self, code: str) -> Room | None:
        assert self.rooms is not None
        room = self.rooms.get(code)
        if room is not None:
            return room
        t0 = time.perf_counter()
        lease = await self.leases.acquire(code)
        if lease is None:
            return None
        try:
            if not await asyncio.to_thread(self.store.claim, code, lease.token):
                log.warning("room %s: lease won but a newer token is stored; giving up", code)
                await self.leases.release(code)
                return None
            stored = await asyncio.to_thread(self.store.load, code)
            if stored is None:
                await self.leases.release(code)
                return None
            room = self.rooms.adopt(stored)
            # the time it had no owner (since its last renewal or release by Redis's clock, never before its
            # newest change) is not charged to the player to act; before "moved", so every view shows it
            await self.rooms.resume(room, stored.newest_ms if lease.unserved_ms is None else
                                    max(stored.newest_ms, self.rooms.clock.ago(lease.unserved_ms)))
        except BaseException as exc:  # failed or timed out half-way: the lease must not stay held
            if not isinstance(exc, asyncio.CancelledError):
                log.warning("room %s: takeover failed (%s: %s); lease released", code, type(exc).__name__,
                            exc)
            self.leases.forget(code)
            with contextlib.suppress(Exception):
                await asyncio.shield(self.leases.release(code))
            if isinstance(exc, Exception):
                return None
            raise
        self.takeovers += 1
        self.succession.took(code)
        if self.metrics is not None:
            self.metrics.count_takeover()
        log.warning("room %s: taken over by %s (token %d, %.0f ms)", code, self.node_id, lease.token,
                    (time.perf_counter() - t0) * 1000)
        self.relay.broadcast(M.Moved(code, self.node_id))
        return room

    async def _scan_loop(self) -> None:
        """Every ``ttl/4``: the store's rooms whose lease is absent are taken over (racing is safe), a dead
        node's rooms in even parts over the survivors (:mod:`~pokerroom.cluster.succession`)."""
        while True:
            # a jittered period (secrets, not `random`: no module of src imports random, see test_cards_rng)
            await asyncio.sleep(self.scan_every_s * (0.8 + 0.4 * secrets.randbelow(1001) / 1000))
            try:  # whatever one scan meets, the next one runs: this loop is what re-attaches orphans
                self.sockets.retry_orphans()
                codes = sorted(await asyncio.to_thread(self.store.codes))
                owners = dict(zip(codes, await self.leases.owners(codes), strict=True))
                live = await self.registry.refresh() if None in owners.values() else []
                self.last_scan = time.monotonic()
                for code in self.succession.observe(owners, {n.node_id for n in live}, time.monotonic()):
                    with contextlib.suppress(Exception):
                        await self.take(code)
            except Exception as exc:  # Redis or PostgreSQL away (said elsewhere), or a bug: said loudly
                outage = isinstance(exc, RedisError | OSError | TimeoutError) \
                    or type(exc).__module__.startswith("psycopg")
                (log.debug if outage else log.exception)("scan failed (%s: %s)", type(exc).__name__, exc)

    async def _beat(self) -> None:
        assert self.rooms is not None
        conns = len(self.sockets.by_id)
        await self.registry.heartbeat(len(self.rooms.rooms), conns)
        await self.cluster_limits.refresh()
        await self.cluster_limits.register_rooms(list(self.rooms.rooms))
        await self.registry.refresh()
        await self.relay.check()

    async def _beat_loop(self) -> None:
        while True:
            await asyncio.sleep(self.ttl_s / 3)
            try:
                await self._beat()
            except Exception as exc:
                log.debug("heartbeat failed (%s: %s)", type(exc).__name__, exc)

    async def _room_closed(self, code: str) -> None:
        """A room closed for good on this node: free its cluster-wide counts and its lease."""
        with contextlib.suppress(Exception):
            await self.cluster_limits.room_closed(code)
        with contextlib.suppress(Exception):
            await self.leases.release(code)

    # --- relay ----------------------------------------------------------------------------------------

    def _on_message(self, msg: M.Routed) -> None:
        """Every kind the relay hands over has its handler here (a kind without one is a type error)."""
        match msg:
            case M.ClientMsg():
                self.remote.message(msg)
            case M.Frame():
                self.sockets.frame(msg)
            case M.Welcome():
                self.sockets.welcome(msg)
            case M.Close():
                self.sockets.close(msg)
            case M.Detached():
                self.remote.detached(msg.origin, msg.cid)
            case M.Gone():
                log.info("room %s: the node asked answered gone; looking for the owner again", msg.code)
                self.sockets.gone(msg)
            case M.Moved():
                self._moved(msg.code, msg.owner)
            case M.Request():
                self._spawn(self._answer(msg))
            case _:
                assert_never(msg)

    def _moved(self, code: str, owner: str | None) -> None:
        if owner is not None and owner != self.node_id and self.rooms is not None \
                and code in self.rooms.rooms:
            # another node won the room: whatever this node still believes, its lease is gone
            log.warning("room %s: taken over by %s; dropping it here", code, owner)
            self.leases.forget(code)
            self._drop(code)
        self.sockets.moved(code)

    def _on_resubscribed(self) -> None:
        self.sockets.resync_relayed()

    def _on_frames_lost(self, node: str, msgs: list[M.Message]) -> None:
        self.remote.frames_lost(node, msgs)

    def _on_undelivered(self, node: str, msgs: list[M.Message]) -> None:
        self.sockets.undelivered(node, msgs)
        if any(isinstance(m, M.Frame | M.Welcome | M.Close) for m in msgs):
            self.remote.origin_gone(node)

    # --- HTTP -----------------------------------------------------------------------------------------

    async def create_room(self, options: dict[str, Any], nickname: str, address: str) -> dict[str, Any]:
        """A new room on the live node with the fewest rooms: ``{code, playerId, token}``."""
        try:
            target = await self.registry.pick()
        except Exception:
            target = self.node_id
        if target != self.node_id:
            try:
                body = await self.relay.request(target, M.CreateRoom(options, nickname, address),
                                                self.settings.create_timeout_s)
            except TimeoutError:
                log.warning("node %s did not answer a room creation in time; creating here", target)
            else:
                if isinstance(body, dict) and "err" in body:
                    err = body["err"]
                    raise P.ProtocolError(str(err["code"]), str(err["message"]), int(err["status"]))
                if isinstance(body, dict):
                    return body
        return await self.create_here(options, nickname, address)

    async def create_here(self, options: dict[str, Any], nickname: str, address: str) -> dict[str, Any]:
        """Create a room on this node: reserve a code cluster-wide, win its lease, claim it, store it."""
        assert self.rooms is not None
        if self._handed_over:
            raise moving_error()
        for _ in range(5):
            code = new_room_code()
            try:
                verdict = await self.cluster_limits.admit_room(code, address)
            except Exception:
                raise moving_error() from None
            if verdict == "taken":
                continue
            if verdict != "ok":
                status = 503 if verdict == "total" else 429
                raise P.error(_REFUSALS[verdict], status=status)
            lease = await self.leases.acquire(code)
            if lease is None:
                await self.cluster_limits.room_closed(code)
                continue
            try:  # no claim: the room has no row yet, its first save stores the token
                room, member, token = await self.rooms.create_room(options, nickname, code=code)
            except BaseException:
                self.leases.forget(code)
                with contextlib.suppress(Exception):
                    await self.leases.release(code)
                    await self.cluster_limits.room_closed(code)
                raise
            return {"code": room.code, "playerId": member.id, "token": token}
        raise moving_error()

    async def _answer(self, request: M.Request) -> None:
        """Answer another node's request."""
        ask = request.ask
        body: dict[str, Any] | None
        match ask:
            case M.CreateRoom():
                body = await self._create_for(ask)
            case M.RoomInfo():
                body = self._info_for(ask)
            case _:
                assert_never(ask)
        self.relay.reply(request, body)

    async def _create_for(self, ask: M.CreateRoom) -> dict[str, Any]:
        """Another node's "create this room on you": the creation's answer, or ``{"err": ...}``."""
        try:
            body = await self.create_here(ask.options, ask.nickname, ask.address)
        except P.ProtocolError as exc:
            body = {"err": {"code": exc.code, "message": exc.message, "status": exc.status}}
        except Exception:
            log.exception("remote room creation failed")
            body = {"err": {"code": "internal", "message": P.MESSAGES["internal"], "status": 500}}
        return body

    async def room_info(self, code: str) -> dict[str, Any] | None:
        """``/api/rooms/{code}``: the owner's public info (taking the room over if it has no owner); None
        when there is no such room, or no owner answers now (Redis or PostgreSQL down, a node gone)."""
        try:
            where = await self.resolve(code)
            if where is None:
                return None
            if isinstance(where, Room):
                return where.public_info()
            body = await self.relay.request(where, M.RoomInfo(code), self.settings.create_timeout_s)
        except Exception:
            return None
        return body if isinstance(body, dict) else None

    def rooms_refused(self) -> int:
        """Creations refused by this process's own caps (``/healthz``): none, the caps are cluster-wide."""
        return 0

    def _info_for(self, ask: M.RoomInfo) -> dict[str, Any] | None:
        assert self.rooms is not None
        room = self.rooms.get(ask.code)
        return None if room is None else room.public_info()

    # --- readiness ------------------------------------------------------------------------------------

    def ready(self) -> dict[str, Any]:
        """For ``/readyz``: is Redis answering (a renewal within the TTL) and is the store reachable (a
        scan within a few periods)?"""
        now = time.monotonic()
        renewed = self.leases.renewed_at
        lease_ok = renewed is not None and now - renewed < self.ttl_s
        scan_ok = self.last_scan is not None and now - self.last_scan < max(5.0, 3 * self.ttl_s)
        return {"ok": lease_ok and scan_ok and not self._handed_over, "node": self.node_id,
                "leases": lease_ok, "store": scan_ok,
                "rooms": 0 if self.rooms is None else len(self.rooms.rooms)}

    # --- websockets -----------------------------------------------------------------------------------

    async def serve_socket(self, ws: WebSocket, code: str, sockets: OpenSockets, drain: Drain) -> None:
        """Serve an accepted websocket of room ``code``, wherever the room lives (:meth:`Sockets.serve`)."""
        await self.sockets.serve(ws, code, sockets, drain, self.limits, self.metrics)

    async def _connect(self, code: str) -> bool:
        """May one more socket join room ``code`` (its cluster-wide cap)? Yes if Redis cannot say."""
        live = [n.node_id for n in self.registry.live] or [self.node_id]
        try:
            return bool(await self.cluster_limits.connect(code, live))
        except Exception:
            return True  # Redis down: the per-node caps still hold

    async def _disconnect(self, code: str) -> None:
        with contextlib.suppress(Exception):
            await self.cluster_limits.disconnect(code)

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._spawned.add(task)
        task.add_done_callback(self._spawned.discard)
