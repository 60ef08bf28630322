"""View deltas (docs/protocol.md §2.8): the diff/apply pair is exact, old clients keep full views, a delta
socket gets one full view then viewDelta frames with its ack folded in, and ``resync`` gives a full view."""

from __future__ import annotations

import asyncio
import copy
import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from server_helpers import Client, LiveServer, join, play_until_result

from pokerroom.server.wire import deltas
from pokerroom.server.wire.deltas import OWN_KEYS, Differ, apply_delta, log_delta, same, view_delta

scalars = st.one_of(st.none(), st.booleans(), st.integers(-5, 5), st.sampled_from(["a", "b", "가"]))
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
    st.sampled_from(["x", "y", "z"]), inner, max_size=3), max_leaves=8)
keys = st.sampled_from(["phase", "seats", "me", "publicLog", "pots", "toAct", "board"])
views = st.dictionaries(keys, values, max_size=7)


#: recursive views are slow to draw on a loaded machine; how fast Hypothesis draws them is not what is tested
SLOW_DRAWS = settings(suppress_health_check=[HealthCheck.too_slow])


@SLOW_DRAWS
@given(views, views)
@example({"me": {"x": False}}, {"me": {"x": 0}})  # == takes False for 0: found by this test
@example({"publicLog": [False], "seats": [True]}, {"publicLog": [0], "seats": [1]})
def test_apply_of_delta_rebuilds_the_new_view(old: dict[str, Any], new: dict[str, Any]) -> None:
    frozen, expected = repr(old), copy.deepcopy(new)
    assert apply_delta(old, view_delta(old, new)) == expected
    assert repr(old) == frozen  # the base is not modified
    assert new == expected and repr(new) == repr(expected)  # interning old objects changed no value


@given(st.lists(st.integers(0, 3), max_size=12), st.integers(0, 5), st.lists(st.integers(0, 3), max_size=4))
def test_log_delta_sends_only_appended_entries(old: list[int], drop: int, add: list[int]) -> None:
    new = (old[drop:] + add)[-10:]
    delta = log_delta(old, new)
    assert delta is not None
    assert old[delta["drop"]:] + delta["add"] == new
    assert len(delta["add"]) <= len(add) or not old[drop:]


@SLOW_DRAWS
@given(views, views, st.lists(st.tuples(keys, values, values), min_size=1, max_size=4))
@example({"publicLog": [1, 2]}, {"publicLog": [2, 3]}, [("me", {"x": 1}, {"x": True})])
def test_one_differ_for_many_viewers_gives_each_its_own_delta(
        old: dict[str, Any], new: dict[str, Any], own: list[tuple[str, Any, Any]]) -> None:
    """The views of one change share their public objects (engine ``StateViews``) and each viewer's base
    shares them too; a :class:`Differ` remembering comparisons across viewers must give every viewer exactly
    the delta it would get alone, and the new views must again share the public objects."""
    olds = [{**old, key: before} for key, before, _after in own]
    news = [{**new, key: after} for key, _before, after in own]
    alone = [view_delta(copy.deepcopy(o), copy.deepcopy(n)) for o, n in zip(olds, news, strict=True)]
    differ = Differ()
    shared = [view_delta(o, n, differ) for o, n in zip(olds, news, strict=True)]
    assert [json.dumps(d, sort_keys=True) for d in shared] == [json.dumps(d, sort_keys=True) for d in alone]
    for o, n in zip(olds, news, strict=True):
        assert json.dumps(apply_delta(o, shared.pop(0)), sort_keys=True) == json.dumps(n, sort_keys=True)
    for key in new:  # a public key no viewer overrode is one object in every new view
        if all(key != k for k, _b, _a in own) and isinstance(new[key], (list, dict)):
            if key in OWN_KEYS and isinstance(new[key], list):  # a list per viewer, its items shared
                rows = zip(*(n[key] for n in news), strict=True)
                assert all(len({id(item) for item in items}) == 1 for items in rows)
            elif key not in OWN_KEYS:
                assert len({id(n[key]) for n in news}) == 1


def test_same_tells_bools_from_ints_at_any_depth() -> None:
    assert same(1, 1) and same("가", "가") and same(None, None) and same([{"a": 1}], [{"a": 1}])
    assert not same(True, 1) and not same(0, False) and not same([{"a": 1}], [{"a": True}])
    assert not same(1, 1.5) and not same("1", 1)


def test_same_seat_count_sends_changed_seats_only() -> None:
    a = {"id": "a", "stack": 5}
    old = {"seats": [a, {"id": "b", "stack": 7}], "publicLog": [1, 2, 3], "me": {"h": 1}}
    new = {"seats": [a, {"id": "b", "stack": 6}], "publicLog": [2, 3, 4], "me": {"h": 2}}
    assert view_delta(old, new) == {"seatsSet": {"1": {"stack": 6}}, "log": {"drop": 1, "add": [4]},
                                    "me": {"set": {"h": 2}}}  # only the seat's changed field
    grown = {"seats": [a, {"id": "b", "stack": 6, "new": 1}]}  # keys changed: the seat travels whole
    assert view_delta({"seats": [a, {"id": "b", "stack": 6}]}, grown) == {"seats": {"1": grown["seats"][1]}}


def test_each_seat_pair_is_compared_once_per_change(monkeypatch: pytest.MonkeyPatch) -> None:
    """A change's viewers share their base and new seat dicts except each player's own seat: the Differ
    compares every (old seat, new seat) pair once, however the viewers' own seats interleave (it used to
    keep one comparison per seat index, which each player's own seat overwrote for the next viewer)."""
    calls: list[tuple[int, int]] = []
    real = deltas.same

    def counting(a: Any, b: Any) -> bool:
        if isinstance(a, dict) and "stack" in a:
            calls.append((id(a), id(b)))
        return real(a, b)

    monkeypatch.setattr(deltas, "same", counting)
    row_old = [{"id": f"p{i}", "stack": 10, "hole": [{"hidden": True, "slot": 0}]} for i in range(4)]
    row_new = [{**seat, "stack": 9} for seat in row_old]  # every seat changed: no identity shortcut
    olds, news = [], []
    for i in range(4):  # player i sees its own seat with its card; everybody else the shared row
        own_old = {**row_old[i], "hole": [{"id": i, "rank": 5, "suit": "S"}]}
        own_new = {**row_new[i], "hole": own_old["hole"]}
        olds.append({"seats": [own_old if j == i else s for j, s in enumerate(row_old)]})
        news.append({"seats": [own_new if j == i else s for j, s in enumerate(row_new)]})
    differ = Differ()
    for o, n in zip(olds, news, strict=True):
        view_delta(o, n, differ)
    assert calls and len(calls) == len(set(calls)), "a seat pair was compared twice"
    assert len(calls) == 8  # 4 shared pairs + 4 own pairs


async def _table(server: LiveServer) -> tuple[str, Client, Client, Client]:
    room = server.create_room("p1")
    code = room["code"]
    host = await join(server, code, "p1", token=room["token"], deltas=True)
    old = await join(server, code, "p2", nickname="옛날")  # an old client: no deltas
    watcher = await join(server, code, "s", spectate=True, deltas=True)
    return code, host, old, watcher


def test_delta_sockets_get_deltas_and_old_clients_full_views(server: LiveServer) -> None:
    async def main() -> None:
        code, host, old, watcher = await _table(server)
        await host.send({"type": "start"})
        await play_until_result([host, old], random.Random(5), timeout=30)
        await watcher.expect("result")
        kinds = [f["type"] for f in host.frames if f["type"] in ("view", "viewDelta")]
        assert kinds[0] == "view" and set(kinds[1:]) == {"viewDelta"}  # one whole view, then deltas
        assert "viewDelta" not in {f["type"] for f in old.frames}
        assert any(f["type"] == "ack" for f in old.frames)
        assert all("ack" not in f for f in old.frames if f["type"] == "view")
        # the ack rides on the sender's own frame: a delta socket gets no separate ack frame
        assert not any(f["type"] == "ack" for f in host.frames)
        acked = [f for f in host.frames if "ack" in f]
        assert acked and all(f["type"] in ("view", "viewDelta") for f in acked)
        # the events ride on the view frame too: the same public events as the old client's events frames
        assert not any(f["type"] == "events" for f in host.frames + watcher.frames)
        old_events = {f["version"]: f["events"] for f in old.frames if f["type"] == "events"}
        for c in (host, watcher):
            folded = {f["version"]: f["events"] for f in c.frames if "events" in f}
            assert folded and {v: e for v, e in old_events.items() if v in folded} == folded
            assert set(old_events) - set(folded) <= {min(old_events)}  # (the start, before its first view)
        final = server.rooms.rooms[code].version
        for c in (host, watcher):
            last = c.views()[-1]
            assert last["version"] == final
            assert last["view"] == server.view_at(code, final, c.player_id)
        assert sum(len(json.dumps(f)) for f in host.frames) < sum(len(json.dumps(f)) for f in old.frames)

    asyncio.run(main())


def test_resync_answers_a_full_view_that_becomes_the_base(server: LiveServer) -> None:
    async def main() -> None:
        code, host, old, watcher = await _table(server)
        await host.send({"type": "start"})
        await watcher.expect("view")
        await watcher.send({"type": "resync"})
        snap = await watcher.expect("view")
        assert watcher.frames[-1]["type"] == "view"
        version = server.rooms.rooms[code].version
        assert snap["version"] == version
        assert snap["view"] == server.view_at(code, version, None)
        await watcher.send({"type": "resync", "extra": 1})
        assert (await watcher.expect("error"))["code"] == "bad_message"
        # a client that lost track (here: forgets the view it holds) asks resync on the next delta and
        # carries on from the whole view that answers it
        watcher.held = None
        await play_until_result([host, old], random.Random(3), timeout=30)
        await watcher.expect("result")
        assert watcher.resyncs == 1
        final = server.rooms.rooms[code].version
        assert watcher.held is not None and watcher.held[0] == final
        assert watcher.held[1] == server.view_at(code, final, None)

    asyncio.run(main())


def test_hello_deltas_must_be_a_boolean(server: LiveServer) -> None:
    async def main() -> None:
        room = server.create_room("p1")
        c = await Client.open(server.ws_url(room["code"]), "x")
        await c.send({"type": "hello", "spectate": True, "deltas": 1})
        assert (await c.expect("error"))["code"] == "bad_message"

    asyncio.run(main())


def test_hint_is_computed_once_per_version_and_viewer(server: LiveServer) -> None:
    """A second tab, a reconnect and a resync at the same version reuse the view and its hint."""
    calls: list[str] = []

    def recommend(view: dict[str, Any]) -> dict[str, Any]:
        calls.append(view["me"]["id"])
        return dict(view["me"]["legalActions"][0])

    server.rooms.recommender = recommend

    async def main() -> None:
        room = server.create_room("p1", hints=True)
        code = room["code"]
        host = await join(server, code, "p1", token=room["token"], deltas=True)
        guest = await join(server, code, "p2", nickname="손님")
        await host.send({"type": "start"})
        first = await guest.expect("view")
        await host.expect("view")
        counted = len(calls)
        assert counted >= 1  # somebody may act, so a hint was computed
        tabs = [await join(server, code, f"tab{i}", token=tok, deltas=True)
                for i, tok in enumerate([host.token, guest.token, guest.token])]
        again = [await tab.expect("view") for tab in tabs]
        await host.send({"type": "resync"})
        await host.expect("view")
        assert len(calls) == counted  # nothing recomputed at the same version
        assert again[1]["view"] == again[2]["view"] == first["view"]
        hinted = [v["view"]["me"] for v in [first, *again] if v["view"]["me"]["legalActions"]]
        assert hinted and all("hint" in me for me in hinted)

    asyncio.run(main())


def test_pre_action_seat_part_rides_whole_on_deltas(server: LiveServer) -> None:
    """The room's ``seat`` part (pre-actions, protocol §2.6) is not diffed: a player's viewDelta carries it
    whole, and a pre-action change (no new version) sends that seat a whole view."""
    srv = server

    async def main() -> None:
        room = srv.create_room("p1", mode="holdem", handLimit=10)
        code = room["code"]
        players = [await join(srv, code, "p1", token=room["token"], deltas=True)]
        players += [await join(srv, code, f"p{i}", nickname=f"플레이어{i}", deltas=True) for i in (2, 3)]
        await players[0].send({"type": "start"})
        views = [await c.expect("view") for c in players]
        to_act = views[0]["view"]["toAct"]
        waiting = next(c for c, v in zip(players, views, strict=True)
                       if v["view"]["me"]["id"] != to_act and v["seat"]["preAction"]["offered"])
        version = srv.rooms.rooms[code].version
        await waiting.send({"type": "preAction", "kind": "callAny", "version": version})
        whole = await waiting.expect("view", pred=lambda m: m["seat"]["preAction"]["chosen"] is not None)
        assert waiting.frames[-1]["type"] == "view" and whole["version"] == version
        actor = next(c for c in players if c.player_id == to_act)
        await actor.send({"type": "action", "clientMsgId": "x1", "version": version,
                          "action": {"type": "nl.call"}})
        await actor.expect("ack")
        after = await waiting.expect("view", pred=lambda m: m["version"] > version)
        raw = next(f for f in waiting.frames if f["type"] == "viewDelta" and f["version"] == after["version"])
        assert raw["seat"] == after["seat"] and "preAction" in raw["seat"]

    asyncio.run(main())


def test_engine_port_hands_unchanged_seats_on_as_the_same_dicts() -> None:
    """The engine port builds each game's next views from that game's previous ones, even with another
    game's views built in between: an action changes the actor's seat, the other seats stay the very same
    dicts (so the view deltas skip them by identity), and every view is still exactly ``view()``."""
    from pokerroom.engine import view as plain_view
    from pokerroom.server.engine_port import PokerEngine

    eng = PokerEngine()
    ids = ["a", "b", "c", "d"]
    games = [eng.setup(ids, eng.parse_options({"mode": "holdem"}), 0) for _ in range(2)]
    befores = [eng.view(state, None) for state in games]
    for n, state in enumerate(games):
        actor = befores[n]["toAct"]
        after_state, _events = eng.apply(state, actor, {"type": "nl.fold"}, 1000)
        eng.view(games[1 - n], None)  # the other game's views in between
        after = eng.view(after_state, None)
        assert json.dumps(after) == json.dumps(plain_view(after_state, None))
        pairs = list(zip(befores[n]["seats"], after["seats"], strict=True))
        assert all(old is not new for old, new in pairs if new["id"] == actor)
        assert all(old is new for old, new in pairs if new["id"] != actor)
