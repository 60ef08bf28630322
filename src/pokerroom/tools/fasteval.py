"""Batch hand evaluation with numpy lookup tables, for equity and bots.

Why a private evaluator here instead of looping over :mod:`pokerroom.hands`: equity needs millions of
evaluations per second, and a per-hand Python call costs microseconds. The tables below turn a 7-card (or
5-card) evaluation into a handful of vectorised integer operations:

- Every card id ``c`` (``pokerroom.cards`` numbering: ``suit = c // 13``, ``rank = c % 13 + 2``) has a
  *rank key*; the sum of the keys of up to seven cards is unique per rank multiset (the key set of Kenneth
  Shackleton's SKPokerEval, verified when the table is built), so ``table[sum]`` is the best non-flush value.
- Suits are summed as 4-bit counters (``1 << 4*suit``); a nibble >= 5 means a flush, and then the 13-bit
  rank mask of that suit indexes a flush table. With seven cards a flush excludes quads and full houses, so
  "flush value if any flush, else the rank value" is exact.
- Values are compressed to small integers that compare like the hands: higher is better, equal is a tie.

Two rankings are provided: the international one (§6.1: hold'em, Omaha, draw) and the Korean one (§6.2:
straight order mountain > back > K-top, no kickers for pairs, ties broken by suit ♠ > ◆ > ♥ > ♣). The Korean
value is ``class * 5 + suit strength`` where the suit is that of the "deciding card" (pair, highest card,
flush suit), so it has no ties between different players' cards, exactly like the spec.

Tables are built lazily on first use (about a second) and kept for the life of the process.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from numpy.typing import NDArray

IntArray = NDArray[np.int64]

#: Rank keys (index 0 = deuce ... 12 = ace). Sums of up to 7 keys with at most 4 of each are unique.
RANK_KEYS: tuple[int, ...] = (
    0, 1, 5, 22, 98, 453, 2031, 8698, 22854, 83661, 262349, 636345, 1479181,
)
CARD_RANK = np.arange(52, dtype=np.int64) % 13  # 0..12 (deuce..ace)
CARD_SUIT = np.arange(52, dtype=np.int64) // 13  # 0..3 (S, D, H, C)
CARD_KEY = np.array([RANK_KEYS[c % 13] for c in range(52)], dtype=np.int64)
CARD_SUITNIB = np.array([1 << (4 * (c // 13)) for c in range(52)], dtype=np.int64)
CARD_BIT = np.array([1 << (16 * (c // 13) + c % 13) for c in range(52)], dtype=np.int64)
#: Korean suit strength by suit index (S=4, D=3, H=2, C=1).
CARD_KSUIT = np.array([4 - c // 13 for c in range(52)], dtype=np.int64)

_FLUSH_TEST = 0x3333
_FLUSH_MASK = 0x8888

HIGH_CATEGORY_NAMES: tuple[str, ...] = (
    "하이카드", "원페어", "투페어", "트리플", "스트레이트", "플러시", "풀하우스", "포카드",
    "스트레이트 플러시",
)
KOREAN_CATEGORY_NAMES: tuple[str, ...] = (
    "탑", "원페어", "투페어", "트리플", "스트레이트", "플러시", "풀하우스", "포카드", "스트레이트 플러시",
)


def _straight_tops(mask: int) -> list[int]:
    """Top rank index of every 5-run in a 13-bit rank mask; the wheel reports top 3 (the five)."""
    tops = [top for top in range(4, 13) if (mask >> (top - 4)) & 0x1F == 0x1F]
    if mask & 0x100F == 0x100F:  # A-2-3-4-5
        tops.append(3)
    return tops


def _encode(cat: int, ranks: tuple[int, ...]) -> int:
    """Category then up to five rank slots (4 bits each), so integer order is hand order."""
    value = cat
    padded = (*ranks, 0, 0, 0, 0, 0)[:5]
    for r in padded:
        value = value * 16 + r
    return value


def intl_rank_value(counts: tuple[int, ...]) -> int:
    """International value of the best non-flush five from rank counts (5 to 7 cards)."""
    by_count: dict[int, list[int]] = {1: [], 2: [], 3: [], 4: []}
    for r in range(12, -1, -1):
        if counts[r]:
            by_count[counts[r]].append(r)
    present = [r for r in range(12, -1, -1) if counts[r]]
    if by_count[4]:
        q = by_count[4][0]
        return _encode(7, (q, max(r for r in present if r != q)))
    trips = by_count[3]
    if trips and (len(trips) >= 2 or by_count[2]):
        t = trips[0]
        p = max([r for r in trips[1:]] + by_count[2])
        return _encode(6, (t, p))
    mask = sum(1 << r for r in present)
    tops = _straight_tops(mask)
    if tops:
        return _encode(4, (max(tops),))
    if trips:
        t = trips[0]
        return _encode(3, (t, *[r for r in present if r != t][:2]))
    pairs = by_count[2]
    if len(pairs) >= 2:
        p1, p2 = pairs[0], pairs[1]
        return _encode(2, (p1, p2, max(r for r in present if r not in (p1, p2))))
    if pairs:
        p = pairs[0]
        return _encode(1, (p, *[r for r in present if r != p][:3]))
    return _encode(0, tuple(present[:5]))


def intl_flush_value(mask: int) -> int:
    """International value of the best five among the flush suit's ranks (a 13-bit mask, >= 5 bits)."""
    tops = _straight_tops(mask)
    if tops:
        return _encode(8, (max(tops),))
    ranks = [r for r in range(12, -1, -1) if mask >> r & 1]
    return _encode(5, tuple(ranks[:5]))


def _korean_straight_rank(tops: list[int]) -> int:
    """Korean straight order: mountain (15) > back (14) > K-top (11) > ... > 6-top (4)."""
    return max(15 if t == 12 else 14 if t == 3 else t for t in tops)


def korean_rank_value(counts: tuple[int, ...]) -> tuple[int, int]:
    """(Korean value without suit, deciding rank index or -1) of the best non-flush five (§6.2)."""
    by_count: dict[int, list[int]] = {1: [], 2: [], 3: [], 4: []}
    for r in range(12, -1, -1):
        if counts[r]:
            by_count[counts[r]].append(r)
    present = [r for r in range(12, -1, -1) if counts[r]]
    if by_count[4]:
        return _encode(7, (by_count[4][0],)), -1
    trips = by_count[3]
    if trips and (len(trips) >= 2 or by_count[2]):
        return _encode(6, (trips[0],)), -1
    tops = _straight_tops(sum(1 << r for r in present))
    if tops:
        srank = _korean_straight_rank(tops)
        deciding = 12 if srank >= 14 else srank
        return _encode(4, (srank,)), deciding
    if trips:
        return _encode(3, (trips[0],)), -1
    pairs = by_count[2]
    if len(pairs) >= 2:
        return _encode(2, (pairs[0], pairs[1])), pairs[0]
    if pairs:
        return _encode(1, (pairs[0],)), pairs[0]
    return _encode(0, tuple(present[:5])), present[0]


def korean_flush_value(mask: int) -> int:
    """Korean value (without suit) of the best five of one suit: straight flushes, else a flush."""
    tops = _straight_tops(mask)
    if tops:
        return _encode(8, (_korean_straight_rank(tops),))
    ranks = [r for r in range(12, -1, -1) if mask >> r & 1]
    return _encode(5, tuple(ranks[:5]))


@dataclass(frozen=True)
class Tables:
    """Compressed lookup tables for one ranking (values comparable across the rank and flush tables)."""

    rank7: NDArray[np.int32]  # key sum of exactly 7 cards -> value
    rank5: NDArray[np.int32]  # key sum of exactly 5 cards -> value
    flush: NDArray[np.int32]  # 13-bit mask -> value (0 where fewer than 5 bits)
    decide7: NDArray[np.int8]  # Korean: deciding rank for rank7 entries (-1 none)
    decide5: NDArray[np.int8]
    category: NDArray[np.int8]  # compressed value -> category index
    raw: NDArray[np.int64]  # compressed value -> raw encoded value (for names / tests)


def _multisets(n_cards: int) -> list[tuple[int, ...]]:
    out = []
    for combo in itertools.combinations_with_replacement(range(13), n_cards):
        counts = [0] * 13
        for r in combo:
            counts[r] += 1
        if max(counts) <= 4:
            out.append(tuple(counts))
    return out


def _build(korean: bool) -> Tables:
    keys = np.array(RANK_KEYS, dtype=np.int64)
    entries7: dict[int, tuple[int, int]] = {}
    entries5: dict[int, tuple[int, int]] = {}
    raw_values: set[int] = set()
    for n_cards, store in ((5, entries5), (7, entries7)):
        for counts in _multisets(n_cards):
            key = int(np.dot(keys, counts))
            if korean:
                val, dec = korean_rank_value(counts)
            else:
                val, dec = intl_rank_value(counts), -1
            if key in store:
                raise AssertionError("rank keys collide")  # pragma: no cover - verified at build
            store[key] = (val, dec)
            raw_values.add(val)
    flush_raw = np.zeros(1 << 13, dtype=np.int64)
    for mask in range(1 << 13):
        if mask.bit_count() >= 5:
            flush_raw[mask] = korean_flush_value(mask) if korean else intl_flush_value(mask)
            raw_values.add(int(flush_raw[mask]))
    ordered = np.array(sorted(raw_values), dtype=np.int64)
    index = {int(v): i + 1 for i, v in enumerate(ordered)}  # 0 = "no hand"
    size7 = max(entries7) + 1
    size5 = max(entries5) + 1
    rank7 = np.zeros(size7, dtype=np.int32)
    rank5 = np.zeros(size5, dtype=np.int32)
    decide7 = np.full(size7, -1, dtype=np.int8)
    decide5 = np.full(size5, -1, dtype=np.int8)
    for key, (val, dec) in entries7.items():
        rank7[key] = index[val]
        decide7[key] = dec
    for key, (val, dec) in entries5.items():
        rank5[key] = index[val]
        decide5[key] = dec
    flush = np.array([index[int(v)] if v else 0 for v in flush_raw], dtype=np.int32)
    raw = np.concatenate([[0], ordered])
    category = (raw >> 20).astype(np.int8)
    return Tables(rank7, rank5, flush, decide7, decide5, category, raw)


@lru_cache(maxsize=2)
def tables(korean: bool = False) -> Tables:
    """The (cached) tables of one ranking."""
    return _build(korean)


def _flush_values(tab: Tables, bits: IntArray, suitsum: IntArray) -> tuple[IntArray, IntArray]:
    """(flush value or 0, flush suit index or -1) from OR-ed card bits and summed suit nibbles."""
    has = ((suitsum + _FLUSH_TEST) & _FLUSH_MASK) != 0
    value = np.zeros(bits.shape, dtype=np.int64)
    suit = np.full(bits.shape, -1, dtype=np.int64)
    if has.any():
        idx = np.nonzero(has)
        ss = suitsum[idx]
        b = bits[idx]
        fsuit = np.zeros(ss.shape, dtype=np.int64)
        for s in range(4):
            fsuit = np.where(((ss >> (4 * s)) & 0xF) >= 5, s, fsuit)
        mask = (b >> (16 * fsuit)) & 0x1FFF
        value[idx] = tab.flush[mask]
        suit[idx] = fsuit
    return value, suit


def high7(cards: IntArray) -> IntArray:
    """International value of each row of seven card ids (shape ``(..., 7)``); higher is better."""
    tab = tables(False)
    key = CARD_KEY[cards].sum(axis=-1)
    value = tab.rank7[key].astype(np.int64)
    suitsum = CARD_SUITNIB[cards].sum(axis=-1)
    if (((suitsum + _FLUSH_TEST) & _FLUSH_MASK) != 0).any():
        bits = np.bitwise_or.reduce(CARD_BIT[cards], axis=-1)
        fval, _ = _flush_values(tab, bits, suitsum)
        value = np.where(fval > 0, fval, value)
    out: IntArray = np.asarray(value, dtype=np.int64)
    return out


def high7_parts(key: IntArray, suitsum: IntArray, bits: IntArray) -> IntArray:
    """International 7-card value from pre-summed parts (lets callers share the board's sums)."""
    tab = tables(False)
    value = tab.rank7[key].astype(np.int64)
    fval, _ = _flush_values(tab, bits, suitsum)
    return np.where(fval > 0, fval, value)


def high5(cards: IntArray) -> IntArray:
    """International value of each row of exactly five card ids (shape ``(..., 5)``)."""
    tab = tables(False)
    key = CARD_KEY[cards].sum(axis=-1)
    value = tab.rank5[key].astype(np.int64)
    suitsum = CARD_SUITNIB[cards].sum(axis=-1)
    flush = ((suitsum + _FLUSH_TEST) & _FLUSH_MASK) != 0
    if flush.any():
        bits = np.bitwise_or.reduce(CARD_BIT[cards], axis=-1)
        fval, _ = _flush_values(tab, bits, suitsum)
        value = np.where(flush, fval, value)
    out: IntArray = np.asarray(value, dtype=np.int64)
    return out


OMAHA_HOLE_PAIRS = np.array(list(itertools.combinations(range(4), 2)), dtype=np.int64)  # 6
OMAHA_BOARD_TRIPLES = np.array(list(itertools.combinations(range(5), 3)), dtype=np.int64)  # 10


def eval_omaha(hole: IntArray, board: IntArray) -> IntArray:
    """Omaha value (exactly two hole + three board cards, §5.4.2) for rows of 4 hole and 5 board cards.

    The 60 combinations are built from summed parts (6 hole pairs x 10 board triples) so the rank key, suit
    nibbles and bit masks are added, not recomputed per combination.
    """
    tab = tables(False)
    hp = hole[..., OMAHA_HOLE_PAIRS]  # (..., 6, 2)
    bt = board[..., OMAHA_BOARD_TRIPLES]  # (..., 10, 3)
    hkey = CARD_KEY[hp].sum(-1)[..., :, None]
    bkey = CARD_KEY[bt].sum(-1)[..., None, :]
    hs = CARD_SUITNIB[hp].sum(-1)[..., :, None]
    bs = CARD_SUITNIB[bt].sum(-1)[..., None, :]
    key = hkey + bkey
    suitsum = hs + bs
    value = tab.rank5[key].astype(np.int64)
    flush = ((suitsum + _FLUSH_TEST) & _FLUSH_MASK) != 0
    if flush.any():
        hb = (CARD_BIT[hp[..., 0]] | CARD_BIT[hp[..., 1]])[..., :, None]
        bb = (CARD_BIT[bt[..., 0]] | CARD_BIT[bt[..., 1]] | CARD_BIT[bt[..., 2]])[..., None, :]
        bits = np.broadcast_to(hb | bb, key.shape)
        idx = np.nonzero(flush)
        fval, _ = _flush_values(tab, bits[idx], suitsum[idx])
        value[idx] = fval
    result: IntArray = value.reshape(*value.shape[:-2], 60).max(axis=-1)
    return result


def korean7(cards: IntArray) -> IntArray:
    """Korean high value (§6.2) of rows of seven cards: ``class * 5 + suit strength`` of the deciding card."""
    tab = tables(True)
    key = CARD_KEY[cards].sum(axis=-1)
    value = tab.rank7[key].astype(np.int64)
    decide = tab.decide7[key].astype(np.int64)
    ranks = CARD_RANK[cards]
    ksuit = CARD_KSUIT[cards]
    tb = np.where(ranks == decide[..., None], ksuit, 0).max(axis=-1)
    suitsum = CARD_SUITNIB[cards].sum(axis=-1)
    if (((suitsum + _FLUSH_TEST) & _FLUSH_MASK) != 0).any():
        bits = np.bitwise_or.reduce(CARD_BIT[cards], axis=-1)
        fval, fsuit = _flush_values(tab, bits, suitsum)
        value = np.where(fval > 0, fval, value)
        tb = np.where(fval > 0, 4 - fsuit, tb)
    out: IntArray = np.asarray(value * 5 + tb, dtype=np.int64)
    return out


def category_of(values: IntArray, korean: bool = False) -> IntArray:
    """Category index (0 = high card/top ... 8 = straight flush) of compressed values."""
    tab = tables(korean)
    base = values // 5 if korean else values
    return tab.category[base].astype(np.int64)


def combinations_array(n: int, k: int) -> NDArray[np.int8]:
    """All k-subsets of range(n) as an int8 array of shape (C(n, k), k), in lexicographic order."""
    return _combinations_cached(n, k)


@lru_cache(maxsize=16)
def _combinations_cached(n: int, k: int) -> NDArray[np.int8]:
    if k == 0:
        return np.zeros((1, 0), dtype=np.int8)
    count = 1
    for i in range(k):
        count = count * (n - i) // (i + 1)
    flat = np.fromiter(itertools.chain.from_iterable(itertools.combinations(range(n), k)), dtype=np.int8,
                       count=count * k)
    out = flat.reshape(count, k)
    out.setflags(write=False)
    return out
