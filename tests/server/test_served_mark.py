"""The single server's ``served-at`` mark (server/ops/served.py) speaks for every stored room, so it must not
move past the previous run's while a restart is still restoring rooms in the background: a run that died
before its restore ended would otherwise charge the players of the rooms it never served for the time it ran.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from types import SimpleNamespace

from pokerroom.server.ops.served import ServedMark
from pokerroom.server.room.timers import Clock
from pokerroom.server.topology import SingleNode


def test_the_mark_stays_at_the_previous_runs_while_rooms_are_restored(tmp_path: Path) -> None:
    mark = ServedMark(tmp_path / "served-at")
    clock = Clock()
    restoring = [True]

    async def run() -> list[int | None]:
        seen: list[int | None] = []
        task = asyncio.get_running_loop().create_task(
            mark.keep(clock, 0.01, before=1_000, restoring=lambda: restoring[0]))
        await asyncio.sleep(0.05)
        seen.append(mark.read())
        restoring[0] = False
        await asyncio.sleep(0.05)
        seen.append(mark.read())
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        return seen

    during, after = asyncio.run(run())
    assert during == 1_000, "a room not restored yet was not served since the previous run"
    assert after is not None and after >= clock.now_ms() - 1_000, "once every room is served, the mark is now"


def test_an_unknown_previous_mark_is_not_written_while_restoring(tmp_path: Path) -> None:
    mark = ServedMark(tmp_path / "served-at")

    async def run() -> None:
        task = asyncio.get_running_loop().create_task(mark.keep(Clock(), 0.01, restoring=lambda: True))
        await asyncio.sleep(0.03)
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)

    asyncio.run(run())
    assert mark.read() is None  # each room then counts from its own newest change: more time, never less


def test_the_single_node_holds_its_mark_until_its_restore_is_done(tmp_path: Path) -> None:
    """The wiring: the heartbeat the single node keeps reads the rooms' background restore."""
    (tmp_path / "served-at").write_text("1000", encoding="ascii")
    node = SingleNode()
    node.make_store(tmp_path, busy_timeout_ms=1_000).close()
    assert node.last_served_ms() == 1_000
    restorer = SimpleNamespace(left=3)
    rooms = SimpleNamespace(clock=Clock(), restorer=restorer, on_close=None, idle_close_s=60.0,
                            limits=SimpleNamespace(rooms_per_address=5, room_creations_per_minute=5))

    async def run() -> tuple[int | None, int | None]:
        await node.start(rooms, SimpleNamespace())  # type: ignore[arg-type]
        await asyncio.sleep(0.05)
        during = node.served.read() if node.served else None
        restorer.left = 0
        await asyncio.sleep(1.3)  # a heartbeat at the server's pace (a second)
        after = node.served.read() if node.served else None
        await node.stop()
        return during, after

    during, after = asyncio.run(run())
    assert during == 1_000
    assert after is not None and after > 1_000
