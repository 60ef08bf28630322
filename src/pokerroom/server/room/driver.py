"""The driver of a room's changes: a plan (``plan``) is written to the store, then swapped in and published.

Why a driver apart from the plan: the plan says what a change is, without I/O; this is the small async part
that carries it out, in the one order that keeps every client honest: write -> swap the new value in ->
publish (persist before publish). A refused write raises before the swap, so the room keeps its old value
and nothing was sent: rollback is keeping the old value, never putting fields back by hand.

Why one writer: two players clicking at once, a timer firing and a bot acting must apply one after
another against a single version counter, or a stale view could act on a state it never saw. Every change
of a room runs inside ``room.lock``: engine -> plan -> write to the store (awaited on the group-commit
writer thread, the only await inside the lock) -> enqueue frames, all before the room's next change starts,
while other rooms keep going. Sockets are written by their own sender tasks (see ``app``), so a slow phone
never stalls a table.

Every store write of a room goes through one function, :meth:`RoomDriver.write` (its prepared operation
built by :meth:`RoomDriver.store_op`); a cluster node's ownership of the room is checked there. Also here:
the acknowledgements remembered per change, firing pre-actions that came due, change timings, and what
happens when the store refuses a write (nothing changed; timeouts and bots retry later).
"""

from __future__ import annotations

import logging
import time
from collections import deque
from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any, Literal, Protocol

from pokerroom.history import HistoryRecorder
from pokerroom.server.room import preactions as pre
from pokerroom.server.room import recording
from pokerroom.server.room.model import CommitHook, Connection, Room, Table
from pokerroom.server.room.plan import Plan, WriteOp, plan_change, plan_pre, plan_save, review_preactions
from pokerroom.server.storage import GroupWriter, LogRow, RoomStore, Store
from pokerroom.server.wire import protocol as P

if TYPE_CHECKING:
    from pokerroom.engine import State
    from pokerroom.server.engine_port import GameEngine
    from pokerroom.server.room.timers import Clock, Later
    from pokerroom.server.room.views import RoomViews

log = logging.getLogger("pokerroom.server")

SLOW_COMMIT_S = 0.1  # log changes slower than this (persist + views), they delay every room
RETRY_FIRST_S = 0.5  # a timeout or bot move whose store write failed is retried after this, doubling...
RETRY_MAX_S = 5.0  # ...up to this (a store outage must never stop a room's clock)


def _nothing(room: Room) -> None:
    pass


class WriteGuard(Protocol):
    """Who else may write a room, consulted around its every store write (``Rooms(guard=...)``).

    Why a seam and not a subclass: a cluster node must fence each write with its lease's token and act on
    the store's refusal, and that is all it changes in how a room is written; handing that in keeps the write
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


class RoomDriver:
    """Carries out the rooms' changes: store write, swap, publish; acks, pre-actions due, retries.

    Given the engine, the store (written through its own group-commit writer), the clock, the views that
    build every frame, and the rooms' delayed work (``later``). ``after_change``: what follows a stored
    change (re-arm the room's deadline, schedule its bots: the rooms' clock part), set once the rooms have
    built that part."""

    def __init__(self, engine: GameEngine, store: RoomStore, clock: Clock, views: RoomViews,
                 later: Later, guard: WriteGuard | None = None) -> None:
        self.engine = engine
        self.guard = guard  # consulted around every store write (a cluster node's fencing; None: unfenced)
        self.store = store
        self.clock = clock
        self.views = views
        self.later = later
        self.after_change: Callable[[Room], None] = _nothing
        self.on_commit: CommitHook | None = None  # test hook, called after each accepted change
        self.observe_commit: Callable[[str, float], None] | None = None  # metrics: (row kind, seconds)
        self.change_ms: deque[float] = deque(maxlen=4096)  # recent change durations, for /healthz
        self._writer = GroupWriter(store)
        self._failures: dict[str, int] = {}  # room code -> store failures in a row (timeouts and bots)

    def close(self) -> None:
        self._writer.close()

    def forget(self, code: str) -> None:
        """Drop what is kept of a room this process no longer serves (its failure count)."""
        self._failures.pop(code, None)

    # --- the one store write of a room -------------------------------------------------------------------

    async def write(self, room: Room, op: WriteOp, *args: Any) -> None:
        """One store write of ``room`` through the group-commit writer: every write of a room comes here.
        The caller holds the room's lock, so this room waits for its write (persist before publish) while
        every other room keeps going: a slow disk (an fsync, dirty-page throttling) must never freeze the
        whole server. With a ``guard`` (a cluster node), the write carries the room's fencing token and a
        failure is the guard's to judge."""
        guard = self.guard
        if guard is None:
            op_name, params = self.store_op(room, op, args)
            await self._writer.submit(op_name, *params)
            return
        room.fence = await guard.before_write(room.code)
        op_name, params = self.store_op(room, op, args, room.fence)
        try:
            await self._writer.submit(op_name, *params)
        except Exception as exc:
            guard.write_failed(room.code, exc)
            raise

    def store_op(self, room: Room, op: str, args: tuple[Any, ...],
                 fence: int | None = None) -> tuple[str, tuple[Any, ...]]:
        """The store operation for one write of ``room`` (``args`` after the room code, as in
        :class:`~pokerroom.server.room.plan.StoreWrite`), with ``fence``: the token of the rooms'
        :class:`WriteGuard` (a cluster node)."""
        def arg(i: int) -> Any:
            return args[i] if len(args) > i else None

        if op == "save":  # args: meta, state, version, now_ms, the log row, finished hands
            return Store.prepare_save(room.code, args[0], args[1], args[2], args[3], arg(4), arg(5), fence)
        if op == "log":  # args: the row, the room's pre-actions if it changed them, the hands it amended
            return Store.prepare_log(room.code, args[0], fence, arg(1), arg(2))
        if op == "pre":  # args: the room's pre-actions
            return Store.prepare_pre(room.code, args[0], fence)
        return op, (room.code, *args) if fence is None else (room.code, *args, fence)

    async def carry_out(self, room: Room, plan: Plan) -> None:
        """Write ``plan``, then make its table the room's. Raises, leaving the room as it was, if the store
        refuses."""
        await self.write(room, plan.write.op, *plan.write.args)
        room.table = plan.table
        room.log_only = plan.log_only

    # --- changes --------------------------------------------------------------------------------------

    async def save(self, room: Room, after: Table | None = None) -> None:
        """Store ``after`` (default: the room's table as it is) as a snapshot, then make it the room's table.
        Raises, leaving the room's table as it was, if the store refuses."""
        await self.carry_out(room, plan_save(self.engine, room.table if after is None else after,
                                             self.clock.now_ms()))

    async def save_pre(self, room: Room, after: Table) -> None:
        """Store ``after``'s pre-actions (their own small row, no snapshot), then make it the room's table."""
        await self.carry_out(room, plan_pre(after, room.log_only))

    async def commit(self, room: Room, new_state: State, events: list[dict[str, Any]], row: LogRow,
                     sender: Connection | None = None,
                     record: list[dict[str, Any]] | Literal["begin"] | None = None,
                     base: Table | None = None, recorder: HistoryRecorder | None = None,
                     fired: str | None = None) -> None:
        """A change of the game: plan, persist, swap, then publish (every socket gets the events and its own
        view; the sender its ack), then re-arm the deadline, schedule bots and fire a pre-action that came
        due.

        ``base``: the table the change starts from when it changes more than the game (a start, a seat
        given), else the room's; ``recorder``: that change's new hand recorder (a start). ``record``:
        what the recorder gets instead of ``events`` (a game start: the first hand's events, or ``"begin"``
        to rebuild them from the view); ``fired``: the player whose pre-action this change is (removed from
        the room's pre-actions in the same write)."""
        t0 = time.perf_counter()
        before = room.table if base is None else base
        live = room.recorder if recorder is None else recorder
        recorded = recording.record(self.engine, before, new_state, events if record is None else record,
                          row.version, live, room.hands[-1] if room.hands else None)
        plan = plan_change(self.engine, before, new_state, row, recorded, live, log_only=room.log_only,
                           recorded_apart=record is not None, fired=fired)
        t1 = time.perf_counter()
        try:
            await self.carry_out(room, plan)
        except BaseException:
            # not stored, so it did not happen: the room keeps its table; only the live recorder, which
            # records in place, is rebuilt from the table's value
            if live is not None and live is room.recorder:
                rec_json = room.table.recorder_json
                room.recorder = None if rec_json is None else HistoryRecorder.from_json(rec_json)
            raise
        room.recorder = plan.recorder
        for done in plan.finished:
            room.keep_hand(done)  # new, or amended after its end (a winner showed their cards)
        if row.client_msg_id is not None and row.player_id is not None:
            room.remember_ack(row.player_id, row.client_msg_id, row.version)
        room.note_change(row.action, row.version, row.player_id, row.kind)  # what an action may be based on
        t2 = time.perf_counter()
        self.views.publish(room, row, events, sender, plan.result)
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
        if plan.due:
            await self._fire_preactions(room, plan.due)

    async def _fire_preactions(self, room: Room, due: tuple[pre.Review, ...]) -> None:
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
                await self.commit(room, new_state, events, row, fired=item.player_id)
            except Exception as exc:
                log.warning("room %s: pre-action of %s not applied: %s", room.code, item.player_id, exc)
                told = room.pre.copy()
                told.chosen.pop(item.player_id, None)
                try:  # dropped in the store too, or a restart would try it again
                    await self.save_pre(room, room.table.evolve(pre=told.copy()))
                except Exception:
                    room.table = room.table.evolve(pre=told.copy())
                told.notices[item.player_id] = {"text": "예약한 행동을 하지 못했어요. 직접 골라 주세요",
                                                "version": room.version}
                room.table = room.table.evolve(pre=told)  # the notice: for this process's sockets only
                self.views.send_views_to(room, item.player_id)

    async def fire_due(self, room: Room) -> None:
        """Fire a pre-action that is due in a room just loaded (a restart, a takeover): the change that made
        it due was stored, the change firing it was not (see ``plan.review_preactions``)."""
        async with room.lock:
            table = room.table
            if table.phase != "playing" or table.state is None or table.paused is not None \
                    or not table.pre.chosen:
                return
            _kept, due = review_preactions(self.engine, table.pre, table.state, table.version)
            if due:
                await self._fire_preactions(room, tuple(due))

    def change_latency(self) -> dict[str, float]:
        """p50/p99/max of recent changes, ms from the engine call's result to the last frame queued."""
        data = sorted(self.change_ms)
        if not data:
            return {}

        def pick(q: float) -> float:
            return round(data[min(len(data) - 1, int(q * len(data)))], 2)

        return {"p50": pick(0.5), "p99": pick(0.99), "max": round(data[-1], 2), "n": len(data)}

    # --- store outages ----------------------------------------------------------------------------------

    def store_failed(self, room: Room, exc: BaseException,
                     retry: Callable[[], Coroutine[Any, Any, None]]) -> None:
        """A timeout's or a bot's change could not be stored: nothing happened (the room kept its table), so
        try again later with a growing pause, and tell the room once why it is waiting."""
        n = self._failures.get(room.code, 0) + 1
        self._failures[room.code] = n
        delay = min(RETRY_MAX_S, RETRY_FIRST_S * 2 ** (n - 1))
        log.warning("room %s: store write failed (%s: %s); retry %d in %.1f s", room.code,
                    type(exc).__name__, exc, n, delay)
        if n == 1:
            self.views.broadcast(room, P.dumps(P.notice_msg("store_retrying", P.MESSAGES["store_retrying"])))
        self.later(delay, retry)

    def store_recovered(self, room: Room) -> None:
        self._failures.pop(room.code, None)
