"""Where the test suite's CPU goes: each test's CPU by process kind, summed per file, over a whole run.

Why: the CI budget is 12 minutes on two cores, and the suite keeps both busy, so a run is as long as the CPU
its tests spend; this says which tests spend it, and on what — the pytest worker itself, the Chromium
under it, the ``pokerroom serve`` processes it started, Playwright's driver. Used for decisions 0052, 0079
and 0080 (each time written again by hand; now here).

How: a pytest plugin (this file, loaded with ``-p suite_cpu``) reads, before and after each test, the
worker's own CPU (all threads), its reaped children's, and that of every live process below it (each with
its own reaped children, so a renderer that exited inside the browser still counts); the difference is the
test's. A process that exits during a test moves its CPU from "below" to "reaped": the sum stays right,
the split is by kind only for the processes alive at the end of the test. The last test of each worker also
carries the browser's exit. Run:

    .venv/bin/python benchmarks/suite_cpu.py [pytest arguments, e.g. -n 3 tests/web]

It runs pytest with the plugin (writing one JSON line per test to a temporary folder) and prints the files
with the most CPU, then the tests; with ``SUITE_CPU_TIMELINE=1`` also which files ran side by side and how
busy they kept the cores (decision 0081).
"""

from __future__ import annotations

import collections
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Generator
from pathlib import Path
from typing import Any

import pytest

TCK = os.sysconf("SC_CLK_TCK")
KINDS = ("worker", "chromium", "serve", "node", "other", "reaped")


def _processes() -> tuple[dict[int, tuple[int, float, str]], dict[int, list[int]]]:
    """Every process: pid -> (parent, CPU with its reaped children, name); and parent -> children."""
    procs: dict[int, tuple[int, float, str]] = {}
    kids: dict[int, list[int]] = collections.defaultdict(list)
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        cpu = sum(int(f) for f in fields[11:15]) / TCK  # utime, stime, cutime, cstime
        procs[int(entry)] = (int(fields[1]), cpu, stat[stat.index("(") + 1:stat.rindex(")")])
        kids[int(fields[1])].append(int(entry))
    return procs, kids


def _kind(pid: int, name: str) -> str:
    try:
        cmd = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        cmd = ""
    if "chrom" in cmd or "chrom" in name:
        return "chromium"
    if ("pokerroom" in cmd and "serve" in cmd) or "forked_serve" in cmd:
        return "serve"
    if "node" in name:
        return "node"
    return "other"


def snapshot() -> dict[str, float]:
    """CPU seconds so far, by kind, of this process and everything below it."""
    times = os.times()
    out = dict.fromkeys(KINDS, 0.0)
    out["worker"] = times.user + times.system
    out["reaped"] = times.children_user + times.children_system
    procs, kids = _processes()
    stack = list(kids.get(os.getpid(), []))
    while stack:
        pid = stack.pop()
        _parent, cpu, name = procs[pid]
        out[_kind(pid, name)] += cpu
        stack.extend(kids.get(pid, []))
    return out


# --- the plugin (runs in each pytest worker) -----------------------------------------------------------

@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: Any, nextitem: Any) -> Generator[None, None, None]:
    before, start, began = snapshot(), time.monotonic(), time.time()
    yield
    after = snapshot()
    row = {k: round(after[k] - before[k], 3) for k in KINDS}
    row["wall"] = round(time.monotonic() - start, 3)
    row["began"] = round(began, 3)  # (when: which tests ran side by side)
    out = Path(os.environ["SUITE_CPU_DIR"]) / f"{os.getpid()}.jsonl"
    with out.open("a") as fh:
        fh.write(json.dumps([item.nodeid, row]) + "\n")


# --- the script -----------------------------------------------------------------------------------------

def report(folder: Path, top: int = 30) -> None:
    rows = [json.loads(line) for f in folder.glob("*.jsonl") for line in f.read_text().splitlines()]
    by_file: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    for nodeid, row in rows:
        row["all"] = sum(row[k] for k in KINDS)
        by_file[nodeid.split("::")[0]].update(row)
    total: collections.Counter[str] = collections.Counter()
    for counts in by_file.values():
        total.update(counts)
    cols = ("all", *KINDS, "wall")
    print(f"{len(rows)} tests; CPU s by kind: " + ", ".join(f"{k} {total[k]:.0f}" for k in cols))
    print(f"{'file':52s}" + "".join(f"{k:>9s}" for k in cols))
    for name, counts in sorted(by_file.items(), key=lambda kv: -kv[1]["all"])[:top]:
        print(f"{name[-52:]:52s}" + "".join(f"{counts[k]:9.1f}" for k in cols))
    print("\ntests with the most CPU:")
    for nodeid, row in sorted(rows, key=lambda r: -r[1]["all"])[:top]:
        print(f"{row['all']:8.1f} {row['wall']:8.1f}  {nodeid}")
    if os.environ.get("SUITE_CPU_TIMELINE"):
        timeline(rows)


def timeline(rows: list[Any], step: int = 20) -> None:
    """Which files ran side by side, every ``step`` seconds, with the CPU their tests spent per second of that
    window (up to 2.0 on two cores): where the run's cores sat idle, and behind which tests' waits. A test's
    CPU is counted as spread evenly over its wall time, and the last window is partly after the run's end
    (so it reads low): an outline of the run, not a sample of it."""
    t0 = min(row["began"] for _, row in rows)
    end = max(row["began"] + row["wall"] for _, row in rows)
    print(f"\nside by side, every {step} s (CPU s per s of the window, then the files running):")
    for start in range(0, int(end - t0) + 1, step):
        lo, hi = t0 + start, t0 + start + step
        busy, files = 0.0, collections.Counter()
        for nodeid, row in rows:
            b, e = row["began"], row["began"] + row["wall"]
            overlap = min(e, hi) - max(b, lo)
            if overlap > 0:
                busy += row["all"] * overlap / max(row["wall"], 1e-6)
                files[nodeid.split("::")[0].removeprefix("tests/")] += 1
        print(f"{start:5d} s {busy / step:5.2f}  " + ", ".join(files)[:160])


def main() -> int:
    here = Path(__file__).resolve().parent
    with tempfile.TemporaryDirectory() as folder:
        env = {**os.environ, "SUITE_CPU_DIR": folder,
               "PYTHONPATH": os.pathsep.join([str(here), os.environ.get("PYTHONPATH", "")])}
        code = subprocess.call([sys.executable, "-m", "pytest", "-p", "suite_cpu", "-q", *sys.argv[1:]],
                               env=env, cwd=here.parent)
        report(Path(folder))
    return code


if __name__ == "__main__":
    sys.exit(main())
