"""Parsing of wire actions (poker.md §8.2) before anything else looks at them.

Rules:
- An action is a dict with a known ``type`` and exactly the fields of that type; ints are ints (a bool is
  not an int), lists hold ints, ``side`` is high/low/swing, ``accept`` and ``agree`` are bools.
- Anything else is refused with :class:`Rejected` (code ``bad_action`` / ``unknown_action``) and a Korean
  reason, never another exception, so a malicious client cannot crash a room.
The result is a fresh dict with only the known fields: later layers can trust its shape.
"""

from __future__ import annotations

from typing import Any

from pokerroom.rejections import Rejected

KOREAN_TYPES = frozenset(
    {"k.check", "k.ping", "k.call", "k.ddadang", "k.quarter", "k.half", "k.full", "k.die"}
)
NL_TYPES = frozenset({"nl.fold", "nl.check", "nl.call", "nl.allIn", "nl.raise"})
BETTING_TYPES = KOREAN_TYPES | NL_TYPES
FOLD_TYPES = frozenset({"k.die", "nl.fold"})

# type -> {field: kind}
_FIELDS: dict[str, dict[str, str]] = {
    **{t: {} for t in BETTING_TYPES if t != "nl.raise"},
    "nl.raise": {"to": "int"},
    "choose": {"discardId": "int", "openId": "int"},
    "draw": {"cardIds": "intlist"},
    "declare": {"side": "side"},
    "ready": {},
    "show": {},
    "rebuy": {"accept": "bool"},
    "runTwice": {"agree": "bool"},
    "leave": {},
    "sitOut": {},
    "sitIn": {},
}

BAD = ("bad_action", "행동 형식이 올바르지 않아요")
UNKNOWN = ("unknown_action", "알 수 없는 행동이에요")


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def parse_action(action: Any) -> dict[str, Any]:
    """A validated copy of the wire action, or :class:`Rejected`."""
    if not isinstance(action, dict):
        raise Rejected(*BAD)
    kind = action.get("type")
    if not isinstance(kind, str) or kind not in _FIELDS:
        raise Rejected(*UNKNOWN)
    spec = _FIELDS[kind]
    if set(action) != {"type", *spec}:
        raise Rejected(*BAD)
    out: dict[str, Any] = {"type": kind}
    for name, want in spec.items():
        value = action[name]
        if want == "int":
            if not _is_int(value) or value < 0 or value > 1 << 53:
                raise Rejected(*BAD)
            out[name] = int(value)
        elif want == "intlist":
            if not isinstance(value, list) or len(value) > 10 or not all(_is_int(v) for v in value):
                raise Rejected(*BAD)
            out[name] = [int(v) for v in value]
        elif want == "side":
            if value not in ("high", "low", "swing"):
                raise Rejected(*BAD)
            out[name] = value
        elif want == "bool":
            if not isinstance(value, bool):
                raise Rejected(*BAD)
            out[name] = value
    return out
