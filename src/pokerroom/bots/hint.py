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
from functools import lru_cache
from math import comb

import numpy as np
from numpy.typing import NDArray

from pokerroom.bots.situation import Situation
from pokerroom.bots.street_views import other_views, street_spot
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
_PAIR_BITS = (_BITS[:, None] | _BITS[None, :]).ravel()  # a * 52 + b -> the bits of cards a and b
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
        spot = _post_flop_spot((a, b), board)
        hole = (a, b)
    if not board:
        if not _PREFLOP_DONE:
            _preflop()
        pre = _PREFLOP.get((*spot, n_opp))
        if pre is not None:
            return pre
    eq = _EQUITY.get((*spot, n_opp))
    if eq is None and len(board) in (3, 4):
        _price_street(hole, board, n_opp)
        eq = _EQUITY.get((*spot, n_opp))
    if eq is None:
        if len(_EQUITY) >= _KEPT:
            _EQUITY.clear()
        # one pass values every smaller field too (the first k opponents): later decisions of this street,
        # after folds, find theirs
        estimate = _river(hole, board, n_opp) if len(board) == 5 else _estimate(hole, board, n_opp)
        for k, value in enumerate(estimate, start=1):
            _EQUITY.setdefault((*spot, k), value)
        eq = _EQUITY[(*spot, n_opp)]
    return eq


def _price_street(hole: tuple[int, int], board: tuple[int, ...], n_opp: int) -> None:
    """On a flop or turn miss: my hole and every other live seat's of the same spot (read from their own
    views, when the server hands them over: :func:`pokerroom.bots.street_views.other_views`), estimated in
    one pass (:func:`remember_street`)."""
    holes = [hole]
    for view in other_views():
        spot = street_spot(view)
        if spot is not None and len(spot[0]) == 2 and spot[1:] == (board, n_opp):
            other = (spot[0][0], spot[0][1])
            if other not in holes:
                holes.append(other)
    if len(holes) > 1:
        remember_street(holes, board, n_opp)


def _post_flop_spot(hole: tuple[int, int], board: tuple[int, ...]) -> tuple[object, ...]:
    """What a post-flop estimate is remembered by, before the number of opponents: the hole in either order,
    the board's sorted ids."""
    return (min(hole), max(hole), board)


def remembered(hole: tuple[int, int], board: tuple[int, ...], n_opp: int) -> bool:
    """Is the equity of ``hole`` on this flop or turn ``board`` (sorted ids) against ``n_opp`` opponents
    remembered (so :func:`hint_equity` will not estimate it)?"""
    return (*_post_flop_spot(hole, board), n_opp) in _EQUITY


def remember_street(holes: list[tuple[int, int]], board: tuple[int, ...], n_opp: int) -> int:
    """Estimate, in one pass (:func:`estimate_holes`), the flop or turn equities of those of ``holes`` not
    remembered yet on ``board`` against ``n_opp`` opponents, and remember them as :func:`hint_equity` would
    (every smaller field too); returns how many holes were estimated (none for fewer than two misses: a
    hole alone is estimated by its own hint, at no extra cost). Why: every live seat of a street asks for
    its estimate in turn, and one pass for all of them costs far less than one each
    (:mod:`.hint_prefetch`)."""
    if len(board) not in (3, 4) or n_opp < 1:
        return 0
    missing = [h for h in holes if not remembered(h, board, n_opp)]
    if len(missing) < 2:
        return 0
    if len(_EQUITY) >= _KEPT:
        _EQUITY.clear()
    for hole, row in zip(missing, estimate_holes(missing, board, n_opp), strict=True):
        spot = _post_flop_spot(hole, board)
        for k, value in enumerate(row, start=1):
            _EQUITY.setdefault((*spot, k), value)
    return len(missing)


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
    """Equity against the first 1, 2, ..., ``n_opp`` random opponents, from the same deals: the numbers of
    :func:`_estimate_many` for one hole after the flop (:func:`estimate_holes` of this one hole)."""
    if len(board) < 3:
        return _estimate_many([hole], board, n_opp)[0]
    return estimate_holes([hole], board, n_opp)[0]


def estimate_holes(holes: list[tuple[int, int]], board: tuple[int, ...], n_opp: int) -> list[list[float]]:
    """:func:`_estimate` of several holes on one board of 3-5 cards, in one pass: for each hole, the equity
    against the first 1, 2, ..., ``n_opp`` random opponents, each hole from its own deals (the same fixed
    orders through its own unseen cards), so every number is the one a pass of its own gives.

    Why so few array passes: a post-flop hint's cost is mostly the fixed cost of its numpy calls (200 deals
    of a few hands are small arrays), and inside a busy server each call costs about twice what it does in
    a loop; the holes of a street's live seats share those calls (:mod:`.hint_prefetch`). A hand is read as
    one key of its two cards (:func:`_keys`: its rank pair and suit counts) plus one of the runout (the
    same table): the sum indexes the board's rows (:func:`_rows`) and tells a possible flush."""
    nb = 5 - len(board)
    decks = []  # per hole: its unseen cards, then its own two
    for a, b in holes:
        known = sorted(_ALL.difference((a, b, *board)))
        known += (a, b)
        decks.append(known)
    size = len(decks[0]) - 2
    if nb + 2 * n_opp > size:
        return [[1.0 / (k + 1) for k in range(1, n_opp + 1)] for _ in holes]
    # per hole, rows: the runout, its two cards (the last two of its deck), the opponents' (hand 0 is the
    # hole's own), as (holes, rows, samples); ``take`` rather than an index array: the same numbers at under
    # half the cost
    cols = np.array(decks, dtype=np.int32).take(_deal(size)[: nb + 2 + 2 * n_opp], axis=1)
    pair = cols[:, nb::2] * 52 + cols[:, nb + 1 :: 2]  # (holes, hands, samples): a hand's two cards
    hand_key, runout_key = _keys32()
    key = hand_key.take(pair)
    key += sum(OT.BK[c] & 4095 for c in board)
    if nb:  # the runout's key, by (hole, sample): of its two cards, or of its one card (a == b)
        runout = cols[:, 0] * 52 + cols[:, 1] if nb == 2 else cols[:, 0] * 53
        key += runout_key.take(runout)[:, None, :]
    key = key.ravel()  # flat from here: a flush is found and mended by its flat position
    values = _rows(board).take(key >> 12)
    strength = _FLUSH_STRENGTH.take(key & 4095)
    flush = np.flatnonzero(strength >= 0)
    if flush.size:
        # seven cards with five of a suit: that suit's ranks decide (no full house or quads is possible)
        mask = _PAIR_BITS.take(pair.ravel().take(flush)) + sum(1 << c for c in board)
        if nb:  # the runout of the flush's deal, (hole, sample) of its flat position (one card: a == b)
            deal = flush // (pair.shape[1] * SAMPLES) * SAMPLES + flush % SAMPLES
            mask += _PAIR_BITS.take(runout.ravel().take(deal))
        values[flush] = hb._flush13()[0].take((mask >> _SHIFT.take(strength.take(flush))) & 8191)
    return _field_equities(values.reshape(pair.shape))


def _field_equities(values: NDArray[np.int32]) -> list[list[float]]:
    """From the hands' values ``(holes, 1 + n_opp, SAMPLES)`` (hand 0 the hole's own), each hole's equity
    against its first 1, 2, ..., ``n_opp`` opponents: a deal's share is 1 if my hand beats the best of them,
    ``1 / (1 + ties)`` if it ties that best, else 0.

    Why a loop over the opponents: a running maximum or count along the middle axis (``np.maximum.
    accumulate``, ``np.cumsum`` with ``axis=1``) took over 30 µs each on a street pass's arrays, where one
    ``np.maximum`` or ``np.add`` of two whole planes per opponent takes a few; the numbers are the same to
    the bit (integers until the one division, then the same float sums)."""
    holes, hands, samples = values.shape
    n_opp = hands - 1
    if not n_opp:
        return [[] for _ in range(holes)]
    best = np.empty((holes, n_opp, samples), dtype=values.dtype)  # [:, k - 1]: the best of the first k
    best[:, 0] = values[:, 1]
    for k in range(1, n_opp):
        np.maximum(best[:, k - 1], values[:, k + 1], out=best[:, k])
    mine = values[:, :1]
    level = mine == best
    if level.any():  # a tie with the best: shared with every opponent who has it
        same = values[:, 1:] == mine
        ties = np.empty(same.shape, dtype=np.int64)  # [:, k - 1]: the first k opponents' ties with me
        ties[:, 0] = same[:, 0]
        for k in range(1, n_opp):
            np.add(ties[:, k - 1], same[:, k], out=ties[:, k])
        ties += 1
        shares = np.where(mine > best, 1.0, level / ties)
        # (summed as rows of a matrix: a hole's float sums are then the very ones of a pass of its own)
        sums = shares.reshape(-1, samples).sum(axis=1).reshape(holes, n_opp)
        return [[float(x) / samples for x in row] for row in sums]
    return [[float(x) / samples for x in row] for row in np.count_nonzero(mine > best, axis=2)]


def _river(hole: tuple[int, int], board: tuple[int, ...], n_opp: int) -> list[float]:
    """Equity on the river against the first 1, 2, ..., ``n_opp`` random opponents, counted instead of
    sampled: the share of the 990 hands an opponent may hold that I beat (``w``) and tie (``t``), taken as
    independent for several opponents, ``sum C(k, j) t^j w^(k-j) / (j + 1)``.

    Why: on the river nothing is left to deal, so one opponent's answer is exact, and the board's sorted
    values (:func:`_river_values`, one pass per board, shared by every seat at the table) answer each seat
    with six bisections, where a sampled estimate cost a post-flop hint's whole budget. With more opponents
    only the card removal between their hands is left out (a bias of a point or two, inside the sampled
    estimate's error: ``tests/bots/test_hint_equity.py``)."""
    everyone, by_card, grid = _river_values(board)
    a, b = hole
    mine = grid[a * 52 + b]
    row_a, row_b = by_card[a], by_card[b]
    below = int(everyone.searchsorted(mine) - row_a.searchsorted(mine) - row_b.searchsorted(mine))
    upto = int(everyone.searchsorted(mine, "right") - row_a.searchsorted(mine, "right")
               - row_b.searchsorted(mine, "right"))
    hands = 990  # C(45, 2); my hole is in every list: counted once, taken away twice, so back once
    win, tie = below / hands, (upto + 1 - below) / hands
    return [sum(comb(k, j) * tie**j * win ** (k - j) / (j + 1) for j in range(k + 1))
            for k in range(1, n_opp + 1)]


def _river_values(board: tuple[int, ...]) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int64]]:
    """A river board's values of every two cards a player may hold: all hands sorted, each card's row of
    hands sorted (``[c]``: the hands holding card ``c``), and the value of ``(a, b)`` at ``a * 52 + b``; two
    cards that are not a hand (a card of the board, twice the same card) have a value above every hand, so
    they sort last and are never counted. Remembered by the board."""
    hit = _RIVERS.get(board)
    if hit is not None:
        return hit
    first, second = _GRID
    hand_key, _ = _keys()
    key = hand_key[first * 52 + second] + sum(OT.BK[c] & 4095 for c in board)
    values = _rows(board)[key >> 12].astype(np.int64)
    strength = _FLUSH_STRENGTH[key & 4095]
    flush = np.nonzero(strength >= 0)[0]
    if flush.size:
        mask = _BITS[first[flush]] + _BITS[second[flush]] + sum(1 << c for c in board)
        values[flush] = hb._flush13()[0][(mask >> _SHIFT[strength[flush]]) & 8191]
    dead = np.zeros(52, dtype=bool)
    dead[list(board)] = True
    values[dead[first] | dead[second] | (first == second)] = _NOT_A_HAND
    grid = values.reshape(52, 52)
    hit = (np.sort(grid[_UPPER]), np.sort(grid, axis=1), values)
    if len(_RIVERS) >= _ROWS_KEPT:
        _RIVERS.clear()
    _RIVERS[board] = hit
    return hit


#: every ordered pair of card ids (first, second), row-major: the cells of :func:`_river_values`'s grid
_GRID = (np.arange(52, dtype=np.int64).repeat(52), np.tile(np.arange(52, dtype=np.int64), 52))
_UPPER = np.triu_indices(52, 1)
_NOT_A_HAND = np.iinfo(np.int64).max
#: :func:`_river_values` by the board (sorted ids); cleared when full
_RIVERS: dict[tuple[int, ...], tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int64]]] = {}


@lru_cache(maxsize=1)
def _keys() -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """The keys of a hand and of a runout, by ``a * 52 + b`` of two card ids: the hand's index in a
    board's row (:func:`pokerroom.odds.holdem_table.pair_table`'s pair index) and the runout's row in
    :func:`_rows` (``(ra * 13 + rb) * 91``; one card: ``a == b``, ``rb * 91``), above 12 bits of the
    cards' suit counts (:data:`pokerroom.hands.omaha_table.BK`'s low bits: a sum of seven stays exact)."""
    pair = ht.pair_table()[1].astype(np.int64)
    ids = np.arange(52, dtype=np.int64)
    suits = _SUIT_COUNT.astype(np.int64)
    two = (suits[:, None] + suits[None, :]).ravel()
    hand = (pair << 12) + two
    runout = (((ids[:, None] % 13) * 13 + ids[None, :] % 13) * 91 << 12).ravel() + two
    one = ids * 53
    runout[one] = ((ids % 13) * 91 << 12) + suits
    for arr in (hand, runout):
        arr.setflags(write=False)
    return hand, runout


@lru_cache(maxsize=1)
def _keys32() -> tuple[NDArray[np.int32], NDArray[np.int32]]:
    """:func:`_keys` as 32-bit integers (the largest, a runout's row plus a hand's, is under 2**26): a street
    pass's arrays at half the bytes."""
    hand, runout = (a.astype(np.int32) for a in _keys())
    for arr in (hand, runout):
        arr.setflags(write=False)
    return hand, runout


#: the flush suit's shift in a 52-bit card mask, by :data:`_FLUSH_STRENGTH`
_SHIFT = np.array([39, 26, 13, 0], dtype=np.int64)


def _deal(unseen: int) -> NDArray[np.intp]:
    """:func:`_pool` with my two cards as hand 0: the runout's rows, then two rows of ``unseen`` and
    ``unseen + 1`` (where :func:`_estimate` puts my cards), then the opponents' rows."""
    deal = _DEALS.get(unseen)
    if deal is None:
        nb = unseen - 45
        pool = _pool(unseen)
        mine = np.array([[unseen], [unseen + 1]], dtype=np.intp).repeat(SAMPLES, axis=1)
        deal = np.ascontiguousarray(np.concatenate([pool[:nb], mine, pool[nb:]]))
        deal.setflags(write=False)
        _DEALS[unseen] = deal
    return deal


_DEALS: dict[int, NDArray[np.intp]] = {}


def _rows(board: tuple[int, ...]) -> NDArray[np.int32]:
    """The rows of :func:`pokerroom.odds.holdem_table.pair_table` a known board of 3-5 cards reaches, in
    one small table: after the flop, the row of runout ranks ``(r1, r2)`` starts at ``(r1 * 13 + r2) * 91``
    (61 kB), after the turn the row of ``r`` at ``r * 91``, on the river the one row at 0.

    Why: a deal's hands share one row of the 2 MB table, but finding the row took a read of the 1.4 MB
    board index per deal, and the rows of 200 deals are spread over the table; a board's own rows are one
    read away, stay cached, and serve every player at the table on that street (they are remembered by the
    board's ranks: in the server benchmark four post-flop estimates in five find their board's rows)."""
    key = tuple(sorted(c % 13 for c in board))
    hit = _ROWS.get(key)
    if hit is not None:
        return hit
    board_index = ht._boards()[0]
    table = ht.pair_table()[0]
    keys = np.array([sum(OT.BOARD_KEY[r] for r in key)], dtype=np.int64)
    for _ in range(5 - len(board)):
        keys = (keys[:, None] + _RANK_KEYS[None, :]).ravel()
    # (a runout that would make five of a rank is never dealt: any row stands for it; five aces' key lies
    # past the index's end, so keys are clipped to it before the read)
    rows = np.maximum(board_index[np.minimum(keys, board_index.size - 1)], 0).astype(np.int64) * 91
    values: NDArray[np.int32] = table[rows[:, None] + np.arange(91)].ravel()
    values.setflags(write=False)
    if len(_ROWS) >= _ROWS_KEPT:
        _ROWS.clear()
    _ROWS[key] = values
    return values


_RANK_KEYS = np.array(OT.BOARD_KEY, dtype=np.int64)
#: :func:`_rows` by the board's ranks; cleared when full
_ROWS: dict[tuple[int, ...], NDArray[np.int32]] = {}
_ROWS_KEPT = 64


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
    return _field_equities(values)


_POOLS: dict[int, NDArray[np.intp]] = {}


def _pool(unseen: int) -> NDArray[np.intp]:
    """For a deck of ``unseen`` cards: 200 fixed random orders of its indices (the first 23 places: five
    board cards and nine hands), column-major (:func:`fixed_deals`, transposed). Why fixed: dealing is most
    of a fresh estimate's cost, and any uniformly random order of the indices, mapped through a spot's own
    unseen cards, is a uniformly random deal of them; every spot's estimate stays unbiased (spots share their
    random numbers, so close spots get close answers, which a hint wants anyway)."""
    pool = _POOLS.get(unseen)
    if pool is None:
        pool = np.ascontiguousarray(fixed_deals(unseen, _PLACES, SAMPLES).T)
        pool.setflags(write=False)
        _POOLS[unseen] = pool
    return pool


def fixed_deals(unseen: int, take: int, samples: int) -> NDArray[np.intp]:
    """``samples`` fixed random orders of ``unseen`` cards' indices, their first ``take`` places, a row per
    deal: the deals of every hint's Monte Carlo (hold'em's through :func:`_pool`; Omaha's and 7 Poker's
    through :func:`pokerroom.bots.montecarlo.hero_equity`, where dealing from the key's generator was about
    a quarter of an estimate). Remembered by shape (a few dozen occur)."""
    key = (unseen, take, samples)
    hit = _FIXED.get(key)
    if hit is None:
        gen = np.random.Generator(np.random.PCG64(unseen))
        orders = gen.permuted(np.tile(np.arange(unseen, dtype=np.intp), (samples, 1)), axis=1)
        hit = np.ascontiguousarray(orders[:, :take])
        hit.setflags(write=False)
        with _FIXED_LOCK:  # (not the build lock: the preflop table deals from here while it holds that one)
            if len(_FIXED) >= _FIXED_KEPT:
                _FIXED.clear()
            _FIXED[key] = hit
    return hit


#: :func:`fixed_deals` by (unseen, take, samples)
_FIXED: dict[tuple[int, int, int], NDArray[np.intp]] = {}
_FIXED_KEPT = 256
_FIXED_LOCK = threading.Lock()
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
