"""Draw-game and Indian-poker odds against exhaustive enumeration written out by hand (nested loops over
every card that can come, valued by the scalar evaluators), and Monte Carlo against exact."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pokerroom.cards import Card, d20_deck, parse_cards, standard_deck
from pokerroom.hands import badugi4, evaluate_ids, indian
from pokerroom.odds.draws import badugi_rows, draw_equity, indian_equity

DECK = standard_deck()


def _share(values: list[int]) -> list[float]:
    best = max(values)
    winners = values.count(best)
    return [1.0 / winners if v == best else 0.0 for v in values]


def _mean(rows: list[list[float]]) -> list[float]:
    return [sum(col) / len(rows) for col in zip(*rows, strict=True)]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 51), min_size=4, max_size=4, unique=True))
def test_badugi_rows_equal_the_scalar_evaluator(ids: list[int]) -> None:
    keys, keep = badugi_rows(np.array([ids]))
    assert int(keys[0]) == badugi4(*ids)
    kept = [ids[i] for i in range(4) if keep[0] >> i & 1]
    assert len(kept) == badugi4(*ids) >> 13  # the kept cards are a badugi of the hand's size


def test_five_card_draw_one_card_against_brute_force() -> None:
    mine, theirs = parse_cards("9s 8s 7s 6d"), parse_cards("Kc Kd 2h 3c")  # they drew one to two pair-ish
    dead = parse_cards("Ah Ad")
    result = draw_equity([mine, theirs], "fiveDraw", dead=dead)
    assert result.result.exact
    used = {c.id for c in mine + theirs + dead}
    unseen = [c for c in range(52) if c not in used]
    rows = [_share([evaluate_ids([*(c.id for c in mine), a]), evaluate_ids([*(c.id for c in theirs), b])])
            for a, b in itertools.permutations(unseen, 2)]
    assert result.result.equity == pytest.approx(_mean(rows), abs=1e-12)
    # outs: cards that make my kept four a better class: 5s and 10s (straights), any spade (flush), pairs
    outs = sum(1 for c in unseen
               if evaluate_ids([*(x.id for x in mine), c]) >> 20 > evaluate_ids([x.id for x in mine]) >> 20)
    assert result.outs == outs


def test_badugi_two_draws_against_brute_force() -> None:
    """Three kept cards, two draws: if the first card misses, the best three are kept and one more comes.
    The opponent stands pat on a made badugi, which the keep-the-best rule never breaks."""
    mine, theirs = parse_cards("As 2d 3h"), parse_cards("4s 5d 6h 7c")
    used = {c.id for c in mine + theirs}
    unseen = [c for c in range(52) if c not in used]
    mine_ids = [c.id for c in mine]
    opp = badugi4(*(c.id for c in theirs))
    total = [0.0, 0.0]
    for a in unseen:
        hand = [*mine_ids, a]
        key = badugi4(*hand)
        if key >> 13 == 4:
            shares = [_share([key, opp]) for _ in unseen[:-1]]  # same weight as the branch below
        else:
            _, keep = badugi_rows(np.array([hand]))
            kept = [hand[i] for i in range(4) if keep[0] >> i & 1]
            assert len(kept) == 3
            shares = [_share([badugi4(*kept, b), opp]) for b in unseen if b != a]
        for s in shares:
            total[0] += s[0]
            total[1] += s[1]
    n = len(unseen) * (len(unseen) - 1)
    exact = [t / n for t in total]
    mc = draw_equity([mine, theirs], "badugi", draws=2, samples=60_000, seed=3).result
    assert not mc.exact
    for p in range(2):
        assert abs(mc.equity[p] - exact[p]) < 4.5 * mc.stderr[p]


def test_badugi_one_draw_exact_against_brute_force() -> None:
    mine, theirs = parse_cards("As 2d 3h"), parse_cards("Ks Qd Jh")
    result = draw_equity([mine, theirs], "badugi", draws=1)
    assert result.result.exact
    used = {c.id for c in mine + theirs}
    unseen = [c for c in range(52) if c not in used]
    rows = [_share([badugi4(*(c.id for c in mine), a), badugi4(*(c.id for c in theirs), b)])
            for a, b in itertools.permutations(unseen, 2)]
    assert result.result.equity == pytest.approx(_mean(rows), abs=1e-12)
    made = sum(1 for a in unseen if badugi4(*(c.id for c in mine), a) >> 13 == 4) / len(unseen)
    assert result.result.categories[0][3] == pytest.approx(made)
    assert result.outs == round(made * len(unseen))


def test_five_card_draw_monte_carlo_within_error_of_exact() -> None:
    players = [parse_cards("Qh Qc 4d"), parse_cards("Js Jd 8c 8h")]
    exact = draw_equity(players, "fiveDraw", exact=True).result
    mc = draw_equity(players, "fiveDraw", exact=False, samples=40_000, seed=5).result
    for p in range(2):
        assert abs(mc.equity[p] - exact.equity[p]) < 4.5 * mc.stderr[p]


def _d20(text: str) -> list[Card]:
    return parse_cards(text, deck="d20")


@pytest.mark.parametrize("cards", [1, 2])
def test_indian_against_brute_force(cards: int) -> None:
    mine = _d20("7s") if cards == 2 else []
    foreheads = [_d20("5s"), _d20("9h"), _d20("7h")]
    result = indian_equity([mine, *foreheads], cards=cards)
    assert result.exact
    used = {c.id for c in mine} | {f[0].id for f in foreheads}
    unseen = [c for c in d20_deck() if c.id not in used]
    rows = []
    for deal in itertools.permutations(unseen, 1 + (len(foreheads) if cards == 2 else 0)):
        hands = [[*mine, deal[0]]]
        hands += [[f[0], deal[i + 1]] if cards == 2 else [f[0]] for i, f in enumerate(foreheads)]
        rows.append(_share([indian(h).key for h in hands]))
    assert result.equity == pytest.approx(_mean(rows), abs=1e-12)
    mc = indian_equity([mine, *foreheads], cards=cards, exact=False, samples=40_000, seed=2)
    assert abs(mc.equity[0] - result.equity[0]) < 4.5 * mc.stderr[0] + 1e-9


def test_indian_with_the_52_card_deck() -> None:
    result = indian_equity([[], [DECK[12]]], deck="d52")  # they show an ace: I cannot win, at best tie
    assert result.win[0] == 0.0 and result.tie[0] == pytest.approx(3 / 51)
