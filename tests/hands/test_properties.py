"""Hypothesis properties: total order, no Korean ties across distinct card sets, order independence."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from pokerroom.cards import Card, standard_deck
from pokerroom.hands import (
    HandValue,
    badugi,
    international_high,
    korean_high,
    korean_low,
    korean_open_rank,
    omaha_high,
)

DECK = standard_deck()


def hands(n: int) -> st.SearchStrategy[list[Card]]:
    return st.lists(st.sampled_from(DECK), min_size=n, max_size=n, unique=True)


def check_total_order(a: HandValue, b: HandValue, c: HandValue) -> None:
    for x, y in ((a, b), (b, c), (a, c)):
        assert [x < y, x == y, x > y].count(True) == 1
        assert (x <= y) == (x < y or x == y) and (x >= y) == (x > y or x == y)
        assert (x == y) == (y == x) and (x < y) == (y > x)
        if x == y:
            assert hash(x) == hash(y)
    if a <= b <= c:
        assert a <= c
    if a < b and b < c:
        assert a < c


@settings(max_examples=300, deadline=None)
@given(hands(7), hands(7), hands(7))
def test_total_order_international_and_korean(a: list[Card], b: list[Card], c: list[Card]) -> None:
    check_total_order(international_high(a), international_high(b), international_high(c))
    check_total_order(korean_high(a), korean_high(b), korean_high(c))
    check_total_order(badugi(a[:4]), badugi(b[:4]), badugi(c[:4]))


@settings(max_examples=200, deadline=None)
@given(hands(7), hands(7), hands(7))
def test_total_order_lows(a: list[Card], b: list[Card], c: list[Card]) -> None:
    lows = [korean_low(h, rule="aceToFive") for h in (a, b, c)]
    if all(v is not None for v in lows):
        x, y, z = lows
        assert x is not None and y is not None and z is not None
        check_total_order(x, y, z)


@settings(max_examples=500, deadline=None)
@given(hands(5), hands(5))
def test_korean_never_ties_across_distinct_five_card_sets(a: list[Card], b: list[Card]) -> None:
    if set(a) != set(b):
        assert korean_high(a) != korean_high(b)
    else:
        assert korean_high(a) == korean_high(b)


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 4).flatmap(lambda n: st.tuples(hands(n), hands(n))))
def test_open_rank_never_ties_across_distinct_sets(pair: tuple[list[Card], list[Card]]) -> None:
    a, b = pair
    assert (korean_open_rank(a) == korean_open_rank(b)) == (set(a) == set(b))


@settings(max_examples=200, deadline=None)
@given(hands(7), st.randoms(use_true_random=False))
def test_permutation_invariance(cards: list[Card], rnd: object) -> None:
    shuffled = list(cards)
    rnd.shuffle(shuffled)  # type: ignore[attr-defined]
    for evaluate in (international_high, korean_high):
        x, y = evaluate(cards), evaluate(shuffled)
        assert x == y and set(x.cards) == set(y.cards) and x.name == y.name
    x5, y5 = korean_high(cards[:5]), korean_high(sorted(cards[:5], key=lambda c: c.id))
    assert x5 == y5
    for rule in ("korean", "aceToFive"):
        lx, ly = korean_low(cards, rule=rule), korean_low(shuffled, rule=rule)  # type: ignore[arg-type]
        assert lx == ly
    assert badugi(cards[:4]) == badugi(list(reversed(cards[:4])))
    hole, board = cards[:4], cards[4:]
    assert omaha_high(hole, board) == omaha_high(list(reversed(hole)), sorted(board, key=lambda c: -c.id))


@settings(max_examples=200, deadline=None)
@given(hands(7))
def test_used_cards_come_from_the_hand_and_reproduce_the_value(cards: list[Card]) -> None:
    high = international_high(cards)
    assert len(high.cards) == 5 and set(high.cards) <= set(cards)
    assert international_high(list(high.cards)) == high
    kor = korean_high(cards)
    assert len(kor.cards) == 5 and set(kor.cards) <= set(cards)
    assert korean_high(list(kor.cards)) == kor
    assert kor.category >= korean_high(cards[:5]).category
