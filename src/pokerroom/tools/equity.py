"""Win/tie equity for hold'em, Omaha, 7 Poker and 7 Poker hi-lo from the cards one can see.

Why this shape:
- Every player is described only by the cards *known* to the asker (own hole cards, an opponent's open
  cards, or nothing at all); the rest of each hand and the unseen board are filled from the unseen deck. One
  model therefore covers "AA vs KK", "AA vs a random hand" and 7 Poker's "my seven vs their open cards".
- When the number of equally likely completions is small (turn, river, small fields) they are enumerated
  exactly; otherwise a batch Monte Carlo deals ``samples`` completions with numpy and reports the standard
  error of each player's equity, so a reader knows how far to trust the digits.
- Randomness is reproducible from ``seed`` through :class:`pokerroom.rng.DealRng` (which seeds numpy's
  PCG64); the :mod:`random` module is never used. Without a seed the stream is secret-seeded.

Equity of a player = P(win alone) + Σ P(tie with k others) / (k + 1); ``win`` and ``tie`` are reported too.

7 Poker hi-lo (``sevenHiLo``, §5.4.4, §6.3, §6.6) is scored **cards speak**: the real game ends with a
simultaneous high/low/swing declaration that no odds tool can know, so each deal is split as if everyone
contested both halves. The high half goes to the best Korean high (§6.2), the low half to the best low
(§6.3, ``low_rule`` and ``qualifier``); when nobody has a qualifying low the high takes the whole pot.
Shares are fractions of the pot, ½ and ½ (in chips the high gets ``ceil(pot/2)``, the low ``floor(pot/2)``;
the odd chip is ignored here). A tied half would be split, though two disjoint 7-card hands never tie under
the suit rankings. Equity is then the expected pot share; the result also carries per player the scoop
rate (whole pot), the high-win and low-win rates and how often the player has no qualifying low. Lows have
no batch evaluator: each distinct hand in a batch goes through :func:`pokerroom.hands.korean_low` once, so
this mode defaults to fewer Monte Carlo samples (:data:`HILO_DEFAULT_SAMPLES`) and a lower exact limit.

Omaha Hi-Lo (``mode="omaha"``, ``omaha_hi_lo=True``; the room option ``omahaHiLo``) is the same cards-speak
split with the eight-or-better low of :func:`pokerroom.hands.omaha_low_ids` (two hole + three board cards);
there the cards do speak at the table, and equal lows are common, so a tied half is shared (quartering).
"""

from __future__ import annotations

import itertools
import math
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Literal

import numpy as np
from numpy.typing import NDArray

from pokerroom.cards import Card, standard_deck
from pokerroom.hands import batch as hb
from pokerroom.hands import korean_low, omaha_low_ids
from pokerroom.hands.korean import LowQualifier, LowRule
from pokerroom.rng import DealRng

EquityMode = Literal["holdem", "omaha", "sevenPoker", "sevenHiLo"]
MODES: tuple[EquityMode, ...] = ("holdem", "omaha", "sevenPoker", "sevenHiLo")
#: Modes ranked with the Korean high (§6.2).
KOREAN_MODES = ("sevenPoker", "sevenHiLo")
#: Cards each player holds at showdown, and board cards, per mode.
HOLE_COUNT: dict[str, int] = {"holdem": 2, "omaha": 4, "sevenPoker": 7, "sevenHiLo": 7}
BOARD_COUNT: dict[str, int] = {"holdem": 5, "omaha": 5, "sevenPoker": 0, "sevenHiLo": 0}
LOW_RULES: tuple[LowRule, ...] = ("korean", "aceToFive")
QUALIFIERS: tuple[LowQualifier, ...] = ("none", "eight")

DEFAULT_SAMPLES = 100_000
#: ``sevenHiLo`` evaluates lows one distinct hand at a time (no batch path), hence fewer samples by default
#: (standard error of a pot share at most 0.35 percentage points) and a lower threshold for exact enumeration.
HILO_DEFAULT_SAMPLES = 20_000
DEFAULT_EXACT_LIMIT = 300_000
HILO_EXACT_LIMIT = 100_000
#: Exact enumeration materialises every completion; beyond this many it would need gigabytes.
MAX_EXACT = 5_000_000
DEFAULT_BATCH = 50_000

#: The showdown tally keeps nine categories in both rankings: Korean keys' 13 categories (§6.2) fold
#: 백 스트레이트/마운틴 into 스트레이트 and 백 스트레이트 플러시/로열 into 스트레이트 플러시.
_KOREAN_TALLY = np.array([0, 1, 2, 3, 4, 4, 4, 5, 6, 7, 8, 8, 8], dtype=np.int64)
HIGH_CATEGORY_NAMES: tuple[str, ...] = hb.INTERNATIONAL_CATEGORY_NAMES
KOREAN_CATEGORY_NAMES: tuple[str, ...] = tuple(
    hb.KOREAN_CATEGORY_NAMES[i] for i in (0, 1, 2, 3, 4, 7, 8, 9, 10)
)

Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class EquityResult:
    """Per-player win, tie and equity fractions (0..1), with the method that produced them."""

    mode: str
    win: tuple[float, ...]
    tie: tuple[float, ...]
    equity: tuple[float, ...]
    stderr: tuple[float, ...]  # 0 for exact enumeration
    samples: int  # deals evaluated (all of them when exact)
    exact: bool
    seconds: float
    #: per player, the frequency of each hand category at showdown (index: :func:`category_names`)
    categories: tuple[tuple[float, ...], ...] = field(default_factory=tuple)
    # sevenHiLo and Omaha Hi-Lo only (empty otherwise); there ``win`` is the scoop rate and ``tie`` the rate
    # of taking part of the pot, and ``equity`` the expected pot share under the cards-speak split (module
    # docstring).
    scoop: tuple[float, ...] = ()  # takes the whole pot (both halves, or the high when nobody has a low)
    high_win: tuple[float, ...] = ()  # holds the best high (wins the high half, or all of it)
    low_win: tuple[float, ...] = ()  # holds the best qualifying low (wins the low half)
    no_low: tuple[float, ...] = ()  # has no qualifying low
    no_low_any: float = 0.0  # nobody has a qualifying low: the high takes the whole pot
    low_rule: str = ""
    qualifier: str = ""

    @property
    def per_second(self) -> float:
        return self.samples / self.seconds if self.seconds > 0 else float("inf")


def numpy_rng(seed: int | str | bytes | None) -> np.random.Generator:
    """A numpy generator derived from a DealRng, so seeds mean the same thing across the project."""
    deal = DealRng.from_seed(seed) if not isinstance(seed, int) else DealRng.from_seed(seed % (1 << 256))
    entropy = [deal.randbelow(1 << 32) for _ in range(8)]
    return np.random.Generator(np.random.PCG64(np.random.SeedSequence(entropy)))


def _ids(cards: Sequence[Card]) -> list[int]:
    for card in cards:
        if not 0 <= card.id < 52 or card.rank < 2:
            raise ValueError(f"equity needs standard-deck cards, got {card}")
    return [card.id for card in cards]


def count_completions(unseen: int, groups: Sequence[int]) -> int:
    """How many equally likely ways to fill ``groups`` (sizes) from ``unseen`` cards, order-free per group."""
    total, left = 1, unseen
    for g in groups:
        if g > left:
            return 0
        total *= math.comb(left, g)
        left -= g
    return total


def enumerate_completions(unseen: int, groups: Sequence[int]) -> NDArray[np.int64]:
    """Every completion as rows of indices into the unseen list: group 1's cards, then group 2's, ..."""
    rows: NDArray[np.int64] = np.zeros((1, 0), dtype=np.int64)
    for g in groups:
        if g == 0:
            continue
        used = rows.shape[1]
        comb = combinations_array(unseen - used, g).astype(np.int64)
        n_rows = rows.shape[0]
        mask = np.ones((n_rows, unseen), dtype=bool)
        if used:
            mask[np.arange(n_rows)[:, None], rows] = False
        remaining = np.nonzero(mask)[1].reshape(n_rows, unseen - used)
        new = remaining[:, comb].reshape(n_rows * comb.shape[0], g)
        rows = np.concatenate([np.repeat(rows, comb.shape[0], axis=0), new], axis=1)
    return rows


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


class _HoldemParts:
    """Hold'em values straight from completion rows, adding per-card parts column by column.

    Known cards contribute constants, so a heads-up "AA vs KK" costs five gathers for the board plus one
    table lookup per player. Each card's :data:`pokerroom.hands.batch.CARD_KEY` carries its rank key and
    its suit counter, so one gather and one add per column carry both; only the few rows that hold a flush
    are re-evaluated from their cards.
    """

    def __init__(self, unseen: NDArray[np.int64], board: NDArray[np.int64], holes: list[NDArray[np.int64]],
                 groups: Sequence[int]) -> None:
        self.unseen = unseen
        self.packed = hb.CARD_KEY[unseen]
        self.board = board
        self.holes = holes
        self.groups = list(groups)
        self.board_packed = int(hb.CARD_KEY[board].sum())
        self.hole_packed = [int(hb.CARD_KEY[h].sum()) for h in holes]

    def _sum(self, rows: NDArray[np.integer[Any]], lo: int, hi: int, base: int) -> NDArray[np.int64]:
        total = np.full(rows.shape[0], base, dtype=np.int64)
        for c in range(lo, hi):
            total += self.packed[rows[:, c]]
        return total

    def values(self, rows: NDArray[np.integer[Any]]) -> NDArray[np.int64]:
        n = rows.shape[0]
        nb = self.groups[0]
        board = self._sum(rows, 0, nb, self.board_packed)
        out = np.empty((n, len(self.holes)), dtype=np.int64)
        offset = nb
        for p, _hole in enumerate(self.holes):
            g = self.groups[p + 1]
            if g:
                total = board + self._sum(rows, offset, offset + g, self.hole_packed[p])
            else:
                total = board + self.hole_packed[p]
            value, idx = hb.international_high_sums(total)
            if idx.size:
                cards = np.concatenate([
                    np.broadcast_to(self.board, (idx.size, self.board.size)),
                    self.unseen[rows[idx, :nb]],
                    np.broadcast_to(self.holes[p], (idx.size, self.holes[p].size)),
                    self.unseen[rows[idx, offset : offset + g]],
                ], axis=1)
                value[idx] = hb.international_high_batch(cards)
            out[:, p] = value
            offset += g
        return out


def evaluate_deals(mode: str, holes: NDArray[np.int64], board: NDArray[np.int64]) -> NDArray[np.int64]:
    """Showdown values, shape (n, players), from holes (n, players, hole) and board (n, board) card ids."""
    n, players, _ = holes.shape
    values = np.empty((n, players), dtype=np.int64)
    if mode == "holdem":
        for p in range(players):
            values[:, p] = hb.international_high_batch(np.concatenate([holes[:, p, :], board], axis=1))
    elif mode == "omaha":
        for p in range(players):
            values[:, p] = hb.omaha_high_batch(holes[:, p, :], board)
    elif mode in KOREAN_MODES:
        for p in range(players):
            values[:, p] = hb.korean_high_batch(holes[:, p, :])
    else:
        raise ValueError(f"unknown equity mode {mode!r}")
    return values


class _Accumulator:
    """Integer tallies per player: wins by the number of players sharing the best hand, and categories.

    Equity, its standard error and win/tie fractions are all functions of ``shared[p, k]`` (rows where p is
    among k best): equity = Σ_k shared[p,k] / k, E[share²] = Σ_k shared[p,k] / k².
    """

    def __init__(self, players: int, korean: bool, categories: bool = True) -> None:
        self.track_categories = categories
        self.n = 0
        self.players = players
        self.shared = np.zeros((players, players + 1), dtype=np.int64)
        self.cat = np.zeros((players, 9), dtype=np.int64)
        self.korean = korean

    def add(self, values: NDArray[np.int64]) -> None:
        self.n += values.shape[0]
        if self.players == 2:
            a, b = values[:, 0], values[:, 1]
            a_wins = int(np.count_nonzero(a > b))
            b_wins = int(np.count_nonzero(b > a))
            ties = values.shape[0] - a_wins - b_wins
            self.shared[0, 1] += a_wins
            self.shared[1, 1] += b_wins
            self.shared[:, 2] += ties
        else:
            best = values.max(axis=1, keepdims=True)
            winners = values == best
            count = winners.sum(axis=1)
            for p in range(self.players):
                self.shared[p] += np.bincount(count[winners[:, p]], minlength=self.players + 1)
        if not self.track_categories:
            return
        cats = _KOREAN_TALLY[hb.korean_category(values)] if self.korean else hb.international_category(values)
        for p in range(self.players):
            self.cat[p] += np.bincount(cats[:, p], minlength=9)[:9]

    def fractions(self) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64],
                                 NDArray[np.float64]]:
        """(win, tie, equity, E[share²]) per player."""
        k = np.arange(self.players + 1, dtype=np.float64)
        k[0] = 1.0
        n = float(self.n)
        win = self.shared[:, 1] / n
        tie = self.shared[:, 2:].sum(axis=1) / n
        eq = (self.shared / k).sum(axis=1) / n
        eq2 = (self.shared / (k * k)).sum(axis=1) / n
        return win, tie, eq, eq2


_DECK: tuple[Card, ...] = tuple(standard_deck())
#: distinct-hand cache of the low evaluator is dropped beyond this many entries (memory bound)
_LOW_CACHE_MAX = 200_000


class _HiLo:
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


def equity(
    players: Sequence[Sequence[Card]],
    board: Sequence[Card] = (),
    *,
    mode: EquityMode = "holdem",
    dead: Sequence[Card] = (),
    samples: int | None = None,
    seed: int | str | bytes | None = None,
    exact: bool | None = None,
    exact_limit: int | None = None,
    batch: int = DEFAULT_BATCH,
    rng: np.random.Generator | None = None,
    progress: Progress | None = None,
    categories: bool = True,
    low_rule: LowRule = "korean",
    qualifier: LowQualifier = "none",
    omaha_hi_lo: bool = False,
) -> EquityResult:
    """Equity of each player from their known cards (the rest unseen) and a partial board.

    ``exact=None`` enumerates when the number of completions is at most ``exact_limit``, else samples;
    ``True``/``False`` force one method. ``dead`` are cards known to be out of play (folded open cards, a
    7 Poker discard) that are neither in a hand nor in the unseen deck. ``categories=False`` skips the
    showdown hand-category tally (bots and benchmarks do not need it; the result then has all zeros).

    ``samples`` defaults to :data:`DEFAULT_SAMPLES` (:data:`HILO_DEFAULT_SAMPLES` for ``sevenHiLo``) and
    ``exact_limit`` to :data:`DEFAULT_EXACT_LIMIT` (:data:`HILO_EXACT_LIMIT`). ``low_rule`` (§6.3
    ``hiLoLow``) and ``qualifier`` (``hiLoQualifier``) only matter for ``sevenHiLo``; ``omaha_hi_lo``
    (``omahaHiLo``) scores ``omaha`` as Omaha Hi-Lo, eight or better, and is ignored elsewhere.
    """
    if mode not in MODES:
        raise ValueError(f"mode must be one of {MODES}")
    if low_rule not in LOW_RULES or qualifier not in QUALIFIERS:
        raise ValueError(f"low rule must be one of {LOW_RULES} and qualifier one of {QUALIFIERS}")
    omaha_hilo = mode == "omaha" and omaha_hi_lo
    hilo_mode = mode == "sevenHiLo" or omaha_hilo
    if omaha_hilo:
        low_rule, qualifier = "aceToFive", "eight"
    if samples is None:
        samples = HILO_DEFAULT_SAMPLES if hilo_mode else DEFAULT_SAMPLES
    if exact_limit is None:
        exact_limit = HILO_EXACT_LIMIT if hilo_mode else DEFAULT_EXACT_LIMIT
    if len(players) < 2:
        raise ValueError("equity needs at least two players")
    hole_n, board_n = HOLE_COUNT[mode], BOARD_COUNT[mode]
    known = [_ids(p) for p in players]
    board_ids = _ids(board)
    dead_ids = _ids(dead)
    if any(len(k) > hole_n for k in known):
        raise ValueError(f"{mode} players hold at most {hole_n} cards")
    if len(board_ids) > board_n:
        raise ValueError(f"{mode} has at most {board_n} board cards")
    if board_n == 0 and board_ids:
        raise ValueError(f"{mode} has no board")
    used = [c for k in known for c in k] + board_ids + dead_ids
    if len(set(used)) != len(used):
        raise ValueError("a card appears twice")
    unseen = np.array(sorted(set(range(52)) - set(used)), dtype=np.int64)
    groups = [board_n - len(board_ids)] + [hole_n - len(k) for k in known]
    total_needed = sum(groups)
    if total_needed > unseen.size:
        raise ValueError("not enough cards left in the deck")
    completions = count_completions(unseen.size, groups)
    use_exact = exact if exact is not None else completions <= exact_limit
    if use_exact and completions > MAX_EXACT:
        raise ValueError(f"{completions:,} completions are too many to enumerate; use Monte Carlo")
    acc = _Accumulator(len(players), mode in KOREAN_MODES, categories)
    hilo = _HiLo(len(players), low_rule, qualifier, omaha=omaha_hilo) if hilo_mode else None
    start = time.perf_counter()
    known_board = np.array(board_ids, dtype=np.int64)
    known_holes = [np.array(k, dtype=np.int64) for k in known]

    holdem = _HoldemParts(unseen, known_board, known_holes, groups) if mode == "holdem" else None

    def run(rows: NDArray[np.integer[Any]]) -> None:
        if holdem is not None:
            acc.add(holdem.values(rows))
            return
        cards = unseen[rows]
        n = cards.shape[0]
        offset = groups[0]
        full_board = np.concatenate([np.broadcast_to(known_board, (n, known_board.size)), cards[:, :offset]],
                                    axis=1)
        holes = np.empty((n, len(players), hole_n), dtype=np.int64)
        for p, k in enumerate(known_holes):
            g = groups[p + 1]
            holes[:, p, : k.size] = k
            holes[:, p, k.size :] = cards[:, offset : offset + g]
            offset += g
        values = evaluate_deals(mode, holes, full_board)
        acc.add(values)
        if hilo is not None:
            hilo.add(values, hilo.low_order(holes, full_board))

    if use_exact:
        all_rows = enumerate_completions(unseen.size, groups)
        total = all_rows.shape[0]
        for lo in range(0, total, batch):
            run(all_rows[lo : lo + batch])
            if progress:
                progress(min(lo + batch, total), total)
    else:
        if samples <= 0:
            raise ValueError("samples must be positive")
        gen = rng if rng is not None else numpy_rng(seed)
        total = samples
        done = 0
        while done < total:
            n = min(batch, total - done)
            run(sample_completions(gen, unseen.size, total_needed, n))
            done += n
            if progress:
                progress(done, total)
    seconds = time.perf_counter() - start
    n = acc.n
    win, tie, mean, eq2 = acc.fractions()
    extra: dict[str, Any] = {}
    if hilo is not None:
        win, tie = hilo.scoop / n, hilo.partial / n
        mean, eq2 = hilo.share / n, hilo.share2 / n
        extra = {
            "scoop": tuple(float(x) for x in hilo.scoop / n),
            "high_win": tuple(float(x) for x in hilo.high / n),
            "low_win": tuple(float(x) for x in hilo.low / n),
            "no_low": tuple(float(x) for x in hilo.no_low / n),
            "no_low_any": hilo.no_low_any / n,
            "low_rule": low_rule,
            "qualifier": qualifier,
        }
    if use_exact or n < 2:
        stderr = np.zeros_like(mean)
    else:
        var = np.maximum(eq2 - mean * mean, 0.0) * n / (n - 1)
        stderr = np.sqrt(var / n)
    return EquityResult(
        mode=mode,
        win=tuple(float(x) for x in win),
        tie=tuple(float(x) for x in tie),
        equity=tuple(float(x) for x in mean),
        stderr=tuple(float(x) for x in stderr),
        samples=n,
        exact=bool(use_exact),
        seconds=seconds,
        categories=tuple(tuple(float(x) for x in row / n) for row in acc.cat),
        **extra,
    )


def category_names(mode: str) -> tuple[str, ...]:
    """Korean names of the category indices used in :attr:`EquityResult.categories`."""
    return KOREAN_CATEGORY_NAMES if mode in KOREAN_MODES else HIGH_CATEGORY_NAMES


def combinations_array(n: int, k: int) -> NDArray[np.int8]:
    """All k-subsets of range(n) as a read-only int8 array of shape (C(n, k), k), in lexicographic order."""
    return _combinations_cached(n, k)


@lru_cache(maxsize=16)
def _combinations_cached(n: int, k: int) -> NDArray[np.int8]:
    if k == 0:
        return np.zeros((1, 0), dtype=np.int8)
    count = math.comb(n, k)
    flat = np.fromiter(itertools.chain.from_iterable(itertools.combinations(range(n), k)), dtype=np.int8,
                       count=count * k)
    out = flat.reshape(count, k)
    out.setflags(write=False)
    return out
