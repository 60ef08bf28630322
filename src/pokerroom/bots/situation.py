"""What a bot knows: a typed digest of its own view (docs/view.md), and nothing else.

Why a digest: the bot must decide from ``view(state, me)`` alone, so every fact it uses is read here from
the view's documented fields, and the policy reads only the digest. Hidden cards (``{"hidden": true, "slot":
n}``) carry no information and are dropped; :meth:`Situation.fingerprint` hashes exactly the digest, so two
views that differ only in what the bot cannot use (renumbered or reordered hidden entries, deadlines, the
log) give the same random stream and therefore the same decision.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any

from pokerroom.cards import Card


def card_of(data: Any) -> Card | None:
    """A visible card from its wire dict; ``None`` for a hidden placeholder, ``"?"`` or ``null``."""
    if isinstance(data, dict) and "rank" in data and "suit" in data and "id" in data:
        return Card.from_json(data)
    return None


def cards_of(items: Any) -> list[Card]:
    if not isinstance(items, list):
        return []
    return [c for c in (card_of(i) for i in items) if c is not None]


@dataclass
class Opponent:
    id: str
    seat: int
    stack: int
    folded: bool
    all_in: bool
    committed_round: int
    committed_total: int
    up: list[Card]
    forehead: Card | None
    hole_count: int
    draw_counts: list[int]
    last_action: str | None


@dataclass
class Situation:
    """The bot's digest of one view. ``legal`` is ``me.legalActions`` untouched."""

    mode: str
    betting: str
    phase: str
    street: int
    me: str
    stack: int
    committed_round: int
    hole: list[Card]
    up: list[Card]
    discarded: Card | None
    board: list[Card]
    pot_total: int
    current_bet: int
    to_call: int
    base_unit: int
    legal: list[dict[str, Any]]
    opponents: list[Opponent]  # still in the hand (not folded), me excluded
    folded_up: list[Card]  # open cards of folded players (dead for equity)
    options: dict[str, Any] = field(default_factory=dict)
    indian_used: list[Card] = field(default_factory=list)
    my_draw_counts: list[int] = field(default_factory=list)

    def legal_types(self) -> dict[str, dict[str, Any]]:
        """The decisions on offer; ``show`` (a winner's optional gesture at hand end) is never one."""
        return {str(a["type"]): a for a in self.legal if a["type"] != "show"}

    def fingerprint(self) -> bytes:
        """SHA-256 of the whole digest (cards by id): exactly what the decision may depend on."""

        def ids(cards: list[Card]) -> tuple[int, ...]:
            return tuple(c.id for c in cards)

        key = (
            self.mode, self.betting, self.phase, self.street, self.me, self.stack, self.committed_round,
            ids(self.hole), ids(self.up), None if self.discarded is None else self.discarded.id,
            ids(self.board),
            self.pot_total, self.current_bet, self.to_call, self.base_unit,
            tuple(tuple(sorted(a.items())) for a in self.legal),
            tuple((o.id, o.seat, o.stack, o.all_in, o.committed_round, o.committed_total, ids(o.up),
                   None if o.forehead is None else o.forehead.id, o.hole_count, tuple(o.draw_counts),
                   o.last_action) for o in self.opponents),
            ids(self.folded_up), tuple(sorted(_fingerprint_options(self.options))), ids(self.indian_used),
            tuple(self.my_draw_counts),
        )
        return hashlib.sha256(repr(key).encode()).digest()


#: House rules of docs/rules-extensions.md at their "off" values. They are left out of the fingerprint
#: while off, so adding them changed no decision (nor any seeded simulation) of a game without them.
_HOUSE_RULES_OFF: dict[str, Any] = {
    "rule491": False, "betCap": 0, "badugiHigh": False, "jacksOrBetter": False,
}


def _fingerprint_options(options: dict[str, Any]) -> list[tuple[str, Any]]:
    return [(k, v) for k, v in options.items()
            if not (k in _HOUSE_RULES_OFF and v == _HOUSE_RULES_OFF[k]
                    and type(v) is type(_HOUSE_RULES_OFF[k]))]


def situation(view: dict[str, Any]) -> Situation | None:
    """The digest, or ``None`` when the viewer is not seated."""
    me = view.get("me")
    if not isinstance(me, dict):
        return None
    my_id = str(me.get("id"))
    seats = view.get("seats") or []
    mine: dict[str, Any] = next((s for s in seats if s.get("id") == my_id), {})
    opponents: list[Opponent] = []
    folded_up: list[Card] = []
    for seat in seats:
        if seat.get("id") == my_id or not seat.get("inHand"):
            continue
        if seat.get("folded"):
            folded_up.extend(cards_of(seat.get("up")))
            continue
        opponents.append(Opponent(
            id=str(seat.get("id")),
            seat=int(seat.get("seat", 0)),
            stack=int(seat.get("stack", 0)),
            folded=False,
            all_in=bool(seat.get("allIn")),
            committed_round=int(seat.get("committedRound", 0)),
            committed_total=int(seat.get("committedTotal", 0)),
            up=cards_of(seat.get("up")),
            forehead=card_of(seat.get("forehead")),
            hole_count=int(seat.get("holeCount", 0)),
            draw_counts=[int(x) for x in seat.get("drawCounts") or []],
            last_action=seat.get("lastAction"),
        ))
    hole = cards_of(me.get("hole"))
    if me.get("choice"):
        hole = cards_of(me.get("choice"))
    return Situation(
        mode=str(view.get("mode")),
        betting=str(view.get("betting")),
        phase=str(view.get("phase")),
        street=int(view.get("street") or 0),
        me=my_id,
        stack=int(mine.get("stack", 0)),
        committed_round=int(mine.get("committedRound", 0)),
        hole=hole,
        up=cards_of(me.get("up")),
        discarded=card_of(me.get("discarded")),
        board=cards_of(view.get("board")),
        pot_total=int(view.get("potTotal") or 0),
        current_bet=int(view.get("currentBet") or 0),
        to_call=int(me.get("toCall") or 0),
        base_unit=int(view.get("baseUnit") or 1),
        legal=list(me.get("legalActions") or []),
        opponents=opponents,
        folded_up=folded_up,
        options=dict(view.get("options") or {}),
        indian_used=cards_of(view.get("indianUsed")),
        my_draw_counts=[int(x) for x in mine.get("drawCounts") or []],
    )
