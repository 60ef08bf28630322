"""Exact enumeration: every equally likely way to fill the unseen cards, as rows of indices.

Why separate from sampling: the two produce the same kind of rows (indices into the unseen list, group by
group) for the same evaluation, but enumeration is pure combinatorics with no generator in sight; the equity
driver picks one or the other by :func:`count_completions`.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from functools import lru_cache

import numpy as np
from numpy.typing import NDArray


def count_completions(unseen: int, groups: Sequence[int]) -> int:
    """How many equally likely ways to fill ``groups`` (sizes) from ``unseen`` cards, order-free per group."""
    total, left = 1, unseen
    for g in groups:
        if g > left:
            return 0
        total *= math.comb(left, g)
        left -= g
    return total


def enumerate_completions(unseen: int, groups: Sequence[int]) -> NDArray[np.int64]:
    """Every completion as rows of indices into the unseen list: group 1's cards, then group 2's, ..."""
    rows: NDArray[np.int64] = np.zeros((1, 0), dtype=np.int64)
    for g in groups:
        if g == 0:
            continue
        used = rows.shape[1]
        comb = combinations_array(unseen - used, g).astype(np.int64)
        n_rows = rows.shape[0]
        mask = np.ones((n_rows, unseen), dtype=bool)
        if used:
            mask[np.arange(n_rows)[:, None], rows] = False
        remaining = np.nonzero(mask)[1].reshape(n_rows, unseen - used)
        new = remaining[:, comb].reshape(n_rows * comb.shape[0], g)
        rows = np.concatenate([np.repeat(rows, comb.shape[0], axis=0), new], axis=1)
    return rows


def combinations_array(n: int, k: int) -> NDArray[np.int8]:
    """All k-subsets of range(n) as a read-only int8 array of shape (C(n, k), k), in lexicographic order."""
    return _combinations_cached(n, k)


@lru_cache(maxsize=16)
def _combinations_cached(n: int, k: int) -> NDArray[np.int8]:
    if k == 0:
        return np.zeros((1, 0), dtype=np.int8)
    count = math.comb(n, k)
    flat = np.fromiter(itertools.chain.from_iterable(itertools.combinations(range(n), k)), dtype=np.int8,
                       count=count * k)
    out = flat.reshape(count, k)
    out.setflags(write=False)
    return out
