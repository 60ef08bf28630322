"""Build the hint's Omaha starting-hand table: ``src/pokerroom/bots/data/omaha_preflop.npz``.

Why a generated file: an Omaha hint before the flop needs my four cards' equity against 1-9 random hands,
and a Monte Carlo of it costs more than the rest of an action (docs/decisions/0046-hints-nearly-free.md).
The answer depends only on the hand's suit-isomorphic class (16,432 of them), so every class is estimated
once here and the server looks it up. Some tens of seconds of CPU:

    PYTHONPATH=src .venv/bin/python scripts/build_hint_tables.py [--samples 1024] [--seed 46]

Each class is dealt ``--samples`` random boards and nine random opponents' hands (fixed random orders of
the 48 unseen cards, one set per run of this script), and the equity against the first k opponents
(k = 1..9) is read from the same deals, ties shared, stored as ``round(equity * 255)`` (uint8).
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time
from pathlib import Path

import numpy as np

from pokerroom.bots.hint_tables import OMAHA_PREFLOP, omaha_class
from pokerroom.hands import batch as hb

OPPONENTS = 9
BATCH = 16


def classes() -> tuple[list[tuple[tuple[int, ...], ...]], list[tuple[int, ...]]]:
    """Every class (its key, in key order) and one hand of it."""
    first: dict[tuple[tuple[int, ...], ...], tuple[int, ...]] = {}
    for hand in itertools.combinations(range(52), 4):
        first.setdefault(omaha_class(hand), hand)
    keys = sorted(first)
    return keys, [first[k] for k in keys]


def estimate(hands: list[tuple[int, ...]], orders: np.ndarray) -> np.ndarray:
    """(hands, 9): equity against the first 1..9 random opponents, from the same deals."""
    samples = orders.shape[0]
    unseen = np.array([sorted(set(range(52)) - set(h)) for h in hands], dtype=np.int64)  # (hands, 48)
    dealt = unseen[:, orders]  # (hands, samples, 41)
    board = dealt[:, :, :5]
    players = np.empty((len(hands), samples, OPPONENTS + 1, 4), dtype=np.int64)
    players[:, :, 0] = np.array(hands, dtype=np.int64)[:, None, :]
    players[:, :, 1:] = dealt[:, :, 5:].reshape(len(hands), samples, OPPONENTS, 4)
    boards = np.repeat(board[:, :, None, :], OPPONENTS + 1, axis=2)
    values = hb.omaha_high_batch(players.reshape(-1, 4), boards.reshape(-1, 5)).astype(np.int64)
    values = values.reshape(len(hands), samples, OPPONENTS + 1)
    mine, theirs = values[:, :, :1], values[:, :, 1:]
    best = np.maximum.accumulate(theirs, axis=2)
    level = mine == best
    shares = np.where(mine > best, 1.0, level / (np.cumsum(theirs == mine, axis=2) + 1))
    return shares.mean(axis=1)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--samples", type=int, default=1024)
    ap.add_argument("--seed", type=int, default=46)
    ap.add_argument("--out", default=str(OMAHA_PREFLOP))
    args = ap.parse_args()
    t0 = time.process_time()
    keys, hands = classes()
    gen = np.random.Generator(np.random.PCG64(args.seed))
    orders = np.stack([gen.permutation(48)[: 5 + 4 * OPPONENTS] for _ in range(args.samples)])
    table = np.empty((len(keys), OPPONENTS), dtype=np.uint8)
    for start in range(0, len(hands), BATCH):
        part = estimate(hands[start : start + BATCH], orders)
        table[start : start + BATCH] = np.rint(part * 255).astype(np.uint8)
    hand_array = np.array(hands, dtype=np.uint8)
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(args.out, hands=hand_array, equity=table)
    print(f"{len(keys)} classes x {OPPONENTS} fields, {args.samples} deals each, "
          f"{time.process_time() - t0:.0f} s CPU -> {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
