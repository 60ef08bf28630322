"""Rooms: members, seats, host, spectators, games — with exactly one writer per room.

Why one writer: two players clicking at once, a timer firing and a bot acting must apply one after
another against a single version counter, or a stale view could act on a state it never saw. Every change
of a room runs inside ``room.lock``: validate -> engine -> write to SQLite (awaited on the group-commit
writer thread, the only await inside the lock) -> enqueue frames, all before the room's next change starts,
while other rooms keep going. Sockets are written by their own sender tasks (see ``app``), so a slow phone
never stalls a table.

What is secret is decided by the engine's ``view(state, viewer)``; the room's job is to hand each socket
the view of exactly its own seat (spectators and not-yet-seated members get ``view(state, None)``), and to
put nothing else secret in any frame.
"""

from __future__ import annotations

import asyncio
import functools
import itertools
import logging
import sqlite3
import time
import unicodedata
from collections import OrderedDict, deque
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any, Literal

from pokerroom.rejections import Rejected
from pokerroom.server import deltas as D
from pokerroom.server import preactions as pre
from pokerroom.server import protocol as P
from pokerroom.server import reactions as talk
from pokerroom.server import seating
from pokerroom.server.botseat import ActionFn, BotSeat, cautious_decide, legal_actions
from pokerroom.server.engine_port import GameEngine, OptionsError
from pokerroom.server.limits import Limits
from pokerroom.server.nicknames import confusable_with
from pokerroom.server.store import HANDS_KEPT, GroupWriter, LogRow, Store
from pokerroom.server.timers import Clock, DeadlineTimer
from pokerroom.server.tokens import new_room_code, new_seat_token, token_digest, token_matches
from pokerroom.tools.history import HandRecord, HistoryRecorder, for_viewer

log = logging.getLogger("pokerroom.server")

Phase = Literal["lobby", "playing", "finished"]
Status = Literal["seated", "waiting", "left"]
MAX_NICKNAME = 12
ACKS_KEPT = 256
SLOW_COMMIT_S = 0.1  # log changes slower than this (persist + views), they delay every room
RETRY_FIRST_S = 0.5  # a timeout or bot move whose store write failed is retried after this, doubling...
RETRY_MAX_S = 5.0  # ...up to this (issue #12.2: a store outage must never stop a room's clock)
HISTORY_CACHE = 256  # encoded history answers kept (room, viewer), ~50 KB each
#: Log-row kinds the engine recomputes exactly from the previous state (``apply`` / ``on_timeout`` are pure
#: and deterministic). Such a change is stored as its action-log row alone; any other change (a start, a
#: leave, a new member, a finished hand or game, anything added later) stores a full snapshot. See store.py.
REPLAYED_KINDS = frozenset({"action", "bot", "timeout"})
#: at most this many log-only changes between two snapshots (bounds the replay after a restart)
SNAPSHOT_EVERY = 200


class Connection:
    """A room's handle on one socket. ``send``/``close`` must not block (the app queues them)."""

    _ids = itertools.count(1)

    def __init__(self) -> None:
        self.conn_id = next(Connection._ids)
        self.role: Literal["none", "player", "spectator"] = "none"
        self.player_id: str | None = None
        self.room: Room | None = None
        self.deltas = False  # asked for viewDelta frames in hello (protocol §2.8)
        self.view_version = -1  # version of the last view this socket was sent (its delta base) ...
        self.view_viewer: str | None = None  # ... and whose view it was

    def send(self, text: str) -> None:
        raise NotImplementedError

    def close(self, code: int) -> None:
        raise NotImplementedError

    def allow_history(self) -> bool:
        """May this connection get another ``history`` answer now? (The app rate-limits it.)"""
        return True


@dataclass
class Member:
    """A person (or bot) in a room. ``digest`` is the seat token's SHA-256, never the token."""

    id: str
    nickname: str
    digest: str | None
    bot: bool
    status: Status
    seq: int
    asking: bool = False  # waiting for the host's answer to a seat request (server.seating)

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "nickname": self.nickname, "digest": self.digest, "bot": self.bot,
                "status": self.status, "seq": self.seq, "asking": self.asking}

    @staticmethod
    def from_json(data: dict[str, Any]) -> Member:
        return Member(data["id"], data["nickname"], data["digest"], data["bot"], data["status"], data["seq"],
                      bool(data.get("asking", False)))


@dataclass
class FinishedHand:
    """One recorded hand of the room's history: ``seq`` counts hands across games, ``version`` is the room
    version whose change ended the hand."""

    seq: int
    game_no: int
    version: int
    record: HandRecord

    def to_json(self) -> dict[str, Any]:
        return {"gameNo": self.game_no, "version": self.version, "record": self.record.to_json()}

    @staticmethod
    def from_json(seq: int, data: dict[str, Any]) -> FinishedHand:
        record = HandRecord.from_json(data["record"])
        return FinishedHand(seq, int(data["gameNo"]), int(data["version"]), record)


@dataclass(eq=False)
class Room:
    code: str
    options: Any
    options_json: dict[str, Any]
    min_players: int
    max_players: int
    created_ms: int
    members: dict[str, Member] = field(default_factory=dict)
    host_id: str | None = None
    phase: Phase = "lobby"
    version: int = 0
    game_no: int = 0
    next_seq: int = 1
    state: Any = None
    game_players: list[str] = field(default_factory=list)
    result: dict[str, Any] | None = None
    acks: dict[str, OrderedDict[str, int]] = field(default_factory=dict)
    connections: list[Connection] = field(default_factory=list)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    timer: DeadlineTimer | None = None
    bot_pending: set[str] = field(default_factory=set)
    empty_since: float | None = None
    closed: bool = False
    recorder: HistoryRecorder | None = None  # records the current game's hands (None: not recording)
    recorder_json: dict[str, Any] | None = None  # recorder.to_json() as of its last change (stored in meta)
    hands: deque[FinishedHand] = field(default_factory=lambda: deque(maxlen=HANDS_KEPT))
    hand_seq: int = 0
    log_only: int = 0  # changes stored as log rows alone since the last snapshot
    views: D.ViewCache = field(default_factory=D.ViewCache)  # the current version's views (delta bases)
    pre: pre.PreActions = field(default_factory=pre.PreActions)  # pre-actions per seat (server/preactions.py)
    social: talk.Social = field(default_factory=talk.Social)  # host's chat/reaction settings (stored)
    throttle: talk.Throttle = field(default_factory=talk.Throttle)  # reactions per sender (memory only)

    def meta(self) -> dict[str, Any]:
        """Everything but the engine state and the finished hands (stored in their own rows)."""
        return {"code": self.code, "options": self.options_json, "members": [m.to_json() for m in
                self.members.values()], "hostId": self.host_id, "phase": self.phase, "gameNo": self.game_no,
                "nextSeq": self.next_seq, "gamePlayers": self.game_players, "result": self.result,
                "createdMs": self.created_ms, "handSeq": self.hand_seq,
                "recorder": self.recorder_json, "preActions": self.pre.to_json(),
                "social": self.social.to_json()}

    def human_connected(self) -> bool:
        """Is a *player* connected? Spectators do not keep a room open (issue #12.3): the idle close
        counts only players, so one watcher cannot hold a room (and a slot of the room cap) forever."""
        return any(c.role == "player" for c in self.connections)

    def connected_ids(self) -> set[str]:
        return {c.player_id for c in self.connections if c.player_id is not None}

    def spectator_count(self) -> int:
        return sum(1 for c in self.connections if c.role == "spectator")

    def public_info(self) -> dict[str, Any]:
        online = self.connected_ids()
        players = [
            {"id": m.id, "nickname": m.nickname, "bot": m.bot, "connected": m.bot or m.id in online,
             "host": m.id == self.host_id, "status": m.status, "asking": m.asking}
            for m in self.members.values()
        ]
        return {"code": self.code, "phase": self.phase, "hostId": self.host_id, "players": players,
                "spectators": self.spectator_count(), "options": self.options_json,
                "minPlayers": self.min_players, "maxPlayers": self.max_players, "gameNo": self.game_no,
                "social": self.social.to_json()}


def clean_nickname(raw: str) -> str:
    """Trimmed, NFC-normalised nickname of 1..12 visible characters, or ``nickname_invalid``."""
    nick = unicodedata.normalize("NFC", raw).strip()
    if not 1 <= len(nick) <= MAX_NICKNAME or any(unicodedata.category(ch)[0] in "CZ" and ch != " "
                                                  for ch in nick):
        raise P.error("nickname_invalid")
    return nick


CommitHook = Callable[[Room, int, list[dict[str, Any]]], None]


class Rooms:
    """All rooms of one server process, their persistence, timers and bots."""

    def __init__(self, engine: GameEngine, store: Store, *, clock: Clock | None = None,
                 limits: Limits | None = None, idle_close_s: float = 1800.0, reap_interval_s: float = 5.0,
                 bot_delay_ms: int = 800, decider: ActionFn | None = None,
                 recommender: ActionFn | None = None) -> None:
        self.engine = engine
        self.store = store
        self.clock = clock or Clock()
        self.limits = limits or Limits()
        self.idle_close_s = idle_close_s
        self.reap_interval_s = reap_interval_s
        self.bot_delay_ms = bot_delay_ms
        self.decider: ActionFn = decider or cautious_decide
        self.recommender = recommender
        self.rooms: dict[str, Room] = {}
        self.on_commit: CommitHook | None = None  # test hook, called after each accepted change
        self.observe_commit: Callable[[str, float], None] | None = None  # metrics: (row kind, seconds)
        self.change_ms: deque[float] = deque(maxlen=4096)  # recent change durations, for /healthz
        self._reaper: asyncio.Task[None] | None = None
        self._writer = GroupWriter(store)
        self._tasks: set[asyncio.Task[None]] = set()
        self.quarantined: set[str] = set()  # stored rooms that could not be loaded: kept, never served
        self.on_close: Callable[[str], None] | None = None  # told the code of every room closed
        self._failures: dict[str, int] = {}  # room code -> store failures in a row (timeouts and bots)
        self._history_cache: OrderedDict[tuple[str, str | None], tuple[int, str]] = OrderedDict()

    # --- lifecycle ------------------------------------------------------------------------------------

    async def start(self) -> None:
        """Restore every stored room (state, members, tokens, recent acks), resume deadlines and bots."""
        stored_rooms = self.store.load_all()
        self.quarantined.update(self.store.damaged)
        if stored_rooms:
            self.clock.not_before(max(s.newest_ms for s in stored_rooms))
        for stored in stored_rooms:
            try:
                room = self._restore(stored.code, stored.meta, stored.state, stored.version)
                self._replay(room, stored.replay)
            except Exception:
                log.exception("room %s could not be restored; kept in the store, quarantined", stored.code)
                self.quarantined.add(stored.code)
                continue
            self.rooms[room.code] = room
        for room in self.rooms.values():
            self._arm(room)
            self._schedule_bots(room)
        self._reaper = asyncio.get_running_loop().create_task(self._reap_loop())

    def warm_up(self) -> int:
        """Call the bot and hint functions on sample views once (their first call builds lookup tables that
        take seconds; paying that at start-up, in a thread, keeps it out of any room's critical section)."""
        sample = getattr(self.engine, "sample_views", None)
        if sample is None:
            return 0
        count = 0
        for view in sample():
            for fn in (self.decider, self.recommender):
                if fn is not None:
                    try:
                        fn(view)
                        count += 1
                    except Exception:
                        log.debug("warm-up call failed", exc_info=True)
        return count

    async def stop(self) -> None:
        if self._reaper is not None:
            self._reaper.cancel()
        for room in self.rooms.values():
            if room.timer is not None:
                room.timer.cancel()
        for task in list(self._tasks):
            task.cancel()
        self._writer.close()

    def _restore(self, code: str, meta: dict[str, Any], state_text: str | None, version: int) -> Room:
        options = self.engine.parse_options(meta["options"])
        lo, hi = self.engine.player_range(options)
        room = Room(code, options, self.engine.options_json(options), lo, hi, meta["createdMs"])
        room.members = {m["id"]: Member.from_json(m) for m in meta["members"]}
        room.host_id = meta["hostId"]
        room.phase = meta["phase"]
        room.game_no = meta["gameNo"]
        room.next_seq = meta["nextSeq"]
        room.game_players = list(meta["gamePlayers"])
        room.result = meta["result"]
        room.version = version
        room.state = None if state_text is None else self.engine.load_state(state_text)
        room.hand_seq = int(meta.get("handSeq") or 0)
        room.pre = pre.PreActions.from_json(meta.get("preActions"))
        room.social = talk.Social.from_json(meta.get("social"))
        if meta.get("recorder") is not None:
            room.recorder = HistoryRecorder.from_json(meta["recorder"])
            room.recorder_json = meta["recorder"]
        for seq, data in self.store.hands(code):
            room.hands.append(FinishedHand.from_json(seq, data))
        for pid, cmid, ver in self.store.recent_acks(code):
            self._remember_ack(room, pid, cmid, ver)
        room.timer = DeadlineTimer(self.clock, functools.partial(self._on_deadline, room))
        room.empty_since = time.monotonic()
        return room

    def _replay(self, room: Room, rows: tuple[LogRow, ...]) -> None:
        """Re-apply the log-only changes stored after the room's snapshot, in order: the engine is pure and
        deterministic, so this rebuilds exactly the state (and hand recording) the room had published."""
        for row in rows:
            if row.kind not in REPLAYED_KINDS:
                raise ValueError(f"log row v{row.version} of kind {row.kind!r} cannot be replayed")
            if row.kind == "timeout":
                new_state, events = self.engine.on_timeout(room.state, row.at_ms)
            else:
                assert row.player_id is not None and row.action is not None
                new_state, events = self.engine.apply(room.state, row.player_id, row.action, row.at_ms)
            if self._record(room, new_state, events, row.version):
                raise ValueError(f"log row v{row.version} finished a hand but was stored without a snapshot")
            room.state, room.version = new_state, row.version
        room.log_only = len(rows)

    def change_latency(self) -> dict[str, float]:
        """p50/p99/max of recent changes, ms from the engine call's result to the last frame queued."""
        data = sorted(self.change_ms)
        if not data:
            return {}

        def pick(q: float) -> float:
            return round(data[min(len(data) - 1, int(q * len(data)))], 2)

        return {"p50": pick(0.5), "p99": pick(0.99), "max": round(data[-1], 2), "n": len(data)}

    # --- HTTP-side operations -------------------------------------------------------------------------

    async def create_room(self, raw_options: dict[str, Any], nickname: str) -> tuple[Room, Member, str]:
        """A new room with its creator as host and first member; returns the creator's seat token."""
        if len(self.rooms) >= self.limits.max_rooms:
            raise P.error("too_many_rooms", status=503)
        try:
            options = self.engine.parse_options(raw_options)
        except OptionsError as exc:
            raise P.error("bad_options", exc.message) from None
        nick = clean_nickname(nickname)
        lo, hi = self.engine.player_range(options)
        code = new_room_code()
        while code in self.rooms or code in self.quarantined:
            code = new_room_code()
        room = Room(code, options, self.engine.options_json(options), lo, hi, self.clock.now_ms())
        room.timer = DeadlineTimer(self.clock, functools.partial(self._on_deadline, room))
        room.empty_since = time.monotonic()
        member, token = self._new_member(room, nick, bot=False)
        room.host_id = member.id
        self.rooms[code] = room
        await self._save_meta(room)
        return room, member, token

    def get(self, code: str) -> Room | None:
        room = self.rooms.get(code)
        return None if room is None or room.closed else room

    # --- websocket messages ---------------------------------------------------------------------------

    async def handle(self, room: Room, conn: Connection, msg: P.ClientMessage) -> None:
        """Apply one client message under the room's lock; refusals go to the sender only."""
        if isinstance(msg, P.Ping):
            conn.send(P.dumps(P.pong_msg(self.clock.now_ms())))
            return
        if isinstance(msg, P.History):  # read-only and cached: no need to wait for the room's lock
            self._answer_history(room, conn)
            return
        async with room.lock:
            if room.closed:
                return
            cmid = msg.clientMsgId if isinstance(msg, P.ActionMsg) else None
            try:
                if isinstance(msg, P.Hello):
                    await self._hello(room, conn, msg)
                    return
                if conn.role == "none":
                    raise P.error("hello_first")
                if isinstance(msg, P.ActionMsg):
                    await self._action(room, conn, msg)
                elif isinstance(msg, P.Start):
                    await self._start(room, conn)
                elif isinstance(msg, P.AddBot):
                    await self._add_bot(room, conn, msg.nickname)
                elif isinstance(msg, P.RemoveBot):
                    await self._remove_bot(room, conn, msg.playerId)
                elif isinstance(msg, P.SetOptions):
                    await self._set_options(room, conn, msg.options)
                elif isinstance(msg, P.Leave):
                    await self._leave(room, conn)
                elif isinstance(msg, P.Kick):
                    await self._kick(room, conn, msg.playerId)
                elif isinstance(msg, P.Resync):
                    self._send_view(room, conn)
                elif isinstance(msg, P.PreActionMsg):
                    await self._pre_action(room, conn, msg)
                elif isinstance(msg, P.React | P.Chat):
                    self._talk(room, conn, msg)
                elif isinstance(msg, P.SocialMsg):
                    await self._set_social(room, conn, msg)
                elif isinstance(msg, P.SEAT_MESSAGES):
                    await seating.handle(self, room, conn, msg)
            except P.ProtocolError as exc:
                conn.send(P.dumps(P.error_msg(exc.code, exc.message, cmid)))
            except Rejected as exc:
                conn.send(P.dumps(P.error_msg(exc.code, exc.message, cmid)))
            except sqlite3.Error:
                log.warning("room %s: store write failed on %s; nothing changed", room.code,
                            type(msg).__name__)
                conn.send(P.dumps(P.error_msg("store_unavailable", P.MESSAGES["store_unavailable"], cmid)))
            except Exception:
                log.exception("room %s: internal error on %s", room.code, type(msg).__name__)
                conn.send(P.dumps(P.error_msg("internal", P.MESSAGES["internal"], cmid)))

    async def detach(self, conn: Connection) -> None:
        """A socket went away: not a leave (§8.5: the seat keeps playing on timeouts)."""
        room = conn.room
        if room is None:
            return
        async with room.lock:
            if conn in room.connections:
                room.connections.remove(conn)
                if not room.closed:
                    self._broadcast_lobby(room)
            if not room.human_connected() and room.empty_since is None:
                room.empty_since = time.monotonic()

    async def _hello(self, room: Room, conn: Connection, msg: P.Hello) -> None:
        if conn.role != "none":
            raise P.error("already_hello")
        token_out: str | None = None
        if msg.token is not None:
            member = self._member_by_token(room, msg.token)
            if member is None:
                raise P.error("bad_token")
            tabs = sum(1 for c in room.connections if c.player_id == member.id)
            if tabs >= self.limits.max_tabs_per_seat:
                raise P.error("too_many_tabs")
            conn.role, conn.player_id = "player", member.id
        elif msg.nickname is not None:
            # a nickname hello during a game is a request for a seat (the host still decides)
            member, token_out = await self.admit_member(room, msg.nickname, asking=seating.wants_seat)
            conn.role, conn.player_id = "player", member.id
        else:
            if room.spectator_count() >= self.limits.max_spectators:
                raise P.error("spectators_full")
            conn.role = "spectator"
        conn.room = room
        conn.deltas = bool(msg.deltas)
        room.connections.append(conn)
        if conn.role == "player":
            room.empty_since = None
        conn.send(P.dumps(P.welcome_msg(room.code, conn.role, conn.player_id, room.version, token_out)))
        self._broadcast_lobby(room)
        self._send_snapshot(room, conn)

    async def _action(self, room: Room, conn: Connection, msg: P.ActionMsg) -> None:
        if conn.role != "player" or conn.player_id is None:
            raise P.error("spectator")
        pid = conn.player_id
        seen = room.acks.get(pid)
        if seen is not None and msg.clientMsgId in seen:
            conn.send(P.dumps(P.ack_msg(msg.clientMsgId, seen[msg.clientMsgId])))
            return
        if room.phase != "playing" or room.state is None:
            raise P.error("no_game")
        if pid not in room.game_players:
            raise P.error("not_seated")
        if msg.version != room.version:
            raise P.error("stale_version")
        action = P.action_dict(msg)
        now = self.clock.now_ms()
        new_state, events = self.engine.apply(room.state, pid, action, now)
        await self._commit(room, new_state, events, LogRow(room.version + 1, "action", pid, msg.clientMsgId,
                                                     action, now), sender=conn)

    def _talk(self, room: Room, conn: Connection, msg: P.React | P.Chat) -> None:
        """A reaction or a chat line: checked, rate-limited per sender, broadcast, never stored."""
        spectator = conn.role != "player" or conn.player_id is None
        if spectator and (isinstance(msg, P.Chat) or not room.social.spectator_reactions):
            raise P.error("reactions_off" if isinstance(msg, P.React) else "chat_off")
        if isinstance(msg, P.Chat) and not room.social.chat:
            raise P.error("chat_off")
        text = talk.clean_chat(msg.text) if isinstance(msg, P.Chat) else None
        if isinstance(msg, P.Chat) and text is None:
            raise P.error("chat_empty")
        if not room.throttle.allow(conn.player_id or f"spectator:{conn.conn_id}"):
            raise P.error("too_fast")
        if text is not None and conn.player_id is not None:
            self._broadcast(room, P.dumps(talk.chat_msg(conn.player_id, text)))
        elif isinstance(msg, P.React):
            sender = None if spectator else conn.player_id
            self._broadcast(room, P.dumps(talk.reaction_msg(sender, msg.reaction)))

    async def _set_social(self, room: Room, conn: Connection, msg: P.SocialMsg) -> None:
        """Host only, any phase: chat on/off, spectator reactions on/off; stored, then a new ``lobby``."""
        self._require_host(room, conn)
        before = room.social
        room.social = talk.Social(msg.chat, msg.spectatorReactions)
        try:
            await self._save_meta(room)
        except BaseException:
            room.social = before
            raise
        self._broadcast_lobby(room)

    async def _pre_action(self, room: Room, conn: Connection, msg: P.PreActionMsg) -> None:
        """Choose (or clear, ``kind: null``) my pre-action: stored with the room, answered with my view."""
        if conn.role != "player" or conn.player_id is None:
            raise P.error("spectator")
        pid = conn.player_id
        if room.phase != "playing" or room.state is None:
            raise P.error("no_game")
        if pid not in room.game_players:
            raise P.error("not_seated")
        if msg.version != room.version:
            raise P.error("stale_version")
        before = room.pre.to_json()
        if msg.kind is None:
            room.pre.chosen.pop(pid, None)
        else:
            chosen = pre.choose(self.engine.view(room.state, pid), msg.kind)
            if chosen is None:
                raise P.error("preaction_unavailable")
            room.pre.chosen[pid] = chosen
        room.pre.notices.pop(pid, None)
        try:
            await self._save_meta(room)
        except BaseException:
            room.pre = pre.PreActions.from_json(before)
            raise
        self._send_views_to(room, pid)

    def _send_views_to(self, room: Room, pid: str) -> None:
        """A fresh view (same version) to every socket of one seat, after a change only that seat sees."""
        view = self._current_view(room, pid)  # same version: the cached view (and hint)
        text = P.dumps(P.view_msg(room.version, view, self.clock.now_ms(), self._seat_part(room, view, pid)))
        for c in list(room.connections):
            if c.player_id == pid and self._viewer(room, c) == pid:
                c.send(text)
                c.view_version, c.view_viewer = room.version, pid  # a whole view: the delta base

    def _review_preactions(self, room: Room, state: Any, version: int) -> list[pre.Review]:
        """Cancel (with a notice) the pre-actions this change made obsolete; return the one due now."""
        if not room.pre.chosen:
            return []
        views = {pid: self.engine.view(state, pid) for pid in room.pre.chosen}
        return pre.review(room.pre, views, version)

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
                await self._commit(room, new_state, events, row)
            except Exception as exc:
                log.warning("room %s: pre-action of %s not applied: %s", room.code, item.player_id, exc)
                room.pre.notices[item.player_id] = {"text": "예약한 행동을 하지 못했어요. 직접 골라 주세요",
                                                    "version": room.version}
                self._send_views_to(room, item.player_id)

    async def _start(self, room: Room, conn: Connection) -> None:
        self._require_host(room, conn)
        if room.phase == "playing":
            raise P.error("game_running")
        for pid in [m.id for m in room.members.values() if m.status == "left"]:
            del room.members[pid]
        ids = [m.id for m in sorted(room.members.values(), key=lambda m: m.seq)]
        if not room.min_players <= len(ids) <= room.max_players:
            lo, hi = room.min_players, room.max_players
            raise P.error("player_count", f"{lo}~{hi}명이 있어야 시작할 수 있어요")
        now = self.clock.now_ms()
        with_events = getattr(self.engine, "setup_with_events", None)
        try:
            if with_events is not None:
                state, setup_events = with_events(ids, room.options, now)
            else:
                state, setup_events = self.engine.setup(ids, room.options, now), None
        except Rejected as exc:
            raise P.error("player_count", exc.message) from None
        except ValueError as exc:
            raise P.error("player_count", str(exc) if any("\uac00" <= c <= "\ud7a3" for c in str(exc))
                          else None) from None
        for m in room.members.values():
            m.status, m.asking = "seated", False
        room.game_players = ids
        room.phase = "playing"
        room.game_no += 1
        room.result = None
        room.pre.clear()
        room.recorder = HistoryRecorder(ids, int(room.options_json.get("startingChips") or 0))
        room.recorder_json = room.recorder.to_json()
        row = LogRow(room.version + 1, "start", conn.player_id, None, None, now)
        # the first hand's events are recorded, not sent: a game start has no events frame (protocol §2.1)
        await self._commit(room, state, [], row, record="begin" if setup_events is None else setup_events)
        self._broadcast_lobby(room)

    async def _add_bot(self, room: Room, conn: Connection, nickname: str | None) -> None:
        self._require_host(room, conn)
        if room.phase == "playing":
            raise P.error("game_running")
        if nickname is None:
            taken = {m.nickname for m in room.members.values()}
            nickname = next(f"봇 {i}" for i in itertools.count(1) if f"봇 {i}" not in taken)
        nick = clean_nickname(nickname)
        self._check_capacity(room, nick)
        member, _ = self._new_member(room, nick, bot=True)
        try:
            await self._save_meta(room)
        except BaseException:  # not stored, so not added (a store outage must not leave a ghost bot)
            del room.members[member.id]
            raise
        self._broadcast_lobby(room)

    async def _remove_bot(self, room: Room, conn: Connection, player_id: str) -> None:
        self._require_host(room, conn)
        if room.phase == "playing":
            raise P.error("game_running")
        member = room.members.get(player_id)
        if member is None or not member.bot:
            raise P.error("no_such_bot")
        del room.members[player_id]
        try:
            await self._save_meta(room)
        except BaseException:
            room.members[player_id] = member
            raise
        self._broadcast_lobby(room)

    async def _kick(self, room: Room, conn: Connection, player_id: str) -> None:
        """Host only: remove a human player (issue #12.10). Between games the member is removed; during a
        game they stay ranked but auto-die every hand (the engine's ``leave``, §5.8), like leaving. Either way
        the seat token is revoked at once (its digest is dropped, so no tab can come back with it), their
        sockets get ``kicked`` and are closed (4403), and everyone else gets a ``notice``. Stored first."""
        self._require_host(room, conn)
        member = room.members.get(player_id)
        if member is None or member.bot or member.id == conn.player_id or member.status == "left":
            raise P.error("not_kickable")
        in_game = player_id in room.game_players and room.phase != "lobby"
        before = (member.digest, member.status)
        member.digest = None
        if in_game:
            member.status = "left"
        else:
            del room.members[player_id]
        try:
            if in_game and room.phase == "playing":
                await self._engine_leave(room, player_id, "kick")
            else:
                await self._save_meta(room)
        except BaseException:
            member.digest, member.status = before
            room.members[player_id] = member
            raise
        for other in [c for c in room.connections if c.player_id == player_id]:
            room.connections.remove(other)
            other.send(P.dumps(P.error_msg("kicked", P.MESSAGES["kicked"])))
            other.close(4403)
        self._broadcast(room, P.dumps(P.notice_msg("kicked", f"방장이 {member.nickname} 님을 내보냈어요")))
        self._broadcast_lobby(room)

    async def _set_options(self, room: Room, conn: Connection, raw: dict[str, Any]) -> None:
        """Host only, in the lobby or after a game: new options for the next game (same checks as creation).

        Refused when more members are present than the new mode seats, with poker.md's sentence; the room, its
        members, tokens and past hands are kept. Stored before the new lobby is sent, like every change.
        """
        self._require_host(room, conn)
        if room.phase == "playing":
            raise P.error("game_running")
        try:
            options = self.engine.parse_options(raw)
        except OptionsError as exc:
            raise P.error("bad_options", exc.message) from None
        lo, hi = self.engine.player_range(options)
        present = sum(1 for m in room.members.values() if m.status != "left")
        if present > hi:
            raise P.error("too_many_players", f"이 모드는 최대 {hi}명까지 할 수 있어요")
        before = (room.options, room.options_json, room.min_players, room.max_players)
        room.options, room.options_json = options, self.engine.options_json(options)
        room.min_players, room.max_players = lo, hi
        try:
            await self._save_meta(room)
        except BaseException:
            room.options, room.options_json, room.min_players, room.max_players = before
            raise
        self._broadcast_lobby(room)

    async def _engine_leave(self, room: Room, pid: str, kind: Literal["leave", "kick"]) -> None:
        """The engine's ``leave`` for a member who goes mid-game (§5.8: auto-die each hand, stays ranked),
        committed as a ``kind`` row; if the engine refuses it, only the members are stored."""
        now = self.clock.now_ms()
        try:
            new_state, events = self.engine.apply(room.state, pid, {"type": "leave"}, now)
        except Rejected:
            await self._save_meta(room)
        else:
            await self._commit(room, new_state, events,
                               LogRow(room.version + 1, kind, pid, None, {"type": "leave"}, now))

    async def _leave(self, room: Room, conn: Connection) -> None:
        """Leave for good. Mid-game the engine gets ``leave`` (§5.8: auto-die each hand, stays ranked)."""
        pid = conn.player_id
        if conn.role == "spectator" or pid is None:
            room.connections.remove(conn)
            conn.close(1000)
            self._broadcast_lobby(room)
            return
        member = room.members[pid]
        in_game = pid in room.game_players and room.phase != "lobby"
        if in_game:
            member.status = "left"
        else:
            del room.members[pid]
        self._fix_host(room)
        for other in [c for c in room.connections if c.player_id == pid]:
            room.connections.remove(other)
            other.close(1000)
        if in_game and room.phase == "playing":
            await self._engine_leave(room, pid, "leave")
        else:
            await self._save_meta(room)
        self._broadcast_lobby(room)
        if not room.human_connected() and room.empty_since is None:
            room.empty_since = time.monotonic()

    # --- helpers --------------------------------------------------------------------------------------

    async def admit_member(self, room: Room, nickname: str, *,
                           asking: Callable[[Room, Member], bool]) -> tuple[Member, str]:
        """A new human member with a seat token of their own, stored before the token is handed out (and
        taken back if the store refuses). ``asking``: whether they ask for a seat in the running game."""
        nick = clean_nickname(nickname)
        self._check_capacity(room, nick)
        member, token = self._new_member(room, nick, bot=False)
        member.asking = asking(room, member)
        host_before = room.host_id
        if room.host_id is None:
            room.host_id = member.id
        try:
            await self._save_meta(room)
        except BaseException:
            del room.members[member.id]
            room.host_id = host_before
            raise
        return member, token

    def _require_host(self, room: Room, conn: Connection) -> None:
        if conn.player_id is None or conn.player_id != room.host_id:
            raise P.error("not_host")

    def _check_capacity(self, room: Room, nick: str) -> None:
        active = [m for m in room.members.values() if m.status != "left"]
        folded = nick.casefold()
        if any(m.nickname.casefold() == folded for m in active):
            raise P.error("nickname_taken")
        if confusable_with(nick, [m.nickname for m in active]) is not None:
            raise P.error("nickname_confusable")
        if len(active) >= room.max_players:
            raise P.error("room_full")

    def _new_member(self, room: Room, nick: str, *, bot: bool) -> tuple[Member, str]:
        token = "" if bot else new_seat_token()
        member = Member(f"p{room.next_seq}", nick, None if bot else token_digest(token), bot,
                        "waiting" if room.phase == "playing" else "seated", room.next_seq)
        room.next_seq += 1
        room.members[member.id] = member
        return member, token

    def _member_by_token(self, room: Room, token: str) -> Member | None:
        found: Member | None = None
        for member in room.members.values():  # compare against every seat: no early exit timing
            if member.digest is not None and token_matches(token, member.digest) and member.status != "left":
                found = member
        return found

    def _fix_host(self, room: Room) -> None:
        current = room.members.get(room.host_id or "")
        if current is not None and current.status != "left" and not current.bot:
            return
        humans = sorted((m for m in room.members.values() if not m.bot and m.status != "left"),
                        key=lambda m: m.seq)
        room.host_id = humans[0].id if humans else None

    def _remember_ack(self, room: Room, pid: str, cmid: str, version: int) -> None:
        seen = room.acks.setdefault(pid, OrderedDict())
        seen[cmid] = version
        while len(seen) > ACKS_KEPT:
            seen.popitem(last=False)

    def _viewer(self, room: Room, conn: Connection) -> str | None:
        pid = conn.player_id
        return pid if pid is not None and pid in room.game_players else None

    def _view(self, room: Room, viewer: str | None) -> dict[str, Any]:
        view = self.engine.view(room.state, viewer)
        if viewer is not None and self.recommender is not None and room.options_json.get("hints"):
            me = view.get("me")
            if isinstance(me, dict) and legal_actions(view):
                try:
                    me["hint"] = self.recommender(view)
                except Exception:
                    log.exception("hint failed")
        return view

    def _seat_part(self, room: Room, view: dict[str, Any], viewer: str | None) -> dict[str, Any] | None:
        """The room's own per-seat part of a view frame (``seat``, docs/protocol.md §2.6); None for others."""
        return pre.seat_part(view, room.pre, viewer)

    def _current_view(self, room: Room, viewer: str | None) -> dict[str, Any]:
        """The view (hint included) of the room's current version, built once per (version, viewer)."""
        return room.views.get(room.version, viewer, functools.partial(self._view, room))

    def _send_view(self, room: Room, conn: Connection) -> None:
        """A full ``view`` of the current version (snapshot, ``resync``): the socket's new delta base."""
        if room.state is None:
            return
        viewer = self._viewer(room, conn)
        view = self._current_view(room, viewer)
        seat = self._seat_part(room, view, viewer)
        conn.send(P.dumps(P.view_msg(room.version, view, self.clock.now_ms(), seat)))
        conn.view_version, conn.view_viewer = room.version, viewer

    def _send_snapshot(self, room: Room, conn: Connection) -> None:
        self._send_view(room, conn)
        if room.result is not None and room.phase == "finished":
            conn.send(P.dumps(P.result_msg(room.version, room.result)))

    def _broadcast(self, room: Room, text: str) -> None:
        for conn in list(room.connections):
            conn.send(text)

    def _broadcast_lobby(self, room: Room) -> None:
        self._broadcast(room, P.dumps({"type": "lobby", **room.public_info()}))

    async def _write(self, op: str, *args: Any) -> None:
        """One store write through the group-commit writer. The caller holds the room's lock, so this room
        waits for its write (persist before publish) while every other room keeps going: a slow disk (an
        fsync, dirty-page throttling) must never freeze the whole server."""
        if op == "save":
            op, args = Store.prepare_save(*args)
        elif op == "log":
            op, args = Store.prepare_log(*args)
        await self._writer.submit(op, *args)

    async def _save_meta(self, room: Room) -> None:
        state = None if room.state is None else self.engine.dump_state(room.state)
        await self._write("save", room.code, room.meta(), state, room.version, self.clock.now_ms(), None)
        room.log_only = 0  # that was a snapshot of the room as it is

    async def _commit(self, room: Room, new_state: Any, events: list[dict[str, Any]], row: LogRow,
                sender: Connection | None = None,
                record: list[dict[str, Any]] | Literal["begin"] | None = None) -> None:
        """Persist, then publish: every socket gets the events and its own view; the sender its ack.

        ``record``: what the hand recorder gets instead of ``events`` (a game start: the first hand's
        events, or ``"begin"`` to rebuild them from the view)."""
        t0 = time.perf_counter()
        result = self.engine.result(new_state) if room.phase == "playing" else None
        before = (room.state, room.version, room.phase, room.result)
        recorder_before = room.recorder_json
        pre_before = room.pre.to_json()
        hand_seq_before = room.hand_seq
        room.state = new_state
        room.version = row.version
        if result is not None:
            room.phase = "finished"
            room.result = result
        finished = self._record(room, new_state, events if record is None else record, row.version)
        due = self._review_preactions(room, new_state, row.version) if room.phase == "playing" else []
        log_only_before = room.log_only
        # a replayable change inside a hand is stored as its log row; anything else, or a hand's end, as
        # a snapshot (so a restart replays at most the rest of one hand, and at most SNAPSHOT_EVERY rows).
        # Pre-actions live in the room's metadata: a change that cancels or uses one is a snapshot too.
        snapshot = (row.kind not in REPLAYED_KINDS or record is not None or bool(finished)
                    or result is not None or room.log_only >= SNAPSHOT_EVERY
                    or (bool(due) or room.pre.to_json() != pre_before))
        t1 = time.perf_counter()
        try:
            if snapshot:
                hands = [(h.seq, h.to_json()) for h in finished] or None
                await self._write("save", room.code, room.meta(), self.engine.dump_state(new_state),
                                  row.version, row.at_ms, row, hands)
                room.log_only = 0
            else:
                await self._write("log", room.code, row)
                room.log_only += 1
        except BaseException:
            # not stored, so it did not happen: nobody has seen it yet, put the room back as it was
            room.state, room.version, room.phase, room.result = before
            room.recorder = None if recorder_before is None else HistoryRecorder.from_json(recorder_before)
            room.recorder_json = recorder_before
            room.hand_seq -= sum(1 for h in finished if h.seq > hand_seq_before)
            room.pre = pre.PreActions.from_json(pre_before)
            room.log_only = log_only_before
            raise
        for done in finished:
            if room.hands and room.hands[-1].seq == done.seq:
                room.hands[-1] = done  # a hand amended after its end (a winner showed their cards)
            else:
                room.hands.append(done)
        if row.client_msg_id is not None and row.player_id is not None:
            self._remember_ack(room, row.player_id, row.client_msg_id, row.version)
        t2 = time.perf_counter()
        version = row.version
        events_text = P.dumps(P.events_msg(version, events)) if events else None
        frames = D.FrameBuilder(room.views, version, self.clock.now_ms(),
                                functools.partial(self._view, room), functools.partial(self._seat_part, room))
        ack_id = row.client_msg_id if sender is not None else None
        for conn in list(room.connections):
            if events_text is not None:
                conn.send(events_text)
            conn.send(frames.text_for(conn, self._viewer(room, conn), ack_id if conn is sender else None))
        if sender is not None and row.client_msg_id is not None and not (
                sender.deltas and sender in room.connections):  # else the ack rode on its view frame
            sender.send(P.dumps(P.ack_msg(row.client_msg_id, version)))
        if result is not None:
            self._broadcast(room, P.dumps(P.result_msg(version, result)))
            self._broadcast_lobby(room)
        t3 = time.perf_counter()
        self.change_ms.append((t3 - t0) * 1000.0)
        if self.observe_commit is not None:
            self.observe_commit(row.kind, t3 - t0)
        if t3 - t0 > SLOW_COMMIT_S:
            log.warning("room %s: slow change v%d: %.0f ms (state %.0f, store %.0f, views %.0f)", room.code,
                        version, (t3 - t0) * 1e3, (t1 - t0) * 1e3, (t2 - t1) * 1e3, (t3 - t2) * 1e3)
        if self.on_commit is not None:
            self.on_commit(room, version, events)
        self._arm(room)
        self._schedule_bots(room)
        if due:
            await self._fire_preactions(room, due)

    # --- hand history ---------------------------------------------------------------------------------

    def _record(self, room: Room, state: Any, events: list[dict[str, Any]] | Literal["begin"],
                version: int) -> list[FinishedHand]:
        """Feed one change to the room's hand recorder; returns the hands it finished (numbered; the caller
        keeps them once stored). Recording never stops a game: if it fails, this game is not recorded."""
        rec = room.recorder
        if rec is None or not events:
            return []

        def view_of(viewer: str | None) -> dict[str, Any]:
            return self.engine.view(state, viewer)

        try:
            if events == "begin":
                rec.begin(view_of)
            else:
                rec.observe(events, view_of)
        except Exception:
            log.exception("room %s: hand recording failed; this game is not recorded", room.code)
            room.recorder = room.recorder_json = None
            return []
        finished: list[FinishedHand] = []
        if rec.amended is not None:
            last = room.hands[-1] if room.hands else None
            same = last is not None and last.record.hand_no == rec.amended.hand_no
            if last is not None and same and last.game_no == room.game_no:
                # the same seq, re-stored; its version is now the change that showed the cards
                finished.append(FinishedHand(last.seq, last.game_no, version, rec.amended))
            rec.amended = None
        for hand in rec.hands:
            room.hand_seq += 1
            finished.append(FinishedHand(room.hand_seq, room.game_no, version, hand))
        rec.hands.clear()  # the room keeps the finished hands (the last HANDS_KEPT), not the recorder
        room.recorder_json = rec.to_json()
        return finished

    def _send_history(self, room: Room, conn: Connection) -> None:
        """The room's last hands, newest first, as this connection may see them: public information plus,
        for a player of the hand, that player's own cards (never anyone else's unshown cards).

        The encoded answer is cached per (room, viewer) until the next hand ends (issue #12.1): encoding ten
        hands is ~50 KB of JSON, and every spectator of a room shares one string (queued by reference)."""
        viewer = conn.player_id if conn.role == "player" else None
        key = (room.code, viewer)
        cached = self._history_cache.get(key)
        if cached is not None and cached[0] == room.hand_seq:
            self._history_cache.move_to_end(key)
            conn.send(cached[1])
            return
        hands = [{"gameNo": h.game_no, "version": h.version, **for_viewer(h.record, viewer)}
                 for h in reversed(room.hands)]
        text = P.dumps(P.history_msg(hands))
        self._history_cache[key] = (room.hand_seq, text)
        while len(self._history_cache) > HISTORY_CACHE:
            self._history_cache.popitem(last=False)
        conn.send(text)

    def _answer_history(self, room: Room, conn: Connection) -> None:
        """``history``, after ``hello`` and at the connection's own low rate (``history_rate`` otherwise)."""
        if room.closed:
            return
        if conn.role == "none":
            conn.send(P.dumps(P.error_msg("hello_first", P.MESSAGES["hello_first"])))
        elif not conn.allow_history():
            conn.send(P.dumps(P.error_msg("history_rate", P.MESSAGES["history_rate"])))
        else:
            self._send_history(room, conn)

    # --- store outages --------------------------------------------------------------------------------

    def _store_failed(self, room: Room, exc: BaseException,
                      retry: Callable[[], Coroutine[Any, Any, None]]) -> None:
        """A timeout's or a bot's change could not be stored: nothing happened (``_commit`` put the room
        back), so try again later with a growing pause, and tell the room once why it is waiting."""
        n = self._failures.get(room.code, 0) + 1
        self._failures[room.code] = n
        delay = min(RETRY_MAX_S, RETRY_FIRST_S * 2 ** (n - 1))
        log.warning("room %s: store write failed (%s: %s); retry %d in %.1f s", room.code,
                    type(exc).__name__, exc, n, delay)
        if n == 1:
            self._broadcast(room, P.dumps(P.notice_msg("store_retrying", P.MESSAGES["store_retrying"])))
        self._later(delay, retry)

    def _store_recovered(self, room: Room) -> None:
        self._failures.pop(room.code, None)

    # --- timers and bots ------------------------------------------------------------------------------

    def _arm(self, room: Room) -> None:
        if room.timer is None:
            return
        if room.phase == "playing" and room.state is not None and not room.closed:
            room.timer.arm(self.engine.deadline(room.state))
        else:
            room.timer.cancel()

    async def _on_deadline(self, room: Room) -> None:
        """A deadline passed: the engine's automatic action (§8.5), through the same writer as actions."""
        async with room.lock:
            if room.closed or room.phase != "playing" or room.state is None or room.timer is None:
                return
            due = self.engine.deadline(room.state)
            now = self.clock.now_ms()
            if due is None:
                return
            if due > now:
                room.timer.arm(due)
                return
            try:
                new_state, events = self.engine.on_timeout(room.state, now)
            except Exception:
                log.exception("room %s: on_timeout failed; retrying in a second", room.code)
                self._later(1.0, lambda: self._on_deadline(room))
                return
            if self.engine.deadline(new_state) == due and not events:
                self._later(1.0, lambda: self._on_deadline(room))  # no progress: do not spin
                room.timer.cancel()
            row = LogRow(room.version + 1, "timeout", None, None, None, now)
            try:
                await self._commit(room, new_state, events, row)
            except Exception as exc:
                self._store_failed(room, exc, lambda: self._on_deadline(room))
                return
            self._store_recovered(room)

    def _later(self, seconds: float, make: Callable[[], Coroutine[Any, Any, None]]) -> None:
        async def run() -> None:
            await asyncio.sleep(seconds)
            await make()

        task = asyncio.get_running_loop().create_task(run())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _schedule_bots(self, room: Room) -> None:
        if room.phase != "playing" or room.state is None:
            return
        for pid in room.game_players:
            member = room.members.get(pid)
            if member is None or not member.bot or pid in room.bot_pending:
                continue
            if legal_actions(self.engine.view(room.state, pid)):
                room.bot_pending.add(pid)
                delay = self.clock.real_seconds(self.bot_delay_ms)
                self._later(delay, functools.partial(self._bot_act, room, pid))

    async def _bot_act(self, room: Room, pid: str) -> None:
        async with room.lock:
            room.bot_pending.discard(pid)
            if room.closed or room.phase != "playing" or room.state is None:
                return
            action = BotSeat(pid, self.decider).choose(self.engine.view(room.state, pid))
            if action is None:
                return  # the deadline will act for the bot
            now = self.clock.now_ms()
            try:
                new_state, events = self.engine.apply(room.state, pid, action, now)
            except Rejected as exc:
                log.warning("room %s: bot %s refused: %s", room.code, pid, exc.code)
                return
            row = LogRow(room.version + 1, "bot", pid, None, action, now)
            try:
                await self._commit(room, new_state, events, row)
            except Exception as exc:
                room.bot_pending.add(pid)
                self._store_failed(room, exc, functools.partial(self._bot_act, room, pid))
                return
            self._store_recovered(room)

    # --- closing idle rooms ---------------------------------------------------------------------------

    async def _reap_loop(self) -> None:
        while True:
            await asyncio.sleep(self.reap_interval_s)
            now = time.monotonic()
            for room in list(self.rooms.values()):
                if room.empty_since is not None and now - room.empty_since >= self.idle_close_s:
                    try:
                        await self.close_room(room, idle=True)
                    except Exception:  # a store outage must not stop the reaper; try again next round
                        log.warning("room %s: could not be closed yet (store write failed)", room.code)

    async def close_room(self, room: Room, *, idle: bool = False) -> None:
        """Close a room for good: sockets closed (4404), store rows deleted, chips gone (§12). ``idle``: no
        player was connected for ``idle_close_s``; whoever still watches is told why before the close."""
        async with room.lock:
            room.closed = True
            if room.timer is not None:
                room.timer.cancel()
            for conn in list(room.connections):
                if idle:
                    conn.send(P.dumps(P.error_msg("room_closed", P.MESSAGES["room_closed"])))
                conn.close(4404)
            room.connections.clear()
            await self._write("delete", room.code)
            self.rooms.pop(room.code, None)
            self._failures.pop(room.code, None)
            for key in [k for k in self._history_cache if k[0] == room.code]:
                del self._history_cache[key]
            if self.on_close is not None:
                self.on_close(room.code)
