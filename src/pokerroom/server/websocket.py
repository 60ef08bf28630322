"""One websocket of a room: its bounded send queue, sender task and receive loop; the process's count.

Why its own module: the app's routes, the single node (:mod:`~pokerroom.server.topology`) and a cluster node
all serve sockets the same way, so the socket's machinery sits below all of them and none imports another
to reach it. Each socket gets a bounded outgoing queue and a sender task, so rooms only ever enqueue frames
and a stalled client is dropped instead of stalling others.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect

from pokerroom.server.edge.clients import (
    CLIENT_KEY,
    HELLO_RATE_TEXT,
    HISTORY_RATE_TEXT,
    ClientTag,
    whole_seconds,
)
from pokerroom.server.edge.limits import Limits, TokenBucket
from pokerroom.server.ops.drain import CLOSE_MOVING, MOVING_REASON, Drain
from pokerroom.server.ops.metrics import Metrics
from pokerroom.server.room.rooms import Connection, Rooms
from pokerroom.server.wire import protocol as P

log = logging.getLogger("pokerroom.server")

Dispatch = Callable[[P.ClientMessage, str], Awaitable[None]]

SANSIO_KEY = "pokerroom.sansio"  # the scope key under which DirectSend leaves uvicorn's protocol object
_DIRECT_FIELDS = ("conn", "writable", "close_sent", "disconnected", "handshake_complete", "transport")
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

    ``on_send``: told every frame about to be sent (before the closing check, as the room sent it). Why a
    callback and not a subclass: a cluster node watches its sockets' frames for the ``welcome`` that hands
    a seat token (the cluster's ``NodeSocket``), while the queue, the direct write and the caps stay this
    class's alone; a single node leaves it None.
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
        # a well-formed hello of this socket waits for the room's answer (the hello deadline then waits too:
        # it measures the client's silence, not the server's time to answer: HelloDeadline)
        self.hello_unanswered = False
        self.on_send: Callable[[str], None] | None = None  # see the class docstring
        # the socket's client and the process's per-client rates (edge/clients.py), left by the endpoint
        tag = scope.get(CLIENT_KEY) if isinstance(scope, dict) else None
        self.client: ClientTag | None = tag if isinstance(tag, ClientTag) else None
        self.client_key = self.client.key if self.client is not None else None

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
        if self.on_send is not None:
            self.on_send(text)
        if self.closing:
            return
        if self.client is not None:
            self.client.sent(text)  # a history answer is charged to the process's byte budget
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


class OpenSockets:
    """Every open websocket of the process: counted against ``limits.max_connections`` (a socket counts from
    its admission, before its room is even found) and closed by the drain (``conns``)."""

    def __init__(self, max_connections: int) -> None:
        self.max_connections = max_connections
        self.count = 0
        self.conns: set[WsConnection] = set()

    def admit(self) -> bool:
        """Count one more socket, or False (not counted) if the process has as many as it may."""
        if self.count >= self.max_connections:
            return False
        self.count += 1
        return True

    def closed(self, conn: WsConnection | None) -> None:
        """An admitted socket is done (``conn``: None if it never got a connection)."""
        self.count -= 1
        if conn is not None:
            self.conns.discard(conn)


async def refuse(ws: WebSocket, error: str, close: int, message: str | None = None) -> None:
    """Tell an accepted socket why it is refused (a typed error frame) and close it with ``close``."""
    await ws.send_text(P.dumps(P.error_msg(error, P.MESSAGES[error] if message is None else message)))
    await ws.close(code=close)


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
    detaches the socket from there (the cluster's sockets module); by default the local ``room``.
    """
    loop = asyncio.get_running_loop()
    sender = loop.create_task(conn.run_sender())
    receiver = loop.create_task(_receive_loop(rooms, room, conn, conn.ws, limits, dispatch))
    dropped = loop.create_task(conn.closed.wait())
    hello_timer = HelloDeadline(conn, limits.hello_timeout_s) if limits.hello_timeout_s > 0 else None
    try:
        await asyncio.wait({receiver, dropped}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        if hello_timer is not None:
            hello_timer.cancel()
        if conn.client is not None:
            conn.client.close()  # a held resync is not answered to a socket that is gone
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


class HelloDeadline:
    """A socket that has not said ``hello`` in time is closed (4408): it holds a descriptor and a slot of
    the connection caps while answering pings forever.

    The deadline measures the *client's* silence, not the server's time to answer: a socket whose
    well-formed hello still waits for its room (``conn.hello_unanswered``: on a cluster node, a room whose
    owner just died answers only once another node takes it over) is looked at again one period later
    instead of being closed, so the web client, which takes ``hello_timeout`` as the end, is never sent
    away for the server's own delay. A hello that was answered with a refusal leaves the socket silent
    again, and the next look closes it."""

    def __init__(self, conn: WsConnection, seconds: float) -> None:
        self.conn = conn
        self.seconds = seconds
        self.handle = asyncio.get_running_loop().call_later(seconds, self.check)

    def check(self) -> None:
        conn = self.conn
        if conn.role != "none" or conn.closing:
            return
        if conn.hello_unanswered:
            self.handle = asyncio.get_running_loop().call_later(self.seconds, self.check)
            return
        conn.send(P.dumps(P.error_msg("hello_timeout", P.MESSAGES["hello_timeout"])))
        conn.close(4408)

    def cancel(self) -> None:
        self.handle.cancel()



async def _receive_loop(rooms: Rooms, room: Any, conn: WsConnection, ws: WebSocket, limits: Limits,
                        dispatch: Dispatch | None = None) -> None:
    """Read frames until the socket closes; every bad frame gets a typed error, only floods disconnect."""

    async def answer(msg: P.ClientMessage, text: str) -> None:
        if dispatch is not None:
            await asyncio.shield(dispatch(msg, text))
        elif not room.closed:
            await asyncio.shield(rooms.handle(room, conn, msg))  # see serve_connection

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
        client = conn.client
        if client is not None and _rate_limited(conn, client, msg, functools.partial(answer, msg, text)):
            continue
        if dispatch is None and room.closed:
            return
        hello = isinstance(msg, P.Hello) and conn.role == "none"
        if hello:
            conn.hello_unanswered = True
        await answer(msg, text)
        if hello and dispatch is None:
            conn.hello_unanswered = False  # the room answered it: a welcome, or a refusal


def _rate_limited(conn: WsConnection, client: ClientTag, msg: P.ClientMessage,
                  answer: Callable[[], Awaitable[None]]) -> bool:
    """Draw ``msg`` from its client's bucket (edge/clients.py); True: it is refused or held, not answered
    now. A refused hello closes the socket (1013: try again later); a refused ``history`` is an error that
    says when; a ``resync`` beyond its rates is held and answered later, once however often it was asked."""
    if isinstance(msg, P.Hello):
        wait = client.hello_wait()
        if wait:
            n = whole_seconds(wait)
            conn.send(P.dumps(P.error_msg("hello_rate", HELLO_RATE_TEXT.format(n=n), retry_after=n)))
            conn.close(1013)
            return True
    elif isinstance(msg, P.History):
        wait = client.history_wait()
        if wait:
            n = whole_seconds(wait)
            conn.send(P.dumps(P.error_msg("history_rate", HISTORY_RATE_TEXT.format(n=n), retry_after=n)))
            return True
    elif isinstance(msg, P.Resync):
        return not client.resync(answer)
    return False
