"""The load benchmark's arithmetic: only what happened inside the measured window is counted (see
docs/decisions/0022-honest-benchmarks.md).

``tests/tools/data/load_run.json`` is the raw record of a real run (``benchmarks/load.py --rooms 4 --seconds 8
--setup-seconds 6 --think-ms 300 --workers 1 --record ...``): rooms start playing while the others are still
being set up, so acks arrive before the window opens. The old script counted those and divided by the
window's length.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
RECORD = Path(__file__).resolve().parent / "data" / "load_run.json"


def _load_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_load", ROOT / "benchmarks" / "load.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the class is built
    spec.loader.exec_module(module)
    return module


def _record() -> list[dict[str, Any]]:
    data: list[dict[str, Any]] = json.loads(RECORD.read_text(encoding="utf-8"))
    return data


def test_recorded_run_counts_only_the_window() -> None:
    load = _load_module()
    (worker,) = _record()
    start, end = worker["window"]
    assert abs(end - start - 8.0) < 1e-6
    before = [t for t in worker["ack_times"] if t < start]
    assert before, "the recording must hold set-up-period acks, or it cannot show the old overcount"
    actions, latencies = load.window_counts(worker)
    assert actions == 106
    assert actions == len(worker["ack_times"]) - len(before) - sum(1 for t in worker["ack_times"] if t >= end)
    # The old arithmetic (every ack of the run over the window's length) overstated actions/s by ~1.5x here.
    old_rate = len(worker["ack_times"]) / 8.0
    assert old_rate / (actions / 8.0) > 1.4
    # A round trip counts only when it started and ended inside the window.
    inside = [(s, d) for s, d in worker["latency_pairs"] if s >= start and d < end]
    assert len(latencies) == len(inside) < len(worker["latency_pairs"])
    assert all(x >= 0 for x in latencies)


def test_window_edges() -> None:
    load = _load_module()
    stats = {"window": (10.0, 20.0), "ack_times": [9.99, 10.0, 15.0, 19.999, 20.0, 25.0],
             "latency_pairs": [(9.5, 10.5), (10.0, 10.2), (19.0, 19.5), (19.9, 20.1)]}
    actions, latencies = load.window_counts(stats)
    assert actions == 3
    assert [round(x, 6) for x in latencies] == [0.2, 0.5]
