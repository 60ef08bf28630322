"""The load benchmark's generator: the scripted players and spectators of one room over real websockets, and
one generator process driving many rooms (what benchmarks/load.py starts ``--workers`` of).

Apart from benchmarks/load.py, which starts the servers, spreads the rooms over these processes and prints
the figures: this module is what runs inside each generator process (a ``spawn`` child imports it, not the
whole benchmark), and benchmarks/profile_action.py plays with the same :func:`pick`.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import time
from dataclasses import dataclass, field
from typing import Any

import httpx
import orjson
import websockets

try:  # the generator's event loop (--client-loop): libuv's costs the load generator less CPU per frame read
    import uvloop
except ImportError:  # pragma: no cover - uvloop is not built for every platform
    uvloop = None

HOST = "127.0.0.1"
#: simultaneous decisions (docs/protocol.md §2.1): sent on the view they were decided on even when a newer
#: view has come meanwhile, and re-sent at once on the newest view if a server refuses them as stale
COMMUTING = frozenset({"ready", "rebuy", "choose", "draw", "declare"})
VIEW_PREFIX = '{"type":"view","version":'
DELTA_PREFIX = '{"type":"viewDelta","version":'

try:  # the reference client side of view deltas; an older tree has none (then: full views only)
    from pokerroom.server.wire.deltas import apply_delta
except ImportError:  # pragma: no cover - depends on the tree under test
    apply_delta = None


def pick(view: dict[str, Any], rnd: random.Random) -> dict[str, Any] | None:
    """A plausible action among the legal ones: mostly check/call, sometimes raise or fold."""
    acts = {a["type"]: a for a in (view.get("me") or {}).get("legalActions") or []}
    if not acts:
        return None
    if "ready" in acts:
        return {"type": "ready"}
    if "choose" in acts:
        a, b = rnd.sample(acts["choose"]["cardIds"], 2)
        return {"type": "choose", "discardId": a, "openId": b}
    if "draw" in acts:
        return {"type": "draw", "cardIds": []}
    if "declare" in acts:
        return {"type": "declare", "side": "high"}
    if "rebuy" in acts:
        return {"type": "rebuy", "accept": True}
    roll = rnd.random()
    if roll < 0.1 and "nl.raise" in acts:
        r = acts["nl.raise"]
        return {"type": "nl.raise", "to": r["min"]}
    if roll < 0.1 and "k.half" in acts:
        return {"type": "k.half"}
    for kind in ("k.check", "nl.check", "k.call", "nl.call"):
        if kind in acts and roll < 0.93:
            return {"type": kind}
    for kind in ("k.die", "nl.fold", "k.check", "nl.check"):
        if kind in acts:
            return {"type": kind}
    return {"type": next(iter(acts))}


@dataclass
class Stats:
    """What one load-generator process saw. Times are ``time.monotonic()`` of that process.

    ``ack_times`` and ``latency_pairs`` are raw: every accepted action and every completed round trip of the
    whole run, set-up included. Only :func:`window_counts` decides what the measured window holds, so the
    count and the window's length always describe the same interval (tests/tools/test_load_arithmetic.py).
    """

    window: tuple[float, float] = (0.0, 0.0)  # the measured window [start, end) in this process's clock
    ack_times: list[float] = field(default_factory=list)
    latency_pairs: list[tuple[float, float]] = field(default_factory=list)  # (action sent, all views held)
    errors: dict[str, int] = field(default_factory=dict)
    stale: int = 0
    stale_by_type: dict[str, int] = field(default_factory=dict)  # stale_version refusals per action type
    cpu: float = 0.0  # this load-generator process's CPU seconds inside the window (is it the bottleneck?)
    closes: int = 0
    setup_failures: int = 0
    sockets: int = 0
    view_bytes: list[int] = field(default_factory=list)  # each view / viewDelta frame inside the window
    window_bytes: int = 0  # every frame received inside the window, all sockets
    hands: int = 0  # hands begun inside the window (a room's handNo or game changing), all rooms
    resyncs: int = 0
    # (action sent, its ack back, sent on the node owning the room): the relay's cost (--nodes)
    ack_pairs: list[tuple[float, float, bool]] = field(default_factory=list)


class RoomDriver:
    """One room: its sockets, the newest version each saw, and the pending action timings."""

    def __init__(self, ports: list[int], args: argparse.Namespace, stats: Stats, end_at: float, seed: int,
                 index: int = 0, lookup: dict[str, Any] | None = None) -> None:
        self.ports = ports
        self.port = ports[index % len(ports)]  # the node the room is created through
        self.index = index
        self.lookup = lookup  # how to find the room's owner (cluster mode), for the relay figures
        self.owner: int | None = None
        self.sent_by: dict[str, tuple[float, bool]] = {}  # clientMsgId -> (sent, on the owner)
        self.kinds: dict[str, str] = {}  # clientMsgId -> action type, until its ack or error
        self.pending: dict[Any, str] = {}  # socket -> clientMsgId of its commuting action in flight
        self.answered: dict[Any, int] = {}  # socket -> the version its last accepted action became
        self.args = args
        self.stats = stats
        self.end_at = end_at
        self.rnd = random.Random(seed)
        # an accepted action's round trip: its send time by the version it became (known from its ack), and
        # the time every socket held a version; whichever of the two comes second makes the sample
        self.acked: dict[int, float] = {}
        self.done: dict[int, float] = {}
        self.seen: dict[int, int] = {}  # version -> sockets holding it
        self.latest = 0
        self.nsockets = args.players + args.spectators
        self.host_ws: Any = None
        self.msg_no = 0
        self.tasks: set[asyncio.Task[None]] = set()
        self.deltas = bool(args.deltas and apply_delta is not None)
        self.hand: tuple[int, Any] | None = None  # (version, handNo) the host last saw

    async def run(self, http: httpx.AsyncClient, gate: asyncio.Semaphore) -> None:
        options = {"mode": self.args.mode, "handLimit": 50, "turnSeconds": 60, "hints": self.args.hints}
        async with gate:
            try:
                r = await http.post(f"http://{HOST}:{self.port}/api/rooms",
                                    json={"nickname": "방장", "options": options})
            except httpx.HTTPError:
                self.stats.setup_failures += 1
                return
            if r.status_code != 201:
                self.stats.setup_failures += 1
                return
            created = r.json()
            if self.lookup is not None:
                from cluster_nodes import owner_port

                self.owner = await asyncio.to_thread(owner_port, self.lookup["redis"], self.lookup["prefix"],
                                                     created["code"], self.lookup["ports"])
            sockets = []
            self.socket_ports: dict[Any, int] = {}
            try:
                for i in range(self.nsockets):
                    # socket i on node (index + i) mod N: a room's players sit on every node
                    port = self.ports[(self.index + i) % len(self.ports)]
                    if getattr(self.args, "sockets_on_owner", False) and self.owner is not None:
                        port = self.owner  # every socket where a proxy routing to the owner would put it
                    url = f"ws://{HOST}:{port}/ws/{created['code']}"
                    ws = await websockets.connect(url, max_size=2**22, ping_interval=None, open_timeout=60)
                    sockets.append(ws)
                    self.socket_ports[ws] = port
                    if i == 0:
                        hello: dict[str, Any] = {"token": created["token"]}
                    elif i < self.args.players:
                        hello = {"nickname": f"플레이어{i}"}
                    else:
                        hello = {"spectate": True}
                    if self.deltas:
                        hello["deltas"] = True
                    await ws.send(json.dumps({"type": "hello", **hello}))
            except (OSError, websockets.WebSocketException):
                self.stats.setup_failures += 1
                for ws in sockets:
                    await ws.close()
                return
        self.stats.sockets += len(sockets)
        self.host_ws = sockets[0]
        readers = [asyncio.ensure_future(self.read(ws, i < self.args.players))
                   for i, ws in enumerate(sockets)]
        await asyncio.sleep(0.2)
        await self.host_ws.send(json.dumps({"type": "start"}))
        await asyncio.sleep(max(0.0, self.end_at - time.monotonic()))
        for ws in sockets:
            await ws.close()
        await asyncio.gather(*readers, return_exceptions=True)
        for t in list(self.tasks):
            t.cancel()

    async def read(self, ws: Any, is_player: bool) -> None:
        held: tuple[int, dict[str, Any]] | None = None  # a player's whole view (rebuilt from deltas)
        start, end = self.stats.window
        try:
            async for raw in ws:
                now = time.monotonic()
                inside = start <= now < end
                if inside:
                    self.stats.window_bytes += len(raw.encode())
                if raw.startswith(VIEW_PREFIX) or raw.startswith(DELTA_PREFIX):
                    if inside:
                        self.stats.view_bytes.append(len(raw.encode()))
                    delta = raw.startswith(DELTA_PREFIX)
                    at = len(DELTA_PREFIX if delta else VIEW_PREFIX)
                    version = int(raw[at:raw.index(",", at)])
                    self.on_view(version, now)
                    if not is_player:
                        continue  # a spectator only needs the version
                    parse = delta or self.deltas or '"legalActions":[]' not in raw
                    msg = orjson.loads(raw) if parse else None
                    if msg is None:
                        continue
                    if delta:
                        if held is None or held[0] != msg["base"] or apply_delta is None:
                            if held is not None:  # ask once; deltas until the whole view comes are dropped
                                self.stats.resyncs += 1
                                await ws.send('{"type":"resync"}')
                            held = None
                            continue
                        held = (version, apply_delta(held[1], msg))
                    else:
                        held = (version, msg["view"])
                    if "ack" in msg:
                        self.stats.ack_times.append(now)
                        self.on_ack(msg["ack"], now, ws, version)
                    if ws is self.host_ws:
                        self.on_hand(version, held[1].get("handNo"), inside)
                    if (held[1].get("me") or {}).get("legalActions") and now < self.end_at:
                        self.spawn(self.act(ws, version, held[1]))
                elif raw.startswith('{"type":"error"'):
                    err = orjson.loads(raw)
                    cmid = err.get("clientMsgId") or ""
                    kind = self.kinds.pop(cmid, "?")
                    self.sent_by.pop(cmid, None)
                    if self.pending.get(ws) == cmid:
                        del self.pending[ws]
                    if err["code"] == "stale_version":
                        if inside:  # like the accepted actions: inside the measured window only
                            self.stats.stale += 1
                            self.stats.stale_by_type[kind] = self.stats.stale_by_type.get(kind, 0) + 1
                        if kind in COMMUTING and held is not None and now < self.end_at:
                            self.spawn(self.act(ws, held[0], held[1], at_once=True))  # protocol §2.1
                    else:
                        self.stats.errors[err["code"]] = self.stats.errors.get(err["code"], 0) + 1
                elif raw.startswith('{"type":"ack"'):
                    self.stats.ack_times.append(now)
                    ack = orjson.loads(raw)
                    self.on_ack(ack["clientMsgId"], now, ws, ack["version"])
                elif raw.startswith('{"type":"result"') and ws is self.host_ws:
                    self.spawn(self.restart())
        except websockets.ConnectionClosed:
            pass
        if time.monotonic() < self.end_at - 0.5:
            self.stats.closes += 1

    def on_ack(self, cmid: str, now: float, ws: Any, version: int) -> None:
        self.kinds.pop(cmid, None)
        if self.pending.get(ws) == cmid:
            del self.pending[ws]
        self.answered[ws] = max(version, self.answered.get(ws, -1))
        sent = self.sent_by.pop(cmid, None)
        if sent is not None:
            done = self.done.pop(version, None)
            if done is not None:
                self.stats.latency_pairs.append((sent[0], done))
            else:
                self.acked[version] = sent[0]
        if sent is not None and self.owner is not None:
            self.stats.ack_pairs.append((sent[0], now, sent[1]))

    def spawn(self, coro: Any) -> None:
        task = asyncio.ensure_future(coro)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def on_hand(self, version: int, hand_no: Any, inside: bool) -> None:
        if self.hand is not None and self.hand[1] != hand_no and inside:
            self.stats.hands += 1
        self.hand = (version, hand_no)

    def on_view(self, version: int, now: float) -> None:
        self.latest = max(self.latest, version)
        count = self.seen.get(version, 0) + 1
        self.seen[version] = count
        if count == self.nsockets:
            del self.seen[version]
            sent = self.acked.pop(version, None)
            if sent is not None:
                self.stats.latency_pairs.append((sent, now))
            else:
                self.done[version] = now
                for old in [v for v in self.done if v < version - 64]:  # changes nobody here acted for
                    del self.done[old]

    async def act(self, ws: Any, version: int, view: dict[str, Any], at_once: bool = False) -> None:
        """Decide on ``view`` (of ``version``) after a think time and send the action. A bet is dropped when a
        newer view came meanwhile (that view decides again); a simultaneous decision (:data:`COMMUTING`) is
        sent on the view it was decided on, once per socket until it is answered (protocol §2.1)."""
        think = self.args.think_ms / 1000.0
        action = pick(view, self.rnd)
        if action is None:
            return
        commuting = action["type"] in COMMUTING
        if commuting and ws in self.pending:
            return  # this seat's answer is in flight: its ack (or a stale refusal's re-send) follows
        if not at_once:
            pause = self.rnd.uniform(0.5 * think, 1.5 * think) if action["type"] != "ready" else 0.1
            await asyncio.sleep(pause)
        if time.monotonic() >= self.end_at or (self.latest != version and not commuting) or \
                (commuting and (ws in self.pending or version < self.answered.get(ws, -1))):
            return  # the table changed meanwhile (or my answer was taken): the newer view decides again
        self.msg_no += 1
        if commuting:
            self.pending[ws] = f"m{self.msg_no}"
        self.sent_by[f"m{self.msg_no}"] = (time.monotonic(), self.socket_ports.get(ws) == self.owner)
        self.kinds[f"m{self.msg_no}"] = action["type"]
        try:
            await ws.send(json.dumps({"type": "action", "clientMsgId": f"m{self.msg_no}", "version": version,
                                      "action": action}))
        except websockets.ConnectionClosed:
            pass

    async def restart(self) -> None:
        await asyncio.sleep(0.5)
        if time.monotonic() < self.end_at:
            await self.host_ws.send(json.dumps({"type": "start"}))


def worker(ports: list[int], rooms: int, args: argparse.Namespace, start_at: float, seed: int, out: Any,
           first: int = 0, lookup: dict[str, Any] | None = None) -> None:
    """One load-generator process: ``rooms`` rooms (numbered from ``first``), results sent back as a dict."""

    async def main() -> Stats:
        window_start = time.monotonic() + (start_at - time.time())
        end_at = window_start + args.seconds
        stats = Stats(window=(window_start, end_at))

        async def own_cpu() -> None:  # this process's CPU inside the window only
            await asyncio.sleep(max(0.0, window_start - time.monotonic()))
            cpu0 = time.process_time()
            await asyncio.sleep(max(0.0, end_at - time.monotonic()))
            stats.cpu = time.process_time() - cpu0

        clock = asyncio.ensure_future(own_cpu())
        gate = asyncio.Semaphore(16)
        limits = httpx.Limits(max_connections=32)
        async with httpx.AsyncClient(limits=limits, timeout=30) as http:
            drivers = [RoomDriver(ports, args, stats, end_at, seed * 100_003 + i, first + i, lookup)
                       for i in range(rooms)]
            await asyncio.gather(*(d.run(http, gate) for d in drivers))
        await clock
        return stats

    run = uvloop.run if args.client_loop == "uvloop" and uvloop is not None else asyncio.run
    stats = run(main())
    out.put(stats.__dict__)
