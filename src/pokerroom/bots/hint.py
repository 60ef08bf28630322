"""The hint's equity at a fraction of a bot decision's cost: cached by the cards, sampled in one pass.

Why: a hint is what a ``normal`` bot would do, and every new decision point of every human seat needs one;
the bots' Monte Carlo (:mod:`.montecarlo`) deals numpy's own stream from a generator seeded per decision
(the recorded bot decisions depend on it), which made a hold'em hint cost more than the rest of an action.
A hint needs no such promise. Its equity against the opponents still in the hand is a function of the cards
it can see and their number alone, so it is

- remembered by exactly those (my hole, the board, the number of opponents; before the flop by the hole's
  suit-isomorphic class, which every table reuses: 169 classes x at most 9 opponents), and
- on a miss estimated from 200 deals (as many as a bot uses), taken from 200 fixed random orders of the
  unseen cards (:func:`_pool`), and valued for every opponent at once (one gather of per-card keys and
  masks, one table lookup, flushes from the suited ranks).

The hint's other randomness (a bluff now and then) comes from a generator set from the decision point's
fingerprint, as before; only the equity's sampling changed. Other modes keep the bots' path.
"""

from __future__ import annotations

import threading

import numpy as np
from numpy.typing import NDArray

from pokerroom.bots.situation import Situation
from pokerroom.hands import batch as hb

SAMPLES = 200
_KEPT = 20_000
_EQUITY: dict[tuple[object, ...], float] = {}
_CK = hb.CARD_KEY
_BITS = np.left_shift(np.int64(1), np.arange(52, dtype=np.int64))
_ALL = frozenset(range(52))


def hint_equity(sit: Situation) -> float | None:
    """My hold'em equity against the opponents still in the hand (``None``: not a case this path covers)."""
    if sit.mode != "holdem" or len(sit.hole) != 2:
        return None
    n_opp = len(sit.opponents)
    if n_opp == 0:
        return 1.0
    a, b = sit.hole[0].id, sit.hole[1].id
    board: tuple[int, ...] = ()
    if not sit.board:
        # the suit-isomorphic class (high rank, low rank, suited): the equity against random hands is the
        # same for every member, so the class's first member stands for all of them
        hi, lo = max(a % 13, b % 13), min(a % 13, b % 13)
        suited = a // 13 == b // 13
        spot: tuple[object, ...] = (hi, lo, suited)
        hole = (hi, lo) if suited else (hi, 13 + lo)
    else:
        board = tuple(sorted(c.id for c in sit.board))
        spot = (min(a, b), max(a, b), board)
        hole = (a, b)
    eq = _EQUITY.get((*spot, n_opp))
    if eq is None:
        if len(_EQUITY) >= _KEPT:
            _EQUITY.clear()
        # one pass values every smaller field too (the first k opponents): later decisions of this street,
        # after folds, find theirs
        for k, value in enumerate(_estimate(hole, board, n_opp), start=1):
            _EQUITY.setdefault((*spot, k), value)
        eq = _EQUITY[(*spot, n_opp)]
    return eq


def _estimate(hole: tuple[int, int], board: tuple[int, ...], n_opp: int) -> list[float]:
    """Equity against the first 1, 2, ..., ``n_opp`` random opponents, from the same deals."""
    known = set(hole) | set(board)
    unseen = np.array(sorted(_ALL - known), dtype=np.int64)
    nb = 5 - len(board)
    take = nb + 2 * n_opp
    if take > unseen.size:
        return [1.0 / (k + 1) for k in range(1, n_opp + 1)]
    cols = unseen[_pool(unseen.size)[:take]]  # (take, samples), each column of cards contiguous
    keys, masks = _CK[cols], _BITS[cols]
    board_key = int(_CK[list(board)].sum()) + keys[:nb].sum(axis=0)
    board_mask = sum(1 << c for c in board) + masks[:nb].sum(axis=0)
    # row 0: my hand; rows 1..: the opponents'
    all_keys = np.empty((n_opp + 1, SAMPLES), dtype=np.int64)
    all_masks = np.empty((n_opp + 1, SAMPLES), dtype=np.int64)
    all_keys[0] = board_key + int(_CK[hole[0]] + _CK[hole[1]])
    all_masks[0] = board_mask + ((1 << hole[0]) | (1 << hole[1]))
    np.add(keys[nb::2], keys[nb + 1 :: 2], out=all_keys[1:])
    all_keys[1:] += board_key
    np.add(masks[nb::2], masks[nb + 1 :: 2], out=all_masks[1:])
    all_masks[1:] += board_mask
    values = hb.international_high_sums_masks(all_keys.ravel(), all_masks.ravel()).reshape(n_opp + 1, SAMPLES)
    mine, theirs = values[0], values[1:]
    best = np.maximum.accumulate(theirs, axis=0)  # row k-1: the best of the first k opponents
    level = mine == best
    if level.any():  # a tie with the best: shared with every opponent who has it
        shares = np.where(mine > best, 1.0, level / (np.cumsum(theirs == mine, axis=0) + 1))
    else:
        shares = mine > best
    return [float(x) / SAMPLES for x in shares.sum(axis=1)]


_POOLS: dict[int, NDArray[np.intp]] = {}


def _pool(unseen: int) -> NDArray[np.intp]:
    """For a deck of ``unseen`` cards: 200 fixed random orders of its indices (the first 23 places: five
    board cards and nine hands), column-major. Why fixed: dealing is most of a fresh estimate's cost, and
    any uniformly random order of the indices, mapped through a spot's own unseen cards, is a uniformly
    random deal of them; every spot's estimate stays unbiased (spots share their random numbers, so close
    spots get close answers, which a hint wants anyway)."""
    pool = _POOLS.get(unseen)
    if pool is None:
        gen = np.random.Generator(np.random.PCG64(unseen))
        orders = gen.permuted(np.tile(np.arange(unseen, dtype=np.intp), (SAMPLES, 1)), axis=1)
        pool = np.ascontiguousarray(orders[:, :_PLACES].T)
        pool.setflags(write=False)
        _POOLS[unseen] = pool
    return pool


_PLACES = 23
_LOCAL = threading.local()


def hint_rng(fingerprint: bytes) -> np.random.Generator:
    """A generator set from a decision point's fingerprint (a SHA-256 digest): the state and increment of
    PCG64 straight from its bytes. Why: seeding through numpy's SeedSequence cost as much as a cached hint;
    one generator per thread is re-set instead (the server warms hints up in a thread of its own)."""
    gen: np.random.Generator | None = getattr(_LOCAL, "gen", None)
    if gen is None:
        gen = _LOCAL.gen = np.random.Generator(np.random.PCG64(0))
    gen.bit_generator.state = {
        "bit_generator": "PCG64",
        "state": {"state": int.from_bytes(fingerprint[:16], "big"),
                  "inc": int.from_bytes(fingerprint[16:32], "big") | 1},
        "has_uint32": 0,
        "uinteger": 0,
    }
    return gen
