"""A hand's replay as it goes over the wire: its first view whole, then each step as a view delta.

Why a module of its own: a replay is a list of views (``pokerroom.history.frames``), ~3-8 KB each, and a
hand has 10-40 steps; consecutive steps differ in a seat or two, so each step after the first is sent as
the same ``viewDelta`` shape the live table already applies (:mod:`.deltas`, docs/protocol.md §2.8) — a
hand's replay is ~10-20 KB instead of ~100-300 KB. The frames are built per viewer by the history's
whitelist, so every delta carries only values of that viewer's own frames. The PHH text rides along where
PHH can say the hand (``pokerroom.history.phh``), written for the same viewer.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from typing import Any

from pokerroom.history import HandRecord
from pokerroom.history.equities import street_equity
from pokerroom.history.frames import replay_frames
from pokerroom.history.phh import phh_variant, to_phh, why_not
from pokerroom.history.phh_import import MAX_BYTES as PHH_MAX_BYTES
from pokerroom.history.phh_import import Imported, PhhError, import_phh
from pokerroom.server.wire import deltas as D
from pokerroom.server.wire import protocol as P

__all__ = ["PHH_MAX_BYTES", "PhhError", "from_phh", "imported", "replay"]

#: the chip amounts of a view and of its events (an imported hand's are integers of ``1/scale`` chips)
_CHIPS = frozenset(("stack", "committedRound", "committedTotal", "amount", "potTotal", "currentBet",
                    "baseUnit", "smallBlind", "to"))


def _chips(amount: int, scale: int) -> int | float:
    return amount // scale if amount % scale == 0 else amount / scale


def _unscale(value: Any, scale: int) -> Any:
    """``value`` with every chip amount divided by ``scale`` (ids are strings: an award's ``to`` stays)."""
    if isinstance(value, dict):
        return {k: (_chips(v, scale) if k in _CHIPS and type(v) is int else _unscale(v, scale))
                for k, v in value.items()}
    if isinstance(value, list):
        return [_unscale(v, scale) for v in value]
    return value


def replay(rec: HandRecord, viewer: str | None, names: Mapping[str, str], everyone: bool = False,
           **extra: Any) -> dict[str, Any]:
    """The replay of ``rec`` for ``viewer`` (a player id, None: a spectator; ``everyone``: a file's reader):
    ``first`` (the first step's view), ``deltas`` (each next step against the one before), ``steps`` (the
    event that ended each step, for its caption), ``phh`` (the hand as PHH text for this viewer, or None
    with the Korean reason in ``phhWhy``), ``equity`` (the shown hands' equity on each street, from the
    showdown's public cards: ``pokerroom.history.equities``). ``extra`` keys are added as they are."""
    frames = replay_frames(rec, viewer, everyone)
    scale = int((rec.phh or {}).get("scale") or 1)
    if scale > 1:
        frames = [_unscale(f, scale) for f in frames]
    views = [f["view"] for f in frames]
    deltas = [D.view_delta(a, b) for a, b in itertools.pairwise(views)]
    text = why = None
    if phh_variant(rec) is not None:
        try:
            text = to_phh(rec, viewer=viewer, everyone=everyone, names=names)
        except (ValueError, KeyError):  # a record this export cannot follow: say so rather than fail
            why = "이 판은 PHH로 적지 못했어요"
    else:
        why = why_not(rec)
    return {**extra, "handNo": rec.hand_no, "mode": rec.mode, "betting": rec.betting, "players": rec.order,
            "first": views[0] if views else None, "deltas": deltas, "steps": [f["step"] for f in frames],
            "phh": text, "phhWhy": why, "equity": street_equity(rec)}


def imported(done: Imported) -> dict[str, Any]:
    """An imported PHH hand's replay: every known card shown, the file's names, its own PHH text."""
    return {**replay(done.record, None, done.names, everyone=True, imported=True,
                     stacksAgree=done.stacks_agree), "names": done.names}


def from_phh(text: str) -> dict[str, Any]:
    """The replay message of a PHH file's hand (``PhhError``, in Korean, when it cannot be read)."""
    return P.replay_msg(imported(import_phh(text)))
