"""One player's Monte Carlo equity in one vectorised pass: what ``normal`` bots and hints ask for.

Why not just :func:`pokerroom.tools.equity.equity`: that tool answers for every player, validates its
input, tallies categories and standard errors, and evaluates one player at a time. A bot decision needs one
number, and it used to cost most of a hint's server CPU (issue #13: 0.6 ms per hold'em decision of the
0.85 ms hints added to an action). Here every player's hand is valued in one call over all samples and
players at once (hold'em: one gather of per-card keys, one table lookup, only the flush rows re-evaluated).

Exactly the same numbers: the same unseen-card list, the same groups in the same order, the same
:func:`pokerroom.tools.equity.sample_completions` draw from the caller's generator, exact evaluators (the
batch evaluators equal the scalar ones) and the same float arithmetic for the share of player 0. So a hint
or a bot decision is what it was before; ``tests/bots/test_mc_exact.py`` holds the recorded numbers and
checks this function against the tool on random tables. The hi-lo splits (7 Poker hi-lo, Omaha Hi-Lo) go to
the tool unchanged: their lows are evaluated per distinct hand in Python anyway.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from pokerroom.cards import Card
from pokerroom.hands import batch as hb
from pokerroom.tools.equity import (
    BOARD_COUNT,
    DEFAULT_BATCH,
    HOLE_COUNT,
    EquityMode,
    equity,
    sample_completions,
)

_ALL = frozenset(range(52))


def hero_equity(players: Sequence[Sequence[Card]], board: Sequence[Card], mode: EquityMode,
                rng: np.random.Generator, samples: int, dead: Sequence[Card] = (),
                omaha_hi_lo: bool = False) -> float:
    """Player 0's equity: ``equity(players, board, mode=mode, dead=dead, samples=samples, rng=rng,
    exact=False, categories=False, omaha_hi_lo=omaha_hi_lo).equity[0]``, bit for bit, faster."""
    hole_n, board_n = HOLE_COUNT[mode], BOARD_COUNT[mode]
    known = [[c.id for c in p] for p in players]
    board_ids = [c.id for c in board]
    used = [c for k in known for c in k] + board_ids + [c.id for c in dead]
    groups = [board_n - len(board_ids)] + [hole_n - len(k) for k in known]
    take = sum(groups)
    if (mode == "sevenHiLo" or (mode == "omaha" and omaha_hi_lo) or len(players) < 2 or samples <= 0
            or samples > DEFAULT_BATCH or len(set(used)) != len(used) or take > 52 - len(used)
            or min(groups) < 0 or any(not 0 <= c < 52 for c in used)):
        # the tool's own path: the hi-lo splits, and whatever the tool validates (it raises there)
        return equity(players, board, mode=mode, dead=dead, samples=samples, rng=rng, exact=False,
                      categories=False, omaha_hi_lo=omaha_hi_lo).equity[0]
    unseen = np.array(sorted(_ALL.difference(used)), dtype=np.int64)
    cards = unseen[sample_completions(rng, unseen.size, take, samples)]
    n, p_count = samples, len(players)
    full_board = np.empty((n, board_n), dtype=np.int64)
    full_board[:, : len(board_ids)] = board_ids
    nb = groups[0]
    full_board[:, len(board_ids) :] = cards[:, :nb]
    holes = np.empty((n, p_count, hole_n), dtype=np.int64)
    offset = nb
    for p, k in enumerate(known):
        holes[:, p, : len(k)] = k
        g = groups[p + 1]
        holes[:, p, len(k) :] = cards[:, offset : offset + g]
        offset += g
    if mode == "holdem":
        values = _holdem_values(full_board, holes)
    elif mode == "omaha":
        values = hb.omaha_high_batch(holes.reshape(n * p_count, hole_n),
                                     np.repeat(full_board, p_count, axis=0)).reshape(n, p_count)
    else:
        values = hb.korean_high_batch(holes.reshape(n * p_count, hole_n)).reshape(n, p_count)
    return _share_of_first(values.astype(np.int64, copy=False))


def _holdem_values(board: NDArray[np.int64], holes: NDArray[np.int64]) -> NDArray[np.int64]:
    """(n, players) hold'em values: the board's key sum once, each hole's added, one lookup for all; the
    entries holding a flush (the sums carry suit counts) are re-evaluated from their seven cards."""
    n, p_count, _ = holes.shape
    totals = hb.CARD_KEY[board].sum(axis=1)[:, None] + hb.CARD_KEY[holes].sum(axis=2)
    values, flush = hb.international_high_sums(totals.ravel())
    out = values.astype(np.int64).reshape(n, p_count)
    if flush.size:
        rows, players = np.divmod(flush, p_count)
        seven = np.concatenate([board[rows], holes[rows, players]], axis=1)
        out[rows, players] = hb.international_high_batch(seven)
    return out


def _share_of_first(values: NDArray[np.int64]) -> float:
    """Player 0's expected share, with :class:`pokerroom.tools.equity._Accumulator`'s exact arithmetic:
    Σ_k (deals where player 0 is among k best) / k, over the deals."""
    n, p_count = values.shape
    shared = np.zeros(p_count + 1, dtype=np.int64)
    if p_count == 2:
        a, b = values[:, 0], values[:, 1]
        wins = int(np.count_nonzero(a > b))
        shared[1] = wins
        shared[2] = n - wins - int(np.count_nonzero(b > a))
    else:
        winners = values == values.max(axis=1, keepdims=True)
        count = winners.sum(axis=1)
        shared += np.bincount(count[winners[:, 0]], minlength=p_count + 1)
    k = np.arange(p_count + 1, dtype=np.float64)
    k[0] = 1.0
    return float((shared[None, :] / k).sum(axis=1)[0] / float(n))
