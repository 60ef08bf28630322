"""The answers to ``history`` (docs/protocol.md §2.4): pages of the room's past hands and single replays.

Why a module of its own: what each socket may see of a finished hand is the history's whitelist
(``pokerroom.history.for_viewer`` for the list, ``pokerroom.history.frames`` for the replay); this part
decides *who* the viewer is (a player of the room sees their own cards of the hands they played; a
spectator, or a member who did not play that hand, sees what a spectator saw), reads the hands from the
room's archive (every hand of the night) and keeps each encoded answer per (room, viewer, question) until
the hand, or the list, changes: an answer is 10-50 KB of JSON, and a room's spectators share one string.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import TYPE_CHECKING, Any

from pokerroom.history import for_viewer
from pokerroom.server.room.model import Connection, FinishedHand, Room
from pokerroom.server.wire import protocol as P
from pokerroom.server.wire import replays

if TYPE_CHECKING:
    from collections.abc import Callable

PAGE = 10  # hands per page of the list (the newest page is what the list showed before it had pages)
HISTORY_CACHE = 256  # encoded answers kept, all rooms together (least recently used go first)

Key = tuple[str, str | None, str, int | None]  # (room, viewer, "page" | "hand", before | seq)


def viewer_of(conn: Connection) -> str | None:
    """Whose cards this socket may see: a player's own (of the hands they played), a spectator's none."""
    return conn.player_id if conn.role == "player" else None


def names_of(room: Room) -> dict[str, str]:
    return {pid: m.nickname for pid, m in room.members.items()}


class PastHands:
    """Answers ``history`` messages from the rooms' archives, each encoded answer cached until it changes."""

    def __init__(self) -> None:
        self._cache: OrderedDict[Key, tuple[Any, str]] = OrderedDict()

    def forget(self, code: str) -> None:
        for key in [k for k in self._cache if k[0] == code]:
            del self._cache[key]

    def _cached(self, key: Key, stamp: Any, build: Callable[[], dict[str, Any]]) -> str:
        hit = self._cache.get(key)
        if hit is not None and hit[0] == stamp:
            self._cache.move_to_end(key)
            return hit[1]
        text = P.dumps(build())
        self._cache[key] = (stamp, text)
        while len(self._cache) > HISTORY_CACHE:
            self._cache.popitem(last=False)
        return text

    def answer(self, room: Room, conn: Connection, msg: P.History) -> None:
        viewer = viewer_of(conn)
        if msg.hand is not None:
            seq = msg.hand
            version = room.archive.version(seq)
            if version is None:
                conn.send(P.dumps(P.error_msg("no_such_hand", P.MESSAGES["no_such_hand"])))
                return
            conn.send(self._cached((room.code, viewer, "hand", seq), version,
                                   lambda: self._replay(room, seq, viewer)))
            return
        before = msg.before
        conn.send(self._cached((room.code, viewer, "page", before), room.archive.changes,
                               lambda: self._page(room, before, viewer)))

    def _page(self, room: Room, before: int | None, viewer: str | None) -> dict[str, Any]:
        stored, more = room.archive.page(before, PAGE)
        hands = []
        for seq, data in stored:
            hand = FinishedHand.from_json(seq, data)
            hands.append({"seq": seq, "gameNo": hand.game_no, "version": hand.version,
                          **for_viewer(hand.record, viewer)})
        return P.history_msg(hands, before, more)

    def _replay(self, room: Room, seq: int, viewer: str | None) -> dict[str, Any]:
        data = room.archive.get(seq)
        assert data is not None  # its version was just read
        hand = FinishedHand.from_json(seq, data)
        return P.replay_msg(replays.replay(hand.record, viewer, names_of(room), seq=seq, gameNo=hand.game_no,
                                           version=hand.version))
