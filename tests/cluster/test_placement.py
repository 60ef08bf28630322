"""The node registry on the real Redis: live nodes by heartbeat TTL, new rooms to the least loaded."""

from __future__ import annotations

import asyncio

import redis.asyncio as aioredis

from pokerroom.cluster.keys import Keys
from pokerroom.cluster.placement import Registry


def test_pick_prefers_fewest_rooms_and_forgets_dead_nodes(prefix: str, redis_url: str) -> None:
    async def main() -> None:
        r = aioredis.Redis.from_url(redis_url, socket_timeout=5)
        keys = Keys(prefix)
        a, b, c = (Registry(r, keys, n, 0.5) for n in "abc")
        await a.heartbeat(rooms=5, conns=10)
        await b.heartbeat(rooms=2, conns=50)
        await c.heartbeat(rooms=2, conns=3)
        assert await a.pick() == "c"  # fewest rooms, then fewest connections
        assert {n.node_id for n in a.live} == {"a", "b", "c"}
        await asyncio.sleep(0.3)
        await a.heartbeat(rooms=5, conns=10)
        await b.heartbeat(rooms=2, conns=50)
        await asyncio.sleep(0.3)  # c stopped beating: its key expired
        assert await a.pick() == "b"
        assert {n.node_id for n in a.live} == {"a", "b"}
        assert {x.decode() for x in await r.smembers(keys.nodes)} == {"a", "b"}  # pruned
        await b.leave()
        assert await a.pick() == "a"
        await r.aclose()

    asyncio.run(main())


def test_pick_with_no_live_node_is_this_node(prefix: str, redis_url: str) -> None:
    async def main() -> None:
        r = aioredis.Redis.from_url(redis_url, socket_timeout=5)
        assert await Registry(r, Keys(prefix), "solo", 1.0).pick() == "solo"
        await r.aclose()

    asyncio.run(main())
