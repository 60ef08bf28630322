"""Bot players and hints: the hook between rooms and :mod:`pokerroom.bots`.

Why a hook: a room only needs two callables — ``decide(view) -> action | None`` for a bot's seat and
``recommend(view) -> action | None`` for a hint — both reading the same per-viewer view a human gets, so bots
never see more than a player would. Production rooms use :mod:`pokerroom.bots`; :func:`cautious_decide` is the
default for rooms built without a decider (the server's rules-free tests drive a stand-in engine whose views
the real bots do not read).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from pokerroom import bots

View = dict[str, Any]
ActionFn = Callable[[View], dict[str, Any] | None]


class Decider(Protocol):
    """A bot seat's brain: its action from its own view, at the level the host chose for it."""

    def __call__(self, view: View, level: bots.Level = "easy") -> dict[str, Any] | None: ...

_PREFERENCE = ("ready", "k.check", "nl.check", "k.call", "nl.call", "declare", "draw", "rebuy", "runTwice",
               "k.die", "nl.fold")


def legal_actions(view: View) -> list[dict[str, Any]]:
    """The viewer's legal decisions in a view (top level or under ``me``), [] when none. ``show`` (the
    optional gesture of an uncalled winner) is left out: nobody waits for it, and bots never show."""
    for holder in (view, view.get("me")):
        if isinstance(holder, dict):
            acts = holder.get("legalActions")
            if isinstance(acts, list) and acts:
                return [a for a in acts if isinstance(a, dict) and a.get("type") != "show"]
    return []


def cautious_decide(view: View, level: bots.Level = "easy") -> dict[str, Any] | None:
    """Fallback bot: the most passive legal action, or None (the timeout will act), at every level."""
    acts = legal_actions(view)
    by_type = {a.get("type"): a for a in acts}
    for kind in _PREFERENCE:
        if kind in by_type:
            if kind == "declare":
                return {"type": "declare", "side": "high"}
            if kind == "draw":
                return {"type": "draw", "cardIds": []}
            if kind in ("rebuy", "runTwice"):  # (no: the default of both decisions)
                return {"type": kind, "accept" if kind == "rebuy" else "agree": False}
            return {"type": kind}
    return None


def load_decider() -> Decider:
    """The bot brain of a room's bot seats: :func:`pokerroom.bots.decide`, at each bot's level."""
    return bots.decide


def load_recommender() -> ActionFn:
    """The hint under ``view.me.hint``: :func:`pokerroom.bots.recommend`, with the work a street's seats
    share (:class:`pokerroom.bots.hint_prefetch.Hints`)."""
    return bots.Hints()


@dataclass
class BotSeat:
    """One bot player in a room: it decides from its own view, through the same path as a human."""

    player_id: str
    decide: ActionFn

    def choose(self, view: View) -> dict[str, Any] | None:
        if not legal_actions(view):
            return None
        try:
            return self.decide(view)
        except Exception:  # a buggy bot must never take the room down; the timeout will act
            return None
