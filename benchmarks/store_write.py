"""Write throughput of the room stores on one batch workload: SQLite (file, WAL) vs PostgreSQL.

The workload is what the group-commit writer hands a store: batches of prepared operations from many rooms,
mostly action-log rows (one per accepted action) with a snapshot every ``--snapshot-every`` changes of a
room (metadata + engine state text + log row, and a finished hand). Each backend runs the same batches
(same seed) and the script prints, per backend and batch size:

- operations per second of wall time (the load average is printed next to it: the machine is shared),
- this process's CPU time per operation (the writer thread's Python + driver work: what competes with the
  event loop for the GIL), and for PostgreSQL the server backend's CPU time per operation (read from
  /proc of the local backend process), so both sides of the cost are seen,
- the ratio to SQLite in the same run.

PostgreSQL runs three ways: plain, ``+fence`` (every operation carries a fencing token, as a cluster node's
writes do: one locked SELECT per batch, a second round trip) and ``+async`` (``synchronous_commit=off``: no
wait for the WAL flush, comparable to SQLite's ``synchronous=NORMAL``). The database is a fresh one,
created and dropped by the script.

    .venv/bin/python benchmarks/store_write.py --ops 20000 --batch 1 --batch 20
"""

from __future__ import annotations

import argparse
import os
import random
import secrets
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pokerroom.server.storage import LogRow, RoomStore, Store
from pokerroom.server.storage.base import Op, prepare_log, prepare_save

PG_ADMIN = os.environ.get("POKERROOM_TEST_PG", "postgresql://postgres@127.0.0.1:5432/postgres")


def workload(ops: int, rooms: int, snapshot_every: int, state_chars: int, fence: int | None,
             seed: int = 7) -> list[Op]:
    """The operations, in arrival order: rooms take turns at random, each room's versions increasing."""
    rnd = random.Random(seed)
    version = dict.fromkeys(range(rooms), 0)
    state = "x" * state_chars
    out: list[Op] = []
    for _ in range(ops):
        room = rnd.randrange(rooms)
        version[room] += 1
        v = version[room]
        code = f"R{room:05d}"
        row = LogRow(v, "action", f"p{v % 6}", f"m{v}", {"type": "k.call"}, 1_700_000_000_000 + v)
        if v % snapshot_every == 1:
            meta = {"code": code, "members": [{"id": f"p{i}", "nick": f"플레이어{i}", "chips": 10_000}
                                              for i in range(6)], "host": "p0", "phase": "playing"}
            hand = [(v, {"handNo": v, "log": state[:400]})]
            out.append(prepare_save(code, meta, state, v, row.at_ms, row, hand, fence))
        else:
            out.append(prepare_log(code, row, fence))
    return out


def backend_cpu(pid: int | None) -> float:
    """CPU seconds (user + system) of a local process, 0 when unknown."""
    if pid is None:
        return 0.0
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def run(store: RoomStore, ops: list[Op], batch: int,
        server_pid: Callable[[], int | None]) -> dict[str, float]:
    pid = server_pid()
    c0, s0, w0 = time.process_time(), backend_cpu(pid), time.perf_counter()
    for i in range(0, len(ops), batch):
        store.apply_batch(ops[i:i + batch])
    wall = time.perf_counter() - w0
    return {"ops_s": len(ops) / wall, "cpu_us": (time.process_time() - c0) / len(ops) * 1e6,
            "server_us": (backend_cpu(pid) - s0) / len(ops) * 1e6, "wall": wall}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ops", type=int, default=10_000)
    ap.add_argument("--rooms", type=int, default=200)
    ap.add_argument("--batch", type=int, action="append", help="operations per batch (repeatable)")
    ap.add_argument("--snapshot-every", type=int, default=12, help="a room's changes per snapshot")
    ap.add_argument("--state-chars", type=int, default=6000, help="size of the engine state text")
    args = ap.parse_args()
    batches = args.batch or [1, 20]

    import psycopg

    from pokerroom.server.storage.postgres import PgStore

    name = f"pokerroom_bench_{secrets.token_hex(4)}"
    with psycopg.connect(PG_ADMIN, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    url = PG_ADMIN.rsplit("/", 1)[0] + "/" + name
    print(f"{args.ops} ops over {args.rooms} rooms, a snapshot every {args.snapshot_every} changes "
          f"({args.state_chars} chars of state); load avg {os.getloadavg()[0]:.1f}")
    try:
        for batch in batches:
            results: dict[str, dict[str, float]] = {}
            with tempfile.TemporaryDirectory() as tmp:
                sqlite = Store(Path(tmp) / "bench.sqlite3")
                try:
                    results["sqlite"] = run(sqlite, workload(args.ops, args.rooms, args.snapshot_every,
                                                             args.state_chars, None), batch, lambda: None)
                finally:
                    sqlite.close()
            for label, fence, sync in (("postgres", None, True), ("postgres+fence", 1, True),
                                       ("postgres+async", None, False)):
                pg = PgStore(url, synchronous_commit=sync)
                try:
                    with psycopg.connect(url, autocommit=True) as conn:
                        conn.execute("TRUNCATE rooms, actions, hands")
                    pg.apply_batch([])  # open the writer connection before timing

                    def writer_pid(store: PgStore = pg) -> int | None:
                        conn: Any = store._writer._conn  # the local backend serving the writer connection
                        return None if conn is None else int(conn.info.backend_pid)

                    results[label] = run(pg, workload(args.ops, args.rooms, args.snapshot_every,
                                                      args.state_chars, fence), batch, writer_pid)
                finally:
                    pg.close()
            base = results["sqlite"]
            print(f"\nbatch of {batch} ops (load avg {os.getloadavg()[0]:.1f})")
            for label, r in results.items():
                print(f"  {label:15s} {r['ops_s']:9.0f} ops/s ({r['ops_s'] / base['ops_s']:5.2f}x)  "
                      f"client CPU {r['cpu_us']:6.1f} us/op ({r['cpu_us'] / base['cpu_us']:4.2f}x)  "
                      f"server CPU {r['server_us']:6.1f} us/op  wall {r['wall']:.2f} s")
    finally:
        with psycopg.connect(PG_ADMIN, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    return 0


if __name__ == "__main__":
    sys.exit(main())
