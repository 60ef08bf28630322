"""Feeding one change of a room's game to its hand recorder, and what that yields (finished hands).

Why a module of its own: the recorder (``pokerroom.history``) records in place, so this is the one step of
computing a change that changes something before the change is stored; it is kept apart from the pure
plan (``plan``), which takes its outcome as a value. Copying the recorder for every action would cost
more than the rest of the change, so instead a change whose write is refused has the room's recorder
rebuilt from its table's ``recorder_json`` (``driver``). A restore replays log rows through the same
function, so a replay records exactly what the live room recorded.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from pokerroom.server.room.model import FinishedHand, Table

if TYPE_CHECKING:
    from pokerroom.engine import State
    from pokerroom.history import HistoryRecorder
    from pokerroom.server.engine_port import GameEngine

log = logging.getLogger("pokerroom.server")


@dataclass(frozen=True, slots=True)
class Recorded:
    """What one change did to the hand recording: the hands it finished, the new count and recorder value."""

    finished: list[FinishedHand]
    hand_seq: int
    recorder_json: dict[str, Any] | None


def record(engine: GameEngine, table: Table, state: State, events: list[dict[str, Any]] | Literal["begin"],
           version: int, rec: HistoryRecorder | None, last: FinishedHand | None) -> Recorded:
    """Feed one change to the hand recorder ``rec`` (the room's live one, or a start's new one); returns
    the hands it finished (numbered from ``table``'s count; the caller keeps them once stored) and the
    recorder's new value. ``events``: the change's events, or ``"begin"`` to record a game's start from
    the view; ``last``: the room's newest finished hand (a winner's show amends it). Recording never stops
    a game: if it fails, this game is not recorded."""
    if rec is None or not events:
        return Recorded([], table.hand_seq, table.recorder_json if rec is not None else None)

    def view_of(viewer: str | None) -> dict[str, Any]:
        return engine.view(state, viewer)

    try:
        if events == "begin":
            rec.begin(view_of)
        else:
            rec.observe(events, view_of)
    except Exception:
        log.exception("room %s: hand recording failed; this game is not recorded", table.code)
        return Recorded([], table.hand_seq, None)
    finished: list[FinishedHand] = []
    if rec.amended is not None:
        same = last is not None and last.record.hand_no == rec.amended.hand_no
        if last is not None and same and last.game_no == table.game_no:
            # the same seq, re-stored; its version is now the change that showed the cards
            finished.append(FinishedHand(last.seq, last.game_no, version, rec.amended))
        rec.amended = None
    hand_seq = table.hand_seq
    for hand in rec.hands:
        hand_seq += 1
        finished.append(FinishedHand(hand_seq, table.game_no, version, hand))
    rec.hands.clear()  # the room keeps the finished hands (room.keep_hand), not the recorder
    return Recorded(finished, hand_seq, rec.to_json())
