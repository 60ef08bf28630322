"""Odds of the draw games and of Indian poker: badugi, five-card draw (``fiveDraw``) and ``indian``.

Why a module apart from :mod:`.equity`: these games have no board, and what a player will hold depends on
the draws still to come (which cards they keep, how many they exchange) or, in Indian poker, on the one
card each player cannot see: their own forehead. The model stays that of the equity tool: each player is
described by the cards the asker knows, the rest is dealt from the unseen cards, every deal equally likely,
enumerated exactly when few and sampled otherwise (numpy, with a standard error).

- **Draw games** (:func:`draw_equity`): player 1's known cards are the ones I keep, and the rest of my hand
  is what I draw now; an opponent's unknown cards are what they hold after their draw (a random hand, or
  their known cards plus random ones). With more draws to come (badugi has three) every player then keeps
  their best badugi and redraws the other cards at each further draw; discards are out of play. Reported:
  win / tie / equity per player, the chance of each final hand class for everyone, and my *outs* when I
  draw exactly one card: the unseen cards that make my hand a better class than my kept cards alone.
- **Indian poker** (:func:`indian_equity`): I see every opponent's forehead but not mine; with the
  two-card variant I also hold a card in my hand, and so does each opponent (unseen). My win chance is over
  my unknown forehead and their unknown hand cards, always enumerated (the 20-card deck is small).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any, Literal

import numpy as np
from numpy.typing import NDArray

from pokerroom.cards import Card
from pokerroom.hands import badugi_key_ids, evaluate_ids
from pokerroom.hands.batch import international_high_batch
from pokerroom.odds.equity import DEFAULT_EXACT_LIMIT, MAX_EXACT, EquityResult
from pokerroom.odds.exact import count_completions, enumerate_completions
from pokerroom.odds.sampling import numpy_rng, sample_completions
from pokerroom.odds.showdown import HIGH_CATEGORY_NAMES, Accumulator

DrawMode = Literal["fiveDraw", "badugi"]
DRAW_MODES: tuple[str, ...] = ("fiveDraw", "badugi")
HAND_SIZE: dict[str, int] = {"fiveDraw": 5, "badugi": 4}
MAX_DRAWS: dict[str, int] = {"fiveDraw": 1, "badugi": 3}
BADUGI_CLASS_NAMES: tuple[str, ...] = ("노베이스", "투베이스", "베이스", "메이드")
INDIAN_CLASS_NAMES: tuple[str, ...] = ("하이", "페어")
DRAW_DEFAULT_SAMPLES = 50_000


@dataclass(frozen=True)
class DrawResult:
    """The equity result (its ``categories``: each player's final hand class, by :func:`class_names`) and
    my outs (``None`` unless I draw exactly one card)."""

    result: EquityResult
    outs: int | None
    draws: int


def class_names(mode: str) -> tuple[str, ...]:
    """Names of the hand classes in a draw or Indian result's ``categories``."""
    return {"badugi": BADUGI_CLASS_NAMES, "indian": INDIAN_CLASS_NAMES}.get(mode, HIGH_CATEGORY_NAMES)


# ------------------------------------------------------------------------------------------ badugi rows

_LOW_RANK = np.array([1 if i % 13 == 12 else i % 13 + 2 for i in range(52)], dtype=np.int64)
#: rank bit (ace low) | suit bit << 13: two cards conflict iff their codes share a bit
_CODE = (1 << (_LOW_RANK - 1)) | (1 << (13 + np.arange(52, dtype=np.int64) // 13))
_SUBSETS = [s for k in (4, 3, 2, 1) for s in combinations(range(4), k)]


def badugi_rows(cards: NDArray[np.integer[Any]]) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """Badugi keys of rows of four card ids (equal to :func:`pokerroom.hands.badugi4`) and, per row, the
    positions (a 4-bit mask) of the cards of its best badugi."""
    codes = _CODE[cards]
    best = np.zeros(cards.shape[0], dtype=np.int64)
    keep = np.zeros(cards.shape[0], dtype=np.int64)
    for subset in _SUBSETS:
        total = codes[:, subset[0]].copy()
        union = total.copy()
        for i in subset[1:]:
            total += codes[:, i]
            union |= codes[:, i]
        key = np.where(total == union, len(subset) << 13 | (0x1FFF ^ (union & 0x1FFF)), 0)
        better = key > best
        best = np.where(better, key, best)
        keep = np.where(better, sum(1 << i for i in subset), keep)
    return best, keep


# ------------------------------------------------------------------------------------------- draw games

def _ids(cards: Sequence[Card]) -> list[int]:
    for card in cards:
        if not 0 <= card.id < 52 or card.rank < 2:
            raise ValueError(f"draw odds need standard-deck cards, got {card}")
    return [card.id for card in cards]


def draw_equity(players: Sequence[Sequence[Card]], mode: DrawMode = "fiveDraw", *, draws: int = 1,
                dead: Sequence[Card] = (), samples: int | None = None, seed: int | str | bytes | None = None,
                exact: bool | None = None, exact_limit: int = DEFAULT_EXACT_LIMIT) -> DrawResult:
    """Equity of each player of a draw game after ``draws`` more draws (module docstring: the model).

    ``exact=None`` enumerates when there is at most one draw left and at most ``exact_limit`` deals.
    """
    if mode not in DRAW_MODES:
        raise ValueError(f"mode must be one of {DRAW_MODES}")
    size = HAND_SIZE[mode]
    if not 0 <= draws <= MAX_DRAWS[mode]:
        raise ValueError(f"{mode} has 0 to {MAX_DRAWS[mode]} draws left")
    if len(players) < 2:
        raise ValueError("equity needs at least two players")
    known = [_ids(p) for p in players]
    if any(len(k) > size for k in known):
        raise ValueError(f"a {mode} hand has {size} cards")
    dead_ids = _ids(dead)
    used = [c for k in known for c in k] + dead_ids
    if len(set(used)) != len(used):
        raise ValueError("a card appears twice")
    unseen = np.array(sorted(set(range(52)) - set(used)), dtype=np.int64)
    groups = [size - len(k) for k in known]
    later = size * len(players) * max(0, draws - 1)  # replacement cards of the draws after this one
    if sum(groups) + later > unseen.size:
        raise ValueError("not enough cards left in the deck")
    completions = count_completions(unseen.size, groups)
    use_exact = exact if exact is not None else (draws <= 1 and completions <= exact_limit)
    if use_exact and (draws > 1 or completions > MAX_EXACT):
        raise ValueError("too many deals to enumerate (or more than one draw left): use Monte Carlo")
    start = time.perf_counter()
    acc = Accumulator(len(players), korean=False, categories=False)
    classes = np.zeros((len(players), 9), dtype=np.int64)

    def run(rows: NDArray[np.integer[Any]]) -> None:
        cards = unseen[rows]
        n = cards.shape[0]
        hands, offset = [], 0
        for k, g in zip(known, groups, strict=True):
            fixed = np.broadcast_to(np.array(k, dtype=np.int64), (n, len(k)))
            hands.append(np.concatenate([fixed, cards[:, offset : offset + g]], axis=1))
            offset += g
        if mode == "badugi":
            for _ in range(max(0, draws - 1)):  # keep the best badugi, redraw the rest
                for p, hand in enumerate(hands):
                    _, keep = badugi_rows(hand)
                    held = ((keep[:, None] >> np.arange(4)) & 1).astype(bool)
                    hands[p] = np.where(held, hand, cards[:, offset : offset + 4])
                    offset += 4
            values = np.stack([badugi_rows(h)[0] for h in hands], axis=1)
            cls = (values >> 13) - 1
        else:
            values = np.stack([international_high_batch(h) for h in hands], axis=1).astype(np.int64)
            cls = values >> 20
        acc.add(values)
        for p in range(len(players)):
            classes[p] += np.bincount(cls[:, p], minlength=9)[:9]

    if use_exact:
        rows = enumerate_completions(unseen.size, groups)
        for lo in range(0, rows.shape[0], 50_000):
            run(rows[lo : lo + 50_000])
    else:
        total = samples if samples is not None else DRAW_DEFAULT_SAMPLES
        if total <= 0:
            raise ValueError("samples must be positive")
        gen = numpy_rng(seed)
        done = 0
        while done < total:
            n = min(50_000, total - done)
            run(sample_completions(gen, unseen.size, sum(groups) + later, n))
            done += n
    result = _result(mode, acc, use_exact, time.perf_counter() - start, classes)
    return DrawResult(result, _outs(mode, known[0], unseen) if groups[0] == 1 and draws >= 1 else None, draws)


def _outs(mode: str, kept: list[int], unseen: NDArray[np.int64]) -> int:
    """Unseen cards that, drawn to my kept cards, make a better class of hand than the kept cards alone."""
    if mode == "badugi":
        now = badugi_key_ids(kept) >> 13 if kept else 0
        return sum(1 for c in unseen.tolist() if badugi_key_ids([*kept, c]) >> 13 > now)
    now = evaluate_ids(kept) >> 20 if kept else 0
    return sum(1 for c in unseen.tolist() if evaluate_ids([*kept, c]) >> 20 > now)


def _result(mode: str, acc: Accumulator, exact: bool, seconds: float, classes: NDArray[np.int64]
            ) -> EquityResult:
    n = acc.n
    win, tie, mean, eq2 = acc.fractions()
    if exact or n < 2:
        stderr = np.zeros_like(mean)
    else:
        stderr = np.sqrt(np.maximum(eq2 - mean * mean, 0.0) * n / (n - 1) / n)
    return EquityResult(
        mode=mode, win=tuple(float(x) for x in win), tie=tuple(float(x) for x in tie),
        equity=tuple(float(x) for x in mean), stderr=tuple(float(x) for x in stderr), samples=n,
        exact=exact, seconds=seconds,
        categories=tuple(tuple(float(x) for x in row[: len(class_names(mode))] / n) for row in classes),
    )


# ----------------------------------------------------------------------------------------- Indian poker

def _indian_ids(cards: Sequence[Card], deck: str) -> list[int]:
    low, high = (1, 10) if deck == "d20" else (2, 14)
    for card in cards:
        if not low <= card.rank <= high or not 0 <= card.id < (20 if deck == "d20" else 52):
            raise ValueError(f"{card} is not a card of the {deck} deck")
    return [card.id for card in cards]


def indian_equity(players: Sequence[Sequence[Card]], *, deck: Literal["d20", "d52"] = "d20",
                  cards: int = 1, dead: Sequence[Card] = (), samples: int | None = None,
                  seed: int | str | bytes | None = None, exact: bool | None = None,
                  exact_limit: int = DEFAULT_EXACT_LIMIT) -> EquityResult:
    """Indian poker (§6.5) odds of player 1, who sees every other player's forehead but not their own.

    ``players[0]``: my known cards (my hand card in the two-card variant, else none); ``players[i]``:
    opponent i's forehead (their hand card, if any, is unseen). ``cards``: 1 or 2 per player. Unknown cards
    come from the rest of the deck (``dead``: cards known to be out, e.g. earlier rounds' foreheads).
    """
    if cards not in (1, 2) or deck not in ("d20", "d52"):
        raise ValueError("Indian poker is played with one or two cards, from the d20 or d52 deck")
    if len(players) < 2:
        raise ValueError("equity needs at least two players")
    if len(players[0]) > cards - 1 or any(len(p) > 1 for p in players[1:]):
        raise ValueError("I know at most my hand card; of an opponent I see at most the forehead")
    size = 20 if deck == "d20" else 52
    ranks = np.zeros(size, dtype=np.int64)
    for c in range(size):
        ranks[c] = c % 10 + 1 if deck == "d20" else c % 13 + 2
    known = [_indian_ids(p, deck) for p in players]
    dead_ids = _indian_ids(dead, deck)
    used = [c for k in known for c in k] + dead_ids
    if len(set(used)) != len(used):
        raise ValueError("a card appears twice")
    unseen = np.array(sorted(set(range(size)) - set(used)), dtype=np.int64)
    groups = [cards - len(k) for k in known]
    if sum(groups) > unseen.size:
        raise ValueError("not enough cards left in the deck")
    use_exact = exact if exact is not None else count_completions(unseen.size, groups) <= exact_limit
    start = time.perf_counter()
    acc = Accumulator(len(players), korean=False, categories=False)
    classes = np.zeros((len(players), 9), dtype=np.int64)

    def run(rows: NDArray[np.integer[Any]]) -> None:
        dealt = unseen[rows]
        n, offset, values = dealt.shape[0], 0, []
        for k, g in zip(known, groups, strict=True):
            held = np.concatenate([np.broadcast_to(np.array(k, dtype=np.int64), (n, len(k))),
                                   dealt[:, offset : offset + g]], axis=1)
            offset += g
            r = ranks[held]
            if cards == 1:
                values.append(r[:, 0])
            else:
                hi, lo = r.max(axis=1), r.min(axis=1)
                values.append(np.where(hi == lo, 1 << 8 | hi, hi << 4 | lo))
        stacked = np.stack(values, axis=1)
        acc.add(stacked)
        for p in range(len(players)):
            classes[p] += np.bincount(stacked[:, p] >> 8, minlength=9)[:9]

    if use_exact:
        run(enumerate_completions(unseen.size, groups))
    else:
        gen = numpy_rng(seed)
        run(sample_completions(gen, unseen.size, sum(groups), samples or DRAW_DEFAULT_SAMPLES))
    return _result("indian", acc, use_exact, time.perf_counter() - start, classes)
