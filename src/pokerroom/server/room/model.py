"""What a room is: its members, sockets, finished hands and the fields every change touches.

Why a module of its own: these are plain data (plus the JSON they are stored as), shared by every part of
the room server (``room_writer``, ``room_views``, ``room_clock``, ``room_handlers``, ``rooms``) and by
``seating``; keeping them apart from the code that changes them lets each part import them without
importing the others. ``RoomsBase`` names the services those parts share (set by ``Rooms.__init__``).
"""

from __future__ import annotations

import asyncio
import itertools
import unicodedata
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from pokerroom.history import HandRecord, HistoryRecorder
from pokerroom.server.edge.limits import Limits, TokenBucket
from pokerroom.server.room import preactions as pre
from pokerroom.server.room import reactions as talk
from pokerroom.server.room.timers import DeadlineTimer
from pokerroom.server.storage import HANDS_KEPT
from pokerroom.server.wire import deltas as D
from pokerroom.server.wire import protocol as P

if TYPE_CHECKING:
    from pokerroom.engine import PokerOptions, State
    from pokerroom.server.edge.limits import Limits
    from pokerroom.server.engine_port import GameEngine
    from pokerroom.server.room.botseat import ActionFn
    from pokerroom.server.room.timers import Clock
    from pokerroom.server.storage import GroupWriter, Store

Phase = Literal["lobby", "playing", "finished"]
Status = Literal["seated", "waiting", "left"]
MAX_NICKNAME = 12
ACKS_KEPT = 256


HISTORY_STRIKES = 10  # history requests refused in a row before the socket counts as flooding


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
        self._history_bucket: TokenBucket | None = None  # see limit_history
        self._history_strikes = 0

    def send(self, text: str) -> None:
        raise NotImplementedError

    def close(self, code: int) -> None:
        raise NotImplementedError

    def limit_history(self, limits: Limits) -> None:
        """Rate-limit this connection's ``history`` requests (a real socket, local or relayed)."""
        self._history_bucket = TokenBucket(limits.history_rate_per_second, limits.history_burst)

    def allow_history(self) -> bool:
        """May this connection get another ``history`` answer now? Without :meth:`limit_history`, always;
        with it, the history rate, and a socket that keeps asking past it (:data:`HISTORY_STRIKES`
        refusals in a row) is a flood: closed with 1008."""
        if self._history_bucket is None:
            return True
        if self._history_bucket.allow():
            self._history_strikes = 0
            return True
        self._history_strikes += 1
        if self._history_strikes > HISTORY_STRIKES:
            self.close(1008)
        return False


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
    """One room in memory: stored as ``meta()`` + the engine state + log rows (see ``room_writer``)."""

    code: str
    options: PokerOptions
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
    state: State | None = None
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
    #: the version of the newest change that was not a commuting action (protocol.COMMUTING_ACTIONS): a
    #: ``ready`` (choose, draw, declare, rebuy) based on any version from here on is not stale. None: not
    #: known (a restored room), so every action needs the current version until the next such change.
    settled_version: int | None = None
    #: seat -> the version its newest commuting action became (since ``settled_version``; memory only)
    answered: dict[str, int] = field(default_factory=dict)
    views: D.ViewCache = field(default_factory=D.ViewCache)  # the current version's views (delta bases)
    pre: pre.PreActions = field(default_factory=pre.PreActions)  # pre-actions per seat (room/preactions.py)
    social: talk.Social = field(default_factory=talk.Social)  # host's chat/reaction settings (stored)
    throttle: talk.Throttle = field(default_factory=talk.Throttle)  # reactions per sender (memory only)
    #: this process's fencing token for the room (a cluster node's ownership; never stored in ``meta``).
    #: None on a single node. ``RoomWriter`` hands every store write of the room to ``_store_op`` with it.
    fence: int | None = None

    @property
    def game_state(self) -> State:
        """The game's state, once a game has been set up (callers have checked that one has)."""
        assert self.state is not None, "no game in this room"
        return self.state

    def meta(self) -> dict[str, Any]:
        """Everything but the engine state and the finished hands (stored in their own rows)."""
        return {"code": self.code, "options": self.options_json, "members": [m.to_json() for m in
                self.members.values()], "hostId": self.host_id, "phase": self.phase, "gameNo": self.game_no,
                "nextSeq": self.next_seq, "gamePlayers": self.game_players, "result": self.result,
                "createdMs": self.created_ms, "handSeq": self.hand_seq,
                "recorder": self.recorder_json, "preActions": self.pre.to_json(),
                "social": self.social.to_json()}

    def note_change(self, action: dict[str, Any] | None, version: int, player_id: str | None = None) -> None:
        """A change became ``version`` (stored): unless it was a commuting action, it settles the table."""
        if not P.commutes(action):
            self.settled_version = version
            self.answered.clear()
        elif player_id is not None:
            self.answered[player_id] = version

    def is_current(self, version: int, action: dict[str, Any] | None, player_id: str | None = None) -> bool:
        """May an action based on ``version`` be applied now? The current version always; an older one only
        for a commuting action with nothing but commuting actions applied since, none of them the sender's
        own (docs/protocol.md §2.1): a seat that has not yet seen its own answer applied is sending a
        duplicate decided on the same old view, which stays stale as before."""
        if version == self.version:
            return True
        settled = self.settled_version
        return (P.commutes(action) and settled is not None and settled <= version < self.version
                and self.answered.get(player_id or "", -1) <= version)

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


class RoomsBase:
    """The services and in-memory tables shared by the parts of :class:`~pokerroom.server.room.rooms.Rooms`
    (declared here so each part type-checks on its own; ``Rooms.__init__`` sets them)."""

    engine: GameEngine
    store: Store
    clock: Clock
    limits: Limits
    idle_close_s: float
    reap_interval_s: float
    bot_delay_ms: int
    decider: ActionFn
    recommender: ActionFn | None
    rooms: dict[str, Room]
    on_commit: CommitHook | None
    observe_commit: Callable[[str, float], None] | None  # metrics.Metrics.committed (row kind, seconds)
    on_close: Callable[[str], None] | None
    change_ms: deque[float]
    quarantined: set[str]
    _reaper: asyncio.Task[None] | None
    _writer: GroupWriter
    _tasks: set[asyncio.Task[None]]
    _failures: dict[str, int]
    _history_cache: OrderedDict[tuple[str, str | None], tuple[tuple[int, int], str]]
