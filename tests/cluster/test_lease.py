"""Leases and fencing tokens on the real Redis: one owner per room, tokens that only grow, renew/release."""

from __future__ import annotations

import asyncio
from typing import Any

import redis.asyncio as aioredis

from pokerroom.cluster.keys import Keys
from pokerroom.cluster.lease import TOKEN_BITS, Leases


def _client(url: str) -> Any:
    return aioredis.Redis.from_url(url, socket_timeout=5)


def test_acquire_is_exclusive_and_tokens_grow(prefix: str, redis_url: str) -> None:
    async def main() -> None:
        r = _client(redis_url)
        keys = Keys(prefix)
        a, b = Leases(r, keys, "a", 2.0), Leases(r, keys, "b", 2.0)
        first = await a.acquire("ROOM1")
        assert first is not None and a.valid("ROOM1") is first
        assert await b.acquire("ROOM1") is None  # held by a
        assert await b.owner("ROOM1") == "a"
        assert await a.release("ROOM1")
        second = await b.acquire("ROOM1")
        assert second is not None and second.token > first.token
        assert await a.release("ROOM1") is False  # a does not delete b's lease
        assert await b.owner("ROOM1") == "b"
        assert await a.owners(["ROOM1", "ROOM2"]) == ["b", None]
        await r.aclose()

    asyncio.run(main())


def test_racing_acquires_have_exactly_one_winner(prefix: str, redis_url: str) -> None:
    """Eight nodes race for one free room, 50 times over: exactly one wins each time, tokens increase."""

    async def main() -> None:
        clients = [_client(redis_url) for _ in range(8)]
        keys = Keys(prefix)
        nodes = [Leases(c, keys, f"n{i}", 2.0) for i, c in enumerate(clients)]
        last = 0
        for _ in range(50):
            got = await asyncio.gather(*(n.acquire("RACE") for n in nodes))
            winners = [(n, lease) for n, lease in zip(nodes, got, strict=True) if lease is not None]
            assert len(winners) == 1
            node, lease = winners[0]
            assert lease.token > last
            last = lease.token
            assert await node.owner("RACE") == node.node_id
            assert await node.release("RACE")
        for c in clients:
            await c.aclose()

    asyncio.run(main())


def test_renew_keeps_and_reports_lost(prefix: str, redis_url: str) -> None:
    async def main() -> None:
        r = _client(redis_url)
        keys = Keys(prefix)
        a = Leases(r, keys, "a", 0.6)
        assert await a.acquire("K1") and await a.acquire("K2")
        await asyncio.sleep(0.3)
        assert await a.renew() == []
        await asyncio.sleep(0.4)  # past the first TTL: only the renewal keeps them
        assert await a.owner("K1") == "a"
        await r.delete(keys.lease("K2"))  # lost (as if it had expired and been taken)
        await r.set(keys.lease("K2"), "b")
        assert await a.renew() == ["K2"]
        assert "K2" not in a.owned and await a.owner("K2") == "b"
        await r.aclose()

    asyncio.run(main())


def test_local_validity_runs_out_without_renewal(prefix: str, redis_url: str) -> None:
    """If Redis cannot be reached the node must stop before the TTL: validity = sent + ttl - margin."""

    async def main() -> None:
        r = _client(redis_url)
        a = Leases(r, Keys(prefix), "a", 0.4, margin_s=0.1)
        assert await a.acquire("V1")
        assert a.valid("V1") is not None and a.expired() == []
        await asyncio.sleep(0.32)
        assert a.valid("V1") is None and a.expired() == ["V1"]
        await r.aclose()

    asyncio.run(main())


def test_keeper_thread_renews_and_drops_a_lease_taken_by_another_node(prefix: str, redis_url: str) -> None:
    """The renewal thread keeps leases alive past their TTL while the event loop is blocked, and reports a
    lease another node took."""
    import threading
    import time as _time

    async def main() -> None:
        r = _client(redis_url)
        keys = Keys(prefix)
        a = Leases(r, keys, "a", 0.6)
        lost: list[str] = []
        seen = threading.Event()

        def on_lost(code: str) -> None:
            lost.append(code)
            seen.set()

        assert await a.acquire("L1") and await a.acquire("L2")
        stop = a.keep(redis_url, on_lost)
        _time.sleep(1.5)  # the event loop is blocked for 2.5 TTLs: only the thread can renew
        assert await a.owner("L1") == "a" and a.valid("L1") is not None
        await r.set(keys.lease("L1"), "b")
        assert seen.wait(2)
        stop.set()
        assert lost == ["L1"] and "L2" in a.owned
        await r.aclose()

    asyncio.run(main())


def test_tokens_survive_redis_losing_its_counters(prefix: str, redis_url: str) -> None:
    """A Redis restarted without persistence forgets the counters; the epoch keeps tokens growing."""

    async def main() -> None:
        r = _client(redis_url)
        keys = Keys(prefix)
        a = Leases(r, keys, "a", 2.0)
        for _ in range(3):
            assert await a.acquire("E1") and await a.release("E1")
        before = (await a.acquire("E1"))
        assert before is not None and before.token & ((1 << TOKEN_BITS) - 1) == 4
        await r.delete(keys.lease("E1"), keys.fence("E1"), keys.epoch)  # what a restart loses
        await asyncio.sleep(0.01)
        after = await a.acquire("E1")
        assert after is not None and after.token > before.token
        await r.aclose()

    asyncio.run(main())


def test_the_next_owner_learns_how_long_the_room_had_none(prefix: str, redis_url: str) -> None:
    """A renewal and a release stamp the room as served (Redis's clock); the next acquire answers how long
    ago that was: what the new owner gives back to the player whose turn it is."""
    async def main() -> None:
        r = _client(redis_url)
        keys = Keys(prefix)
        a, b = Leases(r, keys, "a", 0.5), Leases(r, keys, "b", 0.5)
        first = await a.acquire("S1")
        assert first is not None and first.unserved_ms is None  # a new room: never served before
        await asyncio.sleep(0.2)
        assert await a.renew() == []  # served now...
        await asyncio.sleep(1.0)  # ...then a dies: its lease runs out 0.5 s later, nobody holds it
        taken = await b.acquire("S1")
        assert taken is not None and taken.unserved_ms is not None
        assert 900 <= taken.unserved_ms <= 1300, taken.unserved_ms
        await asyncio.sleep(0.3)
        assert await b.release("S1")  # a hand-over: served until the release
        await asyncio.sleep(0.4)
        again = await a.acquire("S1")
        assert again is not None and again.unserved_ms is not None and 300 <= again.unserved_ms <= 700
        await r.aclose()

    asyncio.run(main())


def test_a_scan_reads_many_leases_in_chunks_and_in_order(prefix: str, redis_url: str) -> None:
    """More rooms than one MGET reads (``OWNERS_CHUNK``): every holder comes back at its room's place, and
    the reads are separate commands (so the loop serves others between them)."""
    from pokerroom.cluster.lease import OWNERS_CHUNK

    async def main() -> None:
        r = _client(redis_url)
        keys = Keys(prefix)
        codes = [f"R{i:05d}" for i in range(2 * OWNERS_CHUNK + 7)]
        held = {c: f"n{i % 3}" for i, c in enumerate(codes) if i % 4 != 1}
        await r.mset({keys.lease(c): node for c, node in held.items()})
        leases = Leases(r, keys, "me", 2.0)
        calls = 0
        mget = r.mget

        async def counted(names: list[str]) -> Any:
            nonlocal calls
            calls += 1
            return await mget(names)

        r.mget = counted
        assert await leases.owners(codes) == [held.get(c) for c in codes]
        assert calls == 3
        assert await leases.owners([]) == [] and calls == 3
        await r.aclose()

    asyncio.run(main())
