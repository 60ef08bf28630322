"""The socket's side of the relay: websockets of this node and the room owner each one talks to.

Why a socket stays where it connected: no sticky sessions are needed in front of the cluster, and a room
moving (a takeover, a rolling restart) costs its sockets nothing but a fresh snapshot. Each socket remembers
how to say ``hello`` again: its own ``hello``, rewritten to ``{token}`` once a ``welcome`` handed it a seat
token. When the room's owner changes ("moved", a relayed message answered "gone"), the socket sends that
``hello`` to the new owner — this node's own rooms or another node's over the relay — and the owner answers
with ``welcome`` and a whole view, as after a reconnect. So does a socket whose first ``hello`` is still
unanswered (``unanswered``): one that reached this node right after its room's owner died said hello to the
dead owner, whose lease still stood. That hello is not refused (the relay finds nobody listening: the
socket is told nothing, it is only waiting for its room); it is said again to whichever node takes the room
over, and the hello deadline waits as long as it is unanswered (it measures the client's silence, not the
owner's delay). A ``welcome`` is known by its message (the owner relays it as
:class:`~pokerroom.cluster.messages.Welcome`) or, from this node's own rooms, by the role the room just gave
the socket (:class:`~pokerroom.cluster.messages.WelcomeWatch`); never by the frame's text.

Per-socket limits (rate, frame size, the send queue) stay on this node: they are the server's
:class:`~pokerroom.server.websocket.WsConnection`, which a :class:`NodeSocket` holds (and watches through its
``on_send`` seam) rather than extends; only parsed-valid text is relayed.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.websockets import WebSocket

from pokerroom.cluster import messages as M
from pokerroom.cluster.fencing import moving_error
from pokerroom.cluster.relay import Relay
from pokerroom.server.edge.limits import Limits
from pokerroom.server.ops.drain import Drain
from pokerroom.server.ops.metrics import Metrics
from pokerroom.server.room.rooms import Room, Rooms
from pokerroom.server.websocket import OpenSockets, WsConnection, refuse, serve_connection
from pokerroom.server.wire import protocol as P

log = logging.getLogger("pokerroom.cluster")

LOCAL = ""  # target of a socket attached to a room of this node
MAX_HOPS = 3  # a message answered "gone" is re-routed at most this many times
HOP_PAUSE_S = 0.1  # ...after 0.1, 0.2, 0.4 s: over 0.7 s, a takeover's load has time to finish
ROOM_CONNS_FULL = "room_connections_full"
ROOM_CONNS_FULL_TEXT = "이 방에 연결이 너무 많아요. 잠시 후 다시 해 주세요"
MAX_NODE_ID = 100  # a longer ``?node=`` is no node's id: ignored

Resolver = Callable[[str], Awaitable["Room | str | None"]]


class NodeSocket:
    """A websocket of this node, attached to a room here (``target == LOCAL``) or relayed to its owner.

    Why it holds the server's connection (``conn``) instead of being one: what a room sees of the socket (its
    role, seat, delta base, the queue and the caps) is the server's own :class:`WsConnection`, unchanged; this
    adds only the routing (``target``, how to say ``hello`` again) and watches the frames the room sends it
    for its ``welcome`` through the connection's ``on_send`` callback."""

    def __init__(self, conn: WsConnection, code: str, asked: str | None = None) -> None:
        self.conn = conn
        conn.on_send = self._sending
        self.code = code
        self.asked = asked  # the node its client asked the proxy for (``?node=``), if any
        self.routed: str | None = None  # the owner its client was last told of (``route``)
        self.target: str | None = None  # None: not attached to any owner right now
        self.hello: dict[str, Any] | None = None  # how to say hello again (see the module docstring)
        self.welcomed = False  # an owner answered its hello: it is in the room
        self.settled = asyncio.Event()  # set while no attach is under way (see attaching)
        self.settled.set()
        self.welcome = M.WelcomeWatch()  # the welcome of this node's own room (a relayed one is a message)

    @property
    def conn_id(self) -> int:
        return self.conn.conn_id

    @property
    def attaching(self) -> bool:
        """Looking for the owner right now, its hello with it (a second look would say hello twice)."""
        return not self.settled.is_set()

    @property
    def unanswered(self) -> bool:
        """Its hello went to an owner that has not answered it yet. Kept on the connection, whose hello
        deadline waits for it (the deadline measures the client's silence, not the owner's delay)."""
        return self.conn.hello_unanswered

    @unanswered.setter
    def unanswered(self, value: bool) -> None:
        self.conn.hello_unanswered = value

    @property
    def closing(self) -> bool:
        return self.conn.closing

    def send(self, text: str) -> None:
        self.conn.send(text)

    def close(self, code: int) -> None:
        self.conn.close(code)

    def _sending(self, text: str) -> None:
        """Every frame sent to the socket (its room's or a relayed one): the welcome of this node's room?"""
        conn = self.conn
        seat = self.welcome.check(conn.role, conn.player_id, text)
        if seat is not None:
            self.seated(seat)

    def remember(self, msg: P.Hello) -> None:
        self.hello = msg.model_dump(exclude_none=True)
        self.unanswered = True

    @property
    def says_hello_again(self) -> bool:
        """Says hello again when its room moves: welcomed, or its hello still waits for an answer."""
        return self.welcomed or self.unanswered

    def seated(self, seat: M.Seat) -> None:
        """An owner welcomed this socket: it is in the room, and says hello again with ``seat``'s token."""
        deltas = bool(self.hello and self.hello.get("deltas"))
        self.welcomed = True
        self.unanswered = False
        if self.target != LOCAL:  # a relayed socket: the app's hello deadline looks at its role
            conn = self.conn
            conn.role = "spectator" if seat.role == "spectator" else "player"
            conn.player_id = seat.player_id
            self.welcome.seen = (conn.role, conn.player_id)
        if seat.token:
            self.hello = {"type": "hello", "token": seat.token, "deltas": deltas}
        elif seat.role == "spectator":
            self.hello = {"type": "hello", "spectate": True, "deltas": deltas}


class Sockets:
    """This node's websockets, by id and by room, and their routing to the room's owner."""

    def __init__(self, node_id: str, rooms: Rooms, relay: Relay, resolve: Resolver,
                 still_owner: Callable[[str], Awaitable[bool]] | None = None, *,
                 connect: Callable[[str], Awaitable[bool]] | None = None,
                 disconnect: Callable[[str], Awaitable[None]] | None = None, route: bool = False,
                 live: Callable[[], list[str]] | None = None) -> None:
        self.node_id = node_id
        # a proxy routes ``?node=``: tell a relayed socket its room's owner (``route``, see :meth:`welcome`),
        # and every new socket this node's id and the other live nodes' (``node``, from ``live``)
        self.route = route
        self.live = live
        self.still_owner = still_owner  # checks the lease before a local room handles a message
        self.connect = connect  # may one more socket join the room (its cluster-wide cap)?
        self.disconnect = disconnect  # a socket admitted by ``connect`` is done
        self.rooms = rooms
        self.relay = relay
        self.resolve = resolve
        self.by_id: dict[int, NodeSocket] = {}
        self.by_room: dict[str, set[NodeSocket]] = {}
        self._tasks: set[asyncio.Task[None]] = set()

    async def serve(self, ws: WebSocket, code: str, sockets: OpenSockets, drain: Drain, limits: Limits,
                    metrics: Metrics | None = None) -> None:
        """Serve an accepted websocket of room ``code``, wherever the room lives, until it closes. It is
        admitted among the process's ``sockets`` before its room is looked for (the lookup may take the room
        over), and among those the drain closes with 4012 once it has a connection."""
        if not sockets.admit():
            await refuse(ws, "server_full", 1013)
            return

        async def turn_away(error: str, message: str, close: int) -> None:
            with contextlib.suppress(Exception):
                await refuse(ws, error, close, message)
            sockets.closed(None)

        try:
            where = await self.resolve(code)
        except Exception:
            err = moving_error()
            await turn_away(err.code, err.message, 1013)
            return
        if where is None:
            await turn_away("room_not_found", P.MESSAGES["room_not_found"], 4404)
            return
        if self.connect is not None and not await self.connect(code):
            await turn_away(ROOM_CONNS_FULL, ROOM_CONNS_FULL_TEXT, 1013)
            return
        conn = WsConnection(ws, limits, metrics)
        asked = ws.query_params.get("node")
        sock = NodeSocket(conn, code, asked if asked and len(asked) <= MAX_NODE_ID else None)
        self.add(sock)
        sockets.conns.add(conn)
        if isinstance(where, Room):
            conn.room = where
        if self.route and self.live is not None:
            # (first: a client that finds this node stopped later asks the proxy for another one)
            others = [n for n in self.live() if n != self.node_id]
            conn.send(P.dumps(P.node_msg(self.node_id, others)))

        async def dispatch(msg: P.ClientMessage, text: str) -> None:
            await self.dispatch(sock, msg, M.client_body(msg, text))

        async def detach() -> None:
            await self.remove(sock)

        try:
            await serve_connection(self.rooms, where, conn, limits, lambda: sockets.closed(conn),
                                   drain=drain, dispatch=dispatch, detach=detach)
        finally:
            if self.disconnect is not None:
                await self.disconnect(code)

    def add(self, sock: NodeSocket) -> None:
        self.by_id[sock.conn_id] = sock
        self.by_room.setdefault(sock.code, set()).add(sock)

    async def remove(self, sock: NodeSocket) -> None:
        """The socket closed: leave the local room, or tell the remote owner."""
        self.by_id.pop(sock.conn_id, None)
        peers = self.by_room.get(sock.code)
        if peers is not None:
            peers.discard(sock)
            if not peers:
                del self.by_room[sock.code]
        if sock.target == LOCAL:
            await self.rooms.detach(sock.conn)
        elif sock.target is not None:
            self.relay.send(sock.target, M.Detached(sock.conn_id, self.node_id))
        sock.target = None

    # --- client messages ------------------------------------------------------------------------------

    async def dispatch(self, sock: NodeSocket, msg: P.ClientMessage, body: M.ClientBody,
                       hops: int = 0) -> None:
        """Route one client message (``msg``, relayed as ``body``) to the room's owner (this node or
        another)."""
        if isinstance(msg, P.Hello):
            if sock.welcomed:
                if not hops:  # the client said hello twice
                    sock.send(P.dumps(P.error_msg("already_hello", P.MESSAGES["already_hello"])))
                # else: its hello, answered "gone" by a node still loading the room, was overtaken by a
                # re-attach ("moved") that got the socket welcomed: it is in the room, nothing to say
                return
            sock.remember(msg)
        target = await self._target(sock, hello_now=isinstance(msg, P.Hello))
        if target is None:
            return
        if target == LOCAL:
            if self.still_owner is not None and not await self.still_owner(sock.code):
                # the lease lapsed (a node waking from SIGSTOP): never judge a message on a stale room
                sock.target = None
                target = await self._target(sock, hello_now=isinstance(msg, P.Hello))
                if target is None:
                    return
        if target == LOCAL:
            room = self.rooms.get(sock.code)
            if room is None and hops < MAX_HOPS:  # dropped meanwhile: never lose the message silently
                sock.target = None
                await self.dispatch(sock, msg, body, hops + 1)
            elif room is not None:
                await self.rooms.handle(room, sock.conn, msg)
                if room.closed and not isinstance(msg, P.Ping | P.History):
                    self._unsure(sock, msg)
                elif isinstance(msg, P.Hello):
                    sock.unanswered = False  # welcomed, or refused for good (a bad token, a full room)
            return
        self.relay.send(target, M.ClientMsg(sock.conn_id, self.node_id, sock.code, body, hops))

    async def _target(self, sock: NodeSocket, hello_now: bool = False) -> str | None:
        """The owner this socket talks to now, attaching it (its ``hello`` again) if it has none. A message
        that comes while an attach is under way (the client's next one, right after its hello met a room
        being taken over) waits for that attach instead of starting a second one, whose hello the owner
        would refuse as already_hello once the first arrived."""
        while sock.attaching:
            await sock.settled.wait()
        if sock.target == LOCAL and self.rooms.get(sock.code) is not None:
            return LOCAL
        if sock.target:
            return sock.target
        return await self.attach(sock, send_hello=not hello_now)

    async def attach(self, sock: NodeSocket, send_hello: bool = True, quiet: bool = False) -> str | None:
        """Find the room's owner (taking the room over if it has none) and say hello to it again.
        ``quiet``: a background retry, which does not tell the client again that the room is moving."""
        if sock.closing:
            return None
        sock.settled.clear()
        try:
            return await self._attach(sock, send_hello, quiet)
        finally:
            sock.settled.set()

    async def _attach(self, sock: NodeSocket, send_hello: bool, quiet: bool) -> str | None:
        try:
            async with asyncio.timeout(30):  # never stay "attaching" forever
                where = await self.resolve(sock.code)
        except Exception as exc:
            say = log.debug if quiet else log.warning
            say("room %s: no owner found (%s: %s)", sock.code, type(exc).__name__, exc)
            where = None
            gone = False
        else:
            gone = where is None
        if gone:
            sock.send(P.dumps(P.error_msg("room_not_found", P.MESSAGES["room_not_found"])))
            sock.close(4404)
            return None
        if where is None:
            if not quiet:
                err = moving_error()
                sock.send(P.dumps(P.error_msg(err.code, err.message)))
            sock.target = None
            return None
        if isinstance(where, Room):
            if sock.conn in where.connections:
                sock.target = LOCAL
                return LOCAL
            sock.target = LOCAL
            sock.conn.role, sock.conn.player_id, sock.conn.room = "none", None, where
            if send_hello and sock.says_hello_again and sock.hello is not None:
                await self.rooms.handle(where, sock.conn, P.client_message_from(sock.hello))
                if not where.closed:
                    sock.unanswered = False
            return LOCAL
        sock.target = where
        if send_hello and sock.says_hello_again and sock.hello is not None:
            self.relay.send(where, M.ClientMsg(sock.conn_id, self.node_id, sock.code, dict(sock.hello),
                                               attach=True))
        return where

    # --- relay messages for this node's sockets -------------------------------------------------------

    def frame(self, frame: M.Frame) -> None:
        sock = self.by_id.get(frame.cid)
        if sock is not None:
            sock.unanswered = False  # the owner answered (a refused hello is an error frame)
            sock.send(frame.text)

    def welcome(self, welcome: M.Welcome) -> None:
        sock = self.by_id.get(welcome.cid)
        if sock is not None:
            sock.seated(welcome.seat)
            sock.send(welcome.text)
            self._route(sock)

    def _route(self, sock: NodeSocket) -> None:
        """After an owner on another node welcomed ``sock``: with ``route`` on (``--route-to-owner``), the
        client is told that owner once (``route``), so it can come back through a proxy that sends
        ``?node=<id>`` to that node and take the relay off its path (docs/decisions/0087). Not when it asked
        for that very node and still came here: the proxy does not route by it, and it would only return."""
        target = sock.target
        if self.route and target and target not in (sock.asked, sock.routed):
            sock.routed = target
            sock.send(P.dumps(P.route_msg(target)))

    def close(self, close: M.Close) -> None:
        sock = self.by_id.get(close.cid)
        if sock is not None:
            sock.target = None  # the owner already forgot it
            sock.close(close.code)

    def gone(self, gone: M.Gone) -> None:
        """The node we relayed to does not own the room (any more): find the owner and re-send."""
        sock = self.by_id.get(gone.cid)
        if sock is None:
            return
        sock.target = None
        if gone.body is None:  # the owner dropped the room: find the new one (no message to re-send)
            if sock.says_hello_again and not sock.attaching:
                self._spawn(self.attach(sock))
            return
        hops = gone.hops + 1
        try:
            msg = M.client_message(gone.body)
        except P.ProtocolError:
            return
        if isinstance(msg, P.Hello) and sock.welcomed:  # a re-attach that met the old owner: look again
            if not sock.attaching:
                self._spawn(self.attach(sock))
            return
        if hops > MAX_HOPS:
            log.warning("room %s: a message found no owner after %d hops", gone.code, hops)
            if isinstance(msg, P.Hello):
                return  # nothing to refuse: it waits for its room ("moved", or the next scan's retry)
            err = moving_error()
            sock.send(P.dumps(P.error_msg(err.code, err.message)))
            return
        self._spawn(self._redispatch(sock, msg, gone.body, hops))

    async def _redispatch(self, sock: NodeSocket, msg: P.ClientMessage, body: M.ClientBody,
                          hops: int) -> None:
        """Send a message answered "gone" again, after a pause that doubles per hop: the lease may already
        name a node still loading the room (its claim and load take a moment), which answers "gone" until
        it has it, and hops in quick succession would all fall in that moment."""
        await asyncio.sleep(HOP_PAUSE_S * 2 ** (hops - 1))
        if not sock.closing:
            await self.dispatch(sock, msg, body, hops)

    def moved(self, code: str) -> None:
        """A room changed owner: every socket of it says hello to the new one."""
        for sock in list(self.by_room.get(code, ())):
            if sock.target == LOCAL and self.rooms.get(code) is not None:
                # attached to this node's (new) room, or its hello is on its way to it (waiting for the
                # room's lock): a second hello would be refused as already_hello (a dropped room sets
                # every socket's target to None first, so a stale LOCAL does not stay)
                continue
            if sock.attaching:
                continue
            sock.target = None
            if sock.says_hello_again:
                self._spawn(self.attach(sock))

    def dropped(self, code: str, reattach: bool = True) -> None:
        """A room of this node was dropped: its sockets look for the owner again (now, or on "moved")."""
        for sock in list(self.by_room.get(code, ())):
            if sock.target == LOCAL:
                sock.target = None
                if reattach and sock.says_hello_again and not sock.attaching:
                    self._spawn(self.attach(sock))

    def _unsure(self, sock: NodeSocket, msg: P.ClientMessage) -> None:
        """The room was dropped while this message waited for it, so it may not have been applied: say so
        (an action is deduplicated by its clientMsgId if the client sends it again), and re-attach."""
        if isinstance(msg, P.Hello):
            sock.target = None
            if not sock.attaching:
                self._spawn(self.attach(sock))
            return
        err = moving_error()
        sock.send(P.dumps(P.error_msg(err.code, err.message, getattr(msg, "clientMsgId", None))))

    def retry_orphans(self) -> None:
        """Sockets in a room but attached to no owner (an attach failed: Redis or the store was down, a
        "moved" was lost while resubscribing, or a hello met a dead owner) look again, quietly; called
        every scan."""
        for sock in list(self.by_id.values()):
            if sock.target is None and sock.says_hello_again and not sock.attaching and not sock.closing:
                self._spawn(self.attach(sock, quiet=True))

    def resync_relayed(self) -> None:
        """This node's relay subscription was lost and made again (a Redis restart or outage): frames the
        owners published for its relayed sockets meanwhile are gone for good, so each of them says hello to
        its room's owner again and gets a fresh snapshot (the owner answers a repeated hello with one)."""
        for sock in list(self.by_id.values()):
            if sock.target not in (LOCAL, None) and sock.says_hello_again and not sock.attaching \
                    and not sock.closing:
                sock.target = None
                self._spawn(self.attach(sock, quiet=True))

    def undelivered(self, node: str, msgs: list[M.Message]) -> None:
        """Messages to a node nobody listens on (it died): the sender is told, and looks again next time."""
        for relayed in msgs:
            if not isinstance(relayed, M.ClientMsg):
                continue
            sock = self.by_id.get(relayed.cid)
            if sock is None or sock.target != node:
                continue
            sock.target = None
            try:
                msg: P.ClientMessage | None = M.client_message(relayed.body)
            except P.ProtocolError:
                msg = None
            if isinstance(msg, P.Hello):
                # nothing to refuse: the socket waits for its room, and its hello is said again to whichever
                # node takes the room over ("moved", or the next scan's retry_orphans)
                log.info("room %s: node %s is not listening; the hello waits for the room to move", sock.code,
                         node)
                continue
            log.warning("room %s: node %s is not listening; message refused", sock.code, node)
            cmid = getattr(msg, "clientMsgId", None)
            err = moving_error()
            sock.send(P.dumps(P.error_msg(err.code, err.message, cmid)))

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
