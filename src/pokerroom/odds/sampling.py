"""Monte Carlo deals: uniform completions drawn with numpy, bit for bit the stream numpy's own calls give.

Why it is this intricate: bots and hints draw a few hundred completions per decision, many times per
action, so the fixed cost of numpy calls dominates; the samplers below replace several ``integers`` calls
with one raw draw each, and check once per process (:func:`_lemire_agrees`, :func:`_draws16_agree`) that
they still deal exactly what numpy would, falling back to numpy's calls when they do not. Same seed, same
cards: recorded bot decisions (``tests/bots/data/mc_golden.json``) depend on it.

Randomness is reproducible from a seed through :class:`pokerroom.rng.DealRng` (:func:`numpy_rng`); the
:mod:`random` module is never used.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np
from numpy.typing import NDArray

from pokerroom.rng import DealRng


def numpy_rng(seed: int | str | bytes | None) -> np.random.Generator:
    """A numpy generator derived from a DealRng, so seeds mean the same thing across the project."""
    deal = DealRng.from_seed(seed) if not isinstance(seed, int) else DealRng.from_seed(seed % (1 << 256))
    entropy = [deal.randbelow(1 << 32) for _ in range(8)]
    return np.random.Generator(np.random.PCG64(np.random.SeedSequence(entropy)))


#: Up to this many swap targets are drawn in one call with an array of bounds (its fixed cost is what
#: bots' few hundred samples pay); beyond it numpy's per-number cost of array bounds makes per-column calls
#: cheaper. Both give the same numbers.
_ONE_CALL_DRAWS = 20_000


def sample_completions(rng: np.random.Generator, unseen: int, take: int, n: int
                       ) -> NDArray[np.integer[Any]]:
    """``n`` uniform draws of ``take`` distinct indices below ``unseen`` (vectorised partial Fisher–Yates).

    Small draws come back as int16 (cheaper to make and to index with); use them as indices only.
    """
    if take == 0:
        return np.zeros((n, 0), dtype=np.int16)
    if take <= 6 and unseen >= 30:
        # Rejection is cheapest for few cards from a big deck: about 75% of rows are duplicate-free.
        if type(rng.bit_generator) is np.random.PCG64 and _draws16_agree():
            return _rejection_rows(rng, unseen, take, n)
        return _integers_rejection_rows(rng, unseen, take, n)
    # Partial Fisher–Yates on every row at once. All the swap targets come from one call: numpy draws an
    # array of bounds element by element, so this is the very stream of one ``integers(0, unseen - i,
    # size=n)`` call per column (the results are identical, the draws 3x cheaper). Each column's swap is
    # then one gather and one scatter on one flat int16 deck; position i is never touched after column i,
    # so the picks are read off the deck once at the end.
    if n * take <= _ONE_CALL_DRAWS:
        plan = _fy_plan(unseen, take, n)
        j = _bounded_draws(rng, plan.bounds, plan.wide)
    else:  # big batches (the odds tool): a scalar bound per call draws faster per number
        plan = _fy_plan(unseen, take, n, bounds=False)
        j = np.stack([rng.integers(0, unseen - i, size=n, dtype=np.int64) for i in range(take)])
    j += plan.at
    # (take, 2n): column i's swap as (targets, own positions) and the same positions the other way round
    there = np.concatenate([j, plan.at], axis=1)
    back = np.concatenate([plan.at, j], axis=1)
    deck = plan.deck.copy()
    for i in range(take):
        # (an index assignment, not ``put``: numpy's ``put`` copies element by element through memmove)
        deck[there[i]] = deck.take(back[i])
    out: NDArray[np.int16] = deck.take(plan.at)
    return out.T


@dataclass(frozen=True)
class _FYPlan:
    """The constant arrays of one sampling shape (read-only; shared between calls).

    ``at[i, r]``: row r's position i in the flat deck; ``bounds``: the draw bounds (``unseen - i`` per
    column, for :func:`_bounded_draws`), ``wide`` the same flat as uint64; ``deck``: the identity deck of
    every row, flat."""

    at: NDArray[np.int64]
    bounds: NDArray[np.int64]
    wide: NDArray[np.uint64]
    deck: NDArray[np.int16]


@lru_cache(maxsize=512)
def _fy_plan(unseen: int, take: int, n: int, bounds: bool = True) -> _FYPlan:
    """Why cached: a bot or a hint samples the same few shapes (deck size, cards, samples) over and over,
    and building these arrays cost as much as the swaps themselves."""
    steps = np.arange(take, dtype=np.int64)
    at = np.arange(0, n * unseen, unseen, dtype=np.int64) + steps[:, None]
    bnd = (np.broadcast_to((unseen - steps)[:, None], (take, n)) if bounds
           else np.zeros((0, 0), dtype=np.int64))
    wide = bnd.astype(np.uint64).ravel()
    deck = np.tile(np.arange(unseen, dtype=np.int16), n)
    for a in (at, wide, deck):
        a.setflags(write=False)
    return _FYPlan(at, bnd, wide, deck)


def _bounded_draws(rng: np.random.Generator, bounds: NDArray[np.int64],
                   wide: NDArray[np.uint64] | None = None) -> NDArray[np.int64]:
    """``rng.integers(0, bounds, dtype=np.int64)`` for bounds below 2**32, the same numbers and the same
    generator state after, about twice as fast for a few thousand numbers.

    How: for such bounds numpy takes one 32-bit output per number (PCG64 hands out each 64-bit output as
    its low half, then its high half, keeping a spare half in its state) and maps it by Lemire's product
    ``(u * bound) >> 32``, drawing again only when the product's low half is below the bound's threshold
    (a chance of bound / 2**32). Here the 64-bit outputs come in one ``random_raw`` call, the products are
    vectorised, the spare half is put back into the state, and any row that might need a redraw falls back
    to numpy. :func:`_lemire_agrees` checks the whole shortcut against numpy once per process and turns it
    off if this numpy or bit generator draws differently. ``wide``: ``bounds`` flat as uint64 (cached by
    the caller).
    """
    bg = rng.bit_generator
    if not (type(bg) is np.random.PCG64 and _lemire_agrees()):
        return rng.integers(0, bounds, dtype=np.int64)
    return _lemire(rng, bounds, wide)


_LOW32 = np.uint64(0xFFFFFFFF)
_SHIFT32 = np.uint64(32)


def _lemire(rng: np.random.Generator, bounds: NDArray[np.int64],
            wide: NDArray[np.uint64] | None = None) -> NDArray[np.int64]:
    bg = rng.bit_generator
    state = bg.state
    k = bounds.size
    spare = state["has_uint32"]
    raw = bg.random_raw((k - spare + 1) // 2)
    halves = raw.view(np.uint32) if sys.byteorder == "little" else raw.byteswap().view(np.uint32)
    if spare:
        halves = np.concatenate([np.array([state["uinteger"]], dtype=np.uint32), halves])
    if wide is None:
        wide = bounds.astype(np.uint64).ravel()
    product = halves[:k].astype(np.uint64) * wide
    if bool(((product & _LOW32) < wide).any()):
        bg.state = state  # a redraw may be due somewhere: let numpy draw, from the very same state
        return rng.integers(0, bounds, dtype=np.int64)
    if spare or halves.size > k:  # (no spare half before nor after: random_raw left the state right)
        after = dict(bg.state)
        after["has_uint32"], after["uinteger"] = (1, int(halves[k])) if halves.size > k else (0, 0)
        bg.state = after
    out: NDArray[np.int64] = (product >> _SHIFT32).astype(np.int64).reshape(bounds.shape)
    return out


@lru_cache(maxsize=1)
def _lemire_agrees() -> bool:
    """Whether :func:`_lemire` draws what numpy draws (and leaves the same state), on a few fixed cases."""
    for seed, take, n, spare in ((1, 15, 200, False), (2, 7, 33, True), (3, 1, 1, True), (4, 20, 301, False)):
        a, b = (np.random.Generator(np.random.PCG64(seed)) for _ in range(2))
        if spare:
            a.integers(0, 10, dtype=np.int64)
            b.integers(0, 10, dtype=np.int64)
        bounds = np.broadcast_to((50 - np.arange(take, dtype=np.int64))[:, None], (take, n))
        if not np.array_equal(a.integers(0, bounds, dtype=np.int64), _lemire(b, bounds)):
            return False
        if a.integers(0, 1000, size=3).tolist() != b.integers(0, 1000, size=3).tolist():
            return False
        if a.random() != b.random():
            return False
    return True


def _has_duplicates(rows: NDArray[np.int16]) -> NDArray[np.bool_]:
    """Per row, whether two of its cards (indices below 64) are the same.

    From four cards on, one bit per card: a row's bits add up to their OR exactly when no two are equal
    (fewer array calls than comparing every pair: six pairs are twelve calls)."""
    k = rows.shape[1]
    if k >= 4:
        bits = _BIT.take(rows.T)
        out: NDArray[np.bool_] = np.add.reduce(bits, axis=0) != np.bitwise_or.reduce(bits, axis=0)
        return out
    bad = np.zeros(rows.shape[0], dtype=bool)
    for a in range(k):
        for b in range(a + 1, k):
            bad |= rows[:, a] == rows[:, b]
    return bad


_BIT = np.left_shift(np.int64(1), np.arange(64, dtype=np.int64))
_BIT.setflags(write=False)


class _Halves:
    """The 16-bit numbers ``rng.integers(0, bound, size, dtype=np.int16)`` draws, from PCG64's raw outputs.

    Why: the rejection sampler draws its rows, then again the rows with a repeated card, four or five times
    per call; each ``integers`` call costs more than the numbers it makes. Here one ``random_raw`` call per
    round feeds them all and the generator's state is set once at the end (:meth:`close`).

    How numpy draws them (``random_bounded_uint16_fill``): each call starts a fresh 32-bit buffer, takes
    32-bit outputs (PCG64 hands out a 64-bit output as its low half, then its high half, keeping the spare
    half in its state), uses each as its low 16 bits, then its high 16 bits, and maps a half ``u`` by
    Lemire's product ``u * bound``: the number is ``product >> 16``, unless the product's low 16 bits are
    below ``65536 % bound``, when the half is dropped and the next one is used. A call's last half-used
    32-bit output is dropped with its buffer. :func:`_draws16_agree` checks this against numpy once.
    """

    def __init__(self, rng: np.random.Generator, bound: int) -> None:
        self.bg = rng.bit_generator
        state = self.bg.state
        self.start = state
        spare = [state["uinteger"]] if state["has_uint32"] else []
        self.words: NDArray[np.uint32] = np.array(spare, dtype=np.uint32)
        self.pos = 0  # 32-bit words used
        self.fetched = False
        self.bound = np.uint32(bound)
        self.threshold = 65536 % bound

    def _fetch(self, words: int) -> None:
        """At least ``words`` more unused 32-bit words (whole 64-bit outputs: one word may be left over)."""
        raw = self.bg.random_raw((words + 1) // 2)
        self.words = np.concatenate([self.words[self.pos :], raw.view(np.uint32)])
        self.pos = 0
        self.fetched = True

    def draw(self, count: int) -> NDArray[np.int16]:
        """``count`` numbers below the bound, as one ``integers`` call of that size draws them."""
        short = (count + 1) // 2 - (self.words.size - self.pos)
        if short > 0:
            self._fetch(short)
        product = self.words[self.pos :].view(np.uint16)[:count] * self.bound
        if self.threshold and bool(((product & _LOW16) < self.threshold).any()):
            return self._draw_dropping(count)
        self.pos += (count + 1) // 2
        out: NDArray[np.int16] = (product >> _SHIFT16).astype(np.int16)
        return out

    def _draw_dropping(self, count: int) -> NDArray[np.int16]:
        """:meth:`draw` when some half is dropped: the numbers are the first ``count`` kept halves."""
        while True:
            product = self.words[self.pos :].view(np.uint16) * self.bound
            kept = np.flatnonzero((product & _LOW16) >= self.threshold)
            if kept.size >= count:
                break
            self._fetch((count - kept.size + 1) // 2)
        used = int(kept[count - 1]) + 1
        self.pos += (used + 1) // 2
        out: NDArray[np.int16] = (product[kept[:count]] >> _SHIFT16).astype(np.int16)
        return out

    def close(self) -> None:
        """Leave the generator as numpy's calls would have: past the used outputs, spare half included."""
        left = self.words.size - self.pos  # 0 or 1: outputs are fetched only as they are needed
        if not self.fetched:
            if left != (1 if self.start["has_uint32"] else 0):  # the spare half was used
                self.bg.state = {**self.start, "has_uint32": 0}
            return
        # the last output's high half stays in the state, used or not (as numpy leaves it)
        self.bg.state = {**self.bg.state, "has_uint32": left, "uinteger": int(self.words[-1])}


_LOW16 = np.uint32(0xFFFF)
_SHIFT16 = np.uint32(16)


def _rejection_rows(rng: np.random.Generator, unseen: int, take: int, n: int) -> NDArray[np.int16]:
    """The rejection sampler's rows and generator state, exactly as its per-round ``integers`` calls give
    them (:class:`_Halves`): all rows, then the rows with a repeated card again, until none has one."""
    halves = _Halves(rng, unseen)
    out = halves.draw(n * take).reshape(n, take)
    idx = np.flatnonzero(_has_duplicates(out))
    while idx.size:
        again = halves.draw(idx.size * take).reshape(idx.size, take)
        out[idx] = again
        idx = idx[_has_duplicates(again)]
    halves.close()
    return out


def _integers_rejection_rows(rng: np.random.Generator, unseen: int, take: int, n: int) -> np.ndarray:
    """Rejection sampling through numpy's own ``integers``, one call per round: the fallback of
    :func:`_rejection_rows` (another generator or numpy) and what it is checked against."""
    out16 = rng.integers(0, unseen, size=(n, take), dtype=np.int16)
    bad = _has_duplicates(out16)
    while bad.any():
        idx = np.nonzero(bad)[0]
        out16[idx] = rng.integers(0, unseen, size=(idx.size, take), dtype=np.int16)
        bad[idx] = _has_duplicates(out16[idx])
    return out16


@lru_cache(maxsize=1)
def _draws16_agree() -> bool:
    """Whether :func:`_rejection_rows` deals what the ``integers`` loop deals and leaves the same state, on
    a few fixed cases (dropped halves included: thousands of numbers drop some for most bounds)."""
    if sys.byteorder != "little":
        return False
    for seed, unseen, take, n, spare in ((1, 45, 6, 900, False), (2, 30, 5, 700, True), (3, 52, 2, 5, True),
                                         (4, 47, 4, 1, False), (5, 33, 3, 1500, False)):
        a, b = (np.random.Generator(np.random.PCG64(seed)) for _ in range(2))
        if spare:
            a.integers(0, 10, dtype=np.int64)
            b.integers(0, 10, dtype=np.int64)
        want = _integers_rejection_rows(b, unseen, take, n)
        if not np.array_equal(_rejection_rows(a, unseen, take, n), want):
            return False
        if a.bit_generator.state != b.bit_generator.state or a.random() != b.random():
            return False
        if a.integers(0, 1000, size=3).tolist() != b.integers(0, 1000, size=3).tolist():
            return False
    return True
