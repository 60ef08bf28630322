"""SIGTERM a real ``pokerroom serve`` mid-game: every socket is closed with 4012 (reconnect elsewhere with
the seat token), the process exits 0 within a few seconds, and after a restart the room is there with every
acknowledged action (an action in flight at the signal is either acknowledged and stored, or neither)."""

from __future__ import annotations

import asyncio
import json
import signal
import sqlite3
import time
from pathlib import Path

import pytest
from server_helpers import Client, rejoin, reply_to, safe_action, safe_actor, safe_step, start_table

from serving import ServeProcess

pytestmark = pytest.mark.timeout(120)

async def _play(players: list[Client], steps: int, acked: dict[str, int], tag: str) -> None:
    for n in range(steps):
        _p, _action, ack = await safe_step(players, f"{tag}{n}")
        acked[f"{tag}{n}"] = ack["version"]


def _stored(data: Path, code: str) -> tuple[dict[str, int], int]:
    db = sqlite3.connect(data / "pokerroom.sqlite3")
    try:
        rows = db.execute("SELECT client_msg_id, version FROM actions WHERE code=? AND client_msg_id IS NOT "
                          "NULL", (code,)).fetchall()
        newest = max(db.execute("SELECT max(version) FROM actions WHERE code=?", (code,)).fetchone()[0] or 0,
                     db.execute("SELECT version FROM rooms WHERE code=?", (code,)).fetchone()[0])
    finally:
        db.close()
    return dict(rows), newest


def test_sigterm_mid_game_closes_4012_exits_0_and_keeps_every_acked_action(tmp_path: Path) -> None:
    json_logs = {"POKERROOM_LOG_FORMAT": "json", "POKERROOM_NODE_ID": "ops-node-1"}
    srv = ServeProcess(tmp_path, log_level="info", env=json_logs).up()
    acked: dict[str, int] = {}
    try:
        async def before() -> tuple[str, list[str], str, int]:
            code, players = await start_table(srv, ("가", "나"), mode="holdem", turnSeconds=60, hints=False)
            a, b = players
            w = await Client.open(srv.ws_url(code), "w")
            await w.hello(spectate=True)
            await _play(players, 5, acked, "s")
            found = None
            while found is None:
                found = safe_actor(players)
                await asyncio.sleep(0.01)
            p, version, action = found
            await p.send({"type": "action", "clientMsgId": "inflight", "version": version, "action": action})
            srv.signal(signal.SIGTERM)  # right behind the action: it may or may not be applied
            t0 = time.monotonic()
            reply = await reply_to(p, "inflight")
            if reply["type"] == "ack":
                acked["inflight"] = reply["version"]
            for c in (a, b, w):
                closed = await c.expect("_closed", timeout=10)
                assert closed["code"] == 4012, (c.name, closed)
                assert c.ws.close_reason.startswith("이 서버가 잠시 내려가요")
            seen = max((c.last("view") or {}).get("version", 0) for c in (a, b, w))
            assert srv.proc.wait(timeout=10) == 0, srv.output()
            assert time.monotonic() - t0 < 5.0, "drained and exited within a few seconds"
            return code, [a.token or "", b.token or ""], p.name, seen

        code, tokens, inflight_by, seen = asyncio.run(before())
        lines = [json.loads(line) for line in srv.output().splitlines() if line.startswith("{")]
        assert lines and all(rec["node"] == "ops-node-1" and {"time", "level", "message"} <= set(rec)
                             for rec in lines), "structured logs: one JSON object per line, with the node id"
        assert any(rec["message"].startswith("drained: 1 rooms frozen, 3 sockets") for rec in lines)
        stored, newest = _stored(tmp_path, code)
        for cmid, version in acked.items():
            assert stored.get(cmid) == version, f"acknowledged action {cmid} v{version} is stored"
        if "inflight" not in acked:
            assert "inflight" not in stored, "an action nobody acknowledged was not applied either"
        assert newest == seen, "every stored change was sent before the sockets closed"

        # the same address: the rooms come back from SQLite (the next start's output only, from here)
        srv.log_level, srv.env = "warning", {}
        srv.up()

        async def after() -> None:
            back = await rejoin(srv, code, tokens)
            for _c, snap in back:
                # the last stored version, or one more when the restart took a second or more with a turn
                # pending: that time is given back to the player (a change of its own, said in the log)
                given_back = snap["version"] == newest + 1 and "멈춰" in snap["view"]["publicLog"][-1]["text"]
                assert snap["version"] == newest or given_back, \
                    "the reconnect snapshot is the last stored version"
            players = [c for c, _snap in back]
            if "inflight" not in acked:  # the client re-sends its unacknowledged action: applied once now
                p = players[0 if inflight_by == "a" else 1]
                view = p.last("view")
                assert view is not None
                if safe_action(view["view"]) is not None:
                    await p.send({"type": "action", "clientMsgId": "inflight", "version": view["version"],
                                  "action": safe_action(view["view"])})
                    reply = await reply_to(p, "inflight")
                    assert reply["type"] == "ack", reply
                    acked["inflight"] = reply["version"]
            before_more = len(acked)
            await _play(players, 3, acked, "t")
            assert len(acked) == before_more + 3, "play goes on after the restart"

        asyncio.run(after())
    finally:
        srv.stop()
    stored, _ = _stored(tmp_path, code)
    for cmid, version in acked.items():
        assert stored.get(cmid) == version
