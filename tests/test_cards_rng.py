"""Cards and the dealing RNG (poker.md §3, §8.4): encodings, reproducibility, and uniform shuffles.

The statistical tests use fixed seeds, so they are deterministic; their thresholds are the two-sided 99 %
acceptance band of the chi-square distribution (a fair shuffle lands outside it 1 % of the time; a biased
one — e.g. the classic "swap with any position" Fisher–Yates bug — lands far outside).
"""

from __future__ import annotations

import ast
import hashlib
import math
from itertools import permutations
from pathlib import Path

import pytest

from pokerroom.cards import (
    SUITS,
    Card,
    d20_deck,
    deck_for,
    format_cards,
    parse_card,
    parse_cards,
    standard_card,
    standard_deck,
)
from pokerroom.rng import DealRng

SRC = Path(__file__).resolve().parents[1] / "src" / "pokerroom"


def chi2_band(dof: int, z: float = 2.5758293035489) -> tuple[float, float]:
    """Wilson–Hilferty approximation of the chi-square 0.5 % and 99.5 % quantiles."""
    a = 2 / (9 * dof)
    return dof * (1 - a - z * math.sqrt(a)) ** 3, dof * (1 - a + z * math.sqrt(a)) ** 3


# ---------------------------------------------------------------------------------------------- cards


def test_parse_format_round_trip_every_card() -> None:
    deck = standard_deck()
    text = format_cards(deck)
    assert parse_cards(text) == deck
    for card in deck:
        assert parse_card(card.code) == card
        assert Card.from_json(card.to_json()) == card
    assert parse_cards("10h, th TH") == [standard_card(10, "H")] * 3
    assert standard_card(14, "S").label == "A♠" and standard_card(10, "H").label == "10♥"
    for d20 in d20_deck():
        assert parse_card(d20.code, deck="d20") == d20
    for bad in ("", "1s", "Ax", "Zs", "11h"):
        with pytest.raises(ValueError):
            parse_card(bad)


def test_deck_ids() -> None:
    deck = standard_deck()
    assert [c.id for c in deck] == list(range(52))
    assert len(set(deck)) == 52
    for c in deck:
        assert c.id == SUITS.index(c.suit) * 13 + c.rank - 2
        assert 2 <= c.rank <= 14
    d20 = d20_deck()
    assert [c.id for c in d20] == list(range(20))
    assert {c.rank for c in d20} == set(range(1, 11)) and {c.suit for c in d20} == {"S", "H"}
    assert sum(1 for c in d20 if c.rank == 10) == 2
    assert deck_for("d20") == d20 and deck_for("d52") == deck
    with pytest.raises(ValueError):
        standard_card(1, "S")


# ------------------------------------------------------------------------------------------------ rng


def test_same_seed_same_order_and_different_seeds_differ() -> None:
    a = DealRng.from_seed(42).shuffled(standard_deck())
    b = DealRng.from_seed(42).shuffled(standard_deck())
    c = DealRng.from_seed(43).shuffled(standard_deck())
    assert a == b and a != c
    assert sorted(a, key=lambda card: card.id) == standard_deck()
    assert DealRng.from_seed("00" * 32).shuffled(list(range(10))) == DealRng.from_seed(bytes(32)).shuffled(
        list(range(10))
    )


def test_json_round_trip_continues_the_same_stream() -> None:
    rng = DealRng.from_seed(7)
    rng.shuffle(standard_deck())
    rng.randbelow(3)  # leave the position in the middle of a hash block
    saved = rng.to_json()
    restored = DealRng.from_json(saved)
    assert restored == rng and restored.to_json() == saved
    expected = [rng.randbelow(1000) for _ in range(50)]
    assert [restored.randbelow(1000) for _ in range(50)] == expected
    again = DealRng.from_json(saved)
    assert DealRng.from_json(saved).shuffled(standard_deck()) == again.shuffled(standard_deck())
    assert "seed" not in repr(rng) and saved["seed"] not in repr(rng)  # type: ignore[operator]


def test_randbelow_range() -> None:
    rng = DealRng.from_seed(1)
    draws = [rng.randbelow(7) for _ in range(2000)]
    assert set(draws) == set(range(7))
    assert rng.randbelow(1) == 0
    with pytest.raises(ValueError):
        rng.randbelow(0)


def test_card_by_position_chi_square() -> None:
    """8,000 shuffles of 52 cards: every card is equally likely in every position."""
    shuffles = 8_000
    rng = DealRng.from_seed(20261129)
    counts = [[0] * 52 for _ in range(52)]
    for _ in range(shuffles):
        order = rng.shuffled(list(range(52)))
        for position, card in enumerate(order):
            counts[position][card] += 1
    expected = shuffles / 52
    stat = sum((n - expected) ** 2 / expected for row in counts for n in row)
    low, high = chi2_band(51 * 51)  # margins are fixed in both directions
    assert low < stat < high, stat
    # no single position is far off either (e.g. the last card never staying put)
    worst = max(abs(counts[p][p] - expected) for p in range(52))
    assert worst < 6 * math.sqrt(expected)


def test_four_card_permutations_chi_square() -> None:
    """24,000 shuffles of four cards: each of the 24 orders about 1,000 times."""
    shuffles = 24_000
    rng = DealRng.from_seed(4)
    seen = dict.fromkeys(permutations(range(4)), 0)
    for _ in range(shuffles):
        seen[tuple(rng.shuffled([0, 1, 2, 3]))] += 1  # type: ignore[index]
    assert len(seen) == 24
    expected = shuffles / 24
    stat = sum((n - expected) ** 2 / expected for n in seen.values())
    low, high = chi2_band(23)
    assert low < stat < high, (stat, seen)


def test_a_biased_shuffle_would_fail_the_band() -> None:
    """The test has teeth: the naive "swap with any position" shuffle is rejected by the same statistic."""
    shuffles = 24_000
    rng = DealRng.from_seed(4)
    seen = dict.fromkeys(permutations(range(4)), 0)
    for _ in range(shuffles):
        items = [0, 1, 2, 3]
        for i in range(4):
            j = rng.randbelow(4)
            items[i], items[j] = items[j], items[i]
        seen[tuple(items)] += 1  # type: ignore[index]
    expected = shuffles / 24
    stat = sum((n - expected) ** 2 / expected for n in seen.values())
    assert stat > chi2_band(23)[1]


def test_no_random_module_in_the_source() -> None:
    """Dealing must come from the secret-seeded DealRng only (§8.4), never from :mod:`random`."""
    offenders = []
    for path in sorted(SRC.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import) and any(a.name.split(".")[0] == "random" for a in node.names):
                offenders.append(str(path))
            if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "random":
                offenders.append(str(path))
    assert offenders == []
    assert "import random" not in (SRC / "rng.py").read_text(encoding="utf-8")
    assert "secrets" in (SRC / "rng.py").read_text(encoding="utf-8")


def test_bulk_shuffle_equals_one_randbelow_per_position() -> None:
    """``DealRng.shuffle`` hashes blocks in bulk; it must still be exactly Fisher–Yates on ``randbelow``
    (same order, same stream position, same next draw), whatever the offset inside a block."""
    for k in range(300):
        seed = hashlib.sha256(b"bulk" + k.to_bytes(4, "little")).digest()
        offset = (k * 37) % 3001
        n = (0, 1, 2, 3, 20, 52, 53, 104)[k % 8]
        fast, slow = DealRng(seed, offset), DealRng(seed, offset)
        got, want = list(range(n)), list(range(n))
        fast.shuffle(got)
        for i in range(n - 1, 0, -1):
            j = slow.randbelow(i + 1)
            want[i], want[j] = want[j], want[i]
        assert got == want
        assert fast.consumed == slow.consumed
        assert fast.randbelow(1000) == slow.randbelow(1000)
