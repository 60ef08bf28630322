"""Bot players and hints: the hook between rooms and :mod:`pokerroom.bots`.

Why a hook: bots are written elsewhere and may land after the server. A room only needs two callables —
``decide(view) -> action | None`` for a bot's seat and ``recommend(view) -> action | None`` for a hint —
both reading the same per-viewer view a human gets (so bots never see more than a player would). When
:mod:`pokerroom.bots` is missing, bots fall back to a cautious rule (check/call/ready/pass, else nothing so
the engine's timeout acts) and hints are simply not sent.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

View = dict[str, Any]
ActionFn = Callable[[View], dict[str, Any] | None]

_PREFERENCE = ("ready", "k.check", "nl.check", "k.call", "nl.call", "declare", "draw", "rebuy", "k.die",
               "nl.fold")


def legal_actions(view: View) -> list[dict[str, Any]]:
    """The viewer's legal actions in a view (top level or under ``me``), [] when none."""
    for holder in (view, view.get("me")):
        if isinstance(holder, dict):
            acts = holder.get("legalActions")
            if isinstance(acts, list) and acts:
                return [a for a in acts if isinstance(a, dict)]
    return []


def cautious_decide(view: View) -> dict[str, Any] | None:
    """Fallback bot: the most passive legal action, or None (the timeout will act)."""
    acts = legal_actions(view)
    by_type = {a.get("type"): a for a in acts}
    for kind in _PREFERENCE:
        if kind in by_type:
            if kind == "declare":
                return {"type": "declare", "side": "high"}
            if kind == "draw":
                return {"type": "draw", "cardIds": []}
            if kind == "rebuy":
                return {"type": "rebuy", "accept": False}
            return {"type": kind}
    return None


def _bots_module() -> Any | None:
    try:
        return importlib.import_module("pokerroom.bots")
    except ImportError:
        return None


def load_decider() -> ActionFn:
    """The bot brain: ``pokerroom.bots.decide``, else ``recommend``, else :func:`cautious_decide`."""
    mod = _bots_module()
    for name in ("decide", "recommend"):
        fn = getattr(mod, name, None) if mod is not None else None
        if callable(fn):
            chosen: ActionFn = fn
            return chosen
    return cautious_decide


def load_recommender() -> ActionFn | None:
    """``pokerroom.bots.recommend`` for hints, or None when bots are not installed."""
    mod = _bots_module()
    fn = getattr(mod, "recommend", None) if mod is not None else None
    if callable(fn):
        chosen: ActionFn = fn
        return chosen
    return None


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
