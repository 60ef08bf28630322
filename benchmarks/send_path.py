"""CPU per websocket frame on the server's send path: the queue + sender task vs the direct write
(docs/decisions/0017-direct-write-idle-sockets.md).

One process, one event loop: uvicorn serves a tiny Starlette app whose websocket is a
``pokerroom.server.websocket.WsConnection``; a ``websockets`` client on the same loop reads every frame. Each
round
the server sends ``--frames`` frames of ``--bytes`` bytes in bursts of ``--burst`` (one change's frames to one
socket come one at a time, so the default burst is 1: every frame finds the socket idle), once with the
direct write and once through the queue and the sender task (``conn.direct = None``: the path before),
alternating, and prints the process CPU per frame of each and their ratio. The client's reading is the same
work in both, so the difference is what the server saves per frame.

    .venv/bin/python benchmarks/send_path.py --frames 20000
"""

from __future__ import annotations

import argparse
import asyncio
import socket
import statistics
import time

import uvicorn
import websockets
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.routing import WebSocketRoute
from starlette.websockets import WebSocket

from pokerroom.server.edge.limits import Limits
from pokerroom.server.websocket import DirectSend, WsConnection


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


async def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--frames", type=int, default=20_000)
    ap.add_argument("--bytes", type=int, default=560, help="frame size (the median viewDelta is ~560 B)")
    ap.add_argument("--burst", type=int, default=1)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    control: asyncio.Queue[tuple[bool, int]] = asyncio.Queue()
    done: asyncio.Queue[None] = asyncio.Queue()
    frame = ('{"type":"viewDelta","pad":"' + "x" * max(0, args.bytes - 30) + '"}')

    async def endpoint(ws: WebSocket) -> None:
        await ws.accept()
        conn = WsConnection(ws, Limits(send_queue=100_000, send_queue_bytes=1 << 30))
        direct = conn.direct
        sender = asyncio.get_running_loop().create_task(conn.run_sender())
        while True:
            use_direct, n = await control.get()
            if n == 0:
                break
            conn.direct = direct if use_direct else None
            for i in range(0, n, args.burst):
                for _ in range(min(args.burst, n - i)):
                    conn.send(frame)
                await asyncio.sleep(0)  # let the client (and the sender task) run between bursts
            await done.get()
        conn.close(1000)
        await sender

    app = Starlette(routes=[WebSocketRoute("/ws", endpoint)], middleware=[Middleware(DirectSend)])
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning",
                                           ws_per_message_deflate=False, ws_ping_interval=None))
    serving = asyncio.get_running_loop().create_task(server.serve())
    while not server.started:
        await asyncio.sleep(0.01)
    results: dict[bool, list[float]] = {True: [], False: []}
    async with websockets.connect(f"ws://127.0.0.1:{port}/ws", max_size=None, compression=None) as client:
        for _ in range(args.rounds):
            for use_direct in (False, True):
                c0 = time.process_time()
                await control.put((use_direct, args.frames))
                for _ in range(args.frames):
                    await client.recv()
                results[use_direct].append((time.process_time() - c0) / args.frames * 1e6)
                await done.put(None)
        await control.put((True, 0))
    server.should_exit = True
    await serving
    q, d = statistics.median(results[False]), statistics.median(results[True])
    print(f"{args.frames} frames of {args.bytes} B, bursts of {args.burst}, {args.rounds} rounds each "
          f"(process CPU, server + client on one loop)")
    print(f"queue + sender task: {q:.1f} us/frame (runs {', '.join(f'{x:.1f}' for x in results[False])})")
    print(f"direct write:        {d:.1f} us/frame (runs {', '.join(f'{x:.1f}' for x in results[True])})")
    print(f"direct / queue: {d / q:.2f}x; saved {q - d:.1f} us per frame (~{(q - d) * 8.5 / 1000:.2f} ms per "
          f"action at 8.5 frames per action)")


if __name__ == "__main__":
    asyncio.run(main())
