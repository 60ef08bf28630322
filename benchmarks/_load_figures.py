"""The load benchmark's arithmetic: what counts inside the measured window, percentiles, and a server
process's memory and CPU time read from /proc.

Apart from benchmarks/load.py so that the window arithmetic, checked against a recorded run by
tests/tools/test_load_arithmetic.py, stays small and separate from the driving of servers and clients.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any


def window_counts(stats: dict[str, Any]) -> tuple[int, list[float]]:
    """Accepted actions and latencies (seconds) that happened *inside* the measured window.

    An action counts when its ack arrived in ``[start, end)``; a latency counts when the action was sent at
    or after ``start`` and all views held it before ``end``. Actions of the set-up period (rooms start
    playing while others are still being opened) are left out: dividing them by the window's length is what
    overstated actions/s by 1.35-2.05x before (docs/decisions/0022-honest-benchmarks.md).
    """
    start, end = stats["window"]
    actions = sum(1 for t in stats["ack_times"] if start <= t < end)
    latencies = [done - sent for sent, done in stats["latency_pairs"] if sent >= start and done < end]
    return actions, latencies


def relay_counts(stats: dict[str, Any]) -> tuple[list[float], list[float]]:
    """Own-ack latencies (seconds) inside the window: of actions sent on the room's owner, and elsewhere."""
    start, end = stats["window"]
    local: list[float] = []
    remote: list[float] = []
    for sent, acked, on_owner in stats.get("ack_pairs", []):
        if sent >= start and acked < end:
            (local if on_owner else remote).append(acked - sent)
    return local, remote


def rss_kib(pid: int) -> tuple[int, int]:
    values = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, rest = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            values[key] = int(rest.split()[0])
    return values.get("VmRSS", 0), values.get("VmHWM", 0)


def cpu_seconds(pid: int) -> float:
    """utime + stime of a process, in seconds (from /proc/<pid>/stat)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def percentile(data: list[float], q: float) -> float:
    if not data:
        return float("nan")
    ordered = sorted(data)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]
