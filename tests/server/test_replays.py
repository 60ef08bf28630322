"""The replayer's server side (docs/protocol.md §2.4): one hand's replay for whoever asks (their own cards of
the hands they played, a spectator's view otherwise), every hand of the night kept across a restart, and a
PHH file's hand replayed over HTTP without being stored."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from server_helpers import (
    Client,
    LiveServer,
    join,
    play_safely_until,
    play_until_result,
    real_secrets_for,
    replay_views,
    scan_frames,
)

import needs


async def _ask(c: Client, msg: dict[str, Any]) -> dict[str, Any]:
    """The answer to one ``history`` question: the history frame, or its refusal (what came before it, the
    game's frames, is passed over)."""
    c.drain()
    await c.send(msg)
    while True:
        got = await asyncio.wait_for(c.queue.get(), timeout=10)
        if got["type"] == "history" or (got["type"] == "error" and got.get("clientMsgId") is None):
            return got


def _keys(cards: Any) -> set[tuple[int, str]]:
    return {(c["rank"], c["suit"]) for c in cards or [] if "rank" in c}


@pytest.mark.filterwarnings("ignore::UserWarning")  # pokerkit comments on the random folds
def test_each_viewer_replays_what_they_saw(server: LiveServer) -> None:
    """Players get their own cards of the hands they played from the deal on, a spectator nothing hidden;
    the steps end at the hand's finishing stacks; the PHH text replays (pokerkit, the oracle) to them."""
    srv = server
    pokerkit = needs.module("pokerkit")

    async def main() -> None:
        room = srv.create_room("a", mode="holdem", hints=False, handLimit=10)
        code = room["code"]
        players = [await join(srv, code, "a", token=room["token"])]
        players += [await join(srv, code, n, nickname=f"플레이어{n}") for n in ("b", "c")]
        watcher = await join(srv, code, "w", spectate=True)
        await players[0].send({"type": "start"})
        await play_until_result(players, random.Random(5), timeout=90)
        page = await _ask(players[0], {"type": "history"})
        assert page["hands"] and page["more"] is False and page["before"] is None
        for hand in page["hands"][:3]:
            state = srv.state_at(code, hand["version"])
            for c in [*players, watcher]:
                got = await _ask(c, {"type": "history", "hand": hand["seq"]})
                assert "replay" in got, got
                replay = got["replay"]
                assert replay["seq"] == hand["seq"] and replay["handNo"] == hand["handNo"]
                views = replay_views(replay)
                assert len(views) == len(replay["steps"]) and replay["steps"][0]["type"] == "deal"
                assert {s["id"]: s["stack"] for s in views[-1]["seats"]} == hand["finishingStacks"]
                mine = state["hand"]["players"].get(c.player_id) if c is not watcher else None
                if mine is None:
                    assert all(v["me"] is None for v in views)
                else:
                    assert _keys(views[0]["me"]["hole"]) == _keys(mine["hole"])
                if hand["showdown"]:  # the shown hands' equity on each street (history/equities.py)
                    assert [s["street"] for s in replay["equity"]["streets"]][-1] == "리버"
                    assert replay["equity"]["players"] == [e["id"] for e in hand["showdown"]]
                text = replay["phh"]
                assert text and replay["phhWhy"] is None
                final = list(pokerkit.HandHistory.loads(text))[-1].stacks
                assert list(final) == [hand["finishingStacks"][p] for p in hand["players"]]
                if c is watcher:
                    assert "d dh p1 ????" in text or "p1 sm" in text
        for c, pid in ((players[0], players[0].player_id), (players[1], players[1].player_id),
                       (watcher, None)):
            assert scan_frames(srv, code, c, lambda v, pid=pid: pid, real_secrets_for) > 0
        missing = await _ask(watcher, {"type": "history", "hand": 999})
        assert missing["code"] == "no_such_hand" and "기록" in missing["message"]

    asyncio.run(main())


def test_a_game_phh_cannot_say_tells_why(server: LiveServer) -> None:
    srv = server

    async def main() -> None:
        room = srv.create_room("a", mode="sevenPoker", hints=False, handLimit=10)
        code = room["code"]
        a = await join(srv, code, "a", token=room["token"])
        b = await join(srv, code, "b", nickname="비")
        await a.send({"type": "start"})
        await play_until_result([a, b], random.Random(3), timeout=90)
        replay = (await _ask(b, {"type": "history", "hand": 1}))["replay"]
        assert replay["phh"] is None and "PHH" in replay["phhWhy"]
        views = replay_views(replay)
        assert views[0]["phase"] == "choice" and len(views[0]["me"]["choice"]) == 4
        assert any(s["type"] == "reveal" for s in replay["steps"])

    asyncio.run(main())


def test_every_hand_of_the_night_survives_a_restart(make_server: Callable[..., LiveServer],
                                                     tmp_path: Path) -> None:
    """The store keeps every hand (docs/decisions/0044-hand-replayer.md) and a restored room pages through
    and replays them all, not only the newest few it holds as records."""
    data = tmp_path / "data"
    srv = make_server(data_dir=data)

    async def first_run() -> tuple[str, str, int]:
        room = srv.create_room("a", mode="holdem", hints=False, handLimit=20)
        code = room["code"]
        a = await join(srv, code, "a", token=room["token"])
        b = await join(srv, code, "b", nickname="비")
        await a.send({"type": "start"})
        await play_safely_until([a, b], lambda: a.last("result") is not None, timeout=120)
        first = (await _ask(a, {"type": "history", "hand": 1}))["replay"]
        return code, room["token"], len(first["steps"])

    code, token, steps = asyncio.run(first_run())
    srv.stop()
    again = make_server(data_dir=data)

    async def second_run() -> None:
        a = await join(again, code, "a", token=token)
        newest = await _ask(a, {"type": "history"})
        assert [h["seq"] for h in newest["hands"]] == list(range(20, 10, -1)) and newest["more"]
        older = await _ask(a, {"type": "history", "before": 11})
        assert [h["seq"] for h in older["hands"]] == list(range(10, 0, -1)) and not older["more"]
        first = (await _ask(a, {"type": "history", "hand": 1}))["replay"]
        assert len(first["steps"]) == steps and replay_views(first)[0]["me"]["hole"]

    asyncio.run(second_run())


def test_a_phh_file_replays_over_http(server: LiveServer) -> None:
    """``POST /api/phh``: the file's hand as a replay (every known card, the file's names, its PHH text
    written back); a file it cannot read is refused in Korean; nothing is stored."""
    text = (needs.phh_hands() / "dwan-ivey-2009.phh").read_text(encoding="utf-8")
    r = httpx.post(f"{server.http}/api/phh", json={"text": text})
    assert r.status_code == 200, r.text
    replay = r.json()["replay"]
    assert replay["imported"] is True and replay["stacksAgree"] is None
    assert replay["names"]["p3"] == "Tom Dwan" and replay["phh"].startswith('variant = "NT"')
    views = replay_views(replay)
    assert _keys(views[0]["seats"][0]["hole"]) == {(14, "C"), (2, "D")}
    assert [s["stack"] for s in views[-1]["seats"]] == [572100, 1997500, 1109500]
    bad = httpx.post(f"{server.http}/api/phh", json={"text": "variant = 'F7S'"})
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "bad_phh"
    assert "F7S" in bad.json()["error"]["message"]
    assert httpx.post(f"{server.http}/api/phh", json={"text": "#" * 70_000}).status_code == 400  # over 64 KB
    assert httpx.post(f"{server.http}/api/phh", json={"text": "#" * 140_000}).status_code == 413
    assert httpx.post(f"{server.http}/api/phh", content=b"x", headers={"content-type": "text/plain"}
                      ).status_code == 415
    assert not server.rooms.rooms  # nothing was made or kept
