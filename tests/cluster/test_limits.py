"""Cluster-wide caps on the real Redis: they hold across nodes, and a dead node's sockets stop counting."""

from __future__ import annotations

import asyncio

import redis.asyncio as aioredis

from pokerroom.cluster.keys import Keys
from pokerroom.cluster.limits import ClusterCaps, ClusterLimits


def test_rooms_per_address_and_rate_hold_across_nodes(prefix: str, redis_url: str) -> None:
    async def main() -> None:
        r = aioredis.Redis.from_url(redis_url, socket_timeout=5)
        caps = ClusterCaps(room_creations_per_minute=4, rooms_per_address=2, max_rooms=100)
        a, b = (ClusterLimits(r, Keys(prefix), n, caps, 1.0) for n in "ab")
        now = 600.0
        assert await a.admit_room("R1", "1.2.3.4", now) == "ok"
        assert await b.admit_room("R2", "1.2.3.4", now) == "ok"
        assert await a.admit_room("R3", "1.2.3.4", now) == "address"  # two open rooms, on two nodes
        assert await b.admit_room("R3", "5.6.7.8", now) == "ok"  # another address is not affected
        assert await a.admit_room("R1", "5.6.7.8", now) == "taken"  # an open room's code
        await b.room_closed("R1")  # closed on another node than the one that created it
        assert await a.admit_room("R4", "1.2.3.4", now) == "ok"
        await a.room_closed("R4")
        assert await b.admit_room("R5", "1.2.3.4", now) == "ok"  # 4th creation this minute
        await a.room_closed("R5")
        assert await a.admit_room("R6", "1.2.3.4", now) == "rate"
        assert await a.admit_room("R6", "1.2.3.4", now + 60) == "ok"  # next minute
        assert await a.total_rooms() == 3  # R2, R3, R6
        await r.aclose()

    asyncio.run(main())


def test_total_rooms_cap(prefix: str, redis_url: str) -> None:
    async def main() -> None:
        r = aioredis.Redis.from_url(redis_url, socket_timeout=5)
        caps = ClusterCaps(room_creations_per_minute=0, rooms_per_address=0, max_rooms=2)
        a, b = (ClusterLimits(r, Keys(prefix), n, caps, 1.0) for n in "ab")
        assert await a.admit_room("T1", "x") == "ok"
        assert await b.admit_room("T2", "y") == "ok"
        assert await a.admit_room("T3", "z") == "total"
        await r.aclose()

    asyncio.run(main())


def test_connections_per_room_summed_over_live_nodes(prefix: str, redis_url: str) -> None:
    async def main() -> None:
        r = aioredis.Redis.from_url(redis_url, socket_timeout=5)
        caps = ClusterCaps(connections_per_room=3)
        a, b = (ClusterLimits(r, Keys(prefix), n, caps, 0.5) for n in "ab")
        live = ["a", "b"]
        assert await a.connect("C1", live)
        assert await b.connect("C1", live)
        assert await b.connect("C1", live)
        assert not await a.connect("C1", live)  # 3 sockets over two nodes
        assert await a.connect("C2", live)  # another room
        await b.disconnect("C1")
        assert await a.connect("C1", live)
        assert not await b.connect("C1", live)
        # b dies: it stops refreshing, its counter expires; a keeps its own alive
        for _ in range(3):
            await asyncio.sleep(0.2)
            await a.refresh()
        assert await a.connect("C1", ["a"])
        await r.aclose()

    asyncio.run(main())
