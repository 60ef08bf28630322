"""The server hands a hint function that shares a street's work (``prefetch``) the other seats' views of the
same change, and every hint it sends is the one that seat's view alone gives."""

from __future__ import annotations

import asyncio
import copy
import random
from collections.abc import Callable
from typing import Any

from server_helpers import Client, LiveServer, join, play_until_result

from pokerroom.bots import Hints, hint, recommend


class SpyHints(Hints):
    """:class:`Hints`, recording what each prefetch was handed and how many seats it priced."""

    def __init__(self) -> None:
        self.asked: list[tuple[str, list[str]]] = []
        self.priced: list[int] = []

    def prefetch(self, view: dict[str, Any], others: Callable[[], list[dict[str, Any]]]) -> int:
        def recorded() -> list[dict[str, Any]]:
            got = others()
            self.asked.append((view["me"]["id"], [o["me"]["id"] for o in got]))
            return got

        priced = super().prefetch(view, recorded)
        self.priced.append(priced)
        return priced


def test_hints_sent_with_the_street_shared_are_each_seats_own(server: LiveServer) -> None:
    spy = SpyHints()
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
    # each prefetch that asked was handed the other seats' views, each built for its own seat, once
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


class BrokenPrefetch(Hints):
    def prefetch(self, view: dict[str, Any], others: Callable[[], list[dict[str, Any]]]) -> int:
        raise RuntimeError("a prefetch that fails")


def test_a_failing_prefetch_leaves_every_hint_in_place(server: LiveServer) -> None:
    server.rooms.recommender = BrokenPrefetch()
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
