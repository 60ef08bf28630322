"""A websocket client that follows the web client's connection rules (``RoomConnection`` in
src/pokerroom/web/static/net.js), and the balancer in front of the nodes it reconnects through.

Why a mirror and not :class:`table.Table`'s reconnect: the promise "no socket is left behind" is about what a
phone does, so the test must reconnect when, where and as often as net.js does, and give up where it gives
up. The rules mirrored here:

- on open: ``hello`` with the seat token (or nickname / spectate) and ``deltas: true``; a ping every 20 s;
- ``welcome``: the attempt count is reset and a seat token, if given, is the hello from now on;
- an ``error`` whose code ends the connection: one of :data:`FATAL` before ``welcome``, or one of
  :data:`TERMINAL` at any time (``hello_timeout`` among them): the client closes and never comes back;
- a close: 4404 ends it (the room is gone); 4012/1012 (a node going away on purpose) retry after a random
  0.15-1 s on the first attempt; any other close retries after 0.5 s doubling per attempt up to 10 s, with
  +-20 % jitter;
- every new connection goes through :class:`Balancer`, as a browser's goes through nginx: to the next node
  in turn, and a node that refuses the connection (a dead process) is passed over at once;
- ``route`` (a node run with ``--route-to-owner`` relays this socket): a new connection asks for the named
  node (``?node=``, which the balancer, as deploy/nginx-cluster.conf's map, sends there, or while it is down
  to the others in turn); the old one stays open, unread, until the new one is welcomed (or fails), then is
  closed; later connections ask for that node too, until a close with 4012/1012 sends them anywhere again.

Not mirrored: net.js's rules for a node that stops answering without closing (a ping unanswered for 10 s,
an action for 3 s and its ping for 4 more, a reroute not welcomed within 5 s, a socket not open within 10 s,
another node asked for after one of those, from the ``node`` frame); the nodes of these tests answer or die.
tests/web/test_dead_link.py and test_stuck_node.py hold the page to them.

The player's own clicks are not net.js's business; ``acting`` makes the client answer its turn with a
safe move (check, call, ready), once per version, as a person at the table would, and, as the app does
(``resendPending``), an action still unacknowledged when a new connection is welcomed is sent again with
its own id (at most 15 s after it was first sent; applied at most once by the server).
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import websockets
from nodes import Cluster, Node
from server_helpers import Client

FATAL = frozenset({"bad_token", "nickname_taken", "nickname_invalid", "room_full", "spectators_full",
                   "too_many_tabs", "room_not_found", "server_full", "banned", "nickname_bot",
                   "nickname_banned"})
TERMINAL = frozenset({"kicked", "room_closed", "hello_timeout"})
MOVING_CODES = (4012, 1012)
ROUTED = -1  # what ``Browser._read`` returns for a ``route`` followed (no close code is negative)
PING_S = 20.0
SAFE = ("ready", "k.check", "nl.check", "k.call", "nl.call")


class Balancer:
    """The nginx upstream in front of the nodes (``proxy_next_upstream error``): each new connection goes
    to the next node in turn; one that refuses is passed over for the next."""

    def __init__(self, cluster: Cluster) -> None:
        self.cluster = cluster
        self.turn = 0

    async def open(self, code: str, name: str, asked: str | None = None) -> tuple[Client, Node]:
        """``asked``: a node id (``?node=``): that node first, then its backups (the others, in order)."""
        nodes = self.cluster.nodes
        first = next((i for i, n in enumerate(nodes) if n.node_id == asked), None)
        start = self.turn if first is None else first
        order = [nodes[(start + i) % len(nodes)] for i in range(len(nodes))]
        query = f"?node={asked}" if asked else ""
        for i, node in enumerate(order):
            try:
                client = await Client.open(node.ws_url(code) + query, name, open_timeout=3)
            except (OSError, TimeoutError, websockets.WebSocketException):
                continue
            if first is None:
                self.turn = (self.turn + i + 1) % len(nodes)
            return client, node
        raise OSError("no node accepted the connection")


@dataclass
class Browser:
    """One tab of the web client in a room: its connections one after another, as net.js makes them."""

    name: str
    code: str
    hello: dict[str, Any]
    balancer: Balancer
    rnd: random.Random
    acting: bool = False
    #: while acting, the views on which this tab waits instead (the test holds the table at a point)
    hold: Callable[[dict[str, Any]], bool] | None = None
    attempt: int = 0
    welcomed: bool = False
    player_id: str | None = None
    fatal: str | None = None
    sockets: list[tuple[Node, Client]] = field(default_factory=list)
    errors: list[dict[str, Any]] = field(default_factory=list)
    closes: list[tuple[float, int | None]] = field(default_factory=list)
    views: list[tuple[float, dict[str, Any]]] = field(default_factory=list)  # (arrival, whole view message)
    acted: int = -1
    sent: int = 0
    asked: str | None = None  # the node a ``route`` named: new connections ask for it
    retiring: Client | None = None  # the connection a ``route`` replaces, until the new one is welcomed
    routes: list[str] = field(default_factory=list)  # every node a ``route`` named, in order
    #: the action sent and not yet acknowledged or refused: (its message, when it was first sent)
    pending: tuple[dict[str, Any], float] | None = None
    task: asyncio.Task[None] | None = None

    def start(self) -> Browser:
        self.task = asyncio.ensure_future(self._run())
        return self

    @property
    def node(self) -> Node | None:
        return self.sockets[-1][0] if self.sockets else None

    def last_view(self) -> dict[str, Any] | None:
        return self.views[-1][1] if self.views else None

    def first_view_after(self, t0: float) -> tuple[float, dict[str, Any]] | None:
        return next(((t, v) for t, v in self.views if t > t0), None)

    async def _run(self) -> None:
        while self.fatal is None:
            try:
                client, node = await self.balancer.open(self.code, f"{self.name}#{len(self.sockets)}",
                                                        self.asked)
            except OSError:
                await self._retire()
                await self._pause(moving=False)
                continue
            self.sockets.append((node, client))
            self.welcomed = False
            await client.send({"type": "hello", **self.hello, "deltas": True})
            code = await self._read(client)
            if self.fatal is not None:
                return
            if code == ROUTED:
                continue  # the new connection at once; this one stays open until it is welcomed
            await self._retire()
            self.closes.append((time.monotonic(), code))
            if code == 4404:
                self.fatal = "room_closed"
                return
            if code in MOVING_CODES:
                self.asked = None
            await self._pause(moving=code in MOVING_CODES)

    async def _retire(self) -> None:
        """net.js ``retire``: the connection a ``route`` replaced is closed."""
        old, self.retiring = self.retiring, None
        if old is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(old.close(), 5)

    async def _pause(self, moving: bool) -> None:
        """net.js ``scheduleRetry``."""
        if moving and self.attempt == 0:
            delay = 0.15 + self.rnd.random() * 0.85
        else:
            delay = min(10.0, 0.5 * 2 ** min(self.attempt, 5)) * (0.8 + self.rnd.random() * 0.4)
        self.attempt += 1
        await asyncio.sleep(delay)

    async def _read(self, client: Client) -> int | None:
        """Handle one connection's messages until it closes; its close code."""
        pinged = time.monotonic()
        while self.fatal is None:  # (close() sets it: a cancellation that wait_for swallowed still ends here)
            try:
                msg = await asyncio.wait_for(client.queue.get(), 0.25)
            except TimeoutError:
                if time.monotonic() - pinged >= PING_S:
                    pinged = time.monotonic()
                    with contextlib.suppress(websockets.ConnectionClosed):
                        await client.send({"type": "ping"})
                await self._maybe_act(client)
                continue
            kind = msg["type"]
            if kind == "_closed":
                return msg["code"]  # type: ignore[no-any-return]
            if kind == "route":
                node = msg.get("node")
                if isinstance(node, str) and node and node != self.asked and self.retiring is None:
                    self.routes.append(node)
                    self.asked, self.retiring = node, client
                    return ROUTED
                continue
            if kind == "welcome":
                self.attempt = 0
                self.welcomed = True
                await self._retire()
                self.player_id = msg.get("playerId") or self.player_id
                if msg.get("token"):
                    self.hello = {"token": msg["token"]}
                await self._resend(client)
            elif kind == "ack" and self.pending is not None and msg.get("clientMsgId") == \
                    self.pending[0]["clientMsgId"]:
                self.pending = None
            elif kind == "view":
                self.views.append((time.monotonic(), msg))
            elif kind == "error":
                code = msg.get("code")
                if (not self.welcomed and code in FATAL) or code in TERMINAL:
                    self.fatal = str(code)
                    with contextlib.suppress(Exception):
                        await asyncio.wait_for(client.close(), 5)
                    return None
                self.errors.append({**msg, "at": time.monotonic()})
                if self.pending is not None and msg.get("clientMsgId") == self.pending[0]["clientMsgId"]:
                    self.pending = None
                # refused (a race: someone else's change came first): decide again on the next, newer view,
                # never again on the view that was refused (that loop floods the server)
            await self._maybe_act(client)
        return None

    async def _maybe_act(self, client: Client) -> None:
        last = self.last_view()
        if not self.acting or last is None or self.player_id is None or last["version"] <= self.acted:
            return
        if self.hold is not None and self.hold(last["view"]):
            return
        acts = {a["type"] for a in (last["view"].get("me") or {}).get("legalActions") or []}
        move = next((k for k in SAFE if k in acts), None)
        if move is None:
            return
        self.acted = last["version"]
        self.sent += 1
        action = {"type": "action", "clientMsgId": f"{self.name}-{self.sent}", "version": last["version"],
                  "action": {"type": move}}
        self.pending = (action, time.monotonic())
        with contextlib.suppress(websockets.ConnectionClosed):
            await client.send(action)

    async def _resend(self, client: Client) -> None:
        """app.js ``resendPending``: on a new connection's welcome, the unacknowledged action again."""
        if self.pending is None:
            return
        action, at = self.pending
        if time.monotonic() - at > 15:
            self.pending = None
            return
        with contextlib.suppress(websockets.ConnectionClosed):
            await client.send(action)

    async def close(self) -> None:
        self.fatal = self.fatal or "closed by the test"
        if self.task is not None:
            self.task.cancel()
            await asyncio.gather(self.task, return_exceptions=True)
        for _node, client in self.sockets:
            if client.closed_code is None:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(client.close(), 5)
