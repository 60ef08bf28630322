"""The Starlette application: HTTP endpoints, the web client's files and the websocket endpoint.

Why this shape: one process, one origin. The browser loads ``/`` or ``/r/{code}`` (the same
``index.html``), its assets from ``/static/`` and talks to ``/ws/{code}``, so no CORS is ever needed and the
websocket ``Origin`` check can simply demand our own host. Each socket gets a bounded outgoing queue and a
sender task, so rooms only ever enqueue frames and a stalled client is dropped instead of stalling others.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import gc
import json
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from pokerroom.server.edge.guard import AcceptErrorFilter, ConnectionGuard, RoomCreationGuard, client_address
from pokerroom.server.edge.headers import BrowserEdge
from pokerroom.server.edge.hosts import LOOPBACK_NAMES, base_url, host_of, origin_of
from pokerroom.server.edge.limits import Limits, TokenBucket, origin_allowed
from pokerroom.server.engine_port import GameEngine
from pokerroom.server.ops import identity
from pokerroom.server.ops.drain import CLOSE_MOVING, MOVING_REASON, Drain, DrainHook
from pokerroom.server.ops.health import Readiness, store_check
from pokerroom.server.ops.logs import current_room
from pokerroom.server.ops.metrics import MISSING, Metrics
from pokerroom.server.room.rooms import Connection, Rooms
from pokerroom.server.room.timers import Clock
from pokerroom.server.room.tokens import is_room_code
from pokerroom.server.storage import Store
from pokerroom.server.wire import protocol as P

log = logging.getLogger("pokerroom.server")

STATIC_DIR = Path(__file__).resolve().parent.parent / "web" / "static"
Dispatch = Callable[[P.ClientMessage, str], Awaitable[None]]


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
    # A cluster node (``pokerroom.cluster.node.ClusterNode``, built by the CLI behind --redis) or
    # None: one process on SQLite. Typed Any so this module never imports the cluster package.
    node: Any = None

    def host_allow_list(self) -> frozenset[str]:
        """The ``Host`` names this server answers to (DNS-rebinding protection, see headers.BrowserEdge)."""
        if self.allowed_hosts is not None:
            return self.allowed_hosts
        names = set(LOOPBACK_NAMES)
        if self.public_url:
            names.add(host_of(self.public_url))
        return frozenset(names)


SANSIO_KEY = "pokerroom.sansio"  # the scope key under which DirectSend leaves uvicorn's protocol object
_DIRECT_FIELDS = ("conn", "writable", "close_sent", "disconnected", "handshake_complete", "transport")
NODE_STOP_TIMEOUT_S = 10.0  # the lifespan's last step: release Redis (the rooms were handed over already)
DIRECT_MAX = 16_384  # larger frames (history answers, ~50 KB) keep going through the sender task


def _sansio_class() -> type[Any] | None:
    try:
        from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
    except ImportError:  # pragma: no cover - another uvicorn or websockets
        return None
    return WebSocketsSansIOProtocol


class DirectSend:
    """ASGI middleware: for a websocket served by uvicorn's sans-I/O protocol, put that protocol in the scope.

    Why: a frame sent through ASGI costs a queue put, a wake-up of the socket's sender task, Starlette's and
    uvicorn's ``send`` coroutines, then the one ``transport.write`` that matters; under load that was about
    as much CPU as the write itself, eight times per change (issue 13). With the protocol at hand,
    :class:`WsConnection` writes an idle socket's frame straight to its transport (the same bytes uvicorn
    would write) and keeps the queue and the sender for a socket whose transport pushes back.
    """

    def __init__(self, app: Any) -> None:
        self.app = app
        self.sansio = _sansio_class()

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "websocket" and self.sansio is not None:
            proto = getattr(send, "__self__", None)
            # the protocol's own fields that WsConnection reads: another uvicorn may name them otherwise, and
            # then its sockets simply keep the ASGI path
            if isinstance(proto, self.sansio) and all(hasattr(proto, name) for name in _DIRECT_FIELDS):
                scope[SANSIO_KEY] = proto
        await self.app(scope, receive, send)


class WsConnection(Connection):
    """A room connection backed by a Starlette websocket and a send queue bounded in frames *and bytes*.

    Why bytes: a view is ~10 KB and a history answer ~50 KB, so 512 queued frames of a slow reader could hold
    25 MB; forty such readers took the server past 1 GB. The byte cap keeps a stalled socket's
    backlog to ``limits.send_queue_bytes`` before it is dropped (it can reconnect for a fresh snapshot).

    A frame of at most ``DIRECT_MAX`` bytes for an idle socket (nothing queued, nothing being sent, its
    transport below its high-water mark) is written at once to uvicorn's transport (:class:`DirectSend`):
    no task wake-up per frame. Anything else goes through the queue, in order, so a slow reader still fills
    its queue and is dropped as before.
    """

    total_bytes = 0  # queued bytes of every socket of the process (for /healthz)
    peak_bytes = 0  # the most any one socket ever had queued

    def __init__(self, ws: WebSocket, limits: Limits, metrics: Metrics | None = None) -> None:
        super().__init__()
        self.ws = ws
        self.metrics = metrics
        self.flushed = asyncio.Event()  # the sender stopped: its close frame went out, or the peer left
        self.queue: asyncio.Queue[str | int] = asyncio.Queue(maxsize=limits.send_queue + 1)
        self.queued_bytes = 0
        self.max_bytes = limits.send_queue_bytes
        self.closing = False
        self.closed = asyncio.Event()  # set by close(): the socket's handler stops waiting for the peer
        self.bucket = TokenBucket(limits.rate_per_second, limits.rate_burst)
        self.limit_history(limits)
        scope = getattr(ws, "scope", None)
        self.direct: Any = scope.get(SANSIO_KEY) if isinstance(scope, dict) else None
        self.sending = False  # the sender task holds a frame it has not finished writing

    def _write_now(self, text: str) -> bool:
        """Write ``text`` straight to the transport if nothing may come before it; False: queue it."""
        proto = self.direct
        if len(text) > DIRECT_MAX or self.sending or not self.queue.empty() or not proto.writable.is_set() \
                or proto.close_sent or proto.disconnected or not proto.handshake_complete \
                or proto.transport.is_closing():
            return False
        try:
            proto.conn.send_text(text.encode())
        except Exception:  # not open any more (websockets' InvalidState): the queue path ends the sender
            return False
        proto.transport.write(b"".join(proto.conn.data_to_send()))
        if self.metrics is not None:
            self.metrics.frame_sent(len(text))
        return True

    def send(self, text: str) -> None:
        if self.closing:
            return
        if self.direct is not None and self._write_now(text):
            return
        if self.queue.qsize() >= self.queue.maxsize - 1 or self.queued_bytes + len(text) > self.max_bytes:
            self.close(1008)  # too slow to keep up: drop it, it can reconnect for a fresh snapshot
            return
        self.queued_bytes += len(text)  # frames are ASCII JSON (P.dumps), so characters are bytes
        WsConnection.total_bytes += len(text)
        WsConnection.peak_bytes = max(WsConnection.peak_bytes, self.queued_bytes)
        self.queue.put_nowait(text)

    def close(self, code: int) -> None:
        if self.closing:
            return
        self.closing = True
        self.closed.set()
        with contextlib.suppress(asyncio.QueueFull):
            self.queue.put_nowait(code)

    async def wait_flushed(self) -> None:
        await self.flushed.wait()

    async def run_sender(self) -> None:
        try:
            while True:
                item = await self.queue.get()
                if isinstance(item, int):
                    with contextlib.suppress(Exception):
                        await self.ws.close(code=item, reason=MOVING_REASON if item == CLOSE_MOVING else None)
                    return
                self.sending = True
                await self.ws.send_text(item)
                self.sending = False
                self.queued_bytes -= len(item)
                WsConnection.total_bytes -= len(item)
                if self.metrics is not None:
                    self.metrics.frame_sent(len(item))
        except (WebSocketDisconnect, RuntimeError, OSError):
            return
        except Exception:
            log.debug("sender stopped", exc_info=True)
        finally:
            self.flushed.set()


async def serve_connection(rooms: Rooms, room: Any, conn: WsConnection, limits: Limits,
                           on_done: Any = None, drain: Drain | None = None, dispatch: Dispatch | None = None,
                           detach: Callable[[], Awaitable[None]] | None = None) -> None:
    """Run one accepted socket until the peer goes away *or* the server drops it, then leave the room.

    Why not just await the receive loop: a peer that stops reading (a frozen tab, a slowloris) fills its
    send queue, so it is dropped with 1008 — but its sender is then stuck in ``send_text`` and the
    receive loop in ``ws.receive()``, and neither returns while the peer keeps the TCP connection open.
    Waiting on ``conn.closed`` as well lets the room forget it at once (tabs, spectator count, idle close);
    a message being handled is shielded, so dropping a socket never interrupts a change half-way.

    ``dispatch``/``detach``: a cluster node routes each message to the room's owner, wherever it is, and
    detaches the socket from there (``pokerroom.cluster.sockets``); by default the local ``room``.
    """
    loop = asyncio.get_running_loop()
    sender = loop.create_task(conn.run_sender())
    receiver = loop.create_task(_receive_loop(rooms, room, conn, conn.ws, limits, dispatch))
    dropped = loop.create_task(conn.closed.wait())
    hello_timer = loop.call_later(limits.hello_timeout_s, _hello_deadline, conn) \
        if limits.hello_timeout_s > 0 else None
    try:
        await asyncio.wait({receiver, dropped}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        if hello_timer is not None:
            hello_timer.cancel()
        try:
            await (rooms.detach(conn) if detach is None else detach())
        finally:
            # a room frozen by the drain ends the receive loop: that socket is being sent elsewhere (4012)
            conn.close(CLOSE_MOVING if drain is not None and drain.draining else 1000)
            await asyncio.wait({sender}, timeout=2.0)  # flush and send the close frame, if the peer reads
            for task in (sender, receiver, dropped):
                if not task.done():
                    task.cancel()
            WsConnection.total_bytes -= conn.queued_bytes  # what a dropped socket still held is freed
            conn.queued_bytes = 0
            if on_done is not None:
                on_done()


def _hello_deadline(conn: WsConnection) -> None:
    """A socket that has not said ``hello`` in time is closed (4408): it holds a descriptor and a slot of
    the connection caps while answering pings forever."""
    if conn.role == "none" and not conn.closing:
        conn.send(P.dumps(P.error_msg("hello_timeout", P.MESSAGES["hello_timeout"])))
        conn.close(4408)


def _tune_gc(warm: asyncio.Future[int] | None) -> None:
    """Make full garbage collections rare and small.

    Why: a full (generation 2) collection walks every live object — all rooms' states and queued frames —
    and stalled the event loop for 150-350 ms under load, which is every room's p99. Game states are
    acyclic and freed by reference counting, so collecting cycles rarely costs little memory; and the
    start-up objects (modules, bot tables built by the warm-up) are frozen out of future scans.
    """
    gc.set_threshold(20_000, 50, 100)
    gc.freeze()
    if warm is not None:
        warm.add_done_callback(lambda _: gc.freeze())


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
    return JSONResponse({"error": {"code": exc.code, "message": exc.message}}, status_code=exc.status)


def create_app(config: ServerConfig | None = None) -> Starlette:
    """Build the app. The engine is imported lazily so a missing engine fails loudly at start-up only."""
    cfg = config or ServerConfig()
    limits = cfg.limits
    state: dict[str, Any] = {"connections": 0}
    creations = RoomCreationGuard(limits.rooms_per_address, limits.room_creations_per_minute)
    metrics = cfg.metrics if cfg.metrics is not None else Metrics(cfg.node_id)
    drain = Drain(cfg.drain_hooks)
    sockets: set[WsConnection] = set()  # every open socket (the drain closes them all with 4012)

    def make_rooms() -> Rooms:
        engine = cfg.engine
        if engine is None:
            from pokerroom.server.engine_port import PokerEngine

            engine = PokerEngine()
        from pokerroom.server.room.botseat import load_decider, load_recommender

        store: Any = Store(None if cfg.data_dir is None else cfg.data_dir / "pokerroom.sqlite3",
                           busy_timeout_ms=cfg.busy_timeout_ms) if cfg.node is None else cfg.node.make_store()
        cls: type[Rooms] = Rooms if cfg.node is None else cfg.node.rooms_class
        rooms = cls(engine, store, clock=Clock(cfg.time_scale), limits=limits,
                      idle_close_s=cfg.idle_close_s, reap_interval_s=cfg.reap_interval_s,
                      bot_delay_ms=cfg.bot_delay_ms,
                      decider=load_decider(), recommender=load_recommender() if cfg.hints else None)
        rooms.on_close = creations.closed
        rooms.observe_commit = metrics.committed
        return rooms

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        AcceptErrorFilter(asyncio.get_running_loop()).install()
        rooms = make_rooms()
        app.state.rooms = rooms
        metrics.bind(rooms=lambda: len(rooms.rooms), connections=lambda: int(state["connections"]))
        if "store" not in cfg.readiness.checks:
            cfg.readiness.add("store", store_check(rooms.store))
        await rooms.start()
        if cfg.node is not None:
            await cfg.node.start(rooms, metrics)
        warm = asyncio.get_running_loop().run_in_executor(None, rooms.warm_up) if cfg.warm_up else None
        state["warm"] = warm
        if cfg.tune_gc:
            _tune_gc(warm)
        try:
            yield
        finally:
            if warm is not None:
                with contextlib.suppress(Exception):
                    await warm
            await drain_now(app)  # done already under `pokerroom serve` (before uvicorn drops the sockets)
            if cfg.node is not None:
                try:  # bounded: a Redis that stopped answering must not keep a stopping node alive
                    async with asyncio.timeout(NODE_STOP_TIMEOUT_S):
                        await cfg.node.stop()
                except TimeoutError:
                    log.warning("the cluster node did not stop within %.0f s; exiting anyway",
                                NODE_STOP_TIMEOUT_S)
            await rooms.stop()
            rooms.store.close()

    def rooms_of(request: Request | WebSocket) -> Rooms:
        rooms: Rooms = request.app.state.rooms
        return rooms

    async def drain_now(app: Starlette) -> None:
        """Graceful shutdown (drain.py): freeze rooms, run the hooks, close every socket with 4012."""
        await drain.run(app.state.rooms, lambda: list(sockets))

    # the public URL's own origin is always ours (a proxy may rewrite Host)
    ws_origins = limits.allowed_origins + ((origin_of(cfg.public_url),) if cfg.public_url else ())

    def room_link(request: Request, code: str) -> str:
        """The invite link, from configuration only (a request's Host could be an attacker's name)."""
        if cfg.public_url:
            return f"{cfg.public_url.rstrip('/')}/r/{code}"
        server = request.scope.get("server") or ("127.0.0.1", 80)
        return f"{base_url('http', str(server[0]), int(server[1] or 80))}/r/{code}"

    async def index(request: Request) -> Response:
        page = cfg.static_dir / "index.html"
        if not page.is_file():
            return PlainTextResponse("웹 클라이언트가 아직 준비되지 않았어요", status_code=404)
        return FileResponse(page, media_type="text/html; charset=utf-8")

    async def static(request: Request) -> Response:
        rel = request.path_params["path"]
        root = cfg.static_dir.resolve()
        try:
            target = (root / rel).resolve()
        except (OSError, ValueError):
            return PlainTextResponse("없는 파일이에요", status_code=404)
        if not target.is_relative_to(root) or not target.is_file():
            return PlainTextResponse("없는 파일이에요", status_code=404)
        return FileResponse(target)

    async def healthz(request: Request) -> Response:
        rooms = rooms_of(request)
        warm = state.get("warm")
        body: dict[str, Any] = {"ok": True, "node": cfg.node_id, "rooms": len(rooms.rooms),
                                "connections": state["connections"],
                                "warm": warm is None or warm.done(), "changeMs": rooms.change_latency(),
                                "quarantined": len(rooms.quarantined), "roomsRefused": creations.refused,
                                "sendQueue": {"bytes": WsConnection.total_bytes,
                                              "peakPerSocket": WsConnection.peak_bytes}}
        if cfg.connection_guard is not None:
            body["tcp"] = cfg.connection_guard.stats()
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
            if cfg.node is not None:  # cluster-wide caps and placement (pokerroom.cluster.node)
                made = await cfg.node.create_room(options, nickname, address)
                return JSONResponse({**made, "link": room_link(request, made["code"]),
                                     "ws": f"/ws/{made['code']}"}, status_code=201)
            if not creations.admit(address):
                raise P.error("too_many_rooms_here", status=429)
            rooms = rooms_of(request)
            room, member, token = await rooms.create_room(options, nickname)
            creations.created(address, room.code)
        except P.ProtocolError as exc:
            return _json_error(exc)
        link = room_link(request, room.code)
        return JSONResponse({"code": room.code, "link": link, "ws": f"/ws/{room.code}", "playerId": member.id,
                             "token": token}, status_code=201)

    async def room_info(request: Request) -> Response:
        code = request.path_params["code"]
        if drain.draining:  # its rooms are frozen (closed): not "not found", but "ask another node"
            return _json_error(P.error("server_moving", status=503))
        if cfg.node is not None and is_room_code(code):
            try:
                info = await cfg.node.room_info(code)
            except Exception:
                info = None
            if info is None:
                return _json_error(P.error("room_not_found", status=404))
            return JSONResponse({**info, "link": room_link(request, code)})
        room = rooms_of(request).get(code) if is_room_code(code) else None
        if room is None:
            return _json_error(P.error("room_not_found", status=404))
        return JSONResponse({**room.public_info(), "link": room_link(request, code)})

    async def websocket(ws: WebSocket) -> None:
        rooms = rooms_of(ws)
        if not origin_allowed(ws.headers.get("origin"), ws.headers.get("host"), ws_origins):
            await ws.close(code=1008)  # before accept: the handshake is refused with HTTP 403
            return
        code = ws.path_params["code"]
        if cfg.node is not None and is_room_code(code):  # any room, wherever it lives (cluster/node.py)
            await ws.accept()
            if drain.draining:
                await ws.close(code=CLOSE_MOVING, reason=MOVING_REASON)
                return
            if state["connections"] >= limits.max_connections:
                await ws.send_text(P.dumps(P.error_msg("server_full", P.MESSAGES["server_full"])))
                await ws.close(code=1013)
                return
            state["connections"] += 1
            current_room.set(code)

            def gone(conn: WsConnection | None) -> None:
                state["connections"] -= 1
                if conn is not None:
                    sockets.discard(conn)

            await cfg.node.serve_socket(ws, code, sockets.add, gone, drain)
            return
        room = rooms.get(code) if is_room_code(code) else None
        await ws.accept()
        if drain.draining:  # shutting down: try again (the load balancer picks a live node)
            await ws.close(code=CLOSE_MOVING, reason=MOVING_REASON)
            return
        if room is None:
            await ws.send_text(P.dumps(P.error_msg("room_not_found", P.MESSAGES["room_not_found"])))
            await ws.close(code=4404)
            return
        if state["connections"] >= limits.max_connections:
            await ws.send_text(P.dumps(P.error_msg("server_full", P.MESSAGES["server_full"])))
            await ws.close(code=1013)
            return
        conn = WsConnection(ws, limits, metrics)
        conn.room = room
        state["connections"] += 1
        sockets.add(conn)
        current_room.set(code)  # structured logs of this socket's task carry the room code (logs.py)

        def released() -> None:
            state["connections"] -= 1
            sockets.discard(conn)

        await serve_connection(rooms, room, conn, limits, released, drain)

    routes = [
        Route("/", index),
        Route("/r/{code}", index),
        Route("/static/{path:path}", static),
        Route("/healthz", healthz),
        Route("/readyz", readyz),
        Route("/metrics", metrics_endpoint),
        Route("/api/rooms", create_room, methods=["POST"]),
        Route("/api/rooms/{code}", room_info),
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


async def _receive_loop(rooms: Rooms, room: Any, conn: WsConnection, ws: WebSocket, limits: Limits,
                        dispatch: Dispatch | None = None) -> None:
    """Read frames until the socket closes; every bad frame gets a typed error, only floods disconnect."""
    while not conn.closing:
        message = await ws.receive()
        if message["type"] == "websocket.disconnect":
            return
        if not conn.bucket.allow():
            conn.close(1008)
            return
        text = message.get("text")
        if text is None:
            conn.send(P.dumps(P.error_msg("binary_frame", P.MESSAGES["binary_frame"])))
            continue
        if len(text) > limits.max_message_bytes or len(text.encode("utf-8", "surrogatepass")) > \
                limits.max_message_bytes:
            conn.send(P.dumps(P.error_msg("too_large", P.MESSAGES["too_large"])))
            continue
        try:
            msg = P.parse_client_message(text)
        except P.ProtocolError as exc:
            conn.send(P.dumps(P.error_msg(exc.code, exc.message)))
            continue
        if dispatch is not None:
            await asyncio.shield(dispatch(msg, text))
            continue
        if room.closed:
            return
        await asyncio.shield(rooms.handle(room, conn, msg))  # see serve_connection
