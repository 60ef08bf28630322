"""Korean low badugi (§6.4): ace low, suits unranked.

The hand is the largest subset of the four cards with no two sharing a rank or a suit (k = 4 메이드,
3 베이스, 2 투베이스, 1 노베이스); a larger k always wins, equal k compares the subset's ranks from the
highest down, lower winning, using the lowest such subset. Equal ranks split (no suit tie-break).

Key: ``k << 13 | (0x1FFF ^ rank_mask)`` where ``rank_mask`` has bit ``rank - 1`` (A = bit 0) per card of
the subset. For sets of distinct ranks of one size, comparing masks as integers is comparing from the
highest rank down, so the complement makes "lower" larger.

Why it is fast: two cards conflict when they share a rank or a suit; the six pairwise conflicts of four
cards form a 6-bit pattern, and a 64-entry table gives, per pattern, k and the few maximum conflict-free
subsets to try. No search happens per call.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from pokerroom.cards import Card, standard_deck
from pokerroom.hands.korean import rank_label
from pokerroom.hands.value import Details, HandValue

_CARDS: tuple[Card, ...] = tuple(standard_deck())
_LOW_RANK = tuple(1 if i % 13 == 12 else i % 13 + 2 for i in range(52))
#: rank bit on the ace-low scale
_RB = tuple(1 << (_LOW_RANK[i] - 1) for i in range(52))
#: rank bit | suit bit: two cards conflict iff their codes share a bit
_CODE = tuple(_RB[i] | 1 << (13 + i // 13) for i in range(52))
_PAIRS = ((0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3))
_FULL = 0x1FFF


def _pattern_table() -> tuple[tuple[int, tuple[tuple[int, ...], ...]], ...]:
    table = []
    for pattern in range(64):
        conflicts = {_PAIRS[b] for b in range(6) if pattern >> b & 1}
        found: tuple[tuple[int, ...], ...] = ()
        size = 4
        while size:
            found = tuple(
                s for s in combinations(range(4), size)
                if not any(pair in conflicts for pair in combinations(s, 2))
            )
            if found:
                break
            size -= 1
        table.append((size, found))
    return tuple(table)


_PATTERNS = _pattern_table()


def badugi4(a: int, b: int, c: int, d: int) -> int:
    """Badugi key of four card ids (larger is better, equal is a split).

    >>> from pokerroom.cards import parse_cards
    >>> badugi4(*[c.id for c in parse_cards("As 2d 3h 4c")]) >> 13
    4
    """
    ca, cb, cc, cd = _CODE[a], _CODE[b], _CODE[c], _CODE[d]
    pattern = (
        (1 if ca & cb else 0) | (2 if ca & cc else 0) | (4 if ca & cd else 0)
        | (8 if cb & cc else 0) | (16 if cb & cd else 0) | (32 if cc & cd else 0)
    )
    if not pattern:
        return 4 << 13 | (_FULL ^ (_RB[a] | _RB[b] | _RB[c] | _RB[d]))
    k, subsets = _PATTERNS[pattern]
    ids = (a, b, c, d)
    low = _FULL
    for subset in subsets:
        mask = 0
        for i in subset:
            mask |= _RB[ids[i]]
        if mask < low:
            low = mask
    return k << 13 | (_FULL ^ low)


def badugi_key_ids(ids: Sequence[int]) -> int:
    """Badugi key of 1..4 card ids (four in play; fewer are ranked the same way for hints)."""
    if len(ids) == 4:
        a, b, c, d = ids
        return badugi4(a, b, c, d)
    return fewer_cards_key(ids, _RB, _FULL)


def fewer_cards_key(ids: Sequence[int], rank_bit: Sequence[int], flip: int) -> int:
    """The key of fewer than four cards (a hint's partial hand), low or high badugi: the largest subset of
    distinct ranks and suits, then the best of them by ``size << 13 | (rank mask ^ flip)`` (``rank_bit``:
    each card's rank bit; low badugi flips the mask so that lower ranks make larger keys)."""
    if not 1 <= len(ids) <= 4:
        raise ValueError("a badugi hand has four cards")
    for size in range(len(ids), 0, -1):
        best = 0
        for subset in combinations(ids, size):
            union = 0
            for i in subset:
                union |= _CODE[i]
            if union.bit_count() == 2 * size:
                mask = 0
                for i in subset:
                    mask |= rank_bit[i]
                best = max(best, size << 13 | (mask ^ flip))
        if best:
            return best
    return 0  # pragma: no cover - one card is always a badugi of size 1


_NAMED = {0b1111: "골프", 0b10111: "세컨드", 0b11011: "써드"}


def badugi_name(key: int) -> str:
    k = key >> 13
    mask = _FULL ^ (key & _FULL)
    top = rank_label(mask.bit_length())
    if k == 4:
        return _NAMED.get(mask, f"{top} 메이드")
    if k == 3:
        return f"{top} 베이스"
    return "투베이스" if k == 2 else "노베이스"


class BadugiValue(HandValue):
    """Badugi value; the key is complete (equal ranks split)."""

    __slots__ = ()
    family = "badugi"

    def _resolve(self) -> Details:
        return _resolve(self.key, self._source)


_new = object.__new__


def _resolve(key: int, ids: tuple[int, ...]) -> Details:
    k = key >> 13
    mask = _FULL ^ (key & _FULL)
    for subset in combinations(ids, k):
        union = 0
        rmask = 0
        for i in subset:
            union |= _CODE[i]
            rmask |= _RB[i]
        if rmask == mask and union.bit_count() == 2 * k:
            cards = sorted(subset, key=lambda i: (_LOW_RANK[i], i // 13), reverse=True)
            return badugi_name(key), k, tuple(_CARDS[i] for i in cards)
    raise AssertionError("badugi key does not match its cards")  # pragma: no cover


def badugi(cards: Sequence[Card]) -> HandValue:
    """Badugi value of a four-card hand (§6.4). ``category`` is k: 4 메이드, 3 베이스, 2 투베이스, 1 노베이스.

    Names: 골프 (A-2-3-4), 세컨드 (A-2-3-5), 써드 (A-2-4-5), "8 메이드", "5 베이스", "투베이스", "노베이스".

    >>> from pokerroom.cards import parse_cards
    >>> made, base = badugi(parse_cards("2s 3d 7h 8c")), badugi(parse_cards("As 2d 3h 3c"))
    >>> made.name, base.name, made > base
    ('8 메이드', '3 베이스', True)
    >>> badugi(parse_cards("2h 4c 7d 8s")) < made
    True
    """
    if len(cards) == 4:
        c0, c1, c2, c3 = cards
        a, b, c, d = c0.id, c1.id, c2.id, c3.id
        value = _new(BadugiValue)
        value.key = badugi4(a, b, c, d)
        value._source = (a, b, c, d)
        return value
    ids = tuple([c.id for c in cards])
    value = _new(BadugiValue)
    value.key = badugi_key_ids(ids)
    value._source = ids
    return value
