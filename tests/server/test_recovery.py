"""SIGKILL a real ``pokerroom serve`` and restart it: every room comes back with the same state, the same
next cards (the dealing RNG lives in the stored state), resumed deadlines, and seats reachable by token."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from server_helpers import Client, free_port, without_clock

pytestmark = pytest.mark.timeout(120)

SAFE = ("ready", "k.check", "nl.check", "k.call", "nl.call")
COMPARED = ("board", "pots", "potTotal", "handNo", "phase", "toAct", "street", "dealerSeat")


def _serve(port: int, data: Path, *extra: str) -> subprocess.Popen[bytes]:
    cmd = [sys.executable, "-m", "pokerroom", "serve", "--port", str(port), "--data-dir", str(data),
           "--log-level", "warning", "--no-warm-up", *extra]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    end = time.monotonic() + 30
    while time.monotonic() < end:
        if proc.poll() is not None:
            raise RuntimeError(proc.stderr.read().decode() if proc.stderr else "server died")
        try:
            if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=0.5).status_code == 200:
                return proc
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError("server did not come up")


def _kill(proc: subprocess.Popen[bytes]) -> None:
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=10)


def _safe(view: dict[str, Any]) -> dict[str, Any] | None:
    acts = {a["type"]: a for a in (view.get("me") or {}).get("legalActions") or []}
    for kind in SAFE:
        if kind in acts:
            return {"type": kind}
    return None


async def _step(players: list[Client], n: int) -> tuple[str, dict[str, Any]]:
    """One safe action by whoever may act on the newest view; waits until every player saw the change.

    A timeout (say the 4 s hand-end pause on a busy machine) may win the race: then the server answers
    ``stale_version`` and we simply decide again on the newer view.
    """
    for _attempt in range(20):
        latest = [p.last("view") for p in players]
        version = max(v["version"] for v in latest if v)
        actor = next(((p, a) for p, v in zip(players, latest, strict=True)
                      if v and v["version"] == version and (a := _safe(v["view"])) is not None), None)
        if actor is None:
            await asyncio.sleep(0.05)
            continue
        p, action = actor
        await p.send({"type": "action", "clientMsgId": f"s{n}-{_attempt}", "version": version,
                      "action": action})
        reply = await _ack_or_error(p)
        if reply["type"] == "error":
            assert reply["code"] == "stale_version", reply
            continue
        for q in players:
            while (q.last("view") or {}).get("version", -1) < reply["version"]:
                await asyncio.sleep(0.005)
        assert p.player_id is not None
        return p.player_id, action
    raise AssertionError("nobody could act")


async def _ack_or_error(p: Client) -> dict[str, Any]:
    while True:
        msg = await asyncio.wait_for(p.queue.get(), 10)
        if msg["type"] in ("ack", "error"):
            return msg


def _stored(data: Path, code: str) -> tuple[str, int, int]:
    """The room's last snapshot (state, the version it belongs to) and the newest stored version (the
    snapshot's or a later log-only change's: issue 13 stores replayable changes as log rows alone)."""
    db = sqlite3.connect(data / "pokerroom.sqlite3")
    try:
        state, version = db.execute("SELECT state, snapshot_version FROM rooms WHERE code=?",
                                    (code,)).fetchone()
        (newest,) = db.execute("SELECT max(version) FROM actions WHERE code=?", (code,)).fetchone()
    finally:
        db.close()
    return state, version, max(version, newest or 0)


def _replay(engine: Any, state: Any, rows: list[tuple[int, str, str | None, Any, int]]) -> Any:
    for _v, kind, pid, action, at in rows:
        if kind == "timeout":
            state, _ = engine.on_timeout(state, at)
        else:
            state, _ = engine.apply(state, pid, action, at)
    return state


def _log_after(data: Path, code: str, version: int) -> list[tuple[int, str, str | None, Any, int]]:
    db = sqlite3.connect(data / "pokerroom.sqlite3")
    try:
        rows = db.execute("SELECT version, kind, player_id, action, at_ms FROM actions WHERE code=? AND "
                          "version>? ORDER BY version", (code, version)).fetchall()
    finally:
        db.close()
    return [(v, k, p, None if a is None else json.loads(a), t) for v, k, p, a, t in rows]


def test_sigkill_restart_restores_rooms(tmp_path: Path) -> None:
    from pokerroom.server.engine_port import PokerEngine

    engine = PokerEngine()
    port = free_port()
    url = f"ws://127.0.0.1:{port}/ws/"
    proc = _serve(port, tmp_path)
    try:
        async def before_crash() -> tuple[str, list[str], list[dict[str, Any]]]:
            r = httpx.post(f"http://127.0.0.1:{port}/api/rooms",
                           json={"nickname": "가", "options": {"mode": "holdem", "turnSeconds": 60,
                                                               "hints": False}}).json()
            code = r["code"]
            a = await Client.open(url + code, "a")
            await a.hello(token=r["token"])
            b = await Client.open(url + code, "b")
            await b.hello(nickname="나")
            c = await Client.open(url + code, "c")
            await c.hello(nickname="다")
            await a.send({"type": "start"})
            players = [a, b, c]
            for p in players:
                await p.expect("view")
            for n in range(8):
                await _step(players, n)
            views = [p.last("view") for p in players]
            return code, [p.token or "" for p in players], [v for v in views if v]

        code, tokens, views = asyncio.run(before_crash())
        _kill(proc)
        stored_state, stored_version, newest = _stored(tmp_path, code)
        assert newest == views[0]["version"], "every published change is stored"
        assert stored_version < newest, "mid-hand actions are stored as log rows, not snapshots"

        proc = _serve(port, tmp_path)

        async def after_restart() -> None:
            players = []
            for i, token in enumerate(tokens):
                c = await Client.open(url + code, f"r{i}")
                await c.hello(token=token)
                snap = await c.expect("view")
                assert without_clock(snap) == without_clock(views[i]), \
                    "the reconnect snapshot equals the last view before the crash"
                players.append(c)
            boards = set()
            for n in range(12):
                await _step(players, 100 + n)
                boards.add(len(players[0].last("view")["view"]["board"]))  # type: ignore[index]
            assert len(boards) > 1, "new cards were dealt after the restart"
            # replaying the log on the pre-crash state reproduces the server's state exactly: same deck
            # order, same cards dealt after the restart, same stacks
            local = _replay(engine, engine.load_state(stored_state),
                            _log_after(tmp_path, code, stored_version))
            final_snapshot, final_snapshot_version, final_version = _stored(tmp_path, code)
            # the newest snapshot plus its log rows is the same state as the pre-crash snapshot plus all rows
            again = _replay(engine, engine.load_state(final_snapshot),
                            _log_after(tmp_path, code, final_snapshot_version))
            assert engine.dump_state(again) == engine.dump_state(local)
            for c in players:
                got = c.last("view")
                assert got is not None and got["version"] == final_version
                assert got["view"] == engine.view(local, c.player_id)

        asyncio.run(after_restart())
        _kill(proc)

        # deadlines resume from the stored state: with a fast clock the 60 s turn expires at once
        proc = _serve(port, tmp_path, "--time-scale", "0.002")

        async def deadlines_resume() -> None:
            w = await join_spectator(url + code)
            ev = await w.expect("events", timeout=15, pred=lambda m: any(
                e["type"] == "timeout" for e in m["events"]))
            assert ev["version"] > stored_version

        asyncio.run(deadlines_resume())
    finally:
        if proc.poll() is None:
            _kill(proc)


async def join_spectator(url: str) -> Client:
    c = await Client.open(url, "watch")
    await c.hello(spectate=True)
    return c



def _hand_actions(frames: list[dict[str, Any]], hand_no: int, current: int | None = None
                  ) -> list[dict[str, Any]]:
    """The public ``action`` events of one hand, as a client received them (``current``: the hand running
    when the frames begin)."""
    out: list[dict[str, Any]] = []
    for f in frames:
        for e in f.get("events", []) if f["type"] == "events" else []:
            if e["type"] == "handStart":
                current = e["handNo"]
            elif e["type"] == "action" and current == hand_no:
                out.append(e)
    return out


def test_hand_history_survives_sigkill(tmp_path: Path) -> None:
    """Finished hands and the hand in progress (its actions before the crash) survive a SIGKILL."""
    port = free_port()
    url = f"ws://127.0.0.1:{port}/ws/"
    proc = _serve(port, tmp_path)

    def hand_no(c: Client) -> int:
        return int((c.last("view") or {}).get("view", {}).get("handNo") or 0)

    async def history(c: Client) -> list[dict[str, Any]]:
        await c.send({"type": "history"})
        return list((await c.expect("history"))["hands"])

    try:
        async def before_crash() -> tuple[str, list[str], list[dict[str, Any]], list[dict[str, Any]]]:
            r = httpx.post(f"http://127.0.0.1:{port}/api/rooms",
                           json={"nickname": "가", "options": {"mode": "holdem", "turnSeconds": 60,
                                                               "hints": False}}).json()
            code = r["code"]
            a = await Client.open(url + code, "a")
            await a.hello(token=r["token"])
            b = await Client.open(url + code, "b")
            await b.hello(nickname="나")
            await a.send({"type": "start"})
            players = [a, b]
            for p in players:
                await p.expect("view")
            n = 0
            while hand_no(a) < 2 or len(_hand_actions(a.frames, 2)) < 2:
                await _step(players, n)
                n += 1
                assert n < 60
            hands = await history(a)
            assert [h["handNo"] for h in hands] == [1] and hands[0]["mine"]
            return code, [p.token or "" for p in players], hands, _hand_actions(a.frames, 2)

        code, tokens, hands_before, actions_before = asyncio.run(before_crash())
        _kill(proc)
        proc = _serve(port, tmp_path)

        async def after_restart() -> None:
            players = []
            for i, token in enumerate(tokens):
                c = await Client.open(url + code, f"r{i}")
                await c.hello(token=token)
                await c.expect("view")
                players.append(c)
            a = players[0]
            assert await history(a) == hands_before
            n = 0
            while hand_no(a) < 3:
                await _step(players, 200 + n)
                n += 1
                assert n < 60
            hands = await history(a)
            assert [h["handNo"] for h in hands] == [2, 1] and hands[1] == hands_before[0]
            recorded = [{k: v for k, v in e.items() if k != "street"} for e in hands[0]["actions"]
                        if e["type"] == "action"]
            assert recorded == actions_before + _hand_actions(a.frames, 2, current=2)
            other = await history(players[1])
            assert other[0]["mine"] and other[0]["mine"] != hands[0]["mine"]

        asyncio.run(after_restart())
    finally:
        if proc.poll() is None:
            _kill(proc)
