"""Helpers of the hardening tests: clients from other loopback addresses, a bot room that plays
hands quickly (history to ask for) and a victim room that measures its latency, against a real ``pokerroom
serve`` subprocess (tests/serving.py, which also reads its RSS).

Shared by ``tests/server/test_hardening*.py`` and ``benchmarks/attack.py``: the attacks and the checks are
the same, the benchmark only runs them longer and prints the figures.
"""

from __future__ import annotations

import asyncio
import json
import socket
import time
from collections.abc import Callable
from typing import Any

import websockets

from serving import ServeProcess


async def ws_open(url: str, source: str = "127.0.0.1", rcvbuf: int | None = None, **kw: Any) -> Any:
    """A websocket from ``source`` (any 127.x.y.z: Linux routes all of 127/8 to loopback). ``rcvbuf``: a
    small kernel receive buffer, so a client that stops reading backs up into the server at once (a slow
    phone) instead of into megabytes of loopback buffers."""
    if rcvbuf is None:
        return await websockets.connect(url, max_size=2**22, ping_interval=None, open_timeout=10,
                                        local_addr=(source, 0), **kw)
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    sock.bind((source, 0))
    sock.setblocking(False)
    host, port = url.split("/")[2].split(":")
    await asyncio.get_running_loop().sock_connect(sock, (host, int(port)))
    return await websockets.connect(url, max_size=2**22, ping_interval=None, open_timeout=10, sock=sock, **kw)


async def recv_json(ws: Any, timeout: float = 5.0, kind: str | None = None,
                    pred: Callable[[dict[str, Any]], bool] | None = None) -> dict[str, Any]:
    """The next frame (of type ``kind`` matching ``pred``), as JSON."""
    end = time.monotonic() + timeout
    while True:
        left = end - time.monotonic()
        if left <= 0:
            raise AssertionError(f"no {kind or 'frame'} within {timeout}s")
        msg: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), left))
        if (kind is None or msg["type"] == kind) and (pred is None or pred(msg)):
            return msg


async def hello(ws: Any, **kw: Any) -> dict[str, Any]:
    await ws.send(json.dumps({"type": "hello", **kw}))
    return await recv_json(ws, kind="welcome")


async def spectators_not_reading(srv: ServeProcess, code: str, n: int,
                                 source: str = "127.0.0.2") -> list[Any]:
    """``n`` spectators of ``code`` that never read."""
    sockets = []
    for _ in range(n):
        ws = await ws_open(srv.ws_url(code), source=source, max_queue=1, rcvbuf=4096)
        await hello(ws, spectate=True)
        sockets.append(ws)
    return sockets


async def flood(sockets: list[Any], text: str, seconds: float, rate: float) -> int:
    """Each of ``sockets`` sends ``text`` ``rate`` times a second for ``seconds``; returns how many were sent
    (a socket the server dropped, too slow, is skipped)."""
    sent = 0
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        t0 = time.monotonic()
        for ws in sockets:
            try:
                await ws.send(text)
                sent += 1
            except (websockets.ConnectionClosed, OSError):
                pass
        await asyncio.sleep(max(0.0, 1.0 / rate - (time.monotonic() - t0)))
    return sent


async def flood_history(sockets: list[Any], seconds: float, rate: float) -> int:
    """:func:`flood` of ``history`` asks."""
    return await flood(sockets, '{"type":"history"}', seconds, rate)


async def bot_room(srv: ServeProcess, hands: int, bots: int = 3, timeout: float = 60.0,
                   mode: str = "holdem", wait_end: bool = True) -> tuple[str, Any]:
    """A room of the host and ``bots`` bots playing a game of ``hands`` hands (10, 20, 30 or 50) by
    themselves, until it ends (the host's own turns time out: run the server with a small ``--time-scale``);
    then the room is quiet and its history full. Returns the room code and the host's open socket (the host
    stays connected, so the room is not idle-closed)."""
    room = srv.create_room("방장", mode=mode, hints=False, handLimit=hands)
    host = await ws_open(srv.ws_url(room["code"]))
    await hello(host, token=room["token"])
    for _ in range(bots):
        await host.send(json.dumps({"type": "addBot"}))
    await host.send(json.dumps({"type": "start"}))
    # the game is over: its hands are the history (wait_end=False: it has just begun)
    await recv_json(host, kind="result" if wait_end else "view", timeout=timeout)
    return room["code"], host


def percentile(data: list[float], q: float) -> float:
    if not data:
        return float("nan")
    s = sorted(data)
    return s[min(len(s) - 1, int(q * len(s)))]


class Victim:
    """Two players in their own room answering every turn at once (check/call): the latency of each action,
    from sending it to its ``ack`` arriving, is the room's responsiveness while another room is attacked."""

    SAFE = ("k.check", "nl.check", "k.call", "nl.call", "ready")
    PACE_S = 0.12  # at most ~8 actions a second per player, well inside the server's flood limit (20/s)

    def __init__(self, srv: ServeProcess) -> None:
        self.srv = srv
        self.latencies_ms: list[float] = []
        self.lost = 0
        self._stop = False
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        room = self.srv.create_room("피해자1", mode="holdem", hints=False, turnSeconds=60, handLimit=50)
        a = await ws_open(self.srv.ws_url(room["code"]))
        await hello(a, token=room["token"])
        b = await ws_open(self.srv.ws_url(room["code"]))
        await hello(b, nickname="피해자2")
        await a.send(json.dumps({"type": "start"}))
        self._task = asyncio.get_running_loop().create_task(self._play([a, b]))

    async def start_quiet(self, seconds: float, q: float = 0.9) -> dict[str, float]:
        """Start playing, skip the first second (connections warming up), and return the figures of the next
        ``seconds`` with nothing else going on: the quiet baseline an attack is held against. The latencies
        are cleared afterwards, so what follows is measured on its own."""
        await self.start()
        await asyncio.sleep(1.0)
        self.latencies_ms.clear()
        await asyncio.sleep(seconds)
        quiet = self.figures(q)
        self.latencies_ms.clear()
        return quiet

    async def _play(self, players: list[Any]) -> None:
        latest: dict[int, dict[str, Any]] = {}
        sent: dict[str, float] = {}
        last_sent: dict[int, float] = {}
        n = 0

        async def read(i: int, ws: Any) -> None:
            async for raw in ws:
                msg = json.loads(raw)
                if msg["type"] == "view":
                    if msg["version"] >= latest.get(i, {}).get("version", -1):
                        latest[i] = msg
                elif msg["type"] == "ack" and msg["clientMsgId"] in sent:
                    self.latencies_ms.append((time.perf_counter() - sent.pop(msg["clientMsgId"])) * 1000)
                elif msg["type"] == "error" and msg.get("clientMsgId") in sent:
                    sent.pop(msg["clientMsgId"])
                elif msg["type"] == "result" and i == 0:
                    await ws.send(json.dumps({"type": "start"}))  # keep playing: a new game

        readers = [asyncio.ensure_future(read(i, ws)) for i, ws in enumerate(players)]
        try:
            while not self._stop:
                acted = False
                for cmid, at in list(sent.items()):
                    if time.perf_counter() - at > 3.0:  # lost in a race with a timeout: stop waiting for it
                        sent.pop(cmid)
                        self.lost += 1
                for i, ws in enumerate(players):
                    view = latest.get(i)
                    if view is None or sent or time.perf_counter() - last_sent.get(i, 0.0) < self.PACE_S:
                        continue
                    acts = {x["type"] for x in (view["view"].get("me") or {}).get("legalActions") or []}
                    kind = next((k for k in self.SAFE if k in acts), "rebuy" if "rebuy" in acts else None)
                    if kind is None:
                        continue
                    n += 1
                    cmid = f"v{n}"
                    sent[cmid] = last_sent[i] = time.perf_counter()
                    latest.pop(i)
                    action: dict[str, Any] = {"type": kind}
                    if kind == "rebuy":
                        action["accept"] = True
                    await ws.send(json.dumps({"type": "action", "clientMsgId": cmid,
                                              "version": view["version"], "action": action}))
                    acted = True
                if not acted:
                    await asyncio.sleep(0.01)
        finally:
            for r in readers:
                r.cancel()
            for ws in players:
                await ws.close()

    def figures(self, *extra: float) -> dict[str, float]:
        """n, p50, p99 (and ``p{q}`` for each extra quantile) of the latencies so far, in ms."""
        out = {"n": float(len(self.latencies_ms)), "p50": percentile(self.latencies_ms, 0.5),
               "p99": percentile(self.latencies_ms, 0.99)}
        for q in extra:
            out[f"p{round(q * 100)}"] = percentile(self.latencies_ms, q)
        return out

    async def stop(self, *extra: float) -> dict[str, float]:
        self._stop = True
        if self._task is not None:
            await asyncio.wait({self._task}, timeout=5)
        return self.figures(*extra)
