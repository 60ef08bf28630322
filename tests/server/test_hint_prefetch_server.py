"""The server hands a hint function that shares a street's work (``prefetch``) the other seats' views of the
same change, and every hint it sends is the one that seat's view alone gives."""

from __future__ import annotations

import asyncio
import copy
import random
from collections.abc import Callable
from typing import Any

import pytest
from server_helpers import Client, LiveServer, join, play_until_result

from pokerroom.bots import Hints, hint, recommend


class SpyHints(Hints):
    """:class:`Hints`, recording which views each hint was handed (when it asked) and how many seats each
    one pass priced."""

    def __init__(self) -> None:
        self.asked: list[tuple[str, list[str]]] = []
        self.priced: list[int] = []
        real = hint.estimate_holes

        def counting(holes: list[tuple[int, int]], *args: Any) -> list[list[float]]:
            self.priced.append(len(holes))
            return real(holes, *args)

        self.counting = counting

    def hint_with_others(self, view: dict[str, Any], others: Callable[[], list[dict[str, Any]]]) -> Any:
        def recorded() -> list[dict[str, Any]]:
            got = others()
            self.asked.append((view["me"]["id"], [o["me"]["id"] for o in got]))
            return got

        return super().hint_with_others(view, recorded)


def test_hints_sent_with_the_street_shared_are_each_seats_own(server: LiveServer,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    spy = SpyHints()
    monkeypatch.setattr(hint, "estimate_holes", spy.counting)
    server.rooms.recommender = spy
    hint._EQUITY.clear()
    seen: list[dict[str, Any]] = []

    async def main() -> None:
        room = server.create_room("p1", mode="holdem", hints=True, handLimit=10)
        code = room["code"]
        players: list[Client] = [await join(server, code, "p1", token=room["token"])]
        players += [await join(server, code, f"p{i}", nickname=f"플레이어{i}") for i in (2, 3, 4, 5)]
        await players[0].send({"type": "start"})
        await play_until_result(players, random.Random(8), timeout=90, all_in=0.0,
                                on_view=lambda _c, msg: seen.append(msg["view"]))

    asyncio.run(main())
    seated = {f"p{i}" for i in range(1, 6)}
    # each hint that asked was handed the other seats' views, each built for its own seat, once
    assert spy.asked
    for actor, ids in spy.asked:
        assert actor not in ids and len(ids) == len(set(ids)) and set(ids) <= seated
    assert any(n > 1 for n in spy.priced)  # some street was priced for several seats in one pass
    hinted = [v for v in seen if v["me"].get("hint") is not None]
    assert any(len(v["board"]) in (3, 4) for v in hinted)
    for view in hinted:
        alone = copy.deepcopy(view)
        sent = alone["me"].pop("hint")
        assert recommend(alone) == sent  # what this seat's view gives by itself


def test_other_views_that_fail_leave_every_hint_in_place(server: LiveServer,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """If building the other seats' views fails, the deciding seat's hint is still its own."""
    from pokerroom.server.room import views

    def failing(*_args: Any, **_kwargs: Any) -> Any:
        raise RuntimeError("a view that fails")

    real = views.RoomViews.view

    def flaky(self: Any, room: Any, viewer: Any) -> Any:
        if self._building_others:
            failing()
        return real(self, room, viewer)

    monkeypatch.setattr(views.RoomViews, "view", flaky)
    server.rooms.recommender = Hints()
    seen: list[dict[str, Any]] = []

    async def main() -> None:
        room = server.create_room("p1", mode="holdem", hints=True, handLimit=10)
        code = room["code"]
        players = [await join(server, code, "p1", token=room["token"])]
        players += [await join(server, code, f"p{i}", nickname=f"플레이어{i}") for i in (2, 3)]
        await players[0].send({"type": "start"})
        await play_until_result(players, random.Random(4), timeout=90, all_in=0.0,
                                on_view=lambda _c, msg: seen.append(msg["view"]))

    asyncio.run(main())
    # (a betting decision: ready, show, rebuy and run-it-twice offers get no hint)
    deciding = [v for v in seen if any(a["type"].startswith(("nl.", "k.")) for a in v["me"]["legalActions"])]
    missing = [[a["type"] for a in v["me"]["legalActions"]] for v in deciding if v["me"].get("hint") is None]
    assert deciding and not missing, missing[:5]
