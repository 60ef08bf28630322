"""Cluster-wide caps on the real Redis: they hold across nodes, and a dead node's sockets stop counting."""

from __future__ import annotations

import asyncio
from typing import Any

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


def test_room_creation_is_a_token_bucket_without_a_burst_at_the_minute_edge(prefix: str,
                                                                             redis_url: str) -> None:
    """4 a minute: a burst of 4, then one every 15 s — and a burst at 9:59 is not followed by another at 10:00
    (a fixed window per minute would allow 8 creations in one second there)."""
    async def main() -> None:
        r = aioredis.Redis.from_url(redis_url, socket_timeout=5)
        caps = ClusterCaps(room_creations_per_minute=4, rooms_per_address=0, max_rooms=100)
        a, b = (ClusterLimits(r, Keys(prefix), n, caps, 1.0) for n in "ab")
        edge = 599.5  # half a second before a minute's edge
        for i, node in enumerate((a, b, a, b)):
            assert await node.admit_room(f"E{i}", "9.9.9.9", edge) == "ok"
        assert await a.admit_room("E4", "9.9.9.9", edge + 0.6) == "rate"  # the next minute: still empty
        assert await b.admit_room("E4", "9.9.9.9", edge + 14.9) == "rate"
        assert await b.admit_room("E4", "9.9.9.9", edge + 15.0) == "ok"  # one token back after 15 s
        assert await a.admit_room("E5", "9.9.9.9", edge + 15.1) == "rate"
        assert await a.admit_room("E5", "9.9.9.9", edge + 75.0) == "ok"  # a minute later: the burst is back
        for i in range(6, 9):
            assert await (a, b)[i % 2].admit_room(f"E{i}", "9.9.9.9", edge + 75.0) == "ok"
        assert await a.admit_room("E9", "9.9.9.9", edge + 75.0) == "rate"
        await r.aclose()

    asyncio.run(main())


def _node_of(redis_url: str, *flags: str) -> Any:
    """The node ``pokerroom serve --redis URL --database ... *flags`` would run (its settings; nothing
    started). A new parser each time: its defaults read the environment when the flags are registered."""
    import argparse

    from pokerroom import serve
    from pokerroom.cluster.node import cluster_node
    from pokerroom.server.edge.limits import Limits

    parser = argparse.ArgumentParser()
    serve.register(parser.add_subparsers(dest="command"))
    base = ["serve", "--redis", redis_url, "--database", "postgresql://unused/none"]
    args = parser.parse_args([*base, *flags])
    return cluster_node(args, Limits(), "flag-test")


def test_the_per_room_socket_cap_is_a_flag(redis_url: str) -> None:
    """``pokerroom serve --connections-per-room N`` reaches the node's cluster caps (once a constant 200)."""
    for extra, expected in (([], 200), (["--connections-per-room", "12"], 12),
                            (["--connections-per-room", "0"], 0)):
        assert _node_of(redis_url, *extra).settings.caps.connections_per_room == expected


def test_the_store_gather_window_is_a_flag(redis_url: str) -> None:
    """``pokerroom serve --store-gather-ms MS`` reaches the node's store settings (None: PgStore's
    default)."""
    for extra, expected in (([], None), (["--store-gather-ms", "0"], 0.0),
                            (["--store-gather-ms", "12"], 0.012)):
        assert _node_of(redis_url, *extra).settings.store_gather_s == expected


def test_routing_to_the_owner_is_a_flag(redis_url: str, monkeypatch: Any) -> None:
    """``pokerroom serve --route-to-owner`` (or ``POKERROOM_ROUTE_TO_OWNER=1``) reaches the node's settings;
    off by default, since only a proxy that routes ``?node=`` makes it worth a reconnect."""
    for env, extra, expected in ((None, [], False), (None, ["--route-to-owner"], True), ("1", [], True),
                                 ("0", [], False)):
        if env is None:
            monkeypatch.delenv("POKERROOM_ROUTE_TO_OWNER", raising=False)
        else:
            monkeypatch.setenv("POKERROOM_ROUTE_TO_OWNER", env)
        assert _node_of(redis_url, *extra).settings.route_to_owner is expected
