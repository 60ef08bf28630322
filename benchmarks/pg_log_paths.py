"""PostgreSQL's CPU for a batch of action rows: the batch function against the plain statement (0061).

Both paths of ``storage/pg_apply.py`` get the same batches on one connection, taking turns call by call
(``call``: the PL/pgSQL function; ``call_log``: ``LOG_BATCH``), so the machine's state is the same for both;
each call's cost is the backend's CPU time around it (``/proc/<pid>/schedstat``, nanoseconds) and this
process's CPU. Batches hold one, two or three fenced rows of rooms that exist, the shape of nineteen batches
in twenty of a busy node. ``--pause-ms`` sleeps between calls: a node's backend works in short bursts
between other processes and its caches are cold when it starts, which costs more than back-to-back calls.

    PYTHONPATH=src .venv/bin/python benchmarks/pg_log_paths.py [--calls 6000] [--pause-ms 2]

The database is a fresh one, created and dropped by the script; needs the local PostgreSQL (its backend's
/proc entry is read).
"""

from __future__ import annotations

import argparse
import os
import secrets
import statistics
import sys
import time
from pathlib import Path

import orjson
import psycopg

from pokerroom.server.storage import pg_apply
from pokerroom.server.storage.postgres import PgStore

PG_ADMIN = os.environ.get("POKERROOM_TEST_PG", "postgresql://postgres@127.0.0.1:5432/postgres")
FENCE = 7


def on_cpu_ns(pid: int) -> int:
    """Nanoseconds the process has run on a CPU (the first field of schedstat). Not ``store_write``'s
    ``backend_cpu``: /proc/<pid>/stat counts 10 ms ticks, coarser than one call."""
    return int(Path(f"/proc/{pid}/schedstat").read_text().split()[0])


def batch(codes: list[str], first_version: int, size: int, at: int) -> bytes:
    """``size`` rows of distinct rooms, as ``pg_apply.encode`` writes a batch of ``log`` operations."""
    ops = [{"k": "log", "c": codes[(at + j) % len(codes)], "f": FENCE,
            "row": [first_version + j, "action", f"p{j}", f"m{first_version + j}", {"type": "k.call"},
                    1_700_000_000_000 + first_version + j], "hands": [], "pre": None} for j in range(size)]
    return orjson.dumps(ops)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--calls", type=int, default=6000, help="calls in all, half through each path")
    ap.add_argument("--rooms", type=int, default=30)
    ap.add_argument("--pause-ms", type=float, default=0.0, help="sleep between calls")
    ap.add_argument("--warmup", type=int, default=500, help="first calls of each path not counted")
    args = ap.parse_args()

    name = f"pokerroom_bench_{secrets.token_hex(4)}"
    with psycopg.connect(PG_ADMIN, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    url = PG_ADMIN.rsplit("/", 1)[0] + "/" + name
    try:
        store = PgStore(url)  # the schema and the function
        codes = [f"R{i:05d}" for i in range(args.rooms)]
        for code in codes:
            store.save(code, {"code": code}, "x" * 6000, 0, 0, fence=FENCE)
        store.close()
        with psycopg.connect(url, autocommit=True) as conn:
            pid = int(conn.info.backend_pid)
            paths = {"function": pg_apply.call, "statement": pg_apply.call_log}
            backend: dict[str, dict[int, list[int]]] = {p: {1: [], 2: [], 3: []} for p in paths}
            client: dict[str, float] = dict.fromkeys(paths, 0.0)
            version = 1
            for i in range(args.calls):
                path = "statement" if i % 2 else "function"
                size = 1 + (i // 2) % 3
                arg = batch(codes, version, size, i)
                version += size
                c0, b0 = time.process_time(), on_cpu_ns(pid)
                refused = paths[path](conn, arg)
                b1, c1 = on_cpu_ns(pid), time.process_time()
                assert refused == frozenset(), refused
                if i >= 2 * args.warmup:
                    backend[path][size].append(b1 - b0)
                    client[path] += c1 - c0
                if args.pause_ms:
                    time.sleep(args.pause_ms / 1000)
            rows = conn.execute("SELECT count(*) FROM actions").fetchone()
            assert rows is not None and rows[0] == version - 1, "every row written once"
    finally:
        with psycopg.connect(PG_ADMIN, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    counted = {p: sum(len(v) for v in backend[p].values()) for p in paths}
    print(f"{args.calls} calls over {args.rooms} rooms, turns taken call by call, "
          f"pause {args.pause_ms:g} ms, load avg {os.getloadavg()[0]:.1f}")
    print("PostgreSQL backend CPU per call (median µs) by rows in the batch; this process's CPU per call")
    for size in (1, 2, 3):
        f = statistics.median(backend["function"][size]) / 1e3
        s = statistics.median(backend["statement"][size]) / 1e3
        print(f"  {size} row(s): function {f:6.0f}  statement {s:6.0f}  statement/function {s / f:4.2f}x")
    fc = client["function"] / counted["function"] * 1e6
    sc = client["statement"] / counted["statement"] * 1e6
    print(f"  client: function {fc:6.1f} µs  statement {sc:6.1f} µs  statement/function {sc / fc:4.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
