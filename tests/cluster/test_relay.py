"""The relay on the real Redis: messages arrive in order, requests get replies, a dead node is noticed."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import redis.asyncio as aioredis

from pokerroom.cluster import messages as M
from pokerroom.cluster.keys import Keys
from pokerroom.cluster.relay import Relay


def test_items_in_order_broadcast_and_request(prefix: str, redis_url: str) -> None:
    async def main() -> None:
        r = aioredis.Redis.from_url(redis_url, socket_timeout=5)
        got: dict[str, list[M.Routed]] = {"a": [], "b": []}
        relays: dict[str, Relay] = {}

        def handler(node: str) -> Any:
            def on_message(msg: M.Routed) -> None:
                got[node].append(msg)
                if isinstance(msg, M.Request) and isinstance(msg.ask, M.RoomInfo):
                    relays[node].reply(msg, {"answer": int(msg.ask.code) * 2, "by": node})
            return on_message

        for n in "ab":
            relays[n] = Relay(r, Keys(prefix), n, handler(n))
            await relays[n].start()
        for i in range(500):
            relays["a"].send("b", M.Frame(i, "프레임" * (i % 7)))
            if i % 50 == 0:
                await asyncio.sleep(0)
        relays["b"].broadcast(M.Moved("ABCD", None))
        answer = await relays["a"].request("b", M.RoomInfo("21"), timeout_s=5)
        assert answer == {"answer": 42, "by": "b"}
        frames = [(m.cid, m.text) for m in got["b"] if isinstance(m, M.Frame)]
        assert frames == [(i, "프레임" * (i % 7)) for i in range(500)]  # every message, in order
        assert [m for m in got["a"] if isinstance(m, M.Moved)] == [M.Moved("ABCD", None)]
        assert any(isinstance(m, M.Moved) for m in got["b"])
        assert not any(isinstance(m, M.Frame) for m in got["a"])  # nothing for b reached a
        for relay in relays.values():
            await relay.close()
        await r.aclose()

    asyncio.run(main())


def test_undelivered_items_are_reported_and_requests_time_out(prefix: str, redis_url: str) -> None:
    async def main() -> None:
        r = aioredis.Redis.from_url(redis_url, socket_timeout=5)
        lost: list[tuple[str, list[M.Message]]] = []
        relay = Relay(r, Keys(prefix), "a", lambda msg: None, lambda node, msgs: lost.append((node, msgs)))
        await relay.start()
        sent = M.ClientMsg(1, "a", "ABCD", {"type": "ping"})
        relay.send("ghost", sent)
        t0 = time.monotonic()
        try:
            await relay.request("ghost", M.CreateRoom({}, "방장", "127.0.0.1"), timeout_s=0.3)
        except TimeoutError:
            pass
        else:
            raise AssertionError("a request to a node nobody runs must time out")
        assert time.monotonic() - t0 < 2
        assert lost and lost[0][0] == "ghost" and lost[0][1][0] == sent
        await relay.close()
        await r.aclose()

    asyncio.run(main())


def test_a_lost_subscription_is_noticed_and_renewed(prefix: str, redis_url: str) -> None:
    """A Redis restarted without data keeps no subscription: ``check`` sees the channel without a
    subscriber and subscribes again (simulated by killing the subscriber's connection on the server)."""

    async def main() -> None:
        r = aioredis.Redis.from_url(redis_url, socket_timeout=5)
        got: list[M.Routed] = []
        relay = Relay(r, Keys(prefix), "solo", got.append)
        await relay.start()
        assert await relay.check()
        channel = Keys(prefix).channel("solo")
        relay._tasks[0].cancel()  # the subscriber is gone, as after a restart that lost it
        await asyncio.sleep(0.1)
        assert (await r.pubsub_numsub(channel))[0][1] == 0
        assert not await relay.check()
        for _ in range(50):
            if (await r.pubsub_numsub(channel))[0][1] == 1:
                break
            await asyncio.sleep(0.05)
        relay.send("solo", M.Close(7, 4000))
        for _ in range(50):
            if got:
                break
            await asyncio.sleep(0.05)
        assert got == [M.Close(7, 4000)]
        await relay.close()
        await r.aclose()

    asyncio.run(main())
