"""Load benchmark of the room server: N rooms x (6 scripted players + 2 spectators) over real websockets.

Starts ``pokerroom serve`` on 127.0.0.1 (a free port, a temporary data dir, the real engine and SQLite
store), opens every room through the public protocol (docs/protocol.md), lets scripted players act from
``view.me.legalActions`` after a think time for a bounded time, and prints:

- accepted actions per second: acks that arrived inside the measured window (after every room was set up)
  divided by the window's length, and the server's CPU time over the same window per such action,
- p50 / p99 / max latency from sending an accepted action to the moment *all* 8 sockets of the room hold the
  view of the version it became (known from its ack; measured in the load generator, so it includes its
  own scheduling delay), and the generator's own CPU (it must not be the bottleneck),
- error frames (anything but ``stale_version``, which is counted apart, per action type) and unexpected
  socket closes. Simultaneous decisions (``ready``, ...) are sent on the view they were decided on
  (docs/protocol.md §2.1: they commute) and re-sent at once on the newest view if refused as stale,
- the server's resident memory (VmRSS, and the peak VmHWM) from /proc,
- bytes per view frame (median, p90) and bytes per socket per hand (every frame a socket received inside the
  window, divided by the sockets and by the hands the rooms played in it).

With ``--nodes N`` the server is N cluster nodes (``pokerroom serve --redis --database``) on the
machine's Redis and PostgreSQL (a fresh database and key prefix per run, benchmarks/cluster_nodes.py); each
room is created through one node and its sockets alternate between the nodes, so with 2 nodes the players of
a room sit on different nodes and half the actions cross the relay. ``--nodes 1,2`` runs both and prints the
ratio; ``--rooms 40,80,120`` runs each room count, and the figure of a node count is the best actions/s of
a run whose p99 stayed under ``--p99-ms`` (100). The relay's added latency per action is the difference of
the own-ack latency (action sent -> its ack back) of actions sent on a node that does not own the room and
of actions sent on the owner, inside the same runs.

Every socket opts in to view deltas (docs/protocol.md §2.8) unless ``--no-deltas`` (or the server's
``pokerroom`` has no ``pokerroom.server.wire.deltas``):
players rebuild their whole view from each ``viewDelta`` and ask ``resync`` on a gap; a player's own ack then
rides on its view frame.

The load is spread over ``--workers`` client processes so the generator is not the bottleneck on its own;
each reads on uvloop and parses with orjson (``--client-loop asyncio``: the standard loop), because on a
small machine the generator shares the cores with the server and every CPU millisecond it spends per action
is taken from the server. ``--server-arg`` passes an argument to the embedded server (e.g.
``--server-arg=--loop=uvloop``). Only 127.0.0.1 is ever used.

    .venv/bin/python benchmarks/load.py --rooms 200 --seconds 30
    .venv/bin/python benchmarks/load.py --rooms 200 --think-ms 300 --server-src /tmp/load-base/src
    .venv/bin/python benchmarks/load.py --nodes 1,2 --rooms 40,80 --seconds 20
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing as mp
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
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


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        port: int = s.getsockname()[1]
        return port


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


def window_counts(stats: dict[str, Any]) -> tuple[int, list[float]]:
    """Accepted actions and latencies (seconds) that happened *inside* the measured window.

    An action counts when its ack arrived in ``[start, end)``; a latency counts when the action was sent at
    or after ``start`` and all views held it before ``end``. Actions of the set-up period (rooms start
    playing while others are still being opened) are left out: dividing them by the window's length is what
    overstated actions/s by 1.35-2.05x before (docs/decisions/0022-honest-benchmarks.md).
    """
    start, end = stats["window"]
    actions = sum(1 for t in stats["ack_times"] if start <= t < end)
    latencies = [done - sent for sent, done in stats["latency_pairs"] if sent >= start and done < end]
    return actions, latencies


def relay_counts(stats: dict[str, Any]) -> tuple[list[float], list[float]]:
    """Own-ack latencies (seconds) inside the window: of actions sent on the room's owner, and elsewhere."""
    start, end = stats["window"]
    local: list[float] = []
    remote: list[float] = []
    for sent, acked, on_owner in stats.get("ack_pairs", []):
        if sent >= start and acked < end:
            (local if on_owner else remote).append(acked - sent)
    return local, remote


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


def rss_kib(pid: int) -> tuple[int, int]:
    values = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, rest = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            values[key] = int(rest.split()[0])
    return values.get("VmRSS", 0), values.get("VmHWM", 0)


def cpu_seconds(pid: int) -> float:
    """utime + stime of a process, in seconds (from /proc/<pid>/stat)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def percentile(data: list[float], q: float) -> float:
    if not data:
        return float("nan")
    ordered = sorted(data)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rooms", default="200", help="rooms, or a comma list of room counts to run in turn")
    ap.add_argument("--seconds", type=float, default=30.0, help="measured time after all rooms are set up")
    ap.add_argument("--players", type=int, default=6)
    ap.add_argument("--spectators", type=int, default=2)
    ap.add_argument("--mode", default="holdem")
    ap.add_argument("--think-ms", type=float, default=1500.0, help="mean think time before an action")
    ap.add_argument("--hints", action="store_true", help="turn the hint option on in every room")
    ap.add_argument("--no-deltas", dest="deltas", action="store_false",
                    help="full view frames only (default: opt in to viewDelta, docs/protocol.md §2.8)")
    ap.add_argument("--workers", type=int, default=2, help="load-generator processes")
    ap.add_argument("--setup-seconds", type=float, default=40.0, help="time allowed to open every room")
    ap.add_argument("--port", type=int, default=0,
                    help="drive an already running server on 127.0.0.1:PORT instead of starting one")
    ap.add_argument("--server-pid", type=int, default=0, help="with --port: the server's pid, for its RSS")
    ap.add_argument("--server-src", default="", metavar="DIR",
                    help="run the server from this tree's src/ (PYTHONPATH), e.g. a base worktree, while the "
                         "load generator stays this one: the same clients against two servers")
    ap.add_argument("--client-loop", choices=("uvloop", "asyncio"), default="uvloop",
                    help="the load generator's event loop (default uvloop where installed: the generator "
                         "shares the machine's cores with the server, so its CPU per frame is the server's "
                         "headroom)")
    ap.add_argument("--server-arg", action="append", default=[], metavar="ARG",
                    help="an extra argument for the embedded server (repeatable), e.g. "
                         "--server-arg=--loop=uvloop")
    ap.add_argument("--record", default="", metavar="PATH",
                    help="also write every worker's raw timings (acks, round trips, window) as JSON")
    ap.add_argument("--nodes", default="", metavar="N[,N...]",
                    help="cluster nodes on Redis + PostgreSQL instead of one SQLite server, e.g. 1,2")
    ap.add_argument("--lease-ttl", type=float, default=5.0, help="--nodes: the nodes' lease TTL")
    ap.add_argument("--p99-ms", type=float, default=100.0, help="--nodes: the p99 a run must stay under")
    args = ap.parse_args()

    room_counts = [int(x) for x in str(args.rooms).split(",") if x]
    if args.port or not args.nodes:
        worst = 0
        for rooms in room_counts:
            args.rooms = rooms
            worst = max(worst, single(args) if not args.port else
                        drive(args, [args.port], [args.server_pid] if args.server_pid else [])["exit"])
        return worst
    return cluster_runs(args, [int(x) for x in args.nodes.split(",")], room_counts)


def single(args: argparse.Namespace) -> int:
    """Today's embedded server: one ``pokerroom serve`` on SQLite."""
    sockets = args.rooms * (args.players + args.spectators)
    port = free_port()
    data = tempfile.mkdtemp(prefix="pokerroom-load-")
    env = dict(os.environ)
    if args.server_src:
        env["PYTHONPATH"] = str(Path(args.server_src).resolve())
    print(f"server sources: {env.get('PYTHONPATH', '(installed pokerroom)')}", flush=True)
    server = subprocess.Popen(
        [sys.executable, "-m", "pokerroom", "serve", "--host", HOST, "--port", str(port), "--data-dir", data,
         "--max-rooms", str(args.rooms + 10), "--max-connections", str(sockets + 100),
         # every scripted client comes from this one address: lift the per-address caps (they would refuse it)
         "--rooms-per-address", "0", "--room-creations-per-minute", "0", "--connections-per-address", "0",
         "--log-level", "warning", *args.server_arg],
        env=env,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(f"http://{HOST}:{port}/healthz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline or server.poll() is not None:
                print("the server did not start", file=sys.stderr)
                return 1
            time.sleep(0.2)
        return int(drive(args, [port], [server.pid])["exit"])
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()


def cluster_runs(args: argparse.Namespace, node_counts: list[int], room_counts: list[int]) -> int:
    """Every (nodes, rooms) run on fresh nodes; then the best actions/s under the p99 bar per node count,
    the ratio to the first node count, and the relay's added own-ack latency."""
    from cluster_nodes import Nodes

    runs: list[dict[str, Any]] = []
    worst = 0
    for n in node_counts:
        for rooms in room_counts:
            args.rooms = rooms
            sockets = rooms * (args.players + args.spectators)
            extra = ("--max-rooms", str(rooms + 10), "--max-connections", str(sockets + 100))
            print(f"\n=== {n} node(s), {rooms} rooms ===", flush=True)
            with Nodes(n, extra, lease_ttl=args.lease_ttl) as nodes:
                lookup = {"redis": nodes.redis_url, "prefix": nodes.prefix,
                          "ports": {node.node_id: node.port for node in nodes.nodes}}
                fig = drive(args, nodes.ports, nodes.pids, lookup)
            worst = max(worst, fig["exit"])
            runs.append({"nodes": n, "rooms": rooms, **fig})
    print("\n=== summary (the scale-out aim: 2 nodes should carry >= 1.7x, a relay hop < 2 ms at p50) ===")
    best: dict[int, dict[str, Any]] = {}
    for n in node_counts:
        ok = [r for r in runs if r["nodes"] == n and r["p99"] < args.p99_ms and r["exit"] == 0]
        if ok:
            best[n] = max(ok, key=lambda r: r["rate"])
            b = best[n]
            print(f"{n} node(s): {b['rate']:.1f} actions/s at p99 {b['p99']:.1f} ms ({b['rooms']} rooms, "
                  f"CPU {b['cpu_ms']:.1f} ms/action, load {b['load']:.1f})")
        else:
            print(f"{n} node(s): no run kept p99 under {args.p99_ms:.0f} ms without errors")
    if len(best) > 1:
        base = best[node_counts[0]]["rate"]
        for n in node_counts[1:]:
            if n in best:
                print(f"ratio {n} / {node_counts[0]} node(s): {best[n]['rate'] / base:.2f}x")
    for rooms in room_counts:  # the same load on each node count, whatever its p99
        same = {r["nodes"]: r for r in runs if r["rooms"] == rooms}
        cells = ", ".join(f"{n} node(s) {same[n]['rate']:.1f}/s p99 {same[n]['p99']:.0f} ms" for n in same)
        base_run = same.get(node_counts[0])
        ratio = "".join(f", ratio {n}/{node_counts[0]}: {same[n]['rate'] / base_run['rate']:.2f}x"
                        for n in node_counts[1:] if n in same and base_run and base_run["rate"])
        print(f"{rooms} rooms: {cells}{ratio}")
    # the relay's cost: inside the same multi-node runs (same load), own acks sent on the owner vs elsewhere
    local = [x for r in runs if r["nodes"] > 1 for x in r["local"]]
    remote = [x for r in runs if r["nodes"] > 1 for x in r["remote"]]
    if local and remote:
        print(f"own ack on the owner: p50 {percentile(local, 0.5):.1f} ms, "
              f"p99 {percentile(local, 0.99):.1f} ms "
              f"({len(local)}); through the relay: p50 {percentile(remote, 0.5):.1f} ms, "
              f"p99 {percentile(remote, 0.99):.1f} ms ({len(remote)})")
        print(f"relay added per action: p50 {percentile(remote, 0.5) - percentile(local, 0.5):.1f} ms, "
              f"p99 {percentile(remote, 0.99) - percentile(local, 0.99):.1f} ms")
    return worst


def drive(args: argparse.Namespace, ports: list[int], pids: list[int],
          lookup: dict[str, Any] | None = None) -> dict[str, Any]:
    """Run the load-generator processes against the nodes on ``ports`` and print the figures."""
    sockets = args.rooms * (args.players + args.spectators)
    for port in ports:
        while not httpx.get(f"http://{HOST}:{port}/healthz", timeout=5).json().get("warm", True):
            time.sleep(0.5)  # let the bot/hint warm-up thread finish before measuring
    ctx = mp.get_context("spawn")
    queue = ctx.Queue()
    start_at = time.time() + args.setup_seconds
    shares = [args.rooms // args.workers + (i < args.rooms % args.workers) for i in range(args.workers)]
    firsts = [sum(shares[:i]) for i in range(len(shares))]
    procs = [ctx.Process(target=worker, args=(ports, n, args, start_at, i + 1, queue, firsts[i], lookup))
             for i, n in enumerate(shares) if n]
    for p in procs:
        p.start()
    time.sleep(max(0.0, start_at - time.time()))
    cpu0, load0 = sum(cpu_seconds(pid) for pid in pids), os.getloadavg()[0]
    time.sleep(args.seconds)
    cpu1, load1 = sum(cpu_seconds(pid) for pid in pids), os.getloadavg()[0]
    results = [queue.get() for _ in procs]
    for p in procs:
        p.join()
    if args.record:
        Path(args.record).write_text(json.dumps(results), encoding="utf-8")
    rss = hwm = 0
    for pid in pids:
        r, h = rss_kib(pid)
        rss, hwm = rss + r, hwm + h
    insides = [httpx.get(f"http://{HOST}:{port}/healthz", timeout=30).json().get("changeMs", {})
               for port in ports]

    total = Stats()
    actions = 0
    lat = []
    local: list[float] = []
    remote: list[float] = []
    view_bytes: list[int] = []
    window_bytes = hands = resyncs = 0
    for r in results:
        view_bytes += r["view_bytes"]
        window_bytes += r["window_bytes"]
        hands += r["hands"]
        resyncs += r["resyncs"]
        n, latencies = window_counts(r)
        actions += n
        lat += [x * 1000 for x in latencies]
        on_owner, relayed = relay_counts(r)
        local += [x * 1000 for x in on_owner]
        remote += [x * 1000 for x in relayed]
        total.stale += r["stale"]
        for kind, n in r.get("stale_by_type", {}).items():
            total.stale_by_type[kind] = total.stale_by_type.get(kind, 0) + n
        total.cpu += r.get("cpu", 0.0)
        total.closes += r["closes"]
        total.setup_failures += r["setup_failures"]
        total.sockets += r["sockets"]
        for code, n in r["errors"].items():
            total.errors[code] = total.errors.get(code, 0) + n
    errors = sum(total.errors.values()) + total.closes + total.setup_failures
    where = f"{len(ports)} cluster node(s)" if lookup is not None else "one server"
    print(f"rooms {args.rooms} ({args.players} players + {args.spectators} spectators), "
          f"sockets {total.sockets}/{sockets}, mode {args.mode}, think {args.think_ms:.0f} ms, "
          f"{args.seconds:.0f} s measured, {where}, "
          f"{os.cpu_count()} CPUs")
    print(f"actions accepted inside the window: {actions} ({actions / args.seconds:.1f}/s)")
    print(f"action -> all views latency: p50 {percentile(lat, 0.50):.1f} ms, "
          f"p99 {percentile(lat, 0.99):.1f} ms, max {max(lat, default=float('nan')):.1f} ms "
          f"({len(lat)} samples)")
    if lookup is not None:
        print(f"own ack: sent on the owner p50 {percentile(local, 0.5):.1f} ms "
              f"p99 {percentile(local, 0.99):.1f} ms "
              f"({len(local)}), through the relay p50 {percentile(remote, 0.5):.1f} ms "
              f"p99 {percentile(remote, 0.99):.1f} ms ({len(remote)})")
    print(f"errors: {errors} (error frames {total.errors or 0}, unexpected closes {total.closes}, "
          f"setup failures {total.setup_failures}); stale_version retries inside the window: {total.stale} "
          f"{dict(sorted(total.stale_by_type.items(), key=lambda kv: -kv[1]))}")
    print(f"server RSS: {rss / 1024:.0f} MiB (peak {hwm / 1024:.0f} MiB)")
    for port, inside in zip(ports, insides, strict=True):
        print(f"server-side change time on :{port} (store write + views + frames queued, last "
              f"{inside.get('n', 0)}): p50 {inside.get('p50', float('nan'))} ms, "
              f"p99 {inside.get('p99', float('nan'))} ms, max {inside.get('max', float('nan'))} ms")
    deltas = "on" if args.deltas and apply_delta is not None else "off"
    print(f"bytes per view frame (deltas {deltas}): median {percentile(view_bytes, 0.5):,.0f}, "
          f"p90 {percentile(view_bytes, 0.9):,.0f}; per socket per hand: "
          f"{window_bytes / max(1, total.sockets) / (hands / args.rooms) if hands else float('nan'):,.0f} "
          f"({hands} hands in the window, {window_bytes / 1e6:.1f} MB received); resyncs {resyncs}")
    busy = cpu1 - cpu0
    per_action = busy / actions * 1000 if actions else float("nan")
    print(f"server CPU in the measured window: {busy:.1f} s ({busy / args.seconds:.0%} of one core), "
          f"{per_action:.2f} ms per accepted action; machine load average {load0:.1f} -> {load1:.1f}",
          flush=True)
    print(f"load generator CPU in the window: {total.cpu:.1f} s over {len(results)} worker(s) "
          f"({total.cpu / args.seconds / max(1, len(results)):.0%} of one core each)", flush=True)
    return {"exit": 0 if errors == 0 else 1, "rate": actions / args.seconds, "p99": percentile(lat, 0.99),
            "p50": percentile(lat, 0.5), "cpu_ms": per_action, "load": load1, "local": local,
            "remote": remote}


if __name__ == "__main__":
    sys.exit(main())
