"""Load benchmark of the room server: N rooms x (6 scripted players + 2 spectators) over real websockets.

Starts ``pokerroom serve`` on 127.0.0.1 (a free port, a temporary data dir, the real engine and SQLite
store), opens every room through the public protocol (docs/protocol.md), lets scripted players act from
``view.me.legalActions`` after a think time for a bounded time, and prints:

- accepted actions per second: acks that arrived inside the measured window (after every room was set up)
  divided by the window's length, and the server's CPU time over the same window per such action,
- p50 / p99 / max latency from sending an accepted action to the moment *all* 8 sockets of the room hold the
  view of the version it became (known from its ack; measured in the load generator, so it includes its
  own scheduling delay), and the generator's own CPU (it must not be the bottleneck),
- error frames (anything but ``stale_version``, which is counted apart, per action type) and unexpected
  socket closes. Simultaneous decisions (``ready``, ...) are sent on the view they were decided on
  (docs/protocol.md §2.1: they commute) and re-sent at once on the newest view if refused as stale,
- the server's resident memory (VmRSS, and the peak VmHWM) from /proc,
- bytes per view frame (median, p90) and bytes per socket per hand (every frame a socket received inside the
  window, divided by the sockets and by the hands the rooms played in it).

With ``--nodes N`` the server is N cluster nodes (``pokerroom serve --redis --database``) on the
machine's Redis and PostgreSQL (a fresh database and key prefix per run, benchmarks/cluster_nodes.py); each
room is created through one node and its sockets alternate between the nodes, so with 2 nodes the players of
a room sit on different nodes and half the actions cross the relay. ``--nodes 1,2`` runs both and prints the
ratio; ``--rooms 40,80,120`` runs each room count, and the figure of a node count is the best actions/s of
a run whose p99 stayed under ``--p99-ms`` (100). The relay's added latency per action is the difference of
the own-ack latency (action sent -> its ack back) of actions sent on a node that does not own the room and
of actions sent on the owner, inside the same runs.

Every socket opts in to view deltas (docs/protocol.md §2.8) unless ``--no-deltas`` (or the server's
``pokerroom`` has no ``pokerroom.server.wire.deltas``):
players rebuild their whole view from each ``viewDelta`` and ask ``resync`` on a gap; a player's own ack then
rides on its view frame.

The load is spread over ``--workers`` client processes so the generator is not the bottleneck on its own;
each reads on uvloop and parses with orjson (``--client-loop asyncio``: the standard loop), because on a
small machine the generator shares the cores with the server and every CPU millisecond it spends per action
is taken from the server. ``--server-arg`` passes an argument to the embedded server (e.g.
``--server-arg=--loop=uvloop``). Only 127.0.0.1 is ever used.

    .venv/bin/python benchmarks/load.py --rooms 200 --seconds 30
    .venv/bin/python benchmarks/load.py --rooms 200 --think-ms 300 --server-src /tmp/load-base/src
    .venv/bin/python benchmarks/load.py --nodes 1,2 --rooms 40,80 --seconds 20
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))  # its helpers, also when loaded by file path

from _load_client import HOST, Stats, apply_delta, worker
from _load_client import pick as pick  # re-exported: benchmarks/profile_action.py plays with it
from _load_figures import cpu_seconds, percentile, relay_counts, rss_kib, window_counts


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        port: int = s.getsockname()[1]
        return port


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rooms", default="200", help="rooms, or a comma list of room counts to run in turn")
    ap.add_argument("--seconds", type=float, default=30.0, help="measured time after all rooms are set up")
    ap.add_argument("--players", type=int, default=6)
    ap.add_argument("--spectators", type=int, default=2)
    ap.add_argument("--mode", default="holdem")
    ap.add_argument("--think-ms", type=float, default=1500.0, help="mean think time before an action")
    ap.add_argument("--hints", action="store_true", help="turn the hint option on in every room")
    ap.add_argument("--no-deltas", dest="deltas", action="store_false",
                    help="full view frames only (default: opt in to viewDelta, docs/protocol.md §2.8)")
    ap.add_argument("--workers", type=int, default=2, help="load-generator processes")
    ap.add_argument("--setup-seconds", type=float, default=40.0, help="time allowed to open every room")
    ap.add_argument("--port", type=int, default=0,
                    help="drive an already running server on 127.0.0.1:PORT instead of starting one")
    ap.add_argument("--server-pid", type=int, default=0, help="with --port: the server's pid, for its RSS")
    ap.add_argument("--server-src", default="", metavar="DIR",
                    help="run the server from this tree's src/ (PYTHONPATH), e.g. a base worktree, while the "
                         "load generator stays this one: the same clients against two servers")
    ap.add_argument("--client-loop", choices=("uvloop", "asyncio"), default="uvloop",
                    help="the load generator's event loop (default uvloop where installed: the generator "
                         "shares the machine's cores with the server, so its CPU per frame is the server's "
                         "headroom)")
    ap.add_argument("--server-arg", action="append", default=[], metavar="ARG",
                    help="an extra argument for the embedded server (repeatable), e.g. "
                         "--server-arg=--loop=uvloop")
    ap.add_argument("--record", default="", metavar="PATH",
                    help="also write every worker's raw timings (acks, round trips, window) as JSON")
    ap.add_argument("--nodes", default="", metavar="N[,N...]",
                    help="cluster nodes on Redis + PostgreSQL instead of one SQLite server, e.g. 1,2")
    ap.add_argument("--lease-ttl", type=float, default=5.0, help="--nodes: the nodes' lease TTL")
    ap.add_argument("--p99-ms", type=float, default=100.0, help="--nodes: the p99 a run must stay under")
    args = ap.parse_args()

    room_counts = [int(x) for x in str(args.rooms).split(",") if x]
    if args.port or not args.nodes:
        worst = 0
        for rooms in room_counts:
            args.rooms = rooms
            worst = max(worst, single(args) if not args.port else
                        drive(args, [args.port], [args.server_pid] if args.server_pid else [])["exit"])
        return worst
    return cluster_runs(args, [int(x) for x in args.nodes.split(",")], room_counts)


def single(args: argparse.Namespace) -> int:
    """Today's embedded server: one ``pokerroom serve`` on SQLite."""
    return int(single_run(args)["exit"])


def single_run(args: argparse.Namespace,
               probe: Callable[[], dict[str, float]] | None = None) -> dict[str, Any]:
    """One run on the embedded server; its figures (``exit`` 1 when the server did not start)."""
    with embedded_server(args) as server:
        if server is None:
            return {"exit": 1}
        port, pid = server
        return drive(args, [port], [pid], probe=probe)


@contextmanager
def embedded_server(args: argparse.Namespace) -> Iterator[tuple[int, int] | None]:
    """A ``pokerroom serve`` on SQLite for the run, answering: (port, pid), or None if it did not start."""
    sockets = args.rooms * (args.players + args.spectators)
    port = free_port()
    data = tempfile.mkdtemp(prefix="pokerroom-load-")
    env = dict(os.environ)
    if args.server_src:
        env["PYTHONPATH"] = str(Path(args.server_src).resolve())
    print(f"server sources: {env.get('PYTHONPATH', '(installed pokerroom)')}", flush=True)
    server = subprocess.Popen(
        [sys.executable, "-m", "pokerroom", "serve", "--host", HOST, "--port", str(port), "--data-dir", data,
         "--max-rooms", str(args.rooms + 10), "--max-connections", str(sockets + 100),
         # every scripted client comes from this one address: lift the per-address caps (they would refuse it)
         "--rooms-per-address", "0", "--room-creations-per-minute", "0", "--connections-per-address", "0",
         "--log-level", "warning", *args.server_arg],
        env=env,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(f"http://{HOST}:{port}/healthz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline or server.poll() is not None:
                print("the server did not start", file=sys.stderr)
                yield None
                return
            time.sleep(0.2)
        yield port, server.pid
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()


def cluster_runs(args: argparse.Namespace, node_counts: list[int], room_counts: list[int]) -> int:
    """Every (nodes, rooms) run on fresh nodes; then the best actions/s under the p99 bar per node count,
    the ratio to the first node count, and the relay's added own-ack latency."""
    from cluster_nodes import Nodes

    runs: list[dict[str, Any]] = []
    worst = 0
    for n in node_counts:
        for rooms in room_counts:
            args.rooms = rooms
            sockets = rooms * (args.players + args.spectators)
            extra = ("--max-rooms", str(rooms + 10), "--max-connections", str(sockets + 100))
            print(f"\n=== {n} node(s), {rooms} rooms ===", flush=True)
            with Nodes(n, extra, lease_ttl=args.lease_ttl) as nodes:
                lookup = {"redis": nodes.redis_url, "prefix": nodes.prefix,
                          "ports": {node.node_id: node.port for node in nodes.nodes}}
                fig = drive(args, nodes.ports, nodes.pids, lookup)
            worst = max(worst, fig["exit"])
            runs.append({"nodes": n, "rooms": rooms, **fig})
    print("\n=== summary (the scale-out aim: 2 nodes should carry >= 1.7x, a relay hop < 2 ms at p50) ===")
    best: dict[int, dict[str, Any]] = {}
    for n in node_counts:
        ok = [r for r in runs if r["nodes"] == n and r["p99"] < args.p99_ms and r["exit"] == 0]
        if ok:
            best[n] = max(ok, key=lambda r: r["rate"])
            b = best[n]
            print(f"{n} node(s): {b['rate']:.1f} actions/s at p99 {b['p99']:.1f} ms ({b['rooms']} rooms, "
                  f"CPU {b['cpu_ms']:.1f} ms/action, load {b['load']:.1f})")
        else:
            print(f"{n} node(s): no run kept p99 under {args.p99_ms:.0f} ms without errors")
    if len(best) > 1:
        base = best[node_counts[0]]["rate"]
        for n in node_counts[1:]:
            if n in best:
                print(f"ratio {n} / {node_counts[0]} node(s): {best[n]['rate'] / base:.2f}x")
    for rooms in room_counts:  # the same load on each node count, whatever its p99
        same = {r["nodes"]: r for r in runs if r["rooms"] == rooms}
        cells = ", ".join(f"{n} node(s) {same[n]['rate']:.1f}/s p99 {same[n]['p99']:.0f} ms" for n in same)
        base_run = same.get(node_counts[0])
        ratio = "".join(f", ratio {n}/{node_counts[0]}: {same[n]['rate'] / base_run['rate']:.2f}x"
                        for n in node_counts[1:] if n in same and base_run and base_run["rate"])
        print(f"{rooms} rooms: {cells}{ratio}")
    # the relay's cost: inside the same multi-node runs (same load), own acks sent on the owner vs elsewhere
    local = [x for r in runs if r["nodes"] > 1 for x in r["local"]]
    remote = [x for r in runs if r["nodes"] > 1 for x in r["remote"]]
    if local and remote:
        print(f"own ack on the owner: p50 {percentile(local, 0.5):.1f} ms, "
              f"p99 {percentile(local, 0.99):.1f} ms "
              f"({len(local)}); through the relay: p50 {percentile(remote, 0.5):.1f} ms, "
              f"p99 {percentile(remote, 0.99):.1f} ms ({len(remote)})")
        print(f"relay added per action: p50 {percentile(remote, 0.5) - percentile(local, 0.5):.1f} ms, "
              f"p99 {percentile(remote, 0.99) - percentile(local, 0.99):.1f} ms")
    return worst


def drive(args: argparse.Namespace, ports: list[int], pids: list[int],
          lookup: dict[str, Any] | None = None, probe: Callable[[], dict[str, float]] | None = None,
          start_at: float | None = None) -> dict[str, Any]:
    """Run the load-generator processes against the nodes on ``ports`` and print the figures.

    ``probe``: read at the measured window's start and end (e.g. the shared services' CPU and command
    counters, benchmarks/cluster_cost.py); the differences come back under ``"probe"``. ``start_at``: when
    the measured window opens (``time.time()``; default ``--setup-seconds`` from now): two drives in
    threads given the same one measure the same seconds (benchmarks/cluster_cost.py ``--paired``)."""
    for port in ports:
        while not httpx.get(f"http://{HOST}:{port}/healthz", timeout=5).json().get("warm", True):
            time.sleep(0.5)  # let the bot/hint warm-up thread finish before measuring
    ctx = mp.get_context("spawn")
    queue = ctx.Queue()
    if start_at is None:
        start_at = time.time() + args.setup_seconds
    shares = [args.rooms // args.workers + (i < args.rooms % args.workers) for i in range(args.workers)]
    firsts = [sum(shares[:i]) for i in range(len(shares))]
    procs = [ctx.Process(target=worker, args=(ports, n, args, start_at, i + 1, queue, firsts[i], lookup))
             for i, n in enumerate(shares) if n]
    for p in procs:
        p.start()
    time.sleep(max(0.0, start_at - time.time()))
    probe0 = probe() if probe is not None else {}
    cpu0, load0 = sum(cpu_seconds(pid) for pid in pids), os.getloadavg()[0]
    time.sleep(args.seconds)
    cpu1, load1 = sum(cpu_seconds(pid) for pid in pids), os.getloadavg()[0]
    probe1 = probe() if probe is not None else {}
    results = [queue.get() for _ in procs]
    for p in procs:
        p.join()
    if args.record:
        Path(args.record).write_text(json.dumps(results), encoding="utf-8")
    rss = hwm = 0
    for pid in pids:
        r, h = rss_kib(pid)
        rss, hwm = rss + r, hwm + h
    insides = [httpx.get(f"http://{HOST}:{port}/healthz", timeout=30).json().get("changeMs", {})
               for port in ports]

    total = Stats()
    actions = 0
    lat = []
    local: list[float] = []
    remote: list[float] = []
    view_bytes: list[int] = []
    window_bytes = hands = resyncs = 0
    for r in results:
        view_bytes += r["view_bytes"]
        window_bytes += r["window_bytes"]
        hands += r["hands"]
        resyncs += r["resyncs"]
        n, latencies = window_counts(r)
        actions += n
        lat += [x * 1000 for x in latencies]
        on_owner, relayed = relay_counts(r)
        local += [x * 1000 for x in on_owner]
        remote += [x * 1000 for x in relayed]
        total.stale += r["stale"]
        for kind, n in r.get("stale_by_type", {}).items():
            total.stale_by_type[kind] = total.stale_by_type.get(kind, 0) + n
        total.cpu += r.get("cpu", 0.0)
        total.closes += r["closes"]
        total.setup_failures += r["setup_failures"]
        total.sockets += r["sockets"]
        for code, n in r["errors"].items():
            total.errors[code] = total.errors.get(code, 0) + n
    errors = sum(total.errors.values()) + total.closes + total.setup_failures
    busy = cpu1 - cpu0
    per_action = busy / actions * 1000 if actions else float("nan")
    with _PRINTING:
        sockets = args.rooms * (args.players + args.spectators)
        where = f"{len(ports)} cluster node(s)" if lookup is not None else "one server"
        print(f"rooms {args.rooms} ({args.players} players + {args.spectators} spectators), "
              f"sockets {total.sockets}/{sockets}, mode {args.mode}, think {args.think_ms:.0f} ms, "
              f"{args.seconds:.0f} s measured, {where}, "
              f"{os.cpu_count()} CPUs")
        print(f"actions accepted inside the window: {actions} ({actions / args.seconds:.1f}/s)")
        print(f"action -> all views latency: p50 {percentile(lat, 0.50):.1f} ms, "
              f"p99 {percentile(lat, 0.99):.1f} ms, max {max(lat, default=float('nan')):.1f} ms "
              f"({len(lat)} samples)")
        if lookup is not None:
            print(f"own ack: sent on the owner p50 {percentile(local, 0.5):.1f} ms "
                  f"p99 {percentile(local, 0.99):.1f} ms "
                  f"({len(local)}), through the relay p50 {percentile(remote, 0.5):.1f} ms "
                  f"p99 {percentile(remote, 0.99):.1f} ms ({len(remote)})")
        print(f"errors: {errors} (error frames {total.errors or 0}, unexpected closes {total.closes}, "
              f"setup failures {total.setup_failures}); stale_version retries inside the window: "
              f"{total.stale} "
              f"{dict(sorted(total.stale_by_type.items(), key=lambda kv: -kv[1]))}")
        print(f"server RSS: {rss / 1024:.0f} MiB (peak {hwm / 1024:.0f} MiB)")
        for port, inside in zip(ports, insides, strict=True):
            print(f"server-side change time on :{port} (store write + views + frames queued, last "
                  f"{inside.get('n', 0)}): p50 {inside.get('p50', float('nan'))} ms, "
                  f"p99 {inside.get('p99', float('nan'))} ms, max {inside.get('max', float('nan'))} ms")
        deltas = "on" if args.deltas and apply_delta is not None else "off"
        print(f"bytes per view frame (deltas {deltas}): median {percentile(view_bytes, 0.5):,.0f}, "
              f"p90 {percentile(view_bytes, 0.9):,.0f}; per socket per hand: "
              f"{window_bytes / max(1, total.sockets) / (hands / args.rooms) if hands else float('nan'):,.0f}"
              " "
              f"({hands} hands in the window, {window_bytes / 1e6:.1f} MB received); resyncs {resyncs}")
        print(f"server CPU in the measured window: {busy:.1f} s ({busy / args.seconds:.0%} of one core), "
              f"{per_action:.2f} ms per accepted action; machine load average {load0:.1f} -> {load1:.1f}",
              flush=True)
        print(f"load generator CPU in the window: {total.cpu:.1f} s over {len(results)} worker(s) "
              f"({total.cpu / args.seconds / max(1, len(results)):.0%} of one core each)", flush=True)

    return {"exit": 0 if errors == 0 else 1, "rate": actions / args.seconds, "p99": percentile(lat, 0.99),
            "p50": percentile(lat, 0.5), "cpu_ms": per_action, "load": load1, "local": local,
            "remote": remote, "actions": actions, "node_cpu_s": busy,
            "probe": {k: probe1[k] - probe0.get(k, 0.0) for k in probe1}}


_PRINTING = threading.Lock()  # two drives in threads (cluster_cost.py --paired) print their blocks whole

if __name__ == "__main__":
    sys.exit(main())
