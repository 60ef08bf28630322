"""What every room store shares: the stored shapes, the errors, the prepared operations and the interface.

Why one module: the room writer (and the group-commit thread) must not care whether rooms live in the
embedded SQLite file (one process) or in PostgreSQL (a cluster of nodes). Both backends take the same
*prepared operations* (plain tuples, serialised on the event loop so the writer thread does little Python
work), apply them with the same semantics, and pass the same tests (``tests/storage``).

A prepared operation is ``(kind, args)``:

- ``("save", (room, row, hands, prune, fence))``: upsert the room's snapshot ``room`` =
  ``(code, meta_json, state, version, now_ms, snapshot_version, fence_or_0)``, append its log row ``row``
  (or ``None``), upsert finished ``hands`` ``((code, seq, data_json), ...)`` and delete hands up to
  ``prune`` = ``(code, seq)`` (or ``None``). The snapshot's metadata holds the room's pre-actions, so it
  also drops the room's ``preactions`` row;
- ``("log", (row, fence, pre, hands))``: append one action-log row ``(code, version, kind, player_id,
  client_msg_id, action_json, at_ms)``; ``pre`` = ``(code, pre_json)`` (or ``None``) when the change also
  changed the room's pre-actions, and ``hands`` (as in a save, usually empty) the finished hand it amended
  (a winner showed their cards), upserted in the same transaction;
- ``("pre", (pre, fence))``: upsert the room's pre-actions ``pre`` = ``(code, pre_json)`` alone (a player
  chose or cleared one: no version, no state);
- ``("delete", (code,))`` or ``("delete", (code, fence))``: forget the room. A room that ever had a token
  leaves a *tombstone* (``fences`` table: code, token and when) so a stale owner's later write is still
  refused; tombstones older than :data:`TOMBSTONE_KEPT_MS` are pruned by the next delete.

Why pre-actions have a row of their own (issue 13: a write proportional to the change, a snapshot at most
once per hand): they are the room's, not the engine's, so a log row cannot recompute them, and the
snapshot's metadata carries the hand recorder as of the snapshot, so it cannot be rewritten mid-hand. The
``preactions`` row, when there is one, is newer than the snapshot's ``meta["preActions"]``.

**Fencing**: ``fence`` is the writer's fencing token (``None``: a single node, no check). A
room's stored token only grows (:meth:`RoomStore.claim`, or a save carrying a newer token). A batch
commits every operation of every room whose token is current, and then raises :class:`Fenced` naming the
rooms whose writer carried an older token: nothing of those rooms was written.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import orjson

log = logging.getLogger("pokerroom.server")

#: finished hands kept per room, in the store and in the room's archive: a whole night at a fast table
#: (about 100 hands an hour for 10 hours), so no hand of the night is lost (decision 0044)
HANDS_KEPT = 1000

#: how long a deleted room's tombstone refuses its stale owner's writes (a week); a delete prunes the older
#: ones. Why a week: a write that outlives its owner's lease is one prepared before a pause (SIGSTOP, a frozen
#: VM) and sent after it; a lease lasts seconds, and a node paused for a week that then writes to a room
#: closed a week ago at worst brings that room back empty of players, and the idle reaper closes it again
#: (decision 0054). Without a horizon the table grew by a row per room ever closed.
TOMBSTONE_KEPT_MS = 7 * 24 * 3600 * 1000

Op = tuple[str, tuple[Any, ...]]


@dataclass(frozen=True)
class LogRow:
    """One accepted change: what, by whom, and the client's message id (for duplicate detection)."""

    version: int
    kind: str  # "action" | "timeout" | "bot" | "preaction" | "start" | "leave" | "join" (a seat) | "clock"
    player_id: str | None
    client_msg_id: str | None
    action: dict[str, Any] | None
    at_ms: int


@dataclass(frozen=True)
class StoredRoom:
    """A room as stored: its last snapshot (``state`` belongs to ``version``) and the log rows after it,
    oldest first, which the room server re-applies to reach the room's newest version. ``fence``: the
    room's stored fencing token (0 when no node ever claimed it). ``pre``: the room's pre-actions as its
    newest change left them, when they changed after the snapshot (else ``meta["preActions"]`` holds them)."""

    code: str
    meta: dict[str, Any]
    state: str | None
    version: int
    updated_ms: int
    replay: tuple[LogRow, ...] = ()
    fence: int = 0
    pre: dict[str, Any] | None = None

    @property
    def pre_actions(self) -> dict[str, Any] | None:
        """The room's pre-actions (``PreActions.to_json()``), from their own row or the snapshot."""
        return self.pre if self.pre is not None else self.meta.get("preActions")

    @property
    def newest_version(self) -> int:
        return self.replay[-1].version if self.replay else self.version

    @property
    def newest_ms(self) -> int:
        return max([self.updated_ms, *(row.at_ms for row in self.replay)])


class StoreError(Exception):
    """The store cannot be used (a damaged file, an unreachable database); the message says what to do."""


class StoreUnavailable(StoreError):
    """The database did not answer in time or the connection broke; the next batch reconnects."""


class Fenced(StoreError):
    """Writes refused because their fencing token is older than the room's: another node owns the room."""

    def __init__(self, codes: frozenset[str]) -> None:
        super().__init__(f"writes refused by a newer owner's fencing token: {', '.join(sorted(codes))}")
        self.codes = codes


def dumps(value: Any) -> str:
    """Compact JSON, as both backends store it."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def log_params(code: str, row: LogRow) -> tuple[Any, ...]:
    """The ``actions`` row of ``row``. Built on the event loop for every action (issue 13): the action is
    encoded by orjson (compact UTF-8, read back by ``json.loads``); the standard library's encoder with
    custom separators cost several times more for these few bytes."""
    action: str | None = None
    if row.action is not None:
        try:
            action = orjson.dumps(row.action).decode()
        except TypeError:  # orjson.JSONEncodeError: e.g. an int beyond 64 bits, which json still writes
            action = json.dumps(row.action, separators=(",", ":"))
    return (code, row.version, row.kind, row.player_id, row.client_msg_id, action, row.at_ms)


def prepare_save(code: str, meta: dict[str, Any], state: str | None, version: int, now_ms: int,
                 log: LogRow | None = None, hands: list[tuple[int, dict[str, Any]]] | None = None,
                 fence: int | None = None) -> Op:
    """The ``("save", ...)`` operation (see the module docstring). ``hands`` are finished hands
    ``(seq, record)`` stored with this change; only the newest :data:`HANDS_KEPT` per room stay."""
    room = (code, dumps(meta), state, version, now_ms, version, 0 if fence is None else fence)
    row = None if log is None else log_params(code, log)
    stored = tuple((code, seq, dumps(record)) for seq, record in hands or ())
    prune = (code, max(seq for seq, _ in hands) - HANDS_KEPT) if hands else None
    return ("save", (room, row, stored, prune, fence))


def prepare_log(code: str, log: LogRow, fence: int | None = None, pre: dict[str, Any] | None = None,
                hands: list[tuple[int, dict[str, Any]]] | None = None) -> Op:
    """The ``("log", ...)`` operation: a change stored as its action-log row alone (the room's snapshot
    stays as it is; loading re-applies the row), with the room's pre-actions when it changed them and the
    finished hand it amended, if any (``(seq, record)``: the hand's row is replaced)."""
    return ("log", (log_params(code, log), fence, None if pre is None else (code, dumps(pre)),
                    tuple((code, seq, dumps(record)) for seq, record in hands or ())))


def prepare_pre(code: str, pre: dict[str, Any], fence: int | None = None) -> Op:
    """The ``("pre", ...)`` operation: the room's pre-actions alone (``PreActions.to_json()``)."""
    return ("pre", ((code, dumps(pre)), fence))


def op_code(op: Op) -> str:
    """The room an operation writes."""
    kind, args = op
    if kind in ("save", "log", "pre"):
        return str(args[0][0])
    if kind == "delete":
        return str(args[0])
    raise ValueError(f"unknown store operation {kind!r}")


def op_fence(op: Op) -> int | None:
    """The fencing token an operation carries (``None``: unchecked)."""
    kind, args = op
    if kind == "save":
        return args[4] if len(args) > 4 else None
    if kind in ("log", "pre", "delete"):
        return args[1] if len(args) > 1 else None
    raise ValueError(f"unknown store operation {kind!r}")


def fenced_codes(ops: Iterable[Op]) -> list[str]:
    """The rooms (sorted, so rows are locked in one order on every node) whose operations carry a token."""
    return sorted({op_code(op) for op in ops if op_fence(op) is not None})


def refused(ops: Iterable[Op], stored: dict[str, int]) -> frozenset[str]:
    """Rooms with an operation whose token is older than the room's stored token. ``stored`` holds the token
    of each room's row, or of its tombstone if it was deleted (so a paused old owner cannot bring a closed
    room back). A room never stored has no token, so nothing refuses its writes (a new room is created by a
    save carrying its token)."""
    out: set[str] = set()
    for op in ops:
        fence = op_fence(op)
        code = op_code(op)
        if fence is not None and fence < stored.get(code, fence):
            out.add(code)
    return frozenset(out)


def without_refused(ops: list[Op], stored: dict[str, int]) -> tuple[list[Op], frozenset[str]]:
    """``ops`` less every operation of the rooms :func:`refused` names (nothing of a fenced room is written),
    and those rooms."""
    codes = refused(ops, stored)
    if codes:
        ops = [op for op in ops if op_code(op) not in codes]
    return ops, codes


def only_saves_and_logs(ops: list[Op]) -> bool:
    """No ``delete`` among ``ops``: they can go as :func:`grouped` ``executemany`` calls."""
    return all(kind in ("save", "log", "pre") for kind, _ in ops)


@dataclass
class Grouped:
    """Saves, logs and pre-action writes split by table, for ``executemany``."""

    rooms: list[tuple[Any, ...]]
    rows: list[tuple[Any, ...]]
    hands: list[tuple[Any, ...]]
    prunes: list[tuple[Any, ...]]
    pre_set: list[tuple[Any, ...]]  # (code, pre_json): upserted
    pre_drop: list[tuple[Any, ...]]  # (code,): deleted (a snapshot's metadata holds them)


def grouped(ops: list[Op]) -> Grouped:
    """Saves, logs and pre-action writes split by table. Snapshots go before every log row: a room's rows
    never precede its snapshot within a batch either, since a snapshot's version is newer than any earlier
    row. A room's ``preactions`` row ends as the room's last operation in ``ops`` leaves it (a snapshot
    drops it, a log or pre write sets it), whatever the order of the statements."""
    out = Grouped([], [], [], [], [], [])
    pre_last: dict[str, tuple[Any, ...] | None] = {}
    for kind, args in ops:
        if kind == "save":
            out.rooms.append(args[0])
            if args[1] is not None:
                out.rows.append(args[1])
            out.hands.extend(args[2])
            if args[3] is not None:
                out.prunes.append(args[3])
            pre_last[str(args[0][0])] = None
        elif kind == "pre":
            pre_last[str(args[0][0])] = args[0]
        else:
            out.rows.append(args[0])
            if len(args) > 2 and args[2] is not None:
                pre_last[str(args[2][0])] = args[2]
            if len(args) > 3:
                out.hands.extend(args[3])
    for code, pre in pre_last.items():
        if pre is None:
            out.pre_drop.append((code,))
        else:
            out.pre_set.append(pre)
    return out


def decode_pre(code: str, data: Any) -> dict[str, Any] | None:
    """A stored ``preactions`` row (text, bytes or parsed JSON; ``None``: no row), checked like the room
    row: damage raises, which quarantines the room."""
    if data is None:
        return None
    if isinstance(data, (bytes, bytearray, memoryview)):
        data = bytes(data).decode("utf-8")
    parsed = json.loads(data) if isinstance(data, str) else data
    if not isinstance(parsed, dict):
        raise ValueError(f"room {code}: its pre-actions are not an object")
    return parsed


def decode_room(code: str, meta: Any, state: Any, version: Any, updated_ms: Any) -> tuple[
        dict[str, Any], str | None, int, int]:
    """A stored room row, checked: raises on any damage (bad JSON, invalid UTF-8, a wrong type), which
    quarantines that room only. ``meta`` may be bytes or text (JSON), or already parsed."""
    if isinstance(meta, (bytes, bytearray, memoryview)):
        meta = bytes(meta).decode("utf-8")
    data = json.loads(meta) if isinstance(meta, str) else meta
    if not isinstance(data, dict) or not isinstance(version, int) or not isinstance(updated_ms, int):
        raise ValueError(f"room {code}: not a room row")
    if isinstance(state, (bytes, bytearray, memoryview)):
        state = bytes(state).decode("utf-8")
    if state is not None and not isinstance(state, str):
        raise ValueError(f"room {code}: state is not text")
    return data, state, version, updated_ms


def decode_stored(code: str, row: Sequence[Any], log_after: Callable[[int], Iterable[LogRow]]) -> StoredRoom:
    """A stored room: ``row`` = (meta, state, snapshot version, updated ms, fence, pre-actions) as both
    backends select it, checked by :func:`decode_room` and :func:`decode_pre` (damage raises), with the log
    rows after its snapshot version (``log_after(version)``)."""
    meta, state, version, updated_ms = decode_room(code, *row[:4])
    return StoredRoom(code, meta, state, version, updated_ms, tuple(log_after(version)), int(row[4]),
                      decode_pre(code, row[5]))


def quarantine(damaged: list[str], code: str, exc: BaseException) -> None:
    """A room whose stored row cannot be read: logged, its code kept in the store's ``damaged`` list (the
    server answers 404 for it), the row itself left untouched in the store."""
    log.error("room %s: its stored row is damaged (%s); it stays in the store, quarantined",
              code, type(exc).__name__)
    if code not in damaged:
        damaged.append(code)


def log_row(version: int, kind: str, player: str | None, cmid: str | None, action: Any, at_ms: int) -> LogRow:
    """A stored action-log row (``action`` as JSON text or already parsed)."""
    parsed = json.loads(action) if isinstance(action, str) else action
    return LogRow(version, kind, player, cmid, parsed, at_ms)


class PreparedOps:
    """The prepared-operation builders as static methods of a store class (``Store.prepare_save(...)``)."""

    @staticmethod
    def prepare_save(code: str, meta: dict[str, Any], state: str | None, version: int, now_ms: int,
                     log: LogRow | None = None, hands: list[tuple[int, dict[str, Any]]] | None = None,
                     fence: int | None = None) -> Op:
        return prepare_save(code, meta, state, version, now_ms, log, hands, fence)

    @staticmethod
    def prepare_log(code: str, log: LogRow, fence: int | None = None, pre: dict[str, Any] | None = None,
                    hands: list[tuple[int, dict[str, Any]]] | None = None) -> Op:
        return prepare_log(code, log, fence, pre, hands)

    @staticmethod
    def prepare_pre(code: str, pre: dict[str, Any], fence: int | None = None) -> Op:
        return prepare_pre(code, pre, fence)


class RoomStore(Protocol):
    """What the room server and the cluster node need from a store (SQLite :class:`~.sqlite.Store` or
    PostgreSQL :class:`~.postgres.PgStore`)."""

    damaged: list[str]  # codes of rooms whose stored row could not be read (quarantined)
    tombstone_kept_ms: int  # how long a deleted room's token refuses writes (:data:`TOMBSTONE_KEPT_MS`)

    @staticmethod
    def prepare_save(code: str, meta: dict[str, Any], state: str | None, version: int, now_ms: int,
                     log: LogRow | None = None, hands: list[tuple[int, dict[str, Any]]] | None = None,
                     fence: int | None = None) -> Op: ...

    @staticmethod
    def prepare_log(code: str, log: LogRow, fence: int | None = None, pre: dict[str, Any] | None = None,
                    hands: list[tuple[int, dict[str, Any]]] | None = None) -> Op: ...

    @staticmethod
    def prepare_pre(code: str, pre: dict[str, Any], fence: int | None = None) -> Op: ...

    def apply_batch(self, ops: list[Op]) -> None:
        """Apply prepared operations in one transaction; raise :class:`Fenced` after committing the rest."""

    def claim(self, code: str, token: int) -> bool:
        """Raise the room's stored fencing token to ``token`` if it is newer (True); False otherwise, and
        for a room without a row (nothing to claim: a new room is created by a save carrying its token)."""

    def load(self, code: str) -> StoredRoom | None:
        """One room (snapshot + log rows after it), or None if absent or damaged (then in ``damaged``)."""

    def load_all(self) -> list[StoredRoom]: ...

    def codes(self) -> list[str]: ...

    def has(self, code: str) -> bool:
        """Is there a stored room ``code`` (damaged or not)? One indexed read, where ``code in codes()``
        lists every room."""

    def hands(self, code: str) -> list[tuple[int, dict[str, Any]]]: ...

    def recent_acks(self, code: str, limit: int = 512) -> list[tuple[str, str, int]]: ...

    def log(self, code: str, after: int = -1) -> list[LogRow]: ...

    def close(self) -> None: ...
