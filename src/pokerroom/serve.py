"""``pokerroom serve``: the composition root: flags become a config, and the room server (Starlette on
uvicorn) is wired with the embedded SQLite store, or behind ``--redis`` as a cluster node.

Why here, above both ``server`` and ``cluster``: the single-node server never imports the cluster, and the
cluster imports the server, so only a module above both may choose between them (lazily, behind the flag).

Why flags and not a config file: the README's two commands must just work on a fresh machine; every knob
has a safe default (127.0.0.1:8000, ./data, same-origin websockets only).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import sys
from pathlib import Path
from typing import Any

from pokerroom.server.edge.hosts import Addresses, PublicUrlError, is_loopback, resolve_addresses
from pokerroom.server.edge.limits import Limits
from pokerroom.server.ops.identity import node_id


def register(subparsers: Any) -> None:
    """Add the ``serve`` sub-command to the top-level parser."""
    p: argparse.ArgumentParser = subparsers.add_parser(
        "serve", help="방 서버 실행 (run the room server)",
        description="Run the poker room server: web client, websocket rooms and the SQLite store.")
    p.add_argument("--host", default="127.0.0.1",
                   help="listen address (default 127.0.0.1: only this machine; 0.0.0.0 for friends on the "
                        "same Wi-Fi, the invite link then uses this machine's LAN address)")
    p.add_argument("--port", type=int, default=8000, help="listen port (default 8000)")
    p.add_argument("--data-dir", default="data", help="directory of the SQLite store (default ./data)")
    p.add_argument("--allowed-origin", action="append", default=[], metavar="ORIGIN",
                   help="extra websocket Origin to accept, e.g. https://poker.example (repeatable)")
    p.add_argument("--public-url", default=os.environ.get("POKERROOM_PUBLIC_URL") or None, metavar="URL",
                   help="base of the invite links rooms hand out, e.g. https://poker.example behind a "
                        "reverse proxy or tunnel (env POKERROOM_PUBLIC_URL); its host is also accepted")
    p.add_argument("--allowed-host", action="append", default=[], metavar="NAME",
                   help="extra Host name to answer, e.g. my-laptop.local (repeatable; '*' accepts any, "
                        "which gives up DNS-rebinding protection)")
    p.add_argument("--idle-close", type=float, default=1800.0, metavar="SECONDS",
                   help="close a room with no player connected (spectators do not count) after this long "
                        "(default 1800)")
    p.add_argument("--max-rooms", type=int, default=1000)
    p.add_argument("--max-connections", type=int, default=5000,
                   help="websocket connections in all (default 5000; capped by the descriptor limit)")
    p.add_argument("--rooms-per-address", type=int, default=30, metavar="N",
                   help="open rooms one client address may have created (default 30; 0 = no cap)")
    p.add_argument("--room-creations-per-minute", type=float, default=10.0, metavar="N",
                   help="rooms one client address may create per minute (default 10; 0 = no rate)")
    p.add_argument("--connections-per-address", type=int, default=100, metavar="N",
                   help="open TCP connections from one client address (default 100; 0 = no cap, and no "
                        "per-client rate of new connections, websockets or hellos either)")
    p.add_argument("--connections-per-room", type=int, default=200, metavar="N",
                   help="websockets one room may have, counted over every node (a cluster node; default "
                        "200; 0 = no cap)")
    p.add_argument("--connections-per-second-per-address", type=float, default=20.0, metavar="N",
                   help="new TCP connections a second from one client (IPv6: one /64), past a burst of "
                        "--connections-per-address (default 20; 0 = no rate)")
    p.add_argument("--trusted-proxy", action="append", default=[], metavar="IP",
                   help="a reverse proxy whose X-Forwarded-For is believed (repeatable; default none)")
    p.add_argument("--hello-timeout", type=float, default=10.0, metavar="SECONDS",
                   help="close a websocket that has not said hello after this long (default 10)")
    p.add_argument("--header-timeout", type=float, default=10.0, metavar="SECONDS",
                   help="close an HTTP connection whose request headers or body take longer (default 10)")
    p.add_argument("--busy-timeout-ms", type=int, default=5000, help=argparse.SUPPRESS)
    p.add_argument("--time-scale", type=float, default=1.0, help=argparse.SUPPRESS)
    p.add_argument("--bot-delay-ms", type=int, default=800, help=argparse.SUPPRESS)
    p.add_argument("--no-warm-up", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--engine", default=None, help=argparse.SUPPRESS)  # "module:factory", tests only
    p.add_argument("--log-level", default="info")
    p.add_argument("--loop", choices=("asyncio", "uvloop", "auto"), default="asyncio",
                   help="event loop (default asyncio; uvloop needs the uvloop package; auto: uvloop where "
                        "installed). load.py measured no CPU gain from uvloop (docs/operations.md)")
    cluster = p.add_argument_group(
        "cluster", "Run as one node of many on a shared Redis and PostgreSQL: any node "
        "serves any room. Without --redis the server is one process on SQLite and imports none of this.")
    env = os.environ.get
    cluster.add_argument("--redis", default=env("POKERROOM_REDIS_URL") or None, metavar="URL",
                         help="Redis for leases, routing and cluster-wide limits, e.g. "
                              "redis://127.0.0.1:6379/0 (env POKERROOM_REDIS_URL); needs --database")
    cluster.add_argument("--database", default=env("POKERROOM_DATABASE_URL") or None, metavar="URL",
                         help="PostgreSQL, the rooms' source of truth, e.g. postgresql://user@host/db "
                              "(env POKERROOM_DATABASE_URL)")
    cluster.add_argument("--node-id", default=env("POKERROOM_NODE_ID") or None, metavar="ID",
                         help="this node's id, unique in the cluster (env POKERROOM_NODE_ID; default "
                              "host:port)")
    cluster.add_argument("--redis-prefix", default=env("POKERROOM_REDIS_PREFIX") or "pokerroom",
                         metavar="P", help="prefix of every Redis key (env POKERROOM_REDIS_PREFIX; default "
                                           "pokerroom)")
    cluster.add_argument("--lease-ttl", type=float, default=float(env("POKERROOM_LEASE_TTL") or 5.0),
                         metavar="SECONDS", help="room lease TTL: a dead node's rooms move within about this "
                                                 "+ 2 s (env POKERROOM_LEASE_TTL; default 5)")
    cluster.add_argument("--route-to-owner", action="store_true",
                         default=(env("POKERROOM_ROUTE_TO_OWNER") or "") not in ("", "0"),
                         help="tell a socket relayed to another node which node owns its room, so the web "
                              "client reconnects with ?node=<id> (and every socket its node and the other "
                              "live ones, so a client that finds its node stopped asks for another); only "
                              "behind a proxy that routes that to the node (deploy/nginx-cluster.conf; env "
                              "POKERROOM_ROUTE_TO_OWNER=1)")
    gather = env("POKERROOM_STORE_GATHER_MS")
    cluster.add_argument("--store-gather-ms", type=float, default=float(gather) if gather else None,
                         metavar="MS", help="while busy, how long a store write waits for others "
                                            "to share its PostgreSQL transaction (env "
                                            "POKERROOM_STORE_GATHER_MS; default 8; 0: never)")
    p.add_argument("--log-format", choices=("text", "json"),
                   default=(os.environ.get("POKERROOM_LOG_FORMAT") or "text").lower(),
                   help="text (default) or json: one JSON object per line with time, level, message, node id "
                        "and room code (env POKERROOM_LOG_FORMAT)")
    p.set_defaults(func=run)


def _load_engine(spec: str | None) -> Any:
    """An alternative engine factory ``module:callable`` (the crash tests run a stand-in engine)."""
    if not spec:
        return None
    import importlib

    module, _, attr = spec.partition(":")
    return getattr(importlib.import_module(module), attr)()


def describe(addresses: Addresses, listen_host: str) -> str:
    """What ``serve`` prints before it starts: where to open the page and which link friends get."""
    share = addresses.share_url
    lines = [f"pokerroom: 이 컴퓨터에서 열기  {addresses.open_url}",
             f"pokerroom: 친구에게 보낼 주소  {share}  (방 링크: {share}/r/<코드>)"]
    if addresses.lan_fallback:
        lines.append("pokerroom: LAN 주소를 찾지 못해 링크가 이 컴퓨터에서만 열려요. "
                     "--public-url 로 주소를 정해 주세요.")
    elif share == addresses.open_url and is_loopback(listen_host):
        lines.append("pokerroom: 지금은 이 컴퓨터에서만 들어올 수 있어요. 같은 Wi-Fi 친구와 하려면 "
                     "--host 0.0.0.0 (make run HOST=0.0.0.0)")
    return "\n".join(lines)


def node_id_of(args: argparse.Namespace) -> str:
    """This node's id: ``--node-id`` (cluster flags), ``POKERROOM_NODE_ID``, else host name and port."""
    return node_id(getattr(args, "node_id", None), args.port)


#: uvicorn's own wait for the connections' tasks after the drain (which closed every socket): a task that
#: still runs after this is cancelled, so a stuck handler can never keep a SIGTERMed node alive
SHUTDOWN_TIMEOUT_S = 10
#: a stopping process still alive this long after SIGTERM/SIGINT prints every thread's stack and exits
#: with status 1: the drain (<= 18 s), uvicorn's wait (10 s) and the node's stop (10 s) all fit before it
EXIT_DEADLINE_S = 45.0
#: a shutdown still waiting after this long logs what it waits for (each pending task and where it is)
SHUTDOWN_REPORT_S = 5.0


def report_pending_tasks() -> None:
    """Log every task the event loop still runs, with the line it waits on: why a shutdown is slow."""
    log = logging.getLogger("pokerroom.server")
    pending = [t for t in asyncio.all_tasks() if not t.done() and t is not asyncio.current_task()]
    lines = []
    for task in pending[:50]:
        frames = task.get_stack(limit=6)
        where = " <- ".join(f"{f.f_code.co_name}@{f.f_code.co_filename.rsplit('/', 1)[-1]}:{f.f_lineno}"
                            for f in reversed(frames))
        lines.append(f"{task.get_name()}: {where or '(not started)'}")
    log.warning("shutdown still waiting after %.0f s on %d tasks:\n%s", SHUTDOWN_REPORT_S, len(pending),
                "\n".join(lines))


def draining_server(config: Any, app: Any) -> Any:
    """A uvicorn server that drains the app (drain.py) *before* uvicorn's own shutdown, which would close
    every websocket with 1012 and only then run the lifespan shutdown."""
    import signal

    import uvicorn

    class DrainingServer(uvicorn.Server):
        deadline_armed = False

        def handle_exit(self, sig: int, frame: Any) -> None:
            super().handle_exit(sig, frame)
            if not self.deadline_armed:  # the first signal: from now on the process ends within the deadline
                import faulthandler

                self.deadline_armed = True
                faulthandler.dump_traceback_later(EXIT_DEADLINE_S, exit=True)
            # uvicorn re-raises a captured signal after its shutdown (the process then dies of SIGTERM);
            # a drained node has finished cleanly, so it exits 0 (process managers count that as a success)
            if sig == signal.SIGTERM:
                with contextlib.suppress(ValueError):
                    self._captured_signals.remove(sig)

        async def shutdown(self, sockets: Any = None) -> None:
            for server in self.servers:  # stop accepting first: new connections go to another node
                server.close()
            try:
                await app.state.drain_now()
            except Exception:
                logging.getLogger("pokerroom.server").exception("drain failed")
            watchdog = asyncio.get_running_loop().call_later(SHUTDOWN_REPORT_S, report_pending_tasks)
            try:
                await super().shutdown(sockets)
            finally:
                watchdog.cancel()

    return DrainingServer(config)


def proxy_settings(trusted: list[str]) -> dict[str, Any]:
    """uvicorn's own ``X-Forwarded-For`` handling: off unless ``--trusted-proxy`` names the proxies, and then
    believed from those alone.

    Why: uvicorn's defaults (``proxy_headers=True``, ``forwarded_allow_ips="127.0.0.1,::1"``) rewrite the
    peer address of anything that connects from this machine before the edge's trusted-proxy rule runs, so
    a forged header from the same machine passed the room-creation cap (20 of 20 rooms past a cap of 3), and
    the environment variable ``FORWARDED_ALLOW_IPS`` could widen it further without a flag saying so."""
    if not trusted:
        return {"proxy_headers": False, "forwarded_allow_ips": []}
    return {"proxy_headers": True, "forwarded_allow_ips": list(trusted)}


def run(args: argparse.Namespace) -> int:
    import uvicorn
    from uvicorn.protocols.http.auto import AutoHTTPProtocol
    from uvicorn.protocols.websockets.auto import AutoWebSocketsProtocol

    from pokerroom.server.app import ServerConfig, create_app
    from pokerroom.server.edge.guard import ACCEPT_BACKLOG, ConnectionGuard, descriptor_cap
    from pokerroom.server.storage import Store, StoreError

    try:
        addresses = resolve_addresses(args.host, args.port, args.public_url, args.allowed_host)
    except PublicUrlError as exc:
        print(f"pokerroom serve: {exc}", file=sys.stderr)
        return 2
    data_dir = Path(args.data_dir)
    if bool(args.redis) != bool(args.database):
        print("pokerroom serve: a cluster node needs both --redis and --database", file=sys.stderr)
        return 2
    try:  # a damaged store file fails here, with a sentence, instead of "Application startup failed"
        if not args.redis:
            Store(data_dir / "pokerroom.sqlite3", busy_timeout_ms=args.busy_timeout_ms).close()
    except StoreError as exc:
        print(f"pokerroom serve: {exc}", file=sys.stderr)
        return 2
    print(describe(addresses, args.host), flush=True)
    # Every connection costs a descriptor: the caps stay below the process's limit (ulimit -n), so an
    # accept never fails with EMFILE and the store and static files always get one.
    tcp_cap = descriptor_cap(args.max_connections + 64)
    per_client = {} if args.connections_per_address else {  # one address is every client (tests, benchmarks)
        "sockets_per_second_per_client": 0.0, "hellos_per_second_per_client": 0.0}
    limits = Limits(max_rooms=args.max_rooms, max_connections=min(args.max_connections, tcp_cap),
                    allowed_origins=tuple(args.allowed_origin), rooms_per_address=args.rooms_per_address,
                    room_creations_per_minute=args.room_creations_per_minute,
                    connections_per_address=args.connections_per_address,
                    trusted_proxies=tuple(args.trusted_proxy), hello_timeout_s=args.hello_timeout,
                    header_timeout_s=args.header_timeout, body_timeout_s=args.header_timeout,
                    **per_client)  # type: ignore[arg-type]
    guard = ConnectionGuard(tcp_cap, args.connections_per_address, args.header_timeout,
                            exempt=args.trusted_proxy, per_second=args.connections_per_second_per_address
                            if args.connections_per_address else 0.0)
    http_cls, ws_cls = guard.protocols(AutoHTTPProtocol, AutoWebSocketsProtocol)  # type: ignore[arg-type]
    config = ServerConfig(data_dir=data_dir, limits=limits, time_scale=args.time_scale,
                          idle_close_s=args.idle_close, bot_delay_ms=args.bot_delay_ms,
                          reap_interval_s=min(5.0, max(0.1, args.idle_close / 4)),
                          engine=_load_engine(args.engine), warm_up=not args.no_warm_up, tune_gc=True,
                          busy_timeout_ms=args.busy_timeout_ms, connection_guard=guard,
                          public_url=addresses.share_url, allowed_hosts=addresses.allowed_hosts,
                          node_id=node_id_of(args))
    if args.redis:  # a cluster node: imported only behind the flag (the single process never loads it)
        try:
            from pokerroom.cluster.node import cluster_node
        except ImportError as exc:
            print(f"pokerroom serve: a cluster node needs the cluster extra ({exc.name} is missing): "
                  "pip install 'pokerroom[cluster]'", file=sys.stderr)
            return 2
        try:
            cluster_node(args, limits, node_id_of(args)).configure(config)
        except Exception as exc:
            print(f"pokerroom serve: {exc}", file=sys.stderr)
            return 2
    log_config: Any = uvicorn.config.LOGGING_CONFIG
    if args.log_format == "json":
        from pokerroom.server.ops.logs import set_node_id, uvicorn_log_config

        set_node_id(config.node_id)
        log_config = uvicorn_log_config(args.log_level)
    app = create_app(config)
    # Hand the GIL over sooner (default 5 ms): the store's writer thread waits for it after every SQLite
    # call, and with a busy event loop those waits would add up to whole frames of latency.
    sys.setswitchinterval(0.001)
    # No permessage-deflate: every socket gets its own view, so compression would run once per socket
    # per change and cost more CPU than the JSON itself; frames are ~10 KB, fine on any network.
    # SIGTERM: drain (finish writes, close every socket with 4012), then uvicorn's shutdown, then exit 0
    server = draining_server(uvicorn.Config(
        app, **proxy_settings(args.trusted_proxy),
        host=args.host, port=args.port, log_level=args.log_level, ws_max_size=64 * 1024, loop=args.loop,
        http=http_cls, ws=ws_cls if ws_cls is not None else "auto", backlog=ACCEPT_BACKLOG,
        ws_ping_interval=20.0, ws_ping_timeout=20.0, ws_per_message_deflate=False, lifespan="on",
        access_log=False, log_config=log_config, timeout_graceful_shutdown=SHUTDOWN_TIMEOUT_S), app)
    # `kill -USR1 <pid>` prints every thread's stack to stderr: what a node that will not stop is stuck on
    import faulthandler
    import signal

    faulthandler.register(signal.SIGUSR1, all_threads=True)
    with contextlib.suppress(KeyboardInterrupt):
        server.run()
    return 0 if server.started else 3  # as uvicorn.run: 3 = start-up failed
