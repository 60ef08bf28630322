"""Two or more sides timed on the same items, taking turns: what the before/after scripts share.

Why: a side timed after the other runs in a different state of the caches and the machine; taking turns
item by item (the order alternating by item and round) after a warm-up of each gives both the same work
under the same conditions, counted in CPU time of this thread only (docs/decisions/0022-honest-
benchmarks.md).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

Side = Callable[[int, Any], Any]


def in_turns(sides: Mapping[str, Side], items: Sequence[Any], rounds: int, warm: int = 30,
             thrash: bool = False) -> tuple[dict[str, int], list[tuple[int, list[Any]]]]:
    """CPU nanoseconds each side spent on ``items`` over ``rounds``, each side called as ``side(i, item)``
    after ``warm`` items of warm-up; and the items (index, every side's result) where the sides disagreed.
    ``thrash`` touches 4 MB before each call, as a busy server does between two of them."""
    junk = np.zeros(4_000_000 // 8) if thrash else None
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
