"""Equity: exact enumeration against brute force (treys), Monte Carlo within its reported error."""

from __future__ import annotations

import itertools
import math
from typing import Any

import numpy as np
import pytest

import needs
from pokerroom.cards import parse_cards
from pokerroom.hands import batch as hb
from pokerroom.hands.korean import LowQualifier, LowRule
from pokerroom.odds import (
    HILO_DEFAULT_SAMPLES,
    EquityResult,
    count_completions,
    enumerate_completions,
    equity,
    numpy_rng,
    sample_completions,
)

treys = needs.module("treys")

_EV = treys.Evaluator()


def _tcard(card_id: int) -> int:
    return int(treys.Card.new("23456789TJQKA"[card_id % 13] + "sdhc"[card_id // 13]))


def _treys7(cards: list[int]) -> int:
    return int(_EV.evaluate([_tcard(c) for c in cards[:2]], [_tcard(c) for c in cards[2:]]))


def _treys_omaha(hole: list[int], board: list[int]) -> int:
    return min(
        int(_EV.evaluate([_tcard(c) for c in h], [_tcard(c) for c in b]))
        for h in itertools.combinations(hole, 2)
        for b in itertools.combinations(board, 3)
    )


def _brute(hands: list[list[int]], board: list[int], omaha: bool = False) -> list[float]:
    """Equity by looping over every board completion with treys (lower treys rank = better)."""
    used = {c for h in hands for c in h} | set(board)
    rest = [c for c in range(52) if c not in used]
    eq = [0.0] * len(hands)
    n = 0
    for extra in itertools.combinations(rest, 5 - len(board)):
        full = board + list(extra)
        ranks = [_treys_omaha(h, full) if omaha else _treys7(h + full) for h in hands]
        best = min(ranks)
        winners = [i for i, r in enumerate(ranks) if r == best]
        for i in winners:
            eq[i] += 1 / len(winners)
        n += 1
    return [e / n for e in eq]


def _ids(text: str) -> list[int]:
    return [c.id for c in parse_cards(text)]


def test_evaluator_orders_like_treys() -> None:
    rng = np.random.default_rng(7)
    hands = np.array([rng.choice(52, 7, replace=False) for _ in range(1500)])
    ours = hb.international_high_batch(hands).astype(np.int64)
    ref = np.array([_treys7(list(h)) for h in hands])
    i, j = rng.integers(0, len(hands), 20000), rng.integers(0, len(hands), 20000)
    assert np.array_equal(np.sign(ours[i] - ours[j]), np.sign(ref[j] - ref[i]))


def test_omaha_evaluator_uses_exactly_two_hole_cards() -> None:
    # §5.4.2: one spade in hand + four on the board is not a flush.
    hole = np.array([_ids("As Kd Qd 2c")])
    board = np.array([_ids("Ks 9s 5s 3s 7h")])
    value = hb.omaha_high_batch(hole, board)
    assert hb.international_category(value)[0] == 1  # a pair of kings, no flush
    hole2 = np.array([_ids("As 2s Qd 2c")])
    assert hb.international_category(hb.omaha_high_batch(hole2, board))[0] == 5  # two spades in hand: flush


@pytest.mark.parametrize(
    ("hands", "board"),
    [
        (["As Ah", "Kd Kc"], "2c 7d 9h Ks"),
        (["As Ah", "Kd Kc"], "2c 7d 9h Ks 3d"),
        (["Ah Kh", "Qs Qd", "7c 8c"], "Qh 9c 2h Tc"),
        (["2c 2d", "Ac Kd"], "3h 4s 5c"),  # flop: 990 completions
    ],
)
def test_exact_matches_brute_force_holdem(hands: list[str], board: str) -> None:
    players = [parse_cards(h) for h in hands]
    result = equity(players, parse_cards(board))
    assert result.exact
    expected = _brute([_ids(h) for h in hands], _ids(board))
    assert result.equity == pytest.approx(expected, abs=1e-12)


def test_exact_matches_brute_force_omaha() -> None:
    hands = ["As Ah Kd Qd", "Ks Kh Js Ts"]
    board = "Qs 9s 2d 3c"
    result = equity([parse_cards(h) for h in hands], parse_cards(board), mode="omaha")
    assert result.exact
    expected = _brute([_ids(h) for h in hands], _ids(board), omaha=True)
    assert result.equity == pytest.approx(expected, abs=1e-12)


def test_aa_vs_kk_preflop_monte_carlo_within_error_of_exact() -> None:
    aa, kk = parse_cards("As Ah"), parse_cards("Kd Kc")
    exact = equity([aa, kk], exact=True)
    assert exact.samples == 1_712_304
    # Exact values of this suit combination (no shared suits): 81.06 % win, 0.38 % tie, 81.26 % equity.
    assert exact.win[0] == pytest.approx(0.81065, abs=5e-5)
    assert exact.tie[0] == pytest.approx(0.00382, abs=5e-5)
    mc = equity([aa, kk], samples=200_000, seed=11)
    assert not mc.exact and mc.samples == 200_000
    assert 0.0008 < mc.stderr[0] < 0.0011
    assert abs(mc.equity[0] - exact.equity[0]) < 4 * mc.stderr[0]
    assert abs(mc.win[0] - exact.win[0]) < 4 * mc.stderr[0]


def test_monte_carlo_is_reproducible_and_multiway_sums_to_one() -> None:
    players = [parse_cards("Ah Kh"), [], []]
    a = equity(players, samples=20_000, seed=5)
    b = equity(players, samples=20_000, seed=5)
    assert a.equity == b.equity
    assert sum(a.equity) == pytest.approx(1.0)
    assert a.equity[0] > 0.45  # AK suited vs two random hands is ~50 %


def test_omaha_monte_carlo_against_exact_on_flop() -> None:
    players = [parse_cards("As Ah Kd Qd"), parse_cards("Ks Kh Js Ts")]
    board = parse_cards("Qs 9s 2d")
    exact = equity(players, board, mode="omaha", exact=True)
    mc = equity(players, board, mode="omaha", samples=20_000, seed=3, exact=False)
    assert abs(mc.equity[0] - exact.equity[0]) < 4 * mc.stderr[0]


def test_seven_poker_suit_breaks_ties_and_known_winner() -> None:
    # Seven known cards each: a pair of 7s in spades beats the same pair in diamonds/hearts (§6.2 example 1).
    a = parse_cards("7s 7c 2d 4h 9c Jd Kh")
    b = parse_cards("7d 7h 3s 5c 8d Qc 10s")
    result = equity([a, b], mode="sevenPoker")
    assert result.exact and result.equity == (1.0, 0.0)


def test_seven_poker_mountain_beats_back_straight_beats_k_top() -> None:
    mountain = np.array([_ids("Ac Kd Qh Js Tc 2d 3h")])
    back = np.array([_ids("As 2c 3d 4h 5s 9d 9h")])
    ktop = np.array([_ids("Ks Qc Jd Th 9s 2d 2h")])
    vm, vb, vk = (int(hb.korean_high_batch(x)[0]) for x in (mountain, back, ktop))
    assert vm > vb > vk


def test_seven_poker_against_open_cards_is_sane() -> None:
    me = parse_cards("As Ah Ad 2c 7h")  # trips so far, two cards to come
    opp = parse_cards("3c 4c")  # two open cards, five unknown
    result = equity([me, opp], mode="sevenPoker", samples=20_000, seed=1)
    assert 0.75 < result.equity[0] < 0.95


def test_completion_enumeration_counts_and_uniqueness() -> None:
    rows = enumerate_completions(8, [2, 1, 2])
    assert rows.shape == (count_completions(8, [2, 1, 2]), 5)
    assert all(len(set(r)) == 5 for r in rows.tolist())
    assert len({tuple(r) for r in rows.tolist()}) == rows.shape[0]


def test_sampling_is_uniform_enough() -> None:
    rows = sample_completions(numpy_rng(3), 10, 3, 30_000)
    assert all(len(set(r)) == 3 for r in rows[:1000].tolist())
    counts = np.bincount(rows.ravel(), minlength=10) / rows.size
    assert np.allclose(counts, 0.1, atol=0.01)
    rows2 = sample_completions(numpy_rng(4), 45, 5, 30_000)
    assert not any(len(set(r)) != 5 for r in rows2[:2000].tolist())


def test_rejects_bad_input() -> None:
    with pytest.raises(ValueError):
        equity([parse_cards("As Ah"), parse_cards("As Kc")])
    with pytest.raises(ValueError):
        equity([parse_cards("As Ah Kd")], mode="holdem")


def test_korean_batch_values_agree_with_pokerroom_hands_on_disjoint_hands() -> None:
    """Two 7 Poker hands never share a card, so only disjoint pairs are compared (with one shared card a
    suit tie-break can tie, which no real deal produces)."""
    from pokerroom.cards import standard_deck
    from pokerroom.hands import korean_high

    deck = standard_deck()
    rng = np.random.default_rng(5)
    hands = np.array([rng.choice(52, 7, replace=False) for _ in range(1500)])
    ours = hb.korean_high_batch(hands)
    ref = [korean_high([deck[i] for i in h]) for h in hands]
    checked = 0
    left, right = rng.integers(0, 1500, 15000).tolist(), rng.integers(0, 1500, 15000).tolist()
    for a, b in zip(left, right, strict=True):
        if set(hands[a].tolist()) & set(hands[b].tolist()):
            continue
        checked += 1
        assert np.sign(ours[a] - ours[b]) == (ref[a] > ref[b]) - (ref[a] < ref[b])
    assert checked > 3000


# --- 7 Poker hi-lo (cards speak) -------------------------------------------------------------------------


def _hilo(a: str, b: str, **kw: Any) -> EquityResult:
    result = equity([parse_cards(a), parse_cards(b)], mode="sevenHiLo", **kw)
    assert result.exact and result.samples == 1
    return result


def test_hilo_river_half_half_and_scoop() -> None:
    # A full house with no low (four ranks) vs A-2-3-4-6 ("6탑", the best Korean low): half each.
    r = _hilo("Kc Kd Kh Qs Qd 2c 3c", "As 2d 3h 4c 6s 9d Jh")
    assert r.equity == (0.5, 0.5) and r.stderr == (0.0, 0.0)
    assert r.scoop == (0.0, 0.0) and r.high_win == (1.0, 0.0) and r.low_win == (0.0, 1.0)
    assert r.no_low == (1.0, 0.0) and r.no_low_any == 0.0
    assert r.win == (0.0, 0.0) and r.tie == (1.0, 1.0)  # win = scoop, tie = part of the pot
    # A spade flush wins the high; its low cannot be the one-suit A-2-3-4-6, so 9탑 — still under Q탑: scoop.
    r = _hilo("As 2s 3s 4s 6s 9d Jh", "Kc Kd 7h 8c 10d Qh 5d")
    assert r.equity == (1.0, 0.0) and r.scoop == (1.0, 0.0) and r.win == (1.0, 0.0)
    assert r.high_win == (1.0, 0.0) and r.low_win == (1.0, 0.0) and r.no_low == (0.0, 0.0)


def test_hilo_river_eight_qualifier_and_low_rule() -> None:
    full_house, nine_low = "Kc Kd Kh Qs Qd 2c 3c", "As 2d 3h 4c 9s 10d Jh"
    assert _hilo(full_house, nine_low).equity == (0.5, 0.5)
    r = _hilo(full_house, nine_low, qualifier="eight")  # 9탑 does not qualify: the high takes all
    assert r.equity == (1.0, 0.0) and r.scoop == (1.0, 0.0) and r.low_win == (0.0, 0.0)
    assert r.no_low == (1.0, 1.0) and r.no_low_any == 1.0
    # Korean: A-2-3-4-5 is a back straight, so B's low is 9탑 and A's 7탑 wins the low; B's high wins.
    seven_low, wheel = "7c 6d 4s 3d 2h Kc Kd", "As 2d 3h 4c 5s 9d Kh"
    r = _hilo(seven_low, wheel)
    assert r.equity == (0.5, 0.5) and r.high_win == (0.0, 1.0) and r.low_win == (1.0, 0.0)
    r = _hilo(seven_low, wheel, low_rule="aceToFive")  # 5탑 now beats 7탑: B scoops
    assert r.equity == (0.0, 1.0) and r.scoop == (0.0, 1.0)
    with pytest.raises(ValueError):
        _hilo(seven_low, wheel, qualifier="six")


def _brute_hilo(hands: list[str], rule: LowRule, qualifier: LowQualifier) -> list[float]:
    """Pot shares by looping over every completion with HandValue comparisons (no batch code)."""
    from pokerroom.cards import standard_deck
    from pokerroom.hands import korean_high, korean_low

    deck = standard_deck()
    known = [parse_cards(h) for h in hands]
    rest = [c for c in deck if all(c not in k for k in known)]
    need = [7 - len(k) for k in known]
    shares = [0.0] * len(hands)
    n = 0
    for first in itertools.combinations(rest, need[0]):
        left = [c for c in rest if c not in first]
        for second in itertools.combinations(left, need[1]):
            full = [known[0] + list(first), known[1] + list(second)]
            highs = [korean_high(h) for h in full]
            lows = [korean_low(h, rule, qualifier) for h in full]
            hi = 0 if highs[0] > highs[1] else 1
            low0, low1 = lows
            if low0 is not None or low1 is not None:
                lo = 0 if low1 is None or (low0 is not None and low0 > low1) else 1
                shares[hi] += 0.5
                shares[lo] += 0.5
            else:
                shares[hi] += 1.0
            n += 1
    return [s / n for s in shares]


@pytest.mark.parametrize(("rule", "qualifier"), [("korean", "none"), ("aceToFive", "eight")])
def test_hilo_exact_matches_brute_force(rule: LowRule, qualifier: LowQualifier) -> None:
    hands = ["As 2d 3h 5c Kd Kh", "8s 8c 7d 6h 4s 9c"]  # one card each to come: 40 * 39 deals
    result = equity([parse_cards(h) for h in hands], mode="sevenHiLo", low_rule=rule, qualifier=qualifier)
    assert result.exact and result.samples == 40 * 39
    assert result.equity == pytest.approx(_brute_hilo(hands, rule, qualifier), abs=1e-12)
    assert sum(result.equity) == pytest.approx(1.0)


def test_hilo_monte_carlo_within_error_of_exact() -> None:
    players = [parse_cards("As 2d 3h 5c Kd Kh"), parse_cards("8s 8c 7d 6h 4s")]
    exact = equity(players, mode="sevenHiLo")
    assert exact.exact and exact.samples == 41 * 780
    mc = equity(players, mode="sevenHiLo", exact=False, seed=3)
    assert not mc.exact and mc.samples == HILO_DEFAULT_SAMPLES
    for p in range(2):
        assert 0.001 < mc.stderr[p] < 0.005
        assert abs(mc.equity[p] - exact.equity[p]) < 4 * mc.stderr[p]
        for name in ("scoop", "high_win", "low_win", "no_low"):
            e, m = getattr(exact, name)[p], getattr(mc, name)[p]
            assert abs(m - e) <= 4 * math.sqrt(e * (1 - e) / mc.samples) + 1e-12, name
    assert sum(mc.equity) == pytest.approx(1.0)


def test_omaha_hi_lo_exact_matches_brute_force_on_the_turn() -> None:
    """Omaha Hi-Lo equity, every river card dealt by hand and split by the rule (high half, low half shared on
    a tie, no low → high scoops) with the hand evaluators: equal to the exact enumeration."""
    from pokerroom.cards import standard_deck
    from pokerroom.hands import omaha_high, omaha_low

    holes = [parse_cards("As 2d 3h Kc"), parse_cards("Ac 2h Kd Qs"), parse_cards("9s 9h Th Js")]
    board = parse_cards("4c 9d 8h Ks")  # two low ranks: the river decides whether there is a low
    used = {c for h in holes for c in h} | set(board)
    want = [0.0, 0.0, 0.0]
    rivers = [c for c in standard_deck() if c not in used]
    for river in rivers:
        full = [*board, river]
        high = [omaha_high(h, full) for h in holes]
        low = [omaha_low(h, full) for h in holes]
        best_hi = [i for i in range(3) if high[i] == max(high)]
        lows = [i for i in range(3) if low[i] is not None]
        best_lo = [i for i in lows if low[i] == max(low[j] for j in lows)] if lows else []  # type: ignore[type-var]
        hi_part = (0.5 if best_lo else 1.0) / len(best_hi)
        for i in best_hi:
            want[i] += hi_part
        for i in best_lo:
            want[i] += 0.5 / len(best_lo)
    want = [w / len(rivers) for w in want]
    got = equity(holes, board, mode="omaha", omaha_hi_lo=True, exact=True, categories=False)
    assert got.exact and got.samples == len(rivers)
    assert got.equity == pytest.approx(want, abs=1e-12)
    assert sum(got.low_win) > 0 and got.no_low_any > 0  # not vacuous: lows and deals without one
    plain = equity(holes, board, mode="omaha", exact=True, categories=False)
    assert plain.equity != got.equity and not plain.scoop  # the switch changes the split


def _reference_completions(rng: np.random.Generator, unseen: int, take: int, n: int) -> np.ndarray:
    """The partial Fisher–Yates as first written: one draw call and three gathers per column."""
    deck = np.broadcast_to(np.arange(unseen, dtype=np.int64), (n, unseen)).copy()
    rows = np.arange(n)
    for i in range(take):
        j = i + rng.integers(0, unseen - i, size=n, dtype=np.int64)
        picked = deck[rows, j]
        deck[rows, j] = deck[rows, i]
        deck[rows, i] = picked
    return deck[:, :take]


def test_sampling_draws_exactly_the_reference_stream() -> None:
    """The faster sampler (all draws in one call, Lemire's products vectorised) deals the very rows of the
    per-column reference and leaves the generator where the reference does, spare 32-bit half included:
    the bots' decisions (and hints) depend on it bit for bit."""
    from pokerroom.odds.sampling import _lemire_agrees

    assert _lemire_agrees()  # this numpy: the fast path is the one under test
    for case in range(120):
        unseen, take, n = 20 + case % 33, 7 + case % 14, 1 + (case * 37) % 400
        take = min(take, unseen)
        a, b = np.random.Generator(np.random.PCG64(case)), np.random.Generator(np.random.PCG64(case))
        if case % 2:  # leave a spare half in the state first
            a.integers(0, 7, dtype=np.int64)
            b.integers(0, 7, dtype=np.int64)
        fast, reference = sample_completions(a, unseen, take, n), _reference_completions(b, unseen, take, n)
        assert np.array_equal(fast, reference)
        assert a.integers(0, 1000, size=4).tolist() == b.integers(0, 1000, size=4).tolist()
        assert a.random() == b.random()


def _reference_rejection(rng: np.random.Generator, unseen: int, take: int, n: int) -> np.ndarray:
    """The rejection sampler as first written: one ``integers`` call per round, every pair compared."""
    out = rng.integers(0, unseen, size=(n, take), dtype=np.int16)

    def repeats(rows: np.ndarray) -> np.ndarray:
        bad = np.zeros(rows.shape[0], dtype=bool)
        for a in range(take):
            for b in range(a + 1, take):
                bad |= rows[:, a] == rows[:, b]
        return bad

    bad = repeats(out)
    while bad.any():
        idx = np.nonzero(bad)[0]
        out[idx] = rng.integers(0, unseen, size=(idx.size, take), dtype=np.int16)
        bad[idx] = repeats(out[idx])
    return out


def test_rejection_sampling_draws_exactly_the_reference_stream() -> None:
    """Few cards from a big deck (hold'em on the turn and river, the bots' usual spot): the rows come from
    PCG64's raw outputs with numpy's 16-bit Lemire mapping emulated (dropped halves included) instead of an
    ``integers`` call per round, and must be the very rows of the per-round reference, with the generator
    left where the reference leaves it (spare 32-bit half included)."""
    from pokerroom.odds.sampling import _draws16_agree, _rejection_rows

    assert _draws16_agree()  # this numpy: the emulation is the path under test
    for case in range(150):
        unseen, take, n = 30 + case % 23, 1 + case % 6, 1 + (case * 53) % 700
        a, b = np.random.Generator(np.random.PCG64(case)), np.random.Generator(np.random.PCG64(case))
        if case % 3:  # leave a spare half in the state first
            a.integers(0, 7, dtype=np.int64)
            b.integers(0, 7, dtype=np.int64)
        fast = sample_completions(a, unseen, take, n)
        assert fast.dtype == np.int16
        assert np.array_equal(fast, _reference_rejection(b, unseen, take, n))
        assert a.bit_generator.state == b.bit_generator.state
        assert a.integers(0, 1000, size=4).tolist() == b.integers(0, 1000, size=4).tolist()
    # and straight, on a stream with a spare half and thousands of numbers (some halves are dropped)
    a, b = np.random.Generator(np.random.PCG64(99)), np.random.Generator(np.random.PCG64(99))
    a.random(), b.random()
    a.integers(0, 5, dtype=np.int64), b.integers(0, 5, dtype=np.int64)
    assert np.array_equal(_rejection_rows(a, 41, 6, 3000), _reference_rejection(b, 41, 6, 3000))
    assert a.bit_generator.state == b.bit_generator.state


def test_repeated_card_check_agrees_with_comparing_every_pair() -> None:
    from pokerroom.odds.sampling import _has_duplicates

    rng = np.random.default_rng(8)
    for take in range(1, 7):
        rows = rng.integers(0, 52, size=(2000, take)).astype(np.int16)
        want = np.array([len(set(r)) != take for r in rows.tolist()])
        assert np.array_equal(_has_duplicates(rows), want)
        assert want.any() or take == 1
