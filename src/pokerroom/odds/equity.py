"""Win/tie equity for hold'em, Omaha, 7 Poker and 7 Poker hi-lo from the cards one can see.

Why this shape:
- Every player is described only by the cards *known* to the asker (own hole cards, an opponent's open
  cards, or nothing at all); the rest of each hand and the unseen board are filled from the unseen deck. One
  model therefore covers "AA vs KK", "AA vs a random hand" and 7 Poker's "my seven vs their open cards".
- When the number of equally likely completions is small (turn, river, small fields) they are enumerated
  exactly; otherwise a batch Monte Carlo deals ``samples`` completions with numpy and reports the standard
  error of each player's equity, so a reader knows how far to trust the digits.
- Hold'em with every hole card known takes :mod:`pokerroom.odds.holdem_table`: per-player tables by the
  board's rank multiset and a cheaper sampler of its own (same seed, same result; not the bots' stream).
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

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

from pokerroom.cards import Card
from pokerroom.hands.korean import LowQualifier, LowRule
from pokerroom.odds.exact import count_completions, enumerate_completions
from pokerroom.odds.hilo import HiLoTally
from pokerroom.odds.holdem_table import HoldemKnown, draw_rows
from pokerroom.odds.modes import (
    BOARD_COUNT,
    HOLE_COUNT,
    KOREAN_MODES,
    LOW_RULES,
    MODES,
    QUALIFIERS,
    EquityMode,
)
from pokerroom.odds.sampling import numpy_rng, sample_completions
from pokerroom.odds.showdown import Accumulator, HoldemParts, evaluate_deals

DEFAULT_SAMPLES = 100_000
#: ``sevenHiLo`` evaluates lows one distinct hand at a time (no batch path), hence fewer samples by default
#: (standard error of a pot share at most 0.35 percentage points) and a lower threshold for exact enumeration.
HILO_DEFAULT_SAMPLES = 20_000
DEFAULT_EXACT_LIMIT = 300_000
HILO_EXACT_LIMIT = 100_000
#: Exact enumeration materialises every completion; beyond this many it would need gigabytes.
MAX_EXACT = 5_000_000
DEFAULT_BATCH = 50_000

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


def _ids(cards: Sequence[Card]) -> list[int]:
    for card in cards:
        if not 0 <= card.id < 52 or card.rank < 2:
            raise ValueError(f"equity needs standard-deck cards, got {card}")
    return [card.id for card in cards]


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
    acc = Accumulator(len(players), mode in KOREAN_MODES, categories)
    hilo = HiLoTally(len(players), low_rule, qualifier, omaha=omaha_hilo) if hilo_mode else None
    start = time.perf_counter()
    known_board = np.array(board_ids, dtype=np.int64)
    known_holes = [np.array(k, dtype=np.int64) for k in known]

    holdem: HoldemParts | HoldemKnown | None = None
    draw = sample_completions
    if mode == "holdem" and not any(groups[1:]):  # every hole known: per-player board tables
        holdem = HoldemKnown(unseen, known_board, known_holes)
        draw = draw_rows
    elif mode == "holdem":
        holdem = HoldemParts(unseen, known_board, known_holes, groups)

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
            run(draw(gen, unseen.size, total_needed, n))
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
