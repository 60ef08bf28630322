"""Hint tables read from generated files: starting hands' equity against 1-9 random hands (Omaha's four
cards; 7 Poker's first three and four cards), and badugi's equity by the hint's key (:func:`badugi_table`).

Why a file: these answers are a function of the cards' suit-isomorphic class alone (16,432 four-card
classes, 1,755 three-card ones), and estimating a class costs more than an action;
``scripts/build_hint_tables.py`` estimates all of them once (1,024 deals per Omaha class, 512 per 7 Poker
class, under a minute of CPU in all) and the server reads the result at its first hint of the mode (the
warm-up asks for one before any room does). A table answers in a dictionary read.

7 Poker's tables deal the opponents' seven cards at random: they leave out the one or two cards each
opponent shows on the first two rounds (their Monte Carlo, from the fifth card on, does not). A hint may
be that rough there: those rounds are bet small and the price of a bet still weighs on the decision
(:func:`pokerroom.bots.bets.range_equity`).
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from pathlib import Path

import numpy as np

DATA = Path(__file__).with_name("data")
OMAHA_PREFLOP = DATA / "omaha_preflop.npz"
SEVEN_STREETS = DATA / "seven_streets.npz"
BADUGI_DRAWS = DATA / "badugi_draws.npz"

_ALL = ((OMAHA_PREFLOP, 4), (SEVEN_STREETS, 3), (SEVEN_STREETS, 4))
_LOCK = threading.Lock()
#: (file, cards in a hand) -> class -> equity against 1, 2, ... random opponents
_TABLES: dict[tuple[Path, int], dict[tuple[tuple[int, ...], ...], tuple[float, ...]]] = {}


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
    if len(hand) != 4:
        return None
    return _lookup(OMAHA_PREFLOP, 4, hand, n_opp)


def seven_start(hand: Sequence[int], n_opp: int) -> float | None:
    """My 7 Poker high equity holding three or four cards, against ``n_opp`` random seven-card hands."""
    if len(hand) not in (3, 4):
        return None
    return _lookup(SEVEN_STREETS, len(hand), hand, n_opp)


def _lookup(path: Path, size: int, hand: Sequence[int], n_opp: int) -> float | None:
    table = _TABLES.get((path, size))
    if table is None:
        # every table at once: the warm-up's first Omaha hint loads 7 Poker's too (its sample views stop at
        # the choice), so no room's action pays for a load
        for where, n in _ALL:
            _load(where, n)
        table = _load(path, size)
    row = table.get(omaha_class(hand))
    if row is None or not 1 <= n_opp <= len(row):
        return None
    return row[n_opp - 1]


def _load(path: Path, size: int) -> dict[tuple[tuple[int, ...], ...], tuple[float, ...]]:
    with _LOCK:
        table = _TABLES.get((path, size))
        if table is not None:
            return table
        table = {}
        if path.exists():
            with np.load(path) as data:
                hands = data[f"hands{size}"].tolist()
                equity = (data[f"equity{size}"].astype(np.float64) / 255.0).tolist()
            for hand, row in zip(hands, equity, strict=True):
                table[omaha_class(hand)] = tuple(row)
        _TABLES[(path, size)] = table
        return table


#: a badugi class (size, top rank, broken ranks) or a spot (round, opponents' last draws) as one table row:
#: the numbers, then this filler
PAD = -99
BadugiClass = tuple[int, tuple[int, ...], tuple[int, ...]]
BadugiSpot = tuple[int, tuple[int, ...]]
#: high (하이 바둑이) -> (class -> row, spot -> column, equity rows)
_BADUGI: dict[bool, tuple[dict[BadugiClass, int], dict[BadugiSpot, int], list[list[float]]]] = {}


def badugi_table(high: bool, street: int, wants: tuple[int, ...], size: int, top: tuple[int, ...],
                 breaks: tuple[int, ...]) -> float | None:
    """Badugi equity by the hint's key (``hint_modes._key``): the size and top rank of the badugi my hand
    keeps and its ranks above the first draw's bar, the betting round, the opponents' last draws (-1: none
    yet), sorted. ``None``: no table, or a key it does not hold.

    Why a table: the key has about 190,000 values in all (1-5 opponents), each a Monte Carlo of the bots'
    badugi model that cost a hint about 0.8 ms under load, and a run of 600 actions still missed half its
    spots; ``scripts/build_hint_tables.py`` estimates every key once, on one hand of its class (128 deals),
    and the server reads the answer."""
    table = _BADUGI.get(high)
    if table is None:
        table = _load_badugi(high)
    classes, spots, equity = table
    row, col = classes.get((size, top, breaks)), spots.get((street, wants))
    if row is None or col is None:
        return None
    return equity[row][col]


def badugi_class_key(values: Sequence[int]) -> BadugiClass:
    """A class row of the file as the key's parts."""
    return (values[0], tuple(v for v in values[1:2] if v != PAD), tuple(v for v in values[2:] if v != PAD))


def badugi_spot_key(values: Sequence[int]) -> BadugiSpot:
    """A spot row of the file (round, opponents, their draws) as the key's parts."""
    return (values[0], tuple(values[2 : 2 + values[1]]))


def _load_badugi(high: bool) -> tuple[dict[BadugiClass, int], dict[BadugiSpot, int], list[list[float]]]:
    with _LOCK:
        table = _BADUGI.get(high)
        if table is not None:
            return table
        classes: dict[BadugiClass, int] = {}
        spots: dict[BadugiSpot, int] = {}
        equity: list[list[float]] = []
        if BADUGI_DRAWS.exists():
            side = "high" if high else "low"
            with np.load(BADUGI_DRAWS) as data:
                classes = {badugi_class_key(r): i for i, r in enumerate(data[f"classes_{side}"].tolist())}
                spots = {badugi_spot_key(r): i for i, r in enumerate(data["spots"].tolist())}
                equity = (data[f"equity_{side}"].astype(np.float64) / 255.0).tolist()
        _BADUGI[high] = table = (classes, spots, equity)
        return table
