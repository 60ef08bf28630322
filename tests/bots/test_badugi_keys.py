"""The vectorised badugi key of the bots' Monte Carlo (:func:`pokerroom.bots.strength.badugi_keys_np`): all
15 subsets keyed at once must give what the subset-by-subset loop it replaced gave, key and mask, so every
recorded bot decision and hint stays the same (tests/bots/data/mc_golden.json checks those too)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from pokerroom.bots import strength as S


def _reference(cards: np.ndarray, high: bool) -> tuple[np.ndarray, np.ndarray]:
    """The loop as first written: each subset in turn, the first with a strictly better key wins."""
    ranks = (S._HIGH_RANK if high else S._LOW_RANK)[cards]
    suits = S._SUIT[cards]
    n = cards.shape[0]
    best = np.zeros(n, dtype=np.int64)
    best_mask = np.zeros(n, dtype=np.int64)
    for pos in S._SUBSETS:
        k = len(pos)
        valid = np.ones(n, dtype=bool)
        for a, b in itertools.combinations(pos, 2):
            valid &= (ranks[:, a] != ranks[:, b]) & (suits[:, a] != suits[:, b])
        sub = -np.sort(-ranks[:, list(pos)], axis=1)
        key = np.full(n, k, dtype=np.int64)
        for j in range(4):
            key = key * 16 + ((sub[:, j] if high else 15 - sub[:, j]) if j < k else 0)
        better = valid & (key > best)
        best = np.where(better, key, best)
        best_mask = np.where(better, sum(1 << i for i in pos), best_mask)
    return best, best_mask


@pytest.mark.parametrize("high", [False, True])
def test_keys_and_masks_match_the_subset_loop(high: bool) -> None:
    gen = np.random.Generator(np.random.PCG64(3))
    hands = np.array([gen.choice(52, 4, replace=False) for _ in range(5000)], dtype=np.int64)
    # and hands built to tie: pairs of one rank, three of a suit, four of a rank
    hands = np.concatenate([hands, np.array([[0, 13, 27, 40], [0, 1, 2, 3], [12, 25, 38, 51],
                                             [0, 13, 1, 14], [5, 18, 31, 7]], dtype=np.int64)])
    got_key, got_mask = S.badugi_keys_np(hands, high)
    want_key, want_mask = _reference(hands, high)
    assert np.array_equal(got_key, want_key)
    assert np.array_equal(got_mask, want_mask)
