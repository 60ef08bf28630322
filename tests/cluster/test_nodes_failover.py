"""A room's owner dies or freezes mid-hand: another node takes the room over within
lease TTL + 2 s from PostgreSQL, every connection gets a fresh snapshot, the hand goes on with the same next
cards, chips are conserved and every acknowledged action is in the log; a frozen owner that wakes up is
refused by the fencing token and steps down; two nodes racing for a room never both own it."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import httpx
from nodes import TAKEOVER_BUDGET, Cluster, Node, running_cluster
from server_helpers import Client
from table import Person, Table, is_korean, run_game
from test_nodes_play import OPTIONS, check_table, engine
from truth import install_audit, read_truth


async def seated(cluster: Cluster, seed: int, mode: str = "holdem") -> Table:
    """Host, two players and a spectator on the three nodes; the game started and into its second hand."""
    a, b, c = cluster.nodes[:3]
    created = cluster.create_room(via=a, nickname="방장", mode=mode, **OPTIONS)
    table = Table(cluster, created["code"], seed=seed)
    await table.seat("host", a, token=created["token"])
    await table.seat("p2", b, nickname="둘")
    await table.seat("p3", c, nickname="셋")
    await table.seat("watch", b, spectate=True)
    await table.people[0].client.send({"type": "start"})
    await table.until(lambda: table.hand_no() >= 2 and mid_hand(table), 60, "the second hand under way")
    return table


def mid_hand(table: Table) -> bool:
    last = table.people[-1].last_view()
    return last is not None and last["view"]["phase"] == "betting" and len(last["view"]["board"]) >= 3


async def settle(table: Table) -> dict[str, dict[str, Any]]:
    """Stop acting, let in-flight actions land, and return every person's last view (all the same version)."""
    table.acting = False
    await asyncio.sleep(0.5)
    await table.until(lambda: len({p.last_view()["version"] for p in table.people}) == 1, 10,  # type: ignore[index]
                      "everyone on one version")
    return {p.name: p.last_view() for p in table.people}  # type: ignore[misc]


def same_table(after: dict[str, Any], before: dict[str, Any]) -> bool:
    """``after`` is the table of ``before`` once its pending deadline was moved later by the time the room
    had no owner: one change more, a later ``deadlineAt``, and the log line that says so."""
    view, old = dict(after["view"]), before["view"]
    if after["version"] != before["version"] + 1 or "멈춰" not in view["publicLog"][-1]["text"]:
        return False
    assert view["deadlineAt"] > old["deadlineAt"]
    kept = len(view["publicLog"]) - 1  # (the log keeps its last 100 lines: a full one lost its oldest)
    old = {**old, "publicLog": old["publicLog"][len(old["publicLog"]) - kept:]}
    view["publicLog"], view["deadlineAt"] = view["publicLog"][:-1], old["deadlineAt"]
    return bool(view == old)


def first_view_after(person: Person, t0: float) -> float | None:
    return next((t for t, _v in person.views_at if t > t0), None)


def test_sigkill_owner_mid_hand(tmp_path: Path) -> None:
    with running_cluster(tmp_path, 3) as (cluster, db):
        install_audit(db)

        async def play() -> Table:
            table = await seated(cluster, 3)
            before = await settle(table)
            owner = cluster.owner(table.code)
            assert owner is not None
            t_kill = time.monotonic()
            owner.kill()
            heir = cluster.wait_owner(table.code, not_=owner, timeout=TAKEOVER_BUDGET + 5)
            took = time.monotonic() - t_kill
            # every person, wherever their socket was, holds a fresh snapshot from the new owner
            await table.until(lambda: all(first_view_after(p, t_kill) is not None for p in table.people),
                              TAKEOVER_BUDGET + 10, "a fresh snapshot for everyone")
            for p in table.people:
                waited = first_view_after(p, t_kill) - t_kill  # type: ignore[operator]
                assert waited <= TAKEOVER_BUDGET, \
                    f"{p.name} waited {waited:.1f}s (lease taken after {took:.1f}s)"
                # nothing acknowledged was lost: the snapshot is the view the person had before the kill
                # (but for the pending turn's deadline, moved later by the time the room had no owner)
                snap = p.last_view()
                assert snap is not None and same_table(snap, before[p.name]), p.name
            assert heir is not owner
            hand = table.hand_no()
            table.acting = True
            # 45 s < turnSeconds (60): hands move by the players acting, not by their turn timers running out
            await table.until(lambda: table.hand_no() >= hand + 2, 45, "two more hands on the new owner")
            await table.close()
            return table

        table = run_game(play())
        assert not table.store_errors(), table.store_errors()
        check_table(table, db, 3)  # replay of the log == every stored snapshot: the same next cards


def test_sigstop_owner_is_fenced_and_steps_down(tmp_path: Path) -> None:
    with running_cluster(tmp_path, 3) as (cluster, db):
        install_audit(db)

        async def play() -> tuple[Table, Client, str]:
            table = await seated(cluster, 4)
            before = await settle(table)
            owner = cluster.owner(table.code)
            assert owner is not None
            # a second tab of the player to act, on the owner itself: its action reaches the frozen owner
            to_act = before["watch"]["view"]["toAct"]
            actor = next(p for p in table.people if p.player_id == to_act)
            tab = await Client.open(owner.ws_url(table.code), "tab")
            await tab.hello(token=actor.token)
            await tab.expect("view")
            owner.pause()
            t_stop = time.monotonic()
            version = before["watch"]["version"]
            await tab.send({"type": "action", "clientMsgId": "frozen-1", "version": version,
                            "action": {"type": "nl.call"}})  # queued in the frozen node's socket
            heir = cluster.wait_owner(table.code, not_=owner, timeout=TAKEOVER_BUDGET + 5)
            assert time.monotonic() - t_stop <= TAKEOVER_BUDGET + 1, "the frozen owner's lease expired late"
            # people whose socket is on the frozen node go elsewhere (the client gives up on a silent socket)
            for p in table.people:
                if p.node is owner:
                    await table.reconnect(p, avoid=owner)
            table.acting = True
            await table.until(lambda: table.version() >= version + 8, 60, "play on the new owner")
            table.acting = False
            await settle(table)
            newest = table.version()
            owner.cont()  # wakes up believing it owns the room, with an action to apply
            # it steps down: its sockets (the tab) get the new owner's state, not its own stale one
            await table.until(lambda: (tab.held or (0, {}))[0] >= newest, TAKEOVER_BUDGET + 10,
                              "the frozen node's socket shows the new owner's state")
            assert cluster.owner(table.code) is heir
            table.acting = True
            await table.until(lambda: table.version() >= newest + 6, 60, "play on after the wake-up")
            await table.close()
            await tab.close()
            return table, tab, to_act

        table, tab, _to_act = run_game(play())
        truth = read_truth(db, table.code, engine())
        assert not truth.problems, truth.problems
        # the frozen owner's action was never applied on its stale state: either refused, or (after it
        # stepped down) relayed to the new owner, which judged it against the true state
        rows = [r for r in truth.log.values() if r["client_msg_id"] == "frozen-1"]
        errors = [f for f in tab.frames if f["type"] == "error"]
        # an ack is an "ack" frame or a view carrying "ack"; a refusal (an error with the clientMsgId) is not
        acks = [f for f in tab.frames if f.get("ack") == "frozen-1"
                or (f["type"] == "ack" and f.get("clientMsgId") == "frozen-1")]
        assert len(rows) <= 1 and (not acks or rows), (rows, acks)
        assert all(is_korean(e["message"]) for e in errors), errors
        check_table(table, db, 3)  # final state == replay of the log; the scanner on every socket


def test_two_nodes_race_for_rooms(tmp_path: Path) -> None:
    """Twelve rooms on node 1; it dies and the two others race for every room; then the node holding the
    most rooms dies, and so on (at least 20 races in all): after every round each room has exactly one
    owner — one lease, and exactly one live node counting the room as its own."""
    with running_cluster(tmp_path, 3, started=1) as (cluster, _db):
        first = cluster.nodes[0]
        codes = [cluster.create_room(via=first, mode="holdem", **OPTIONS)["code"] for _ in range(12)]
        for node in cluster.nodes[1:]:
            node.start()
        for node in cluster.nodes[1:]:
            node.wait_ready()
        owners = {code: cluster.owner(code) for code in codes}
        assert set(owners.values()) == {first}
        victim, races = first, 0
        for _round in range(4):
            moving = [code for code, o in owners.items() if o is victim]
            victim.kill()
            others = [n for n in cluster.nodes if n is not victim]
            for code in moving:
                cluster.wait_owner(code, not_=victim, timeout=TAKEOVER_BUDGET + 8)
            time.sleep(0.5)  # the losers' attempts are over
            owners = {code: cluster.owner(code) for code in codes}
            assert all(o in others for o in owners.values()), owners
            counts = {n.node_id: owned_count(n) for n in others}
            expected = {n.node_id: sum(o is n for o in owners.values()) for n in others}
            assert counts == expected, f"rooms each node serves {counts} != leases {expected}"
            races += len(moving)
            victim.start().wait_ready()
            victim = max(others, key=lambda n: expected[n.node_id])
        assert races >= 20, races


def owned_count(node: Node) -> int:
    """Rooms the node says it owns, from its Prometheus metrics ("rooms owned")."""
    for line in httpx.get(f"{node.http}/metrics", timeout=5).text.splitlines():
        if line.startswith(ROOMS_OWNED):
            return int(float(line.rsplit(" ", 1)[1]))
    raise AssertionError(f"no {ROOMS_OWNED} in {node.node_id}'s /metrics")


ROOMS_OWNED = "pokerroom_rooms_owned"
