"""The second round of attacks, as coroutines that count what they got: a history churn by reconnecting, a
resync flood. Shared by ``tests/server/test_abuse.py`` and ``benchmarks/abuse.py`` (the benchmark runs them
longer and prints the figures).

Why an attack may run in a process of its own (:func:`in_another_process`): sixty workers reconnecting in a
loop keep an event loop busy, and a victim measured in that same loop would time the attacker's loop, not
the server. Run as a script, this module runs one attack and prints its counts as JSON, or (``history``)
floods on command (:class:`HistoryFlood`).
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import websockets
from hardening_helpers import flood, flood_history, spectators_not_reading, ws_open

from serving import ServeProcess

HERE = Path(__file__).resolve().parent

CLOSED = (websockets.ConnectionClosed, websockets.InvalidHandshake, OSError, TimeoutError)


def frame_type(raw: str) -> str:
    """A server frame's ``type`` without parsing ~50 KB (frames start ``{"type":"<kind>"``)."""
    return raw[9:raw.index('"', 9)] if raw.startswith('{"type":"') else json.loads(raw)["type"]


async def history_churn(srv: ServeProcess, code: str, seconds: float, source: str,
                        counts: Counter[str]) -> None:
    """One worker: connect, say hello as a spectator, ask ``history`` three times, read the three answers,
    close, again, until ``seconds`` are up. ``counts``: ``history`` answers, ``refused`` (errors),
    ``socketsRefused`` (a socket or hello turned away), ``bytes`` of history."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            ws = await ws_open(srv.ws_url(code), source=source)
        except CLOSED:
            counts["socketsRefused"] += 1
            await asyncio.sleep(0.05)
            continue
        try:
            await ws.send('{"type":"hello","spectate":true}')
            first = json.loads(await asyncio.wait_for(ws.recv(), 5))
            if first["type"] != "welcome":
                counts["socketsRefused"] += 1
                await asyncio.sleep(0.05)
                continue
            for _ in range(3):
                await ws.send('{"type":"history"}')
            got = 0
            while got < 3:
                raw = await asyncio.wait_for(ws.recv(), 5)
                kind = frame_type(raw)
                if kind == "history":
                    counts["history"] += 1
                    counts["bytes"] += len(raw)
                    got += 1
                elif kind == "error":
                    counts["refused"] += 1
                    got += 1
        except CLOSED:
            counts["socketsRefused"] += 1
        finally:
            ws.transport.abort()


async def resync_flood(srv: ServeProcess, code: str, spectators: int, seconds: float, per_second: float,
                       source: str, counts: Counter[str]) -> list[Any]:
    """``spectators`` sockets of ``code`` that each ask ``resync`` ``per_second`` times a second and read
    every frame; ``counts["view"]`` whole views received during the flood. Returns the open sockets (their
    readers keep counting until the caller closes them)."""
    sockets = []
    for _ in range(spectators):
        ws = await ws_open(srv.ws_url(code), source=source)
        await ws.send('{"type":"hello","spectate":true}')
        sockets.append(ws)

    async def read(ws: Any) -> None:
        try:
            async for raw in ws:
                counts[frame_type(raw)] += 1
        except CLOSED:
            pass

    readers = [asyncio.ensure_future(read(ws)) for ws in sockets]
    await asyncio.sleep(0.5)  # the welcomes and snapshots are not the flood
    counts.clear()
    await flood(sockets, '{"type":"resync"}', seconds, per_second)
    counts["flood_s"] = int(seconds)
    for r in readers:
        r.cancel()
    return sockets


class _Port:
    """What the attacks need of a server (its websocket URLs), from a port alone."""

    def __init__(self, port: int) -> None:
        self.port = port

    def ws_url(self, code: str) -> str:
        return f"ws://127.0.0.1:{self.port}/ws/{code}"


async def in_another_process(attack: str, port: int, seconds: float, source: str,
                             *codes: str) -> Counter[str]:
    """Run ``attack`` against the server on ``port`` in a child Python process and return its counts:
    "churn" (20 :func:`history_churn` workers per room) or "resync" (a :func:`resync_flood` of 20 spectators
    per room, 18 a second each)."""
    proc = await _child(attack, str(port), str(seconds), source, *codes)
    out, _ = await proc.communicate()
    assert proc.returncode == 0, out
    return Counter(json.loads(out.decode().strip().splitlines()[-1]))


async def _child(*args: str, stdin: int | None = None) -> asyncio.subprocess.Process:
    """This module run as a script with ``args``, its stdout piped (and its stdin, if asked)."""
    return await asyncio.create_subprocess_exec(
        sys.executable, str(Path(__file__).resolve()), *args, stdin=stdin, stdout=asyncio.subprocess.PIPE,
        cwd=str(HERE),
        env={**os.environ, "PYTHONPATH": f"{HERE.parent}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"},
    )


class HistoryFlood:
    """Sixty spectators (20 a room) that never read, in a child process, asking ``history`` 20 times a
    second each whenever :meth:`flood` says so. The child connects once and floods on command (a line on
    its stdin, "done" on its stdout when the burst is over), so a test can alternate quiet and attacked
    seconds against the same sockets while its own event loop only times the victim. Used as ``async
    with``: the child ends with the block, a failed test's too (killed if it does not end by itself)."""

    def __init__(self, port: int, source: str, codes: list[str]) -> None:
        self.args = [str(port), source, *codes]
        self.proc: asyncio.subprocess.Process | None = None

    async def __aenter__(self) -> HistoryFlood:
        self.proc = await _child("history", *self.args, stdin=asyncio.subprocess.PIPE)
        await self._reply()  # "ready": every socket said hello
        return self

    async def flood(self, seconds: float) -> None:
        assert self.proc is not None and self.proc.stdin is not None
        self.proc.stdin.write(f"{seconds}\n".encode())
        await self.proc.stdin.drain()
        await self._reply()

    async def __aexit__(self, *exc: object) -> None:
        assert self.proc is not None and self.proc.stdin is not None
        self.proc.stdin.close()
        try:
            code = await asyncio.wait_for(self.proc.wait(), 10)
        except TimeoutError:
            self.proc.kill()
            raise
        assert code == 0 or exc[0] is not None, f"the history flood's process exited {code}"

    async def _reply(self) -> str:
        assert self.proc is not None and self.proc.stdout is not None
        line = await asyncio.wait_for(self.proc.stdout.readline(), 30)
        assert line, "the history flood's process ended early"
        return line.decode().strip()


async def _history_child(port: int, source: str, codes: list[str]) -> None:
    """The child of :class:`HistoryFlood`: connect, then one burst per line read, until stdin closes."""
    target: Any = _Port(port)
    groups = await asyncio.gather(*(spectators_not_reading(target, code, 20, source) for code in codes))
    loop = asyncio.get_running_loop()
    print("ready", flush=True)
    while line := await loop.run_in_executor(None, sys.stdin.readline):
        await asyncio.gather(*(flood_history(group, float(line), 20.0) for group in groups))
        print("done", flush=True)
    for ws in [w for group in groups for w in group]:
        ws.transport.abort()


async def _main(attack: str, port: int, seconds: float, source: str, codes: list[str]) -> None:
    counts: Counter[str] = Counter()
    target: Any = _Port(port)
    if attack == "churn":
        await asyncio.gather(*(history_churn(target, code, seconds, source, counts)
                               for code in codes for _ in range(20)))
    elif attack == "resync":
        floods = await asyncio.gather(*(resync_flood(target, code, 20, seconds, 18.0, source, counts)
                                        for code in codes))
        for ws in [w for group in floods for w in group]:
            ws.transport.abort()
    print(json.dumps(dict(counts)))


if __name__ == "__main__" and sys.argv[1] == "history":
    asyncio.run(_history_child(int(sys.argv[2]), sys.argv[3], sys.argv[4:]))
elif __name__ == "__main__":
    asyncio.run(_main(sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), sys.argv[4], sys.argv[5:]))
