"""Three nodes, rooms whose players and spectator sit on three different nodes: whole
games in four modes, with the frame scanner of the server tests on every socket — nothing a connection may
not see crosses to its node — and every view rebuilt from deltas equal to the engine's view of the true
state, which the test rebuilds from PostgreSQL (truth.py)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from nodes import Cluster, running_cluster
from server_helpers import real_secrets_for, scan_frames
from table import Table, run_game
from truth import acked_in_log, chips_of, install_audit, read_truth

MODES = ("holdem", "sevenHiLo", "badugi", "indian")
OPTIONS: dict[str, Any] = {"turnSeconds": 60, "hints": False, "handLimit": 10, "rebuy": "off",
                           "startingChips": 1000, "baseUnit": 10}


def engine() -> Any:
    from pokerroom.server.engine_port import PokerEngine

    return PokerEngine()


async def open_table(cluster: Cluster, mode: str, seed: int, deltas: bool = True) -> Table:
    """Host on node 1, two players on nodes 2 and 3, a spectator on a node that does not own the room."""
    a, b, c = cluster.nodes[:3]
    created = cluster.create_room(via=a, nickname="방장", mode=mode, **OPTIONS)
    code = created["code"]
    owner = cluster.wait_owner(code, timeout=10)
    table = Table(cluster, code, seed=seed, deltas=deltas)
    await table.seat("host", a, token=created["token"])
    await table.seat("p2", b, nickname="둘")
    await table.seat("p3", c, nickname="셋")
    await table.seat("watch", next(n for n in (c, b, a) if n is not owner), spectate=True)
    return table


def check_table(table: Table, db: str, players: int) -> int:
    """The scanner on every socket, the replay of the log, acks in the log, chips conserved."""
    truth = read_truth(db, table.code, engine())
    assert not truth.problems, truth.problems
    tokens = tuple(p.token for p in table.people if p.token)
    checked = 0
    for person in table.people:
        for client in person.clients:
            client.token = person.token
            checked += scan_frames(truth, table.code, client, lambda _v, p=person: p.player_id,
                                   real_secrets_for, tokens)
    assert checked > 0
    missing = acked_in_log(truth, table.all_acks())
    assert not missing, f"acknowledged actions missing from the log: {missing}"
    totals = {chips_of(v["view"]) for p in table.people for c in p.clients for v in c.views()} - {None}
    assert totals == {players * OPTIONS["startingChips"]}, f"chips not conserved: {totals}"
    final = truth.final()
    for person in table.people:
        last = person.last_view()
        assert last is not None and last["version"] == truth.newest, person.name
        view = dict(last["view"])
        assert view == truth.engine.view(final, person.player_id)
    return checked


def test_three_nodes_four_modes_relay_and_scanner(tmp_path: Path) -> None:
    with running_cluster(tmp_path, 3, "--time-scale", "0.25") as (cluster, db):
        install_audit(db)

        async def play() -> tuple[list[Table], set[Any]]:
            tables: list[Table] = []
            try:
                for i, mode in enumerate(MODES):
                    # half the sockets take view deltas, half whole views: the relay must carry both
                    tables.append(await open_table(cluster, mode, i, deltas=i % 2 == 0))
                    await asyncio.sleep(1.0)  # a heartbeat (TTL/3) tells the cluster the room's node
                owners = {cluster.owner(t.code) for t in tables}
                for t in tables:
                    await t.people[0].client.send({"type": "start"})
                await asyncio.gather(*(t.finish(timeout=150) for t in tables))
            finally:
                for t in tables:
                    await t.close()
            return tables, owners

        tables, owners = run_game(play())
        assert len(owners) >= 2, f"new rooms go to the live node with the fewest rooms: all on {owners}"
        for t in tables:
            check_table(t, db, 3)
        for t in tables:
            assert not t.store_errors(), t.store_errors()
            closes = {p.name: p.closes for p in t.people if p.closes}
            assert not closes, f"sockets closed during the games (no node went away): {closes}"
