"""Omaha Hi-Lo's low, eight or better (``omahaHiLo``; docs/rules-extensions.md).

The low is made of exactly two hole cards and exactly three board cards, like the Omaha high (§5.4.2). Ranks
are ace-to-five (the ace counts 1; straights and flushes do not count against a low), the five ranks must
differ and all be eight or lower. Lows compare from the highest card down, the lower hand winning. Unlike the
7 Poker Hi-Lo low (§6.3, rulings 2) suits never break a tie: this is the international game, where equal
lows split (quartering), the same way the Omaha high splits.

Why not :func:`pokerroom.hands.korean_low`: that low picks the best five of *any* cards and breaks ties by
suit, both wrong here. What is shared is the scale: the ace-low ranks and their labels come from
:mod:`pokerroom.hands.korean`, and the key packs the ranks from the top down with
:func:`pokerroom.hands._tables.pack` as the Korean low does, so names read the same ("7탑").

Why it is fast: for a fixed pair of hole ranks the best three board cards are simply the three lowest
qualifying board ranks not in the pair, so at most six pairs are tried instead of sixty combinations.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from pokerroom.cards import Card, standard_deck
from pokerroom.hands import _tables as T
from pokerroom.hands.korean import _LOW_RANK, rank_label
from pokerroom.hands.value import Details, HandValue

_CARDS: tuple[Card, ...] = tuple(standard_deck())
#: ace-low rank of each card id when it can be part of an eight-or-better low, else 0
_LOW8 = tuple(r if r <= 8 else 0 for r in _LOW_RANK)
_FULL = 0xFFFFF


def omaha_low_ids(hole: Sequence[int], board: Sequence[int]) -> int:
    """The best eight-or-better low's key (larger is better), or -1 when there is none.

    ``key = 0xFFFFF - pack(ranks from the highest down)``: the same ranks always give the same key, so equal
    lows tie whatever their suits.
    """
    low8 = _LOW8
    brank = 0
    for x in board:
        brank |= 1 << low8[x]
    brank &= ~1  # bit 0: cards that cannot be in the low
    if brank.bit_count() < 3:
        return -1
    hrank = 0
    for x in hole:
        hrank |= 1 << low8[x]
    hrank &= ~1
    if hrank.bit_count() < 2:
        return -1
    hole_ranks = [r for r in range(1, 9) if hrank >> r & 1]
    best = -1
    for i, a in enumerate(hole_ranks):
        for b in hole_ranks[i + 1:]:
            rest = brank & ~(1 << a | 1 << b)
            if rest.bit_count() < 3:
                continue
            three: list[int] = []
            r = 1
            while len(three) < 3:
                if rest >> r & 1:
                    three.append(r)
                r += 1
            five = sorted((a, b, *three), reverse=True)
            key = _FULL - T.pack(five)
            if key > best:
                best = key
    return best


def low_ranks(key: int) -> tuple[int, ...]:
    """The five ace-low ranks of a key, highest first."""
    packed = _FULL - key
    return tuple((packed >> (16 - 4 * i)) & 15 for i in range(5))


class OmahaLowValue(HandValue):
    """An Omaha eight-or-better low; its source is (hole ids, board ids). Equal keys are a split."""

    __slots__ = ()
    family = "omahaLow"

    def _resolve(self) -> Details:
        ranks = low_ranks(self.key)
        hole, board = self._source
        want = sorted(ranks)
        for h in combinations(hole, 2):
            for b in combinations(board, 3):
                if sorted(_LOW_RANK[i] for i in (*h, *b)) == want:
                    cards = sorted((_CARDS[i] for i in (*h, *b)), key=lambda c: _LOW_RANK[c.id], reverse=True)
                    return f"{rank_label(ranks[0])}탑", 14 - ranks[0], tuple(cards)
        raise AssertionError("a low key always comes from its own cards")  # pragma: no cover


def omaha_low(hole: Sequence[Card], board: Sequence[Card]) -> HandValue | None:
    """Omaha Hi-Lo low (eight or better): exactly two hole cards and three board cards, ``None`` if none.

    >>> from pokerroom.cards import parse_cards
    >>> v = omaha_low(parse_cards("As 2d Kh Kc"), parse_cards("3c 5h 8d Qs Js"))
    >>> v.name, [c.code for c in v.cards]
    ('8탑', ['8d', '5h', '3c', '2d', 'As'])
    >>> omaha_low(parse_cards("As Kd Qh Jc"), parse_cards("2c 3h 4d 5s 6s")) is None  # one low hole card
    True
    """
    h = tuple([c.id for c in hole])
    b = tuple([c.id for c in board])
    key = omaha_low_ids(h, b)
    if key < 0:
        return None
    value = object.__new__(OmahaLowValue)
    value.key = key
    value._source = (h, b)
    return value
