"""A node's socket routing (cluster/sockets.py) met by relay messages in the order a takeover can bring
them, on the real Redis relay; no node process is needed for these orderings."""

from __future__ import annotations

import asyncio
from typing import Any

import orjson
import redis.asyncio as aioredis

from pokerroom.cluster import messages as M
from pokerroom.cluster.keys import Keys
from pokerroom.cluster.relay import Relay
from pokerroom.cluster.sockets import HOP_PAUSE_S, NodeSocket, Sockets
from pokerroom.server.edge.limits import Limits
from pokerroom.server.websocket import WsConnection
from pokerroom.server.wire import protocol as P

CODE = "ABCD"


def _frames(conn: WsConnection) -> list[dict[str, Any]]:
    out = []
    while not conn.queue.empty():
        item = conn.queue.get_nowait()
        if isinstance(item, str):
            out.append(orjson.loads(item))
    return out


async def _node_b(prefix: str, redis_url: str) -> tuple[Sockets, NodeSocket, Relay]:
    redis = aioredis.Redis.from_url(redis_url, socket_timeout=5)
    relay = Relay(redis, Keys(prefix), "node-b", lambda m: None)

    async def resolve(code: str) -> str:
        return "node-c"  # the room's owner, as the lease names it

    # no room lives on node B: the routing under test never reaches its rooms
    sockets = Sockets("node-b", None, relay, resolve)  # type: ignore[arg-type]
    sock = NodeSocket(WsConnection(object(), Limits()), CODE)  # type: ignore[arg-type]
    sockets.add(sock)
    return sockets, sock, relay


def test_a_hello_sent_again_after_a_welcome_is_not_refused(prefix: str, redis_url: str) -> None:
    """The client's hello reached node C while C was still loading the room ("gone"); before it is sent
    again, the room's "moved" re-attached the socket and C welcomed it. The hello sent again finds the
    socket in the room: the client is told nothing (never "already joined", which a player would see)."""
    async def main() -> None:
        sockets, sock, relay = await _node_b(prefix, redis_url)
        hello = {"type": "hello", "token": "t0k", "deltas": True}
        sock.remember(P.client_message_from(hello))  # type: ignore[arg-type]
        sockets.gone(M.Gone(sock.conn_id, CODE, hello, 0))  # re-sent after HOP_PAUSE_S
        welcome = '{"type":"welcome","you":"p2"}'
        sockets.welcome(M.Welcome(sock.conn_id, welcome, M.Seat("player", "p2", None)))
        await asyncio.sleep(HOP_PAUSE_S * 3)
        assert sock.welcomed
        assert _frames(sock.conn) == [orjson.loads(welcome)]
        # a client that really says hello twice is still told so
        await sockets.dispatch(sock, P.client_message_from(hello), hello)  # type: ignore[arg-type]
        assert [f.get("code") for f in _frames(sock.conn)] == ["already_hello"]
        await relay.close()

    asyncio.run(main())


def test_a_message_sent_while_the_hello_looks_for_the_owner_waits_for_it(prefix: str, redis_url: str) -> None:
    """A client says hello and, before the node has found the room's owner (a takeover can take a moment),
    sends its next message (the host's 시작, a ping). That message waits for the hello's answer: it does not
    look for the owner a second time and say the remembered hello again, which the owner refused as
    "이미 입장했어요" (already_hello) once the first one arrived."""
    async def main() -> None:
        redis = aioredis.Redis.from_url(redis_url, socket_timeout=5)
        got: list[M.Routed] = []
        owner = Relay(redis, Keys(prefix), "node-c", got.append)  # the room's owner: what reaches it
        node_b = Relay(redis, Keys(prefix), "node-b", lambda m: None)
        await owner.start()
        await node_b.start()

        async def resolve(code: str) -> str:
            await asyncio.sleep(0.3)  # the lease names the owner only after a takeover's moment
            return "node-c"

        sockets = Sockets("node-b", None, node_b, resolve)  # type: ignore[arg-type]
        sock = NodeSocket(WsConnection(object(), Limits()), CODE)  # type: ignore[arg-type]
        sockets.add(sock)
        hello = {"type": "hello", "token": "t0k"}
        start = {"type": "start"}
        first = asyncio.ensure_future(sockets.dispatch(sock, P.client_message_from(hello), hello))  # type: ignore[arg-type]
        await asyncio.sleep(0.05)
        await sockets.dispatch(sock, P.client_message_from(start), start)  # type: ignore[arg-type]
        await first
        async with asyncio.timeout(5):
            while len(got) < 2:
                await asyncio.sleep(0.02)
        await asyncio.sleep(0.2)  # (a second hello would have arrived by now)
        bodies = [m.body.get("type") for m in got if isinstance(m, M.ClientMsg)]
        assert bodies == ["hello", "start"], bodies
        await node_b.close()
        await owner.close()

    asyncio.run(main())
