"""Cards-speak hi-lo tallies (7 Poker hi-lo, Omaha Hi-Lo): each deal's pot split between high and low.

Why apart from :mod:`pokerroom.odds.showdown`: lows have no batch evaluator, so this tally evaluates each
distinct hand once through :func:`pokerroom.hands.korean_low` (or :func:`pokerroom.hands.omaha_low_ids`)
and keeps its own cache; the split rules are described in :mod:`pokerroom.odds.equity`.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from pokerroom.cards import Card, standard_deck
from pokerroom.hands import korean_low, omaha_low_ids
from pokerroom.hands.korean import LowQualifier, LowRule

_DECK: tuple[Card, ...] = tuple(standard_deck())
#: distinct-hand cache of the low evaluator is dropped beyond this many entries (memory bound)
_LOW_CACHE_MAX = 200_000


class HiLoTally:
    """Cards-speak hi-lo tallies: pot shares (sum and sum of squares), scoops, half wins, missing lows.

    Lows come from :func:`pokerroom.hands.korean_low`, called once per distinct 7-card hand (keyed by its
    card mask, so the fixed hand of a fully known player is evaluated once for the whole run). Their keys
    exceed 64 bits, so each batch compares them through their dense order (-1 = no qualifying low).
    """

    def __init__(self, players: int, rule: LowRule, qualifier: LowQualifier, omaha: bool = False) -> None:
        self.omaha = omaha  # Omaha Hi-Lo: lows of two hole + three board cards, eight or better
        self.rule: LowRule = rule
        self.qualifier: LowQualifier = qualifier
        self.n = 0
        self.share = np.zeros(players, dtype=np.float64)
        self.share2 = np.zeros(players, dtype=np.float64)
        self.scoop = np.zeros(players, dtype=np.int64)
        self.partial = np.zeros(players, dtype=np.int64)
        self.high = np.zeros(players, dtype=np.int64)
        self.low = np.zeros(players, dtype=np.int64)
        self.no_low = np.zeros(players, dtype=np.int64)
        self.no_low_any = 0
        self._cache: dict[int, int] = {}

    def _low_key(self, ids: Sequence[int]) -> int:
        value = korean_low([_DECK[i] for i in ids], self.rule, self.qualifier)
        return -1 if value is None else value.key

    def low_order(self, holes: NDArray[np.int64],
                  board: NDArray[np.int64] | None = None) -> NDArray[np.int64]:
        """Per (deal, player) the rank of the player's low among this batch's lows; -1 = no low."""
        if self.omaha:
            assert board is not None
            return self._omaha_low_order(holes, board)
        n, players, _ = holes.shape
        masks = (np.int64(1) << holes).sum(axis=2)  # distinct cards: the sum is the card mask
        if len(self._cache) > _LOW_CACHE_MAX:
            self._cache.clear()
        per_player: list[tuple[list[int], NDArray[np.intp]]] = []
        for p in range(players):
            uniq, first, inverse = np.unique(masks[:, p], return_index=True, return_inverse=True)
            keys: list[int] = []
            for mask, row in zip(uniq.tolist(), first.tolist(), strict=True):
                key = self._cache.get(mask)
                if key is None:
                    key = self._cache[mask] = self._low_key(holes[row, p].tolist())
                keys.append(key)
            per_player.append((keys, inverse.reshape(-1)))
        present = sorted({k for keys, _ in per_player for k in keys if k >= 0})
        order = {key: i for i, key in enumerate(present)}
        out = np.empty((n, players), dtype=np.int64)
        for p, (keys, inverse) in enumerate(per_player):
            ranks = np.array([order.get(k, -1) for k in keys], dtype=np.int64)
            out[:, p] = ranks[inverse]
        return out

    @staticmethod
    def _omaha_low_order(holes: NDArray[np.int64], board: NDArray[np.int64]) -> NDArray[np.int64]:
        """Omaha lows: the keys themselves (20 bits, larger is better; -1 = no low) order the deal."""
        n, players, _ = holes.shape
        out = np.empty((n, players), dtype=np.int64)
        for d, (hole_rows, board_row) in enumerate(zip(holes.tolist(), board.tolist(), strict=True)):
            for p, hole in enumerate(hole_rows):
                out[d, p] = omaha_low_ids(hole, board_row)
        return out

    def add(self, high: NDArray[np.int64], low: NDArray[np.int64]) -> None:
        self.n += high.shape[0]
        high_best = high == high.max(axis=1, keepdims=True)
        has_low = low >= 0
        any_low: NDArray[np.bool_] = np.asarray(has_low.any(axis=1), dtype=bool)
        low_best = (low == low.max(axis=1, keepdims=True)) & any_low[:, None]
        high_part = np.where(any_low, 0.5, 1.0) / high_best.sum(axis=1)
        low_part = 0.5 / np.maximum(low_best.sum(axis=1), 1)
        share = high_best * high_part[:, None] + low_best * low_part[:, None]
        self.share += share.sum(axis=0)
        self.share2 += (share * share).sum(axis=0)
        self.scoop += np.count_nonzero(share == 1.0, axis=0)
        self.partial += np.count_nonzero((share > 0.0) & (share < 1.0), axis=0)
        self.high += np.count_nonzero(high_best, axis=0)
        self.low += np.count_nonzero(low_best, axis=0)
        self.no_low += np.count_nonzero(~has_low, axis=0)
        self.no_low_any += int(np.count_nonzero(~any_low))

