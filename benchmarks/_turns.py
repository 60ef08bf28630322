"""Two or more sides timed on the same items, taking turns: what the before/after scripts share.

Why: a side timed after the other runs in a different state of the caches and the machine; taking turns
item by item (the order alternating by item and round) after a warm-up of each gives both the same work
under the same conditions, counted in CPU time of this thread only (docs/decisions/0022-honest-
benchmarks.md).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

Side = Callable[[int, Any], Any]


def in_turns(sides: Mapping[str, Side], items: Sequence[Any], rounds: int, warm: int = 30,
             thrash_mb: float = 0) -> tuple[dict[str, int], list[tuple[int, list[Any]]]]:
    """CPU nanoseconds each side spent on ``items`` over ``rounds``, each side called as ``side(i, item)``
    after ``warm`` items of warm-up; and the items (index, every side's result) where the sides disagreed.
    ``thrash_mb`` > 0 writes one word in every cache line of that many MB before each call, as a busy server
    does between two of them: 4 MB leaves this machine's L3 (32 MB) warm, 128 MB leaves nothing warm, the
    state a street pass finds inside the server (docs/decisions/0086-what-a-cold-street-pass-pays-for.md)."""
    junk = np.zeros(int(thrash_mb * 1_000_000) // 8) if thrash_mb > 0 else None
    for side in sides.values():
        for i, item in enumerate(items[:warm]):
            side(i, item)
    spent = dict.fromkeys(sides, 0)
    disagree: list[tuple[int, list[Any]]] = []
    order = list(sides.items())
    for r in range(rounds):
        for i, item in enumerate(items):
            results = []
            for name, side in order if (i + r) % 2 else order[::-1]:
                if junk is not None:
                    junk[::8] += 1.0
                t0 = time.thread_time_ns()
                results.append(side(i, item))
                spent[name] += time.thread_time_ns() - t0
            if any(result != results[0] for result in results[1:]):
                disagree.append((i, results))
    return spent, disagree


def between(thrash_mb: float) -> str:
    """What ``in_turns`` does between calls, for a script's heading."""
    return f"{thrash_mb:g} MB touched" if thrash_mb > 0 else "caches warm"


def add_thrash_options(parser: argparse.ArgumentParser) -> None:
    """``--thrash`` (4 MB) and ``--thrash-mb N`` into ``args.thrash_mb``, for :func:`in_turns`."""
    parser.add_argument("--thrash", action="store_const", const=4.0, default=0.0, dest="thrash_mb",
                        help="touch 4 MB between calls (--thrash-mb 4)")
    parser.add_argument("--thrash-mb", type=float, default=0.0,
                        help="touch this many MB between calls (128: nothing left warm)")
