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
  (one statement, one round trip; a second, rarely, when a batch of action rows names a room without a
  row), so transactions per action is also the write path's round trips per action; PostgreSQL's CPU
  divided by its transactions (``ms/xact``) is what each commit costs it, the figure that fewer or
  cheaper transactions move;
- the relay's added latency: an action's own ack sent on a node that does not own the room against one sent
  on the owner, inside the same runs (load.py).

The SQLite row is measured with the same probes: what Redis and PostgreSQL show there is the machine's
background (other work on the shared services), the noise floor of their columns.

``--rounds R`` runs the whole sequence R times and ends with each setup's median over the rounds and the
median of its per-round ratio to that round's SQLite process: the same setup measured twice in a row here
differed by up to a quarter (the cores are shared with other machines' work), more than some of the
differences the table is read for, and a ratio taken within one round cancels what the round had in common.

``--paired`` runs each cluster setup *at the same time* as its own SQLite process, each under the full load,
their measured windows the same seconds, and takes the ratio within each pair: whatever the machine does to
one (a neighbour's load, the frequency of the moment) it does to the other. The SQLite row of a pair has no
Redis or PostgreSQL column (the services then work for the cluster beside it).

Why CPU per action and not throughput: on a 2-core machine N nodes share the same two cores, so what can be
measured honestly is what one action costs the whole deployment and whether that cost stays flat as nodes
are added; docs/scaling.md turns these figures into a capacity model.

``--sockets-on-owner`` connects every socket of a room straight to its owner's node instead of splitting
them: where a proxy that routes ``?node=`` and nodes run with ``--route-to-owner`` put them once each tab
has followed its ``route`` (docs/decisions/0087), so no action crosses the relay.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _load_figures import cpu_seconds, percentile
from cluster_nodes import PG_ADMIN_URL, REDIS_URL, Nodes
from load import drive, embedded_server, single_run


def postgres_cpu() -> dict[int, float]:
    """CPU seconds of every process named ``postgres`` (the server and all its backends), by pid."""
    out: dict[int, float] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if (entry / "comm").read_text().strip() == "postgres":
                out[int(entry.name)] = cpu_seconds(int(entry.name))
        except (OSError, ValueError, IndexError):
            continue  # a backend that ended between the listing and the read
    return out


def postgres_meter() -> Any:
    """A reading of PostgreSQL's CPU whose difference between two calls is the CPU its processes spent in
    between: each process alive at the second call counts from its first reading (0 if it started since).

    Why per process: a backend that ended inside the window (a connection of the previous setup closing,
    an autovacuum worker) took its whole CPU with it, and a plain sum then came out negative."""
    first: dict[int, float] | None = None

    def read() -> float:
        nonlocal first
        now = postgres_cpu()
        if first is None:
            first = now
            return sum(now.values())
        return sum(first.values()) + sum(cpu - first.get(pid, 0.0) for pid, cpu in now.items())

    return read


def make_probe(database: str | None) -> Any:
    """Counters of the shared services, read at the window's start and end."""
    import psycopg
    import redis

    client = redis.Redis.from_url(REDIS_URL, socket_timeout=5)
    pg_cpu = postgres_meter()

    def probe() -> dict[str, float]:
        cpu = client.info("cpu")
        stats = client.info("stats")
        out = {"redis_cpu": float(cpu["used_cpu_user"]) + float(cpu["used_cpu_sys"]),
               "redis_commands": float(stats["total_commands_processed"]), "pg_cpu": pg_cpu()}
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
    ap.add_argument("--rounds", type=int, default=1, help="run the whole sequence this many times")
    ap.add_argument("--paired", action="store_true",
                    help="run each cluster setup beside its own SQLite process, in the same window")
    ap.add_argument("--gather-ms", default="",
                    help="store group-commit windows to compare (each node count runs once per value, "
                         "serve's --store-gather-ms); empty: the server's default only")
    ap.add_argument("--sockets-on-owner", action="store_true",
                    help="connect every socket of a room to its owner's node (no relay on the path)")
    cli = ap.parse_args()
    # what load.py's drive reads from its arguments
    args = argparse.Namespace(
        rooms=cli.rooms, players=cli.players, spectators=cli.spectators, think_ms=cli.think_ms,
        seconds=cli.seconds, setup_seconds=cli.setup_seconds, workers=cli.workers, mode=cli.mode,
        hints=False, deltas=True, client_loop="uvloop", record="", server_src="", server_arg=[],
        port=0, server_pid=0, sockets_on_owner=cli.sockets_on_owner)
    rounds: list[list[tuple[str, dict[str, Any]]]] = []
    for r in range(cli.rounds):
        if cli.rounds > 1:
            print(f"\n##### round {r + 1} of {cli.rounds} #####", flush=True)
        rows = paired_round(args, cli) if cli.paired else one_round(args, cli)
        report(rows, cli)
        rounds.append(rows)
    if cli.rounds > 1:
        summary(rounds)
    return max(int(fig.get("exit", 1)) for rows in rounds for _, fig in rows)


def placement(cli: argparse.Namespace) -> str:
    return ("every socket on its room's owner" if cli.sockets_on_owner
            else "players of each room split over them")


def one_round(args: argparse.Namespace, cli: argparse.Namespace) -> list[tuple[str, dict[str, Any]]]:
    """The SQLite process, then each node count, one after the other, each on a fresh database."""
    rows: list[tuple[str, dict[str, Any]]] = []
    print(f"=== one process, embedded SQLite ({cli.rooms} rooms) ===", flush=True)
    rows.append(("1 SQLite process", single_run(args, probe=make_probe(None))))
    for n, name, window, extra in setups(cli):
        print(f"\n=== {name}: {n} cluster node(s), {placement(cli)}{window} ===",
              flush=True)
        with Nodes(n, extra, lease_ttl=cli.lease_ttl) as nodes:
            lookup = {"redis": nodes.redis_url, "prefix": nodes.prefix,
                      "ports": {node.node_id: node.port for node in nodes.nodes}}
            rows.append((name, drive(args, nodes.ports, nodes.pids, lookup,
                                     probe=make_probe(nodes.database))))
    return rows


def setups(cli: argparse.Namespace) -> list[tuple[int, str, str, tuple[str, ...]]]:
    """(node count, row name, its window for a heading, extra serve flags) of each cluster setup, in turn."""
    sockets = cli.rooms * (cli.players + cli.spectators)
    gathers: list[str | None] = [x for x in cli.gather_ms.split(",") if x] or [None]
    out = []
    for n in [int(x) for x in cli.nodes.split(",") if x]:
        for gather in gathers:
            extra = ("--max-rooms", str(cli.rooms + 10), "--max-connections", str(sockets + 100),
                     *(() if gather is None else ("--store-gather-ms", gather)))
            out.append((n, f"{n} node(s)" + ("" if gather is None else f" g{gather}"),
                        "" if gather is None else f", store gather {gather} ms", extra))
    return out


def paired_round(args: argparse.Namespace, cli: argparse.Namespace) -> list[tuple[str, dict[str, Any]]]:
    """Each cluster setup and an SQLite process of its own, loaded and measured in the same window; rows in
    pairs (SQLite, cluster)."""
    rows: list[tuple[str, dict[str, Any]]] = []
    for n, name, window, extra in setups(cli):
        print(f"\n=== {name} ({placement(cli)}) beside one SQLite process, the same load on each, the same "
              f"window{window} ===",
              flush=True)
        with embedded_server(args) as server, Nodes(n, extra, lease_ttl=cli.lease_ttl) as nodes:
            if server is None:
                rows += [("SQLite beside", {"exit": 1}), (name, {"exit": 1})]
                continue
            lookup = {"redis": nodes.redis_url, "prefix": nodes.prefix,
                      "ports": {node.node_id: node.port for node in nodes.nodes}}
            start_at = time.time() + args.setup_seconds + 5  # (both wait for their servers' warm-up first)
            with ThreadPoolExecutor(2) as pool:
                alone = pool.submit(drive, args, [server[0]], [server[1]], None, None, start_at)
                cluster = pool.submit(drive, args, nodes.ports, nodes.pids, lookup,
                                      make_probe(nodes.database), start_at)
                rows += [("SQLite beside", alone.result()), (name, cluster.result())]
    return rows


def totals(fig: dict[str, Any]) -> tuple[float, float, float, float]:
    """(node, Redis, PostgreSQL, total) CPU ms per accepted action of one measured setup."""
    node = fig["node_cpu_s"] / fig["actions"] * 1000
    redis_ms = per_action(fig, "redis_cpu", 1000)
    pg_ms = per_action(fig, "pg_cpu", 1000)
    total = node + (0.0 if redis_ms != redis_ms else redis_ms) + (0.0 if pg_ms != pg_ms else pg_ms)
    return node, redis_ms, pg_ms, total


def summary(rounds: list[list[tuple[str, dict[str, Any]]]]) -> None:
    """Each setup's median over the rounds, and the median of its per-round ratio to the SQLite process (the
    one beside it, paired; else the round's)."""
    print(f"\n=== over {len(rounds)} rounds: median CPU ms per action (range), median ratio to the same "
          "round's SQLite process (range) ===")
    names = [name for name, _ in rounds[0]]
    for i, name in enumerate(names):
        figs = []
        for rows in rounds:
            base = next(fig for other, fig in reversed(rows[: i + 1]) if other.startswith("SQLite"))
            if rows[i][1].get("actions") and base.get("actions"):
                figs.append((rows[i][1], base))
        if not figs:
            print(f"{name:<18} (no actions measured)")
            continue
        own = [totals(fig)[3] for fig, _ in figs]
        ratios = [totals(fig)[3] / totals(base)[3] for fig, base in figs]
        print(f"{name:<18} total {statistics.median(own):.2f} ms ({min(own):.2f}-{max(own):.2f}), "
              f"{statistics.median(ratios):.2f}x ({min(ratios):.2f}-{max(ratios):.2f}x)")


def report(rows: list[tuple[str, dict[str, Any]]], cli: argparse.Namespace) -> None:
    print(f"\n=== CPU per accepted action, summed over the processes (ms); {cli.rooms} rooms × "
          f"({cli.players} players + {cli.spectators} spectators), think {cli.think_ms:.0f} ms, "
          f"{cli.seconds:.0f} s windows, {os.cpu_count()} CPUs ===")
    print(f"{'setup':<18} {'actions/s':>9} {'node':>7} {'Redis':>7} {'Postgres':>8} {'total':>7} "
          f"{'vs SQLite':>9} | {'Redis cmd':>9} {'PG xact':>8} {'ms/xact':>7} {'PG rows':>8} | "
          f"{'relay +p50':>10} {'relay +p99':>10}")
    base_total = None
    for name, fig in rows:
        if not fig.get("actions"):
            print(f"{name:<18} (no actions measured: see the run's output above)")
            continue
        node, redis_ms, pg_ms, total = totals(fig)
        if base_total is None or name.startswith("SQLite"):
            base_total = total  # (paired rows: each cluster setup against the SQLite process beside it)
        local, remote = fig.get("local") or [], fig.get("remote") or []
        relay50 = percentile(remote, 0.5) - percentile(local, 0.5) if local and remote else float("nan")
        relay99 = percentile(remote, 0.99) - percentile(local, 0.99) if local and remote else float("nan")
        xacts = per_action(fig, "pg_xacts")  # PostgreSQL's CPU a transaction: what each commit costs it
        print(f"{name:<18} {fig['rate']:>9.1f} {node:>7.2f} {redis_ms:>7.2f} {pg_ms:>8.2f} {total:>7.2f} "
              f"{total / base_total:>8.2f}x | {per_action(fig, 'redis_commands'):>9.2f} "
              f"{xacts:>8.2f} {pg_ms / xacts if xacts else float('nan'):>7.2f} "
              f"{per_action(fig, 'pg_rows'):>8.2f} | "
              f"{relay50:>+9.1f}ms {relay99:>+9.1f}ms")
    shared = [(name, per_action(fig, "redis_cpu", 1000) + per_action(fig, "pg_cpu", 1000))
              for name, fig in rows if fig.get("actions") and not name.startswith("SQLite")]
    if len(shared) > 1:
        lo, hi = min(v for _, v in shared), max(v for _, v in shared)
        print(f"Redis + PostgreSQL CPU per action over the node counts: {lo:.2f}–{hi:.2f} ms "
              f"(spread {hi / lo - 1:.0%} of the lowest)")
    print("The SQLite row's Redis and PostgreSQL columns are the shared services' background in that window.")


if __name__ == "__main__":
    sys.exit(main())
