"""The send path of a socket: frames written straight to uvicorn's transport when the socket is idle, through
the queue and the sender task otherwise, always in order (server/websocket.py: ``WsConnection``,
``DirectSend``)."""

from __future__ import annotations

import asyncio
import random
from typing import Any

from server_helpers import Client, LiveServer, join, play_until_result

from pokerroom.server.edge.limits import Limits
from pokerroom.server.websocket import DIRECT_MAX, SANSIO_KEY, WsConnection


class FakeConn:
    """websockets' sans-I/O connection: frames in, bytes out (here: the text itself, to check the order)."""

    def __init__(self) -> None:
        self.out: list[bytes] = []

    def send_text(self, data: bytes) -> None:
        self.out.append(data)

    def data_to_send(self) -> list[bytes]:
        out, self.out = self.out, []
        return out


class FakeTransport:
    def __init__(self) -> None:
        self.written: list[bytes] = []

    def write(self, data: bytes) -> None:
        self.written.append(data)

    def is_closing(self) -> bool:
        return False


class FakeProto:
    """The attributes of uvicorn's WebSocketsSansIOProtocol that the direct path reads."""

    def __init__(self) -> None:
        self.conn = FakeConn()
        self.transport = FakeTransport()
        self.writable = asyncio.Event()
        self.writable.set()
        self.close_sent = False
        self.disconnected = False
        self.handshake_complete = True


class FakeWebSocket:
    """Starlette's side: what the sender task writes through (into the same transport, as uvicorn would)."""

    def __init__(self, proto: FakeProto) -> None:
        self.scope = {"type": "websocket", SANSIO_KEY: proto}
        self.proto = proto

    async def send_text(self, text: str) -> None:
        await self.proto.writable.wait()
        self.proto.transport.write(text.encode())

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        self.proto.close_sent = True


def test_an_idle_socket_is_written_at_once_and_a_busy_one_keeps_its_order() -> None:
    async def main() -> None:
        proto = FakeProto()
        conn = WsConnection(FakeWebSocket(proto), Limits())  # type: ignore[arg-type]
        conn.send("a")  # idle: on the transport before any task ran
        assert proto.transport.written == [b"a"] and conn.queue.empty()
        proto.writable.clear()  # the transport pushes back (over its high-water mark)
        conn.send("b")
        proto.writable.set()
        conn.send("c")  # writable again, but "b" is still queued: "c" must wait behind it
        conn.send("x" * (DIRECT_MAX + 1))  # a history-sized frame always goes through the sender
        assert proto.transport.written == [b"a"] and conn.queue.qsize() == 3
        sender = asyncio.get_running_loop().create_task(conn.run_sender())
        await asyncio.sleep(0.01)
        assert proto.transport.written == [b"a", b"b", b"c", b"x" * (DIRECT_MAX + 1)]
        assert conn.queued_bytes == 0
        conn.send("d")  # idle again: direct
        assert proto.transport.written[-1] == b"d"
        conn.close(1000)
        await asyncio.wait_for(sender, 1.0)
        assert proto.close_sent
        conn.send("after")  # closing: dropped
        assert proto.transport.written[-1] == b"d"

    asyncio.run(main())


def test_a_live_game_writes_its_frames_directly_in_order(server: LiveServer) -> None:
    """Through real uvicorn: every socket of a room got the sans-I/O protocol, and a whole game arrives
    complete and in version order (the scanner of test_real_engine checks the contents)."""
    async def main() -> None:
        room = server.create_room("p1", mode="holdem", hints=False, handLimit=10)
        code = room["code"]
        players: list[Client] = [await join(server, code, "p1", token=room["token"])]
        players += [await join(server, code, f"p{i}", nickname=f"플레이어{i}") for i in (2, 3)]
        watcher = await join(server, code, "s", spectate=True)
        await players[0].send({"type": "start"})
        await play_until_result(players, random.Random(3))
        await watcher.expect("result")
        live = server.rooms.get(code)
        assert live is not None
        conns: list[Any] = list(live.connections)
        assert len(conns) == 4 and all(isinstance(c, WsConnection) and c.direct is not None for c in conns)
        for c in [*players, watcher]:
            versions = [f["version"] for f in c.frames if f["type"] in ("view", "viewDelta")]
            assert len(versions) > 5 and versions == sorted(versions)

    asyncio.run(main())
