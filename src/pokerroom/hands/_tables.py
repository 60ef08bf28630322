"""Precomputed tables shared by the evaluators (built once, lazily, in about half a second).

Why this shape: in CPython the cost of an evaluation is the number of bytecodes it runs (and, on random
hands, its cache misses), not the arithmetic. So a 7-card evaluation is reduced to a handful of tuple
indexings, one sum and one flat-array lookup, and every rank-only question (pairs, trips, straights,
kickers, which ranks are used) is answered once per *rank multiset* when the tables are built, instead of
once per hand.

Encodings (card ids are ``pokerroom.cards`` ids: ``id = suit_index * 13 + rank_index``, suit index 0..3 =
♠ ◆ ♥ ♣, rank index 0..12 = 2..A):

- ``CARD_KEY[id] = RANK_KEY[rank] << 12 | 8 ** suit``. The low 12 bits of a sum over up to 7 cards hold
  the four suit counts in base 8 (no carries), and ``FLUSH_SHIFT`` maps them to the flush suit, if any.
  The high bits hold a sum of ``RANK_KEY`` values, chosen (these are the 7-card keys of Kenneth
  Shackleton's SKPokerEval) so that every multiset of up to 7 ranks, each at most 4 times, has a distinct
  sum; :func:`rank_tables` checks this while building and refuses to build if it were ever false.
- ``CARD_BIT[id] = 1 << (rank * 4 + strength)`` where strength is the Korean suit order (♠ 3 > ◆ 2 > ♥ 1 >
  ♣ 0). Ordering two card sets of equal size by this mask as an integer orders them by their best
  differing card — the Korean "number, then suit" order — which makes it the final tie-break of Korean hands.
  A suit's ranks are the bits ``(mask >> strength) & SPARSE`` (one bit per nibble).

International values are ``category << 20 | r1 << 16 | r2 << 12 | ...`` with the deciding ranks (rank
index 0..12) left-aligned, so plain integer comparison is the §6.1 order.
"""

from __future__ import annotations

import threading
from array import array
from itertools import combinations, combinations_with_replacement
from typing import Final

#: Held while any lookup table is built. The server warms the tables up in a thread while the event loop
#: may deal a first hand: without the lock both built every table at once (twice the CPU, under the GIL, so
#: a hand started in the first second waited twice as long for its first view). With it the second caller
#: waits for the first build and reuses it. Re-entrant because builders call each other.
BUILD_LOCK: Final = threading.RLock()

# ---------------------------------------------------------------------------------------------- constants

RANK_KEY: Final = (0, 1, 5, 22, 98, 453, 2031, 8698, 22854, 83661, 262349, 636345, 1479181)
SPARSE: Final = sum(1 << (4 * r) for r in range(13))
ROYAL: Final = 0b1111100000000  # T J Q K A
WHEEL: Final = 0b1000000001111  # A 2 3 4 5
T_BITS: Final = 52  # a Korean card mask (the last tie-break) has 52 bits

# International categories (§6.1).
HIGH_CARD, ONE_PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH = range(9)
INTL_NAMES: Final = (
    "하이카드", "원페어", "투페어", "트리플", "스트레이트", "플러시", "풀하우스", "포카드",
    "스트레이트 플러시",
)
ROYAL_NAME: Final = "로열 스트레이트 플러시"

# Korean categories (§6.2), weakest first.
(K_TOP, K_PAIR, K_TWO_PAIR, K_TRIPS, K_STRAIGHT, K_BACK, K_MOUNTAIN, K_FLUSH, K_FULL_HOUSE, K_QUADS,
 K_STRAIGHT_FLUSH, K_BACK_STRAIGHT_FLUSH, K_ROYAL) = range(13)
KOREAN_NAMES: Final = (
    "탑", "원페어", "투페어", "트리플", "스트레이트", "백 스트레이트", "마운틴", "플러시", "풀하우스",
    "포카드", "스트레이트 플러시", "백 스트레이트 플러시", "로열 스트레이트 플러시",
)


def _card_key(card_id: int) -> int:
    suit, rank = divmod(card_id, 13)
    return RANK_KEY[rank] << 12 | 1 << (3 * suit)


CARD_KEY: Final = tuple(_card_key(i) for i in range(52))
CARD_RANK_KEY: Final = tuple(RANK_KEY[i % 13] for i in range(52))
CARD_BIT: Final = tuple(1 << ((i % 13) * 4 + 3 - i // 13) for i in range(52))
#: card id of each bit of the Korean card mask (inverse of CARD_BIT)
BIT_CARD: Final = {CARD_BIT[i].bit_length() - 1: i for i in range(52)}


def _flush_shift(counts: int) -> int:
    for suit in range(4):
        if (counts >> (3 * suit)) & 7 >= 5:
            return 3 - suit  # the suit's strength = its bit offset inside a rank nibble
    return -1


#: suit-count part of a key sum (12 bits) -> strength of the flush suit, or -1
FLUSH_SHIFT: Final = tuple(_flush_shift(c) for c in range(4096))


def _straight_top(mask: int) -> int:
    for top in range(12, 3, -1):
        window = 0x1F << (top - 4)
        if mask & window == window:
            return top
    return 3 if mask & WHEEL == WHEEL else -1


#: 13-bit rank mask -> rank index of the highest straight's top card (wheel -> 3, i.e. the five), or -1
STRAIGHT_TOP: Final = tuple(_straight_top(m) for m in range(8192))


def _top_bits(nibble: int, k: int) -> int:
    out = 0
    for bit in (8, 4, 2, 1):
        if k and nibble & bit:
            out |= bit
            k -= 1
    return out


#: TOP_K[k][nibble]: the k best suits (highest bits) present in a rank's nibble
TOP_K: Final = tuple(tuple(_top_bits(n, k) for n in range(16)) for k in range(5))
#: the best suit (strength 0..3) present in a nibble
TOP_SUIT: Final = tuple(max((b for b in range(4) if n >> b & 1), default=0) for n in range(16))


def pack(ranks: list[int] | tuple[int, ...]) -> int:
    """Left-align up to five 4-bit values into 20 bits (lexicographic order = integer order)."""
    out = 0
    for i, r in enumerate(ranks):
        out |= r << (16 - 4 * i)
    return out


def sparse_of(ranks: list[int] | tuple[int, ...]) -> int:
    out = 0
    for r in ranks:
        out |= 1 << (4 * r)
    return out


def korean_base(kcat: int, primary: list[int] | tuple[int, ...]) -> int:
    """A Korean key without its deciding suit: ``kcat << 22 | deciding ranks << 2`` (the suit is 0..3).

    ``primary`` holds rank indices; they are stored as ``rank + 1`` so a shorter list (fewer open cards)
    never packs equal to a longer one.
    """
    return kcat << 22 | pack([r + 1 for r in primary]) << 2


# ---------------------------------------------------------------------------------------- rank multisets

#: Korean info of a rank multiset: (base key, mask of nibbles used whole, partial nibbles, suit nibble shift)
#: where the suit nibble shift is ``4 * rank`` of the rank whose best suit decides ties, or -1
KoreanInfo = tuple[int, int, tuple[tuple[int, int], ...], int]


def classify(counts: list[int]) -> tuple[int, KoreanInfo]:
    """International value (no flush) and Korean info of one rank multiset given as 13 counts.

    Works for 1..7 cards: with fewer than five there are no straights and fewer kickers, which is what the
    "current hand" hint and the 7 Poker open-card ranking (§5.4.3) need.
    """
    desc = [r for r in range(12, -1, -1) if counts[r]]
    quads = [r for r in desc if counts[r] == 4]
    trips = [r for r in desc if counts[r] == 3]
    pairs = [r for r in desc if counts[r] == 2]
    mask = 0
    for r in desc:
        mask |= 1 << r
    top = STRAIGHT_TOP[mask]
    used: list[tuple[int, int]]
    if quads:
        q = quads[0]
        kick = [r for r in desc if r != q][:1]
        value = QUADS << 20 | pack([q, *kick])
        kcat, primary, used, srank = K_QUADS, [q], [(q, 4)] + [(k, 1) for k in kick], -1
    elif trips and (len(trips) >= 2 or pairs):
        t = trips[0]
        p = max(trips[1:] + pairs)
        value = FULL_HOUSE << 20 | pack([t, p])
        kcat, primary, used, srank = K_FULL_HOUSE, [t], [(t, 3), (p, 2)], -1
    elif top >= 0:
        value = STRAIGHT << 20 | pack([top])
        if mask & ROYAL == ROYAL:
            kcat, primary, ranks, srank = K_MOUNTAIN, [], [12, 11, 10, 9, 8], 12
        elif mask & WHEEL == WHEEL:
            kcat, primary, ranks, srank = K_BACK, [], [12, 3, 2, 1, 0], 12
        else:
            kcat, primary, ranks, srank = K_STRAIGHT, [top], list(range(top, top - 5, -1)), top
        used = [(r, 1) for r in ranks]
    elif trips:
        t = trips[0]
        kick = [r for r in desc if r != t][:2]
        value = TRIPS << 20 | pack([t, *kick])
        kcat, primary, used, srank = K_TRIPS, [t], [(t, 3)] + [(k, 1) for k in kick], -1
    elif len(pairs) >= 2:
        p1, p2 = pairs[0], pairs[1]
        kick = [r for r in desc if r not in (p1, p2)][:1]
        value = TWO_PAIR << 20 | pack([p1, p2, *kick])
        kcat, primary, used, srank = K_TWO_PAIR, [p1, p2], [(p1, 2), (p2, 2)] + [(k, 1) for k in kick], p1
    elif pairs:
        p = pairs[0]
        kick = [r for r in desc if r != p][:3]
        value = ONE_PAIR << 20 | pack([p, *kick])
        kcat, primary, used, srank = K_PAIR, [p], [(p, 2)] + [(k, 1) for k in kick], p
    else:
        top5 = desc[:5]
        value = HIGH_CARD << 20 | pack(top5)
        kcat, primary, used, srank = K_TOP, top5, [(r, 1) for r in top5], top5[0]
    full = 0
    partial: list[tuple[int, int]] = []
    for r, k in used:
        if k == counts[r]:
            full |= 0xF << (4 * r)
        else:
            partial.append((4 * r, k))
    return value, (korean_base(kcat, primary), full, tuple(partial), 4 * srank if srank >= 0 else -1)


_RANK_TABLES: dict[int, tuple[dict[int, int], dict[int, KoreanInfo]]] = {}


def rank_tables(n: int) -> tuple[dict[int, int], dict[int, KoreanInfo]]:
    """For hands of ``n`` cards (1..7): rank-key sum -> international value, and -> Korean info.

    Built on first use (about 0.3 s for n = 7, 49,205 multisets) and kept for the life of the process.
    """
    tables = _RANK_TABLES.get(n)
    if tables is not None:
        return tables
    with BUILD_LOCK:
        tables = _RANK_TABLES.get(n)
        if tables is None:
            tables = _RANK_TABLES[n] = _build_rank_tables(n)
        return tables


def _build_rank_tables(n: int) -> tuple[dict[int, int], dict[int, KoreanInfo]]:
    intl: dict[int, int] = {}
    korean: dict[int, KoreanInfo] = {}
    counts = [0] * 13
    for combo in combinations_with_replacement(range(13), n):
        for r in range(13):
            counts[r] = 0
        key = 0
        for r in combo:
            counts[r] += 1
            key += RANK_KEY[r]
        if max(counts) > 4:
            continue
        if key in korean:  # pragma: no cover - guards the RANK_KEY property
            raise AssertionError(f"rank keys collide for {n} cards")
        value, info = classify(counts)
        intl[key] = value
        korean[key] = info
    return intl, korean


#: 7 cards: rank-key sum -> index of the rank multiset (uint16, 15.6 MB), and the sums in index order.
#: A flat array indexed by the sum costs one memory access where a 49,205-entry dict costs three (the
#: slot, the key object, the value object), about a third of a 7-card evaluation on random hands. Both are
#: filled in place by :func:`load_index7`, so modules may bind them at import.
INDEX7: Final = array("H")
ORDER7: Final[list[int]] = []


def load_index7() -> None:
    """Fill :data:`INDEX7` and :data:`ORDER7` (idempotent, about 0.1 s after :func:`rank_tables`)."""
    if INDEX7:
        return
    with BUILD_LOCK:
        if INDEX7:
            return
        intl = rank_tables(7)[0]
        order = list(intl)
        index = array("H", bytes(2 * (max(order) + 1)))
        for i, key in enumerate(order):
            index[key] = i
        ORDER7.extend(order)
        INDEX7.extend(index)  # last: a non-empty INDEX7 means both are complete


# ---------------------------------------------------------------------------------------------- flushes

#: Korean info of a flush: (base key without the suit, sparse mask of the five ranks used)
FlushKorean = tuple[int, int]
_FLUSH_TABLES: list[tuple[dict[int, int], dict[int, FlushKorean]]] = []


def flush_tables() -> tuple[dict[int, int], dict[int, FlushKorean]]:
    """Sparse rank mask of the flush suit (5..7 ranks) -> international value, and -> Korean info.

    With at most 7 cards a flush excludes quads and full houses (they would need 8 cards), so the suited
    cards alone decide the hand.
    """
    if _FLUSH_TABLES:
        return _FLUSH_TABLES[0]
    with BUILD_LOCK:
        if not _FLUSH_TABLES:
            _FLUSH_TABLES.append(_build_flush_tables())
        return _FLUSH_TABLES[0]


def _build_flush_tables() -> tuple[dict[int, int], dict[int, FlushKorean]]:
    intl: dict[int, int] = {}
    korean: dict[int, FlushKorean] = {}
    for size in (5, 6, 7):
        for ranks in combinations(range(12, -1, -1), size):
            mask = 0
            for r in ranks:
                mask |= 1 << r
            sparse = sparse_of(ranks)
            top = STRAIGHT_TOP[mask]
            if top >= 0:
                intl[sparse] = STRAIGHT_FLUSH << 20 | pack([top])
            else:
                intl[sparse] = FLUSH << 20 | pack(list(ranks[:5]))
            if mask & ROYAL == ROYAL:
                korean[sparse] = (korean_base(K_ROYAL, []), sparse_of([12, 11, 10, 9, 8]))
            elif mask & WHEEL == WHEEL:
                korean[sparse] = (korean_base(K_BACK_STRAIGHT_FLUSH, []), sparse_of([12, 3, 2, 1, 0]))
            elif top >= 0:
                korean[sparse] = (
                    korean_base(K_STRAIGHT_FLUSH, [top]),
                    sparse_of(list(range(top, top - 5, -1))),
                )
            else:
                korean[sparse] = (korean_base(K_FLUSH, list(ranks[:5])), sparse_of(list(ranks[:5])))
    return intl, korean
