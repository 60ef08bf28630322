"""The room-store contract, run on SQLite (memory and file) and PostgreSQL alike: what one
backend guarantees, the other does too, so the room server and the cluster can use either."""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Any

import pytest
from store_backends import Backend

from pokerroom.server.storage import HANDS_KEPT, Fenced, GroupWriter, LogRow, RoomStore, StoredRoom
from pokerroom.server.storage.base import Op, prepare_log, prepare_pre, prepare_save


def row(version: int, kind: str = "action", pid: str | None = "p1", cmid: str | None = None,
        action: dict[str, Any] | None = None, at: int = 0) -> LogRow:
    return LogRow(version, kind, pid, cmid, {"type": "k.call"} if action is None else action, at or version)


def test_save_log_load_replays_the_rows_after_the_snapshot(store: RoomStore) -> None:
    meta = {"code": "ROOM1", "members": [{"id": "p1", "nick": "영희"}]}
    store.apply_batch([prepare_save("ROOM1", meta, "state-1", 1, 100, row(1, cmid="c1"))])
    store.apply_batch([prepare_log("ROOM1", row(2, cmid="c2")),
                       prepare_log("ROOM1", row(3, "timeout", None))])
    store.apply_batch([prepare_save("ROOM1", {**meta, "n": 4}, "state-4", 4, 400, row(4))])
    store.apply_batch([prepare_log("ROOM1", row(5, "bot", "b1", action={"type": "k.die"}, at=555))])

    room = store.load("ROOM1")
    assert room is not None
    assert (room.meta, room.state, room.version, room.updated_ms) == ({**meta, "n": 4}, "state-4", 4, 400)
    assert room.replay == (LogRow(5, "bot", "b1", None, {"type": "k.die"}, 555),)
    assert room.newest_version == 5 and room.newest_ms == 555 and room.fence == 0
    assert store.load_all() == [room] and store.codes() == ["ROOM1"]
    assert store.load("NOPE1") is None
    assert store.has("ROOM1") and not store.has("NOPE1")
    assert [r.version for r in store.log("ROOM1")] == [1, 2, 3, 4, 5]
    assert [r.version for r in store.log("ROOM1", after=3)] == [4, 5]
    assert store.log("ROOM1")[2] == LogRow(3, "timeout", None, None, {"type": "k.call"}, 3)


def test_a_log_row_written_twice_keeps_the_last(store: RoomStore) -> None:
    """The same version stored again replaces the row (a retried write after an unknown outcome)."""
    store.apply_batch([prepare_save("R", {}, None, 0, 1), prepare_log("R", row(1, cmid="a"))])
    store.apply_batch([prepare_log("R", row(1, cmid="b"))])
    assert [(r.version, r.client_msg_id) for r in store.log("R")] == [(1, "b")]


def test_recent_acks_are_the_newest_client_messages_oldest_first(store: RoomStore) -> None:
    store.apply_batch([prepare_save("R", {}, None, 0, 1)]
                      + [prepare_log("R", row(v, cmid=None if v % 3 == 0 else f"m{v}"))
                         for v in range(1, 11)])
    acks = store.recent_acks("R")
    assert acks == [("p1", f"m{v}", v) for v in range(1, 11) if v % 3]
    assert store.recent_acks("R", limit=2) == [("p1", "m8", 8), ("p1", "m10", 10)]
    assert store.recent_acks("OTHER") == []


def test_hands_keep_the_newest_hands_kept_per_room(store: RoomStore) -> None:
    """A room's whole night, bounded: the newest HANDS_KEPT hands (docs/decisions/0044-hand-replayer.md)."""
    last = HANDS_KEPT + 3
    store.apply_batch([prepare_save("room1", {"m": seq}, None, seq, seq, None, [(seq, {"handNo": seq})])
                       for seq in range(1, last - 1)])
    for seq in (last - 1, last):  # later writes prune what falls out of the bound
        store.apply_batch([prepare_save("room1", {"m": seq}, None, seq, seq, None, [(seq, {"handNo": seq})])])
    store.apply_batch([prepare_save("room2", {"m": 0}, None, 1, 1, None, [(1, {"handNo": 1, "한": "글"})])])
    kept = [(seq, data["handNo"]) for seq, data in store.hands("room1")]
    assert kept == [(s, s) for s in range(4, last + 1)] and len(kept) == HANDS_KEPT
    assert store.hands("room2") == [(1, {"handNo": 1, "한": "글"})]


def test_delete_forgets_the_room_its_log_and_hands_only(store: RoomStore) -> None:
    for code in ("A", "B"):
        store.apply_batch([prepare_save(code, {"c": code}, "s", 1, 1, row(1, cmid="x"), [(1, {"h": 1})])])
    store.apply_batch([("delete", ("A",))])
    assert store.load("A") is None and store.log("A") == [] and store.hands("A") == []
    assert store.recent_acks("A") == []
    assert store.codes() == ["B"] and store.hands("B") == [(1, {"h": 1})]


def test_the_preactions_row_is_what_the_rooms_last_write_left(store: RoomStore) -> None:
    """Issue 13: pre-actions changed between snapshots are a row of their own (no snapshot); a snapshot's
    metadata holds them again and drops the row; a delete forgets it. Whatever the statement order of a
    batch, the room's last operation in it decides."""
    def pre(n: int) -> dict[str, Any]:
        return {"chosen": {"p1": {"kind": "callAny", "handNo": n}},
                "notices": {"p2": {"text": "취소", "version": n}}}

    def stored(code: str = "R") -> StoredRoom:
        room = store.load(code)
        assert room is not None
        return room

    store.apply_batch([prepare_save("R", {"preActions": pre(0)}, "s", 1, 1, row(1))])
    assert stored().pre is None and stored().pre_actions == pre(0)
    store.apply_batch([prepare_pre("R", pre(1))])
    assert stored().pre == pre(1) and stored().version == 1 and stored().replay == ()
    store.apply_batch([prepare_log("R", row(2), pre=pre(2)), prepare_log("R", row(3))])
    assert stored().pre_actions == pre(2) and [r.version for r in stored().replay] == [2, 3]
    store.apply_batch([prepare_save("R", {"preActions": pre(4)}, "s4", 4, 4, row(4))])
    assert stored().pre is None and stored().pre_actions == pre(4)
    store.apply_batch([prepare_pre("R", pre(5)), prepare_save("R", {"preActions": pre(6)}, "s6", 6, 6)])
    assert stored().pre is None and stored().pre_actions == pre(6)
    store.apply_batch([prepare_save("R", {"preActions": pre(7)}, "s7", 7, 7), prepare_pre("R", pre(8)),
                       prepare_save("O", {}, "o", 1, 1)])
    assert stored().pre_actions == pre(8) and stored("O").pre is None
    store.apply_batch([prepare_pre("R", pre(9)), ("delete", ("R",)), prepare_save("R", {}, "s", 1, 1)])
    assert stored().pre is None and stored().pre_actions is None
    assert sorted(store.load_all(), key=lambda room: room.code) == [stored("O"), stored()]


def test_a_log_row_can_carry_the_hand_it_amended(store: RoomStore) -> None:
    """A winner's show after the hand's end: the hand's row is replaced in the log row's transaction."""
    store.apply_batch([prepare_save("R", {}, "s", 3, 3, row(3), [(1, {"h": 1}), (2, {"h": 2})])])
    store.apply_batch([prepare_log("R", row(4), hands=[(2, {"h": 2, "shown": True})])])
    # (a batch with a delete takes the one-by-one path)
    store.apply_batch([prepare_log("R", row(5), hands=[(1, {"h": 1, "shown": True})]),
                       ("delete", ("OTHER",))])
    assert store.hands("R") == [(1, {"h": 1, "shown": True}), (2, {"h": 2, "shown": True})]
    room = store.load("R")
    assert room is not None and room.version == 3 and [r.version for r in room.replay] == [4, 5]


def test_an_old_token_refuses_a_preactions_write(store: RoomStore) -> None:
    store.apply_batch([prepare_save("R", {}, "s", 1, 1, fence=1)])
    assert store.claim("R", 2)
    with pytest.raises(Fenced) as refused:
        store.apply_batch([prepare_pre("R", {"chosen": {}, "notices": {}}, fence=1)])
    assert refused.value.codes == frozenset({"R"})
    with pytest.raises(Fenced):
        store.apply_batch([prepare_log("R", row(2), fence=1, pre={"chosen": {}, "notices": {}})])
    room = store.load("R")
    assert room is not None and room.pre is None and room.replay == ()
    store.apply_batch([prepare_pre("R", {"chosen": {}, "notices": {"p": {"text": "t", "version": 1}}},
                                   fence=2)])
    room = store.load("R")
    assert room is not None and room.pre == {"chosen": {}, "notices": {"p": {"text": "t", "version": 1}}}


def test_a_failing_batch_commits_nothing(store: RoomStore) -> None:
    store.apply_batch([prepare_save("A", {"v": 1}, "s1", 1, 1)])
    with pytest.raises(ValueError):
        store.apply_batch([prepare_save("A", {"v": 2}, "s2", 2, 2), ("delete", ("B",)), ("bogus", ("A",))])
    room = store.load("A")
    assert room is not None and room.meta == {"v": 1} and room.state == "s1"


def test_claim_raises_the_token_only_when_newer(store: RoomStore) -> None:
    assert store.claim("A", 5) is False, "a room without a row has nothing to claim"
    assert store.load("A") is None and store.codes() == [] and not store.has("A")
    store.apply_batch([prepare_save("A", {}, "s", 1, 1)])
    assert store.claim("A", 5) is True
    assert store.claim("A", 5) is False and store.claim("A", 3) is False
    assert store.claim("A", 7) is True
    loaded = store.load("A")
    assert loaded is not None and loaded.fence == 7


def test_a_save_carrying_a_newer_token_raises_it_and_unfenced_writes_keep_it(store: RoomStore) -> None:
    store.apply_batch([prepare_save("A", {}, "s", 1, 1, fence=3)])  # a new room, created by its owner
    store.apply_batch([prepare_save("A", {"x": 1}, "s", 2, 2)])  # fence=None: single node, unchecked
    loaded = store.load("A")
    assert loaded is not None and loaded.fence == 3 and loaded.meta == {"x": 1}
    with pytest.raises(Fenced) as refused:
        store.apply_batch([prepare_save("A", {"x": 2}, "s", 3, 3, fence=2)])
    assert refused.value.codes == frozenset({"A"})
    loaded = store.load("A")
    assert loaded is not None and loaded.meta == {"x": 1} and loaded.version == 2


def test_an_old_token_is_refused_while_other_rooms_of_the_batch_commit(store: RoomStore) -> None:
    store.apply_batch([prepare_save(code, {"c": code}, "s1", 1, 1, row(1), fence=1) for code in "ABC"])
    assert store.claim("B", 2)  # another node took B over
    batch: list[Op] = [
        prepare_log("A", row(2), fence=1),
        prepare_save("B", {"stale": True}, "s2", 2, 2, row(2), [(1, {"h": 1})], fence=1),
        prepare_log("B", row(3), fence=1),
        prepare_save("C", {"c": "C", "n": 2}, "s2", 2, 2, row(2), fence=1),
        ("delete", ("A", 1)),
        prepare_save("A", {"again": True}, "s3", 3, 3, fence=1),
    ]
    with pytest.raises(Fenced) as refused:
        store.apply_batch(batch)
    assert refused.value.codes == frozenset({"B"})
    b = store.load("B")
    assert b is not None and b.meta == {"c": "B"} and b.replay == () and b.fence == 2
    assert [r.version for r in store.log("B")] == [1] and store.hands("B") == []
    c = store.load("C")
    assert c is not None and c.meta == {"c": "C", "n": 2} and c.version == 2
    a = store.load("A")
    assert a is not None and a.meta == {"again": True} and store.log("A") == []
    # the new owner's token is current: its writes pass
    store.apply_batch([prepare_log("B", row(2), fence=2)])
    assert [r.version for r in store.log("B")] == [1, 2]


def _submit(writer: GroupWriter, op: Op) -> Any:
    return writer.submit(op[0], *op[1])


class _Gate:
    """The real store, with its first batch held until released, so later submissions form one batch."""

    def __init__(self, store: RoomStore) -> None:
        self.store = store
        self.batches: list[list[str]] = []
        self.entered = threading.Event()
        self.release = threading.Event()

    def apply_batch(self, ops: list[Op]) -> None:
        self.batches.append([kind for kind, _ in ops])
        if len(self.batches) == 1:
            self.entered.set()
            self.release.wait(10)
        self.store.apply_batch(ops)


def test_group_writer_gives_fenced_only_to_the_refused_rooms_callers(store: RoomStore) -> None:
    store.apply_batch([prepare_save(code, {}, "s", 1, 1, fence=4) for code in ("OLD", "NEW", "GATE")])
    assert store.claim("OLD", 9)
    gate = _Gate(store)
    writer = GroupWriter(gate)

    async def main() -> list[BaseException | None]:
        first = asyncio.ensure_future(_submit(writer, prepare_log("GATE", row(2), fence=4)))
        await asyncio.get_running_loop().run_in_executor(None, gate.entered.wait, 10)
        calls = [_submit(writer, prepare_log("OLD", row(2), fence=4)),
                 _submit(writer, prepare_log("NEW", row(2), fence=4)),
                 _submit(writer, prepare_save("OLD", {"x": 1}, "s", 3, 3, fence=4)),
                 _submit(writer, prepare_log("NEW", row(3), fence=4))]
        tasks = [asyncio.ensure_future(call) for call in calls]
        await asyncio.sleep(0.05)
        gate.release.set()
        await first
        return [None if exc is None else exc for exc in
                await asyncio.gather(*tasks, return_exceptions=True)]

    try:
        outcomes = asyncio.run(main())
    finally:
        writer.close()
    assert gate.batches == [["log"], ["log", "log", "save", "log"]], "the four writes went in one batch"
    assert outcomes[1] is None and outcomes[3] is None
    for refused in (outcomes[0], outcomes[2]):
        assert isinstance(refused, Fenced) and refused.codes == frozenset({"OLD"})
    assert [r.version for r in store.log("NEW")] == [2, 3] and store.log("OLD") == []


def test_a_damaged_row_quarantines_that_room_only(backend: Backend) -> None:
    store = backend.open()
    for code in ("GOOD1", "BAD01", "GOOD2"):
        store.apply_batch([prepare_save(code, {"code": code}, "s", 1, 1, row(1))])
    backend.damage(store, "BAD01")
    rooms = store.load_all()
    assert sorted(room.code for room in rooms) == ["GOOD1", "GOOD2"]
    assert store.damaged == ["BAD01"]
    assert store.load("BAD01") is None and store.load("GOOD2") is not None
    assert store.codes() == ["BAD01", "GOOD1", "GOOD2"], "the damaged row stays in the store"
    assert store.has("BAD01")


def test_a_reopened_store_has_everything(durable_backend: Backend) -> None:
    backend = durable_backend
    assert backend.durable
    first = backend.open()
    first.apply_batch([prepare_save("R", {"m": 1}, "s", 1, 10, row(1, cmid="c1"), [(1, {"h": 1})], fence=2),
                       prepare_log("R", row(2, cmid="c2"), fence=2)])
    first.close()
    again = backend.open()
    assert again.load_all() == [StoredRoom("R", {"m": 1}, "s", 1, 10, (row(2, cmid="c2"),), 2)]
    assert again.hands("R") == [(1, {"h": 1})]
    assert again.recent_acks("R") == [("p1", "c1", 1), ("p1", "c2", 2)]


def test_a_deleted_room_keeps_its_token_so_an_old_owner_cannot_bring_it_back(store: RoomStore) -> None:
    store.apply_batch([prepare_save("A", {"v": 1}, "s", 1, 1, row(1), fence=1)])
    assert store.claim("A", 2)
    store.apply_batch([("delete", ("A", 2))])  # the new owner closes the room
    assert store.load("A") is None
    with pytest.raises(Fenced) as refused:  # the paused old owner wakes up and writes
        store.apply_batch([prepare_save("A", {"v": 2}, "s", 2, 2, row(2), fence=1),
                           prepare_log("A", row(3), fence=1)])
    assert refused.value.codes == frozenset({"A"})
    assert store.load("A") is None and store.log("A") == [] and store.codes() == []
    assert store.claim("A", 5) is False, "a tombstone is not a room"
    store.apply_batch([prepare_save("A", {"v": 3}, "s", 1, 3, fence=3)])  # a newer owner may create it again
    again = store.load("A")
    assert again is not None and again.meta == {"v": 3} and again.fence == 3


def test_a_tombstone_is_pruned_by_a_later_delete_once_past_its_horizon(store: RoomStore) -> None:
    """Tombstones are kept ``tombstone_kept_ms`` (a week); a delete prunes the ones older than that. Here
    the horizon is a few milliseconds, so the first room's tombstone is past it when the second is left."""
    store.tombstone_kept_ms = 5
    for code in ("A", "B"):
        store.apply_batch([prepare_save(code, {"v": 1}, "s", 1, 1, row(1), fence=1)])
        assert store.claim(code, 2)
    store.apply_batch([("delete", ("A", 2))])
    time.sleep(0.05)
    store.apply_batch([("delete", ("B", 2))])  # prunes A's tombstone, keeps its own
    with pytest.raises(Fenced) as refused:  # B's stale owner is still refused
        store.apply_batch([prepare_save("B", {"v": 2}, "s", 2, 2, row(2), fence=1)])
    assert refused.value.codes == frozenset({"B"}) and store.load("B") is None
    # A's tombstone is gone: the same stale write now lands (what a week-long pause could do, at worst)
    store.apply_batch([prepare_save("A", {"v": 2}, "s", 2, 2, row(2), fence=1)])
    back = store.load("A")
    assert back is not None and back.meta == {"v": 2} and back.fence == 1


def test_tombstones_within_the_horizon_all_stay(store: RoomStore) -> None:
    for code in ("A", "B", "C"):
        store.apply_batch([prepare_save(code, {}, "s", 1, 1, fence=4)])
        store.apply_batch([("delete", (code, 4))])
    for code in ("A", "B", "C"):
        with pytest.raises(Fenced):
            store.apply_batch([prepare_log(code, row(2), fence=3)])
        assert store.log(code) == []
