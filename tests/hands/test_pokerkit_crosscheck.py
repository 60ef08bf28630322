"""Cross-check of ``international_high`` and ``omaha_high`` against pokerkit (a test-only dependency).

pokerkit evaluates each hand once (its ``from_game`` is slow: ~0.3 ms for 7 cards, ~2 ms for Omaha), and the
50,000+ compared pairs are drawn from those cached hands: every pair of players sharing a board (as at a
real table) plus random pairs across boards. For every pair, pokerkit and we must agree on the winner or
the tie. Boards are drawn partly from narrowed decks so that flushes, straights and boats are common.
"""

from __future__ import annotations

import random
from itertools import combinations

import pokerkit
import pytest

from pokerroom.cards import Card, standard_deck
from pokerroom.hands import international_high, omaha_high

DECK = standard_deck()
POOLS = [
    DECK,
    DECK,
    [c for c in DECK if c.suit in "SDH"],
    [c for c in DECK if c.suit in "SD"],
    [c for c in DECK if c.rank >= 9 or c.rank <= 5],
    [c for c in DECK if c.rank in (14, 13, 12, 2, 3, 4, 5, 6)],
]
PAIRS = 50_000


def pk(cards: list[Card]) -> list[object]:
    return list(pokerkit.Card.parse("".join(c.code for c in cards)))


def sign(x: int) -> int:
    return (x > 0) - (x < 0)


def compare_all(ours: list[object], theirs: list[object], groups: list[range], rng: random.Random) -> int:
    pairs = [(i, j) for g in groups for i, j in combinations(g, 2)]
    n = len(ours)
    while len(pairs) < PAIRS:
        pairs.append((rng.randrange(n), rng.randrange(n)))
    for i, j in pairs:
        a, b = ours[i], ours[j]
        x, y = theirs[i], theirs[j]
        mine = sign((a > b) - (a < b))  # type: ignore[operator]
        ref = sign((x > y) - (x < y))  # type: ignore[operator]
        assert mine == ref, (i, j, a, b, x, y)
        assert (a == b) == (x == y)
    return len(pairs)


@pytest.mark.slow
def test_international_high_agrees_with_pokerkit() -> None:
    rng = random.Random(20261129)
    ours: list[object] = []
    theirs: list[object] = []
    groups: list[range] = []
    players = 6
    for b in range(1000):
        pool = POOLS[b % len(POOLS)]
        cards = rng.sample(pool, 5 + 2 * players)
        board = cards[:5]
        start = len(ours)
        for p in range(players):
            hole = cards[5 + 2 * p : 7 + 2 * p]
            ours.append(international_high(hole + board))
            theirs.append(pokerkit.StandardHighHand.from_game(pk(hole), pk(board)))
        groups.append(range(start, len(ours)))
    assert compare_all(ours, theirs, groups, rng) >= PAIRS
    # the categories agree too, so a tie is never between different kinds of hands
    names = {
        "하이카드": "High card", "원페어": "One pair", "투페어": "Two pair", "트리플": "Three of a kind",
        "스트레이트": "Straight", "플러시": "Flush", "풀하우스": "Full house", "포카드": "Four of a kind",
        "스트레이트 플러시": "Straight flush", "로열 스트레이트 플러시": "Straight flush",
    }
    for a, x in zip(ours[:3000], theirs[:3000], strict=True):
        assert str(x).startswith(names[a.name])  # type: ignore[attr-defined]


@pytest.mark.slow
def test_omaha_high_agrees_with_pokerkit() -> None:
    rng = random.Random(5_4_2)
    ours: list[object] = []
    theirs: list[object] = []
    groups: list[range] = []
    players = 5
    for b in range(300):
        pool = POOLS[b % len(POOLS)]
        board_size = (5, 5, 4, 3)[b % 4]
        cards = rng.sample(pool, board_size + 4 * players)
        board = cards[:board_size]
        start = len(ours)
        for p in range(players):
            hole = cards[board_size + 4 * p : board_size + 4 * p + 4]
            ours.append(omaha_high(hole, board))
            theirs.append(pokerkit.OmahaHoldemHand.from_game(pk(hole), pk(board)))
        groups.append(range(start, len(ours)))
    assert compare_all(ours, theirs, groups, rng) >= PAIRS
