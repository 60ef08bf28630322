"""A room's change as a plan: the new ``Table``, the store write and what follows it, computed without I/O.

Why a module of its own: deciding what a change *is* (the room's new value, whether it is stored as a
snapshot or as its log row alone, what that write carries, the hands it finished, the pre-action it made
due) is the part of the room that must be exactly right and easy to test, and none of it needs a store,
a socket, the clock or a lock. So it is computed here by plain functions of values (the engine port, the
room's current table, the change), and the driver (``driver``) only carries a plan out: write it, then
swap its table in and publish. A refused write leaves the old value in place; a plan is never half applied.

Nothing here reads the clock (a snapshot's time is an argument), touches the store, or changes its inputs:
a plan's table is a new value (``Table.evolve``) and the old one stays as it was. Feeding the live hand
recorder, which records in place, is done before planning (``recording``); its result is an input here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from pokerroom.server.room import preactions as pre
from pokerroom.server.room.model import FinishedHand, Table

if TYPE_CHECKING:
    from pokerroom.engine import State
    from pokerroom.history import HistoryRecorder
    from pokerroom.server.engine_port import GameEngine
    from pokerroom.server.room.recording import Recorded
    from pokerroom.server.storage import LogRow

#: Log-row kinds the engine recomputes exactly from the previous state (``apply`` / ``on_timeout`` are pure
#: and deterministic; a fired pre-action is an ``apply`` of the action stored in its row). Such a change is
#: stored as its action-log row alone (with the room's pre-actions when it changed them); any other change
#: (a start, a leave, a new member, a finished hand or game, anything added later) stores a full snapshot.
#: See store.py.
REPLAYED_KINDS = frozenset({"action", "bot", "timeout", "preaction"})
#: at most this many log-only changes between two snapshots (bounds the replay after a restart)
SNAPSHOT_EVERY = 200

WriteOp = Literal["save", "log", "pre", "delete"]


@dataclass(frozen=True, slots=True)
class StoreWrite:
    """One store write of a room as data: the operation and its arguments after the room code. The
    driver's single write function turns it into the store's prepared operation (``Store.prepare_*``, with
    the fencing token a cluster node adds at write time)."""

    op: WriteOp
    args: tuple[Any, ...]


@dataclass(frozen=True, slots=True)
class Plan:
    """One change of a room, computed and not yet carried out.

    ``table``: the room's value once stored; ``write``: the store write that makes it durable;
    ``log_only``: the room's count of log-only changes since its last snapshot, once stored (0 after a
    snapshot); ``finished``: the hands this change finished or amended (the room keeps them once stored);
    ``recorder``: the live hand recorder to keep (a change of the game only; None: not recording);
    ``result``: the game's result if this change ended it; ``due``: pre-actions that came due (fired once
    the change is published)."""

    table: Table
    write: StoreWrite
    log_only: int
    finished: tuple[FinishedHand, ...] = ()
    recorder: HistoryRecorder | None = None
    result: dict[str, Any] | None = None
    due: tuple[pre.Review, ...] = ()

    @property
    def snapshot(self) -> bool:
        """Is the change stored as a full snapshot (else as its log row, or the pre-actions row alone)?"""
        return self.write.op == "save"


def snapshot_needed(kind: str, *, recorded_apart: bool, ended_hand: bool, ended_game: bool,
                    log_only: int) -> bool:
    """Must a change be stored as a snapshot? A replayable change inside a hand is stored as its log row;
    anything else, or a hand's end, as a snapshot, so a restart replays at most the rest of one hand and at
    most :data:`SNAPSHOT_EVERY` rows. ``recorded_apart``: the recorder was fed something else than the
    change's events (a game start), which no replay would feed it again."""
    return (kind not in REPLAYED_KINDS or recorded_apart or ended_hand or ended_game
            or log_only >= SNAPSHOT_EVERY)


def review_preactions(engine: GameEngine, chosen: pre.PreActions, state: State, version: int
                      ) -> tuple[pre.PreActions, list[pre.Review]]:
    """``chosen`` without the pre-actions this change made obsolete (cancelled with a notice), and the one
    due now. A new value when any was chosen; ``chosen`` itself is never changed.

    The due one stays chosen in the value returned: it is removed by the change that fires it (its
    ``fired``, :func:`plan_change`), in the same store write as its action. Stored apart, a crash between the
    two writes lost it: the change that made it due was stored without it, its action never was, and the
    player's turn then ran out (a fold where they had chosen "call any"). Now a room loaded after such a
    crash finds it still chosen and due, and fires it (``RoomDriver.fire_due``)."""
    if not chosen.chosen:
        return chosen, []
    kept = chosen.copy()
    views = {pid: engine.view(state, pid) for pid in kept.chosen}
    due = pre.review(kept, views, version)
    for item in due:
        kept.chosen[item.player_id] = chosen.chosen[item.player_id]
    return kept, due


def plan_change(engine: GameEngine, before: Table, state: State, row: LogRow, recorded: Recorded,
                recorder: HistoryRecorder | None, *, log_only: int, recorded_apart: bool = False,
                fired: str | None = None) -> Plan:
    """A change of the game: ``before`` (the room's table, or the one a start or a seat change built) with
    the engine's new ``state`` at ``row.version``, the recording's outcome ``recorded`` (of the live
    ``recorder``), stored as a snapshot or as ``row`` alone (see :func:`snapshot_needed`).

    The log row carries what no replay recomputes: the room's pre-actions if the change used or cancelled
    one, and the finished hand it amended (its winner showed their cards). ``fired``: the player whose
    pre-action this change is (used up here, in the same write)."""
    result = engine.result(state) if before.phase == "playing" else None
    changes: dict[str, Any] = {"state": state, "version": row.version, "hand_seq": recorded.hand_seq,
                               "recorder_json": recorded.recorder_json}
    if result is not None:
        changes["phase"], changes["result"], changes["paused"] = "finished", result, None
    due: list[pre.Review] = []
    start = before.pre
    if fired is not None and fired in start.chosen:
        start = start.copy()
        del start.chosen[fired]
    kept = start
    if before.phase == "playing" and result is None and before.paused is None:  # paused: none comes due
        kept, due = review_preactions(engine, start, state, row.version)
    if kept is not before.pre:
        changes["pre"] = kept
    after = before.evolve(**changes)  # one new value per change
    finished = recorded.finished
    snapshot = snapshot_needed(row.kind, recorded_apart=recorded_apart,
                               ended_hand=any(h.seq > before.hand_seq for h in finished),
                               ended_game=result is not None, log_only=log_only)
    if snapshot:
        hands = [(h.seq, h.to_json()) for h in finished] or None
        stored = engine.dump_state(state)
        write = StoreWrite("save", (after.meta(), stored, row.version, row.at_ms, row, hands))
    else:
        pre_now = None if after.pre is before.pre else after.pre.to_json()
        if pre_now is not None and pre_now == before.pre.to_json():
            pre_now = None  # reviewed, nothing cancelled or used
        write = StoreWrite("log", (row, pre_now, [(h.seq, h.to_json()) for h in finished]))
    return Plan(after, write, 0 if snapshot else log_only + 1, tuple(finished),
                recorder if after.recorder_json is not None else None, result, tuple(due))


def plan_save(engine: GameEngine, table: Table, now_ms: int) -> Plan:
    """``table`` stored as a snapshot at ``now_ms`` (a change of the room that is not a move of the game:
    a member, a setting, the host; or the room as it is)."""
    state = None if table.state is None else engine.dump_state(table.state)
    return Plan(table, StoreWrite("save", (table.meta(), state, table.version, now_ms, None)), 0)


def plan_pre(table: Table, log_only: int) -> Plan:
    """``table``'s pre-actions stored alone (their own small row: no snapshot, no log row)."""
    return Plan(table, StoreWrite("pre", (table.pre.to_json(),)), log_only)
