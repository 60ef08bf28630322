"""One player's Monte Carlo equity in one vectorised pass: what ``normal`` bots and hints ask for.

Why not just :func:`pokerroom.odds.equity`: that tool answers for every player, validates its
input, tallies categories and standard errors, and evaluates one player at a time. A bot decision needs one
number, and it used to cost most of a hint's server CPU (measured: 0.6 ms per hold'em decision of the
0.85 ms hints added to an action; see docs/decisions/0019-hints-exact-and-cached.md). Here every player's
hand is valued in one call over all samples and players at once (hold'em: one gather of per-card keys, one
table lookup, only the flush rows re-evaluated).

Exactly the same numbers: the same unseen-card list, the same groups in the same order, the same
:func:`pokerroom.odds.sample_completions` draw from the caller's generator, exact evaluators (the
batch evaluators equal the scalar ones) and the same float arithmetic for the share of player 0. So a hint
or a bot decision is what it was before; ``tests/bots/test_mc_exact.py`` holds the recorded numbers and
checks this function against the tool on random tables. The hi-lo splits (7 Poker hi-lo, Omaha Hi-Lo) go to
the tool unchanged: their lows are evaluated per distinct hand in Python anyway.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

import numpy as np
from numpy.typing import NDArray

from pokerroom.cards import Card
from pokerroom.hands import batch as hb
from pokerroom.odds import (
    BOARD_COUNT,
    DEFAULT_BATCH,
    HOLE_COUNT,
    EquityMode,
    equity,
    sample_completions,
)

_ALL = frozenset(range(52))


Deals = Callable[[int, int, int], NDArray[np.integer[Any]]]


def hero_equity(players: Sequence[Sequence[Card]], board: Sequence[Card], mode: EquityMode,
                rng: np.random.Generator, samples: int, dead: Sequence[Card] = (),
                omaha_hi_lo: bool = False, deals: Deals | None = None) -> float:
    """Player 0's equity: ``equity(players, board, mode=mode, dead=dead, samples=samples, rng=rng,
    exact=False, categories=False, omaha_hi_lo=omaha_hi_lo).equity[0]``, bit for bit, faster.

    ``deals(unseen, take, samples)``: the deals as indices into the unseen cards, instead of drawing them
    from ``rng`` (a hint deals from fixed orders: :func:`pokerroom.bots.hint.fixed_deals`); the
    tool's own path (the hi-lo splits) still draws from ``rng``."""
    hole_n, board_n = HOLE_COUNT[mode], BOARD_COUNT[mode]
    known = [[c.id for c in p] for p in players]
    board_ids = [c.id for c in board]
    used = [c for k in known for c in k]
    used += board_ids
    used += [c.id for c in dead]
    groups = [board_n - len(board_ids)] + [hole_n - len(k) for k in known]
    take = sum(groups)
    if (mode == "sevenHiLo" or (mode == "omaha" and omaha_hi_lo) or len(players) < 2 or samples <= 0
            or samples > DEFAULT_BATCH or len(set(used)) != len(used) or take > 52 - len(used)
            or min(groups) < 0 or (used and not 0 <= min(used) <= max(used) < 52)):
        # the tool's own path: the hi-lo splits, and whatever the tool validates (it raises there)
        return equity(players, board, mode=mode, dead=dead, samples=samples, rng=rng, exact=False,
                      categories=False, omaha_hi_lo=omaha_hi_lo).equity[0]
    unseen = np.array(sorted(_ALL.difference(used)), dtype=np.int64)
    drawn = sample_completions(rng, unseen.size, take, samples) if deals is None else deals(
        unseen.size, take, samples)
    if mode == "holdem":
        return _share_of_first(_holdem_values(unseen, drawn, board_ids, known, groups))
    cards = unseen[drawn]
    # Every card of every deal is a column of ``ext``: the sampled ones, then the known ones (the board's,
    # then each player's); ``board_at`` and ``hole_at`` say which columns make the board and each hand.
    fixed = board_ids + [c for k in known for c in k]
    nb = groups[0]
    board_at = [take + i for i in range(len(board_ids))] + list(range(nb))
    hole_at: list[list[int]] = []
    sampled, fixed_at = nb, take + len(board_ids)
    for p, k in enumerate(known):
        g = groups[p + 1]
        hole_at.append(list(range(fixed_at, fixed_at + len(k))) + list(range(sampled, sampled + g)))
        sampled += g
        fixed_at += len(k)
    n, p_count = samples, len(players)
    ext = np.concatenate([cards, np.broadcast_to(np.array(fixed, dtype=np.int64), (n, len(fixed)))], axis=1)
    holes = ext[:, np.array(hole_at, dtype=np.intp)].reshape(n * p_count, hole_n)
    if mode == "omaha":
        board_rows = np.repeat(ext[:, np.array(board_at, dtype=np.intp)], p_count, axis=0)
        values = hb.omaha_high_batch(holes, board_rows).reshape(n, p_count).astype(np.int64)
    else:
        values = hb.korean_high_batch(holes).reshape(n, p_count)
    return _share_of_first(values.T)


_KEY: list[int] = hb.CARD_KEY.tolist()
#: Per card id, as floats: its key (row 0) and its mask bit (row 1). Sums of up to seven of them stay below
#: 2**53 (keys are under 2**33, masks are distinct bits under 2**52), so float sums are exact integers and
#: one BLAS matrix product adds every hand's cards at once.
_KEY_BIT_F = np.stack([hb.CARD_KEY.astype(np.float64), np.ldexp(1.0, np.arange(52))])


@lru_cache(maxsize=256)
def _members(groups: tuple[int, ...]) -> NDArray[np.float64]:
    """(players, sampled cards) 0/1: which sampled cards are in each player's seven (the board's in all)."""
    take, p_count = sum(groups), len(groups) - 1
    out = np.zeros((p_count, take), dtype=np.float64)
    out[:, : groups[0]] = 1.0
    offset = groups[0]
    for p, g in enumerate(groups[1:]):
        out[p, offset : offset + g] = 1.0
        offset += g
    out.setflags(write=False)
    return out


def _holdem_values(unseen: NDArray[np.int64], drawn: NDArray[np.integer[Any]], board_ids: list[int],
                   known: list[list[int]], groups: list[int]) -> NDArray[np.int32]:
    """(players, deals) hold'em values from sums: per hand the sum of :data:`~pokerroom.hands.batch.CARD_KEY`
    (rank multiset and suit counts) and of ``1 << id`` (the card mask, for flushes) over its seven cards.
    ``drawn``: the sampled cards as indices into ``unseen``. The sampled cards' sums are one gather (keys
    and bits at once) and one matrix product (:func:`_members`), the known cards' are constants added to
    it; one lookup then values every hand, as :func:`~pokerroom.hands.batch.international_high_sums_masks`
    does (the same tables). Players first: the share of player 0 then compares rows, not short columns
    (numpy reduces a long axis far faster than many short ones)."""
    n, p_count = drawn.shape[0], len(known)
    board_key = board_mask = 0
    for c in board_ids:
        board_key += _KEY[c]
        board_mask += 1 << c
    key_list, mask_list = [board_key] * p_count, [board_mask] * p_count
    for p, k in enumerate(known):
        for c in k:
            key_list[p] += _KEY[c]
            mask_list[p] += 1 << c
    known_sums = np.array([key_list, mask_list], dtype=np.float64)[:, :, None]
    if drawn.shape[1]:
        # keys, then masks: (2, sampled, deals); (players, sampled) @ that: (2, players, deals)
        parts = _KEY_BIT_F.take(unseen, axis=1).take(drawn.T, axis=1)
        sums = _members(tuple(groups)) @ parts
        sums += known_sums  # exact: a seven-card sum, as above
        both = sums.astype(np.int64)
    else:
        both = np.broadcast_to(known_sums.astype(np.int64), (2, p_count, n))
    keys = both[0]
    values: NDArray[np.int32] = hb._intl(7)[hb._index(7)[keys >> 12]]
    strength = hb._FLUSH_SHIFT[keys & 4095]
    rows = np.flatnonzero(strength >= 0)
    if rows.size:
        # strength 3 (♠) .. 0 (♣); ids are in ♠ ◆ ♥ ♣ order
        suit = 3 - strength.ravel()[rows].astype(np.int64)
        ranks = (both[1].ravel()[rows] >> (13 * suit)) & 8191
        values.ravel()[rows] = hb._flush13()[0][ranks]
    return values


def _share_of_first(values: NDArray[np.integer[Any]]) -> float:
    """Player 0's expected share from (players, deals) values, with
    :class:`pokerroom.odds.showdown.Accumulator`'s exact arithmetic: Σ_k (deals where player 0 is among k
    best) / k, over the deals."""
    p_count, n = values.shape
    hero = values[0]
    if p_count == 2:
        other = values[1]
        wins = int(np.count_nonzero(hero > other))
        shared = [0, wins, n - wins - int(np.count_nonzero(other > hero))]
    else:
        others = values[1:]
        best = np.maximum.reduce(others, axis=0)
        # player 0 is among the best where no other is better; then 1 + the others level with it share
        among = np.add.reduce(others == hero, axis=0, dtype=np.intp)[hero >= best] + 1
        shared = np.bincount(among, minlength=p_count + 1).tolist()
    if p_count >= 7:  # (numpy sums eight or more terms pairwise: let it)
        return float((np.array(shared, dtype=np.int64)[None, :] / _divisors(p_count)).sum(axis=1)[0]
                     / float(n))
    # Σ_k shared[k] / k as numpy sums these few terms: one after the other (shared[0] is always 0)
    total = 0.0
    for k in range(1, p_count + 1):
        total += shared[k] / k
    return total / float(n)


@lru_cache(maxsize=64)
def _divisors(p_count: int) -> NDArray[np.float64]:
    """``k`` for the share of a k-way tie, 0..players (0 is never used: it divides 0)."""
    k = np.arange(p_count + 1, dtype=np.float64)
    k[0] = 1.0
    k.setflags(write=False)
    return k
