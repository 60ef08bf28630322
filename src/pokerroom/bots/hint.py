"""The hint's equity at a fraction of a bot decision's cost: cached by the cards, sampled in one pass.

Why: a hint is what a ``normal`` bot would do, and every new decision point of every human seat needs one;
the bots' Monte Carlo (:mod:`.montecarlo`) deals numpy's own stream from a generator seeded per decision
(the recorded bot decisions depend on it), which made a hold'em hint cost more than the rest of an action.
A hint needs no such promise. Its equity against the opponents still in the hand is a function of the cards
it can see and their number alone, so it is

- remembered by exactly those (my hole, the board, the number of opponents; before the flop by the hole's
  suit-isomorphic class: all 169 classes x 1..9 opponents are estimated at the first preflop hint, once per
  process), and
- on a miss estimated from 200 deals (as many as a bot uses), taken from 200 fixed random orders of the
  unseen cards (:func:`_pool`), and valued for every opponent at once: a deal's hands share its board's
  row of :func:`pokerroom.odds.holdem_table.pair_table` (2 MB, where the 7-card index is 15 MB and costs
  a cache miss per hand), flushes come from the suited ranks.

The hint's other randomness (a bluff now and then) comes from a generator set from the decision point's
fingerprint, as before; only the equity's sampling changed. Other modes keep the bots' path.
"""

from __future__ import annotations

import threading

import numpy as np
from numpy.typing import NDArray

from pokerroom.bots.situation import Situation
from pokerroom.hands import _tables as T
from pokerroom.hands import batch as hb
from pokerroom.hands import omaha_table as OT
from pokerroom.odds import holdem_table as ht

SAMPLES = 200
_KEPT = 20_000
_EQUITY: dict[tuple[object, ...], float] = {}
_BK = np.array(OT.BK, dtype=np.int32)
_SUIT_COUNT = np.array([1 << (3 * (c // 13)) for c in range(52)], dtype=np.int32)
_FLUSH_STRENGTH = np.array(T.FLUSH_SHIFT, dtype=np.int8)  # suit counts -> strength of the 5+ suit, or -1
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
    if not board:
        if not _PREFLOP_DONE:
            _preflop()
        pre = _PREFLOP.get((*spot, n_opp))
        if pre is not None:
            return pre
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


_PREFLOP_DONE: list[bool] = []
_MAX_OPPONENTS = 9


def _preflop() -> None:
    """Every preflop class against 1..9 opponents at once (169 estimates, tens of milliseconds, once per
    process: the server's warm-up asks for a hint before any room does). Kept apart from the bounded cache of
    the other spots, which may be cleared."""
    with _BUILD_LOCK:
        if _PREFLOP_DONE:
            return
        classes = [(hi, lo, suited) for hi in range(13) for lo in range(hi + 1)
                   for suited in ((False, True) if hi != lo else (False,))]
        holes = [(hi, lo) if suited else (hi, 13 + lo) for hi, lo, suited in classes]
        for spot, row in zip(classes, _estimate_many(holes, (), _MAX_OPPONENTS), strict=True):
            for k, value in enumerate(row, start=1):
                _PREFLOP[(*spot, k)] = value
        _PREFLOP_DONE.append(True)


_BUILD_LOCK = threading.Lock()
_PREFLOP: dict[tuple[object, ...], float] = {}


def _estimate(hole: tuple[int, int], board: tuple[int, ...], n_opp: int) -> list[float]:
    """Equity against the first 1, 2, ..., ``n_opp`` random opponents, from the same deals."""
    return _estimate_many([hole], board, n_opp)[0]


def _estimate_many(holes: list[tuple[int, int]], board: tuple[int, ...], n_opp: int) -> list[list[float]]:
    """:func:`_estimate` of several holes on one board in one pass (the preflop table: all 169 at once)."""
    known = [sorted(_ALL - set(h) - set(board)) for h in holes]
    size = len(known[0])
    nb = 5 - len(board)
    take = nb + 2 * n_opp
    if take > size:
        return [[1.0 / (k + 1) for k in range(1, n_opp + 1)] for _ in holes]
    unseen = np.array(known, dtype=np.int64)  # (holes, unseen)
    cols = unseen[:, _pool(size)[:take]]  # (holes, take, samples)
    board_index, _ = ht._boards()
    table, pair = ht.pair_table()
    # the board's key (rank multiset and suit counts) and card mask, per deal
    board_key = int(_BK[list(board)].sum()) + _BK[cols[:, :nb]].sum(axis=1, dtype=np.int32)
    board_mask = sum(1 << c for c in board) + _BITS[cols[:, :nb]].sum(axis=1)
    row = board_index[board_key >> 12].astype(np.int64)[:, None, :] * 91  # (holes, 1, samples)
    suits = (board_key & 4095)[:, None, :]
    # every hand's two cards: (holes, hands, samples), hand 0 mine, then the opponents'
    shape = (len(holes), n_opp + 1, SAMPLES)
    first = np.empty(shape, dtype=np.int64)
    second = np.empty(shape, dtype=np.int64)
    hole_ids = np.array(holes, dtype=np.int64)
    first[:, 0] = hole_ids[:, :1]
    second[:, 0] = hole_ids[:, 1:]
    first[:, 1:] = cols[:, nb::2]
    second[:, 1:] = cols[:, nb + 1 :: 2]
    values = table[row + pair[first * 52 + second]]
    counts = suits + _SUIT_COUNT[first] + _SUIT_COUNT[second]
    flush = np.nonzero(_FLUSH_STRENGTH[counts] >= 0)
    if flush[0].size:
        # seven cards with five of a suit: that suit's ranks decide (no full house or quads is possible)
        shift = 13 * (3 - _FLUSH_STRENGTH[counts[flush]].astype(np.int64))
        mask = board_mask[flush[0], flush[2]] + _BITS[first[flush]] + _BITS[second[flush]]
        values[flush] = hb._flush13()[0][(mask >> shift) & 8191]
    mine, theirs = values[:, :1], values[:, 1:]
    best = np.maximum.accumulate(theirs, axis=1)  # row k-1: the best of the first k opponents
    level = mine == best
    if level.any():  # a tie with the best: shared with every opponent who has it
        shares = np.where(mine > best, 1.0, level / (np.cumsum(theirs == mine, axis=1) + 1))
    else:
        shares = mine > best
    return [[float(x) / SAMPLES for x in row] for row in shares.sum(axis=2)]


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
