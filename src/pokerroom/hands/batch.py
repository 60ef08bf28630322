"""Vectorised evaluation of many hands at once (equity, bots and simulation tools), on numpy arrays.

Every function returns exactly the scalar evaluator's integer, so batch and scalar values mix freely:

- :func:`international_high_batch` — :func:`pokerroom.hands.evaluate_ids` (``category << 20 | ranks``).
- :func:`omaha_high_batch` — :func:`pokerroom.hands.omaha_ids` (on its tables, :mod:`.omaha_table`).
- :func:`korean_high_batch` — :func:`pokerroom.hands.korean_key_ids` (``category << 22 | ranks << 2 |
  suit``), the §6.2 key of :func:`pokerroom.hands.korean_high` without its lazy card-mask tie-break (which
  only separates card sets that share cards, never two hands of one deal).
- :func:`international_high_sums` — the international value from pre-summed :data:`CARD_KEY` parts, for
  callers that share a board's sum between players (:func:`international_high_sums_masks`: flushes too,
  from the card masks' sums).

Larger is better, equal is a tie. How: one gather-and-sum of per-card keys (:data:`CARD_KEY`) gives every
hand's rank-key sum and suit counts; a flat index by the rank-key sum gives the rank multiset, whose value
comes from the same tables the scalar evaluators use (:mod:`pokerroom.hands._tables`: one set per
ranking); only the rows holding a flush (a few %) get their flush suit's 13-bit rank mask looked up in an
8,192-entry table. For 7 cards the index is the scalar evaluator's own flat array (shared, not copied); the
5- and 6-card indexes are built on first use.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt

from pokerroom.hands import _tables as T
from pokerroom.hands import omaha_table as _OT

#: per card id: ``rank key << 12 | suit counter`` (:data:`pokerroom.hands._tables.CARD_KEY`). Sums over up
#: to seven distinct cards carry the rank multiset (``sum >> 12``) and the four suit counts (low 12 bits).
CARD_KEY: npt.NDArray[np.int64] = np.array(T.CARD_KEY, dtype=np.int64)
CARD_KEY.setflags(write=False)
#: Category names by index: ``value >> 20`` (international) and ``key >> 22`` (Korean, §6.2).
INTERNATIONAL_CATEGORY_NAMES: tuple[str, ...] = tuple(T.INTL_NAMES)
KOREAN_CATEGORY_NAMES: tuple[str, ...] = tuple(T.KOREAN_NAMES)

_FLUSH_SHIFT = np.array(T.FLUSH_SHIFT, dtype=np.int8)
_RANK_BIT = np.array([1 << (i % 13) for i in range(52)], dtype=np.int32)
_STRENGTH = np.array([3 - i // 13 for i in range(52)], dtype=np.int8)  # Korean suit strength, ♠ 3 .. ♣ 0
_CARD_BIT = np.array(T.CARD_BIT, dtype=np.int64)  # the Korean 52-bit card mask
_TOP_SUIT = np.array(T.TOP_SUIT, dtype=np.int64)
_K = TypeVar("_K")
_V = TypeVar("_V")
#: Tables built on first use (:func:`_once`), by number of cards.
_INDEX: dict[int, npt.NDArray[np.uint16]] = {}
_INTL: dict[int, npt.NDArray[np.int32]] = {}
_KOREAN: dict[int, tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64]]] = {}
_FLUSH13: dict[int, tuple[npt.NDArray[np.int32], npt.NDArray[np.int64]]] = {}  # (one entry, key 13)


def _order(n: int) -> list[int]:
    """The rank-key sums of ``n`` cards in index order (for 7: the scalar evaluators' :data:`T.ORDER7`)."""
    if n == 7:
        T.load_index7()
        return T.ORDER7
    return list(T.rank_tables(n)[0])


def _once(cache: dict[_K, _V], key: _K, build: Callable[[_K], _V]) -> _V:
    """``cache[key]``, made by ``build(key)`` on first use. The build runs under the tables' build lock, so
    a concurrent first call waits for it instead of repeating it."""
    value = cache.get(key)
    if value is None:
        with T.BUILD_LOCK:
            value = cache.get(key)
            if value is None:
                value = cache[key] = build(key)
    return value


def _index(n: int) -> npt.NDArray[np.uint16]:
    """Rank-key sum of ``n`` cards (5..7) -> index of its rank multiset."""
    return _once(_INDEX, n, _build_index)


def _build_index(n: int) -> npt.NDArray[np.uint16]:
    if n == 7:
        T.load_index7()
        return np.frombuffer(T.INDEX7, dtype=np.uint16)  # shared with the scalar path, no copy
    order = np.array(_order(n), dtype=np.int64)
    index = np.zeros(int(order.max()) + 1, dtype=np.uint16)
    index[order] = np.arange(order.size, dtype=np.uint16)
    return index


def _intl(n: int) -> npt.NDArray[np.int32]:
    """International no-flush value by rank-multiset index."""
    return _once(_INTL, n, _build_intl)


def _build_intl(n: int) -> npt.NDArray[np.int32]:
    intl = T.rank_tables(n)[0]
    order = _order(n)
    return np.fromiter((intl[key] for key in order), dtype=np.int32, count=len(order))


def _korean(n: int) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Korean no-flush info by rank-multiset index: (key without suit, shift of the deciding rank's
    nibble in the card mask, 3 where that rank's best suit decides ties else 0)."""
    return _once(_KOREAN, n, _build_korean)


def _build_korean(n: int) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    korean = T.rank_tables(n)[1]
    rows = [korean[key] for key in _order(n)]
    base = np.array([row[0] for row in rows], dtype=np.int64)
    shift = np.array([max(row[3], 0) for row in rows], dtype=np.int64)
    suited = np.array([3 if row[3] >= 0 else 0 for row in rows], dtype=np.int64)
    return base, shift, suited


def _flush13() -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int64]]:
    """13-bit rank mask of the flush suit -> international value, and -> Korean key without the suit."""
    return _once(_FLUSH13, 13, _build_flush13)


def _build_flush13(_bits: int) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int64]]:
    intl_flush, korean_flush = T.flush_tables()
    intl = np.zeros(8192, dtype=np.int32)
    korean = np.zeros(8192, dtype=np.int64)
    for sparse, value in intl_flush.items():
        mask = 0
        for r in range(13):
            if sparse >> (4 * r) & 1:
                mask |= 1 << r
        intl[mask] = value
        korean[mask] = korean_flush[sparse][0]
    return intl, korean


def _check(ids: npt.ArrayLike) -> npt.NDArray[Any]:
    cards: npt.NDArray[Any] = np.asarray(ids)
    if cards.ndim != 2 or not 5 <= cards.shape[1] <= 7:
        raise ValueError("expected an (N, 5..7) array of card ids")
    if cards.size and (int(cards.min()) < 0 or int(cards.max()) > 51):
        raise ValueError("card ids must be 0..51")
    return cards


def _multiset(rank_sum: npt.NDArray[np.int64], n: int) -> npt.NDArray[np.uint16]:
    index = _index(n)
    if rank_sum.size and int(rank_sum.max()) >= index.shape[0]:
        raise ValueError("not valid hands (a rank more than four times)")
    return index[rank_sum]


def _flush_masks(cards: npt.NDArray[Any], strength: npt.NDArray[np.int8]) -> npt.NDArray[np.int32]:
    """13-bit rank mask of each row's cards of the given suit strength."""
    in_suit = _STRENGTH[cards] == strength[:, None]
    masks: npt.NDArray[np.int32] = np.where(in_suit, _RANK_BIT[cards], 0).sum(axis=1, dtype=np.int32)
    return masks


def international_high_sums(sums: npt.ArrayLike, n: int = 7) -> tuple[npt.NDArray[np.int32],
                                                                     npt.NDArray[np.intp]]:
    """International values of hands of ``n`` cards (5..7) given as sums of :data:`CARD_KEY` over their
    cards, and the rows that hold a flush: those rows' values are the no-flush ones, so the caller
    replaces them with :func:`international_high_batch` of those rows' cards (a few % of random hands).

    >>> from pokerroom.cards import parse_cards
    >>> from pokerroom.hands import evaluate7_ids
    >>> ids = [c.id for c in parse_cards("As Ks 2d 2c 9h 9d 3c")]
    >>> values, flush_rows = international_high_sums(np.array([CARD_KEY[ids].sum()]))
    >>> int(values[0]) == evaluate7_ids(ids), flush_rows.size
    (True, 0)
    """
    keys = np.asarray(sums, dtype=np.int64)
    values = _intl(n)[_multiset(keys >> 12, n)]
    return values, np.flatnonzero(_FLUSH_SHIFT[keys & 4095] >= 0)


def international_high_sums_masks(sums: npt.ArrayLike, masks: npt.ArrayLike,
                                  n: int = 7) -> npt.NDArray[np.int32]:
    """International values of hands of ``n`` cards (5..7), flushes included, from two sums over each
    hand's cards: of :data:`CARD_KEY` and of ``1 << id`` (the card mask). Why: a caller that shares a
    board's sums between players (the bots' Monte Carlo) values every player without regathering cards;
    the mask holds each suit's 13 rank bits at ``13 * suit`` (ids are ``13 * suit + rank - 2``), which is the
    flush suit's rank mask the flush table is indexed by.

    >>> from pokerroom.cards import parse_cards
    >>> from pokerroom.hands import evaluate7_ids
    >>> ids = [c.id for c in parse_cards("As Ks 2s 2c 9s 9d 3s")]
    >>> value = international_high_sums_masks([CARD_KEY[ids].sum()], [sum(1 << i for i in ids)])[0]
    >>> int(value) == evaluate7_ids(ids), int(value) >> 20   # a flush
    (True, 5)
    """
    keys = np.asarray(sums, dtype=np.int64)
    values: npt.NDArray[np.int32] = _intl(n)[_multiset(keys >> 12, n)]
    strength = _FLUSH_SHIFT[keys & 4095]
    rows = np.flatnonzero(strength >= 0)
    if rows.size:
        suit = 3 - strength[rows].astype(np.int64)  # strength 3 (♠) .. 0 (♣); ids are in ♠ ◆ ♥ ♣ order
        ranks = (np.asarray(masks, dtype=np.int64)[rows] >> (13 * suit)) & 8191
        values[rows] = _flush13()[0][ranks]
    return values


def international_high_batch(ids: npt.ArrayLike) -> npt.NDArray[np.int32]:
    """Values of ``N`` hands given as an ``(N, k)`` array of card ids, ``k`` in 5..7 (``uint8`` is ideal).

    >>> from pokerroom.cards import parse_cards
    >>> from pokerroom.hands import evaluate7_ids
    >>> hands = [[c.id for c in parse_cards(t)] for t in ("As Ks Qs Js Ts 2d 3c", "2c 2d 5h 9s Jd Kc 4h")]
    >>> values = international_high_batch(np.array(hands, dtype=np.uint8))
    >>> values.tolist() == [evaluate7_ids(h) for h in hands]
    True
    """
    cards = _check(ids)
    n = cards.shape[1]
    keys = CARD_KEY[cards].sum(axis=1)
    values = _intl(n)[_multiset(keys >> 12, n)]
    shift = _FLUSH_SHIFT[keys & 4095]
    rows = np.flatnonzero(shift >= 0)
    if rows.size:
        values[rows] = _flush13()[0][_flush_masks(cards[rows], shift[rows])]
    return values


_OHK = np.array(_OT.HK, dtype=np.int64)
_OBK = np.array(_OT.BK, dtype=np.int64)
_OGATE = np.array(_OT.FLUSH_GATE, dtype=np.int64)
_OSHIFT = np.array(_OT.FLUSH_SHIFT, dtype=np.int64)
_ID_BIT = np.left_shift(np.int64(1), np.arange(52, dtype=np.int64))


def omaha_high_batch(hole: npt.ArrayLike, board: npt.ArrayLike) -> npt.NDArray[np.int32]:
    """Omaha values (exactly two of the four hole cards and three board cards, §5.4.2) of ``N`` hands:
    ``hole`` is ``(N, 4)`` and ``board`` ``(N, 3..5)`` card ids; equal to :func:`pokerroom.hands.omaha_ids`.

    The scalar evaluator's tables (:mod:`pokerroom.hands.omaha_table`), gathered for every row at once: one
    read per hand, a second for the rows that can hold a flush.

    >>> from pokerroom.cards import parse_cards
    >>> hole = [[c.id for c in parse_cards("As Kd Qd 2c")]]
    >>> board = [[c.id for c in parse_cards("Ks 9s 5s 3s 7h")]]
    >>> int(omaha_high_batch(hole, board)[0]) >> 20   # one spade in hand: a pair of kings, no flush
    1
    """
    holes: npt.NDArray[Any] = np.asarray(hole)
    boards: npt.NDArray[Any] = np.asarray(board)
    if holes.ndim != 2 or holes.shape[1] != 4 or boards.ndim != 2 or not 3 <= boards.shape[1] <= 5 \
            or holes.shape[0] != boards.shape[0]:
        raise ValueError("Omaha needs (N, 4) hole and (N, 3..5) board card ids")
    for part in (holes, boards):
        if part.size and (int(part.min()) < 0 or int(part.max()) > 51):
            raise ValueError("card ids must be 0..51")
    _OT.load()
    tables = _OT.NP
    n = boards.shape[1]
    hk = _OHK[holes].sum(axis=1)
    bk = _OBK[boards].sum(axis=1)
    board_offset = tables[f"board{n}"]
    if bk.size and int((bk >> 12).max()) >= board_offset.shape[0]:
        raise ValueError("not valid Omaha hands (a rank more than four times)")
    best = tables[f"table{n}"][board_offset[bk >> 12] + tables["hole"][hk >> 12]]
    rows = np.flatnonzero(hk & _OGATE[bk & 4095])
    if rows.size:
        sh = _OSHIFT[bk[rows] & 4095]
        hm = (_ID_BIT[holes[rows]].sum(axis=1) >> sh) & 8191
        bm = (_ID_BIT[boards[rows]].sum(axis=1) >> sh) & 8191
        flush = tables["ftable"][tables["fboard"][bm] + tables["fhole"][hm]]
        best[rows] = np.maximum(best[rows], flush)
    out: npt.NDArray[np.int32] = tables["values"][best].astype(np.int32)
    return out


def korean_high_batch(ids: npt.ArrayLike) -> npt.NDArray[np.int64]:
    """Korean keys (§6.2) of ``N`` hands given as an ``(N, k)`` array of card ids, ``k`` in 5..7: equal to
    :func:`pokerroom.hands.korean_key_ids`, so two hands of one deal compare exactly as
    :func:`pokerroom.hands.korean_high` does (and never tie).

    >>> from pokerroom.cards import parse_cards
    >>> from pokerroom.hands import korean_key_ids
    >>> hands = [[c.id for c in parse_cards(t)] for t in ("7s 7c 2d 4h 9c Jd Kh", "7d 7h 3s 5c 8d Qc Ts")]
    >>> keys = korean_high_batch(hands)
    >>> keys.tolist() == [korean_key_ids(h) for h in hands], bool(keys[0] > keys[1])
    (True, True)
    """
    cards = _check(ids)
    n = cards.shape[1]
    keys = CARD_KEY[cards].sum(axis=1)
    mask = _CARD_BIT[cards].sum(axis=1)
    base, shift, suited = _korean(n)
    index = _multiset(keys >> 12, n)
    sh = shift[index]
    out: npt.NDArray[np.int64] = base[index] | (_TOP_SUIT[(mask >> sh) & 15] & suited[index])
    strength = _FLUSH_SHIFT[keys & 4095]
    rows = np.flatnonzero(strength >= 0)
    if rows.size:
        st = strength[rows]
        out[rows] = _flush13()[1][_flush_masks(cards[rows], st)] | st
    return out


def international_category(values: npt.ArrayLike) -> npt.NDArray[np.int64]:
    """Category (0 하이카드 .. 8 스트레이트 플러시, :data:`INTERNATIONAL_CATEGORY_NAMES`) of values."""
    out: npt.NDArray[np.int64] = np.asarray(values, dtype=np.int64) >> 20
    return out


def korean_category(keys: npt.ArrayLike) -> npt.NDArray[np.int64]:
    """Category (0 탑 .. 12 로열 스트레이트 플러시, :data:`KOREAN_CATEGORY_NAMES`) of Korean keys."""
    out: npt.NDArray[np.int64] = np.asarray(keys, dtype=np.int64) >> 22
    return out
