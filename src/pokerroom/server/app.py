"""The Starlette application: HTTP endpoints, the web client's files and the websocket endpoint.

Why this shape: one process, one origin. The browser loads ``/`` or ``/r/{code}`` (the same
``index.html``), its assets from ``/static/`` and talks to ``/ws/{code}``, so no CORS is ever needed and the
websocket ``Origin`` check can simply demand our own host.

The routes do not know where rooms live: making one, finding one and serving its socket go through
``ServerConfig.topology`` (:mod:`~pokerroom.server.topology`: this process alone by default, or a cluster node
chosen by ``pokerroom.serve``), so the same routes serve both without a branch. A socket's machinery (its
bounded queue, sender task and receive loop) is :mod:`~pokerroom.server.websocket`.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import gc
import json
import logging
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket

from pokerroom.server.edge.clients import CLIENT_KEY, SOCKETS_RATE_TEXT, ClientRates, ClientTag, client_group
from pokerroom.server.edge.clients import whole_seconds as _seconds
from pokerroom.server.edge.fairshare import ClientSlots
from pokerroom.server.edge.guard import AcceptErrorFilter, ConnectionGuard, client_address
from pokerroom.server.edge.headers import BrowserEdge
from pokerroom.server.edge.hosts import LOOPBACK_NAMES, base_url, host_of, origin_of
from pokerroom.server.edge.limits import Limits, origin_allowed
from pokerroom.server.engine_port import GameEngine
from pokerroom.server.invite import qr_svg
from pokerroom.server.ops import identity
from pokerroom.server.ops.drain import CLOSE_MOVING, MOVING_REASON, Drain, DrainHook
from pokerroom.server.ops.health import Readiness, store_check
from pokerroom.server.ops.logs import current_room
from pokerroom.server.ops.metrics import MISSING, Metrics
from pokerroom.server.room.rooms import Rooms
from pokerroom.server.room.startup import Restorer
from pokerroom.server.room.timers import Clock
from pokerroom.server.room.tokens import is_room_code
from pokerroom.server.static_assets import StaticAssets
from pokerroom.server.topology import SingleNode, Topology
from pokerroom.server.websocket import DirectSend, OpenSockets, WsConnection, refuse
from pokerroom.server.wire import protocol as P
from pokerroom.server.wire import replays

log = logging.getLogger("pokerroom.server")

STATIC_DIR = Path(__file__).resolve().parent.parent / "web" / "static"


@dataclass
class ServerConfig:
    """Everything ``create_app`` needs; the CLI fills it from flags, tests build it directly."""

    data_dir: Path | None = None  # None: in-memory store (tests)
    limits: Limits = field(default_factory=Limits)
    time_scale: float = 1.0
    idle_close_s: float = 1800.0
    reap_interval_s: float = 5.0
    bot_delay_ms: int = 800
    static_dir: Path = STATIC_DIR
    engine: GameEngine | None = None  # None: the real pokerroom.engine
    hints: bool = True  # use pokerroom.bots.recommend for hints when it exists
    warm_up: bool = True  # pre-build bot/hint tables in a thread at start-up
    tune_gc: bool = False  # process-wide GC settings for a dedicated server process (the CLI turns it on)
    busy_timeout_ms: int = 5000  # how long one store write waits for a lock held by another process
    connection_guard: ConnectionGuard | None = None  # the transport-level caps (the CLI installs them)
    # The base of invite links (``http(s)://host[:port]``, see hosts.resolve_addresses); None: the address
    # the request arrived on (the listening socket's, never the request's Host header).
    public_url: str | None = None
    # ``Host`` names answered (lower-case, no port; "*" = any); None: the loopback names + public_url's host.
    allowed_hosts: frozenset[str] | None = None
    # --- operations: /healthz, /readyz, /metrics, graceful shutdown -------------------------
    node_id: str = field(default_factory=identity.node_id)
    readiness: Readiness = field(default_factory=Readiness)  # /readyz; the app adds "store" at start-up
    drain_hooks: list[DrainHook] = field(default_factory=list)  # run on SIGTERM after rooms freeze (drain.py)
    metrics: Metrics | None = None  # None: create_app makes one (app.state.metrics)
    # Where the rooms live (server/topology.py): this process alone on SQLite, or a cluster node
    # (the cluster's ``ClusterNode``, which the composition root ``pokerroom.serve`` installs behind --redis).
    topology: Topology = field(default_factory=SingleNode)

    def host_allow_list(self) -> frozenset[str]:
        """The ``Host`` names this server answers to (DNS-rebinding protection, see headers.BrowserEdge)."""
        if self.allowed_hosts is not None:
            return self.allowed_hosts
        names = set(LOOPBACK_NAMES)
        if self.public_url:
            names.add(host_of(self.public_url))
        return frozenset(names)


TOPOLOGY_STOP_TIMEOUT_S = 10.0  # the lifespan's last step: let go of the topology (a cluster node: Redis)


def _tune_gc(warm: asyncio.Future[int] | None, restorer: Restorer | None = None) -> None:
    """Make full garbage collections rare and small.

    Why: a full (generation 2) collection walks every live object — all rooms' states and queued frames —
    and stalled the event loop for 150-350 ms under load, which is every room's p99. Game states are
    acyclic and freed by reference counting, so collecting cycles rarely costs little memory; and the
    start-up objects (modules, bot tables built by the warm-up) are frozen out of future scans.

    The rooms a restart restores in the background (``restorer``) are frozen too, a batch at a time, once
    the young generations are collected: left to the collector, their objects (millions with 10,000 rooms)
    piled up in generation 1 and were scanned there for 300-450 ms at a time. A closed room is then freed by
    reference counting (``Rooms.close_room`` breaks its one cycle, through its timer).
    """
    gc.set_threshold(20_000, 50, 100)
    gc.freeze()
    if warm is not None:
        warm.add_done_callback(lambda _: gc.freeze())
    if restorer is not None:
        restorer.settle = _settle


def _settle() -> None:
    gc.collect(1)
    gc.freeze()


async def _read_body(request: Request, limit: int, timeout_s: float = 0.0) -> bytes:
    """The request body, refused with 413 as soon as the declared length or the bytes read pass ``limit``
    (``request.body()`` would first hold a body of any size in memory)."""
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > limit):
        raise P.error("too_large", status=413)
    chunks: list[bytes] = []
    size = 0
    try:
        async with asyncio.timeout(timeout_s if timeout_s > 0 else None):  # a trickled body (slowloris)
            async for chunk in request.stream():
                size += len(chunk)
                if size > limit:
                    raise P.error("too_large", status=413)
                chunks.append(chunk)
    except TimeoutError:
        raise P.error("too_slow", status=408) from None
    return b"".join(chunks)


def _parse_json(body: bytes) -> Any:
    """``json.loads`` answering ``bad_json`` for nesting too deep to parse (``RecursionError``), not 500."""
    try:
        return json.loads(body)
    except (ValueError, RecursionError):
        raise P.error("bad_json") from None


def _json_error(exc: P.ProtocolError) -> JSONResponse:
    if exc.retry_after is None:
        return JSONResponse({"error": {"code": exc.code, "message": exc.message}}, status_code=exc.status)
    return JSONResponse({"error": {"code": exc.code, "message": exc.message, "retryAfter": exc.retry_after}},
                        status_code=exc.status, headers={"Retry-After": str(exc.retry_after)})


def create_app(config: ServerConfig | None = None) -> Starlette:
    """Build the app. The engine is imported lazily so a missing engine fails loudly at start-up only."""
    cfg = config or ServerConfig()
    limits = cfg.limits
    topology = cfg.topology
    state: dict[str, Any] = {}
    metrics = cfg.metrics if cfg.metrics is not None else Metrics(cfg.node_id)
    drain = Drain(cfg.drain_hooks)
    sockets = OpenSockets(limits.max_connections)  # every open socket (the drain closes them all with 4012)
    client_rates = ClientRates.from_limits(limits)  # per client, not per socket (edge/clients.py)
    slots = ClientSlots(limits.max_connections, limits.connections_per_address)  # edge/fairshare.py

    def make_rooms() -> Rooms:
        engine = cfg.engine
        if engine is None:
            from pokerroom.server.engine_port import PokerEngine

            engine = PokerEngine()
        from pokerroom.server.room.botseat import load_decider, load_recommender

        store = topology.make_store(cfg.data_dir, cfg.busy_timeout_ms)
        rooms = Rooms(engine, store, clock=Clock(cfg.time_scale), limits=limits,
                      idle_close_s=cfg.idle_close_s, reap_interval_s=cfg.reap_interval_s,
                      bot_delay_ms=cfg.bot_delay_ms,
                      decider=load_decider(), recommender=load_recommender() if cfg.hints else None,
                      guard=topology.write_guard, restore=topology.restores_rooms)
        rooms.observe_commit = metrics.committed
        return rooms

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        AcceptErrorFilter(asyncio.get_running_loop()).install()
        rooms = make_rooms()
        app.state.rooms = rooms
        metrics.bind(rooms=lambda: len(rooms.rooms), connections=lambda: sockets.count)
        if "store" not in cfg.readiness.checks:
            cfg.readiness.add("store", store_check(rooms.store))
        await rooms.start(served_ms=topology.last_served_ms(), background=True)
        await topology.start(rooms, metrics)
        warm = asyncio.get_running_loop().run_in_executor(None, rooms.warm_up) if cfg.warm_up else None
        state["warm"] = warm
        if cfg.tune_gc:
            _tune_gc(warm, rooms.restorer)
        try:
            yield
        finally:
            if warm is not None:
                with contextlib.suppress(Exception):
                    await warm
            await drain_now(app)  # done already under `pokerroom serve` (before uvicorn drops the sockets)
            try:  # bounded: a Redis that stopped answering must not keep a stopping node alive
                async with asyncio.timeout(TOPOLOGY_STOP_TIMEOUT_S):
                    await topology.stop()
            except TimeoutError:
                log.warning("the cluster node did not stop within %.0f s; exiting anyway",
                            TOPOLOGY_STOP_TIMEOUT_S)
            await rooms.stop()
            rooms.store.close()

    def rooms_of(request: Request | WebSocket) -> Rooms:
        rooms: Rooms = request.app.state.rooms
        return rooms

    async def drain_now(app: Starlette) -> None:
        """Graceful shutdown (drain.py): freeze rooms, run the hooks, close every socket with 4012."""
        await drain.run(app.state.rooms, lambda: list(sockets.conns))

    # the public URL's own origin is always ours (a proxy may rewrite Host)
    ws_origins = limits.allowed_origins + ((origin_of(cfg.public_url),) if cfg.public_url else ())

    def room_link(request: Request, code: str) -> str:
        """The invite link, from configuration only (a request's Host could be an attacker's name)."""
        if cfg.public_url:
            return f"{cfg.public_url.rstrip('/')}/r/{code}"
        server = request.scope.get("server") or ("127.0.0.1", 80)
        return f"{base_url('http', str(server[0]), int(server[1] or 80))}/r/{code}"

    assets = StaticAssets()

    async def index(request: Request) -> Response:
        page = cfg.static_dir / "index.html"
        if not page.is_file():
            return PlainTextResponse("웹 클라이언트가 아직 준비되지 않았어요", status_code=404)
        return assets.response(request, page)

    async def static(request: Request) -> Response:
        rel = request.path_params["path"]
        root = cfg.static_dir.resolve()
        try:
            target = (root / rel).resolve()
        except (OSError, ValueError):
            return PlainTextResponse("없는 파일이에요", status_code=404)
        if not target.is_relative_to(root) or not target.is_file():
            return PlainTextResponse("없는 파일이에요", status_code=404)
        return assets.response(request, target)

    async def healthz(request: Request) -> Response:
        rooms = rooms_of(request)
        warm = state.get("warm")
        body: dict[str, Any] = {"ok": True, "node": cfg.node_id, "rooms": len(rooms.rooms),
                                "connections": sockets.count,
                                "warm": warm is None or warm.done(), "changeMs": rooms.change_latency(),
                                "quarantined": len(rooms.quarantined),
                                "restoring": rooms.restorer.left,
                                "roomsRefused": topology.rooms_refused(),
                                "sendQueue": {"bytes": WsConnection.total_bytes,
                                              "peakPerSocket": WsConnection.peak_bytes}}
        if cfg.connection_guard is not None:
            body["tcp"] = cfg.connection_guard.stats()
        body["clients"] = {**client_rates.stats(), "socketsRefused": slots.refused}
        return JSONResponse(body)

    async def readyz(request: Request) -> Response:
        """200 when every readiness check passes (health.py), else 503 naming the failed ones; a draining
        node is never ready (the load balancer stops sending it new connections)."""
        results = await cfg.readiness.run()
        checks = {r.name: r.to_json() for r in results}
        if drain.draining:
            checks["draining"] = {"ok": False, "detail": "shutting down: sockets sent elsewhere", "ms": 0.0}
        failed = [name for name, c in checks.items() if not c["ok"]]
        return JSONResponse({"ok": not failed, "node": cfg.node_id, "failed": failed, "checks": checks},
                            status_code=503 if failed else 200)

    async def metrics_endpoint(request: Request) -> Response:
        body = metrics.render()
        if body is None:
            return PlainTextResponse(MISSING, status_code=404)
        return Response(body, media_type=metrics.content_type)

    async def create_room(request: Request) -> Response:
        address = client_address(request.client.host if request.client else None,
                                 request.headers.get("x-forwarded-for"), limits.trusted_proxies)
        try:
            body = await _read_body(request, limits.max_body_bytes, limits.body_timeout_s)
            data = _parse_json(body)
            if not isinstance(data, dict) or set(data) - {"nickname", "options"}:
                raise P.error("bad_message")
            nickname, options = data.get("nickname"), data.get("options", {})
            if not isinstance(nickname, str):
                raise P.error("nickname_invalid")
            if not isinstance(options, dict) or not P.depth_ok(options):
                raise P.error("bad_options")
            if drain.draining:
                raise P.error("server_moving", status=503)
            made = await topology.create_room(options, nickname, address)  # its caps, its placement
        except P.ProtocolError as exc:
            return _json_error(exc)
        code = made["code"]
        return JSONResponse({**made, "link": room_link(request, code), "ws": f"/ws/{code}"}, status_code=201)

    async def replay_phh(request: Request) -> Response:
        """A PHH file's hand, replayed for the replayer (docs/protocol.md §2.4): nothing is stored; it is
        charged to the client's ``history`` rate and the history byte budget (edge/clients.py)."""
        tag = ClientTag(client_group(client_address(request.client.host if request.client else None,
                                                    request.headers.get("x-forwarded-for"),
                                                    limits.trusted_proxies)), client_rates)
        try:
            wait = tag.history_wait()
            if wait:
                exc = P.error("history_rate", status=429)
                exc.retry_after = _seconds(wait)
                raise exc
            # JSON like every POST (the edge's rule): {"text": the file}, escapes allowed for
            data = _parse_json(await _read_body(request, 2 * replays.PHH_MAX_BYTES, limits.body_timeout_s))
            if not isinstance(data, dict) or set(data) != {"text"} or not isinstance(data["text"], str):
                raise P.error("bad_message")
            try:  # ~0.1 s of CPU for the longest file accepted: beside the event loop, not on it
                out = P.dumps(await asyncio.to_thread(replays.from_phh, data["text"]))
            except replays.PhhError as bad:
                raise P.error("bad_phh", f"{P.MESSAGES['bad_phh']}: {bad}") from None
        except P.ProtocolError as exc:
            return _json_error(exc)
        tag.sent(out)
        return Response(out, media_type="application/json")

    async def room_info(request: Request) -> Response:
        code = request.path_params["code"]
        if drain.draining:  # its rooms are frozen (closed): not "not found", but "ask another node"
            return _json_error(P.error("server_moving", status=503))
        info = await topology.room_info(code) if is_room_code(code) else None
        if info is None:
            return _json_error(P.error("room_not_found", status=404))
        return JSONResponse({**info, "link": room_link(request, code)})

    async def room_qr(request: Request) -> Response:
        """The room's invite link as a QR image (invite.py): only for a room that exists."""
        code = request.path_params["code"]
        if drain.draining:
            return _json_error(P.error("server_moving", status=503))
        if not is_room_code(code) or await topology.room_info(code) is None:
            return _json_error(P.error("room_not_found", status=404))
        return Response(qr_svg(room_link(request, code)), media_type="image/svg+xml",
                        headers={"cache-control": "private, max-age=3600"})

    async def websocket(ws: WebSocket) -> None:
        if not origin_allowed(ws.headers.get("origin"), ws.headers.get("host"), ws_origins):
            await ws.close(code=1008)  # before accept: the handshake is refused with HTTP 403
            return
        code = ws.path_params["code"]
        client = client_group(client_address(ws.client.host if ws.client else None,
                                             ws.headers.get("x-forwarded-for"), limits.trusted_proxies))
        await ws.accept()
        wait = client_rates.sockets.take(client)
        if wait:  # a client reconnecting in a loop: each socket costs a handshake, a hello and a snapshot
            client_rates.refused["socket"] += 1
            n = _seconds(wait)
            refusal = P.error_msg("connect_rate", SOCKETS_RATE_TEXT.format(n=n), retry_after=n)
            await ws.send_text(P.dumps(refusal))
            await ws.close(code=1013)
            return
        if not slots.acquire(client, ws):
            await refuse(ws, "too_many_connections", 1013)
            return
        try:
            await serve_socket(ws, code, client)
        finally:
            slots.release(client, ws)

    async def serve_socket(ws: WebSocket, code: str, client: str) -> None:
        ws.scope[CLIENT_KEY] = ClientTag(client, client_rates)
        if drain.draining:  # shutting down: try again (the load balancer picks a live node)
            await ws.close(code=CLOSE_MOVING, reason=MOVING_REASON)
            return
        if not is_room_code(code):
            await refuse(ws, "room_not_found", 4404)
            return
        current_room.set(code)  # structured logs of this socket's task carry the room code (logs.py)
        await topology.serve_socket(ws, code, sockets, drain)  # the room, wherever it lives

    routes = [
        Route("/", index),
        Route("/r/{code}", index),
        Route("/static/{path:path}", static),
        Route("/healthz", healthz),
        Route("/readyz", readyz),
        Route("/metrics", metrics_endpoint),
        Route("/api/rooms", create_room, methods=["POST"]),
        Route("/api/rooms/{code}", room_info),
        Route("/api/phh", replay_phh, methods=["POST"]),
        Route("/api/rooms/{code}/qr.svg", room_qr),
        WebSocketRoute("/ws/{code}", websocket),
    ]
    public = [cfg.public_url] if cfg.public_url else []
    edge = Middleware(BrowserEdge, allowed_hosts=cfg.host_allow_list(), public_urls=public)
    app = Starlette(routes=routes, lifespan=lifespan, middleware=[edge, Middleware(DirectSend)])
    app.state.metrics = metrics
    app.state.readiness = cfg.readiness
    app.state.drain = drain
    app.state.drain_now = functools.partial(drain_now, app)
    return app
