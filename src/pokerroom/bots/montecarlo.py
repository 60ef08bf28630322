"""One player's Monte Carlo equity in one vectorised pass: what ``normal`` bots and hints ask for.

Why not just :func:`pokerroom.odds.equity`: that tool answers for every player, validates its
input, tallies categories and standard errors, and evaluates one player at a time. A bot decision needs one
number, and it used to cost most of a hint's server CPU (measured: 0.6 ms per hold'em decision of the
0.85 ms hints added to an action; see docs/decisions/0019-hints-exact-and-cached.md). Here every player's
hand is valued in one call over all samples and players at once (hold'em: one gather of per-card keys, one
table lookup, only the flush rows re-evaluated; Omaha and 7 Poker: the board summed once per deal and the
known cards once per player, where the public batch evaluators regather and validate every hand's cards).

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
from pokerroom.hands import omaha_table as OT
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
    if mode == "omaha" and groups[0] + len(board_ids) == 5:
        return _share_of_first(_omaha_values(unseen, drawn, board_ids, known, groups))
    if mode == "sevenPoker":
        return _share_of_first(_korean_values(unseen, drawn, known, groups))
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


def _sampled_sums(unseen: NDArray[np.int64], drawn: NDArray[np.integer[Any]], groups: list[int],
                  per_card: NDArray[np.float64], known_sums: list[list[int]]) -> NDArray[np.int64]:
    """(rows of ``per_card``, players, deals): per player and deal, the sums of ``per_card``'s rows over the
    player's sampled cards (``groups[1:]``, after the board's ``groups[0]``) plus ``known_sums`` (a row per
    ``per_card`` row, a column per player: their known cards' sums). One gather and one matrix product, as
    in :func:`_holdem_values`; every row of ``per_card`` sums to an exact integer in a float64 (under
    2**53)."""
    nb = groups[0]
    known_f = np.array(known_sums, dtype=np.float64)[:, :, None]
    if drawn.shape[1] == nb:
        return np.broadcast_to(known_f.astype(np.int64), (len(known_sums), len(groups) - 1, drawn.shape[0]))
    parts = per_card.take(unseen, axis=1).take(drawn[:, nb:].T, axis=1)  # (rows, sampled, deals)
    sums = _members((0, *groups[1:])) @ parts
    sums += known_f
    out: NDArray[np.int64] = sums.astype(np.int64)
    return out


_OMAHA_HOLE_KEY: list[int] = hb._OHK.tolist()
_OMAHA_BOARD_KEY: list[int] = hb._OBK.tolist()
_KOREAN_BIT: list[int] = hb._CARD_BIT.tolist()
_BIT: list[int] = [1 << c for c in range(52)]


def _card_sums(cards: Sequence[int], *per_card: list[int]) -> list[int]:
    """For each table of ``per_card`` (a value per card id), its sum over ``cards`` (Python ints, exact)."""
    return [sum(map(table.__getitem__, cards)) for table in per_card]


def _omaha_board(board_ids: Sequence[int], runout: NDArray[np.int64]) -> tuple[NDArray[np.int64],
                                                                               NDArray[np.int64]]:
    """Each deal's board key and card mask: the known board's plus the runout's (its last axis: the runout
    cards, none on the river), whatever the deals' shape."""
    key, mask = _card_sums(board_ids, _OMAHA_BOARD_KEY, _BIT)
    return key + hb._OBK[runout].sum(axis=-1), mask + hb._ID_BIT[runout].sum(axis=-1)


def _omaha_best(bk: NDArray[np.int64], bm: NDArray[np.int64], hk: NDArray[np.int64], hm: NDArray[np.int64]
                ) -> NDArray[np.integer[Any]]:
    """Omaha high values from the sums of each deal's five board cards (``bk``, ``bm``: key and mask, shape
    ``(..., deals)``) and of every player's four hole cards (``hk``, ``hm``: ``(..., players, deals)``): the
    tables of :func:`~pokerroom.hands.batch.omaha_high_batch`, the rows that can hold a flush read a second
    time (found in the flat arrays: indexing by a tuple of axes cost this hot path a tenth more)."""
    tables = OT.NP
    players, deals = hk.shape[-2:]
    best = tables["table5"][tables["board5"][bk >> 12][..., None, :] + tables["hole"][hk >> 12]]
    rows = np.flatnonzero(hk & hb._OGATE[bk & 4095][..., None, :])
    if rows.size:
        deal = rows // (players * deals) * deals + rows % deals  # the row's deal, in the flat board sums
        sh = hb._OSHIFT[bk.ravel()[deal] & 4095]
        flush = tables["ftable"][tables["fboard"][(bm.ravel()[deal] >> sh) & 8191]
                                 + tables["fhole"][(hm.ravel()[rows] >> sh) & 8191]]
        best.ravel()[rows] = np.maximum(best.ravel()[rows], flush)
    values: NDArray[np.integer[Any]] = tables["values"][best]
    return values


#: Per card id, as floats: its Omaha hole key and its mask bit (see :func:`_omaha_values`).
_OMAHA_HOLE_F = np.stack([hb._OHK.astype(np.float64), np.ldexp(1.0, np.arange(52))])
#: Per card id, as floats: its Korean key, its Korean mask bit and its mask bit (see :func:`_korean_values`).
_KOREAN_F = np.stack([hb.CARD_KEY.astype(np.float64), hb._CARD_BIT.astype(np.float64),
                      np.ldexp(1.0, np.arange(52))])


def _omaha_values(unseen: NDArray[np.int64], drawn: NDArray[np.integer[Any]], board_ids: list[int],
                  known: list[list[int]], groups: list[int]) -> NDArray[np.integer[Any]]:
    """(players, deals) Omaha high values of the completed five-card boards: what
    :func:`~pokerroom.hands.batch.omaha_high_batch` gives for every player's four cards and the deal's board,
    with each deal's board key and mask summed once for all its players (that function sums the board again
    per row) and the players' hole sums from :func:`_sampled_sums`; no validation (these are real deals)."""
    OT.load()
    nb = groups[0]
    bk, bm = _omaha_board(board_ids, unseen[drawn[:, :nb]])
    known_sums: list[list[int]] = [[], []]
    for k in known:  # (one loop over the cards: this is a bot decision's hot path)
        key = bit = 0
        for c in k:
            key += _OMAHA_HOLE_KEY[c]
            bit += 1 << c
        known_sums[0].append(key)
        known_sums[1].append(bit)
    hk, hm = _sampled_sums(unseen, drawn, groups, _OMAHA_HOLE_F, known_sums)
    return _omaha_best(bk, bm, hk, hm)


def _korean_values(unseen: NDArray[np.int64], drawn: NDArray[np.integer[Any]], known: list[list[int]],
                   groups: list[int]) -> NDArray[np.int64]:
    """(players, deals) Korean keys of every player's seven cards: what
    :func:`~pokerroom.hands.batch.korean_high_batch` gives, from three sums per hand (the Korean key, the
    Korean mask, the card mask whose suit's 13 bits are a flush's ranks) instead of a gather of every card
    of every hand; no validation (these are real deals)."""
    known_sums: list[list[int]] = [[], [], []]
    for k in known:  # (one loop over the cards: this is a bot decision's hot path)
        key = kbit = bit = 0
        for c in k:
            key += _KEY[c]
            kbit += _KOREAN_BIT[c]
            bit += 1 << c
        known_sums[0].append(key)
        known_sums[1].append(kbit)
        known_sums[2].append(bit)
    keys, kmask, idmask = _sampled_sums(unseen, drawn, groups, _KOREAN_F, known_sums)
    return _korean_keys(keys, kmask, idmask)


def _korean_keys(keys: NDArray[np.int64], kmask: NDArray[np.int64], idmask: NDArray[np.int64]
                 ) -> NDArray[np.int64]:
    """Korean keys of seven-card hands from their three sums (:data:`_KOREAN_F`'s rows), any shape:
    :func:`~pokerroom.hands.batch.korean_high_batch`'s tables, a flush's ranks read from the card mask's
    suit."""
    base, shift, suited = hb._korean(7)
    index = hb._index(7)[keys >> 12]
    out: NDArray[np.int64] = base[index] | (hb._TOP_SUIT[(kmask >> shift[index]) & 15] & suited[index])
    strength = hb._FLUSH_SHIFT[keys & 4095]
    rows = np.flatnonzero(strength >= 0)
    if rows.size:
        st = strength.ravel()[rows]
        suit = 3 - st.astype(np.int64)
        out.ravel()[rows] = hb._flush13()[1][(idmask.ravel()[rows] >> (13 * suit)) & 8191] | st
    return out


def omaha_street(holes: Sequence[Sequence[int]], board_ids: Sequence[int], n_opp: int, deals: Deals,
                 samples: int) -> list[float]:
    """For each of several Omaha holes (four card ids each) on one board of 3-5 cards, against ``n_opp``
    random opponents: ``hero_equity([hole] + [[]] * n_opp, board, "omaha", rng, samples, deals=deals)``,
    bit for bit, in one pass for all of them.

    Why: every live seat of an Omaha street asks for this estimate in turn (its hint's Monte Carlo), and
    most of each one is the fixed cost of its numpy calls, which one pass shares (the hint's street
    prefetch, :mod:`pokerroom.bots.hint_prefetch`). Each hole deals from its own unseen cards through the same
    ``deals`` (every hole on one board has as many unseen cards), and is valued with the tables and
    arithmetic of :func:`_omaha_values`, so its number is the one of its own call."""
    OT.load()
    nb = 5 - len(board_ids)
    unseen = np.array([sorted(_ALL.difference([*h, *board_ids])) for h in holes], dtype=np.int64)
    drawn = deals(unseen.shape[1], nb + 4 * n_opp, samples)
    cards = unseen[:, drawn]  # (holes, deals, taken)
    bk, bm = _omaha_board(board_ids, cards[:, :, :nb])
    theirs = cards[:, :, nb:].reshape(len(holes), samples, n_opp, 4)
    hk = np.empty((len(holes), n_opp + 1, samples), dtype=np.int64)
    hm = np.empty_like(hk)
    mine = np.array([_card_sums(h, _OMAHA_HOLE_KEY, _BIT) for h in holes], dtype=np.int64)  # (holes, 2)
    hk[:, 0], hm[:, 0] = mine[:, :1], mine[:, 1:]
    hk[:, 1:] = hb._OHK[theirs].sum(axis=3).transpose(0, 2, 1)
    hm[:, 1:] = hb._ID_BIT[theirs].sum(axis=3).transpose(0, 2, 1)
    return [_share_of_first(v) for v in _omaha_best(bk, bm, hk, hm)]


def seven_street(spots: Sequence[tuple[Sequence[Sequence[int]], Sequence[int]]], deals: Deals,
                 samples: int) -> list[float]:
    """For each of several 7 Poker spots (every player's known card ids, mine first; the dead card ids),
    ``hero_equity(players, (), "sevenPoker", rng, samples, dead=dead, deals=deals)``, bit for bit, in one
    pass. The spots must have the same shape (each player's number of known cards, the number of unseen
    cards), as the live seats of one street do; else ``ValueError``.

    Why: as :func:`omaha_street`, for the seats of a 7 Poker street from the fifth card on (the hint's street
    prefetch); each spot deals from its own unseen cards through the same ``deals`` and is valued with the
    tables and arithmetic of :func:`_korean_values`."""
    unseen = np.array([sorted(_ALL.difference([*(c for k in known for c in k), *dead]))
                       for known, dead in spots], dtype=np.int64)
    groups = [0, *(7 - len(k) for k in spots[0][0])]
    if any([0, *(7 - len(k) for k in known)] != groups for known, _ in spots) or unseen.ndim != 2:
        raise ValueError("7 Poker spots of one street have one shape")
    drawn = deals(unseen.shape[1], sum(groups), samples)
    known_sums = np.zeros((3, len(spots), len(groups) - 1, 1), dtype=np.float64)
    for s, (known, _) in enumerate(spots):
        for p, k in enumerate(known):
            known_sums[:, s, p, 0] = _card_sums(k, _KEY, _KOREAN_BIT, _BIT)
    parts = _KOREAN_F[:, unseen][:, :, drawn.T]  # (3, spots, sampled, deals)
    sums = _members(tuple(groups)) @ parts  # (3, spots, players, deals)
    sums += known_sums
    keys, kmask, idmask = sums.astype(np.int64)
    return [_share_of_first(v) for v in _korean_keys(keys, kmask, idmask)]


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
