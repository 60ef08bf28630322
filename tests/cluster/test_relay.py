"""The relay on the real Redis: items arrive in order, requests get replies, a dead node is noticed."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import redis.asyncio as aioredis

from pokerroom.cluster.keys import Keys
from pokerroom.cluster.relay import Item, Relay


def test_items_in_order_broadcast_and_request(prefix: str, redis_url: str) -> None:
    async def main() -> None:
        r = aioredis.Redis.from_url(redis_url, socket_timeout=5)
        got: dict[str, list[Item]] = {"a": [], "b": []}
        relays: dict[str, Relay] = {}

        def handler(node: str) -> Any:
            def on_item(item: Item) -> None:
                got[node].append(item)
                if item["t"] == "ask":
                    relays[node].reply(item, {"answer": item["n"] * 2, "by": node})
            return on_item

        for n in "ab":
            relays[n] = Relay(r, Keys(prefix), n, handler(n))
            await relays[n].start()
        for i in range(500):
            relays["a"].send("b", {"t": "f", "i": i, "x": "프레임" * (i % 7)})
            if i % 50 == 0:
                await asyncio.sleep(0)
        relays["b"].broadcast({"t": "moved", "room": "ABCD"})
        answer = await relays["a"].request("b", {"t": "ask", "n": 21}, timeout_s=5)
        assert answer == {"answer": 42, "by": "b"}
        frames = [it["i"] for it in got["b"] if it["t"] == "f"]
        assert frames == list(range(500))  # every item, in order
        assert [it for it in got["a"] if it["t"] == "moved"] == [{"t": "moved", "room": "ABCD"}]
        assert any(it["t"] == "moved" for it in got["b"])
        assert not any(it["t"] == "f" for it in got["a"])  # nothing for b reached a
        for relay in relays.values():
            await relay.close()
        await r.aclose()

    asyncio.run(main())


def test_undelivered_items_are_reported_and_requests_time_out(prefix: str, redis_url: str) -> None:
    async def main() -> None:
        r = aioredis.Redis.from_url(redis_url, socket_timeout=5)
        lost: list[tuple[str, list[Item]]] = []
        relay = Relay(r, Keys(prefix), "a", lambda item: None, lambda node, items: lost.append((node, items)))
        await relay.start()
        relay.send("ghost", {"t": "m", "x": 1})
        t0 = time.monotonic()
        try:
            await relay.request("ghost", {"t": "create"}, timeout_s=0.3)
        except TimeoutError:
            pass
        else:
            raise AssertionError("a request to a node nobody runs must time out")
        assert time.monotonic() - t0 < 2
        assert lost and lost[0][0] == "ghost" and lost[0][1][0] == {"t": "m", "x": 1}
        await relay.close()
        await r.aclose()

    asyncio.run(main())


def test_a_lost_subscription_is_noticed_and_renewed(prefix: str, redis_url: str) -> None:
    """A Redis restarted without data keeps no subscription: ``check`` sees the channel without a
    subscriber and subscribes again (simulated by killing the subscriber's connection on the server)."""

    async def main() -> None:
        r = aioredis.Redis.from_url(redis_url, socket_timeout=5)
        got: list[Item] = []
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
        relay.send("solo", {"t": "x"})
        for _ in range(50):
            if got:
                break
            await asyncio.sleep(0.05)
        assert got == [{"t": "x"}]
        await relay.close()
        await r.aclose()

    asyncio.run(main())
