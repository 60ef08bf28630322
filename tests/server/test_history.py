"""The room's hand history (``{"type": "history"}``): every finished hand is recorded and kept, a page of 10
at a time, newest first, and each requester gets public information plus only their OWN cards of each hand."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest
from server_helpers import (
    Client,
    LiveServer,
    join,
    play_safely_until,
    play_until_result,
    real_secrets_for,
    scan_frames,
)


async def _history(c: Client) -> list[dict[str, Any]]:
    await c.send({"type": "history"})
    msg = await c.expect("history")
    hands: list[dict[str, Any]] = msg["hands"]
    return hands


async def _answer(c: Client, msg: dict[str, Any]) -> dict[str, Any]:
    """The ``history`` answer to ``msg`` (or its refusal), waiting out the socket's history rate."""
    for _ in range(10):
        await c.send(msg)
        while True:
            got = await asyncio.wait_for(c.queue.get(), timeout=10)
            if got["type"] == "history" or (got["type"] == "error" and got["code"] != "stale_version"):
                break
        if got["type"] == "history" or got["code"] != "history_rate":
            return got
        await asyncio.sleep(2.1)
    raise AssertionError("history_rate did not let up")


async def _page(c: Client, before: int) -> dict[str, Any]:
    """The page older than hand ``before``."""
    msg = await _answer(c, {"type": "history", "before": before})
    assert msg["type"] == "history" and msg["before"] == before, msg
    return msg


def _keys(cards: list[dict[str, Any]] | None) -> set[tuple[int, str]]:
    return {(c["rank"], c["suit"]) for c in cards or []}


def test_history_pages_every_hand_newest_first(server: LiveServer) -> None:
    srv = server

    async def main() -> None:
        # check, call and ready only: nobody busts, so the game plays all its 20 hands
        room = srv.create_room("a", mode="holdem", hints=False, handLimit=20)
        code = room["code"]
        a = await join(srv, code, "a", token=room["token"])
        b = await join(srv, code, "b", nickname="비")
        watcher = await join(srv, code, "w", spectate=True)
        assert await _history(a) == []  # nothing finished yet (and not an error before a game)
        await a.send({"type": "start"})
        await play_safely_until([a, b], lambda: a.last("result") is not None, timeout=120)
        hands = {c.name: await _history(c) for c in (a, b, watcher)}
        for got in hands.values():
            assert [h["handNo"] for h in got] == list(range(20, 10, -1))
            assert all(h["gameNo"] == 1 for h in got)
        final = srv.rooms.get(code)
        assert final is not None
        for i, h in enumerate(hands["a"]):
            state = srv.state_at(code, h["version"])
            assert state["hand"]["hand_no"] == h["handNo"]
            assert _keys(h["mine"]) == _keys(state["hand"]["players"][a.player_id]["hole"])
            assert _keys(hands["b"][i]["mine"]) == _keys(state["hand"]["players"][b.player_id]["hole"])
            assert hands["w"][i]["mine"] is None
            assert sum(x["amount"] for x in h["awards"]) == sum(x["amount"] for x in h["pots"])
            assert h["winners"] and set(h["winners"]) <= set(h["players"])
        for c, pid in ((a, a.player_id), (b, b.player_id), (watcher, None)):
            assert scan_frames(srv, code, c, lambda v, pid=pid: pid, real_secrets_for) > 0
        # a second game keeps adding to the same history: the newest page spans both games
        ended = srv.rooms.get(code).version  # type: ignore[union-attr]
        await a.send({"type": "start"})

        def two_hands_of_game_two() -> bool:
            view = a.last("view")
            return view is not None and view["version"] > ended and view["view"]["handNo"] == 3

        await play_safely_until([a, b], two_hands_of_game_two, timeout=60, tag="g2-")
        got = await _history(b)
        assert len(got) == 10 and [(h["gameNo"], h["handNo"]) for h in got] == [
            (2, 2), (2, 1), *((1, n) for n in range(20, 12, -1))]
        # every hand of the night is stored (docs/decisions/0044-hand-replayer.md), the older ones come a page
        # at a time: ``before`` = the last hand's seq of the page shown
        assert [seq for seq, _ in srv.rooms.store.hands(code)] == list(range(1, 23))
        assert [h["seq"] for h in got] == list(range(22, 12, -1))
        older = await _page(b, got[-1]["seq"])
        assert [(h["gameNo"], h["handNo"]) for h in older["hands"]] == [(1, n) for n in range(12, 2, -1)]
        assert older["more"] is True
        oldest = await _page(b, older["hands"][-1]["seq"])
        assert [h["handNo"] for h in oldest["hands"]] == [2, 1] and oldest["more"] is False

    asyncio.run(main())


def test_history_refused_before_hello(server: LiveServer) -> None:
    srv = server

    async def main() -> None:
        room = srv.create_room("a")
        c = await Client.open(srv.ws_url(room["code"]), "c")
        await c.send({"type": "history"})
        err = await c.expect("error")
        assert err["code"] == "hello_first"
        await c.send({"type": "history", "extra": 1})
        assert (await c.expect("error"))["code"] == "bad_message"

    asyncio.run(main())


MODES = [("holdem", {}, 4), ("sevenPoker", {}, 3), ("indian", {"indianCards": 2}, 3)]


@pytest.mark.parametrize(("mode", "extra", "n"), MODES, ids=[m for m, _, _ in MODES])
def test_history_secrecy_real_engine(server: LiveServer, mode: str, extra: dict[str, Any],
                                     n: int) -> None:
    srv = server

    async def main() -> None:
        room = srv.create_room("p1", mode=mode, handLimit=10, hints=False, **extra)
        code = room["code"]
        players = [await join(srv, code, "p1", token=room["token"])]
        players += [await join(srv, code, f"p{i}", nickname=f"플레이어{i}") for i in range(2, n + 1)]
        watcher = await join(srv, code, "spectator", spectate=True)
        await players[0].send({"type": "start"})
        rnd = random.Random(sum(map(ord, mode)))
        asked: set[int] = set()
        sending: set[asyncio.Future[None]] = set()

        def ask_now_and_then(c: Client, msg: dict[str, Any]) -> None:
            hand_no = msg["view"].get("handNo") or 0
            if msg["view"].get("phase") == "handEnd" and hand_no not in asked:
                asked.add(hand_no)  # mid-game requests, while the next hand is being dealt
                sending.add(asyncio.ensure_future(c.send({"type": "history"})))
                sending.add(asyncio.ensure_future(watcher.send({"type": "history"})))

        res = await play_until_result(players, rnd, timeout=90, on_view=ask_now_and_then)
        await asyncio.gather(*sending)
        played = res["result"]["stats"]["handsPlayed"]
        expected = list(range(played, max(0, played - 10), -1))
        for c in [*players, watcher]:
            await c.send({"type": "history"})
            await c.expect("history", timeout=10, pred=lambda m: len(m["hands"]) == len(expected))
        await asyncio.sleep(0.2)
        for c in players:
            hands = next(f for f in reversed(c.frames) if f["type"] == "history")["hands"]
            assert [h["handNo"] for h in hands] == expected
            for h in hands:
                state = srv.state_at(code, h["version"])
                hp = state["hand"]["players"].get(c.player_id)
                if hp is None:  # busted before this hand
                    assert c.player_id not in h["players"] and h["mine"] is None
                    continue
                fore = [hp["forehead"]] if hp.get("forehead") else []
                own = _keys(hp.get("hole")) | _keys(hp.get("up")) | _keys(fore)
                assert own and own <= _keys(h["mine"]), f"{c.name} misses own cards of hand {h['handNo']}"
                assert h["actions"], "actions are recorded"
                if mode != "indian":
                    assert all(o["id"] in h["players"] for o in h["showdown"])
        spectator_hands = next(f for f in reversed(watcher.frames) if f["type"] == "history")["hands"]
        assert all(h["mine"] is None for h in spectator_hands)
        checked = sum(scan_frames(srv, code, p, lambda v, p=p: p.player_id, real_secrets_for)
                      for p in players)
        checked += scan_frames(srv, code, watcher, lambda v: None, real_secrets_for)
        assert checked > 10
        assert sum(f["type"] == "history" for f in watcher.frames) >= 2

    asyncio.run(main())
