"""Seats during a running game through the protocol, on the real engine: a friend who arrives
after the start asks for a seat, the host accepts or refuses, the accepted seat is dealt in from the next
hand; sitting out and coming back; all of it survives a SIGKILL restart."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from server_helpers import (
    Client,
    LiveServer,
    join,
    play_safely_until,
    real_secrets_for,
    scan_frames,
    start_table,
)

from serving import ServeProcess

pytestmark = pytest.mark.timeout(120)


def seat_of(view: dict[str, Any], pid: str) -> dict[str, Any] | None:
    return next((s for s in view["seats"] if s["id"] == pid), None)


async def start_game(srv: LiveServer, n: int = 3, **options: Any) -> tuple[str, list[Client]]:
    nicknames = ("방장", *(f"친구{i}" for i in range(2, n + 1)))
    return await start_table(srv, nicknames, mode="holdem", handLimit=10, hints=False, turnSeconds=60,
                             **options)


def test_spectator_asks_host_accepts_dealt_in_next_hand(server: LiveServer) -> None:
    srv = server

    async def main() -> None:
        code, players = await start_game(srv)
        host = players[0]
        friend = await join(srv, code, "friend", spectate=True)
        await friend.send({"type": "requestSeat"})
        assert (await friend.expect("error"))["code"] == "nickname_needed"
        await friend.send({"type": "requestSeat", "nickname": "늦은친구"})
        welcome = await friend.expect("welcome")
        assert welcome["role"] == "player" and welcome["token"] and welcome["playerId"]
        friend.player_id, friend.token = welcome["playerId"], welcome["token"]
        lobby = await host.expect("lobby", pred=lambda m: any(p.get("asking") for p in m["players"]))
        asking = [p for p in lobby["players"] if p["asking"]]
        assert [(p["id"], p["status"]) for p in asking] == [(friend.player_id, "waiting")]
        # only the host answers
        await players[1].send({"type": "answerSeat", "playerId": friend.player_id, "accept": True})
        assert (await players[1].expect("error"))["code"] == "not_host"
        hand_no = host.last("view")["view"]["handNo"]  # type: ignore[index]
        await host.send({"type": "answerSeat", "playerId": friend.player_id, "accept": True})
        answer = await friend.expect("seatAnswer")
        assert answer == {"type": "seatAnswer", "playerId": friend.player_id, "accept": True}
        events = await host.expect("events",
                                   pred=lambda m: any(e["type"] == "seatJoined" for e in m["events"]))
        joined = next(e for e in events["events"] if e["type"] == "seatJoined")
        assert joined["player"] == friend.player_id and joined["stack"] == 1000
        view = friend.last("view")["view"]  # type: ignore[index]  # sent before the answer
        assert view["me"] is not None and view["me"]["inHand"] is False  # watches the hand in progress
        assert view["handNo"] == hand_no
        # dealt in from the next hand, with startingChips and one big blind
        everyone = [*players, friend]
        await play_safely_until(everyone, lambda: friend.last("view")["view"]["handNo"] == hand_no + 1)  # type: ignore[index]
        mine = friend.last("view")["view"]  # type: ignore[index]
        assert mine["me"]["inHand"] is True and len(mine["me"]["hole"]) == 2
        seat = seat_of(mine, friend.player_id)
        assert seat is not None and seat["committedTotal"] == 10 and seat["stack"] == 990
        # the new token reconnects to the new seat
        again = await join(srv, code, "friend-tab", token=friend.token)
        assert again.player_id == friend.player_id
        snap = await again.expect("view")
        assert snap["view"]["me"]["id"] == friend.player_id
        final = srv.rooms.get(code)
        assert final is not None and friend.player_id in final.game_players
        tokens = tuple(p.token for p in everyone if p.token)
        seated_at = events["version"]  # before it the friend got the public view
        assert scan_frames(srv, code, friend, lambda v: friend.player_id if v >= seated_at else None,
                           real_secrets_for, tokens) > 0
        for c in [*everyone, again]:
            await c.close()

    asyncio.run(main())


def test_late_nickname_join_asks_and_host_refuses(server: LiveServer) -> None:
    srv = server

    async def main() -> None:
        code, players = await start_game(srv)
        host = players[0]
        late = await join(srv, code, "late", nickname="지각생")
        lobby = await host.expect("lobby", pred=lambda m: any(p.get("asking") for p in m["players"]))
        assert [p["nickname"] for p in lobby["players"] if p["asking"]] == ["지각생"]
        await host.send({"type": "answerSeat", "playerId": late.player_id, "accept": False})
        assert (await late.expect("seatAnswer")) == {"type": "seatAnswer", "playerId": late.player_id,
                                                     "accept": False}
        lobby = await host.expect("lobby", pred=lambda m: not any(p.get("asking") for p in m["players"]))
        assert next(p for p in lobby["players"] if p["id"] == late.player_id)["status"] == "waiting"
        room = srv.rooms.get(code)
        assert room is not None and late.player_id not in room.game_players
        await host.send({"type": "answerSeat", "playerId": late.player_id, "accept": True})
        assert (await host.expect("error"))["code"] == "no_such_request"
        # they may ask again
        await late.send({"type": "requestSeat"})
        await host.expect("lobby", pred=lambda m: any(p.get("asking") for p in m["players"]))
        # sitOut from someone not in the game is refused
        await late.send({"type": "sitOut"})
        assert (await late.expect("error"))["code"] == "not_seated"
        for c in [*players, late]:
            await c.close()

    asyncio.run(main())


def test_sit_out_and_come_back(server: LiveServer) -> None:
    srv = server

    async def main() -> None:
        code, players = await start_game(srv, n=4)
        resting = players[3]
        pid = resting.player_id
        assert pid is not None
        hand_no = resting.last("view")["view"]["handNo"]  # type: ignore[index]
        await resting.send({"type": "sitOut"})
        view = (await resting.expect("view", pred=lambda m: seat_of(m["view"], pid)["sittingOut"]))["view"]
        assert seat_of(view, pid)["inHand"] is True  # this hand is played out
        await resting.send({"type": "sitOut"})
        assert (await resting.expect("error"))["code"] == "already_sitting_out"
        await play_safely_until(players, lambda: players[0].last("view")["view"]["handNo"] == hand_no + 1)
        view = players[0].last("view")["view"]  # type: ignore[index]
        seat = seat_of(view, pid)
        assert seat is not None and seat["inHand"] is False and seat["sittingOut"] is True
        await resting.send({"type": "sitIn"})
        await resting.expect("view", pred=lambda m: not seat_of(m["view"], pid)["sittingOut"])
        await play_safely_until(players, lambda: players[0].last("view")["view"]["handNo"] == hand_no + 2)
        seat = seat_of(players[0].last("view")["view"], pid)  # type: ignore[index]
        assert seat is not None and seat["inHand"] is True and seat["committedTotal"] == 10
        spectator = await join(srv, code, "watch", spectate=True)
        await spectator.send({"type": "sitOut"})
        assert (await spectator.expect("error"))["code"] == "spectator"
        for c in [*players, spectator]:
            await c.close()

    asyncio.run(main())


def test_seat_requests_and_joins_survive_a_restart(tmp_path: Path) -> None:
    srv = ServeProcess(tmp_path).up()
    url = srv.ws_url("")
    try:
        async def before() -> tuple[str, list[str], str, str]:
            code, (a, b, _c) = await start_table(srv, mode="holdem", turnSeconds=60, hints=False)
            friend = await Client.open(url + code, "friend")
            await friend.hello(spectate=True)
            await friend.send({"type": "requestSeat", "nickname": "라"})
            w = await friend.expect("welcome")
            await a.send({"type": "answerSeat", "playerId": w["playerId"], "accept": True})
            await friend.expect("seatAnswer")
            other = await Client.open(url + code, "other")
            await other.hello(nickname="마")  # asks, unanswered at the crash
            await a.expect("lobby", pred=lambda m: any(p.get("asking") for p in m["players"]))
            await b.send({"type": "sitOut"})
            await b.expect("view", pred=lambda m: seat_of(m["view"], b.player_id or "")["sittingOut"])
            tokens = [a.token or "", b.token or "", w["token"], other.token or ""]
            return code, tokens, w["playerId"], other.player_id or ""

        code, tokens, friend_id, other_id = asyncio.run(before())
        srv.kill()
        srv.up()

        async def after() -> None:
            friend = await Client.open(url + code, "friend")
            await friend.hello(token=tokens[2])
            assert friend.player_id == friend_id
            view = (await friend.expect("view"))["view"]
            assert view["me"] is not None and seat_of(view, friend_id) is not None
            b = await Client.open(url + code, "b")
            await b.hello(token=tokens[1])
            view = (await b.expect("view"))["view"]
            assert seat_of(view, b.player_id or "")["sittingOut"] is True
            host = await Client.open(url + code, "a")
            await host.hello(token=tokens[0])
            lobby = await host.expect("lobby")
            assert [p["id"] for p in lobby["players"] if p["asking"]] == [other_id]
            await host.send({"type": "answerSeat", "playerId": other_id, "accept": True})
            events = await host.expect("events")
            assert [e["player"] for e in events["events"] if e["type"] == "seatJoined"] == [other_id]
            for cl in (friend, b, host):
                await cl.close()

        asyncio.run(after())
    finally:
        srv.kill()
