"""Failover time of a cluster room (the promise: lease TTL + 2 s for the sockets on the survivors, TTL + 4 s
for those that were on the dead node): SIGKILL the node owning a room mid-hand, time until every socket
holds a fresh snapshot from the new owner; ``--kills`` times (default 20).

Three nodes on the machine's Redis and PostgreSQL (a fresh database and key prefix, see cluster_nodes.py).
One room, two players and two spectators on every node. The spectators follow the web client's connection
rules (net.js): a socket whose node dies reconnects after net.js's back-off (0.5 s doubling, +-20 %) through a
balancer (the next node in turn; one that refuses is passed over, as nginx does), says hello again and waits
for its room. Each round: find the owner (its Redis lease), SIGKILL it, and record for every spectator the
first view frame after the kill, apart for the *victim's* sockets (on the dead node) and the *survivors'*,
and every error frame they got; then restart the killed node and put two new spectators on it.
Prints min / median / max of each against its promise, the error frames by code, with the machine's load
average.

    .venv/bin/python benchmarks/failover.py --kills 20 --lease-ttl 5
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import sys
import time
from collections import Counter
from typing import Any

import httpx
import websockets

from cluster_nodes import HOST, Nodes, owner_port


class Watcher:
    """A spectator socket that follows net.js: on a close it reconnects through the balancer after net.js's
    back-off, says hello again, and goes on; remembers when each view frame arrived and every error."""

    def __init__(self, ports: list[int], port: int, rnd: random.Random) -> None:
        self.ports = ports  # the balancer's nodes, in turn
        self.port = port  # the node the current socket is on
        self.rnd = rnd
        self.views: list[float] = []
        self.errors: list[tuple[float, str]] = []  # (arrival, error code)
        self.frames: list[tuple[float, str]] = []  # (arrival, the frame's first 60 characters)
        self.ws: Any = None
        self.code = ""
        self.task: asyncio.Task[None] | None = None

    async def open(self, code: str) -> None:
        self.code = code
        self.ws = await self._connect(self.port)
        self.task = asyncio.ensure_future(self.run())

    async def _connect(self, port: int) -> Any:
        ws = await websockets.connect(f"ws://{HOST}:{port}/ws/{self.code}", ping_interval=None,
                                      max_size=2**22, open_timeout=30)
        await ws.send(json.dumps({"type": "hello", "spectate": True}))
        return ws

    async def run(self) -> None:
        attempt = 0
        while True:
            try:
                async for raw in self.ws:
                    now = time.monotonic()
                    self.frames.append((now, raw[:60]))
                    if raw.startswith('{"type":"view"'):
                        self.views.append(now)
                    elif raw.startswith('{"type":"welcome"'):
                        attempt = 0
                    elif raw.startswith('{"type":"error"'):
                        self.errors.append((now, str(json.loads(raw).get("code"))))
            except websockets.ConnectionClosed:
                pass
            code = self.ws.close_code
            if code == 4404:
                return
            while True:  # net.js scheduleRetry, then the balancer
                if code in (4012, 1012) and attempt == 0:
                    delay = 0.15 + self.rnd.random() * 0.85
                else:
                    delay = min(10.0, 0.5 * 2 ** min(attempt, 5)) * (0.8 + self.rnd.random() * 0.4)
                attempt += 1
                await asyncio.sleep(delay)
                start = self.ports.index(self.port) + 1
                for i in range(len(self.ports)):
                    port = self.ports[(start + i) % len(self.ports)]
                    try:
                        self.ws = await self._connect(port)
                    except (OSError, TimeoutError, websockets.WebSocketException):
                        continue
                    self.port = port
                    break
                else:
                    continue
                break

    def first_after(self, t0: float) -> float | None:
        return next((t for t in self.views if t > t0), None)

    def errors_after(self, t0: float) -> list[str]:
        return [c for t, c in self.errors if t > t0]


Round = tuple[list[float], list[float], list[str]]  # victims' times, survivors' times, error codes


async def rounds(nodes: Nodes, kills: int, budget: float, refused: list[int]) -> list[Round]:
    ports = {n.node_id: n.port for n in nodes.nodes}
    rnd = random.Random(1)
    base = f"http://{HOST}:{nodes.ports[0]}"
    created = httpx.post(f"{base}/api/rooms", json={"nickname": "방장", "options": {
        "mode": "holdem", "turnSeconds": 60, "hints": False}}, timeout=10).json()
    code = created["code"]
    players = []
    for i, hello in enumerate(({"token": created["token"]}, {"nickname": "둘"})):
        ws = await websockets.connect(f"ws://{HOST}:{nodes.ports[i + 1]}/ws/{code}", ping_interval=None,
                                      max_size=2**22)
        await ws.send(json.dumps({"type": "hello", **hello}))
        while not (await asyncio.wait_for(ws.recv(), 30)).startswith('{"type":"welcome"'):
            pass
        players.append(ws)
    watchers = [Watcher(nodes.ports, n.port, rnd) for n in nodes.nodes for _ in range(2)]
    for w in watchers:
        await w.open(code)
    await players[0].send(json.dumps({"type": "start"}))  # a hand under way, nobody acts (60 s turns)
    end = time.monotonic() + 30
    while any(not w.views for w in watchers) and time.monotonic() < end:
        await asyncio.sleep(0.05)
    await asyncio.sleep(1.0)
    out: list[Round] = []
    for k in range(kills):
        owner = await asyncio.to_thread(owner_port, nodes.redis_url, nodes.prefix, code, ports)
        victim = next(n for n in nodes.nodes if n.port == owner)
        on_victim = [w for w in watchers if w.port == owner]
        t0 = time.monotonic()
        victim.kill()
        end = t0 + budget + 30
        while time.monotonic() < end and any(w.first_after(t0) is None for w in watchers):
            await asyncio.sleep(0.01)
        if any(w.first_after(t0) is None for w in watchers):
            print(f"kill {k + 1}: a socket got no snapshot within {budget + 30:.0f} s", flush=True)
            for w in watchers:
                after = [f for t, f in w.frames if t > t0][:6]
                print(f"  socket on :{w.port}{' (victim)' if w in on_victim else ''}: frames after the kill "
                      f"{after}")
            return out
        mine = [w.first_after(t0) - t0 for w in on_victim]  # type: ignore[operator]
        theirs = [w.first_after(t0) - t0 for w in watchers if w not in on_victim]  # type: ignore[operator]
        errors = [c for w in watchers for c in w.errors_after(t0)]
        out.append((mine, theirs, errors))
        print(f"kill {k + 1}: victim's {len(mine)} sockets {fmt(mine)}, survivors' {len(theirs)} sockets "
              f"{fmt(theirs)}, error frames {errors or 'none'}, load {os.getloadavg()[0]:.1f}", flush=True)
        await asyncio.to_thread(victim.start)
        await asyncio.to_thread(victim.wait_ready)
        for _ in range(2):  # two spectators on the restarted node again, admitted (they got a view)
            w = Watcher(nodes.ports, victim.port, rnd)
            await w.open(code)
            t1 = time.monotonic()
            while not w.views and time.monotonic() < t1 + 15:
                await asyncio.sleep(0.05)
            if not w.views:
                refused[0] += 1
                print(f"  a spectator on the restarted node got no view in 15 s: "
                      f"{[f for _t, f in w.frames][:3]}", flush=True)
            watchers.append(w)
    return out


def spread(xs: list[float]) -> str:
    return f"min {min(xs):.2f} / median {statistics.median(xs):.2f} / max {max(xs):.2f} s"


def fmt(xs: list[float]) -> str:
    return f"first {min(xs):.2f} s / last {max(xs):.2f} s" if xs else "-"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--kills", type=int, default=20)
    ap.add_argument("--lease-ttl", type=float, default=5.0,
                    help="the nodes' lease TTL (production default 5)")
    args = ap.parse_args()
    promise = {"survivors'": args.lease_ttl + 2.0, "victim's": args.lease_ttl + 4.0}
    load0 = os.getloadavg()[0]
    with Nodes(3, lease_ttl=args.lease_ttl) as nodes:
        refused = [0]
        out = asyncio.run(rounds(nodes, args.kills, promise["survivors'"], refused))
    if not out:
        return 1
    print(f"{len(out)} kills, lease TTL {args.lease_ttl:g} s, load average {load0:.1f} -> "
          f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    over = 0
    for name, pick in (("victim's", 0), ("survivors'", 1)):
        budget = promise[name]
        firsts = [min(r[pick]) for r in out if r[pick]]
        lasts = [max(r[pick]) for r in out if r[pick]]
        if not lasts:
            continue
        over += sum(1 for x in lasts if x > budget)
        print(f"kill -> fresh view, {name} sockets (promise {budget:g} s): first {spread(firsts)}; "
              f"last {spread(lasts)}")
    errors = Counter(c for r in out for c in r[2])
    print(f"error frames after the kills: {dict(errors) or 'none'}; over the promise: {over} of "
          f"{2 * len(out)}; spectators refused on a restarted node: {refused[0]}")
    return 0 if len(out) == args.kills and over == 0 and not refused[0] and not errors else 1


if __name__ == "__main__":
    sys.exit(main())
