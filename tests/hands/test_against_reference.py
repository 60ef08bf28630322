"""The fast evaluators against the slow spec-text reference (``hands_reference``) on many random hands.

Hands are drawn both from the full deck and from narrowed decks (few suits or few ranks) so that flushes,
straights, full houses and quads, rare in random deals, are well represented. Seeds are fixed.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from itertools import combinations, pairwise
from typing import Any

import hands_reference as ref
import pytest

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
NARROW = [
    DECK,
    [c for c in DECK if c.suit in "SD"],  # flushes and straight flushes
    [c for c in DECK if c.rank >= 9 or c.rank == 2],  # straights, mountains, full houses
    [c for c in DECK if c.rank in (14, 2, 3, 4, 5, 6, 7)],  # wheels, back straights, lows
    [c for c in DECK if c.rank in (5, 9, 12)],  # quads, full houses, pairs
]


def draw(rng: random.Random, n: int, count: int) -> list[list[Card]]:
    out = []
    for i in range(count):
        pool = NARROW[i % len(NARROW)]
        out.append(rng.sample(pool, n))
    return out


def check_order(hands: Sequence[Any], ours: Callable[[Any], HandValue], theirs: Callable[[Any], Any]) -> None:
    """Sorting by our values sorts by the reference too, with equal values exactly where it has equal keys."""
    pairs = sorted(((ours(h), theirs(h)) for h in hands), key=lambda p: p[0].key)
    pairs.sort(key=lambda p: p[0])  # HandValue comparison (with lazy tie-breaks)
    for (a, ra), (b, rb) in pairwise(pairs):
        assert a <= b
        if a == b:
            assert ra == rb
        else:
            assert ra < rb, (a, b, ra, rb)


@pytest.mark.parametrize("n", [5, 6, 7])
def test_international_matches_reference(n: int) -> None:
    rng = random.Random(6_1 + n)
    hands = draw(rng, n, 1500)
    for h in hands[:300]:
        value = international_high(h)
        best = ref.intl_best(h)
        assert ref.intl5(tuple(value.cards)) == best
        assert set(value.cards) <= set(h) and len(value.cards) == 5
    check_order(hands, international_high, ref.intl_best)


def test_omaha_matches_reference() -> None:
    rng = random.Random(542)
    deals = []
    for i in range(500):
        pool = NARROW[i % 3]
        cards = rng.sample(pool, 4 + 3 + i % 3)
        deals.append((cards[:4], cards[4:]))
    for hole, board in deals[:150]:
        value = omaha_high(hole, board)
        used = set(value.cards)
        assert len(used & set(hole)) == 2 and len(used & set(board)) == 3
        assert ref.intl5(tuple(value.cards)) == ref.omaha_best(hole, board)
    check_order(deals, lambda d: omaha_high(*d), lambda d: ref.omaha_best(*d))


@pytest.mark.parametrize("n", [5, 6, 7])
def test_korean_matches_reference(n: int) -> None:
    rng = random.Random(62 + n)
    hands = draw(rng, n, 1200)
    for h in hands:
        value = korean_high(h)
        key, chosen = ref.korean_best(h)
        assert set(value.cards) == chosen, (h, value)
        assert value.category == key[0]
    def reference(h: list[Card]) -> object:
        key, chosen = ref.korean_best(h)
        return key, ref.card_codes(list(chosen))

    check_order(hands, korean_high, reference)


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_open_rank_and_small_korean_match_reference(n: int) -> None:
    rng = random.Random(543 + n)
    hands = draw(rng, n, 1500)
    check_order(hands, korean_open_rank, lambda h: (ref.korean_small(tuple(h)), ref.card_codes(h)))
    for h in hands[:200]:
        assert korean_open_rank(h) == korean_high(h)


LOW_OPTIONS = [("korean", "none"), ("aceToFive", "none"), ("korean", "eight"), ("aceToFive", "eight")]
LABEL = {1: "A", 10: "10", 11: "J", 12: "Q", 13: "K"}


@pytest.mark.parametrize(("rule", "qualifier"), LOW_OPTIONS)
def test_low_matches_reference(rule: str, qualifier: str) -> None:
    rng = random.Random(63)
    hands = draw(rng, 7, 900) + draw(rng, 5, 300)
    values = []
    for h in hands:
        ours = korean_low(h, rule=rule, qualifier=qualifier)  # type: ignore[arg-type]
        theirs = ref.low_best(h, rule, qualifier)
        assert (ours is None) == (theirs is None), h
        if ours is not None and theirs is not None:
            lows = tuple(sorted((1 if c.rank == 14 else c.rank for c in ours.cards), reverse=True))
            assert lows == theirs[0]
            assert ours.name == LABEL.get(lows[0], str(lows[0])) + "탑"
            values.append((ours, theirs))
    values.sort(key=lambda p: p[0])
    for (a, ra), (b, rb) in pairwise(values):
        # better low = larger value = smaller ranks, then the better top suit
        assert (rb[0], -rb[1]) <= (ra[0], -ra[1])
        if (ra[0], ra[1]) != (rb[0], rb[1]):
            assert a < b


def test_badugi_exhaustive_on_a_small_deck_and_random_on_the_full_deck() -> None:
    small = [c for c in DECK if c.rank in (14, 2, 3, 4, 13)]  # 20 cards: every conflict structure
    hands = [list(h) for h in combinations(small, 4)]
    rng = random.Random(64)
    hands += [rng.sample(DECK, 4) for _ in range(3000)]
    values = []
    for h in hands:
        value = badugi(h)
        k, ranks = ref.badugi_ref(h)
        assert value.category == k
        assert len(value.cards) == k and set(value.cards) <= set(h)
        assert tuple(sorted((1 if c.rank == 14 else c.rank for c in value.cards), reverse=True)) == ranks
        values.append((value, (-k, ranks)))
    values.sort(key=lambda p: p[0])
    for (a, ra), (b, rb) in pairwise(values):
        assert rb <= ra
        assert (a == b) == (ra == rb)


def test_badugi_fewer_cards() -> None:
    rng = random.Random(65)
    for n in (1, 2, 3):
        for _ in range(300):
            h = rng.sample(DECK, n)
            value = badugi(h)
            assert (value.category, tuple(sorted((1 if c.rank == 14 else c.rank for c in value.cards),
                                                 reverse=True))) == ref.badugi_ref(h)


def test_low_fast_path_equals_the_exhaustive_definition() -> None:
    from pokerroom.hands.korean import _low_key, _low_key_exhaustive

    rng = random.Random(66)
    hands = draw(rng, 7, 2500) + draw(rng, 6, 300) + draw(rng, 5, 300)
    for h in hands:
        ids = [c.id for c in h]
        for korean in (True, False):
            for limit in (8, 13):
                expected = _low_key_exhaustive(ids, korean, limit)
                assert _low_key(ids, korean, limit) == expected, (h, korean, limit)
