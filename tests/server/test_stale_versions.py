"""Which version an action may be based on (``Room.is_current``): the current one; one that only clock
resumes followed (a new owner or a restart giving back the time nobody served the room moves a deadline and
nothing a player decides on); for a commuting action, one that only other commuting actions followed."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from test_plan import _table

from pokerroom.server.room.model import Room

BET = {"type": "nl.call"}
READY = {"type": "ready"}


def _room(kinds: list[str]) -> Room:
    """A room at version 1, then one change of each of ``kinds`` ("clock": a resume; else a bet by p1)."""
    table, _recorder = _table(3)
    room = Room(table)
    for kind in kinds:
        version = room.version + 1
        room.table = room.table.evolve(version=version)
        if kind == "clock":
            room.note_change({"pausedMs": 2500}, version, None, "clock")
        else:
            room.note_change(BET, version, "p1", "action")
    return room


@given(st.lists(st.sampled_from(["clock", "action"]), max_size=8))
def test_a_bet_may_be_based_on_a_version_only_clock_resumes_followed(kinds: list[str]) -> None:
    room = _room(kinds)
    versions = list(range(1, room.version + 1))  # version v + 1 is the change kinds[v - 1]
    for v in versions:
        only_clock_since = all(k == "clock" for k in kinds[v - 1:])
        assert room.is_current(v, BET, "p2") is only_clock_since, (kinds, v)
    assert not room.is_current(room.version + 1, BET, "p2")  # never a version that does not exist yet
    assert not room.is_current(0, BET, "p2")  # before this room's first version: no resume covers it


def test_a_resume_after_a_bet_keeps_the_bet_stale_for_a_view_before_it() -> None:
    room = _room(["action", "clock", "clock"])  # versions 2 (a bet), 3 and 4 (resumes)
    assert [room.is_current(v, BET, "p2") for v in (1, 2, 3, 4)] == [False, True, True, True]
    room = _room(["clock", "action"])
    assert [room.is_current(v, BET, "p2") for v in (1, 2, 3)] == [False, False, True]
    # a commuting action keeps its own rule: a resume settles the table like any change
    room = _room(["clock"])
    assert room.is_current(1, READY, "p2") and room.is_current(2, READY, "p2")
