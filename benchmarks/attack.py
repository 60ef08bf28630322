"""Replays the attacks the edge caps answer (slow readers, room floods, socket floods, history amplification:
docs/decisions/0009-byte-bounded-send-queues.md and 0011-edge-caps.md) against a real ``pokerroom serve`` on
loopback and prints what they cost the server: its RSS (from /proc), a victim room's action->ack p50/p99 (two
players acting at once in their own room, timed from frame arrival), and what was refused.

The server runs with a 1,024-descriptor limit (like ``ulimit -n 1024``), the attackers come from other
loopback addresses (127.0.0.2, 127.0.1.x) and every phase is a bounded loop of at most ``--seconds``
(default 20, at most 60). The "quiet" phase measures the victim alone, as the peer of every other phase.

    PYTHONPATH=src python benchmarks/attack.py [--seconds 20]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import resource
import socket
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "server"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from hardening_helpers import Victim, bot_room, flood_history, spectators_not_reading

from serving import ServeProcess, serve

NOFILE = 1024


def _row(name: str, rss0: float, rss_peak: float, victim: dict[str, float], refused: str) -> None:
    print(f"{name:<34} RSS {rss0:6.0f} -> {rss_peak:6.0f} MB   victim p50 {victim['p50']:6.1f} ms  "
          f"p99 {victim['p99']:6.1f} ms  (n={victim['n']:.0f})   {refused}", flush=True)


class Sampler:
    """Peak RSS of the server while a phase runs."""

    def __init__(self, srv: ServeProcess) -> None:
        self.srv = srv
        self.peak = srv.rss_mb()
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        while True:
            self.peak = max(self.peak, self.srv.rss_mb())
            await asyncio.sleep(0.2)

    def stop(self) -> float:
        self._task.cancel()
        return max(self.peak, self.srv.rss_mb())


async def _phase(srv: ServeProcess, victim: Victim, seconds: float,
                 attack: Any) -> tuple[float, float, dict[str, float], Any]:
    rss0 = srv.rss_mb()
    victim.latencies_ms.clear()
    sampler = Sampler(srv)
    outcome = await attack(seconds)
    peak = sampler.stop()
    return rss0, peak, victim.figures(), outcome


async def history_flood(srv: ServeProcess, codes: list[str], per_room: int, seconds: float,
                        rate: float, source: str) -> dict[str, int]:
    """Items 1 and 5: spectators from ``source`` that ask for history ``rate`` times a second and never read.
    Each phase comes from an address of its own: the server's hellos are rated per client (a burst of 100),
    and a phase of 100 sockets after one of 40 from the same address was turned away (1013)."""
    sockets = [ws for code in codes for ws in await spectators_not_reading(srv, code, per_room, source)]
    sent = await flood_history(sockets, seconds, rate)
    queue = srv.healthz()["sendQueue"]
    dropped = sum(1 for ws in sockets if ws.close_code is not None)
    for ws in sockets:
        ws.transport.abort()
    return {"requests": sent, "dropped": dropped, "peakQueue": queue["peakPerSocket"]}


async def room_flood(srv: ServeProcess, seconds: float) -> dict[str, int]:
    """Item 3: one client creates rooms as fast as it can; then another client still can."""
    codes: dict[int, int] = {}
    end = time.monotonic() + seconds
    async with httpx.AsyncClient(transport=httpx.AsyncHTTPTransport(local_address="127.0.0.2")) as client:
        while time.monotonic() < end and sum(codes.values()) < 5000:
            r = await client.post(f"{srv.http}/api/rooms", json={"nickname": "공격", "options": {}})
            codes[r.status_code] = codes.get(r.status_code, 0) + 1
    async with httpx.AsyncClient() as other_client:
        other = (await other_client.post(f"{srv.http}/api/rooms",
                                         json={"nickname": "손님", "options": {}})).status_code
    return {"created": codes.get(201, 0), "refused429": codes.get(429, 0), "refused503": codes.get(503, 0),
            "otherClient": other}


def _connect_many(port: int, sources: list[str], count: int, deadline: float) -> list[socket.socket]:
    held: list[socket.socket] = []
    for i in range(count):
        if time.monotonic() > deadline:
            break
        s = socket.socket()
        s.setblocking(False)
        try:
            s.bind((sources[i % len(sources)], 0))
            s.connect_ex(("127.0.0.1", port))
        except OSError:
            s.close()
            continue
        held.append(s)
    return held


async def socket_flood(srv: ServeProcess, seconds: float, sources: list[str], count: int) -> dict[str, Any]:
    """Item 4: thousands of idle sockets (and silent websockets) from one or many addresses, while
    /healthz is asked from another address."""
    before = srv.healthz()["tcp"]
    end = time.monotonic() + seconds
    # blocking socket work runs in a thread, so the victim's event loop (same process) is not delayed by it
    held = await asyncio.to_thread(_connect_many, srv.port, sources, count, end)
    health_ms: list[float] = []
    failures = 0
    async with httpx.AsyncClient(timeout=2) as client:
        while time.monotonic() < end:
            t0 = time.perf_counter()
            try:
                await client.get(f"{srv.http}/healthz")
                health_ms.append((time.perf_counter() - t0) * 1000)
            except httpx.HTTPError:
                failures += 1
            await asyncio.sleep(0.25)
    stats = srv.healthz()["tcp"]
    for s in held:
        s.close()
    health_ms.sort()
    delta = {key: stats[key] - before[key] for key in ("refusedPerAddress", "refusedTotal", "headerTimeouts",
                                                       "evicted")}
    return {"attempted": len(held), "serverOpenAtEnd": stats["open"], "cap": stats["cap"], **delta,
            "healthzMaxMs": round(health_ms[-1], 1) if health_ms else None, "healthzFailures": failures}


async def main(seconds: float) -> int:
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # the attacker needs many descriptors
    data = Path(tempfile.mkdtemp(prefix="pokerroom-attack-"))
    srv = serve(data, "--time-scale", "0.003", "--bot-delay-ms", "100", "--header-timeout", "5",
                nofile=NOFILE)
    try:
        print(f"pokerroom serve pid {srv.proc.pid}, descriptor limit {NOFILE}, phases of {seconds:.0f} s; "
              f"victim = 2 players acting at once in their own room", flush=True)
        rooms = await asyncio.gather(*(bot_room(srv, hands=10, bots=9) for _ in range(5)))
        codes = [code for code, _ in rooms]
        victim = Victim(srv)
        await victim.start()
        await asyncio.sleep(1.0)

        async def quiet(s: float) -> str:
            await asyncio.sleep(s)
            return ""

        phases: list[tuple[str, Any]] = [
            ("quiet (victim alone)", quiet),
            ("1: 40 slow history readers", lambda s: history_flood(srv, codes[:2], 20, s, 20.0, "127.0.0.2")),
            ("1: 100 slow history readers", lambda s: history_flood(srv, codes, 20, s, 20.0, "127.0.0.3")),
            ("5: 60 spectators asking history",
             lambda s: history_flood(srv, codes[:3], 20, s, 20.0, "127.0.0.4")),
            ("3: room creation flood", lambda s: room_flood(srv, s)),
            ("4: 5000 sockets from one address", lambda s: socket_flood(srv, s, ["127.0.0.2"], 5000)),
            ("4: 1200 sockets from 200 addresses",
             lambda s: socket_flood(srv, s, [f"127.0.1.{i}" for i in range(1, 201)], 1200)),
        ]
        for name, attack in phases:
            rss0, peak, fig, outcome = await _phase(srv, victim, seconds, attack)
            _row(name, rss0, peak, fig, json.dumps(outcome, ensure_ascii=False) if outcome else "")
            await asyncio.sleep(1.0)
        await victim.stop()
        log = srv.output()
        print(f"server log: {len(log.splitlines())} lines, {len(log.encode())} bytes, "
              f"{log.count('Too many open files')} mention EMFILE", flush=True)
    finally:
        srv.stop()
    return 0


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=20.0, help="length of each attack phase (at most 60)")
    args = ap.parse_args()
    sys.exit(asyncio.run(main(min(60.0, max(1.0, args.seconds)))))
