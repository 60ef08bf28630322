"""Every mode of the real engine played to the end through the protocol, with spectators and the frame
scanner checking each frame against the server's true state at that version (poker.md §8.3)."""

from __future__ import annotations

import asyncio
import random

import pytest
from server_helpers import (
    Client,
    LiveServer,
    join,
    play_until_result,
    real_secrets_for,
    scan_frames,
    without_clock,
)

MODES = [
    ("holdem", {}, 4),
    ("omaha", {}, 3),
    ("sevenPoker", {}, 4),
    ("sevenHiLo", {}, 3),
    ("badugi", {}, 3),
    ("fiveDraw", {"drawLimit": "three"}, 3),
    ("indian", {}, 3),
    ("indian", {"indianCards": 2}, 3),
    # the hold'em house options (docs/rules-extensions.md): antes, a straddle, run it twice
    ("holdem", {"ante": "bigBlind", "straddle": True, "runItTwice": True}, 4),
]


@pytest.mark.parametrize("deltas", [False, True], ids=["views", "deltas"])
@pytest.mark.parametrize(("mode", "extra", "n"), MODES, ids=[f"{m}-{i}" for i, (m, _, _) in enumerate(MODES)])
def test_full_game_every_mode(server: LiveServer, mode: str, extra: dict[str, object], n: int,
                              deltas: bool) -> None:
    """With ``deltas`` every socket (players, extra tabs, the spectator) opts in to viewDelta frames: the
    scanner rebuilds each socket's views from them and checks each against the engine's view at that
    version, and for secrets like any full view."""
    srv = server
    opt = {"deltas": True} if deltas else {}

    async def main() -> None:
        hints = mode == "holdem"  # hints cost CPU; one mode keeps them on to cover the hint path
        room = srv.create_room("p1", mode=mode, handLimit=10, hints=hints, **extra)
        code = room["code"]
        players = [await join(srv, code, "p1", token=room["token"], **opt)]
        players += [await join(srv, code, f"p{i}", nickname=f"플레이어{i}", **opt) for i in range(2, n + 1)]
        watcher = await join(srv, code, "spectator", spectate=True, **opt)
        await players[0].send({"type": "start"})
        rnd = random.Random(sum(map(ord, mode)) + n)
        extra_tabs: list[Client] = []
        pending: set[asyncio.Future[None]] = set()

        def reconnect_now_and_then(c: Client, msg: dict[str, object]) -> None:
            if rnd.random() < 0.02:  # a reconnect snapshot mid-hand, scanned like every other frame
                async def again() -> None:
                    tab = await join(srv, code, c.name + "-tab", token=c.token, **opt)
                    extra_tabs.append(tab)
                    await tab.close()
                pending.add(asyncio.ensure_future(again()))

        # with run it twice on, players shove often enough that an all-in with cards to come is all but sure
        shove = 0.9 if extra.get("runItTwice") else 0.2
        result = await play_until_result(players, rnd, timeout=90, on_view=reconnect_now_and_then,
                                         all_in=shove)
        await asyncio.gather(*pending)
        if extra.get("runItTwice"):  # the question was asked and answered through the protocol
            kinds = {e["type"] for f in watcher.frames for e in f.get("events") or []}
            assert {"runTwiceOffer", "runTwice"} <= kinds, kinds
        ranking = result["result"]["ranking"]
        assert sorted(r["playerId"] for r in ranking) == sorted(p.player_id for p in players)
        assert "종료" in result["result"]["summary"]
        await watcher.expect("result", timeout=10)
        lobby = players[0].last("lobby")
        assert lobby is not None and lobby["phase"] == "finished"
        # every view carries the server's clock (deadlineAt is in it), and it never runs backwards
        for c in [*players, watcher]:
            nows = [f["serverNow"] for f in c.frames if f["type"] in ("view", "viewDelta")]
            assert nows and nows == sorted(nows) and all(isinstance(n, int) for n in nows)
            assert abs(nows[-1] - srv.rooms.clock.now_ms()) < 60_000
        tokens = tuple(p.token for p in players if p.token)
        # The scanner must have had cards to check on every seat: each player saw cards when dealt and again
        # later (the next hand's deal, or the showdown that ended the game). A fixed total is not a bound:
        # with deltas a one-hand game (an all-in run out on hand 1) carries cards in two frames per socket.
        per_player = [scan_frames(srv, code, p, lambda v, p=p: p.player_id, real_secrets_for, tokens)
                      for p in players]
        assert min(per_player) >= 2, per_player
        # and whoever played to the end was dealt cards in a frame of their own in every hand
        final = srv.rooms.get(code)
        assert final is not None and final.phase == "finished"
        hands = srv.state_at(code, final.version)["hands_played"]
        assert hands >= 1 and max(per_player) >= hands, (per_player, hands)
        for tab in extra_tabs:
            scan_frames(srv, code, tab, lambda v, tab=tab: tab.player_id, real_secrets_for, tokens)
        scan_frames(srv, code, watcher, lambda v: None, real_secrets_for, tokens)
        views = watcher.views()
        assert views and all(f["view"]["me"] is None for f in views)
        # versions only grow, by one per change, and every socket saw the final version
        for c in [*players, watcher]:
            versions = [f["version"] for f in c.frames if f["type"] in ("view", "viewDelta")]
            assert versions == sorted(versions) and versions[-1] == final.version
            if deltas:  # one full view, then deltas only (nothing was missed, so no resync)
                kinds = [f["type"] for f in c.frames if f["type"] in ("view", "viewDelta")]
                assert kinds[0] == "view" and set(kinds[1:]) == {"viewDelta"} and c.resyncs == 0
                assert c.views()[-1]["view"] == srv.view_at(code, final.version, c.player_id)

    asyncio.run(main())


def test_hints_and_reconnect_on_real_engine(server: LiveServer) -> None:
    srv = server

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
        assert without_clock(await back.expect("view")) == without_clock(view)
        assert view["view"]["me"]["id"] == b.player_id
        # sevenPoker starts with the simultaneous choice: both may act, so both views carry a hint
        me = view["view"]["me"]
        assert me["legalActions"] and me.get("hint") is not None
        assert me["hint"]["type"] in {a["type"] for a in me["legalActions"]}

    asyncio.run(main())


def test_bots_fill_seats_and_play_to_the_end(make_server: object) -> None:
    srv: LiveServer = make_server(bot_delay_ms=5)  # type: ignore[operator]

    async def main() -> None:
        room = srv.create_room("사람", mode="sevenPoker", handLimit=10, hints=False)
        code = room["code"]
        me = await join(srv, code, "me", token=room["token"])
        await me.send({"type": "addBot"})
        await me.send({"type": "addBot"})
        lobby = await me.expect("lobby", pred=lambda m: len(m["players"]) == 3)
        assert [p["bot"] for p in lobby["players"]] == [False, True, True]
        await me.send({"type": "start"})
        result = await play_until_result([me], random.Random(5), timeout=90)
        assert len(result["result"]["ranking"]) == 3
        kinds = {row.kind for row in srv.rooms.store.log(code)}
        assert "bot" in kinds

    asyncio.run(main())


def test_host_changes_options_between_games(server: LiveServer) -> None:
    """``setOptions``: host only, not while playing, validated like creation, stored, sent in ``lobby``."""
    srv = server

    async def main() -> None:
        room = srv.create_room("방장", mode="holdem")
        code = room["code"]
        host = await join(srv, code, "host", token=room["token"])
        guest = await join(srv, code, "guest", nickname="손님")
        for _ in range(6):
            await host.send({"type": "addBot"})
        lobby = await host.expect("lobby", pred=lambda m: len(m["players"]) == 8)

        async def refused(c: Client, options: dict[str, object], code_: str) -> str:
            await c.send({"type": "setOptions", "options": options})
            err = await c.expect("error")
            assert err["code"] == code_, err
            return str(err["message"])

        assert await refused(guest, {"mode": "badugi"}, "not_host") == "방장만 할 수 있어요"
        # 8 present, 7 Poker seats 6: the spec's sentence, and nothing changes
        too_many = await refused(host, {"mode": "sevenPoker"}, "too_many_players")
        assert too_many == "이 모드는 최대 6명까지 할 수 있어요"
        bad = {"mode": "holdem", "baseUnit": 100, "startingChips": 1000}
        message = await refused(host, bad, "bad_options")
        assert any("\uac00" <= ch <= "\ud7a3" for ch in message)
        await refused(host, {"mode": "holdem", "startingChips": "많이"}, "bad_options")
        assert srv.rooms.rooms[code].options_json["mode"] == "holdem"

        bots = [p["id"] for p in lobby["players"] if p["bot"]]
        for pid in bots[:3]:
            await host.send({"type": "removeBot", "playerId": pid})
        await host.expect("lobby", pred=lambda m: len(m["players"]) == 5)
        badugi = {"mode": "badugi", "betting": "noLimit", "handLimit": 10}
        await host.send({"type": "setOptions", "options": badugi})
        for c in (host, guest):
            new = await c.expect("lobby", pred=lambda m: m["options"]["mode"] == "badugi")
            assert new["options"]["betting"] == "noLimit" and new["options"]["handLimit"] == 10
            assert (new["minPlayers"], new["maxPlayers"]) == (2, 6)
        stored = {r.code: r.meta for r in srv.rooms.store.load_all()}[code]
        assert stored["options"]["mode"] == "badugi"  # a restart keeps the new options

        await host.send({"type": "start"})
        view = await guest.expect("view")
        assert view["view"]["options"]["mode"] == "badugi"
        assert await refused(host, {"mode": "holdem"}, "game_running") == "게임이 진행 중이에요"

    asyncio.run(main())
