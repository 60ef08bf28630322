"""The single writer of one room's changes: validate -> engine -> store -> publish, one change at a time.

A change is computed first (the engine's new state, the room's new ``Table``, the store operation), then
written, and only once the store has it swapped in and published (persist before publish); a refused
write leaves the room's old table in place, so nothing is ever put back by hand.

Why one writer: two players clicking at once, a timer firing and a bot acting must apply one after
another against a single version counter, or a stale view could act on a state it never saw. Every change
of a room runs inside ``room.lock``: engine -> write to the store (awaited on the group-commit writer
thread, the only await inside the lock) -> enqueue frames, all before the room's next change starts,
while other rooms keep going. Sockets are written by their own sender tasks (see ``app``), so a slow phone
never stalls a table.

Also here: restoring a room from its stored snapshot plus the log rows after it (the engine is pure, so
replaying them rebuilds the exact state), the memory of acknowledged client messages, and what happens
when the store refuses a write (nothing changed; timeouts and bots retry later).
"""

from __future__ import annotations

import asyncio
import functools
import logging
import time
from collections import OrderedDict
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, Protocol

from pokerroom.history import HistoryRecorder
from pokerroom.server.room import preactions as pre
from pokerroom.server.room import reactions as talk
from pokerroom.server.room.model import ACKS_KEPT, Connection, FinishedHand, Member, Room, Table
from pokerroom.server.room.timers import DeadlineTimer
from pokerroom.server.room.views import RoomViews
from pokerroom.server.storage import LogRow, Store
from pokerroom.server.wire import deltas as D
from pokerroom.server.wire import protocol as P

if TYPE_CHECKING:
    from pokerroom.engine import State

log = logging.getLogger("pokerroom.server")

SLOW_COMMIT_S = 0.1  # log changes slower than this (persist + views), they delay every room
RETRY_FIRST_S = 0.5  # a timeout or bot move whose store write failed is retried after this, doubling...
RETRY_MAX_S = 5.0  # ...up to this (a store outage must never stop a room's clock)
#: Log-row kinds the engine recomputes exactly from the previous state (``apply`` / ``on_timeout`` are pure
#: and deterministic; a fired pre-action is an ``apply`` of the action stored in its row). Such a change is
#: stored as its action-log row alone (with the room's pre-actions when it changed them); any other change
#: (a start, a leave, a new member, a finished hand or game, anything added later) stores a full snapshot.
#: See store.py.
REPLAYED_KINDS = frozenset({"action", "bot", "timeout", "preaction"})
#: at most this many log-only changes between two snapshots (bounds the replay after a restart)
SNAPSHOT_EVERY = 200


class WriteGuard(Protocol):
    """Who else may write a room, consulted around its every store write (``Rooms(guard=...)``).

    Why a seam and not a subclass: a cluster node must fence each write with its lease's token and act on
    the store's refusal, and that is all it changes in how a room is written; handing that in keeps the writer
    one function and lets a single node (no guard) never know leases exist."""

    def token_of(self, code: str) -> int | None:
        """The room's fencing token held now (recorded on a room adopted; None: not held)."""
        ...

    async def before_write(self, code: str) -> int:
        """The fencing token this write of the room carries; raises the Korean refusal (a
        ``P.ProtocolError``) if this process may not write the room now. Nothing is sent when it raises."""
        ...

    def write_failed(self, code: str, exc: Exception) -> None:
        """The room's write raised ``exc``: act on it (a newer owner, an unknown outcome), and raise what the
        caller should see instead if that differs (returning re-raises ``exc``)."""
        ...


class RoomWriter(RoomViews):
    """Commits, snapshots, restore/replay, acks and store-outage retries of the rooms.

    The driver of a room's changes: a change is computed as a new :class:`Table` (plus its store operation
    and its frames), written through the store, and only then swapped in and published. A refused write
    raises before the swap, so the room keeps its old table: there is nothing to put back."""

    guard: WriteGuard | None  # consulted around every store write (``Rooms`` sets it; None: unfenced)

    # --- restore ----------------------------------------------------------------------------------------

    def _restore(self, code: str, meta: dict[str, Any], state_text: str | None, version: int,
                 pre_actions: dict[str, Any] | None = None) -> Room:
        """A room from its snapshot; ``pre_actions``: its pre-actions stored after the snapshot (their own
        row, :attr:`StoredRoom.pre_actions`), else the snapshot's."""
        options = self.engine.parse_options(meta["options"])
        lo, hi = self.engine.player_range(options)
        table = Table(code, meta["createdMs"], options, self.engine.options_json(options), lo, hi,
                      members={m["id"]: Member.from_json(m) for m in meta["members"]},
                      host_id=meta["hostId"], phase=meta["phase"], version=version, game_no=meta["gameNo"],
                      next_seq=meta["nextSeq"],
                      state=None if state_text is None else self.engine.load_state(state_text),
                      game_players=list(meta["gamePlayers"]), result=meta["result"],
                      hand_seq=int(meta.get("handSeq") or 0), recorder_json=meta.get("recorder"),
                      pre=pre.PreActions.from_json(meta.get("preActions") if pre_actions is None
                                                   else pre_actions),
                      social=talk.Social.from_json(meta.get("social")))
        room = Room(table)
        if table.recorder_json is not None:
            room.recorder = HistoryRecorder.from_json(table.recorder_json)
        for seq, data in self.store.hands(code):
            room.hands.append(FinishedHand.from_json(seq, data))
        for pid, cmid, ver in self.store.recent_acks(code):
            self._remember_ack(room, pid, cmid, ver)
        room.timer = DeadlineTimer(self.clock, functools.partial(self.deadline_passed, room))
        room.empty_since = time.monotonic()
        return room

    def _replay(self, room: Room, rows: tuple[LogRow, ...]) -> None:
        """Re-apply the log-only changes stored after the room's snapshot, in order: the engine is pure and
        deterministic, so this rebuilds exactly the state (and hand recording) the room had published."""
        for row in rows:
            if row.kind not in REPLAYED_KINDS:
                raise ValueError(f"log row v{row.version} of kind {row.kind!r} cannot be replayed")
            if row.kind == "timeout":
                new_state, events = self.engine.on_timeout(room.game_state, row.at_ms)
            else:
                assert row.player_id is not None and row.action is not None
                new_state, events = self.engine.apply(room.game_state, row.player_id, row.action, row.at_ms)
            recorded = self._record(room, room.table, new_state, events, row.version)
            for done in recorded.finished:
                if done.seq > room.hand_seq:
                    raise ValueError(f"log row v{row.version} ended a hand but was stored without a snapshot")
                if room.hands and room.hands[-1].seq == done.seq:  # an amended hand, stored with its row
                    room.hands[-1] = done
            room.table = room.table.evolve(state=new_state, version=row.version,
                                           recorder_json=recorded.recorder_json)
        room.log_only = len(rows)

    def change_latency(self) -> dict[str, float]:
        """p50/p99/max of recent changes, ms from the engine call's result to the last frame queued."""
        data = sorted(self.change_ms)
        if not data:
            return {}

        def pick(q: float) -> float:
            return round(data[min(len(data) - 1, int(q * len(data)))], 2)

        return {"p50": pick(0.5), "p99": pick(0.99), "max": round(data[-1], 2), "n": len(data)}

    def _review_preactions(self, chosen: pre.PreActions, state: State, version: int
                           ) -> tuple[pre.PreActions, list[pre.Review]]:
        """``chosen`` without the pre-actions this change made obsolete (cancelled with a notice), and the one
        due now. A new value when any was chosen; ``chosen`` itself is never changed."""
        if not chosen.chosen:
            return chosen, []
        kept = chosen.copy()
        views = {pid: self.engine.view(state, pid) for pid in kept.chosen}
        return kept, pre.review(kept, views, version)

    async def _fire_preactions(self, room: Room, due: list[pre.Review]) -> None:
        """Apply due pre-actions as ordinary actions, right after the change that made the turn come (still
        under the room's lock: no other change, and no round trip to the phone, comes in between)."""
        for item in due:
            if room.phase != "playing" or room.state is None:
                return
            now = self.clock.now_ms()
            assert item.fire is not None
            try:
                new_state, events = self.engine.apply(room.state, item.player_id, item.fire, now)
                row = LogRow(room.version + 1, "preaction", item.player_id, None, item.fire, now)
                await self.commit(room, new_state, events, row)
            except Exception as exc:
                log.warning("room %s: pre-action of %s not applied: %s", room.code, item.player_id, exc)
                told = room.pre.copy()  # a notice for this process's sockets only (never stored)
                told.notices[item.player_id] = {"text": "예약한 행동을 하지 못했어요. 직접 골라 주세요",
                                                "version": room.version}
                room.table = room.table.evolve(pre=told)
                self.send_views_to(room, item.player_id)

    def _remember_ack(self, room: Room, pid: str, cmid: str, version: int) -> None:
        seen = room.acks.setdefault(pid, OrderedDict())
        seen[cmid] = version
        while len(seen) > ACKS_KEPT:
            seen.popitem(last=False)

    async def _write(self, room: Room, op: Literal["save", "log", "pre", "delete"], *args: Any) -> None:
        """One store write of ``room`` through the group-commit writer. The caller holds the room's lock, so
        this room waits for its write (persist before publish) while every other room keeps going: a slow
        disk (an fsync, dirty-page throttling) must never freeze the whole server. With a ``guard`` (a
        cluster node), the write carries the room's fencing token and a failure is the guard's to judge."""
        guard = self.guard
        if guard is None:
            op_name, params = self._store_op(room, op, args)
            await self._writer.submit(op_name, *params)
            return
        room.fence = await guard.before_write(room.code)
        op_name, params = self._store_op(room, op, args, room.fence)
        try:
            await self._writer.submit(op_name, *params)
        except Exception as exc:
            guard.write_failed(room.code, exc)
            raise

    def _store_op(self, room: Room, op: str, args: tuple[Any, ...],
                  fence: int | None = None) -> tuple[str, tuple[Any, ...]]:
        """The store operation for one write of ``room`` (``args`` after the room code). Every write of a
        room is built here, with ``fence``: the token of the rooms' :class:`WriteGuard` (a cluster node)."""
        def arg(i: int) -> Any:
            return args[i] if len(args) > i else None

        if op == "save":  # args: meta, state, version, now_ms, the log row, finished hands
            return Store.prepare_save(room.code, args[0], args[1], args[2], args[3], arg(4), arg(5), fence)
        if op == "log":  # args: the row, the room's pre-actions if it changed them, the hands it amended
            return Store.prepare_log(room.code, args[0], fence, arg(1), arg(2))
        if op == "pre":  # args: the room's pre-actions
            return Store.prepare_pre(room.code, args[0], fence)
        return op, (room.code, *args) if fence is None else (room.code, *args, fence)

    async def save(self, room: Room, after: Table | None = None) -> None:
        """Store ``after`` (default: the room's table as it is) as a snapshot, then make it the room's table.
        Raises, leaving the room's table as it was, if the store refuses."""
        table = room.table if after is None else after
        state = None if table.state is None else self.engine.dump_state(table.state)
        await self._write(room, "save", table.meta(), state, table.version, self.clock.now_ms(), None)
        room.table = table
        room.log_only = 0  # that was a snapshot of the room as it is

    async def save_pre(self, room: Room, after: Table) -> None:
        """Store ``after``'s pre-actions (their own small row, no snapshot), then make it the room's table."""
        await self._write(room, "pre", after.pre.to_json())
        room.table = after

    async def commit(self, room: Room, new_state: State, events: list[dict[str, Any]], row: LogRow,
                     sender: Connection | None = None,
                     record: list[dict[str, Any]] | Literal["begin"] | None = None,
                     base: Table | None = None, recorder: HistoryRecorder | None = None) -> None:
        """A change of the game: persist, then publish (every socket gets the events and its own view; the
        sender its ack), then re-arm the deadline, schedule bots and fire a pre-action that came due.

        ``base``: the table the change starts from when it changes more than the game (a start, a seat
        given), else the room's; ``recorder``: that change's new hand recorder (a start). ``record``: what
        the recorder gets instead of ``events`` (a game start: the first hand's events, or ``"begin"`` to
        rebuild them from the view)."""
        t0 = time.perf_counter()
        before = room.table if base is None else base
        result = self.engine.result(new_state) if before.phase == "playing" else None
        live = room.recorder if recorder is None else recorder
        changes: dict[str, Any] = {"state": new_state, "version": row.version}
        if result is not None:
            changes["phase"], changes["result"] = "finished", result
        recorded = self._record(room, before, new_state, events if record is None else record, row.version,
                                live)
        changes["hand_seq"], changes["recorder_json"] = recorded.hand_seq, recorded.recorder_json
        due: list[pre.Review] = []
        if before.phase == "playing" and result is None:
            kept, due = self._review_preactions(before.pre, new_state, row.version)
            if kept is not before.pre:
                changes["pre"] = kept
        after = before.evolve(**changes)  # one new value per change
        finished = recorded.finished
        # a replayable change inside a hand is stored as its log row; anything else, or a hand's end, as
        # a snapshot (so a restart replays at most the rest of one hand, and at most SNAPSHOT_EVERY rows).
        # The log row carries what no replay recomputes: the room's pre-actions if the change used or
        # cancelled one, and the finished hand it amended (its winner showed their cards)
        ended = any(h.seq > before.hand_seq for h in finished)
        snapshot = (row.kind not in REPLAYED_KINDS or record is not None or ended
                    or result is not None or room.log_only >= SNAPSHOT_EVERY)
        t1 = time.perf_counter()
        try:
            if snapshot:
                hands = [(h.seq, h.to_json()) for h in finished] or None
                await self._write(room, "save", after.meta(), self.engine.dump_state(new_state),
                                  row.version, row.at_ms, row, hands)
            else:
                pre_now = None if after.pre is before.pre else after.pre.to_json()
                if pre_now is not None and pre_now == before.pre.to_json():
                    pre_now = None  # reviewed, nothing cancelled or used
                await self._write(room, "log", row, pre_now, [(h.seq, h.to_json()) for h in finished])
        except BaseException:
            # not stored, so it did not happen: the room keeps its table; only the live recorder, which
            # records in place, is rebuilt from the table's value
            if live is not None and live is room.recorder:
                rec_json = room.table.recorder_json
                room.recorder = None if rec_json is None else HistoryRecorder.from_json(rec_json)
            raise
        room.table = after
        room.recorder = live if after.recorder_json is not None else None
        room.log_only = 0 if snapshot else room.log_only + 1
        for done in finished:
            if room.hands and room.hands[-1].seq == done.seq:
                room.hands[-1] = done  # a hand amended after its end (a winner showed their cards)
            else:
                room.hands.append(done)
        if row.client_msg_id is not None and row.player_id is not None:
            self._remember_ack(room, row.player_id, row.client_msg_id, row.version)
        room.note_change(row.action, row.version, row.player_id)  # what a commuting action may be based on
        t2 = time.perf_counter()
        self._publish(room, row, events, sender, result)
        t3 = time.perf_counter()
        self.change_ms.append((t3 - t0) * 1000.0)
        if self.observe_commit is not None:
            self.observe_commit(row.kind, t3 - t0)
        if t3 - t0 > SLOW_COMMIT_S:
            log.warning("room %s: slow change v%d: %.0f ms (state %.0f, store %.0f, views %.0f)", room.code,
                        row.version, (t3 - t0) * 1e3, (t1 - t0) * 1e3, (t2 - t1) * 1e3, (t3 - t2) * 1e3)
        if self.on_commit is not None:
            self.on_commit(room, row.version, events)
        self.after_change(room)
        if due:
            await self._fire_preactions(room, due)

    def _publish(self, room: Room, row: LogRow, events: list[dict[str, Any]], sender: Connection | None,
                 result: dict[str, Any] | None) -> None:
        """The frames of a stored change, to every socket of the room: its own view (or delta), the events
        for sockets without deltas, the sender's ack, and the result of a game that ended."""
        version = row.version
        events_text = None  # the separate events frame, for sockets without deltas (delta sockets: folded)
        frames = D.FrameBuilder(room.views, version, self.clock.now_ms(),
                                functools.partial(self._view, room), functools.partial(self._seat_part, room),
                                events=events)
        ack_id = row.client_msg_id if sender is not None else None
        for conn in list(room.connections):
            if events and not conn.deltas:
                if events_text is None:
                    events_text = P.dumps(P.events_msg(version, events))
                conn.send(events_text)
            conn.send(frames.text_for(conn, self._viewer(room, conn), ack_id if conn is sender else None))
        if sender is not None and row.client_msg_id is not None and not (
                sender.deltas and sender in room.connections):  # else the ack rode on its view frame
            sender.send(P.dumps(P.ack_msg(row.client_msg_id, version)))
        if result is not None:
            self.broadcast(room, P.dumps(P.result_msg(version, result)))
            self.broadcast_lobby(room)

    # --- hand history ---------------------------------------------------------------------------------

    def _record(self, room: Room, table: Table, state: State, events: list[dict[str, Any]] | Literal["begin"],
                version: int, rec: HistoryRecorder | None = None) -> Recorded:
        """Feed one change to the hand recorder ``rec`` (default: the room's); returns the hands it finished
        (numbered from ``table``'s count; the caller keeps them once stored) and the recorder's new value.
        Recording never stops a game: if it fails, this game is not recorded."""
        if rec is None:
            rec = room.recorder
        if rec is None or not events:
            return Recorded([], table.hand_seq, table.recorder_json if rec is not None else None)

        def view_of(viewer: str | None) -> dict[str, Any]:
            return self.engine.view(state, viewer)

        try:
            if events == "begin":
                rec.begin(view_of)
            else:
                rec.observe(events, view_of)
        except Exception:
            log.exception("room %s: hand recording failed; this game is not recorded", room.code)
            return Recorded([], table.hand_seq, None)
        finished: list[FinishedHand] = []
        if rec.amended is not None:
            last = room.hands[-1] if room.hands else None
            same = last is not None and last.record.hand_no == rec.amended.hand_no
            if last is not None and same and last.game_no == table.game_no:
                # the same seq, re-stored; its version is now the change that showed the cards
                finished.append(FinishedHand(last.seq, last.game_no, version, rec.amended))
            rec.amended = None
        hand_seq = table.hand_seq
        for hand in rec.hands:
            hand_seq += 1
            finished.append(FinishedHand(hand_seq, table.game_no, version, hand))
        rec.hands.clear()  # the room keeps the finished hands (the last HANDS_KEPT), not the recorder
        return Recorded(finished, hand_seq, rec.to_json())

    def _store_failed(self, room: Room, exc: BaseException,
                      retry: Callable[[], Coroutine[Any, Any, None]]) -> None:
        """A timeout's or a bot's change could not be stored: nothing happened (the room kept its table), so
        try again later with a growing pause, and tell the room once why it is waiting."""
        n = self._failures.get(room.code, 0) + 1
        self._failures[room.code] = n
        delay = min(RETRY_MAX_S, RETRY_FIRST_S * 2 ** (n - 1))
        log.warning("room %s: store write failed (%s: %s); retry %d in %.1f s", room.code,
                    type(exc).__name__, exc, n, delay)
        if n == 1:
            self.broadcast(room, P.dumps(P.notice_msg("store_retrying", P.MESSAGES["store_retrying"])))
        self.later(delay, retry)

    def _store_recovered(self, room: Room) -> None:
        self._failures.pop(room.code, None)

    def later(self, seconds: float, make: Callable[[], Coroutine[Any, Any, None]]) -> None:
        """Run ``make()`` after ``seconds`` as a task of the rooms (cancelled by ``stop``)."""
        async def run() -> None:
            await asyncio.sleep(seconds)
            await make()

        task = asyncio.get_running_loop().create_task(run())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)


@dataclass(frozen=True, slots=True)
class Recorded:
    """What one change did to the hand recording: the hands it finished, the new count and recorder value."""

    finished: list[FinishedHand]
    hand_seq: int
    recorder_json: dict[str, Any] | None
