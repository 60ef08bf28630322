"""The caches that make a hint cheaper never change what they stand for
(docs/decisions/0019-hints-exact-and-cached.md).

Why: a hint's random stream is seeded by the SHA-256 of the digest's ``repr`` (``Situation.fingerprint``),
so the fingerprint must keep its exact bytes although its options part is now rendered once per options,
and ``card_of`` must keep refusing what ``Card.from_json`` refuses although parsed cards are remembered.
"""

from __future__ import annotations

import copy
import hashlib
from typing import Any

import pytest

from pokerroom.bots import situation as S
from pokerroom.cards import Card

from .test_mc_exact import TABLES, _points


def _reference_fingerprint(sit: S.Situation) -> bytes:
    """The fingerprint as first written: the whole digest as one tuple, rendered by ``repr``."""

    def ids(cards: list[Card]) -> tuple[int, ...]:
        return tuple(c.id for c in cards)

    key = (
        sit.mode, sit.betting, sit.phase, sit.street, sit.me, sit.stack, sit.committed_round,
        ids(sit.hole), ids(sit.up), None if sit.discarded is None else sit.discarded.id,
        ids(sit.board),
        sit.pot_total, sit.current_bet, sit.to_call, sit.base_unit,
        tuple(tuple(sorted(a.items())) for a in sit.legal),
        tuple((o.id, o.seat, o.stack, o.all_in, o.committed_round, o.committed_total, ids(o.up),
               None if o.forehead is None else o.forehead.id, o.hole_count, tuple(o.draw_counts),
               o.last_action) for o in sit.opponents),
        ids(sit.folded_up), tuple(sorted(S._fingerprint_options(sit.options))), ids(sit.indian_used),
        tuple(sit.my_draw_counts), sit.my_last_action, sit.my_committed_total,
    )
    return hashlib.sha256(repr(key).encode()).digest()


@pytest.mark.parametrize("name", [t[0] for t in TABLES])
def test_fingerprint_is_the_digest_repr_hash(name: str) -> None:
    opts, players = next((o, n) for t, o, n in TABLES if t == name)
    for view in _points(opts, players)[:12]:
        sit = S.situation(view)
        assert sit is not None
        assert sit.fingerprint() == _reference_fingerprint(sit)


def test_fingerprint_options_cache_tells_equal_values_of_other_types_apart() -> None:
    """``True == 1`` and ``hash(True) == hash(1)``, but ``repr`` differs: a cache keyed by the values alone
    would give the second room the first room's stream."""
    view = _points({"mode": "holdem"}, 4)[3]
    sit = S.situation(view)
    assert sit is not None
    variants: list[dict[str, Any]] = []
    for value in (True, 1, 1.0, "x", None):
        other = copy.copy(sit)
        other.options = {**sit.options, "custom": value}
        variants.append(other.options)
        assert other.fingerprint() == _reference_fingerprint(other)
    reordered = copy.copy(sit)
    reordered.options = dict(reversed(list(sit.options.items())))
    assert reordered.fingerprint() == sit.fingerprint() == _reference_fingerprint(sit)
    digests = set()
    for options in variants:
        other = copy.copy(sit)
        other.options = options
        digests.add(other.fingerprint())
    assert len(digests) == len(variants)
    unhashable = copy.copy(sit)
    unhashable.options = {**sit.options, "custom": [1, 2]}
    assert unhashable.fingerprint() == _reference_fingerprint(unhashable)


def test_card_of_remembers_cards_but_refuses_what_from_json_refuses() -> None:
    good = {"id": 12, "rank": 14, "suit": "S"}
    assert S.card_of(good) == Card(12, 14, "S") and S.card_of(dict(good)) is S.card_of(good)
    for bad in ({"id": 12.0, "rank": 14, "suit": "S"}, {"id": 12, "rank": 14.0, "suit": "S"},
                {"id": 12, "rank": 14, "suit": "X"}, {"id": [12], "rank": 14, "suit": "S"}):
        with pytest.raises(ValueError):
            S.card_of(bad)
    assert S.card_of({"hidden": True, "slot": 1}) is None
    assert S.card_of("?") is None and S.card_of(None) is None


def test_decision_generator_is_the_integer_seeded_one() -> None:
    """The decision's generator, seeded from the digest's 32-bit words as an array, is in exactly the state
    of ``PCG64(int.from_bytes(digest, "big"))``, digests with zero words at either end included (numpy
    drops an integer's leading zero words; those take the integer path)."""
    import numpy as np

    from pokerroom.bots.policy import _generator

    for i in range(600):
        digest = hashlib.sha256(str(i).encode()).digest()
        if i % 5 == 1:
            digest = bytes(4) + digest[4:]
        elif i % 5 == 2:
            digest = bytes(12) + digest[12:]
        elif i % 5 == 3:
            digest = digest[:24] + bytes(8)
        want = np.random.Generator(np.random.PCG64(int.from_bytes(digest, "big")))
        got = _generator(digest)
        assert got.bit_generator.state == want.bit_generator.state, i
        assert got.random() == want.random()
