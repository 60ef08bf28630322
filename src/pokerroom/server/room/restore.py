"""A stored room rebuilt in memory: its snapshot, then the log rows stored after it re-applied.

Why a module of its own: start-up and a cluster node's takeover rebuild a room the same way, and that way
relies on one property of the engine: it is pure and deterministic, so re-applying a log row's action (or
timeout) to the state before it rebuilds exactly the state, and through ``recording`` exactly the hand
record, the room had published. Only replayable changes (``plan.REPLAYED_KINDS``) are ever stored as rows
alone (``plan``); anything else here means a damaged store, and the room is quarantined by its caller.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any

from pokerroom.history import HistoryRecorder
from pokerroom.server.room import preactions as pre
from pokerroom.server.room import reactions as talk
from pokerroom.server.room.ledger import Ledger
from pokerroom.server.room.model import HANDS_RECENT, Ban, FinishedHand, Member, Pause, Room, Table
from pokerroom.server.room.plan import REPLAYED_KINDS
from pokerroom.server.room.recording import record
from pokerroom.server.room.timers import DeadlineTimer

if TYPE_CHECKING:
    from pokerroom.server.engine_port import GameEngine
    from pokerroom.server.room.timers import Clock
    from pokerroom.server.storage import LogRow, RoomStore, StoredRoom

DeadlineFn = Callable[[Room], Coroutine[Any, Any, None]]


def load(engine: GameEngine, store: RoomStore, clock: Clock, stored: StoredRoom,
         on_deadline: DeadlineFn) -> Room:
    """One stored room rebuilt in memory (snapshot, then its log rows replayed); not yet registered.
    ``on_deadline``: what the room's deadline timer runs."""
    room = restore(engine, store, clock, stored.code, stored.meta, stored.state, stored.version,
                   stored.pre_actions, on_deadline)
    replay(engine, room, stored.replay)
    return room


def restore(engine: GameEngine, store: RoomStore, clock: Clock, code: str, meta: dict[str, Any],
            state_text: str | None, version: int, pre_actions: dict[str, Any] | None,
            on_deadline: DeadlineFn) -> Room:
    """A room from its snapshot; ``pre_actions``: its pre-actions stored after the snapshot (their own
    row, :attr:`StoredRoom.pre_actions`), else the snapshot's."""
    options = engine.parse_options(meta["options"])
    lo, hi = engine.player_range(options)
    table = Table(code, meta["createdMs"], options, engine.options_json(options), lo, hi,
                  members={m["id"]: Member.from_json(m) for m in meta["members"]},
                  host_id=meta["hostId"], phase=meta["phase"], version=version, game_no=meta["gameNo"],
                  next_seq=meta["nextSeq"],
                  state=None if state_text is None else engine.load_state(state_text),
                  game_players=list(meta["gamePlayers"]), result=meta["result"],
                  hand_seq=int(meta.get("handSeq") or 0), recorder_json=meta.get("recorder"),
                  pre=pre.PreActions.from_json(meta.get("preActions") if pre_actions is None
                                               else pre_actions),
                  social=talk.Social.from_json(meta.get("social")),
                  bans=tuple(Ban.from_json(b) for b in meta.get("bans") or ()),
                  paused=Pause.from_json(meta.get("paused")),
                  ledger=Ledger.from_json(meta.get("ledger")))
    room = Room(table)
    if table.recorder_json is not None:
        room.recorder = HistoryRecorder.from_json(table.recorder_json)
    stored = store.hands(code)
    for seq, data in stored:
        room.archive.put(seq, data)
    for seq, data in stored[-HANDS_RECENT:]:  # the newest as records; the others are decoded when asked for
        room.hands.append(FinishedHand.from_json(seq, data))
    for pid, cmid, ver in store.recent_acks(code):
        room.remember_ack(pid, cmid, ver)
    room.timer = DeadlineTimer(clock, functools.partial(on_deadline, room))
    room.empty_since = time.monotonic()
    return room


def replay(engine: GameEngine, room: Room, rows: tuple[LogRow, ...]) -> None:
    """Re-apply the log-only changes stored after the room's snapshot, in order: the engine is pure and
    deterministic, so this rebuilds exactly the state (and hand recording) the room had published."""
    for row in rows:
        if row.kind not in REPLAYED_KINDS:
            raise ValueError(f"log row v{row.version} of kind {row.kind!r} cannot be replayed")
        if row.kind == "timeout":
            new_state, events = engine.on_timeout(room.game_state, row.at_ms)
        else:
            assert row.player_id is not None and row.action is not None
            new_state, events = engine.apply(room.game_state, row.player_id, row.action, row.at_ms)
        recorded = record(engine, room.table, new_state, events, row.version, room.recorder,
                          room.hands[-1] if room.hands else None)
        for done in recorded.finished:
            if done.seq > room.hand_seq:
                raise ValueError(f"log row v{row.version} ended a hand but was stored without a snapshot")
            if room.hands and room.hands[-1].seq == done.seq:  # an amended hand, stored with its row
                room.keep_hand(done)
        room.table = room.table.evolve(state=new_state, version=row.version,
                                       recorder_json=recorded.recorder_json)
    room.log_only = len(rows)
