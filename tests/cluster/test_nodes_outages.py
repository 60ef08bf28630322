"""Redis restarted mid-game, PostgreSQL unreachable for a few seconds: actions are refused with
a Korean error and nothing is half-applied (the log replays to every stored snapshot, every ack is in the
log, chips are conserved), then play resumes.

Both outages are the test's own: a private redis-server it restarts, a TCP proxy in front of PostgreSQL it
cuts (faults.py); the machine's services are never touched.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from faults import PrivateRedis, TcpProxy
from nodes import running_cluster
from table import Table, is_korean, run_game
from test_nodes_failover import seated
from test_nodes_play import check_table
from truth import install_audit


def refusals_are_korean(table: Table) -> None:
    for e in table.store_errors():
        assert is_korean(e.get("message", "")), f"a refusal a player cannot read: {e}"


def test_redis_restarted_mid_game(tmp_path: Path, private_redis: PrivateRedis) -> None:
    with running_cluster(tmp_path, 3, redis_url=private_redis.url) as (cluster, db):
        install_audit(db)

        async def play() -> Table:
            table = await seated(cluster, 5)
            version = table.version()
            private_redis.restart(down_for=1.5)  # back empty: no lease, no relay subscription survives
            back = time.monotonic()
            await table.until(lambda: table.version() >= version + 10, 40, "play resumes after Redis is back")
            resumed = time.monotonic() - back
            hand = table.hand_no()
            await table.until(lambda: table.hand_no() > hand, 60, "the next hand")
            await table.close()
            print(f"play resumed {resumed:.1f}s after Redis came back")
            return table

        table = run_game(play())
        refusals_are_korean(table)
        assert cluster.owner(table.code) is not None
        check_table(table, db, 3)


def test_postgres_unreachable_for_seconds(tmp_path: Path, pg_proxy: TcpProxy) -> None:
    through_proxy = f"postgresql://postgres@127.0.0.1:{pg_proxy.port}/{{db}}"
    with running_cluster(tmp_path, 3, database_url=through_proxy) as (cluster, db):
        install_audit(db)

        async def play() -> tuple[Table, int]:
            table = await seated(cluster, 6)
            pg_proxy.cut()
            cut_at = time.monotonic()
            version = table.version()
            await table.until(lambda: bool(table.store_errors()) or time.monotonic() - cut_at > 3, 10,
                              "a refusal while PostgreSQL is unreachable")
            await asyncio.sleep(max(0.0, 3.0 - (time.monotonic() - cut_at)))
            during = table.version()
            pg_proxy.restore()
            await table.until(lambda: table.version() >= during + 10, 40,
                              "play resumes after PostgreSQL is back")
            hand = table.hand_no()
            await table.until(lambda: table.hand_no() > hand, 60, "the next hand")
            await table.close()
            return table, during - version

        table, advanced = run_game(play())
        errors = table.store_errors()
        assert errors, "an action sent while PostgreSQL was unreachable was refused"
        assert advanced <= 1, f"{advanced} changes published while nothing could be stored"
        refusals_are_korean(table)
        check_table(table, db, 3)
