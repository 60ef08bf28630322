"""A turn's clock does not run while nobody serves the room: a single ``pokerroom serve`` SIGKILLed with a
turn pending and started again 20 s later (longer than the whole 15 s turn) gives the player the time they
had left, instead of timing them out the moment the room is loaded; the view shows the new deadline and
the table's log says, in Korean, that the stopped time was not counted."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import pytest
from server_helpers import rejoin, safe_step, start_table

from serving import ServeProcess

pytestmark = pytest.mark.timeout(120)

TURN_S = 15
DOWN_S = 20.0


def _pending_turn(view: dict[str, Any]) -> tuple[str, int]:
    v = view["view"]
    assert v["phase"] == "betting" and v["toAct"] and v["deadlineAt"], v
    return v["toAct"], int(v["deadlineAt"])


def test_a_stopped_server_does_not_charge_the_turn(tmp_path: Path) -> None:
    srv = ServeProcess(tmp_path).up()
    try:
        async def before_crash() -> tuple[str, list[str], dict[str, Any]]:
            code, players = await start_table(srv, ("가", "나"), mode="holdem", turnSeconds=TURN_S,
                                              hints=False)
            await safe_step(players, "s0")  # a turn begun by a stored change (not the start)
            await asyncio.sleep(1.5)  # the player to act thinks a little
            return code, [p.token or "" for p in players], players[0].last("view")  # type: ignore[return-value]

        code, tokens, last = asyncio.run(before_crash())
        to_act, deadline = _pending_turn(last)
        srv.kill()
        left_ms = deadline - time.time() * 1000  # the game clock is the wall clock (time scale 1)
        assert 5_000 < left_ms < TURN_S * 1000
        time.sleep(DOWN_S)
        srv.up()

        async def after_restart() -> None:
            back = await rejoin(srv, code, tokens)
            snap = back[0][1]
            who, due = _pending_turn(snap)
            lines = [e["text"] for e in snap["view"]["publicLog"]]
            assert not any("시간 초과" in t for t in lines), lines
            assert who == to_act and snap["view"]["street"] == last["view"]["street"], \
                "the player to act was not timed out when the room was loaded"
            assert snap["version"] == last["version"] + 1, "one change: the clock given back, nothing else"
            left_now = due - snap["serverNow"]
            # what was left when the server died, less the moment the restart took (a second of heartbeat
            # at most is given on top)
            assert left_ms - 3_000 <= left_now <= left_ms + 1_500, (left_ms, left_now)
            assert "멈춰" in lines[-1] and "초" in lines[-1], lines[-1]
            await safe_step([c for c, _s in back], "after")  # and the game goes on
            for c, _s in back:
                await c.close()

        asyncio.run(after_restart())
    finally:
        srv.kill()
