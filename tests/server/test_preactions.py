"""Pre-actions: kept by the room per seat, fired through ``apply`` within the change that makes
the seat's turn come, cancelled visibly when their situation changes, stored with the room — on the real
engine, with the frame scanner over every frame the sockets received."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from server_helpers import Client, LiveServer, join, real_secrets_for, scan_frames

pytestmark = pytest.mark.timeout(90)


async def _table(srv: LiveServer, n: int, **options: Any) -> tuple[str, list[Client], Client]:
    room = srv.create_room("p1", handLimit=10, **options)
    code = room["code"]
    players = [await join(srv, code, "p1", token=room["token"])]
    players += [await join(srv, code, f"p{i}", nickname=f"플레이어{i}") for i in range(2, n + 1)]
    watcher = await join(srv, code, "spectator", spectate=True)
    await players[0].send({"type": "start"})
    for c in [*players, watcher]:
        await c.expect("view")
    return code, players, watcher


def _room(srv: LiveServer, code: str) -> Any:
    room = srv.rooms.get(code)
    assert room is not None
    return room


def _view(srv: LiveServer, code: str, pid: str | None) -> dict[str, Any]:
    room = _room(srv, code)
    return srv.rooms.views.view(room, pid)


def _seat(srv: LiveServer, code: str, pid: str) -> dict[str, Any]:
    room = _room(srv, code)
    part = srv.rooms.views.seat_part(room, srv.rooms.views.view(room, pid), pid)
    assert part is not None
    return part


def _next_after(srv: LiveServer, code: str, pid: str, action: dict[str, Any]) -> str | None:
    """Who acts after ``pid`` does ``action`` (read from the engine on a copy; the room is not changed)."""
    room = _room(srv, code)
    state, _ = srv.rooms.engine.apply(room.state, pid, action, srv.rooms.clock.now_ms())
    to_act: str | None = srv.rooms.engine.view(state, None)["toAct"]
    return to_act


def _min_raise(srv: LiveServer, code: str, pid: str) -> int:
    acts = _view(srv, code, pid)["me"]["legalActions"]
    return int(next(a for a in acts if a["type"] == "nl.raise")["min"])


async def _view_at(c: Client, version: int) -> dict[str, Any]:
    return await c.expect("view", timeout=10, pred=lambda m: m["version"] >= version)


async def _act(srv: LiveServer, code: str, c: Client, action: dict[str, Any]) -> int:
    version = _room(srv, code).version
    await c.send({"type": "action", "clientMsgId": f"{c.name}-{version}", "version": version,
                  "action": action})
    await c.expect("ack", timeout=10)
    return version + 1


def _by_id(players: list[Client]) -> dict[str, Client]:
    return {c.player_id: c for c in players if c.player_id is not None}


def _events_of(c: Client, version: int) -> list[dict[str, Any]]:
    return [e for f in c.frames if f["type"] == "events" and f["version"] == version for e in f["events"]]


def _scan(srv: LiveServer, code: str, players: list[Client], watcher: Client) -> None:
    tokens = tuple(p.token for p in players if p.token)
    for p in players:
        scan_frames(srv, code, p, lambda v, p=p: p.player_id, real_secrets_for, tokens)
    scan_frames(srv, code, watcher, lambda v: None, real_secrets_for, tokens)
    # a pre-action is its owner's business: no other socket ever sees one
    for c in [*players, watcher]:
        for f in c.frames:
            if f["type"] != "view":
                continue
            if c is watcher:
                assert f["view"]["me"] is None and "seat" not in f


def _three_ids(srv: LiveServer, code: str) -> tuple[str, str, str]:
    """(the player to act, the one after them when they call, the remaining one)."""
    first = _view(srv, code, None)["toAct"]
    assert first is not None
    legal = {a["type"] for a in _view(srv, code, first)["me"]["legalActions"]}
    call = {"type": "nl.call"} if "nl.call" in legal else {"type": "nl.check"}
    second = _next_after(srv, code, first, call)
    assert second is not None and second != first
    ids = [s["id"] for s in _view(srv, code, None)["seats"]]
    third = next(i for i in ids if i not in (first, second))
    return first, second, third


@dataclass
class Holdem:
    """A three-handed hold'em hand just dealt: who acts first, second (after a call) and third."""

    code: str
    players: list[Client]
    watcher: Client
    by: dict[str, Client]
    first: str
    second: str
    third: str
    version: int


async def _holdem(srv: LiveServer) -> Holdem:
    code, players, watcher = await _table(srv, 3, mode="holdem")
    first, second, third = _three_ids(srv, code)
    return Holdem(code, players, watcher, _by_id(players), first, second, third, _room(srv, code).version)


async def _badugi(srv: LiveServer) -> tuple[str, list[Client], Client, dict[str, Client], str]:
    """A three-handed badugi hand (Korean betting) just dealt: (code, players, watcher, by id, first)."""
    code, players, watcher = await _table(srv, 3, mode="badugi")
    first = _view(srv, code, None)["toAct"]
    assert first is not None
    return code, players, watcher, _by_id(players), first


async def _choose(c: Client, kind: str | None, version: int) -> dict[str, Any]:
    """``c`` chooses pre-action ``kind`` (None: clears it); returns the view that answers the choice."""
    await c.send({"type": "preAction", "kind": kind, "version": version})
    return await c.expect("view", pred=lambda m: (m["seat"]["preAction"]["chosen"] is None) == (kind is None))


async def _fold_to_the_winner(srv: LiveServer, code: str, by: dict[str, Client]) -> None:
    """Whoever is to act folds, twice: the hand ends uncalled."""
    for _ in range(2):
        await _act(srv, code, by[_view(srv, code, None)["toAct"]], {"type": "nl.fold"})


def test_call_any_fires_in_the_change_that_makes_my_turn(server: LiveServer) -> None:
    srv = server

    async def main() -> None:
        t = await _holdem(srv)
        code, players, watcher, by, first, second, version = (t.code, t.players, t.watcher, t.by, t.first,
                                                              t.second, t.version)
        kinds = [o["kind"] for o in _seat(srv, code, second)["preAction"]["offered"]]
        assert kinds == ["checkFold", "call", "callAny"]
        mine = await _choose(by[second], "callAny", version)
        assert mine["version"] == version  # choosing is not a game change
        assert mine["seat"]["preAction"]["chosen"]["kind"] == "callAny"
        committed: list[tuple[int, str | None]] = []
        srv.rooms.on_commit = lambda room, v, ev: (srv._record(room, v, ev),
                                                   committed.append((v, room.state and
                                                                     srv.rooms.engine.view(room.state,
                                                                                           None)["toAct"])))
        made_turn = await _act(srv, code, by[first], {"type": "nl.call"})
        fired = made_turn + 1
        seen = await _view_at(by[second], fired)
        assert seen["version"] == fired
        # frames go out before the server thread records the change (an idle socket is written at once)
        for _ in range(500):
            if len(committed) >= 2:
                break
            await asyncio.sleep(0.01)
        # the pre-action was applied as the very next change, nothing in between, and its owner sent nothing
        assert [v for v, _ in committed][:2] == [made_turn, fired]
        assert committed[0][1] == second
        acts = [e for e in _events_of(by[second], fired) if e["type"] == "action"]
        assert len(acts) == 1 and acts[0]["player"] == second
        assert acts[0]["action"]["type"] in ("nl.call", "nl.check")
        assert not any(f["type"] == "action" for f in by[second].frames)  # (client frames are server->client)
        assert seen["seat"]["preAction"]["chosen"] is None
        assert seen["seat"]["preAction"]["notice"] is None
        log = srv.rooms.store.log(code)
        row = next(r for r in log if r.version == fired)
        assert row.kind == "preaction" and row.player_id == second
        _scan(srv, code, players, watcher)

    asyncio.run(main())


def test_call_this_amount_is_cancelled_by_a_raise_with_a_notice(server: LiveServer) -> None:
    srv = server

    async def main() -> None:
        t = await _holdem(srv)  # button, small blind, big blind
        code, by, first, second, third = t.code, t.by, t.first, t.second, t.third
        offered = _seat(srv, code, second)["preAction"]["offered"]
        call = next(o for o in offered if o["kind"] == "call")
        assert call["amount"] == _view(srv, code, second)["me"]["toCall"] > 0
        await _choose(by[second], "call", t.version)
        raise_to = _min_raise(srv, code, first)
        raised = await _act(srv, code, by[first], {"type": "nl.raise", "to": raise_to})
        seen = await _view_at(by[second], raised)
        pa = seen["seat"]["preAction"]
        assert pa["chosen"] is None
        assert pa["notice"] == {"text": "누군가 레이즈해서 '콜' 예약이 취소됐어요", "version": raised}
        # the others never see that notice
        assert (await _view_at(by[third], raised))["seat"]["preAction"]["notice"] is None
        # the cancelled pre-action does not fire on my turn: the room waits for me
        await asyncio.sleep(0.3)
        assert _room(srv, code).version == raised
        assert _view(srv, code, None)["toAct"] == second
        assert _room(srv, code).pre.chosen == {}
        _scan(srv, code, t.players, t.watcher)

    asyncio.run(main())


def test_check_fold_folds_facing_a_bet_and_call_any_survives_the_raise(server: LiveServer) -> None:
    srv = server

    async def main() -> None:
        t = await _holdem(srv)
        code, by, first, second, third = t.code, t.by, t.first, t.second, t.third
        await _choose(by[second], "checkFold", t.version)
        await _choose(by[third], "callAny", t.version)
        raise_to = _min_raise(srv, code, first)
        raised = await _act(srv, code, by[first], {"type": "nl.raise", "to": raise_to})
        # second folds (check was not free), then third calls the raise: two chained changes
        await _view_at(by[third], raised + 2)
        a1 = [e for e in _events_of(by[third], raised + 1) if e["type"] == "action"]
        a2 = [e for e in _events_of(by[third], raised + 2) if e["type"] == "action"]
        assert a1[0]["player"] == second and a1[0]["action"] == {"type": "nl.fold"}
        assert a2[0]["player"] == third and a2[0]["action"] == {"type": "nl.call"}
        assert a2[0]["amount"] > 0
        _scan(srv, code, t.players, t.watcher)

    asyncio.run(main())


def test_korean_ping_call_pings_when_unopened(server: LiveServer) -> None:
    srv = server

    async def main() -> None:
        code, players, watcher, by, first = await _badugi(srv)
        nxt = _next_after(srv, code, first, {"type": "k.check"})
        assert nxt is not None
        offered = [o["kind"] for o in _seat(srv, code, nxt)["preAction"]["offered"]]
        assert offered == ["checkFold", "callAny", "pingCall"]  # nothing to call yet: no 콜
        await _choose(by[nxt], "pingCall", _room(srv, code).version)
        checked = await _act(srv, code, by[first], {"type": "k.check"})
        await _view_at(by[nxt], checked + 1)
        acts = [e for e in _events_of(by[nxt], checked + 1) if e["type"] == "action"]
        assert acts[0]["player"] == nxt and acts[0]["action"] == {"type": "k.ping"}
        _scan(srv, code, players, watcher)

    asyncio.run(main())


def test_korean_ping_call_is_cancelled_when_the_bet_grows_past_a_ping(server: LiveServer) -> None:
    srv = server

    async def main() -> None:
        code, players, watcher, by, first = await _badugi(srv)
        legal = {a["type"] for a in _view(srv, code, first)["me"]["legalActions"]}
        big = "k.half" if "k.half" in legal else "k.quarter"
        nxt = _next_after(srv, code, first, {"type": big})
        assert nxt is not None
        await _choose(by[nxt], "pingCall", _room(srv, code).version)
        bet = await _act(srv, code, by[first], {"type": big})
        seen = await _view_at(by[nxt], bet)
        assert seen["seat"]["preAction"]["notice"]["text"] == "베팅이 올라서 '삥/콜' 예약이 취소됐어요"
        await asyncio.sleep(0.3)
        assert _view(srv, code, None)["toAct"] == nxt  # the table waits for me: nothing was applied
        _scan(srv, code, players, watcher)

    asyncio.run(main())


def test_preaction_refusals(server: LiveServer) -> None:
    srv = server

    async def main() -> None:
        t = await _holdem(srv)
        code, watcher, by, first, second, version = t.code, t.watcher, t.by, t.first, t.second, t.version

        async def refused(c: Client, msg: dict[str, Any], code_: str) -> None:
            await c.send(msg)
            err = await c.expect("error")
            assert err["code"] == code_, err

        await refused(watcher, {"type": "preAction", "kind": "callAny", "version": version}, "spectator")
        await refused(by[first], {"type": "preAction", "kind": "callAny", "version": version},
                      "preaction_unavailable")  # on my own turn I simply act
        await refused(by[second], {"type": "preAction", "kind": "callAny", "version": version - 1},
                      "stale_version")
        await refused(by[second], {"type": "preAction", "kind": "raiseAny", "version": version},
                      "bad_message")
        await refused(by[second], {"type": "preAction", "kind": "pingCall", "version": version},
                      "preaction_unavailable")  # 삥/콜 is Korean betting only
        assert _room(srv, code).pre.chosen == {}
        # clearing works and is answered with my view
        await _choose(by[second], "callAny", version)
        await _choose(by[second], None, version)
        assert _room(srv, code).pre.chosen == {}

    asyncio.run(main())


def test_preaction_survives_reload_and_restart(make_server: Callable[..., LiveServer],
                                               tmp_path: Path) -> None:
    data = tmp_path / "data"
    srv = make_server(data_dir=data)

    async def first_run() -> tuple[str, str, str, str]:
        t = await _holdem(srv)
        code, by, second = t.code, t.by, t.second
        await _choose(by[second], "checkFold", t.version)
        token = by[second].token
        assert token is not None
        # a reload: a new socket with the same token gets the choice in its snapshot
        tab = await join(srv, code, "reload", token=token)
        snap = await tab.expect("view")
        assert snap["seat"]["preAction"]["chosen"]["kind"] == "checkFold"
        return code, second, token, srv.rooms.engine.dump_state(_room(srv, code).state)

    code, second, token, _ = asyncio.run(first_run())
    srv.stop()
    again = make_server(data_dir=data)

    async def second_run() -> None:
        tab = await join(again, code, "after-restart", token=token)
        snap = await tab.expect("view")
        assert snap["seat"]["preAction"]["chosen"]["kind"] == "checkFold"
        assert _room(again, code).pre.chosen[second].kind == "checkFold"

    asyncio.run(second_run())


def test_preactions_are_small_writes_and_a_restart_replays_them_exactly(
        make_server: Callable[..., LiveServer], tmp_path: Path) -> None:
    """Issue 13 (a store write proportional to the change, a snapshot at most once per hand): choosing a
    pre-action writes the room's pre-actions row; a change that cancels one, a change that makes one due
    and the fired pre-action are action-log rows (the first two carrying the pre-actions). A restart after
    them rebuilds exactly the room's state and pre-actions from the hand's one snapshot plus those rows."""
    data = tmp_path / "data"
    srv = make_server(data_dir=data)
    ops: list[str] = []
    store_op = srv.rooms.driver.store_op

    def spy(room: Any, op: str, args: tuple[Any, ...]) -> tuple[str, tuple[Any, ...]]:
        if room.code == code_box[0]:
            ops.append(op)
        return store_op(room, op, args)

    code_box = [""]
    srv.rooms.driver.store_op = spy  # type: ignore[method-assign]

    async def first_run() -> tuple[str, str, str, str, dict[str, Any], int, str | None]:
        t = await _holdem(srv)  # button, small blind, big blind
        code, by, first, second, third = t.code, t.by, t.first, t.second, t.third
        code_box[0] = code
        snapshot = srv.rooms.store.load(code)
        assert snapshot is not None and not snapshot.replay  # the hand's start: a snapshot
        await _choose(by[second], "call", t.version)
        await _choose(by[third], "callAny", t.version)
        assert ops == ["pre", "pre"]
        # the raise cancels second's 콜 (with a notice); second's own call makes third's 아무거나 콜 due
        raised = await _act(srv, code, by[first], {"type": "nl.raise", "to": _min_raise(srv, code, first)})
        called = await _act(srv, code, by[second], {"type": "nl.call"})
        await _view_at(by[second], called + 1)
        assert ops == ["pre", "pre", "log", "log", "log"]
        stored = srv.rooms.store.load(code)
        assert stored is not None
        assert stored.version == snapshot.version  # still the hand's one snapshot
        assert [(r.version, r.kind) for r in stored.replay] == [
            (raised, "action"), (called, "action"), (called + 1, "preaction")]
        assert stored.replay[-1].player_id == third
        room = _room(srv, code)
        assert room.pre.chosen == {}
        assert room.pre.notices[second]["text"] == "누군가 레이즈해서 '콜' 예약이 취소됐어요"
        assert stored.pre_actions == room.pre.to_json()
        token = by[second].token
        assert token is not None
        return (code, second, token, srv.rooms.engine.dump_state(room.state), room.pre.to_json(),
                room.version, _view(srv, code, None)["toAct"])

    code, _, token, state, pre_json, version, to_act = asyncio.run(first_run())
    srv.stop()
    again = make_server(data_dir=data)

    async def second_run() -> None:
        room = _room(again, code)
        assert room.version == version
        assert again.rooms.engine.dump_state(room.state) == state
        assert room.pre.to_json() == pre_json
        tab = await join(again, code, "after-restart", token=token)
        snap = await tab.expect("view")
        assert snap["seat"]["preAction"]["notice"]["text"] == "누군가 레이즈해서 '콜' 예약이 취소됐어요"
        assert snap["view"]["toAct"] == to_act

    asyncio.run(second_run())


def test_a_show_is_a_log_row_with_its_amended_hand_and_the_history_follows(
        make_server: Callable[..., LiveServer], tmp_path: Path) -> None:
    """Issue 13 (a snapshot at most once per hand): a winner's show after the hand's end is stored as its
    log row with the amended hand record, not as a second snapshot; a history asked before the show is not
    served again after it (the cache follows the amendment), and a restart restores both the state and the
    amended history exactly."""
    data = tmp_path / "data"
    srv = make_server(data_dir=data)
    ops: list[str] = []
    store_op = srv.rooms.driver.store_op
    srv.rooms.driver.store_op = lambda room, op, args: (ops.append(op), store_op(room, op, args))[1]  # type: ignore[method-assign]

    async def first_run() -> tuple[str, str, int, list[dict[str, Any]]]:
        code, players, watcher = await _table(srv, 3, mode="holdem")
        await _fold_to_the_winner(srv, code, _by_id(players))
        by = _by_id(players)
        winner = _view(srv, code, None)["awards"][0]["to"]
        await watcher.send({"type": "history"})
        before = (await watcher.expect("history"))["hands"][0]
        assert winner not in before["shown"]
        ops.clear()
        shown_v = await _act(srv, code, by[winner], {"type": "show"})
        assert ops == ["log"]
        stored = srv.rooms.store.load(code)
        assert stored is not None and [r.kind for r in stored.replay] == ["action"]
        assert stored.replay[0].version == shown_v
        await watcher.send({"type": "history"})
        after = (await watcher.expect("history", pred=lambda m: m["hands"][0]["version"] == shown_v))["hands"]
        seat = next(s for s in _view(srv, code, None)["seats"] if s["id"] == winner)
        assert [c["id"] for c in after[0]["shown"][winner]] == [c["id"] for c in seat["hole"]]
        return code, srv.rooms.engine.dump_state(_room(srv, code).state), shown_v, after

    code, state, shown_v, history = asyncio.run(first_run())
    srv.stop()
    again = make_server(data_dir=data)

    async def second_run() -> None:
        room = _room(again, code)
        assert room.version == shown_v and again.rooms.engine.dump_state(room.state) == state
        assert room.hands[-1].version == shown_v
        tab = await join(again, code, "after-restart", spectate=True)
        await tab.expect("view")
        await tab.send({"type": "history"})
        assert (await tab.expect("history"))["hands"] == history

    asyncio.run(second_run())


def test_uncalled_winner_shows_cards_views_and_history_follow(server: LiveServer) -> None:
    """Show through the room: every socket's next view opens the winner's cards, the hand history
    is amended with them, and the frame scanner (truth at each frame's version) finds no leak before."""
    srv = server

    async def main() -> None:
        code, players, watcher = await _table(srv, 3, mode="holdem")
        by = _by_id(players)
        await _fold_to_the_winner(srv, code, by)
        pub = _view(srv, code, None)
        assert pub["phase"] == "handEnd" and pub["showdown"] == []
        winner = pub["awards"][0]["to"]
        assert {"type": "show"} in _view(srv, code, winner)["me"]["legalActions"]
        await asyncio.sleep(0.3)
        shown_v = await _act(srv, code, by[winner], {"type": "show"})
        seen = await _view_at(watcher, shown_v)
        seat = next(s for s in seen["view"]["seats"] if s["id"] == winner)
        assert seat["shown"] and all("rank" in c for c in seat["hole"])
        await watcher.send({"type": "history"})
        hist = await watcher.expect("history")
        hand = hist["hands"][0]
        assert hand["version"] == shown_v
        assert [c["id"] for c in hand["shown"][winner]] == [c["id"] for c in seat["hole"]]
        assert any(a["type"] == "shown" for a in hand["actions"])
        assert _room(srv, code).hands[-1].version == shown_v and len(_room(srv, code).hands) == 1
        # table talk goes through the same scanner: a reaction and a chat line carry no card, no secret
        host = players[0]
        await host.send({"type": "social", "chat": True, "spectatorReactions": True})
        await watcher.expect("lobby", pred=lambda m: m["social"]["chat"])
        await by[winner].send({"type": "react", "reaction": "nice"})
        await watcher.send({"type": "react", "reaction": "clap"})
        await host.send({"type": "chat", "text": "A♠ 보여 주다니 ㅋㅋ"})
        # three senders: their frames reach the watcher in any order
        await watcher.expect_each(["reaction", "reaction", "chat"])
        _scan(srv, code, players, watcher)

    asyncio.run(main())
