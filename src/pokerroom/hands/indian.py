"""Indian poker (§6.5): one card on the forehead, optionally one more in the hand.

Ranks come straight from ``Card.rank``, which already encodes the deck's order: the d20 deck has A = 1
(the lowest), the 52-card deck A = 14 (the highest). Suits never matter, so equal ranks tie and the pot is
carried over or split (``indianTie``).

Key: one card ``rank``; two cards ``1 << 8 | rank`` for a pair, else ``high << 4 | low``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from pokerroom.cards import Card
from pokerroom.hands.value import Details, HandValue, make

IndianDeck = Literal["d20", "d52"]
_LABEL = {1: "A", 14: "A", 11: "J", 12: "Q", 13: "K"}


def _label(rank: int) -> str:
    return _LABEL.get(rank, str(rank))


class IndianValue(HandValue):
    """Indian poker value; equal ranks tie (carry-over or split)."""

    __slots__ = ()
    family = "indian"

    def _resolve(self) -> Details:
        return _resolve(self.key, self._source)


def _resolve(key: int, cards: tuple[Card, ...]) -> Details:
    if len(cards) == 1:
        return _label(key), 0, cards
    if key >> 8:
        return f"{_label(key & 0xFF)} 페어", 1, cards
    return f"{_label(key >> 4)}-{_label(key & 15)}", 0, cards


def indian(cards: Sequence[Card], deck: IndianDeck = "d20") -> HandValue:
    """Strength of one or two Indian-poker cards (§6.5). ``category``: 1 for a pair, else 0.

    >>> from pokerroom.cards import parse_cards
    >>> indian(parse_cards("Ah", deck="d20")) < indian(parse_cards("2s", deck="d20"))
    True
    >>> indian(parse_cards("As"), deck="d52") > indian(parse_cards("Ks"), deck="d52")
    True
    >>> p, q = indian(parse_cards("3s 3h", deck="d20")), indian(parse_cards("10s 9h", deck="d20"))
    >>> p > q, p.name, q.name
    (True, '3 페어', '10-9')
    """
    low, high = (1, 10) if deck == "d20" else (2, 14) if deck == "d52" else (0, -1)
    if high < 0:
        raise ValueError(f"unknown Indian deck {deck!r}")
    held = tuple(cards)
    if len(held) not in (1, 2):
        raise ValueError("Indian poker is played with one or two cards")
    ranks = [c.rank for c in held]
    if any(not low <= r <= high for r in ranks):
        raise ValueError(f"a card is not from the {deck} deck")
    if len(ranks) == 1:
        key = ranks[0]
    else:
        hi, lo = max(ranks), min(ranks)
        key = 1 << 8 | hi if hi == lo else hi << 4 | lo
    return make(IndianValue, key, held)
