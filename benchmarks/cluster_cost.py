"""What a cluster node costs: CPU per accepted action, summed over every process that works for it, as the
cluster grows from 1 to 8 nodes under the same offered load — against the one-process SQLite server in the
same run.

Run (a quiet machine; the shared Redis and PostgreSQL are read, never restarted)::

    PYTHONPATH=src .venv/bin/python benchmarks/cluster_cost.py [--nodes 1,2,4,8] [--rooms 30] [--seconds 30]

Each setup gets the same load (benchmarks/load.py's scripted rooms: ``--rooms`` × 6 players + 2 spectators,
``--think-ms`` between actions, so the offered actions/s is fixed and well under what one core carries) on a
fresh database and key prefix (benchmarks/cluster_nodes.py). Inside the measured window it reads:

- the nodes' CPU (utime + stime of each node process, /proc);
- Redis's own CPU (``INFO cpu``: the server process's user + system seconds) and its commands
  (``INFO stats`` total_commands_processed);
- PostgreSQL's CPU: every ``postgres`` process of the machine (the backends of the nodes' connections, the
  WAL writer, the checkpointer...), from /proc; and the benchmark database's transactions and rows written
  (``pg_stat_database``), counted by PostgreSQL itself. A node writes one transaction per batch of changes
  (psycopg pipeline: one round trip, two when a fenced room's lock is read first), so transactions per
  action is also the write path's round trips per action, within that factor;
- the relay's added latency: an action's own ack sent on a node that does not own the room against one sent
  on the owner, inside the same runs (load.py).

The SQLite row is measured with the same probes: what Redis and PostgreSQL show there is the machine's
background (other work on the shared services), the noise floor of their columns.

Why CPU per action and not throughput: on a 2-core machine N nodes share the same two cores, so what can be
measured honestly is what one action costs the whole deployment and whether that cost stays flat as nodes
are added; docs/scaling.md turns these figures into a capacity model.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _load_figures import cpu_seconds, percentile
from cluster_nodes import PG_ADMIN_URL, REDIS_URL, Nodes
from load import drive, single_run


def postgres_cpu() -> float:
    """CPU seconds of every process named ``postgres`` (the server and all its backends)."""
    total = 0.0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if (entry / "comm").read_text().strip() == "postgres":
                total += cpu_seconds(int(entry.name))
        except (OSError, ValueError, IndexError):
            continue  # a backend that ended between the listing and the read
    return total


def make_probe(database: str | None) -> Any:
    """Counters of the shared services, read at the window's start and end."""
    import psycopg
    import redis

    client = redis.Redis.from_url(REDIS_URL, socket_timeout=5)

    def probe() -> dict[str, float]:
        cpu = client.info("cpu")
        stats = client.info("stats")
        out = {"redis_cpu": float(cpu["used_cpu_user"]) + float(cpu["used_cpu_sys"]),
               "redis_commands": float(stats["total_commands_processed"]), "pg_cpu": postgres_cpu()}
        if database:
            with psycopg.connect(PG_ADMIN_URL, autocommit=True) as conn:
                conn.execute("SELECT pg_stat_clear_snapshot()")
                row = conn.execute(
                    "SELECT xact_commit + xact_rollback, tup_inserted + tup_updated + tup_deleted "
                    "FROM pg_stat_database WHERE datname = %s", (database,)).fetchone()
            if row is not None:
                out["pg_xacts"], out["pg_rows"] = float(row[0]), float(row[1])
        return out

    return probe


def per_action(fig: dict[str, Any], key: str, scale: float = 1.0) -> float:
    actions = fig.get("actions") or 0
    value = fig.get("probe", {}).get(key)
    return float("nan") if not actions or value is None else value / actions * scale


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--nodes", default="1,2,4,8", help="node counts, in turn")
    ap.add_argument("--rooms", type=int, default=30)
    ap.add_argument("--players", type=int, default=6)
    ap.add_argument("--spectators", type=int, default=2)
    ap.add_argument("--think-ms", type=float, default=300.0, help="mean think time before an action")
    ap.add_argument("--seconds", type=float, default=30.0, help="measured window per setup")
    ap.add_argument("--setup-seconds", type=float, default=25.0, help="time allowed to open every room")
    ap.add_argument("--lease-ttl", type=float, default=5.0)
    ap.add_argument("--workers", type=int, default=2, help="load-generator processes")
    ap.add_argument("--mode", default="holdem")
    cli = ap.parse_args()
    # what load.py's drive reads from its arguments
    args = argparse.Namespace(
        rooms=cli.rooms, players=cli.players, spectators=cli.spectators, think_ms=cli.think_ms,
        seconds=cli.seconds, setup_seconds=cli.setup_seconds, workers=cli.workers, mode=cli.mode,
        hints=False, deltas=True, client_loop="uvloop", record="", server_src="", server_arg=[],
        port=0, server_pid=0)
    sockets = cli.rooms * (cli.players + cli.spectators)
    rows: list[tuple[str, dict[str, Any]]] = []
    print(f"=== one process, embedded SQLite ({cli.rooms} rooms) ===", flush=True)
    rows.append(("1 SQLite process", single_run(args, probe=make_probe(None))))
    for n in [int(x) for x in cli.nodes.split(",") if x]:
        print(f"\n=== {n} cluster node(s), players of each room split over them ===", flush=True)
        extra = ("--max-rooms", str(cli.rooms + 10), "--max-connections", str(sockets + 100))
        with Nodes(n, extra, lease_ttl=cli.lease_ttl) as nodes:
            lookup = {"redis": nodes.redis_url, "prefix": nodes.prefix,
                      "ports": {node.node_id: node.port for node in nodes.nodes}}
            rows.append((f"{n} node(s)", drive(args, nodes.ports, nodes.pids, lookup,
                                               probe=make_probe(nodes.database))))
    report(rows, cli)
    return max(int(fig.get("exit", 1)) for _, fig in rows)


def report(rows: list[tuple[str, dict[str, Any]]], cli: argparse.Namespace) -> None:
    print(f"\n=== CPU per accepted action, summed over the processes (ms); {cli.rooms} rooms × "
          f"({cli.players} players + {cli.spectators} spectators), think {cli.think_ms:.0f} ms, "
          f"{cli.seconds:.0f} s windows, {os.cpu_count()} CPUs ===")
    print(f"{'setup':<18} {'actions/s':>9} {'node':>7} {'Redis':>7} {'Postgres':>8} {'total':>7} "
          f"{'vs SQLite':>9} | {'Redis cmd':>9} {'PG xact':>8} {'PG rows':>8} | {'relay +p50':>10} "
          f"{'relay +p99':>10}")
    base_total = None
    for name, fig in rows:
        if not fig.get("actions"):
            print(f"{name:<18} (no actions measured: see the run's output above)")
            continue
        node = fig["node_cpu_s"] / fig["actions"] * 1000
        redis_ms = per_action(fig, "redis_cpu", 1000)
        pg_ms = per_action(fig, "pg_cpu", 1000)
        total = node + (0.0 if redis_ms != redis_ms else redis_ms) + (0.0 if pg_ms != pg_ms else pg_ms)
        if base_total is None:
            base_total = total
        local, remote = fig.get("local") or [], fig.get("remote") or []
        relay50 = percentile(remote, 0.5) - percentile(local, 0.5) if local and remote else float("nan")
        relay99 = percentile(remote, 0.99) - percentile(local, 0.99) if local and remote else float("nan")
        print(f"{name:<18} {fig['rate']:>9.1f} {node:>7.2f} {redis_ms:>7.2f} {pg_ms:>8.2f} {total:>7.2f} "
              f"{total / base_total:>8.2f}x | {per_action(fig, 'redis_commands'):>9.2f} "
              f"{per_action(fig, 'pg_xacts'):>8.2f} {per_action(fig, 'pg_rows'):>8.2f} | "
              f"{relay50:>+9.1f}ms {relay99:>+9.1f}ms")
    shared = [(name, per_action(fig, "redis_cpu", 1000) + per_action(fig, "pg_cpu", 1000))
              for name, fig in rows[1:] if fig.get("actions")]
    if len(shared) > 1:
        lo, hi = min(v for _, v in shared), max(v for _, v in shared)
        print(f"Redis + PostgreSQL CPU per action over the node counts: {lo:.2f}–{hi:.2f} ms "
              f"(spread {hi / lo - 1:.0%} of the lowest)")
    print("The SQLite row's Redis and PostgreSQL columns are the shared services' background in that window.")


if __name__ == "__main__":
    sys.exit(main())
