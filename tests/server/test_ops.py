"""Operations endpoints of one node: ``/healthz``, ``/readyz`` (the readiness registry), ``/metrics``
(prometheus-client, optional), JSON-lines logs, and the drain's 4012 close (in-process; the SIGTERM of a
real ``pokerroom serve`` is in test_sigterm.py)."""

from __future__ import annotations

import asyncio
import json
import logging
import random
import sys
import threading
import time
from typing import Any

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families
from server_helpers import Client, LiveServer, join, pick_action, play_until_result

from pokerroom.server.ops.health import Readiness
from pokerroom.server.ops.logs import JsonFormatter, current_room, set_node_id
from pokerroom.server.storage import Store

pytestmark = pytest.mark.timeout(60)


def test_healthz_names_the_node_and_readyz_runs_the_store_check(make_server: Any) -> None:
    srv: LiveServer = make_server(node_id="node-a")
    health = httpx.get(f"{srv.http}/healthz")
    assert health.status_code == 200 and health.json()["ok"] is True and health.json()["node"] == "node-a"
    ready = httpx.get(f"{srv.http}/readyz")
    assert ready.status_code == 200, ready.text
    body = ready.json()
    assert body["ok"] is True and body["node"] == "node-a" and body["failed"] == []
    assert set(body["checks"]) == {"store"} and body["checks"]["store"]["ok"] is True


def test_readyz_is_503_naming_the_failed_checks(make_server: Any) -> None:
    async def good() -> tuple[bool, str]:
        return True, "fine"

    async def down() -> tuple[bool, str]:
        return False, "redis unreachable"

    async def raises() -> tuple[bool, str]:
        raise ConnectionRefusedError("postgres refused")

    async def hangs() -> tuple[bool, str]:
        await asyncio.sleep(30)
        return True, "never"

    readiness = Readiness(timeout_s=2.0)  # the store check runs in a thread: slow on a loaded machine
    for name, check in (("good", good), ("redis", down), ("postgres", raises), ("leases", hangs)):
        readiness.add(name, check)
    srv: LiveServer = make_server(readiness=readiness)
    r = httpx.get(f"{srv.http}/readyz", timeout=10)
    assert r.status_code == 503
    body = r.json()
    assert body["ok"] is False and sorted(body["failed"]) == ["leases", "postgres", "redis"]
    checks = body["checks"]
    assert checks["good"]["ok"] and checks["store"]["ok"], "the app added its store check to the registry"
    assert checks["redis"]["detail"] == "redis unreachable"
    assert "postgres refused" in checks["postgres"]["detail"]
    assert "2 s" in checks["leases"]["detail"] and checks["leases"]["ms"] < 10_000
    readiness.remove("redis")
    readiness.remove("postgres")
    readiness.remove("leases")
    assert httpx.get(f"{srv.http}/readyz").status_code == 200, "ready again once the checks pass"
    assert httpx.get(f"{srv.http}/healthz").status_code == 200, "alive all along"


def _samples(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    out = {}
    for family in text_string_to_metric_families(text):
        for s in family.samples:
            out[(s.name, tuple(sorted(s.labels.items())))] = s.value
    return out


def test_metrics_after_a_game(make_server: Any) -> None:
    srv: LiveServer = make_server(node_id="node-m")
    metrics = srv.app.state.metrics

    async def main() -> tuple[int, int]:
        room = srv.create_room()
        a = await join(srv, room["code"], "a", token=room["token"])
        b = await join(srv, room["code"], "b", nickname="비")
        w = await join(srv, room["code"], "w", spectate=True)
        await a.send({"type": "start"})
        await play_until_result([a, b], random.Random(3))
        while not all(c.last("result") for c in (a, b, w)):  # every frame before the result is read
            await asyncio.sleep(0.01)
        acks = sum(1 for c in (a, b) for m in c.frames if m["type"] == "ack" or "ack" in m)
        text = httpx.get(f"{srv.http}/metrics").text
        got = _samples(text)
        assert got[("pokerroom_connections", ())] == 3
        for c in (a, b, w):
            await c.close()
        return acks, int(got[("pokerroom_actions_total", (("kind", "action"),))])

    acks, actions = asyncio.run(main())
    assert actions == acks > 0, "every acknowledged action is counted once"
    r = httpx.get(f"{srv.http}/metrics")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/plain")
    got = _samples(r.text)
    assert got[("pokerroom_node_info", (("node", "node-m"),))] == 1
    assert got[("pokerroom_rooms_owned", ())] == 1
    assert got[("pokerroom_actions_total", (("kind", "start"),))] == 1
    committed = sum(v for (name, _), v in got.items() if name == "pokerroom_actions_total")
    assert got[("pokerroom_commit_seconds_count", ())] == committed
    assert 0 < got[("pokerroom_commit_seconds_sum", ())] < committed  # seconds, each well under one
    assert got[("pokerroom_frames_sent_total", ())] == metrics.frames_sent > committed
    assert got[("pokerroom_frame_bytes_sent_total", ())] == metrics.bytes_sent > 1000
    # defined here, incremented by the cluster code: present and zero on a single node
    assert got[("pokerroom_takeovers_total", ())] == 0
    assert got[("pokerroom_relay_seconds_count", ())] == 0
    metrics.count_takeover()
    metrics.observe_relay(0.0015)
    got = _samples(httpx.get(f"{srv.http}/metrics").text)
    assert got[("pokerroom_takeovers_total", ())] == 1
    assert got[("pokerroom_relay_seconds_bucket", (("le", "0.002"),))] == 1
    assert got[("pokerroom_relay_seconds_bucket", (("le", "0.001"),))] == 0


def test_metrics_404_without_prometheus_client(make_server: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """``make run`` installs no cluster extra: /metrics says so (404), everything else works."""
    for name in [m for m in sys.modules if m == "prometheus_client" or m.startswith("prometheus_client.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "prometheus_client", None)  # import prometheus_client -> ImportError
    srv: LiveServer = make_server()
    r = httpx.get(f"{srv.http}/metrics")
    assert r.status_code == 404 and "cluster" in r.text and "prometheus-client" in r.text
    assert srv.app.state.metrics.enabled is False

    async def main() -> None:
        room = srv.create_room()
        a = await join(srv, room["code"], "a", token=room["token"])
        b = await join(srv, room["code"], "b", nickname="비")
        await a.send({"type": "start"})
        await play_until_result([a, b], random.Random(4))

    asyncio.run(main())
    assert srv.app.state.metrics.frames_sent > 0
    assert httpx.get(f"{srv.http}/readyz").status_code == 200


def test_json_log_lines_carry_node_and_room() -> None:
    fmt = JsonFormatter()
    set_node_id("node-j")
    rec = logging.LogRecord("pokerroom.server", logging.WARNING, __file__, 1, "slow change %d ms", (120,),
                            None)
    line = json.loads(fmt.format(rec))
    assert line["level"] == "warning" and line["message"] == "slow change 120 ms"
    assert line["node"] == "node-j" and "room" not in line and line["time"].endswith("Z")
    token = current_room.set("abcdefghjk")
    try:
        line = json.loads(fmt.format(rec))
        assert line["room"] == "abcdefghjk", "the socket task's room code"
        rec2 = logging.LogRecord("x", logging.INFO, __file__, 1, "move", (), None)
        rec2.room = "zzzzzzzzzz"
        rec2.version = 7
        line2 = json.loads(fmt.format(rec2))
        assert line2["room"] == "zzzzzzzzzz" and line2["version"] == 7, "extra= wins over the context"
    finally:
        current_room.reset(token)
    try:
        raise ValueError("boom")
    except ValueError:
        rec3 = logging.LogRecord("x", logging.ERROR, __file__, 1, "failed", (), sys.exc_info())
    assert "ValueError: boom" in json.loads(fmt.format(rec3))["exc"]


def test_drain_closes_sockets_with_4012_after_the_change_in_flight(make_server: Any) -> None:
    """The drain freezes rooms (a change in flight finishes, with its ack), runs the hooks, then closes every
    socket with 4012; the node answers 503 on /readyz and closes new sockets with 4012 at once."""
    srv: LiveServer = make_server()
    order: list[str] = []

    async def hook() -> None:
        order.append("hook")

    srv.app.state.drain.hooks.append(hook)

    async def main() -> None:
        room = srv.create_room()
        a = await join(srv, room["code"], "a", token=room["token"])
        b = await join(srv, room["code"], "b", nickname="비")
        w = await join(srv, room["code"], "w", spectate=True)
        await a.send({"type": "start"})
        await a.expect("view")
        loop = asyncio.get_running_loop()
        drained = asyncio.run_coroutine_threadsafe(srv.app.state.drain_now(), srv_loop(srv))
        await loop.run_in_executor(None, drained.result, 10)
        order.append("drained")
        for c in (a, b, w):
            closed = await c.expect("_closed")
            assert closed["code"] == 4012
            assert c.ws.close_reason.startswith("이 서버가 잠시 내려가요")
        ready = httpx.get(f"{srv.http}/readyz")
        assert ready.status_code == 503 and "draining" in ready.json()["failed"]
        late = await Client.open(srv.ws_url(room["code"]), "late")
        assert (await late.expect("_closed"))["code"] == 4012
        refused = httpx.post(f"{srv.http}/api/rooms", json={"nickname": "c", "options": {}})
        assert refused.status_code == 503 and refused.json()["error"]["code"] == "server_moving"
        info = httpx.get(f"{srv.http}/api/rooms/{room['code']}")
        assert info.status_code == 503 and info.json()["error"]["code"] == "server_moving"
        assert srv.rooms.rooms[room["code"]].closed, "frozen: no timer or bot changes it any more"

    asyncio.run(main())
    assert order == ["hook", "drained"]


def test_drain_waits_for_the_store_write_in_flight(make_server: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """An action whose store write is under way when the drain starts is committed, and its sender gets the
    ack before the 4012 close: the drain finishes the change in flight, it never cuts it."""
    srv: LiveServer = make_server()
    slow = threading.Event()
    original = Store.apply_batch

    def delayed(self: Store, ops: list[tuple[str, tuple[Any, ...]]]) -> None:
        if slow.is_set():
            time.sleep(0.6)  # a slow disk: the group-commit thread holds this write for a while
        original(self, ops)

    monkeypatch.setattr(Store, "apply_batch", delayed)

    async def main() -> None:
        room = srv.create_room()
        a = await join(srv, room["code"], "a", token=room["token"])
        b = await join(srv, room["code"], "b", nickname="비")
        await a.send({"type": "start"})
        for c in (a, b):
            await c.expect("view")
        rnd = random.Random(5)
        actor, action = next((c, act) for c in (a, b) if (v := c.last("view")) is not None
                             and (act := pick_action(v["view"], rnd)) is not None)
        version = actor.last("view")["version"]  # type: ignore[index]
        slow.set()
        await actor.send({"type": "action", "clientMsgId": "inflight", "version": version, "action": action})
        await asyncio.sleep(0.2)  # the write is under way now
        t0 = time.monotonic()
        drained = asyncio.run_coroutine_threadsafe(srv.app.state.drain_now(), srv_loop(srv))
        await asyncio.get_running_loop().run_in_executor(None, drained.result, 10)
        assert time.monotonic() - t0 >= 0.2, "the drain waited for the write"
        seen: list[dict[str, Any]] = []
        while not seen or seen[-1]["type"] != "_closed":
            seen.append(await asyncio.wait_for(actor.queue.get(), 10))
        kinds = [m["type"] for m in seen]
        assert "ack" in kinds and kinds.index("ack") < kinds.index("_closed"), kinds
        assert seen[-1]["code"] == 4012
        assert [r.client_msg_id for r in srv.rooms.store.log(room["code"])].count("inflight") == 1

    asyncio.run(main())


def srv_loop(srv: LiveServer) -> asyncio.AbstractEventLoop:
    """The event loop the live server runs on (the rooms' reaper task lives there)."""
    reaper = srv.rooms._reaper
    assert reaper is not None
    return reaper.get_loop()
