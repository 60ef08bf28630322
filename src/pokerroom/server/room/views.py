"""What each socket of a room is sent: its own view, lobby and broadcast frames, the hand history.

Why a module of its own: this is where secrecy is decided at the room's level. The engine's
``view(state, viewer)`` decides what a seat may see; this part hands each socket the view of exactly its
own seat (spectators and not-yet-seated members get ``view(state, None)``) and puts nothing else secret in
any frame; the room's ledger (room/ledger.py) is public: one frame for everyone, sent when it changed. It
never changes a room: the driver (``driver``) swaps a stored change in, then calls :meth:`RoomViews.publish`.
A part held by the rooms, given only the engine, the clock and the hint function.
"""

from __future__ import annotations

import functools
import logging
from typing import TYPE_CHECKING, Any

from pokerroom.server.room import bans
from pokerroom.server.room import preactions as pre
from pokerroom.server.room.botseat import legal_actions
from pokerroom.server.room.ledger_figures import ledger_json
from pokerroom.server.room.model import Connection, Room
from pokerroom.server.room.pasthands import PastHands
from pokerroom.server.wire import deltas as D
from pokerroom.server.wire import protocol as P

if TYPE_CHECKING:
    from pokerroom.server.engine_port import GameEngine
    from pokerroom.server.room.botseat import ActionFn
    from pokerroom.server.room.timers import Clock
    from pokerroom.server.storage import LogRow

log = logging.getLogger("pokerroom.server")

class RoomViews:
    """Views, snapshots, broadcasts and history answers of the rooms (read-only on every room).
    ``recommender``: the hint function (None: no hints), read at each view so it may be set later."""

    def __init__(self, engine: GameEngine, clock: Clock, recommender: ActionFn | None) -> None:
        self.engine = engine
        self.clock = clock
        self.recommender = recommender
        self.past = PastHands()  # the answers to ``history``, cached
        self._building_others = False  # (the other seats' views for a hint: their hints ask for none)

    def forget(self, code: str) -> None:
        """Drop what is kept of a room this process no longer serves (its cached history answers)."""
        self.past.forget(code)

    def publish(self, room: Room, row: LogRow, events: list[dict[str, Any]], sender: Connection | None,
                result: dict[str, Any] | None) -> None:
        """The frames of a stored change, to every socket of the room: its own view (or delta), the events
        for sockets without deltas, the sender's ack, and the result of a game that ended."""
        version = row.version
        events_text = None  # the separate events frame, for sockets without deltas (delta sockets: folded)
        frames = D.FrameBuilder(room.views, version, self.clock.now_ms(),
                                functools.partial(self.view, room), functools.partial(self.seat_part, room),
                                events=events)
        ack_id = row.client_msg_id if sender is not None else None
        for conn in list(room.connections):
            if events and not conn.deltas:
                if events_text is None:
                    events_text = P.dumps(P.events_msg(version, events))
                conn.send(events_text)
            conn.send(frames.text_for(conn, self.viewer(room, conn), ack_id if conn is sender else None))
        if sender is not None and row.client_msg_id is not None and not (
                sender.deltas and sender in room.connections):  # else the ack rode on its view frame
            sender.send(P.dumps(P.ack_msg(row.client_msg_id, version)))
        if result is not None:
            self.broadcast(room, P.dumps(P.result_msg(version, result)))
            self.broadcast_lobby(room)
        self.publish_ledger(room)

    def publish_ledger(self, room: Room) -> None:
        """The room's ledger to every socket, when this change altered it (a hand ended, a rebuy, a seat
        joined, a game started): most changes inside a hand leave its settled figures as they were."""
        current = ledger_json(room.table, self.engine)
        if current is None or current == room.ledger_sent:
            return
        room.ledger_sent = current
        self.broadcast(room, P.dumps(P.ledger_msg(room.version, current)))

    def send_views_to(self, room: Room, pid: str) -> None:
        """A fresh view (same version) to every socket of one seat, after a change only that seat sees."""
        view = self.current_view(room, pid)  # same version: the cached view (and hint)
        text = P.dumps(P.view_msg(room.version, view, self.clock.now_ms(), self.seat_part(room, view, pid)))
        for c in list(room.connections):
            if c.player_id == pid and self.viewer(room, c) == pid:
                c.send(text)
                c.view_version, c.view_viewer = room.version, pid  # a whole view: the delta base

    def viewer(self, room: Room, conn: Connection) -> str | None:
        pid = conn.player_id
        return pid if pid is not None and pid in room.game_players else None

    def view(self, room: Room, viewer: str | None) -> dict[str, Any]:
        view = self.engine.view(room.game_state, viewer)
        if viewer is not None and self.recommender is not None and room.options_json.get("hints"):
            me = view.get("me")
            # (most views of a change offer nothing: read the list before filtering it)
            if isinstance(me, dict) and me.get("legalActions") and legal_actions(view):
                try:
                    me["hint"] = self.hint(room, viewer, view)
                except Exception:
                    log.exception("hint failed")
        return view

    def hint(self, room: Room, viewer: str, view: dict[str, Any]) -> Any:
        """The seat's hint. A hint function that may price a street for every seat at once
        (``hint_with_others``, e.g. :class:`pokerroom.bots.hint_prefetch.Hints`) is also told how to get
        the views of this change that the other seated players' own sockets are sent anyway: each is built
        through the room's cache of this version, so it is built once, for its own seat, as it would be a
        moment later, and only if the hint asks (its street not priced yet)."""
        if self.recommender is None:
            return None
        with_others = getattr(self.recommender, "hint_with_others", None)
        if with_others is None or self._building_others:
            return self.recommender(view)

        def others() -> list[dict[str, Any]]:
            seated = {self.viewer(room, c) for c in room.connections} - {None, viewer}
            self._building_others = True
            try:
                return [room.views.get(room.views.version, pid, functools.partial(self.view, room))
                        for pid in sorted(p for p in seated if p is not None)]
            except Exception:  # (the seat's own hint does not depend on the others)
                log.exception("the other seats' views for a hint failed")
                return []
            finally:
                self._building_others = False

        return with_others(view, others)

    def seat_part(self, room: Room, view: dict[str, Any], viewer: str | None) -> dict[str, Any] | None:
        """The room's own per-seat part of a view frame (``seat``, docs/protocol.md §2.6); None for others."""
        return pre.seat_part(view, room.pre, viewer)

    def current_view(self, room: Room, viewer: str | None) -> dict[str, Any]:
        """The view (hint included) of the room's current version, built once per (version, viewer)."""
        return room.views.get(room.version, viewer, functools.partial(self.view, room))

    def send_view(self, room: Room, conn: Connection) -> None:
        """A full ``view`` of the current version (snapshot, ``resync``): the socket's new delta base."""
        if room.state is None:
            return
        viewer = self.viewer(room, conn)
        view = self.current_view(room, viewer)
        seat = self.seat_part(room, view, viewer)
        conn.send(P.dumps(P.view_msg(room.version, view, self.clock.now_ms(), seat)))
        conn.view_version, conn.view_viewer = room.version, viewer

    def send_snapshot(self, room: Room, conn: Connection) -> None:
        self.send_view(room, conn)
        if room.result is not None and room.phase == "finished":
            conn.send(P.dumps(P.result_msg(room.version, room.result)))
        current = ledger_json(room.table, self.engine)
        if current is not None:
            conn.send(P.dumps(P.ledger_msg(room.version, current)))

    def broadcast(self, room: Room, text: str) -> None:
        for conn in list(room.connections):
            conn.send(text)

    def broadcast_lobby(self, room: Room) -> None:
        """Everyone's ``lobby``; the host's also lists who they kicked (``bans``: id and nickname only)."""
        info = {"type": "lobby", **room.public_info()}
        text = P.dumps(info)
        host_text: str | None = None
        for conn in list(room.connections):
            if conn.role == "player" and conn.player_id is not None and conn.player_id == room.host_id:
                if host_text is None:
                    host_text = P.dumps({**info, "bans": bans.host_list(room)})
                conn.send(host_text)
            else:
                conn.send(text)

    def send_history(self, room: Room, conn: Connection, msg: P.History | None = None) -> None:
        """A page of the room's past hands or one hand's replay, as this connection may see them: public
        information plus, for a player of the hand, that player's own cards (room/pasthands.py)."""
        self.past.answer(room, conn, msg or P.History(type="history"))

    def answer_history(self, room: Room, conn: Connection, msg: P.History | None = None) -> None:
        """``history``, after ``hello`` and at the connection's own low rate (``history_rate`` otherwise)."""
        if room.closed:
            return
        if conn.role == "none":
            conn.send(P.dumps(P.error_msg("hello_first", P.MESSAGES["hello_first"])))
        elif not conn.allow_history():
            conn.send(P.dumps(P.error_msg("history_rate", P.MESSAGES["history_rate"])))
        else:
            self.send_history(room, conn, msg)
