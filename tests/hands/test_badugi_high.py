"""High badugi (docs/rules-extensions.md "하이 바둑이") against a slow reference written from the ruling text,
plus each decision of the ruling as a named example."""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from pokerroom.cards import Card, parse_cards, standard_deck
from pokerroom.hands import badugi, badugi_high


def reference(cards: list[Card]) -> tuple[int, tuple[int, ...]]:
    """Straight from the text: the largest subset with no shared rank or suit; among those, the one whose
    ranks (ace high) read from the top down are highest; larger k first, then those ranks."""
    for k in range(len(cards), 0, -1):
        found = [
            tuple(sorted((c.rank for c in sub), reverse=True))
            for sub in combinations(cards, k)
            if len({c.rank for c in sub}) == k and len({c.suit for c in sub}) == k
        ]
        if found:
            return (k, max(found))
    raise AssertionError("unreachable")


def test_matches_the_reference_on_30000_random_pairs() -> None:
    rng = random.Random(16)
    deck = standard_deck()
    for _ in range(30_000):
        cards = rng.sample(deck, 8)
        a, b = cards[:4], cards[4:]
        va, vb = badugi_high(a), badugi_high(b)
        ra, rb = reference(a), reference(b)
        assert (va > vb, va == vb, va < vb) == (ra > rb, ra == rb, ra < rb), (a, b)
        assert va.category == ra[0]
        assert tuple(c.rank for c in va.cards) == ra[1]


def test_every_hand_of_one_suit_pattern_agrees_with_the_reference_ordering() -> None:
    """All 4-card hands from a pool with pairs and shared suits: the total order equals the reference."""
    pool = parse_cards("As Ad Kh Kc Qs Qh 2d 2c 3s 5h")
    hands = [list(h) for h in combinations(pool, 4)]
    ours = sorted(hands, key=lambda h: badugi_high(h).key)
    keys = [reference(h) for h in ours]
    assert keys == sorted(keys)


@pytest.mark.parametrize(("better", "worse"), [
    ("As Kd Qh Jc", "Ks Qd Jh Tc"),   # the best hand: A-K-Q-J of four suits (ace high)
    ("2s 3d 4h 5c", "As Ks Qh Jc"),   # any made hand beats any base (k decides first)
    ("As Kd Qh 2c", "As Kd Jh Tc"),   # equal A, K, then Q > J: compared from the top down
    ("As Ks Qh Jd", "Ks Qs Jh Td"),   # bases: the ace of the paired suit is kept (highest subset)
    ("Ah Kh Qs Qd", "Ah Kh Jd Jc"),   # two-base A/Q vs A/J (the pair and the suit both drop a card)
    ("2s 3d Kh Kc", "As Ad Ah Ac"),   # two-base K-3 vs no-base A: larger k wins
])
def test_ruling_examples(better: str, worse: str) -> None:
    assert badugi_high(parse_cards(better)) > badugi_high(parse_cards(worse))


def test_equal_ranks_split_suits_never_rank() -> None:
    assert badugi_high(parse_cards("As Kd Qh Jc")) == badugi_high(parse_cards("Ad Ks Qc Jh"))


def test_names() -> None:
    assert badugi_high(parse_cards("As Kd Qh Jc")).name == "A-K-Q-J 메이드"
    assert badugi_high(parse_cards("Ks 9d 5h 2c")).name == "K 메이드"
    assert badugi_high(parse_cards("Qs Qd 9h 2c")).name == "Q 베이스"
    assert badugi_high(parse_cards("2s 2d 2h 3h")).name == "투베이스"
    assert badugi_high(parse_cards("2s 5s 9s Ks")).name == "노베이스"


def test_high_and_low_badugi_are_opposite_on_made_hands() -> None:
    golf, royal = parse_cards("As 2d 3h 4c"), parse_cards("As Kd Qh Jc")
    assert badugi(golf) > badugi(royal)
    assert badugi_high(royal) > badugi_high(golf)
    with pytest.raises(TypeError):
        _ = badugi(golf) < badugi_high(golf)  # never compared across families
