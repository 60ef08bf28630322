"""Build the hint's starting-hand tables: ``src/pokerroom/bots/data/omaha_preflop.npz`` (Omaha's four
cards against 1-9 random hands) and ``seven_streets.npz`` (7 Poker's first three and four cards against 1-5
random seven-card hands).

Why generated files: these equities depend only on the cards' suit-isomorphic class, and a Monte Carlo of
one costs more than an action (docs/decisions/0046-hints-nearly-free.md). So every class is estimated once
here and the server looks it up. Under a minute of CPU:

    PYTHONPATH=src .venv/bin/python scripts/build_hint_tables.py [--samples 1024] [--seed 46]

Each class is dealt random boards (Omaha) or the rest of its seven cards (7 Poker) and every opponent's
hand, from fixed random orders of the unseen cards (one set per table and run of this script); the equity
against the first k opponents is read from the same deals, ties shared, stored as ``round(equity * 255)``.
7 Poker uses half the deals (its classes are many more deals' worth of work each).
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from pokerroom.bots.hint_tables import OMAHA_PREFLOP, SEVEN_STREETS, omaha_class
from pokerroom.hands import batch as hb

BATCH = 16


def classes(size: int) -> list[tuple[int, ...]]:
    """One hand of every class of ``size`` cards, in class order."""
    first: dict[tuple[tuple[int, ...], ...], tuple[int, ...]] = {}
    for hand in itertools.combinations(range(52), size):
        first.setdefault(omaha_class(hand), hand)
    return [first[k] for k in sorted(first)]


def _shares(values: NDArray[np.int64]) -> NDArray[np.float64]:
    """(hands, samples, 1 + opponents) values -> (hands, opponents): my share against the first k."""
    mine, theirs = values[:, :, :1], values[:, :, 1:]
    best = np.maximum.accumulate(theirs, axis=2)
    level = mine == best
    shares = np.where(mine > best, 1.0, level / (np.cumsum(theirs == mine, axis=2) + 1))
    return np.asarray(shares.mean(axis=1), dtype=np.float64)


def omaha(hands: list[tuple[int, ...]], orders: NDArray[np.intp], opponents: int) -> NDArray[np.float64]:
    """Omaha high before the flop: 5 board cards, then four per opponent."""
    n, samples = len(hands), orders.shape[0]
    unseen = np.array([sorted(set(range(52)) - set(h)) for h in hands], dtype=np.int64)
    dealt = unseen[:, orders]  # (hands, samples, 5 + 4 * opponents)
    players = np.empty((n, samples, opponents + 1, 4), dtype=np.int64)
    players[:, :, 0] = np.array(hands, dtype=np.int64)[:, None, :]
    players[:, :, 1:] = dealt[:, :, 5:].reshape(n, samples, opponents, 4)
    boards = np.repeat(dealt[:, :, None, :5], opponents + 1, axis=2)
    values = hb.omaha_high_batch(players.reshape(-1, 4), boards.reshape(-1, 5)).astype(np.int64)
    return _shares(values.reshape(n, samples, opponents + 1))


def seven(hands: list[tuple[int, ...]], orders: NDArray[np.intp], opponents: int) -> NDArray[np.float64]:
    """7 Poker (Korean high, §6.2): the rest of my seven, then seven per opponent."""
    n, samples, size = len(hands), orders.shape[0], len(hands[0])
    rest = 7 - size
    unseen = np.array([sorted(set(range(52)) - set(h)) for h in hands], dtype=np.int64)
    dealt = unseen[:, orders]  # (hands, samples, rest + 7 * opponents)
    players = np.empty((n, samples, opponents + 1, 7), dtype=np.int64)
    players[:, :, 0, :size] = np.array(hands, dtype=np.int64)[:, None, :]
    players[:, :, 0, size:] = dealt[:, :, :rest]
    players[:, :, 1:] = dealt[:, :, rest:].reshape(n, samples, opponents, 7)
    values = hb.korean_high_batch(players.reshape(-1, 7)).astype(np.int64)
    return _shares(values.reshape(n, samples, opponents + 1))


def table(size: int, deal: str, opponents: int, samples: int, seed: int) -> tuple[NDArray[np.uint8], ...]:
    hands = classes(size)
    gen = np.random.Generator(np.random.PCG64(seed + size))
    take = 5 + 4 * opponents if deal == "omaha" else 7 - size + 7 * opponents
    orders = np.stack([gen.permutation(52 - size)[:take] for _ in range(samples)])
    fn = omaha if deal == "omaha" else seven
    out = np.empty((len(hands), opponents), dtype=np.uint8)
    for start in range(0, len(hands), BATCH):
        out[start : start + BATCH] = np.rint(fn(hands[start : start + BATCH], orders, opponents) * 255)
    return np.array(hands, dtype=np.uint8), out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--samples", type=int, default=1024)
    ap.add_argument("--seed", type=int, default=46)
    ap.add_argument("--only", choices=("omaha", "seven"), default=None)
    args = ap.parse_args()
    t0 = time.process_time()
    if args.only in (None, "omaha"):
        hands, equity = table(4, "omaha", 9, args.samples, args.seed)
        np.savez_compressed(OMAHA_PREFLOP, hands4=hands, equity4=equity)
    if args.only in (None, "seven"):
        parts: dict[str, NDArray[np.uint8]] = {}
        for size in (3, 4):
            parts[f"hands{size}"], parts[f"equity{size}"] = table(size, "seven", 5, args.samples // 2,
                                                                    args.seed)
        np.savez_compressed(SEVEN_STREETS, **parts)  # type: ignore[arg-type]
    print(f"{time.process_time() - t0:.0f} s CPU -> {Path(OMAHA_PREFLOP).parent}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
