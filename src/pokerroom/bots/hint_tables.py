"""Hint tables read from a generated file: the Omaha starting hands' equity against 1-9 random hands.

Why a file: the answer is a function of the four cards' suit-isomorphic class alone (16,432 classes), and
estimating a class costs more than an action; ``scripts/build_hint_tables.py`` estimates all of them once
(1,024 deals each, seconds of CPU) and the server reads the 150 kB result at its first Omaha hint (the
warm-up asks for one before any room does). The table answers in a dictionary read.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from pathlib import Path

import numpy as np

OMAHA_PREFLOP = Path(__file__).with_name("data") / "omaha_preflop.npz"
_OPPONENTS = 9

_LOCK = threading.Lock()
_TABLE: dict[tuple[tuple[int, ...], ...], tuple[float, ...]] = {}
_LOADED: list[bool] = []


def omaha_class(hand: Sequence[int]) -> tuple[tuple[int, ...], ...]:
    """The suit-isomorphic class of a hand: the sorted ranks held in each suit, the suits themselves
    forgotten (two hands are one class exactly when these agree)."""
    by_suit: list[list[int]] = [[], [], [], []]
    for c in hand:
        by_suit[c // 13].append(c % 13)
    return tuple(sorted(tuple(sorted(ranks)) for ranks in by_suit if ranks))


def omaha_preflop(hand: Sequence[int], n_opp: int) -> float | None:
    """My Omaha high equity before the flop against ``n_opp`` random hands (``None``: no table, or more
    opponents than it holds)."""
    if not 1 <= n_opp <= _OPPONENTS or len(hand) != 4:
        return None
    if not _LOADED:
        _load()
    row = _TABLE.get(omaha_class(hand))
    return None if row is None else row[n_opp - 1]


def _load() -> None:
    with _LOCK:
        if _LOADED:
            return
        if OMAHA_PREFLOP.exists():
            with np.load(OMAHA_PREFLOP) as data:
                hands = data["hands"].tolist()
                equity = (data["equity"].astype(np.float64) / 255.0).tolist()
            for hand, row in zip(hands, equity, strict=True):
                _TABLE[omaha_class(hand)] = tuple(row)
        _LOADED.append(True)
