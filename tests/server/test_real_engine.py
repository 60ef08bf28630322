"""Every mode of the real engine played to the end through the protocol, with spectators and the frame
scanner checking each frame against the server's true state at that version (poker.md §8.3)."""

from __future__ import annotations

import asyncio
import random

import pytest
from conftest import Client, LiveServer, join, play_until_result, real_secrets_for, scan_frames

MODES = [
    ("holdem", {}, 4),
    ("omaha", {}, 3),
    ("sevenPoker", {}, 4),
    ("sevenHiLo", {}, 3),
    ("badugi", {}, 3),
    ("fiveDraw", {"drawLimit": "three"}, 3),
    ("indian", {}, 3),
    ("indian", {"indianCards": 2}, 3),
]


@pytest.mark.parametrize(("mode", "extra", "n"), MODES, ids=[f"{m}-{i}" for i, (m, _, _) in enumerate(MODES)])
def test_full_game_every_mode(real_server: LiveServer, mode: str, extra: dict[str, object], n: int) -> None:
    srv = real_server

    async def main() -> None:
        hints = mode == "holdem"  # hints cost CPU; one mode keeps them on to cover the hint path
        room = srv.create_room("p1", mode=mode, handLimit=10, hints=hints, **extra)
        code = room["code"]
        players = [await join(srv, code, "p1", token=room["token"])]
        players += [await join(srv, code, f"p{i}", nickname=f"플레이어{i}") for i in range(2, n + 1)]
        watcher = await join(srv, code, "spectator", spectate=True)
        await players[0].send({"type": "start"})
        result = await play_until_result(players, random.Random(hash(mode) & 0xFFFF), timeout=90)
        ranking = result["result"]["ranking"]
        assert sorted(r["playerId"] for r in ranking) == sorted(p.player_id for p in players)
        await watcher.expect("result", timeout=10)
        tokens = tuple(p.token for p in players if p.token)
        checked = sum(scan_frames(srv, code, p, lambda v, p=p: p.player_id, real_secrets_for, tokens)
                      for p in players)
        checked += scan_frames(srv, code, watcher, lambda v: None, real_secrets_for, tokens)
        assert checked > 30
        views = [f for f in watcher.frames if f["type"] == "view"]
        assert views and all(f["view"]["me"] is None for f in views)
        # versions only grow, by one per change, and every socket saw the final version
        final = srv.rooms.get(code)
        assert final is not None and final.phase == "finished"
        for c in [*players, watcher]:
            versions = [f["version"] for f in c.frames if f["type"] == "view"]
            assert versions == sorted(versions) and versions[-1] == final.version

    asyncio.run(main())


def test_hints_and_reconnect_on_real_engine(real_server: LiveServer) -> None:
    srv = real_server

    async def main() -> None:
        room = srv.create_room("p1", mode="sevenPoker", hints=True)
        code = room["code"]
        a = await join(srv, code, "a", token=room["token"])
        b = await join(srv, code, "b", nickname="둘")
        await a.send({"type": "start"})
        view = await b.expect("view")
        await b.close()
        back = await Client.open(srv.ws_url(code), "b2")
        await back.hello(token=b.token)
        assert (await back.expect("view")) == view
        assert view["view"]["me"]["id"] == b.player_id
        # sevenPoker starts with the simultaneous choice: both may act, so both views carry a hint
        me = view["view"]["me"]
        assert me["legalActions"] and me.get("hint") is not None
        assert me["hint"]["type"] in {a["type"] for a in me["legalActions"]}

    asyncio.run(main())
