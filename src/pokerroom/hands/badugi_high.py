"""High badugi (docs/rules-extensions.md, "하이 바둑이"): the badugi shape of §6.4, but the highest hand wins.

Ruling in short:
- The hand is the largest subset of the four cards with no two sharing a rank or a suit (k = 4 메이드,
  3 베이스, 2 투베이스, 1 노베이스), exactly as in §6.4, and a larger k always wins.
- Ace is **high** (A > K > ... > 2). Equal k compares the subset's ranks from the highest down, **higher**
  winning, using the highest such subset. Equal ranks split (suits never rank).
- Best hand: A-K-Q-J of four suits; worst made hand: 5-4-3-2 of four suits (still beats every 베이스).

Key: ``k << 13 | rank_mask`` where ``rank_mask`` has bit ``rank - 2`` per card of the subset. For sets of
distinct ranks of one size, comparing masks as integers is comparing from the highest rank down.
The six-bit conflict pattern and its table of maximum conflict-free subsets are the low evaluator's.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from pokerroom.cards import Card, standard_deck
from pokerroom.hands.badugi import _CODE, _PATTERNS, fewer_cards_key
from pokerroom.hands.korean import rank_label
from pokerroom.hands.value import Details, HandValue

_CARDS: tuple[Card, ...] = tuple(standard_deck())
_RANK = tuple(i % 13 + 2 for i in range(52))  # 2..14, ace high (ids are suit * 13 + rank - 2)
_HB = tuple(1 << (_RANK[i] - 2) for i in range(52))


def badugi_high4(a: int, b: int, c: int, d: int) -> int:
    """High-badugi key of four card ids (larger is better, equal is a split).

    >>> from pokerroom.cards import parse_cards
    >>> badugi_high4(*[c.id for c in parse_cards("As Kd Qh Jc")]) >> 13
    4
    """
    ca, cb, cc, cd = _CODE[a], _CODE[b], _CODE[c], _CODE[d]
    pattern = (
        (1 if ca & cb else 0) | (2 if ca & cc else 0) | (4 if ca & cd else 0)
        | (8 if cb & cc else 0) | (16 if cb & cd else 0) | (32 if cc & cd else 0)
    )
    if not pattern:
        return 4 << 13 | _HB[a] | _HB[b] | _HB[c] | _HB[d]
    k, subsets = _PATTERNS[pattern]
    ids = (a, b, c, d)
    high = 0
    for subset in subsets:
        mask = 0
        for i in subset:
            mask |= _HB[ids[i]]
        if mask > high:
            high = mask
    return k << 13 | high


def badugi_high_key_ids(ids: Sequence[int]) -> int:
    """High-badugi key of 1..4 card ids (four in play; fewer are ranked the same way for hints)."""
    if len(ids) == 4:
        a, b, c, d = ids
        return badugi_high4(a, b, c, d)
    return fewer_cards_key(ids, _HB, 0)


def _label(mask: int) -> str:
    top = mask.bit_length() + 1  # 2..14
    return rank_label(1 if top == 14 else top)


def badugi_high_name(key: int) -> str:
    """"A-K-Q-J 메이드" for the best hand, else "K 메이드" / "Q 베이스" / "투베이스" / "노베이스"."""
    k = key >> 13
    mask = key & 0x1FFF
    if k == 4:
        return "A-K-Q-J 메이드" if mask == 0b1111 << 9 else f"{_label(mask)} 메이드"
    if k == 3:
        return f"{_label(mask)} 베이스"
    return "투베이스" if k == 2 else "노베이스"


class BadugiHighValue(HandValue):
    """High-badugi value; the key is complete (equal ranks split). Never compared with a low badugi."""

    __slots__ = ()
    family = "badugiHigh"

    def _resolve(self) -> Details:
        key = self.key
        k = key >> 13
        mask = key & 0x1FFF
        ids: tuple[int, ...] = self._source
        for subset in combinations(ids, k):
            union = 0
            rmask = 0
            for i in subset:
                union |= _CODE[i]
                rmask |= _HB[i]
            if rmask == mask and union.bit_count() == 2 * k:
                cards = sorted(subset, key=lambda i: (_RANK[i], i // 13), reverse=True)
                return badugi_high_name(key), k, tuple(_CARDS[i] for i in cards)
        raise AssertionError("high badugi key does not match its cards")  # pragma: no cover


_new = object.__new__


def badugi_high(cards: Sequence[Card]) -> HandValue:
    """High-badugi value of a four-card hand. ``category`` is k: 4 메이드, 3 베이스, 2 투베이스, 1 노베이스.

    >>> from pokerroom.cards import parse_cards
    >>> royal, low_made = badugi_high(parse_cards("As Kd Qh Jc")), badugi_high(parse_cards("2s 3d 4h 5c"))
    >>> royal.name, low_made.name, royal > low_made
    ('A-K-Q-J 메이드', '5 메이드', True)
    >>> base = badugi_high(parse_cards("As Ks Qh Jc"))  # two spades: the A stays, the K goes
    >>> base.name, low_made > base
    ('A 베이스', True)
    """
    ids = tuple([c.id for c in cards])
    value = _new(BadugiHighValue)
    value.key = badugi_high_key_ids(ids)
    value._source = ids
    return value
