"""People at one room of a cluster: each a websocket on a node of their own, playing on autopilot, and
reconnecting with their seat token (to another node) when their node closes the socket or dies — what
the web client does on close code 4012 or a lost connection.

Everything a person received is kept per socket (``Client.frames``) for the frame scanner, and every ack
they got (``acks``) for the "nothing acknowledged is lost" check against the action log.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any

import websockets
from nodes import Cluster, Node
from server_helpers import Client, pick_action

HANGUL = range(0xAC00, 0xD7A4)
GAME_BUDGET = 270.0  # seconds for a test's whole game, under the per-test pytest timeout (conftest: 360)


_OPEN: list[Table] = []  # tables not closed yet (run_game closes them whatever happened)


def run_game(coro: Coroutine[Any, Any, Any], seconds: float = GAME_BUDGET) -> Any:
    """``asyncio.run`` with a deadline: a wait without its own timeout fails here with the traceback of
    where it was stuck (pytest-timeout would only show an idle event loop); every table is closed after."""

    async def guarded() -> Any:
        try:
            return await asyncio.wait_for(coro, seconds)
        finally:
            for table in list(_OPEN):
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(table.close(), 30)

    return asyncio.run(guarded())
SAFE = ("ready", "k.check", "nl.check", "k.call", "nl.call")
RACES = frozenset({"stale_version", "no_game"})  # refusals a scripted player meets by acting in a race
THINK_S = 0.08  # a node's real flood limit is ~20 messages/s a socket (close 1008): stay well under it
RESEND_S = 3.0  # no new view this long after acting: the action was lost with its node, act again
STALE_RESYNC_S = 1.5  # a stale_version refusal and no newer view this long after it: ask for one (net.js)


def is_korean(text: str) -> bool:
    return any(ord(ch) in HANGUL for ch in text)


def safe_action(view: dict[str, Any], rnd: random.Random) -> dict[str, Any] | None:
    """Check/call/ready when offered (hands run to the end, nobody busts), else any legal move."""
    acts = {a["type"]: a for a in (view.get("me") or {}).get("legalActions") or []}
    for kind in SAFE:
        if kind in acts:
            return {"type": kind}
    return pick_action(view, rnd) if acts else None


@dataclass
class Person:
    name: str
    hello: dict[str, Any]  # the first hello: {"token": ...}, {"nickname": ...} or {"spectate": True}
    node: Node
    player_id: str | None = None
    token: str | None = None
    clients: list[Client] = field(default_factory=list)  # every socket this person had, oldest first
    acks: dict[str, tuple[str | None, int]] = field(default_factory=dict)  # clientMsgId -> (pid, version)
    errors: list[dict[str, Any]] = field(default_factory=list)
    closes: list[tuple[float, int | None]] = field(default_factory=list)  # (monotonic, close code)
    views_at: list[tuple[float, int]] = field(default_factory=list)  # (monotonic, version) of each view
    results: list[dict[str, Any]] = field(default_factory=list)

    @property
    def client(self) -> Client:
        return self.clients[-1]

    @property
    def spectator(self) -> bool:
        return self.player_id is None

    def last_view(self) -> dict[str, Any] | None:
        for c in reversed(self.clients):
            if (v := c.last("view")) is not None or c.held is not None:
                if c.held is not None:
                    return {"type": "view", "version": c.held[0], "view": c.held[1]}
                return v
        return None


class Table:
    """A room's people spread over the cluster's nodes, playing until told to stop."""

    def __init__(self, cluster: Cluster, code: str, seed: int = 1, deltas: bool = True,
                 chooser: Callable[[dict[str, Any], random.Random], dict[str, Any] | None] = safe_action,
                 think_s: float = THINK_S) -> None:
        self.cluster = cluster
        self.code = code
        self.rnd = random.Random(seed)
        self.deltas = deltas
        self.chooser = chooser
        self.think_s = think_s
        self.people: list[Person] = []
        self.acting = True  # autopilots act; False: they only read
        self.again = False  # True: the host starts a new game when one ends (play that outlasts a game)
        self._tasks: list[asyncio.Task[None]] = []
        self._msg = 0
        _OPEN.append(self)

    async def seat(self, name: str, node: Node, **hello: Any) -> Person:
        person = Person(name, dict(hello), node)
        await self._connect(person, node, hello)
        self.people.append(person)
        self._tasks.append(asyncio.ensure_future(self._pilot(person)))
        return person

    async def _connect(self, person: Person, node: Node, hello: dict[str, Any]) -> None:
        c = await Client.open(node.ws_url(self.code), f"{person.name}#{len(person.clients)}", open_timeout=10)
        person.clients.append(c)
        person.node = node
        welcome = await self.hello(c, hello)
        if "spectate" not in hello:
            person.player_id = welcome["playerId"]
            person.token = c.token

    async def hello(self, c: Client, hello: dict[str, Any]) -> dict[str, Any]:
        """Say hello and return the welcome; an error or a close fails at once (the caller retries on
        another node soon, like the web client), where ``Client.hello`` would wait out its timeout."""
        await c.send({"type": "hello", **hello, **({"deltas": True} if self.deltas else {})})
        end = time.monotonic() + 10
        while True:
            msg = await asyncio.wait_for(c.queue.get(), max(0.01, end - time.monotonic()))
            if msg["type"] == "welcome":
                c.player_id = msg["playerId"]
                c.token = msg.get("token", hello.get("token"))
                return msg
            if msg["type"] in ("error", "_closed"):
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(c.close(), 2)
                raise AssertionError(f"{c.name}: hello refused: {msg}")

    def live_nodes(self, avoid: Node | None = None) -> list[Node]:
        return [n for n in self.cluster.nodes if n.alive() and not n.stopped and n is not avoid]

    async def reconnect(self, person: Person, avoid: Node | None = None, timeout: float = 20.0) -> None:
        """Open a new socket on another live node with the seat token (a spectator watches again)."""
        hello = {"token": person.token} if person.token else {"spectate": True}
        end = time.monotonic() + timeout
        attempt = 0
        while True:
            nodes = self.live_nodes(avoid) or self.live_nodes()
            node = nodes[(self.people.index(person) + attempt) % len(nodes)]
            attempt += 1
            try:
                await self._connect(person, node, hello)
                return
            except (OSError, AssertionError, TimeoutError, websockets.WebSocketException) as exc:
                if time.monotonic() > end:
                    raise AssertionError(f"{person.name} could not reconnect: {exc!r}") from exc
                await asyncio.sleep(0.2)

    async def _pilot(self, person: Person) -> None:
        acted = -1
        sent_at = 0.0
        stale: tuple[float, int] | None = None  # a stale_version refusal: when, and the version then held
        while True:
            c = person.client
            try:
                msg = await asyncio.wait_for(c.queue.get(), 0.3)
            except TimeoutError:
                if stale is not None and time.monotonic() - stale[0] > STALE_RESYNC_S:
                    # as the web client does (net.js staleSeen): no newer view since the refusal, so one
                    # was lost on its way (the room changed hands): ask for a whole view
                    if (person.last_view() or {}).get("version", -1) <= stale[1]:
                        with contextlib.suppress(websockets.ConnectionClosed):
                            await c.send({"type": "resync"})
                    stale = None
                if acted == -2 or (acted >= 0 and time.monotonic() - sent_at > RESEND_S):
                    # refused, or nothing came back (the action went to an owner that died or froze and
                    # was never acknowledged): decide again on the newest view, as a person would
                    acted = -1
                elif acted != -1:
                    continue
                # acted == -1 (re-attached, or told to act again after the table was settled): the newest
                # view may have come while ``acting`` was off, so no new frame will prompt a decision
                msg = {"type": "_tick"}
            batch = [msg, *c.drain()]
            newest: dict[str, Any] | None = None
            for m in batch:
                kind = m["type"]
                if kind == "_closed":
                    person.closes.append((time.monotonic(), m["code"]))
                    await self.reconnect(person, avoid=person.node)
                    newest, acted = None, -1
                    break
                if kind == "ack":
                    person.acks[m["clientMsgId"]] = (person.player_id, m["version"])
                elif kind == "error":
                    person.errors.append({**m, "at": time.monotonic()})
                    if m.get("code") != "stale_version":
                        acted = -2  # refused (e.g. the store is unreachable): try again shortly
                    else:
                        stale = (time.monotonic(), (person.last_view() or {}).get("version", -1))
                elif kind == "result":
                    person.results.append(m)
                    if self.again and self.acting and person is self.people[0]:
                        await c.send({"type": "start"})
                elif kind == "welcome":
                    acted = -1  # re-attached to a (new) owner: a fresh snapshot follows, decide on it
                elif kind == "view":
                    person.views_at.append((time.monotonic(), m["version"]))
                    newest = m
            if newest is None and msg["type"] == "_tick":
                newest = person.last_view()
            if newest is None or person.spectator or not self.acting:
                continue
            if newest["version"] <= acted:
                continue
            action = self.chooser(newest["view"], self.rnd)
            if action is None:
                continue
            if self.think_s:
                await asyncio.sleep(self.think_s)
            acted = newest["version"]
            sent_at = time.monotonic()
            self._msg += 1
            try:
                await c.send({"type": "action", "clientMsgId": f"{person.name}-{self._msg}",
                              "version": newest["version"], "action": action})
            except websockets.ConnectionClosed:
                acted = -1

    def check_pilots(self) -> None:
        for t in self._tasks:
            if t.done() and not t.cancelled() and t.exception() is not None:
                raise t.exception()  # type: ignore[misc]

    async def until(self, pred: Callable[[], bool], timeout: float, what: str) -> None:
        end = time.monotonic() + timeout
        while not pred():
            self.check_pilots()
            if time.monotonic() > end:
                raise AssertionError(f"{what}: not within {timeout}s\n{self.describe()}\n"
                                     + self.cluster.logs())
            await asyncio.sleep(0.02)

    def describe(self) -> str:
        """Where everyone stands (for a failure message): version, phase, closes, refusals, last frames."""
        lines = [f"room {self.code}, owner {getattr(self.cluster.owner(self.code), 'node_id', None)}"]
        for p in self.people:
            v = p.last_view()
            view = v["view"] if v else {}
            where = f"v{v['version']} {view.get('phase')} hand {view.get('handNo')}" if v else "no view"
            lines.append(f"  {p.name} on {p.node.node_id}: {where}, to act {view.get('toAct')}, "
                         f"closes {[c for _t, c in p.closes]}, "
                         f"errors {[e.get('code') for e in p.errors][-5:]}, "
                         f"last frames {[f['type'] for f in p.client.frames[-4:]]}")
        return "\n".join(lines)

    def version(self) -> int:
        """The newest version any person holds."""
        return max((v["version"] for p in self.people if (v := p.last_view()) is not None), default=-1)

    def hand_no(self) -> int:
        views = [v for p in self.people if (v := p.last_view()) is not None]
        return max((int(v["view"].get("handNo") or 0) for v in views), default=0)

    async def finish(self, timeout: float = 120.0) -> dict[str, Any]:
        """Play on until every person got the game's result."""
        await self.until(lambda: all(p.results for p in self.people), timeout, "the game's result")
        return self.people[0].results[-1]

    async def close(self) -> None:
        """Stop acting, give the last changes time to reach every socket (the final-view check compares
        each person's last view with the newest stored state), then close everything."""
        if self in _OPEN:
            _OPEN.remove(self)
        self.acting = False
        end = time.monotonic() + 10
        await asyncio.sleep(0.5)
        while time.monotonic() < end and len({(v or {}).get("version") for v in
                                              (p.last_view() for p in self.people)}) > 1:
            await asyncio.sleep(0.05)
        for t in self._tasks:
            t.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        for p in self.people:
            for c in p.clients:
                if c.closed_code is None:
                    try:
                        await asyncio.wait_for(c.close(), 5)
                    except (TimeoutError, websockets.WebSocketException, OSError):
                        pass

    def all_acks(self) -> dict[str, tuple[str | None, int]]:
        out: dict[str, tuple[str | None, int]] = {}
        for p in self.people:
            out.update(p.acks)
        return out

    def store_errors(self) -> list[dict[str, Any]]:
        """Refusals other than the expected races: ``stale_version`` (someone acted first) and ``no_game``
        (an action on the last view of a game another action just ended)."""
        return [e for p in self.people for e in p.errors if e.get("code") not in RACES]
