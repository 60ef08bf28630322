"""The hint names of a view are remembered by the hand value's key: a value's name and ranked name must be a
function of its family and key, in every family a hint names.

Why a test: ``engine/hint_names.py`` (``value_names``) keeps the names of a key once computed, so two
different hands with one key must read the same; and the engine's names must stay what the value itself says.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Sequence
from typing import Any

import pytest

from pokerroom import engine
from pokerroom.bots import decide
from pokerroom.cards import Card, standard_deck
from pokerroom.engine.flow import pending
from pokerroom.engine.modes import rules_for
from pokerroom.hands import (
    badugi,
    badugi_high,
    international_high,
    korean_high,
    korean_low,
    omaha_high,
    omaha_low,
    ranked_name,
)

names_module = importlib.import_module("pokerroom.engine.hint_names")

Evaluator = Callable[[Sequence[Card]], Any]

FAMILIES: list[tuple[str, Evaluator, tuple[int, ...]]] = [
    ("international", international_high, (2, 5, 6, 7)),
    ("omaha high", lambda cs: omaha_high(cs[:4], cs[4:]), (7, 8, 9)),
    ("omaha low", lambda cs: omaha_low(cs[:4], cs[4:]), (7, 8, 9)),
    ("korean high", korean_high, (1, 2, 3, 4, 5, 6, 7)),
    ("korean low", korean_low, (5, 6, 7)),
    ("korean low a-5 eight", lambda cs: korean_low(cs, rule="aceToFive", qualifier="eight"), (5, 6, 7)),
    ("badugi", badugi, (4,)),
    ("badugi high", badugi_high, (4,)),
]


@pytest.mark.parametrize("family", [f[0] for f in FAMILIES])
def test_a_values_names_are_a_function_of_its_key(family: str) -> None:
    evaluate, sizes = next((e, s) for name, e, s in FAMILIES if name == family)
    pick = random.Random(family)
    deck = standard_deck()
    names: dict[tuple[type, int], tuple[str, str]] = {}
    for _ in range(3000):
        value = evaluate(pick.sample(deck, pick.choice(sizes)))
        if value is None:
            continue
        got = (str(value.name), ranked_name(value))
        assert names.setdefault((type(value), value.key), got) == got, (family, value)
        assert names_module.value_names(value) == got


@pytest.mark.parametrize("options", [
    {"mode": "holdem"}, {"mode": "omaha"}, {"mode": "omaha", "omahaHiLo": True}, {"mode": "sevenPoker"},
    {"mode": "sevenHiLo", "hiLoLow": "aceToFive", "hiLoQualifier": "eight"}, {"mode": "sevenHiLo"},
    {"mode": "badugi"}, {"mode": "badugi", "badugiHigh": True}, {"mode": "fiveDraw"},
])
def test_every_views_hint_names_are_the_values_own(options: dict[str, Any]) -> None:
    """Whole seeded games: each player's names in every state equal the names of freshly evaluated values
    (the per-cards table cleared, the per-key one kept across the game)."""
    ids = [f"p{i}" for i in range(5)]
    state = engine.setup(ids, engine.PokerOptions.model_validate({**options, "hints": True}), seed=9)
    now = 0
    for step in range(300):
        if state.phase != "playing" or state.hand is None:
            break
        mode = rules_for(state.options)
        for pid in state.hand.players:
            high, low = mode.hint_values(state.hand, pid)
            want_high, want_low = mode.hint(state.hand, pid)
            want = (want_high, want_low, None if high is None else ranked_name(high))
            names_module.HINTS.clear()
            assert names_module.hint_names(mode, state.hand, pid) == want
            assert low is None or want_low == low.name
        actors = pending(state)
        if not actors:
            break
        v = engine.view(state, actors[0])
        now += 1000
        state, _ = engine.apply(state, actors[0], decide(v, "easy", seed=step), now)


def test_the_warm_up_names_every_international_class_as_its_hands_are_named(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``warm_hint_names`` puts one hand of each of the 7,462 international classes and of the 10,608 Korean
    high keys (every five-card hand's, counted by the batch evaluator) in the name table, with the names of
    the value itself; afterwards a hold'em, Omaha or 7 Poker hand of five or more cards is named without a
    best-five search."""
    from pokerroom.hands.international import class_representatives

    reps = list(class_representatives())
    deck = standard_deck()
    values = [international_high([deck[i] for i in ids]) for ids in reps]
    assert len(reps) == 7462 and all(len(set(ids)) == 5 for ids in reps)
    assert len({v.key for v in values}) == 7462  # one hand per class, every class once
    monkeypatch.setattr(names_module, "NAMES", {})
    assert names_module.warm_hint_names() == 7462 + 10608
    for value in values[::97]:
        assert names_module.NAMES[(value.family, value.key)] == (str(value.name), ranked_name(value))
    assert sum(1 for family, _key in names_module.NAMES if family == "korean") == 10608
    pick = random.Random(4)
    for _ in range(200):
        korean = korean_high(pick.sample(deck, 5))
        assert names_module.NAMES[(korean.family, korean.key)] == (str(korean.name), ranked_name(korean))

    def no_search(_value: Any) -> str:
        raise AssertionError("a warmed class was named again")

    monkeypatch.setattr(names_module, "ranked_name", no_search)
    pick = random.Random(3)
    for _ in range(500):
        names_module.value_names(international_high(pick.sample(deck, pick.choice((5, 6, 7)))))
        cards = pick.sample(deck, pick.choice((7, 8, 9)))
        names_module.value_names(omaha_high(cards[:4], cards[4:]))  # Omaha: the same family's entries
        names_module.value_names(korean_high(pick.sample(deck, pick.choice((5, 6, 7)))))


def test_an_omaha_value_is_named_as_the_international_value_of_its_key() -> None:
    """Omaha high and hold'em share the family and the scale, so one entry names both: equal keys, equal
    names (the Omaha value's own, from its best five of two hole and three board cards)."""
    pick = random.Random(8)
    deck = standard_deck()
    for _ in range(400):
        cards = pick.sample(deck, pick.choice((7, 8, 9)))
        omaha = omaha_high(cards[:4], cards[4:])
        five = international_high(list(omaha.cards))
        assert five.key == omaha.key and five.family == omaha.family
        assert (str(omaha.name), ranked_name(omaha)) == (str(five.name), ranked_name(five))
