"""What a bot's action is: its type, the small builders every decision ends in, and the legality check.

Why apart: the betting decisions (:mod:`pokerroom.bots.bets`) end in "check", "fold" or "call if I may",
spelled the same for Korean and no-limit/pot-limit betting, and every caller of a bot (tests, the
simulator, the server's hint) checks what it returns against ``legalActions`` with
:func:`action_is_listed`. Legal actions come as ``{type: entry}`` (:meth:`Situation.legal_types`).
"""

from __future__ import annotations

from typing import Any, Literal

Level = Literal["easy", "normal"]
Action = dict[str, Any]


def check(legal: dict[str, dict[str, Any]]) -> Action:
    """Check, in the betting system on offer."""
    return {"type": "k.check"} if "k.check" in legal else {"type": "nl.check"}


def fold(legal: dict[str, dict[str, Any]]) -> Action:
    """Give up the hand (다이 or fold), or check when checking is free."""
    if "k.check" in legal or "nl.check" in legal:
        return check(legal)
    return {"type": "k.die"} if "k.die" in legal else {"type": "nl.fold"}


def can_raise(legal: dict[str, dict[str, Any]]) -> bool:
    """Whether any bet or raise is on offer."""
    return any(t in legal for t in ("k.ddadang", "k.quarter", "k.half", "k.full", "k.ping", "nl.raise"))


def call_or_check(legal: dict[str, dict[str, Any]]) -> Action:
    """Call when there is a call; otherwise check (or fold when even that is not free)."""
    for t in ("k.call", "nl.call"):
        if t in legal:
            return {"type": t}
    return fold(legal)


def action_is_listed(action: Action, legal: list[dict[str, Any]]) -> bool:
    """Whether ``action`` is one of ``legalActions`` as docs/view.md describes them (sizes and ids included).

    The engine validates again; this lets a caller (tests, the simulator, the server's hint) catch a bot that
    would rely on the engine to refuse it.
    """
    entry = next((a for a in legal if a.get("type") == action.get("type")), None)
    if entry is None:
        return False
    kind = action["type"]
    if kind == "nl.raise":
        to = action.get("to")
        return isinstance(to, int) and int(entry["min"]) <= to <= int(entry["max"])
    if kind == "choose":
        ids = set(entry.get("cardIds", []))
        d, o = action.get("discardId"), action.get("openId")
        return d in ids and o in ids and d != o
    if kind == "draw":
        drawn = action.get("cardIds")
        hand = list(entry.get("cardIds", []))
        if not isinstance(drawn, list) or len(set(drawn)) != len(drawn) or not set(drawn) <= set(hand):
            return False
        hi = int(entry.get("max", len(hand)))
        if len(drawn) > hi:
            ace_max = entry.get("maxKeepingAce")
            aces = {c for c in hand if c % 13 == 12}
            return ace_max is not None and len(drawn) <= int(ace_max) and bool(aces - set(drawn))
        return len(drawn) >= int(entry.get("min", 0))
    if kind == "declare":
        return action.get("side") in entry.get("sides", [])
    if kind == "rebuy":
        return action.get("accept") in entry.get("accept", [True, False])
    if kind == "runTwice":
        return action.get("agree") in entry.get("agree", [True, False])
    return set(action) == {"type"}
