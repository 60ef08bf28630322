"""SIGKILL a real ``pokerroom serve`` and restart it: every room comes back with the same state, the same
next cards (the dealing RNG lives in the stored state), resumed deadlines, and seats reachable by token."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from server_helpers import Client, rejoin, safe_step, start_table, without_clock

from serving import ServeProcess

pytestmark = pytest.mark.timeout(120)

OPTIONS = {"mode": "holdem", "turnSeconds": 60, "hints": False}
COMPARED = ("board", "pots", "potTotal", "handNo", "phase", "toAct", "street", "dealerSeat")


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
        elif kind == "clock":  # the restart's stopped time given back to the turn (stored with a snapshot)
            state, _ = engine.resume_clock(state, action["pausedMs"])
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
    srv = ServeProcess(tmp_path).up()
    try:
        async def before_crash() -> tuple[str, list[str], list[dict[str, Any]]]:
            code, players = await start_table(srv, **OPTIONS)
            for n in range(8):
                await safe_step(players, f"s{n}")
            views = [p.last("view") for p in players]
            return code, [p.token or "" for p in players], [v for v in views if v]

        code, tokens, views = asyncio.run(before_crash())
        srv.kill()
        stored_state, stored_version, newest = _stored(tmp_path, code)
        assert newest == views[0]["version"], "every published change is stored"
        assert stored_version < newest, "mid-hand actions are stored as log rows, not snapshots"

        srv.up()

        async def after_restart() -> None:
            back = await rejoin(srv, code, tokens)
            for (_c, snap), before in zip(back, views, strict=True):
                assert same_table(snap, before), \
                    "the reconnect snapshot equals the last view before the crash"
            players = [c for c, _snap in back]
            boards = set()
            for n in range(12):
                await safe_step(players, f"s{100 + n}")
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
        srv.kill()

        # deadlines resume from the stored state: with a fast clock the 60 s turn expires at once
        srv.extra = ("--time-scale", "0.002")
        srv.up()

        async def deadlines_resume() -> None:
            w = await join_spectator(srv.ws_url(code))
            ev = await w.expect("events", timeout=15, pred=lambda m: any(
                e["type"] == "timeout" for e in m["events"]))
            assert ev["version"] > stored_version

        asyncio.run(deadlines_resume())
    finally:
        srv.kill()


def same_table(snap: dict[str, Any], before: dict[str, Any]) -> bool:
    """The same table, but for the time the server was stopped given back to the pending turn: then one
    change more, whose deadline is later and whose log says so (test_clock_pause.py)."""
    if snap["version"] == before["version"] + 1:
        view, old = dict(snap["view"]), dict(before["view"])
        assert view["deadlineAt"] > old["deadlineAt"] and "멈춰" in view["publicLog"][-1]["text"]
        view["publicLog"] = view["publicLog"][:-1]
        view["deadlineAt"] = old["deadlineAt"]
        return {**snap, "version": before["version"], "view": view, "serverNow": 0} == \
            {**before, "serverNow": 0}
    return without_clock(snap) == without_clock(before)


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
    srv = ServeProcess(tmp_path).up()

    def hand_no(c: Client) -> int:
        return int((c.last("view") or {}).get("view", {}).get("handNo") or 0)

    async def history(c: Client) -> list[dict[str, Any]]:
        await c.send({"type": "history"})
        return list((await c.expect("history"))["hands"])

    try:
        async def before_crash() -> tuple[str, list[str], list[dict[str, Any]], list[dict[str, Any]]]:
            code, players = await start_table(srv, ("가", "나"), **OPTIONS)
            a = players[0]
            n = 0
            while hand_no(a) < 2 or len(_hand_actions(a.frames, 2)) < 2:
                await safe_step(players, f"s{n}")
                n += 1
                assert n < 60
            hands = await history(a)
            assert [h["handNo"] for h in hands] == [1] and hands[0]["mine"]
            return code, [p.token or "" for p in players], hands, _hand_actions(a.frames, 2)

        code, tokens, hands_before, actions_before = asyncio.run(before_crash())
        srv.kill()
        srv.up()

        async def after_restart() -> None:
            players = [c for c, _snap in await rejoin(srv, code, tokens)]
            a = players[0]
            assert await history(a) == hands_before
            n = 0
            while hand_no(a) < 3:
                await safe_step(players, f"s{200 + n}")
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
        srv.kill()
