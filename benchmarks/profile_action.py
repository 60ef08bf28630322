"""Per-action profile of the room server: CPU per accepted action and bytes per frame, in one process.

Where does a player action's server time go (docs/decisions/0016-lean-frames.md)? This script drives
:class:`pokerroom.server.room.rooms.Rooms` directly (the real engine, a real SQLite store in a temporary
directory, the real group-commit writer thread) with one room of ``--players`` players and ``--spectators``
spectators whose sockets are in-memory connections that only count what they are sent. So it measures the
server's own work per action: the rules, the store write, building and encoding every viewer's frame,
queueing them, but not uvicorn, the websocket library or the kernel (``benchmarks/load.py`` measures those
over real sockets).

Figures (CPU time of the whole process, all threads, so the writer thread's encoding and SQLite work count):

- CPU ms per accepted action, over ``--actions`` actions after ``--warm`` warm-up actions;
- bytes per view frame (median, p90) and per socket per hand (all frames);
- the CPU time a fresh ``Rooms`` takes to restore the room where the run stopped (mid-hand: the last
  snapshot plus the log rows after it, re-applied);
- with ``--store-inline`` (a measurement aid, not a server mode): the same run with each store write done on
  the event-loop thread instead of awaited from the group-commit writer thread, so the difference of the
  two figures is what the thread hand-off costs per action (the server never does this: a slow disk must
  not freeze every room, see ``room/driver.py``, ``RoomDriver.write``);
- with ``--profile``: the functions with the most cumulative CPU time of the event-loop thread per action
  (cProfile; it slows everything, so the CPU figure of a profiled run is not comparable with an unprofiled
  one).

``--other-src DIR`` runs the same measurement a second time in a subprocess importing ``pokerroom`` from
``DIR`` (e.g. ``git worktree add /tmp/base main`` then ``--other-src /tmp/base/src``), interleaved with
this tree's runs (``--rounds``), and prints both with their ratio: before/after in the same run, same
machine load, same work: the same scripted choices (``--seed``) on the same cards (every game of the run is
dealt from a seed derived from ``--seed``, where a server deals from a secret one), so both trees play
the very same hands.

    .venv/bin/python benchmarks/profile_action.py --actions 600 [--mode omaha] [--hints] [--other-src DIR]

``--compare-hints`` measures this tree with hints off and on: in each of ``--rounds`` fresh processes, two
rooms (one with hints, one without) dealt the same cards and played the same way take turns of ``--chunk``
actions (:func:`measure_paired`); it prints the median of the rounds' ratios and every round's pair. With
``--hint-variant`` (a measurement aid, as ``--store-inline``) the hints side runs a hint with a part of its
work left out, so the difference from ``real`` is what that part costs inside the server, its effect on the
rest of the action (cold caches) included (:data:`HINT_VARIANTS`).
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import gc
import json
import os
import pstats
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from load import pick  # the same scripted player as the load benchmark


class Table:
    """One room of ``--players`` players and ``--spectators`` spectators on a :class:`Rooms` of its own (a
    real SQLite store in a temporary directory, its writer thread), dealt from seeds of the run: :meth:`act`
    plays one scripted action and returns the CPU time it took (the whole process, all threads)."""

    def __init__(self, args: argparse.Namespace, hints: bool) -> None:
        self.args, self.hints = args, hints
        self.rnd = random.Random(args.seed)
        self.msg_no = 0

    async def open(self) -> None:
        import importlib

        from pokerroom import engine
        from pokerroom.server.engine_port import PokerEngine

        args = self.args

        def server_module(path: str, before: str) -> Any:
            """A server module by its path in this tree, or by the flat path an older tree (``--other-src``)
            had before the server was split into folders."""
            try:
                return importlib.import_module(f"pokerroom.server.{path}")
            except ImportError:
                return importlib.import_module(f"pokerroom.server.{before}")

        self.server_module = server_module
        botseat = server_module("room.botseat", "botseat")
        load_decider, load_recommender = botseat.load_decider, botseat.load_recommender
        rooms_mod = server_module("room.rooms", "rooms")
        Connection, Rooms = rooms_mod.Connection, rooms_mod.Rooms
        self.Rooms, self.PokerEngine = Rooms, PokerEngine
        from pokerroom.server.storage import Store

        self.Store = Store
        P = self.P = server_module("wire.protocol", "protocol")
        try:  # view deltas; a tree without them gets full views
            apply_delta = server_module("wire.deltas", "deltas").apply_delta
            deltas = args.deltas
        except (ImportError, AttributeError):
            deltas = False

        class Socket(Connection):  # type: ignore[misc,valid-type]
            """Keeps only sizes and the view texts; the texts are parsed later, outside the timed calls, so
            the client's decoding (and applying deltas) is never counted as server CPU."""

            def __init__(self) -> None:
                super().__init__()
                self.texts: list[str] = []
                self.current: tuple[int, dict[str, Any]] | None = None
                self.frames: list[tuple[str, int]] = []  # (frame type, bytes)

            def send(self, text: str) -> None:
                kind = text[9:text.index('"', 9)] if text.startswith('{"type":"') else "?"
                self.frames.append((kind, len(text.encode())))
                if kind in ("view", "viewDelta"):
                    self.texts.append(text)

            def _catch_up(self) -> None:
                for text in self.texts:
                    msg = json.loads(text)
                    if msg["type"] == "view":
                        self.current = (msg["version"], msg["view"])
                    else:
                        assert self.current is not None and self.current[0] == msg["base"], "delta gap"
                        self.current = (msg["version"], apply_delta(self.current[1], msg))
                self.texts.clear()

            @property
            def version(self) -> int:
                self._catch_up()
                return -1 if self.current is None else self.current[0]

            @property
            def view(self) -> dict[str, Any] | None:
                self._catch_up()
                return None if self.current is None else self.current[1]

            def close(self, code: int) -> None:
                pass

        if args.store_inline:
            # the room's one store write: the driver's ``write`` (an older tree: the writer's ``_write``)
            try:
                owner = server_module("room.driver", "room.driver").RoomDriver
                write_name, op_name = "write", "store_op"
            except ImportError:
                owner = server_module("room.writer", "room_writer").RoomWriter
                write_name, op_name = "_write", "_store_op"

            async def write_inline(self: Any, room: Any, op: Any, *more: Any) -> None:
                name, params = getattr(self, op_name)(room, op, more)
                self.store.apply_batch([(name, params)])

            setattr(owner, write_name, write_inline)

        data = Path(tempfile.mkdtemp(prefix="pokerroom-profile-"))
        store = Store(data / "pokerroom.sqlite3")
        recommender = load_recommender() if self.hints else None
        class SeededEngine(PokerEngine):
            """Every game dealt from a seed of this run (the server's own engine takes a secret one)."""

            games = 0

            def setup_with_events(self, player_ids: list[str], options: Any, now_ms: int
                                  ) -> tuple[Any, list[dict[str, Any]] | None]:
                self.games += 1
                seed = (args.seed << 32) + self.games
                state, events = engine.setup_with_events(player_ids, options, seed=seed, now_ms=now_ms)
                return state, list(events)

        rooms = Rooms(SeededEngine(), store, decider=load_decider(), recommender=recommender)
        await rooms.start()
        rooms.warm_up()
        options = {"mode": args.mode, "handLimit": 50, "turnSeconds": 60, "hints": self.hints}
        room, _member, token = await rooms.create_room(options, "방장")
        sockets = [Socket() for _ in range(args.players + args.spectators)]
        for i, sock in enumerate(sockets):
            hello: dict[str, Any] = ({"token": token} if i == 0 else
                                     {"nickname": f"플레이어{i}"} if i < args.players else {"spectate": True})
            if deltas:
                hello["deltas"] = True
            await rooms.handle(room, sock, P.parse_client_message(json.dumps({"type": "hello", **hello})))
        start = P.parse_client_message('{"type":"start"}')
        await rooms.handle(room, sockets[0], start)
        # other rooms with a game under way and their sockets: the objects a busy server keeps alive (states,
        # views) make the garbage collector's work per change grow, which one lone room would not show
        for _ in range(args.idle_rooms):
            other, _m, other_token = await rooms.create_room(options, "방장")
            for i in range(args.players + args.spectators):
                hello = ({"token": other_token} if i == 0 else
                         {"nickname": f"플레이어{i}"} if i < args.players else {"spectate": True})
                if deltas:
                    hello["deltas"] = True
                msg = P.parse_client_message(json.dumps({"type": "hello", **hello}))
                await rooms.handle(other, Socket(), msg)
            await rooms.handle(other, other.connections[0], start)  # type: ignore[arg-type]
        self.rooms, self.room, self.sockets, self.deltas = rooms, room, sockets, deltas
        self.players = sockets[: args.players]
        self.start = start
        self.data = data

    async def act(self) -> tuple[float, bool]:
        """One scripted action (or the next game's start): (CPU seconds it took, whether it was an action the
        room accepted)."""
        room, rooms, P = self.room, self.rooms, self.P
        if room.phase == "finished":
            await rooms.handle(room, self.sockets[0], self.start)
            return 0.0, False
        movers = []
        for s in self.players:
            view = s.view
            if view is not None and s.version == room.version and (a := pick(view, self.rnd)) is not None:
                movers.append((s, a))
        if not movers:
            raise RuntimeError(f"nobody can act at version {room.version}")
        sock, action = movers[0]
        self.msg_no += 1
        msg = P.parse_client_message(json.dumps({"type": "action", "clientMsgId": f"m{self.msg_no}",
                                                 "version": room.version, "action": action}))
        t0 = time.process_time()
        version = room.version
        await rooms.handle(room, sock, msg)
        return time.process_time() - t0, room.version != version


def server_gc() -> None:
    """The server's collector settings (``server/app.py``, ``_tune_gc``: rare full collections, the start-up
    objects frozen out of them), applied once the tables are open and warmed up. Why: a benchmark with
    Python's default thresholds charged each side for full scans of the warm-up's tables (the hint caches,
    the evaluators' lookup tables) that the server never makes."""
    try:
        from pokerroom.server.app import _tune_gc
    except ImportError:  # an older tree: the same settings by hand
        gc.set_threshold(20_000, 50, 100)
        gc.freeze()
    else:
        _tune_gc(None)


async def measure(args: argparse.Namespace) -> dict[str, Any]:
    """One measurement in this process; returns the figures as a dict."""
    table = Table(args, args.hints)
    await table.open()
    server_gc()
    rooms, room, sockets, deltas = table.rooms, table.room, table.sockets, table.deltas
    Rooms, PokerEngine, Store, data = table.Rooms, table.PokerEngine, table.Store, table.data
    # CPU time of this thread: wall time (cProfile's default) counts the waits for the writer thread and
    # every other process of a loaded machine; the writer thread's own work is not in the profile
    profiler = cProfile.Profile(time.thread_time) if args.profile else None
    done = 0
    cpu = 0.0
    hands = 0
    last_hand: tuple[int, Any] = (room.game_no, None)
    mark: list[int] = []
    while done < args.warm + args.actions:
        measuring = done >= args.warm
        if measuring and not mark:
            mark = [len(s.frames) for s in sockets]
        if measuring and profiler is not None:
            profiler.enable()
        took, changed = await table.act()
        cpu += took if measuring else 0.0
        if measuring and profiler is not None:
            profiler.disable()
        done += changed
        host_view = sockets[0].view or {}
        now_hand = (room.game_no, host_view.get("handNo"))
        if measuring and now_hand != last_hand:
            hands += 1
        last_hand = now_hand
    views = [b for i, s in enumerate(sockets) for k, b in s.frames[mark[i]:]
             if k in ("view", "viewDelta")]
    total_bytes = sum(b for i, s in enumerate(sockets) for _, b in s.frames[mark[i]:])
    await rooms.stop()
    # recovery: a fresh server process's view of the store, restoring this room where it stopped (mid-hand:
    # its last snapshot plus the log rows after it, re-applied)
    replayed = getattr(room, "log_only", 0)
    t0 = time.process_time()
    again = Rooms(PokerEngine(), Store(data / "pokerroom.sqlite3"))
    await again.start()
    recover_ms = (time.process_time() - t0) * 1000
    await again.stop()
    out: dict[str, Any] = {
        "recover_ms": recover_ms,
        "replayed_rows": replayed,
        "cpu_ms_per_action": cpu / args.actions * 1000,
        "view_bytes_median": statistics.median(views),
        "view_bytes_p90": sorted(views)[int(0.9 * len(views))],
        "bytes_per_socket_per_hand": total_bytes / len(sockets) / max(1, hands),
        "hands": hands,
        "actions": args.actions,
        "deltas": deltas,
    }
    if profiler is not None:
        stats = pstats.Stats(profiler)
        if args.profile_out:  # for pstats' callers/callees (who calls a hot builtin such as dict.get)
            profiler.dump_stats(args.profile_out)
        rows = []
        for (file, line, name), (_cc, _nc, _tt, ct, _callers) in stats.stats.items():  # type: ignore[attr-defined]
            if "pokerroom" in file or name in ("dumps", "loads") or args.profile_all:
                rows.append((ct / args.actions * 1000, f"{Path(file).name}:{line} {name}"))
        out["profile"] = sorted(rows, reverse=True)[:args.profile_rows]
        own = sorted(((tt / args.actions * 1000, f"{Path(file).name}:{line} {name}")
                      for (file, line, name), (_cc, _nc, tt, _ct, _callers)
                      in stats.stats.items()), reverse=True)  # type: ignore[attr-defined]
        out["profile_own"] = own[:args.profile_rows]
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mode", default="holdem")
    ap.add_argument("--players", type=int, default=6)
    ap.add_argument("--spectators", type=int, default=2)
    ap.add_argument("--actions", type=int, default=600)
    ap.add_argument("--warm", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--idle-rooms", type=int, default=0, help="other rooms with a game under way (GC load)")
    ap.add_argument("--hints", action="store_true")
    ap.add_argument("--no-deltas", dest="deltas", action="store_false",
                    help="full view frames only (default: opt in to viewDelta where the tree has it)")
    ap.add_argument("--store-inline", action="store_true",
                    help="store writes on the loop thread (measures the writer hand-off; not a mode)")
    ap.add_argument("--profile", action="store_true", help="cProfile: where the time goes (slower)")
    ap.add_argument("--profile-all", action="store_true", help="--profile: list library functions too")
    ap.add_argument("--profile-rows", type=int, default=25)
    ap.add_argument("--profile-out", default="", metavar="PATH",
                    help="--profile: write the last run's raw cProfile stats to PATH (without --other-src)")
    ap.add_argument("--rounds", type=int, default=3, help="runs of each tree (best CPU figure is kept)")
    ap.add_argument("--other-src", default="", help="also measure pokerroom imported from this src dir")
    ap.add_argument("--compare-hints", action="store_true",
                    help="measure this tree with hints off and on, interleaved, and print the ratio")
    ap.add_argument("--chunk", type=int, default=25, help="--compare-hints: actions a side takes per turn")
    ap.add_argument("--hint-variant", choices=HINT_VARIANTS, default="real",
                    help="--compare-hints: leave a part of the hint out on its side (a measurement aid)")
    ap.add_argument("--json", action="store_true", help=argparse.SUPPRESS)  # one run, figures as JSON
    ap.add_argument("--paired", action="store_true", help=argparse.SUPPRESS)  # with --json: hints off and on
    args = ap.parse_args()
    if args.json:
        print(json.dumps(asyncio.run(measure_paired(args) if args.paired else measure(args))))
        return 0

    if args.compare_hints:
        return compare_hints(args)

    def run(src: str | None) -> dict[str, Any]:
        env = dict(os.environ)
        if src:
            env["PYTHONPATH"] = src
        argv = [a for a in sys.argv[1:] if not a.startswith("--other-src")]
        if args.other_src:
            argv = [a for a in argv if a != args.other_src]
        proc = subprocess.run([sys.executable, __file__, *argv, "--json"], env=env, capture_output=True,
                              text=True, check=True)
        result: dict[str, Any] = json.loads(proc.stdout.strip().splitlines()[-1])
        return result

    trees = [("this tree", None)] + ([("other", args.other_src)] if args.other_src else [])
    best: dict[str, dict[str, Any]] = {}
    every: dict[str, list[float]] = {name: [] for name, _src in trees}
    for r in range(args.rounds):
        # interleaved, so both see the same machine load, and in alternating order: the tree measured first
        # in a round measured ~6 % slower than an identical second one
        for name, src in (trees if r % 2 == 0 else trees[::-1]):
            figures = run(src)
            every[name].append(figures["cpu_ms_per_action"])
            if name not in best or figures["cpu_ms_per_action"] < best[name]["cpu_ms_per_action"]:
                best[name] = figures
    print(f"{args.mode}, {args.players} players + {args.spectators} spectators, hints "
          f"{'on' if args.hints else 'off'}, {args.actions} actions after {args.warm} warm-up, best of "
          f"{args.rounds} (CPU time of the whole process; machine load {os.getloadavg()[0]:.1f})")
    print(f"{'tree':<10} {'CPU ms/action':>14} {'view B median':>14} {'view B p90':>11} "
          f"{'B/socket/hand':>14} {'deltas':>7}")
    for name, f in best.items():
        print(f"{name:<10} {f['cpu_ms_per_action']:>14.3f} {f['view_bytes_median']:>14,.0f} "
              f"{f['view_bytes_p90']:>11,} {f['bytes_per_socket_per_hand']:>14,.0f} "
              f"{'on' if f.get('deltas') else 'off':>7}")
    for name, cpus in every.items():  # the spread: on a shared machine one round's figure is noise
        print(f"{name:<10} CPU ms/action of the {len(cpus)} rounds: min {min(cpus):.3f}, median "
              f"{statistics.median(cpus):.3f} ({', '.join(f'{x:.3f}' for x in cpus)})")
    for name, f in best.items():
        print(f"{name:<10} restart: restoring the room mid-hand took {f['recover_ms']:.1f} ms CPU "
              f"({f['replayed_rows']} log rows re-applied after its last snapshot)")
    if "other" in best:
        a, b = best["this tree"], best["other"]
        med = statistics.median(every["this tree"]) / statistics.median(every["other"])
        print(f"this tree / other: CPU {a['cpu_ms_per_action'] / b['cpu_ms_per_action']:.2f}x (medians "
              f"{med:.2f}x), view bytes "
              f"{a['view_bytes_median'] / b['view_bytes_median']:.2f}x, hand traffic "
              f"{a['bytes_per_socket_per_hand'] / b['bytes_per_socket_per_hand']:.2f}x")
    for name, f in best.items():
        if "profile" in f:
            print(f"\n{name}: cumulative ms per action (profiled, so inflated)")
            for ms, where in f["profile"]:
                print(f"  {ms:8.3f}  {where}")
            print(f"\n{name}: own (not cumulative) ms per action (profiled, so inflated)")
            for ms, where in f["profile_own"]:
                print(f"  {ms:8.3f}  {where}")
    return 0


#: ``--hint-variant``: what the hints side leaves out of its hint. ``fixed``: everything (the hint function
#: returns the first offered action's type: what is left is carrying a hint at all, the hand names of every
#: view and the hint's call); ``no-equity``: the equity (a constant 0.5: the digest and the decision are
#: left); ``no-street``: the flop's and the turn's equity (a constant: the street's pass for every seat is
#: left out); ``no-river``: the river's.
HINT_VARIANTS = ("real", "fixed", "no-equity", "no-street", "no-river")


def apply_hint_variant(variant: str) -> None:
    """Patch this process's hint as ``variant`` says (:data:`HINT_VARIANTS`), before the tables open."""
    if variant == "real":
        return
    from pokerroom.bots import policy

    if variant == "fixed":
        from pokerroom.server.room import botseat

        def fixed(view: dict[str, Any]) -> dict[str, Any]:
            return {"type": view["me"]["legalActions"][0]["type"]}

        botseat.load_recommender = lambda: fixed  # type: ignore[assignment,return-value]
        return
    cards = {"no-equity": None, "no-street": (3, 4), "no-river": (5,)}[variant]
    for name in ("hint_equity", "mode_equity"):
        real = getattr(policy, name)

        def constant(sit: Any, _real: Any = real) -> float | None:
            return 0.5 if cards is None or len(sit.board) in cards else _real(sit)  # type: ignore[no-any-return]

        setattr(policy, name, constant)


async def measure_paired(args: argparse.Namespace) -> dict[str, Any]:
    """Hints off and on in one process: two tables (each its own ``Rooms``, store and writer thread) dealt
    the same cards and played with the same scripted choices, their actions taken in turns of ``--chunk``,
    the order alternating. Returns the CPU ms per action of each side over the same ``--actions``.

    Why in one process: CPU per action of one tree moved by up to 30 % from one process to the next on a
    shared machine (load, steal, the frequency of the moment), far more than what hints cost; two sides that
    take turns every few dozen actions see the same moments, so their ratio holds still where the figures of
    separate processes do not. Both share one collector and one heap, as two rooms of one server do."""
    apply_hint_variant(args.hint_variant)
    tables = {False: Table(args, False), True: Table(args, True)}
    for table in tables.values():
        await table.open()
    server_gc()
    cpu = {False: 0.0, True: 0.0}
    for table in tables.values():  # the same warm-up on both sides, outside the window
        done = 0
        while done < args.warm:
            done += (await table.act())[1]
    counted = {False: 0, True: 0}
    turn = 0
    while min(counted.values()) < args.actions:
        for hints in ((False, True) if turn % 2 == 0 else (True, False)):
            table, done = tables[hints], 0
            while done < args.chunk and counted[hints] < args.actions:
                took, changed = await table.act()
                cpu[hints] += took
                done += changed
                counted[hints] += changed
        turn += 1
    for table in tables.values():
        await table.rooms.stop()
    return {"off": cpu[False] / args.actions * 1000, "on": cpu[True] / args.actions * 1000,
            "actions": args.actions}


def hints_rounds(rounds: int = 3, actions: int = 600, mode: str = "holdem", chunk: int = 25,
                 variant: str = "real") -> list[tuple[float, float]]:
    """(CPU ms per action with hints off, with hints on) of ``rounds`` fresh processes, each measuring both
    sides in turns (:func:`measure_paired`)."""
    figures: list[tuple[float, float]] = []
    for _ in range(rounds):
        argv = [sys.executable, __file__, "--json", "--paired", "--actions", str(actions), "--mode", mode,
                "--chunk", str(chunk), "--hint-variant", variant]
        proc = subprocess.run(argv, capture_output=True, text=True, check=True)
        got = json.loads(proc.stdout.strip().splitlines()[-1])
        figures.append((got["off"], got["on"]))
    return figures


def hints_ratio(rounds: int = 3, actions: int = 600, mode: str = "holdem") -> tuple[float, float, float]:
    """(CPU ms per action with hints off, with hints on, on / off): the round with the median ratio of
    :func:`hints_rounds` (each round's two sides measured in turns in one process)."""
    figures = sorted(hints_rounds(rounds, actions, mode), key=lambda pair: pair[1] / pair[0])
    off, on = figures[len(figures) // 2]
    return off, on, on / off


def compare_hints(args: argparse.Namespace) -> int:
    figures = hints_rounds(args.rounds, args.actions, args.mode, args.chunk, args.hint_variant)
    ratios = sorted(on / off for off, on in figures)
    pairs = ", ".join(f"{on:.3f}/{off:.3f} ({on / off:.2f}x)" for off, on in figures)
    variant = "" if args.hint_variant == "real" else f" (hint variant: {args.hint_variant})"
    print(f"{args.mode}{variant}, {args.actions} actions a side, {args.rounds} processes, hints off and "
          f"on in turns of {args.chunk} actions in each: hints on / off, median "
          f"{statistics.median(ratios):.2f}x (range {ratios[0]:.2f}-{ratios[-1]:.2f}x); rounds on/off ms per "
          f"action: {pairs}; machine load "
          f"{os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
