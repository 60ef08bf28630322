"""Hold'em equity when every hole card is known ("AA vs KK", a 3-way all-in): the fast path of
:func:`pokerroom.odds.equity`.

Why: with the holes known, a player's non-flush value depends only on the board's rank multiset (6,175 of
them for five cards). So each player gets a 6,175-entry table (25 kB, it stays in the CPU cache) when the
call starts, and a deal costs one sum of per-card board keys, one read of the board's multiset index and
one read per player, instead of two reads per player in the 15 MB 7-card tables (cache misses on every
row). Only rows where a player can hold a flush (the board's suit counts plus the hole's reach five) are
valued from their cards by the batch evaluator.

The Monte Carlo deals come from :func:`draw_rows`, a rejection sampler on raw 32-bit outputs: uniform
over ordered tuples of distinct cards, like :func:`pokerroom.odds.sample_completions`, but without that
function's promise to deal numpy's own stream (the bots' recorded decisions need that promise, the odds
tool does not), which makes it several times cheaper.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np
from numpy.typing import NDArray

from pokerroom.hands import _tables as T
from pokerroom.hands import batch as hb
from pokerroom.hands import omaha_table as OT
from pokerroom.odds.sampling import sample_completions

#: per card id: board key (:data:`pokerroom.hands.omaha_table.BK`: 5-rank multisets have distinct sums,
#: and the suit counter in the low 12 bits); the sum of five fits in an int32
_BK = np.array(OT.BK, dtype=np.int32)
_STRENGTH = np.array(T.FLUSH_SHIFT, dtype=np.int8)  # suit counts -> Korean strength of the 5+ suit, or -1
_FLUSH = _STRENGTH >= 0
_ID_BIT = np.left_shift(np.int64(1), np.arange(52, dtype=np.int64))


@lru_cache(maxsize=1)
def _boards() -> tuple[NDArray[np.int32], NDArray[np.int64]]:
    """Board key sum (>> 12) -> index of the 5-rank multiset, and each multiset's 7-card rank-key sum
    (:data:`pokerroom.hands._tables.RANK_KEY`) for adding a hole's."""
    sums, rank_sums = [], []
    counts = [0] * 13

    def walk(rank: int, left: int, key: int, rk: int) -> None:
        if left == 0:
            sums.append(key)
            rank_sums.append(rk)
            return
        if rank == 13:
            return
        for k in range(min(4, left), -1, -1):
            counts[rank] = k
            walk(rank + 1, left - k, key + k * OT.BOARD_KEY[rank], rk + k * T.RANK_KEY[rank])
        counts[rank] = 0

    walk(0, 5, 0, 0)
    index = np.full(max(sums) + 1, -1, dtype=np.int32)
    index[np.array(sums)] = np.arange(len(sums), dtype=np.int32)
    if len(set(sums)) != len(sums):  # pragma: no cover - guards the key property
        raise AssertionError("board keys collide")
    index.setflags(write=False)
    return index, np.array(rank_sums, dtype=np.int64)


@lru_cache(maxsize=512)
def _player(hole: tuple[int, int]) -> tuple[NDArray[np.int32], NDArray[np.bool_], NDArray[np.int64], int]:
    """A hole's tables: value by board multiset (no flush), whether board suit counts give it a flush, the
    flush suit's shift in a ``1 << id`` mask, and the hole's own mask. Cached: a hint or a bot asks about
    the same hands again and again, and building them costs as much as a few thousand deals."""
    _index, board_rank = _boards()
    intl, idx7 = hb._intl(7), hb._index(7)
    rk = board_rank + T.CARD_RANK_KEY[hole[0]] + T.CARD_RANK_KEY[hole[1]]
    # boards the hole makes impossible (five of a rank) get any value: they are never dealt
    table = intl[idx7[np.minimum(rk, idx7.shape[0] - 1)]].astype(np.int32)
    counts = (1 << (3 * (hole[0] // 13))) + (1 << (3 * (hole[1] // 13)))
    # a real board holds at most five cards of a suit, so adding the hole's two never carries
    strength = _STRENGTH[(_COUNTS + counts) & 4095].astype(np.int64)
    shift = 13 * (3 - np.maximum(strength, 0))
    flushable = strength >= 0
    for a in (table, shift, flushable):
        a.setflags(write=False)
    return table, flushable, shift, (1 << hole[0]) | (1 << hole[1])


_COUNTS = np.arange(4096)


@lru_cache(maxsize=1)
def pair_table() -> tuple[NDArray[np.int32], NDArray[np.int32]]:
    """Non-flush hold'em values by (board rank multiset, hole rank pair): a flat table indexed by
    ``board_index * 91 + pair_index``, and the pair index of two card ids (``pair[a * 52 + b]``). Why: with
    unknown holes (random opponents) there is no per-player table, and the 7-card index (15 MB) costs a cache
    miss per hand; this one is 2 MB and a deal's hands share their board's row."""
    _index, board_rank = _boards()
    intl, idx7 = hb._intl(7), hb._index(7)
    pairs = [(a, b) for a in range(13) for b in range(a, 13)]
    pair_rank = np.array([T.RANK_KEY[a] + T.RANK_KEY[b] for a, b in pairs], dtype=np.int64)
    rk = board_rank[:, None] + pair_rank[None, :]
    # combinations a hole makes impossible (five of a rank) get any value: they are never dealt
    table = intl[idx7[np.minimum(rk, idx7.shape[0] - 1)]].astype(np.int32).ravel()
    at = {p: i for i, p in enumerate(pairs)}
    pair = np.array([at[(min(a % 13, b % 13), max(a % 13, b % 13))] for a in range(52) for b in range(52)],
                    dtype=np.int32)
    for arr in (table, pair):
        arr.setflags(write=False)
    return table, pair


class HoldemKnown:
    """Showdown values of completion rows when every player's two hole cards are known.

    ``rows`` (n, k) index ``unseen``: the first ``5 - len(board)`` columns complete the board (the only
    unknown cards). :meth:`values` returns (n, players) international values, equal to
    :func:`pokerroom.hands.evaluate7_ids` of each player's seven cards.
    """

    def __init__(self, unseen: NDArray[np.int64], board: NDArray[np.int64],
                 holes: list[NDArray[np.int64]]) -> None:
        self.index = _boards()[0]
        self.unseen = unseen
        self.board = board
        self.keys = _BK[unseen]
        self.base = int(_BK[board].sum()) if board.size else 0
        board_mask = sum(1 << int(c) for c in board)
        self.players = [_player((int(h[0]), int(h[1]))) for h in holes]
        self.masks = [board_mask | p[3] for p in self.players]

    def values(self, rows: NDArray[np.integer[Any]]) -> NDArray[np.int32]:
        """Values of ``rows`` (n, k), returned column-major (each player's column contiguous); rows made
        column-major too (:func:`draw_rows`) gather fastest."""
        n = rows.shape[0]
        nb = 5 - self.board.size
        key = np.full(n, self.base, dtype=np.int32)
        for c in range(nb):
            key += self.keys.take(rows[:, c])
        multiset = self.index.take(key >> 12)
        suits = key & 4095
        out = np.empty((n, len(self.players)), dtype=np.int32, order="F")
        flush13 = hb._flush13()[0]
        for p, (table, flushable, shift, _mask) in enumerate(self.players):
            value = out[:, p]
            table.take(multiset, out=value)
            flush = np.flatnonzero(flushable.take(suits))
            if flush.size:
                # with seven cards a flush beats anything else the cards could make: its suit's ranks decide
                mask = np.bitwise_or.reduce(_ID_BIT[self.unseen[rows[flush, :nb]]], axis=1) | self.masks[p]
                value[flush] = flush13[(mask >> shift[suits[flush]]) & 8191]
        return out


def draw_rows(rng: np.random.Generator, unseen: int, take: int, n: int) -> NDArray[np.integer[Any]]:
    """``n`` uniform draws of ``take`` distinct indices below ``unseen`` (each row uniform over ordered
    tuples). Up to six from 30 or more: from raw 16-bit pieces of the generator's outputs by Lemire's
    multiply-shift, where a row with a repeated index, or with a number whose product falls in the biased
    sliver (a chance of ``65536 % unseen / 65536`` per number), is drawn again whole, which keeps the
    accepted rows exactly uniform. More cards: :func:`pokerroom.odds.sample_completions`.

    Returned as the transpose of a (take, n) array: every column is contiguous, and numpy gathers and
    compares contiguous int16 columns many times faster than strided or wide ones."""
    if take == 0:
        return np.zeros((n, 0), dtype=np.int16)
    if take > 6 or unseen < 30:
        # many cards (random opponents' holes too) or a small deck: most rows would repeat a card, so a
        # partial Fisher-Yates shuffle (numpy's own stream, also column-major) is the cheaper way
        return sample_completions(rng, unseen, take, n)
    if not 0 < unseen <= 1 << 15:
        raise ValueError("unseen must be 1..32768")
    bound = np.uint32(unseen)
    threshold = np.uint32((1 << 16) % unseen)
    out = np.empty((take, n), dtype=np.int16)
    todo: NDArray[np.intp] | None = None
    m = n
    while m:
        raw = rng.bit_generator.random_raw((m * take + 3) // 4)
        product = np.multiply(raw.view(np.uint16)[: m * take], bound, dtype=np.uint32)
        cols = (product >> _SHIFT16).astype(np.int16).reshape(take, m)
        bad = np.zeros(m, dtype=bool)
        for a in range(take):
            for b in range(a + 1, take):
                bad |= cols[a] == cols[b]
        if threshold:
            low = (product & _LOW16) < threshold
            if low.any():
                bad |= low.reshape(take, m).any(axis=0)
        if todo is None:
            out[:] = cols
            todo = np.flatnonzero(bad)
        else:
            out[:, todo] = cols
            todo = todo[bad]
        m = todo.size
    return out.T


_LOW16 = np.uint32(0xFFFF)
_SHIFT16 = np.uint32(16)
