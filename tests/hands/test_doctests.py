"""The docstring examples of the evaluators are executed, so they stay true."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "pokerroom.hands.international",
    "pokerroom.hands.korean",
    "pokerroom.hands.badugi",
    "pokerroom.hands.badugi_high",
    "pokerroom.hands.indian",
    "pokerroom.hands.batch",
    "pokerroom.cards",
    "pokerroom.rng",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
    if name.startswith("pokerroom.hands."):
        assert result.attempted > 0
