"""A rolling restart during a game: SIGTERM each of the
three nodes in turn, wait for it to exit, start it again. A node going away closes its sockets with 4012
("reconnect elsewhere"), the players reconnect to another node with their seat token, and no chip and no
acknowledged action is lost."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from nodes import running_cluster
from table import Table, is_korean, run_game
from test_nodes_failover import seated, settle
from test_nodes_play import check_table
from truth import install_audit

GOING_AWAY = 4012


def test_rolling_restart_of_three_nodes(tmp_path: Path) -> None:
    with running_cluster(tmp_path, 3) as (cluster, db):
        install_audit(db)

        async def play() -> tuple[Table, list[float]]:
            table = await seated(cluster, 7)
            table.again = True  # the restarts may outlast one game
            pauses = []
            for node in cluster.nodes:
                version = table.version()
                t0 = time.monotonic()
                code = await asyncio.get_running_loop().run_in_executor(None, node.terminate)
                assert code == 0, f"{node.node_id} exited {code}:\n{node.output()[-3000:]}"
                await table.until(lambda v=version: table.version() >= v + 4, 30,
                                  f"play goes on without {node.node_id}")
                pauses.append(time.monotonic() - t0)
                node.start()
                await asyncio.get_running_loop().run_in_executor(None, node.wait_ready)
            await table.until(lambda: table.version() >= version + 8, 30, "play on the restarted cluster")
            await settle(table)  # no change in flight when the sockets close: each holds the newest view
            await table.close()
            return table, pauses

        table, pauses = run_game(play())
        print("pause per restart (s):", [round(p, 1) for p in pauses])
        closes = [code for p in table.people for _t, code in p.closes]
        assert closes, "the restarts closed sockets"
        assert set(closes) == {GOING_AWAY}, f"sockets closed with {closes}, not only 4012"
        # a message that meets a room moving may be refused ("try again"), in Korean; nothing is lost
        refusals = table.store_errors()
        assert all(is_korean(e.get("message", "")) for e in refusals), refusals
        check_table(table, db, 3)
