"""What a room is: its stored part as one value (``Table``), its members, sockets and finished hands.

Why a module of its own: these are plain data (plus the JSON they are stored as), shared by every part of
the room server (``plan``, ``driver``, ``views``, ``clock``, ``members``, ``handlers``, ``seating``,
``rooms``); keeping them apart from the code that changes them lets each part import them without importing
the others. A change never edits a ``Table``: it builds a new one (``plan``), and the driver swaps it in once
stored.
"""

from __future__ import annotations

import asyncio
import itertools
import unicodedata
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Literal

from pokerroom.history import HandRecord, HistoryRecorder
from pokerroom.server.edge.limits import Limits, TokenBucket
from pokerroom.server.room import preactions as pre
from pokerroom.server.room import reactions as talk
from pokerroom.server.room.archive import HandArchive
from pokerroom.server.room.ledger import Ledger
from pokerroom.server.room.timers import DeadlineTimer
from pokerroom.server.wire import deltas as D
from pokerroom.server.wire import protocol as P

if TYPE_CHECKING:
    from pokerroom.engine import PokerOptions, State

Phase = Literal["lobby", "playing", "finished"]
Status = Literal["seated", "waiting", "left"]
BotLevel = P.BotLevelName  # how a bot seat plays, chosen by the host
MAX_NICKNAME = 12
ACKS_KEPT = 256


HISTORY_STRIKES = 10  # history requests refused in a row before the socket counts as flooding
HANDS_RECENT = 10  # finished hands a room keeps as records (the newest; every hand is in its archive)


class Connection:
    """A room's handle on one socket. ``send``/``close`` must not block (the app queues them)."""

    _ids = itertools.count(1)

    def __init__(self) -> None:
        self.conn_id = next(Connection._ids)
        # the client (edge/clients.py: an address, an IPv6 /64) a rate that must not refill by opening another
        # socket is keyed by; None where no edge counted one (a socket relayed from another node: its own id)
        self.client_key: str | None = None
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


@dataclass(frozen=True, slots=True)
class Member:
    """A person (or bot) in a room. ``digest`` is the seat token's SHA-256, never the token."""

    id: str
    nickname: str
    digest: str | None
    bot: bool
    status: Status
    seq: int
    asking: bool = False  # waiting for the host's answer to a seat request (server.seating)
    level: BotLevel = "easy"  # a bot's play (pokerroom.bots levels), chosen by the host who added it

    def to_json(self) -> dict[str, Any]:
        data = {"id": self.id, "nickname": self.nickname, "digest": self.digest, "bot": self.bot,
                "status": self.status, "seq": self.seq, "asking": self.asking}
        if self.level != "easy":  # (stored only when chosen: every room stored before levels reads the same)
            data["level"] = self.level
        return data

    @staticmethod
    def from_json(data: dict[str, Any]) -> Member:
        return Member(data["id"], data["nickname"], data["digest"], data["bot"], data["status"], data["seq"],
                      bool(data.get("asking", False)), "normal" if data.get("level") == "normal" else "easy")


@dataclass(frozen=True, slots=True)
class Ban:
    """One member the host kicked (server/room/bans.py): ``id`` and ``nickname`` are what the host sees (and
    ``unban`` names); the seat token's digest and the client groups of the kicked sockets are what a new
    ``hello`` is checked against. Stored with the room, never sent to anyone."""

    id: str
    nickname: str
    digest: str | None
    clients: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "nickname": self.nickname, "digest": self.digest,
                "clients": list(self.clients)}

    @staticmethod
    def from_json(data: dict[str, Any]) -> Ban:
        return Ban(str(data["id"]), str(data["nickname"]), data.get("digest"),
                   tuple(str(c) for c in data.get("clients") or ()))


@dataclass(frozen=True, slots=True)
class Pause:
    """The host paused the game (server/room/hostlive.py): who, and the game time every clock stopped at."""

    by: str
    at_ms: int

    def to_json(self) -> dict[str, Any]:
        return {"by": self.by, "atMs": self.at_ms}

    @staticmethod
    def from_json(data: dict[str, Any] | None) -> Pause | None:
        return None if data is None else Pause(str(data["by"]), int(data["atMs"]))


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


@dataclass(frozen=True, slots=True)
class Table:
    """Everything of a room that is stored, as one value: a change builds a new ``Table`` (``evolve``) and
    the room's driver swaps it in once the store has it, so a refused write leaves the old value in place
    and there is nothing to put back. Its dicts and lists are never changed in place once the table is
    the room's (a change copies the one it alters); ``state`` is the engine's (never changed in place)."""

    code: str
    created_ms: int
    options: PokerOptions
    options_json: dict[str, Any]
    min_players: int
    max_players: int
    members: dict[str, Member] = field(default_factory=dict)
    host_id: str | None = None
    phase: Phase = "lobby"
    version: int = 0
    game_no: int = 0
    next_seq: int = 1
    state: State | None = None
    game_players: list[str] = field(default_factory=list)
    result: dict[str, Any] | None = None
    hand_seq: int = 0
    recorder_json: dict[str, Any] | None = None  # the hand recorder as of this version (None: not recording)
    pre: pre.PreActions = field(default_factory=pre.PreActions)  # pre-actions per seat (room/preactions.py)
    social: talk.Social = field(default_factory=talk.Social)  # host's chat/reaction settings
    bans: tuple[Ban, ...] = ()  # the members the host kicked and has not let back (room/bans.py)
    paused: Pause | None = None  # the host paused the game: no clock moves (room/hostlive.py)
    ledger: Ledger = field(default_factory=Ledger)  # the room's closed games, per player (room/ledger.py)

    @property
    def game_state(self) -> State:
        """The game's state, once a game has been set up (callers have checked that one has)."""
        assert self.state is not None, "no game in this room"
        return self.state

    def evolve(self, **changes: Any) -> Table:
        """This table with ``changes`` (the parts a change builds anew)."""
        return replace(self, **changes)

    def meta(self) -> dict[str, Any]:
        """Everything but the engine state and the finished hands (stored in their own rows)."""
        return {"code": self.code, "options": self.options_json, "members": [m.to_json() for m in
                self.members.values()], "hostId": self.host_id, "phase": self.phase, "gameNo": self.game_no,
                "nextSeq": self.next_seq, "gamePlayers": self.game_players, "result": self.result,
                "createdMs": self.created_ms, "handSeq": self.hand_seq,
                "recorder": self.recorder_json, "preActions": self.pre.to_json(),
                "social": self.social.to_json(), "bans": [b.to_json() for b in self.bans],
                **({} if self.paused is None else {"paused": self.paused.to_json()}),
                "ledger": self.ledger.to_json()}

    def with_member(self, member: Member) -> Table:
        """This table with ``member`` added or replaced (a new members dict)."""
        return replace(self, members={**self.members, member.id: member})

    def without_member(self, player_id: str) -> Table:
        return replace(self, members={k: m for k, m in self.members.items() if k != player_id})


class Room:
    """One room in memory: its stored part as one value (``table``, see :class:`Table`) and what lives
    only in this process (sockets, lock, timer, caches). The table's fields read through as attributes
    (``room.state``, ``room.members``, ...); only the room's driver replaces ``room.table``."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.code = table.code
        self.acks: dict[str, OrderedDict[str, int]] = {}
        self.connections: list[Connection] = []
        self.lock = asyncio.Lock()
        self.timer: DeadlineTimer | None = None
        self.bot_pending: set[str] = set()
        self.empty_since: float | None = None
        self.closed = False
        #: the live hand recorder of ``table.recorder_json`` (it records in place; rebuilt from the table's
        #: value when a change that fed it was not stored)
        self.recorder: HistoryRecorder | None = None
        self.hands: deque[FinishedHand] = deque(maxlen=HANDS_RECENT)
        self.archive = HandArchive()  # every hand of the night (compressed): the replayer's (room/archive.py)
        self.log_only = 0  # changes stored as log rows alone since the last snapshot
        #: the version of the newest change that was not a commuting action (protocol.COMMUTING_ACTIONS): a
        #: ``ready`` (choose, draw, declare, rebuy) based on any version from here on is not stale. None: not
        #: known (a restored room), so every action needs the current version until the next such change.
        self.settled_version: int | None = None
        #: seat -> the version its newest commuting action became (since ``settled_version``; memory only)
        self.answered: dict[str, int] = {}
        #: the version just before a run of clock resumes (a new owner giving back the time the room had no
        #: owner) with nothing else since: an action decided on it is as good after them. None: no such run.
        self.resumed_from: int | None = None
        self.views = D.ViewCache()  # the current version's views (delta bases)
        self.throttle = talk.Throttle()  # reactions per sender (memory only)
        #: the ledger last sent to the room's sockets (room/ledger.py; memory only: a new socket gets it
        #: whole in its snapshot)
        self.ledger_sent: dict[str, Any] | None = None
        #: this process's fencing token for the room (a cluster node's ownership; never stored in ``meta``).
        #: None on a single node.
        self.fence: int | None = None

    # the stored part, read through (a change builds a new table: see ``Table``)
    @property
    def created_ms(self) -> int:
        return self.table.created_ms

    @property
    def options(self) -> PokerOptions:
        return self.table.options

    @property
    def options_json(self) -> dict[str, Any]:
        return self.table.options_json

    @property
    def min_players(self) -> int:
        return self.table.min_players

    @property
    def max_players(self) -> int:
        return self.table.max_players

    @property
    def members(self) -> dict[str, Member]:
        return self.table.members

    @property
    def host_id(self) -> str | None:
        return self.table.host_id

    @property
    def phase(self) -> Phase:
        return self.table.phase

    @property
    def version(self) -> int:
        return self.table.version

    @property
    def game_no(self) -> int:
        return self.table.game_no

    @property
    def next_seq(self) -> int:
        return self.table.next_seq

    @property
    def state(self) -> State | None:
        return self.table.state

    @property
    def game_players(self) -> list[str]:
        return self.table.game_players

    @property
    def result(self) -> dict[str, Any] | None:
        return self.table.result

    @property
    def hand_seq(self) -> int:
        return self.table.hand_seq

    @property
    def recorder_json(self) -> dict[str, Any] | None:
        return self.table.recorder_json

    @property
    def pre(self) -> pre.PreActions:
        return self.table.pre

    @property
    def social(self) -> talk.Social:
        return self.table.social


    @property
    def game_state(self) -> State:
        """The game's state, once a game has been set up (callers have checked that one has)."""
        assert self.table.state is not None, "no game in this room"
        return self.table.state

    def meta(self) -> dict[str, Any]:
        return self.table.meta()

    def note_change(self, action: dict[str, Any] | None, version: int, player_id: str | None = None,
                    kind: str = "action") -> None:
        """A change of ``kind`` (a log row's) became ``version`` (stored): unless it was a commuting action,
        it settles the table."""
        if kind != "clock":
            self.resumed_from = None
        elif self.resumed_from is None:
            self.resumed_from = version - 1
        if not P.commutes(action):
            self.settled_version = version
            self.answered.clear()
        elif player_id is not None:
            self.answered[player_id] = version

    def keep_hand(self, done: FinishedHand) -> None:
        """A finished hand, stored: the newest records (``hands``, the last one replaced when ``done`` amends
        it: its winner showed their cards) and the night's archive."""
        if self.hands and self.hands[-1].seq == done.seq:
            self.hands[-1] = done
        else:
            self.hands.append(done)
        self.archive.put(done.seq, done.to_json())

    def remember_ack(self, pid: str, cmid: str, version: int) -> None:
        """A seat's client message ``cmid`` became ``version`` (its repeat is answered with that ack)."""
        seen = self.acks.setdefault(pid, OrderedDict())
        seen[cmid] = version
        while len(seen) > ACKS_KEPT:
            seen.popitem(last=False)

    def is_current(self, version: int, action: dict[str, Any] | None, player_id: str | None = None) -> bool:
        """May an action based on ``version`` be applied now? The current version always, and one that only
        clock resumes followed (a takeover or a restart moved the deadline later: nothing to decide changed,
        and the action sent just before the move is not lost to it); an older one otherwise only for a
        commuting action with nothing but commuting actions applied since, none of them the sender's own
        (docs/protocol.md §2.1): a seat that has not yet seen its own answer applied is sending a duplicate
        decided on the same old view, which stays stale as before."""
        if version == self.version:
            return True
        if self.resumed_from is not None and self.resumed_from <= version < self.version:
            return True
        settled = self.settled_version
        return (P.commutes(action) and settled is not None and settled <= version < self.version
                and self.answered.get(player_id or "", -1) <= version)

    def human_connected(self) -> bool:
        """Is a *player* connected? Spectators do not keep a room open: the idle close
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
             "host": m.id == self.host_id, "status": m.status, "asking": m.asking,
             **({"level": m.level} if m.bot else {})}
            for m in self.members.values()
        ]
        return {"code": self.code, "phase": self.phase, "hostId": self.host_id, "players": players,
                "spectators": self.spectator_count(), "options": self.options_json,
                "minPlayers": self.min_players, "maxPlayers": self.max_players, "gameNo": self.game_no,
                "social": self.social.to_json(), **self.pause_info()}

    def pause_info(self) -> dict[str, Any]:
        """``paused`` of the ``lobby`` frame while the host has the game paused (who did); else absent."""
        pause = self.table.paused
        if pause is None:
            return {}
        member = self.members.get(pause.by)
        return {"paused": {"by": pause.by, "nickname": member.nickname if member is not None else None}}


def clean_nickname(raw: str) -> str:
    """Trimmed, NFC-normalised nickname of 1..12 visible characters, or ``nickname_invalid``."""
    nick = unicodedata.normalize("NFC", raw).strip()
    if not 1 <= len(nick) <= MAX_NICKNAME or any(unicodedata.category(ch)[0] in "CZ" and ch != " "
                                                  for ch in nick):
        raise P.error("nickname_invalid")
    return nick


CommitHook = Callable[[Room, int, list[dict[str, Any]]], None]

