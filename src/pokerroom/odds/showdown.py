"""Showdown values of many deals at once, and the win/tie/category tallies of the high hand.

Why here: the equity driver evaluates batches of completed deals (hole cards per player plus the board)
with the batch evaluators of :mod:`pokerroom.hands.batch`; hold'em takes a faster path
(:class:`HoldemParts`) that adds per-card keys column by column. :class:`Accumulator` turns the values
into the integer tallies every fraction of :class:`pokerroom.odds.equity.EquityResult` is computed from.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from pokerroom.hands import batch as hb
from pokerroom.odds.modes import KOREAN_MODES

#: The showdown tally keeps nine categories in both rankings: Korean keys' 13 categories (§6.2) fold
#: 백 스트레이트/마운틴 into 스트레이트 and 백 스트레이트 플러시/로열 into 스트레이트 플러시.
_KOREAN_TALLY = np.array([0, 1, 2, 3, 4, 4, 4, 5, 6, 7, 8, 8, 8], dtype=np.int64)
HIGH_CATEGORY_NAMES: tuple[str, ...] = hb.INTERNATIONAL_CATEGORY_NAMES
KOREAN_CATEGORY_NAMES: tuple[str, ...] = tuple(
    hb.KOREAN_CATEGORY_NAMES[i] for i in (0, 1, 2, 3, 4, 7, 8, 9, 10)
)


class HoldemParts:
    """Hold'em values straight from completion rows, adding per-card parts column by column.

    Known cards contribute constants, so a heads-up "AA vs KK" costs five gathers for the board plus one
    table lookup per player. Each card's :data:`pokerroom.hands.batch.CARD_KEY` carries its rank key and
    its suit counter, so one gather and one add per column carry both; only the few rows that hold a flush
    are re-evaluated from their cards.
    """

    def __init__(self, unseen: NDArray[np.int64], board: NDArray[np.int64], holes: list[NDArray[np.int64]],
                 groups: Sequence[int]) -> None:
        self.unseen = unseen
        self.packed = hb.CARD_KEY[unseen]
        self.board = board
        self.holes = holes
        self.groups = list(groups)
        self.board_packed = int(hb.CARD_KEY[board].sum())
        self.hole_packed = [int(hb.CARD_KEY[h].sum()) for h in holes]

    def _sum(self, rows: NDArray[np.integer[Any]], lo: int, hi: int, base: int) -> NDArray[np.int64]:
        total = np.full(rows.shape[0], base, dtype=np.int64)
        for c in range(lo, hi):
            total += self.packed[rows[:, c]]
        return total

    def values(self, rows: NDArray[np.integer[Any]]) -> NDArray[np.int64]:
        n = rows.shape[0]
        nb = self.groups[0]
        board = self._sum(rows, 0, nb, self.board_packed)
        out = np.empty((n, len(self.holes)), dtype=np.int64)
        offset = nb
        for p, _hole in enumerate(self.holes):
            g = self.groups[p + 1]
            if g:
                total = board + self._sum(rows, offset, offset + g, self.hole_packed[p])
            else:
                total = board + self.hole_packed[p]
            value, idx = hb.international_high_sums(total)
            if idx.size:
                cards = np.concatenate([
                    np.broadcast_to(self.board, (idx.size, self.board.size)),
                    self.unseen[rows[idx, :nb]],
                    np.broadcast_to(self.holes[p], (idx.size, self.holes[p].size)),
                    self.unseen[rows[idx, offset : offset + g]],
                ], axis=1)
                value[idx] = hb.international_high_batch(cards)
            out[:, p] = value
            offset += g
        return out


def evaluate_deals(mode: str, holes: NDArray[np.int64], board: NDArray[np.int64]) -> NDArray[np.int64]:
    """Showdown values, shape (n, players), from holes (n, players, hole) and board (n, board) card ids."""
    n, players, _ = holes.shape
    values = np.empty((n, players), dtype=np.int64)
    if mode == "holdem":
        for p in range(players):
            values[:, p] = hb.international_high_batch(np.concatenate([holes[:, p, :], board], axis=1))
    elif mode == "omaha":
        for p in range(players):
            values[:, p] = hb.omaha_high_batch(holes[:, p, :], board)
    elif mode in KOREAN_MODES:
        for p in range(players):
            values[:, p] = hb.korean_high_batch(holes[:, p, :])
    else:
        raise ValueError(f"unknown equity mode {mode!r}")
    return values


class Accumulator:
    """Integer tallies per player: wins by the number of players sharing the best hand, and categories.

    Equity, its standard error and win/tie fractions are all functions of ``shared[p, k]`` (rows where p is
    among k best): equity = Σ_k shared[p,k] / k, E[share²] = Σ_k shared[p,k] / k².
    """

    def __init__(self, players: int, korean: bool, categories: bool = True) -> None:
        self.track_categories = categories
        self.n = 0
        self.players = players
        self.shared = np.zeros((players, players + 1), dtype=np.int64)
        self.cat = np.zeros((players, 9), dtype=np.int64)
        self.korean = korean

    def add(self, values: NDArray[np.int64] | NDArray[np.int32]) -> None:
        self.n += values.shape[0]
        if self.players == 2:
            a, b = values[:, 0], values[:, 1]
            a_wins = int(np.count_nonzero(a > b))
            b_wins = int(np.count_nonzero(b > a))
            ties = values.shape[0] - a_wins - b_wins
            self.shared[0, 1] += a_wins
            self.shared[1, 1] += b_wins
            self.shared[:, 2] += ties
        else:
            best = values.max(axis=1, keepdims=True)
            winners = values == best
            count = winners.sum(axis=1)
            for p in range(self.players):
                self.shared[p] += np.bincount(count[winners[:, p]], minlength=self.players + 1)
        if not self.track_categories:
            return
        cats = _KOREAN_TALLY[hb.korean_category(values)] if self.korean else hb.international_category(values)
        for p in range(self.players):
            self.cat[p] += np.bincount(cats[:, p], minlength=9)[:9]

    def fractions(self) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64],
                                 NDArray[np.float64]]:
        """(win, tie, equity, E[share²]) per player."""
        k = np.arange(self.players + 1, dtype=np.float64)
        k[0] = 1.0
        n = float(self.n)
        win = self.shared[:, 1] / n
        tie = self.shared[:, 2:].sum(axis=1) / n
        eq = (self.shared / k).sum(axis=1) / n
        eq2 = (self.shared / (k * k)).sum(axis=1) / n
        return win, tie, eq, eq2


def category_names(mode: str) -> tuple[str, ...]:
    """Korean names of the category indices used in :attr:`EquityResult.categories`."""
    return KOREAN_CATEGORY_NAMES if mode in KOREAN_MODES else HIGH_CATEGORY_NAMES

