"""Replays the second round of attacks (docs/decisions/0039-abuse-round-two.md) against a real ``pokerroom
serve`` on loopback and prints what each one gets and what it costs a victim room: history by reconnecting,
a resync flood (each from 127.0.0.2, in a process of its own, so the victim's timing is not the attacker's
event loop), 12 addresses filling the house under ``ulimit -n 1024``, and a forged ``X-Forwarded-For`` from
this machine. The victim is two players acting at once in their own room (action -> ack, ms).

``--base-src DIR`` runs the server from another source tree (e.g. ``git archive <commit> src | tar -x -C
/tmp/base``, then ``--base-src /tmp/base/src``): the same attacks against the code before, in the same run
conditions, for the before/after figures.

    PYTHONPATH=src python benchmarks/abuse.py [--seconds 10] [--base-src DIR]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import resource
import socket
import sys
import tempfile
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "server"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from abuse_helpers import in_another_process
from hardening_helpers import Victim, bot_room, hello, ws_open

from serving import ServeProcess, serve

FAST = ("--time-scale", "0.003", "--bot-delay-ms", "100")


def _victim_row(name: str, quiet: dict[str, float], attacked: dict[str, float], got: str, rss: float,
                cpu: tuple[float, float] | None = None) -> None:
    busy = f"  server CPU {cpu[0]:3.0f} -> {cpu[1]:3.0f} %" if cpu is not None else ""
    print(f"{name:<26} victim p50 {quiet['p50']:5.1f} -> {attacked['p50']:6.1f} ms, "
          f"p99 {quiet['p99']:5.1f} -> {attacked['p99']:6.1f} ms (n={attacked['n']:.0f})  RSS {rss:4.0f} MB"
          f"{busy}  {got}", flush=True)


def _cpu_seconds(srv: ServeProcess) -> float:
    """The server process's CPU time so far (user + system, from /proc), to say what an attack costs it:
    the victim's p99 over ~150 acks is the second-slowest ack, and on a shared machine it moves by 10 ms
    between runs of the same code."""
    assert srv.proc is not None
    fields = Path(f"/proc/{srv.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def _under_attack(srv: ServeProcess, attack: str, seconds: float) -> None:
    rooms = await asyncio.gather(*(bot_room(srv, hands=10, bots=5) for _ in range(3)))
    victim = Victim(srv)
    await victim.start()
    await asyncio.sleep(1.0)
    victim.latencies_ms.clear()
    cpu0, t0 = _cpu_seconds(srv), time.monotonic()
    await asyncio.sleep(seconds / 2)
    quiet = victim.figures()
    cpu_quiet = 100 * (_cpu_seconds(srv) - cpu0) / (time.monotonic() - t0)
    cpu0, t0 = _cpu_seconds(srv), time.monotonic()

    async def settled() -> None:
        await asyncio.sleep(1.0)  # the first second is 60 sockets opening at once, as 60 friends would
        victim.latencies_ms.clear()

    counts, _ = await asyncio.gather(in_another_process(
        attack, srv.port, seconds, "127.0.0.2", *[code for code, _ in rooms]), settled())
    cpu_attacked = 100 * (_cpu_seconds(srv) - cpu0) / (time.monotonic() - t0)
    attacked = await victim.stop()
    if attack == "churn":
        got = (f"history answers {counts['history'] / seconds:.0f}/s ({counts['bytes'] / seconds / 1e6:.2f} "
               f"MB/s), {counts['refused']} refused, {counts['socketsRefused']} sockets turned away")
    else:
        got = (f"whole views {counts['view'] / seconds:.0f}/s for {60 * 18} asked a second, "
               f"{counts['error']} errors")
    _victim_row(f"{attack} (60 workers)", quiet, attacked, got, srv.rss_mb(), (cpu_quiet, cpu_attacked))
    for _, host in rooms:
        host.transport.abort()


def _full_house(data: Path, env: dict[str, str]) -> None:
    srv = serve(data / "full", "--hello-timeout", "120", nofile=1024, env=env)
    held: list[socket.socket] = []
    try:
        code = srv.create_room()["code"]
        t0 = time.monotonic()
        for _ in range(100):
            for a in range(12):
                with contextlib.suppress(OSError):
                    s = socket.socket()
                    s.bind((f"127.0.2.{a + 1}", 0))
                    s.settimeout(5)
                    s.connect(("127.0.0.1", srv.port))
                    s.sendall(f"GET /ws/{code} HTTP/1.1\r\nHost: 127.0.0.1:{srv.port}\r\n"
                              "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
                              "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n".encode())
                    held.append(s)
        time.sleep(1.0)
        flooded = time.monotonic() - t0
        health_ms: list[float] = []
        failures = 0
        for _ in range(20):
            started = time.perf_counter()
            try:
                ok = httpx.get(f"{srv.http}/healthz", timeout=5).status_code == 200
            except httpx.HTTPError:
                ok = False
            health_ms.append((time.perf_counter() - started) * 1000)
            failures += not ok

        async def newcomer() -> str:
            try:
                ws = await ws_open(srv.ws_url(code), source="127.0.3.1")
                return str((await hello(ws, nickname="새친구"))["role"])
            except Exception as exc:
                return f"refused ({type(exc).__name__})"

        seat = asyncio.run(newcomer())
        health_ms.sort()
        print(f"{'12 addresses x 100 sockets':<26} {len(held)} opened in {flooded:.1f} s; /healthz "
              f"{20 - failures}/20 answered, median {health_ms[10]:.0f} ms, max {health_ms[-1]:.0f} ms; "
              f"newcomer: {seat}; RSS {srv.rss_mb():.0f} MB", flush=True)
    finally:
        for s in held:
            s.close()
        srv.stop()


def _forged(data: Path, env: dict[str, str]) -> None:
    srv = serve(data / "forged", "--rooms-per-address", "3", "--room-creations-per-minute", "100", env=env)
    try:
        with httpx.Client() as client:
            got = [client.post(f"{srv.http}/api/rooms", json={"nickname": "가", "options": {}}, timeout=10,
                               headers={"X-Forwarded-For": f"10.0.0.{i}"}).status_code for i in range(20)]
        print(f"{'forged X-Forwarded-For':<26} {got.count(201)} of 20 rooms created (cap 3)", flush=True)
    finally:
        srv.stop()


def main(seconds: float, base_src: str | None) -> int:
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # the attacker needs many descriptors
    env = {"PYTHONPATH": os.pathsep.join([base_src, os.environ.get("PYTHONPATH", "")])} if base_src else {}
    data = Path(tempfile.mkdtemp(prefix="pokerroom-abuse-"))
    print(f"server source: {base_src or 'this tree'}; attacks of {seconds:.0f} s", flush=True)
    for attack in ("churn", "resync"):
        srv = serve(data / attack, *FAST, env=env)
        try:
            asyncio.run(_under_attack(srv, attack, seconds))
        finally:
            srv.stop()
    _full_house(data, env)
    _forged(data, env)
    return 0


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=10.0, help="length of each attack (at most 60)")
    ap.add_argument("--base-src", default=None, help="run the server from this source tree (before figures)")
    args = ap.parse_args()
    sys.exit(main(min(60.0, max(2.0, args.seconds)), args.base_src))
