"""Slow, obviously-correct reference evaluators written straight from the spec text (§6.1–§6.4).

They enumerate every five-card combination and compare plain tuples, so they share no code or table with
``pokerroom.hands``; the tests check the fast evaluators against them on many random hands.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations

from pokerroom.cards import SUIT_STRENGTH, Card

Key = tuple[object, ...]


def _straight_top(ranks: set[int]) -> int | None:
    """Top card of a 5-rank straight (A high; A-2-3-4-5 tops at 5), else None."""
    if len(ranks) != 5:
        return None
    if ranks == {14, 2, 3, 4, 5}:
        return 5
    if max(ranks) - min(ranks) == 4:
        return max(ranks)
    return None


def intl5(hand: tuple[Card, ...]) -> Key:
    """§6.1 value of exactly five cards as a comparable tuple."""
    ranks = sorted((c.rank for c in hand), reverse=True)
    counts = Counter(ranks)
    groups = sorted(counts.items(), key=lambda rc: (rc[1], rc[0]), reverse=True)
    flush = len({c.suit for c in hand}) == 1
    top = _straight_top(set(ranks))
    shape = [n for _, n in groups]
    order = [r for r, _ in groups]
    if top and flush:
        return (8, top)
    if shape == [4, 1]:
        return (7, *order)
    if shape == [3, 2]:
        return (6, *order)
    if flush:
        return (5, *ranks)
    if top:
        return (4, top)
    if shape == [3, 1, 1]:
        return (3, *order)
    if shape == [2, 2, 1]:
        return (2, *order)
    if shape == [2, 1, 1, 1]:
        return (1, *order)
    return (0, *ranks)


def intl_best(cards: list[Card]) -> Key:
    return max(intl5(c) for c in combinations(cards, 5))


def omaha_best(hole: list[Card], board: list[Card]) -> Key:
    return max(intl5(h + b) for h in combinations(hole, 2) for b in combinations(board, 3))


def _best_suit(cards: list[Card]) -> int:
    return max(SUIT_STRENGTH[c.suit] for c in cards)


def korean5(hand: tuple[Card, ...]) -> Key:
    """The §6.2 table for five cards (category, deciding ranks, deciding suit), no kickers."""
    ranks = sorted((c.rank for c in hand), reverse=True)
    counts = Counter(ranks)
    flush = len({c.suit for c in hand}) == 1
    rs = set(ranks)
    top = _straight_top(rs)
    by_rank = {r: [c for c in hand if c.rank == r] for r in rs}
    top_card_suit = _best_suit(by_rank[max(rs)])
    if top and flush:
        suit = SUIT_STRENGTH[hand[0].suit]
        if rs == {10, 11, 12, 13, 14}:
            return (12, suit)
        if rs == {14, 2, 3, 4, 5}:
            return (11, suit)
        return (10, top, suit)
    shape = sorted(counts.values(), reverse=True)
    if shape == [4, 1]:
        return (9, next(r for r, n in counts.items() if n == 4))
    if shape == [3, 2]:
        return (8, next(r for r, n in counts.items() if n == 3))
    if flush:
        return (7, *ranks, SUIT_STRENGTH[hand[0].suit])
    if top:
        if rs == {10, 11, 12, 13, 14}:
            return (6, _best_suit(by_rank[14]))
        if rs == {14, 2, 3, 4, 5}:
            return (5, _best_suit(by_rank[14]))
        return (4, top, _best_suit(by_rank[top]))
    if shape == [3, 1, 1]:
        return (3, next(r for r, n in counts.items() if n == 3))
    pairs = sorted((r for r, n in counts.items() if n == 2), reverse=True)
    if len(pairs) == 2:
        return (2, pairs[0], pairs[1], _best_suit(by_rank[pairs[0]]))
    if len(pairs) == 1:
        return (1, pairs[0], _best_suit(by_rank[pairs[0]]))
    return (0, *ranks, top_card_suit)


def korean_small(hand: tuple[Card, ...]) -> Key:
    """§6.2 restricted to 1..4 cards (open cards, rulings #3): no straights or flushes."""
    ranks = sorted((c.rank for c in hand), reverse=True)
    counts = Counter(ranks)
    by_rank = {r: [c for c in hand if c.rank == r] for r in counts}
    shape = sorted(counts.values(), reverse=True)
    if shape[0] == 4:
        return (9, ranks[0])
    if shape[0] == 3:
        return (3, next(r for r, n in counts.items() if n == 3))
    pairs = sorted((r for r, n in counts.items() if n == 2), reverse=True)
    if len(pairs) == 2:
        return (2, pairs[0], pairs[1], _best_suit(by_rank[pairs[0]]))
    if pairs:
        return (1, pairs[0], _best_suit(by_rank[pairs[0]]))
    return (0, *ranks, _best_suit(by_rank[ranks[0]]))


def card_codes(hand: tuple[Card, ...] | list[Card]) -> tuple[tuple[int, int], ...]:
    """The last tie-break: the cards as (rank, suit strength), best first."""
    return tuple(sorted(((c.rank, SUIT_STRENGTH[c.suit]) for c in hand), reverse=True))


def korean_best(cards: list[Card]) -> tuple[Key, frozenset[Card]]:
    """(§6.2 key, the five cards chosen), choosing by the key and then the best cards."""
    if len(cards) < 5:
        return korean_small(tuple(cards)), frozenset(cards)
    best = max(combinations(cards, 5), key=lambda h: (korean5(h), card_codes(h)))
    return korean5(best), frozenset(best)


def _low_rank(card: Card) -> int:
    return 1 if card.rank == 14 else card.rank


def low_best(cards: list[Card], rule: str, qualifier: str) -> tuple[tuple[int, ...], int] | None:
    """(ranks from the top down, suit of the top card) of the best low (smaller ranks better), or None."""
    found: list[tuple[tuple[int, ...], int]] = []
    for hand in combinations(cards, 5):
        lows = sorted((_low_rank(c) for c in hand), reverse=True)
        if len(set(lows)) != 5:
            continue
        if rule == "korean":
            if _straight_top({c.rank for c in hand}) is not None or len({c.suit for c in hand}) == 1:
                continue
        if qualifier == "eight" and lows[0] > 8:
            continue
        top = max(hand, key=_low_rank)
        found.append((tuple(lows), SUIT_STRENGTH[top.suit]))
    if not found:
        return None
    # lower ranks first; among equal ranks the better suit of the top card
    return min(found, key=lambda f: (f[0], -f[1]))


def badugi_ref(cards: list[Card]) -> tuple[int, tuple[int, ...]]:
    """(k, ranks of the lowest k-subset from the top down); larger k better, then smaller ranks."""
    for k in range(len(cards), 0, -1):
        options = [
            tuple(sorted((_low_rank(c) for c in sub), reverse=True))
            for sub in combinations(cards, k)
            if len({c.rank for c in sub}) == k and len({c.suit for c in sub}) == k
        ]
        if options:
            return k, min(options)
    raise AssertionError("unreachable")


def omaha_low_best(hole: list[Card], board: list[Card]) -> tuple[int, ...] | None:
    """Omaha Hi-Lo low, eight or better, from the rule text: every hand of exactly two hole cards and three
    board cards whose five ranks differ and are all 8 or lower (ace = 1; straights and flushes do not
    matter) is a low; the best one has the lowest ranks compared from the highest card down. Suits never
    matter, so equal ranks tie. Returns those ranks (highest first) or None when no low qualifies."""
    found = []
    for two in combinations(hole, 2):
        for three in combinations(board, 3):
            lows = sorted((_low_rank(c) for c in (*two, *three)), reverse=True)
            if len(set(lows)) == 5 and lows[0] <= 8:
                found.append(tuple(lows))
    return min(found) if found else None
