"""``python -m pokerkit_oracle VARIANT --games N --first SEED`` (from tests/oracle): hunt for discrepancies
with many seeds and print each with its replay recipe. Apart from the package so that importing it runs
nothing."""

from __future__ import annotations

import argparse
import time

from . import VARIANTS, hunt

parser = argparse.ArgumentParser()
parser.add_argument("variant", choices=sorted(VARIANTS))
parser.add_argument("--games", type=int, default=20)
parser.add_argument("--first", type=int, default=0)
parser.add_argument("--hands", type=int, default=30)
args = parser.parse_args()
t0 = time.perf_counter()
problems, stats = hunt(VARIANTS[args.variant], range(args.first, args.first + args.games), args.hands)
for p in problems:
    print(p, end="\n\n")
print(stats)
print(f"{len(problems)} discrepancies in {args.games} games ({stats.hands} hands), "
      f"{time.perf_counter() - t0:.1f}s")
