"""The numpy batch path returns exactly the scalar evaluator's values."""

from __future__ import annotations

import numpy as np
import pytest

from pokerroom.hands import evaluate_ids
from pokerroom.hands.batch import international_high_batch


@pytest.mark.parametrize("k", [5, 6, 7])
def test_batch_equals_scalar(k: int) -> None:
    rng = np.random.default_rng(7 + k)
    full = np.argsort(rng.random((4000, 52)), axis=1)[:, :k]
    two_suits = np.argsort(rng.random((2000, 26)), axis=1)[:, :k]  # ids 0..25: ♠ and ◆ only, many flushes
    hands = np.concatenate([full, two_suits]).astype(np.uint8)
    values = international_high_batch(hands)
    assert values.shape == (6000,)
    assert values.tolist() == [evaluate_ids(row) for row in hands.tolist()]
    assert ((values >> 20) == 5).sum() > 30  # the flush path was exercised


def test_batch_rejects_bad_shapes_and_ids() -> None:
    with pytest.raises(ValueError):
        international_high_batch(np.zeros((3, 4), dtype=np.uint8))
    with pytest.raises(ValueError):
        international_high_batch(np.full((1, 7), 60, dtype=np.uint8))
    assert international_high_batch(np.zeros((0, 7), dtype=np.uint8)).shape == (0,)
