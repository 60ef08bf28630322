"""The table-driven Omaha evaluator against the definition: the best of every two-hole x three-board
five-card combination (:func:`pokerroom.hands.evaluate5`), on random, flush-heavy and pre-river hands, for
the scalar ids call, the public call and the numpy batch path alike."""

from __future__ import annotations

import random
from itertools import combinations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from pokerroom.cards import standard_deck
from pokerroom.hands import evaluate5, omaha_high, omaha_ids
from pokerroom.hands import omaha_table as OT
from pokerroom.hands.batch import omaha_high_batch

DECK = standard_deck()


def brute(hole: tuple[int, ...], board: tuple[int, ...]) -> int:
    return max(evaluate5(*h, *b) for h in combinations(hole, 2) for b in combinations(board, 3))


@settings(max_examples=400, deadline=None)
@given(st.lists(st.integers(0, 51), min_size=9, max_size=9, unique=True), st.integers(3, 5))
def test_ids_call_is_the_best_combination(cards: list[int], board_size: int) -> None:
    hole, board = tuple(cards[:4]), tuple(cards[4 : 4 + board_size])
    assert omaha_ids(hole, board) == brute(hole, board)


def test_flush_heavy_hands_all_paths() -> None:
    """Deals from two suits only: flushes, flushes on both hole suits, straight flushes, boards of 3..5."""
    rng = random.Random(28)
    two_suits = [i for i in range(52) if i // 13 in (0, 2)]
    for board_size in (3, 4, 5):
        holes, boards, want = [], [], []
        for _ in range(1500):
            cards = rng.sample(two_suits, 4 + board_size)
            hole, board = tuple(cards[:4]), tuple(cards[4:])
            holes.append(hole)
            boards.append(board)
            want.append(brute(hole, board))
        assert [omaha_ids(h, b) for h, b in zip(holes, boards, strict=True)] == want
        assert omaha_high_batch(np.array(holes), np.array(boards)).tolist() == want
        public = [omaha_high([DECK[i] for i in h], [DECK[i] for i in b]).key
                  for h, b in zip(holes, boards, strict=True)]
        assert public == want


def test_random_rivers_public_and_batch() -> None:
    rng = random.Random(9)
    deals = [rng.sample(range(52), 9) for _ in range(3000)]
    want = [brute(tuple(d[:4]), tuple(d[4:])) for d in deals]
    assert [omaha_high([DECK[i] for i in d[:4]], [DECK[i] for i in d[4:]]).key for d in deals] == want
    arr = np.array(deals, dtype=np.uint8)
    assert omaha_high_batch(arr[:, :4], arr[:, 4:]).tolist() == want


def test_values_are_the_five_card_values_in_order() -> None:
    OT.load()
    assert OT.VALUES == sorted(set(OT.VALUES)) and len(OT.VALUES) == 7462
    assert OT.TABLE[5].itemsize == 2 and len(OT.TABLE[5]) == 1820 * 6175
