"""Start-up with many stored rooms: how long the event loop is blocked, how long until every room is served.

A process that restarts with thousands of rooms in its store must answer its first request (``/healthz``, a
player's reconnect) at once, not after it rebuilt every room; and a cluster node's scan of the store for rooms
without a lease must not freeze its rooms while it reads thousands of leases. This script seeds ``--rooms``
copies of one real room mid-hand (6 players, a hand under way, its action log after the snapshot) and
measures, with a ticker task that wakes every millisecond and records the largest gap between its wake-ups:

- **single node** (SQLite, what ``make run`` starts): ``Rooms.start`` plus the restore it starts in the
  background, until every room is served: the longest loop stall, the wall and CPU time until all rooms are
  served, and when ``start`` returned (the server answers from then on);
- **cluster scan** (PostgreSQL + Redis, ``--cluster``): one scan of a node (the store's codes, the leases,
  the succession's reading) over the same number of rooms: its longest stall and CPU.

It prints its figures; nothing is asserted (the tests check the behaviour with fewer rooms, by counting,
not timing).

    .venv/bin/python benchmarks/startup.py --rooms 10000 [--cluster]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sqlite3
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from load import pick  # the load benchmark's scripted player


class Ticker:
    """The event loop's responsiveness: the largest gap between wake-ups of a 1 ms sleeper."""

    def __init__(self) -> None:
        self.worst = 0.0
        self.ticks = 0
        self._task: asyncio.Task[None] | None = None

    async def _run(self, last: float) -> None:
        while True:
            await asyncio.sleep(0.001)
            now = time.perf_counter()
            self.worst = max(self.worst, now - last)
            self.ticks += 1
            last = now

    def __enter__(self) -> Ticker:
        # from now: whatever runs before the task's first turn is a stall too
        self._task = asyncio.get_running_loop().create_task(self._run(time.perf_counter()))
        return self

    def __exit__(self, *exc: object) -> None:
        assert self._task is not None
        self._task.cancel()


async def seed_room(store: Any) -> str:
    """One real room with six players, a hand under way and log rows after its snapshot; returns its code."""
    from pokerroom.server.engine_port import PokerEngine
    from pokerroom.server.room.rooms import Connection, Rooms
    from pokerroom.server.wire import protocol as P

    class Socket(Connection):  # type: ignore[misc]
        def __init__(self) -> None:
            super().__init__()
            self.last: dict[str, Any] | None = None

        def send(self, text: str) -> None:
            msg = json.loads(text)
            if msg.get("type") == "view":
                self.last = msg

        def close(self, code: int) -> None:
            pass

    rooms = Rooms(PokerEngine(), store, decider=None, recommender=None)
    await rooms.start()
    room, _member, token = await rooms.create_room({"mode": "holdem", "turnSeconds": 60}, "방장")
    socks = [Socket() for _ in range(6)]
    for i, sock in enumerate(socks):
        hello = {"token": token} if i == 0 else {"nickname": f"플레이어{i}"}
        await rooms.handle(room, sock, P.parse_client_message(json.dumps({"type": "hello", **hello})))
    await rooms.handle(room, socks[0], P.parse_client_message('{"type":"start"}'))
    rnd = random.Random(3)
    for _ in range(8):  # a few actions: log rows after the snapshot, as a room mid-hand has
        for sock in socks:
            await rooms.handle(room, sock, P.parse_client_message('{"type":"resync"}'))
            view = sock.last
            if view and (a := pick(view["view"], rnd)) is not None:
                msg = {"type": "action", "clientMsgId": f"m{rnd.random()}", "version": view["version"],
                       "action": a}
                await rooms.handle(room, sock, P.parse_client_message(json.dumps(msg)))
                break
    await rooms.stop()
    return room.code


def copy_rows(db: Any, code: str, n: int, mark: str) -> None:
    """``n`` copies of room ``code`` (rooms, actions, hands, preactions rows) under new codes."""
    codes = [f"{i:0>10}".translate(str.maketrans("0123456789", "abcdefghij")) for i in range(1, n + 1)]
    tables = {"rooms": "code, meta, state, version, updated_ms, snapshot_version, fence",
              "actions": "code, version, kind, player_id, client_msg_id, action, at_ms",
              "hands": "code, seq, data", "preactions": "code, data"}
    for table, cols in tables.items():
        rest = cols.split(", ", 1)[1]
        rows = db.execute(f"SELECT {rest} FROM {table} WHERE code={mark}", (code,)).fetchall()
        marks = ", ".join([mark] * len(cols.split(", ")))
        for c in codes:
            for row in rows:
                db.execute(f"INSERT INTO {table} ({cols}) VALUES ({marks})", (c, *row))


async def single_node(n: int) -> None:
    from pokerroom.server.app import _tune_gc
    from pokerroom.server.engine_port import PokerEngine
    from pokerroom.server.room.rooms import Rooms
    from pokerroom.server.storage import Store

    path = Path(tempfile.mkdtemp(prefix="pokerroom-startup-")) / "pokerroom.sqlite3"
    store = Store(path)
    code = await seed_room(store)
    store.close()
    db = sqlite3.connect(path)
    with db:
        copy_rows(db, code, n, "?")
    db.close()

    store = Store(path)
    rooms = Rooms(PokerEngine(), store, decider=None, recommender=None)
    # the collector as the server sets it (rare full collections, start-up objects and restored rooms frozen)
    try:
        _tune_gc(None, rooms.restorer)
    except (TypeError, AttributeError):  # a tree that restores every room before start returns
        _tune_gc(None)
    cpu0, t0 = time.process_time(), time.perf_counter()
    with Ticker() as ticker:
        try:
            await rooms.start(background=True)
        except TypeError:  # a tree whose start restores every room before it returns
            await rooms.start()
        started = time.perf_counter() - t0
        restored = getattr(rooms, "restored", None)  # (a tree that restores inside start has none)
        if restored is not None:
            await restored()
        wall = time.perf_counter() - t0
        cpu = time.process_time() - cpu0
        worst = ticker.worst
    print(f"single node, {len(rooms.rooms):,} rooms restored: start returned after {started * 1000:.0f} ms, "
          f"all served after {wall:.2f} s ({cpu:.2f} s CPU, {cpu / max(1, len(rooms.rooms)) * 1e3:.2f} ms "
          f"a room); longest loop stall {worst * 1000:.1f} ms")
    await rooms.stop()
    store.close()


async def cluster_scan(n: int) -> None:
    import secrets

    import psycopg
    from redis.asyncio import Redis

    from pokerroom.cluster.keys import Keys
    from pokerroom.cluster.lease import Leases
    from pokerroom.cluster.succession import Succession
    from pokerroom.server.storage.postgres import PgStore

    admin_url = os.environ.get("POKERROOM_TEST_PG", "postgresql://postgres@127.0.0.1:5432/postgres")
    name = f"pokerroom_startup_{secrets.token_hex(4)}"
    with psycopg.connect(admin_url, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    url = admin_url.rsplit("/", 1)[0] + "/" + name
    redis = Redis.from_url(os.environ.get("POKERROOM_TEST_REDIS", "redis://127.0.0.1:6379/0"))
    keys = Keys(f"startup:{secrets.token_hex(4)}")
    try:
        store = PgStore(url)
        code = await seed_room(store)
        with psycopg.connect(url, autocommit=True) as db, db.transaction():
            for table in ("rooms", "actions", "hands", "preactions"):
                cols = [r[0] for r in db.execute(
                    "SELECT column_name FROM information_schema.columns WHERE table_name=%s "
                    "ORDER BY ordinal_position", (table,))]
                rest = ", ".join(cols[1:])
                db.execute(f"INSERT INTO {table} (code, {rest}) SELECT 'r' || lpad(i::text, 9, '0'), {rest} "
                           f"FROM {table}, generate_series(1, %s) i WHERE code=%s", (n, code))
        codes = sorted(store.codes())
        # two thirds of the rooms held by a live node, the rest free (a dead node's, not yet taken)
        await redis.mset({keys.lease(c): "node-a" for c in codes[: len(codes) * 2 // 3]})
        leases = Leases(redis, keys, "node-b", ttl_s=2.0)
        succession = Succession("node-b", 2.0)
        for label in ("first scan", "second scan"):
            cpu0, t0 = time.process_time(), time.perf_counter()
            with Ticker() as ticker:  # what a node's scan does on its loop (cluster/node.py, _scan_loop)
                found = sorted(await asyncio.to_thread(store.codes))
                owners = dict(zip(found, await leases.owners(found), strict=True))
                succession.observe(owners, {"node-a", "node-b"}, time.monotonic())
                wall = time.perf_counter() - t0
                cpu = time.process_time() - cpu0
            print(f"cluster node, {label} of {len(owners):,} rooms: {wall * 1000:.0f} ms wall, "
                  f"{cpu * 1000:.0f} ms CPU; longest loop stall {ticker.worst * 1000:.1f} ms")
        store.close()
    finally:
        async for key in redis.scan_iter(match=f"{keys.prefix}:*", count=1000):
            await redis.delete(key)
        await redis.aclose()
        with psycopg.connect(admin_url, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rooms", type=int, default=10_000)
    ap.add_argument("--cluster", action="store_true", help="also measure a cluster node's scan")
    args = ap.parse_args()
    asyncio.run(single_node(args.rooms))
    if args.cluster:
        asyncio.run(cluster_scan(args.rooms))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
