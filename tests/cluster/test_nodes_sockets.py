"""No socket is left behind when a room's owner is SIGKILLed (lease TTL 2 s): a room's tabs, following the
web client's own reconnect rules (netjs.py), sit on every node, the owner among them. Every tab, the dead
node's included (they reconnect through the balancer to a survivor and say hello to a room whose lease
still names the dead node), holds a fresh view from the new owner within TTL + 4 s; no tab gets an error
other than a race's (``stale_version``, ``not_your_turn``) nor gives up; the turn that was pending gets
back the time the room had no owner; play goes on and chips are conserved."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from netjs import Balancer, Browser
from nodes import LEASE_TTL, Cluster, running_cluster
from table import run_game
from test_nodes_play import OPTIONS, engine
from truth import RoomTruth, chips_of, install_audit, read_truth

FRESH_BUDGET = LEASE_TTL + 4.0
RACES = frozenset({"stale_version", "not_your_turn"})


async def until(pred: Any, timeout: float, what: str, browsers: list[Browser]) -> None:
    end = time.monotonic() + timeout
    while not pred():
        if time.monotonic() > end:
            state = [(b.name, b.node.node_id if b.node else None, b.fatal, [c for _t, c in b.closes],
                      [e.get("code") for e in b.errors], (b.last_view() or {}).get("version"))
                     for b in browsers]
            raise AssertionError(f"{what}: not within {timeout}s: {state}")
        await asyncio.sleep(0.02)


def one_version(browsers: list[Browser]) -> bool:
    versions = {(b.last_view() or {}).get("version") for b in browsers}
    return len(versions) == 1 and None not in versions


async def seated(cluster: Cluster, rnd: random.Random) -> tuple[list[Browser], str]:
    """Host, two players and three spectators, two tabs on each node (the balancer's turns); the game
    started and settled on a betting turn that is someone's to take."""
    created = cluster.create_room(via=cluster.nodes[0], nickname="방장", mode="holdem", **OPTIONS)
    code = created["code"]
    cluster.wait_owner(code, timeout=10)
    balancer = Balancer(cluster)
    hellos: list[dict[str, Any]] = [{"token": created["token"]}, {"nickname": "둘"}, {"nickname": "셋"},
                                    {"spectate": True}, {"spectate": True}, {"spectate": True}]
    browsers: list[Browser] = []
    for i, hello in enumerate(hellos):
        browser = Browser(f"tab{i}", code, hello, balancer, rnd).start()
        browsers.append(browser)
        await until(lambda b=browser: b.welcomed, 15, f"{browser.name} in the room", browsers)
    await browsers[0].sockets[-1][1].send({"type": "start"})
    for b in browsers[:3]:  # they call and check up to the first flop, then wait there
        b.hold = lambda view: view["handNo"] > 1 or len(view["board"]) >= 3
        b.acting = True
    await until(lambda: any((b.last_view() or {}).get("view", {}).get("handNo") == 1 and
                            len((b.last_view() or {})["view"]["board"]) == 3 for b in browsers), 60,
                "the flop", browsers)
    for b in browsers:
        b.acting, b.hold = False, None
    await asyncio.sleep(0.5)
    await until(lambda: one_version(browsers), 10, "every tab on one version", browsers)
    return browsers, code


def test_sigkill_owner_leaves_no_socket_behind(tmp_path: Path) -> None:
    async def kill_the_owner(cluster: Cluster, browsers: list[Browser], code: str) -> None:
        owner = cluster.owner(code)
        assert owner is not None
        on_victim = [b for b in browsers if b.node is owner]
        assert on_victim and len(on_victim) < len(browsers), [b.node for b in browsers]
        before = browsers[-1].last_view()
        assert before is not None and before["view"]["toAct"] and before["view"]["deadlineAt"]
        t_kill = time.monotonic()
        owner.kill()
        await until(lambda: all(b.first_view_after(t_kill) for b in browsers), FRESH_BUDGET + 10,
                    "a fresh view on every tab", browsers)
        waited = {b.name: b.first_view_after(t_kill)[0] - t_kill for b in browsers}  # type: ignore[index]
        print(f"kill -> fresh view: {', '.join(f'{k} {v:.2f} s' for k, v in waited.items())} "
              f"(on the dead node: {[b.name for b in on_victim]})")
        late = {k: round(v, 2) for k, v in waited.items() if v > FRESH_BUDGET}
        assert not late, f"tabs without a fresh view within TTL + 4 s: {late}"
        refused = {b.name: [e["code"] for e in b.errors if e.get("code") not in RACES]
                   for b in browsers}
        assert not any(refused.values()) and not any(b.fatal for b in browsers), (refused, [
            b.fatal for b in browsers])
        for b in on_victim:
            assert b.closes and b.node is not owner, f"{b.name} did not move off the dead node"
        for b in browsers:
            if b not in on_victim:
                assert not b.closes, f"{b.name} on a survivor was closed: {b.closes}"
        # the same table, and the turn got back the time nobody served the room
        fresh = browsers[-1].first_view_after(t_kill)[1]  # type: ignore[index]
        same = ("board", "seats", "potTotal", "toAct", "handNo", "street")
        assert {k: fresh["view"][k] for k in same} == {k: before["view"][k] for k in same}
        shift_ms = fresh["view"]["deadlineAt"] - before["view"]["deadlineAt"]
        first = min(waited.values()) * 1000
        assert first - 1000 <= shift_ms <= first + LEASE_TTL / 3 * 1000 + 500, (shift_ms, first)
        # play goes on through the same tabs
        await play_on(browsers, fresh["version"], "play on the new owner")

    browsers, _code, truth = run_seated(tmp_path, 11, kill_the_owner)
    for b in browsers:  # (a hand's end may go on by its own 4 s timer after the tabs closed)
        last = b.last_view()
        assert last is not None and last["version"] in truth.states, b.name
        stored = truth.engine.load_state(truth.states[last["version"]])
        assert last["view"] == truth.engine.view(stored, b.player_id), b.name


def run_seated(tmp_path: Path, seed: int,
               body: Callable[[Cluster, list[Browser], str], Awaitable[None]],
               *extra: str) -> tuple[list[Browser], str, RoomTruth]:
    """Three nodes (``extra``: their flags) and the table :func:`seated` makes on them, ``body`` run on it,
    every tab closed after, then :func:`whole_after`'s checks; the tabs, the room and its stored truth."""
    with running_cluster(tmp_path, 3, *extra) as (cluster, db):
        install_audit(db)

        async def play() -> tuple[list[Browser], str]:
            browsers, code = await seated(cluster, random.Random(seed))
            try:
                await body(cluster, browsers, code)
            finally:
                for b in browsers:
                    await b.close()
            return browsers, code

        browsers, code = run_game(play())
        return browsers, code, whole_after(browsers, db, code)


async def play_on(browsers: list[Browser], version: int, what: str) -> None:
    """The three players take their turns until the table is 8 versions past ``version``, then stop, and
    every tab settles on one version."""
    for b in browsers[:3]:
        b.acting = True
    newest = lambda: max((b.last_view() or {}).get("version", 0) for b in browsers)  # noqa: E731
    await until(lambda: newest() >= version + 8, 60, what, browsers)
    for b in browsers:
        b.acting = False
    await asyncio.sleep(0.5)
    await until(lambda: one_version(browsers), 10, "every tab on one version", browsers)


def whole_after(browsers: list[Browser], db: str, code: str) -> RoomTruth:
    """After the tabs closed: none gave up or got an error but a race's, the stored log audits clean and
    every view any tab held has the table's chips. The stored truth, for more checks."""
    for b in browsers:
        assert b.fatal == "closed by the test", f"{b.name} gave up: {b.fatal}"
        wrong = [e for e in b.errors if e.get("code") not in RACES]
        assert not wrong, f"{b.name} got {wrong}"
    truth = read_truth(db, code, engine())
    assert not truth.problems, truth.problems
    totals = {chips_of(v["view"]) for b in browsers for _n, c in b.sockets for v in c.views()} - {None}
    assert totals == {3 * OPTIONS["startingChips"]}, f"chips not conserved: {totals}"
    return truth
