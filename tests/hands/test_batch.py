"""The numpy batch paths return exactly the scalar evaluators' values, and so order hands like them."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import pytest

from pokerroom.cards import standard_deck
from pokerroom.hands import (
    HandValue,
    evaluate_ids,
    international_high,
    korean_high,
    korean_key_ids,
    omaha_ids,
)
from pokerroom.hands.batch import (
    CARD_KEY,
    INTERNATIONAL_CATEGORY_NAMES,
    KOREAN_CATEGORY_NAMES,
    international_category,
    international_high_batch,
    international_high_sums,
    international_high_sums_masks,
    korean_category,
    korean_high_batch,
    omaha_high_batch,
)

DECK = standard_deck()


def _hands(seed: int, k: int, full: int = 4000, two_suits: int = 2000) -> npt.NDArray[np.uint8]:
    """Random k-card hands: from the whole deck, then from ♠ and ◆ only (ids 0..25: many flushes)."""
    rng = np.random.default_rng(seed)
    whole = np.argsort(rng.random((full, 52)), axis=1)[:, :k]
    suited = np.argsort(rng.random((two_suits, 26)), axis=1)[:, :k]
    return np.concatenate([whole, suited]).astype(np.uint8)


def _sign(x: npt.NDArray[np.int64]) -> list[int]:
    return [int(v) for v in np.sign(x)]


def _cmp(a: HandValue, b: HandValue) -> int:
    return (a > b) - (a < b)


@pytest.mark.parametrize("k", [5, 6, 7])
def test_batch_equals_scalar(k: int) -> None:
    hands = _hands(7 + k, k)
    values = international_high_batch(hands)
    assert values.shape == (6000,)
    assert values.tolist() == [evaluate_ids(row) for row in hands.tolist()]
    assert ((values >> 20) == 5).sum() > 30  # the flush path was exercised


@pytest.mark.parametrize("k", [5, 6, 7])
def test_korean_batch_equals_scalar_keys(k: int) -> None:
    hands = _hands(70 + k, k)
    keys = korean_high_batch(hands)
    assert keys.dtype == np.int64 and keys.shape == (6000,)
    assert keys.tolist() == [korean_key_ids(row) for row in hands.tolist()]
    cats = set(korean_category(keys).tolist())
    assert {0, 1, 2, 3, 7} <= cats  # top, pairs, trips and flushes all came up


def _pairs(n_hands: int, count: int, seed: int) -> tuple[list[int], list[int]]:
    rng = np.random.default_rng(seed)
    return rng.integers(0, n_hands, count).tolist(), rng.integers(0, n_hands, count).tolist()


def test_korean_batch_orders_pairs_like_korean_high() -> None:
    """On many random 7-card hands, every pair compares as with :func:`korean_high`: two hands of one deal
    (no shared card) never tie and always agree; hands sharing cards may tie in the batch key only where
    korean_high's last tie-break (the used cards' mask) separates card sets that share the deciding cards."""
    hands = _hands(2026, 7, full=3000, two_suits=1000)
    keys = korean_high_batch(hands)
    ref = [korean_high([DECK[i] for i in row]) for row in hands.tolist()]
    left, right = _pairs(len(ref), 40_000, 11)
    disjoint = 0
    for a, b in zip(left, right, strict=True):
        expected = _cmp(ref[a], ref[b])
        got = int(np.sign(keys[a] - keys[b]))
        if got:
            assert got == expected, (hands[a], hands[b])
        else:
            assert ref[a].key == ref[b].key
        if not set(hands[a].tolist()) & set(hands[b].tolist()):
            disjoint += 1
            assert got == expected != 0
    assert disjoint > 10_000


def test_korean_batch_spec_examples() -> None:
    from pokerroom.cards import parse_cards

    def key(text: str) -> int:
        return int(korean_high_batch([[c.id for c in parse_cards(text)]])[0])

    assert key("Ac Kd Qh Js Tc 2d 3h") > key("As 2c 3d 4h 5s 9d 9h") > key("Ks Qc Jd Th 9s 2d 2h")
    assert key("7s 7c 2d 4h 9c Jd Kh") > key("7d 7h 3s 5c 8d Qc Ts")  # §6.2 example 1: the ♠ seven
    assert key("Ks Kd 5h 5c 2d 8c 3h") < key("Kh Kc 9s 9d 3d 8d 4c")  # example 3: K-9 beats K-5
    assert [KOREAN_CATEGORY_NAMES[c] for c in korean_category([key("As Ks Qs Js Ts 2d 3c")])] == [
        "로열 스트레이트 플러시"
    ]


def test_international_batch_orders_pairs_like_international_high() -> None:
    hands = _hands(99, 7, full=3000, two_suits=1000)
    values = international_high_batch(hands).astype(np.int64)
    ref = [international_high([DECK[i] for i in row]) for row in hands.tolist()]
    left, right = _pairs(len(ref), 40_000, 12)
    got = _sign(values[left] - values[right])
    assert got == [_cmp(ref[a], ref[b]) for a, b in zip(left, right, strict=True)]
    assert 0 in got  # ties (split pots) came up and agree too
    assert international_category(values).tolist() == [v.category for v in ref]
    assert INTERNATIONAL_CATEGORY_NAMES[8] == "스트레이트 플러시"


def test_sums_path_equals_batch() -> None:
    hands = _hands(5, 7)
    values, flush_rows = international_high_sums(CARD_KEY[hands].sum(axis=1))
    expected = international_high_batch(hands)
    is_flush = np.zeros(len(hands), dtype=bool)
    is_flush[flush_rows] = True
    assert np.array_equal(values[~is_flush], expected[~is_flush])
    assert is_flush.any() and ((expected[is_flush] >> 20) >= 5).all()


@pytest.mark.parametrize("k", [5, 6, 7])
def test_sums_and_masks_path_equals_batch_flushes_included(k: int) -> None:
    hands = _hands(6, k)
    ids = hands.astype(np.int64)
    masks = (np.int64(1) << ids).sum(axis=1)
    values = international_high_sums_masks(CARD_KEY[ids].sum(axis=1), masks, n=k)
    expected = international_high_batch(hands)
    assert np.array_equal(values, expected)
    assert np.isin(expected >> 20, [5, 8]).sum() > 50  # flushes and straight flushes: the mask path


@pytest.mark.parametrize("board_size", [3, 4, 5])
def test_omaha_batch_equals_scalar(board_size: int) -> None:
    rng = np.random.default_rng(board_size)
    whole = np.argsort(rng.random((1500, 52)), axis=1)[:, : 4 + board_size]
    suited = np.argsort(rng.random((1500, 20)), axis=1)[:, : 4 + board_size]  # ♠ and 7 ◆: many flushes
    deals = np.concatenate([whole, suited])
    values = omaha_high_batch(deals[:, :4], deals[:, 4:])
    assert values.tolist() == [omaha_ids(row[:4], row[4:]) for row in deals.tolist()]
    assert (international_category(values) >= 5).sum() > 100


def test_batch_rejects_bad_shapes_and_ids() -> None:
    with pytest.raises(ValueError):
        international_high_batch(np.zeros((3, 4), dtype=np.uint8))
    with pytest.raises(ValueError):
        international_high_batch(np.full((1, 7), 60, dtype=np.uint8))
    with pytest.raises(ValueError):
        korean_high_batch(np.zeros((3, 8), dtype=np.uint8))
    with pytest.raises(ValueError):
        korean_high_batch(np.full((1, 7), -1, dtype=np.int64))
    with pytest.raises(ValueError):
        omaha_high_batch(np.zeros((2, 3), dtype=np.uint8), np.zeros((2, 5), dtype=np.uint8))
    with pytest.raises(ValueError):
        omaha_high_batch(np.zeros((2, 4), dtype=np.uint8), np.full((2, 5), 52, dtype=np.uint8))
    assert international_high_batch(np.zeros((0, 7), dtype=np.uint8)).shape == (0,)
    assert korean_high_batch(np.zeros((0, 7), dtype=np.uint8)).shape == (0,)
