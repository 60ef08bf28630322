"""Vectorised international evaluation for many hands at once (equity and simulation tools).

Same values as :func:`pokerroom.hands.evaluate7` (``category << 20 | ranks``; larger is better), computed
with numpy: one gather-and-sum of per-card keys gives every hand's rank-key sum and suit counts, a dense
table indexed by the rank-key sum gives the no-flush value, and only the rows holding a flush (a few %)
get their flush suit's 13-bit rank mask looked up in an 8,192-entry table.

For 7 cards the index is the scalar evaluator's own flat array (shared, not copied); 5- and 6-card
dense tables are built on first use.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from pokerroom.hands import _tables as T

_CARD_KEY = np.array(T.CARD_KEY, dtype=np.int64)
_FLUSH_SHIFT = np.array(T.FLUSH_SHIFT, dtype=np.int8)
_RANK_BIT = np.array([1 << (i % 13) for i in range(52)], dtype=np.int32)
_SUIT = np.array([i // 13 for i in range(52)], dtype=np.int8)
_DENSE: dict[int, npt.NDArray[np.int32]] = {}
_FLUSH13: list[npt.NDArray[np.int32]] = []
_SEVEN: list[tuple[npt.NDArray[np.uint16], npt.NDArray[np.int32]]] = []


def _seven() -> tuple[npt.NDArray[np.uint16], npt.NDArray[np.int32]]:
    """7 cards: the scalar path's flat index (shared memory, no copy) and the values by index."""
    if not _SEVEN:
        T.load_index7()
        intl = T.rank_tables(7)[0]
        index = np.frombuffer(T.INDEX7, dtype=np.uint16)
        values = np.fromiter((intl[key] for key in T.ORDER7), dtype=np.int32, count=len(T.ORDER7))
        _SEVEN.append((index, values))
    return _SEVEN[0]


def _dense(n: int) -> npt.NDArray[np.int32]:
    """5 or 6 cards: rank-key sum -> value (a dense table, about 26-29 MB, built on first use)."""
    table = _DENSE.get(n)
    if table is None:
        intl = T.rank_tables(n)[0]
        keys = np.fromiter(intl.keys(), dtype=np.int64, count=len(intl))
        values = np.fromiter(intl.values(), dtype=np.int32, count=len(intl))
        table = np.zeros(int(keys.max()) + 1, dtype=np.int32)
        table[keys] = values
        _DENSE[n] = table
    return table


def _flush13() -> npt.NDArray[np.int32]:
    if not _FLUSH13:
        table = np.zeros(8192, dtype=np.int32)
        for sparse, value in T.flush_tables()[0].items():
            mask = 0
            for r in range(13):
                if sparse >> (4 * r) & 1:
                    mask |= 1 << r
            table[mask] = value
        _FLUSH13.append(table)
    return _FLUSH13[0]


def international_high_batch(ids: npt.ArrayLike) -> npt.NDArray[np.int32]:
    """Values of ``N`` hands given as an ``(N, k)`` array of card ids, ``k`` in 5..7 (``uint8`` is ideal).

    >>> import numpy as np
    >>> from pokerroom.cards import parse_cards
    >>> from pokerroom.hands import evaluate7_ids
    >>> hands = [[c.id for c in parse_cards(t)] for t in ("As Ks Qs Js Ts 2d 3c", "2c 2d 5h 9s Jd Kc 4h")]
    >>> values = international_high_batch(np.array(hands, dtype=np.uint8))
    >>> values.tolist() == [evaluate7_ids(h) for h in hands]
    True
    """
    cards: npt.NDArray[Any] = np.asarray(ids)
    if cards.ndim != 2 or not 5 <= cards.shape[1] <= 7:
        raise ValueError("expected an (N, 5..7) array of card ids")
    if cards.size and (int(cards.min()) < 0 or int(cards.max()) > 51):
        raise ValueError("card ids must be 0..51")
    n = cards.shape[1]
    keys = _CARD_KEY[cards].sum(axis=1)
    shift = _FLUSH_SHIFT[keys & 4095]
    rank_sum = keys >> 12
    values: npt.NDArray[np.int32]
    if n == 7:
        index, by_index = _seven()
        if rank_sum.size and int(rank_sum.max()) >= index.shape[0]:
            raise ValueError("not valid hands (a rank more than four times)")
        values = by_index[index[rank_sum]]
    else:
        dense = _dense(n)
        if rank_sum.size and int(rank_sum.max()) >= dense.shape[0]:
            raise ValueError("not valid hands (a rank more than four times)")
        values = dense[rank_sum]
    rows = np.flatnonzero(shift >= 0)
    if rows.size:
        flush_cards = cards[rows]
        suit = (3 - shift[rows]).astype(np.int8)
        in_suit = _SUIT[flush_cards] == suit[:, None]
        masks = np.where(in_suit, _RANK_BIT[flush_cards], 0).sum(axis=1)
        values[rows] = _flush13()[masks]
    return values
