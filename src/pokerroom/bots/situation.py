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

from pokerroom.cards import Card, card_ids


def card_of(data: Any) -> Card | None:
    """A visible card from its wire dict; ``None`` for a hidden placeholder, ``"?"`` or ``null``."""
    if not isinstance(data, dict):
        return None
    try:
        key = (data["id"], data["rank"], data["suit"])
    except KeyError:
        return None
    try:
        card = _CARDS.get(key)
    except TypeError:  # an unhashable field: not a card, Card.from_json says why
        return Card.from_json(data)
    if card is None or type(key[0]) is not int or type(key[1]) is not int:
        card = Card.from_json(data)
        if len(_CARDS) < _CARDS_KEPT:
            _CARDS[key] = card
    return card


#: Cards by (id, rank, suit) as parsed by :func:`card_of`. Why: a digest parses every visible card of every
#: seat, and for hints that is once per decision point of a whole table (a hint must stay cheap:
#: docs/decisions/0019-hints-exact-and-cached.md); both decks together hold 72 cards, so the table stays
#: small (its bound only guards against odd input).
_CARDS: dict[tuple[Any, Any, Any], Card] = {}
_CARDS_KEPT = 256


def cards_of(items: Any) -> list[Card]:
    if not isinstance(items, list) or not items:
        return []  # (most lists of a view are empty: no generator for them)
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
    my_last_action: str | None = None  # my own ``lastAction`` (this round's bet/raise tells a raising war)
    my_committed_total: int = 0  # my chips in the pot this hand (the stack a hand has already cost)

    def legal_types(self) -> dict[str, dict[str, Any]]:
        """The decisions on offer; ``show`` (a winner's optional gesture at hand end) is never one."""
        return {str(a["type"]): a for a in self.legal if a["type"] != "show"}

    def fingerprint(self) -> bytes:
        """SHA-256 of the whole digest (cards by id): exactly what the decision may depend on."""
        ids = card_ids
        head = (
            self.mode, self.betting, self.phase, self.street, self.me, self.stack, self.committed_round,
            ids(self.hole), ids(self.up), None if self.discarded is None else self.discarded.id,
            ids(self.board),
            self.pot_total, self.current_bet, self.to_call, self.base_unit,
            tuple([tuple(sorted(a.items())) for a in self.legal]),
            tuple([(o.id, o.seat, o.stack, o.all_in, o.committed_round, o.committed_total, ids(o.up),
                    None if o.forehead is None else o.forehead.id, o.hole_count, tuple(o.draw_counts),
                    o.last_action) for o in self.opponents]),
            ids(self.folded_up),
        )
        tail = (ids(self.indian_used), tuple(self.my_draw_counts), self.my_last_action,
                self.my_committed_total)
        # repr((*head, options, *tail)), with the options' part (the longest, and the same all game) cached
        text = f"{repr(head)[:-1]}, {_options_repr(self.options)}, {repr(tail)[1:]}"
        return hashlib.sha256(text.encode()).digest()


def _options_repr(options: dict[str, Any]) -> str:
    """``repr(tuple(sorted(_fingerprint_options(options))))``, remembered by the options' items (with their
    types: ``True`` and ``1`` are equal keys but print differently)."""
    values = tuple(options.values())
    try:
        key = (tuple(options), values, tuple(map(type, values)))
        text = _OPTIONS_REPR.get(key)
    except TypeError:  # an unhashable value (no room option is one today)
        return repr(tuple(sorted(_fingerprint_options(options))))
    if text is None:
        text = repr(tuple(sorted(_fingerprint_options(options))))
        if len(_OPTIONS_REPR) >= _OPTIONS_KEPT:
            _OPTIONS_REPR.clear()
        _OPTIONS_REPR[key] = text
    return text


#: See :func:`_options_repr`: one entry per distinct options of the rooms a process serves.
_OPTIONS_REPR: dict[tuple[tuple[str, ...], tuple[Any, ...], tuple[type, ...]], str] = {}
_OPTIONS_KEPT = 1024


#: House rules of docs/rules-extensions.md at their "off" values. They are left out of the fingerprint
#: while off, so adding them changed no decision (nor any seeded simulation) of a game without them.
_HOUSE_RULES_OFF: dict[str, Any] = {
    "rule491": False, "betCap": 0, "badugiHigh": False, "jacksOrBetter": False,
    "ante": "none", "antePercent": 100, "straddle": False, "runItTwice": False,
    "timeBank": 0, "timeBankEvery": 10,  # the time bank is no rule of play: a bot decides the same either way
}


def _fingerprint_options(options: dict[str, Any]) -> list[tuple[str, Any]]:
    return [(k, v) for k, v in options.items()
            if not (k in _HOUSE_RULES_OFF and v == _HOUSE_RULES_OFF[k]
                    and type(v) is type(_HOUSE_RULES_OFF[k]))]


def _opponent(seat: dict[str, Any]) -> Opponent:
    """An opponent still in the hand, from their seat's dict."""
    draw_counts = seat.get("drawCounts")
    return Opponent(  # (positional: a dozen keywords per seat cost more than the rest)
        str(seat.get("id")),
        int(seat.get("seat", 0)),
        int(seat.get("stack", 0)),
        False,
        bool(seat.get("allIn")),
        int(seat.get("committedRound", 0)),
        int(seat.get("committedTotal", 0)),
        cards_of(seat.get("up")),
        card_of(seat.get("forehead")),
        int(seat.get("holeCount", 0)),
        [int(x) for x in draw_counts] if draw_counts else [],
        seat.get("lastAction"),
    )


#: id(seat dict) -> (that dict, its :class:`Opponent`). Why: the server's views share a seat's dict from one
#: version to the next while the seat is unchanged (``engine/view.py``, ``StateViews``: its view deltas
#: already take the same object for an unchanged seat), so a hint reads most opponents once per change of
#: theirs instead of once per decision point. The entry holds the dict itself, so its id cannot be reused
#: while the entry lives; a seat dict is read-only once built (the engine's contract for views), and the
#: digest never changes an Opponent it hands out. Cleared when full.
_OPPONENTS: dict[int, tuple[dict[str, Any], Opponent]] = {}
_OPPONENTS_KEPT = 4096


def situation(view: dict[str, Any]) -> Situation | None:
    """The digest, or ``None`` when the viewer is not seated."""
    me = view.get("me")
    if not isinstance(me, dict):
        return None
    my_id = str(me.get("id"))
    seats = view.get("seats") or []
    mine: dict[str, Any] | None = None  # my own seat: the first whose id is mine
    opponents: list[Opponent] = []
    folded_up: list[Card] = []
    for seat in seats:  # (one pass finds my seat too)
        if seat.get("id") == my_id:
            if mine is None:
                mine = seat
            continue
        if not seat.get("inHand"):
            continue
        if seat.get("folded"):
            folded_up.extend(cards_of(seat.get("up")))
            continue
        known = _OPPONENTS.get(id(seat))
        if known is not None and known[0] is seat:
            opponents.append(known[1])
            continue
        opponents.append(_opponent(seat))
        if len(_OPPONENTS) >= _OPPONENTS_KEPT:
            _OPPONENTS.clear()
        _OPPONENTS[id(seat)] = (seat, opponents[-1])
    if mine is None:
        mine = {}
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
        my_last_action=mine.get("lastAction"),
        my_committed_total=int(mine.get("committedTotal", 0)),
    )
