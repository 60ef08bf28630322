"""The hold'em fast path (every hole known): its values against the 7-card evaluator, its exact results
against the general path, its sampler's uniformity, and its Monte Carlo against exact enumeration."""

from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pokerroom.cards import parse_cards
from pokerroom.hands import evaluate7_ids
from pokerroom.odds import enumerate_completions, equity
from pokerroom.odds.holdem_table import HoldemKnown, draw_rows
from pokerroom.odds.showdown import HoldemParts


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 51), min_size=11, max_size=11, unique=True), st.integers(0, 5),
       st.integers(2, 3))
def test_values_equal_the_seven_card_evaluator(cards: list[int], known: int, players: int) -> None:
    holes = [np.array(cards[2 * p : 2 * p + 2], dtype=np.int64) for p in range(players)]
    board = np.array(cards[6 : 6 + known], dtype=np.int64)
    used = set(cards[: 2 * players]) | set(board.tolist())
    unseen = np.array(sorted(set(range(52)) - used), dtype=np.int64)
    rows = draw_rows(np.random.default_rng(known), unseen.size, 5 - known, 400)
    values = HoldemKnown(unseen, board, holes).values(rows)
    for r in range(rows.shape[0]):
        full = board.tolist() + unseen[rows[r]].tolist()
        for p, hole in enumerate(holes):
            assert values[r, p] == evaluate7_ids(hole.tolist() + full)


def test_exact_equals_the_general_path_on_flush_boards() -> None:
    """A two-suited flop: most turn-river pairs make someone a flush."""
    holes = [np.array([c.id for c in parse_cards(h)]) for h in ("As Ks", "Qs 2s", "Ah Kh")]
    board = np.array([c.id for c in parse_cards("Js 9s 4h")])
    unseen = np.array(sorted(set(range(52)) - set(np.concatenate([*holes, board]).tolist())))
    rows = enumerate_completions(unseen.size, [2, 0, 0, 0])
    fast = HoldemKnown(unseen, board, holes).values(rows)
    general = HoldemParts(unseen, board, holes, [2, 0, 0, 0]).values(rows)
    assert fast.tolist() == general.tolist()


def test_sampler_rows_are_distinct_and_uniform() -> None:
    rows = draw_rows(np.random.default_rng(3), 32, 2, 200_000)
    assert rows.dtype == np.int16 and rows.shape == (200_000, 2)
    assert not np.any(rows[:, 0] == rows[:, 1])
    counts = Counter(map(tuple, rows.tolist()))
    assert len(counts) == 32 * 31  # every ordered pair
    expected = 200_000 / (32 * 31)
    chi2 = sum((c - expected) ** 2 / expected for c in counts.values())
    dof = 32 * 31 - 1
    assert chi2 < dof + 6 * math.sqrt(2 * dof)  # six standard deviations
    five = draw_rows(np.random.default_rng(4), 47, 5, 50_000)
    assert all(len(set(r)) == 5 for r in five.tolist())
    per_card = np.bincount(five.ravel(), minlength=47)
    assert per_card.min() > 0.9 * 250_000 / 47 and per_card.max() < 1.1 * 250_000 / 47


def test_sampler_is_reproducible_from_a_seed() -> None:
    a = draw_rows(np.random.default_rng(9), 48, 5, 5000)
    b = draw_rows(np.random.default_rng(9), 48, 5, 5000)
    assert np.array_equal(a, b)


@pytest.mark.parametrize("spot", [("As Ah", "Kd Kc"), ("Ah Kh", "Qs Qd", "7c 6c")])
def test_monte_carlo_within_error_of_exact(spot: tuple[str, ...]) -> None:
    players = [parse_cards(p) for p in spot]
    board = parse_cards("2c 9h")  # keeps the exact enumeration small (C(43 or 41, 3) boards)
    exact = equity(players, board, exact=True)
    mc = equity(players, board, exact=False, samples=60_000, seed=4)
    for p in range(len(players)):
        assert abs(mc.equity[p] - exact.equity[p]) < 4.5 * mc.stderr[p] + 1e-9
    assert sum(mc.equity) == pytest.approx(1.0)


def test_pair_table_equals_the_seven_card_evaluator_without_flushes() -> None:
    from pokerroom.hands import omaha_table as OT
    from pokerroom.odds.holdem_table import _boards, pair_table

    index, _ = _boards()
    table, pair = pair_table()
    rng = np.random.default_rng(12)
    checked = 0
    for _ in range(4000):
        cards = rng.permutation(52)[:7].tolist()
        board, hole = cards[:5], cards[5:]
        if max(sum(1 for c in cards if c // 13 == s) for s in range(4)) >= 5:
            continue  # flushes come from the suited ranks, not from this table
        row = int(index[sum(OT.BK[c] for c in board) >> 12])
        assert table[row * 91 + pair[hole[0] * 52 + hole[1]]] == evaluate7_ids(hole + board)
        checked += 1
    assert checked > 3500
