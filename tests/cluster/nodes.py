"""Real ``python -m pokerroom serve --redis ... --database ...`` node processes for the cluster tests,
and what a test does to them: SIGKILL, SIGSTOP/SIGCONT, SIGTERM, restart, wait for /readyz,
and find which node owns a room.

Why processes and not in-process apps: a node's death, a frozen node and a rolling restart are things that
happen to processes; only real ones show what a player would see. Each test gets its own Redis key prefix
and PostgreSQL database (tests/services.py), so tests never see each other's rooms or leases.
"""

from __future__ import annotations

import contextlib
import secrets
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx

from serving import ServeProcess

LEASE_TTL = 2.0  # seconds; tests may use 2 s (the default is 5)
TAKEOVER_BUDGET = LEASE_TTL + 2.0  # "another node takes the room over within lease TTL + 2 s"


class Node(ServeProcess):
    """One ``pokerroom serve --redis ... --database ...`` node on a free 127.0.0.1 port (tests/serving.py);
    restartable on the same port and id. Ready means ``/readyz`` answers 200 (Redis, PostgreSQL and the
    lease keeper are up), not just that the process listens."""

    ready_path = "/readyz"

    def __init__(self, tmp: Path, node_id: str, redis_url: str, database_url: str, prefix: str,
                 *extra: str, lease_ttl: float = LEASE_TTL, port: int | None = None) -> None:
        super().__init__(tmp / f"data-{node_id}", "--host", "127.0.0.1", "--log-format", "json",
                         "--redis", redis_url, "--database", database_url, "--node-id", node_id,
                         "--redis-prefix", prefix, "--lease-ttl", str(lease_ttl),
                         # every scripted client comes from 127.0.0.1: lift the per-address caps (as load.py)
                         "--rooms-per-address", "0", "--room-creations-per-minute", "0",
                         "--connections-per-address", "0", *extra, port=port, name=f"node-{node_id}")
        self.node_id = node_id
        self.stopped = False  # SIGSTOPped

    def start(self) -> Node:
        super().start()
        self.stopped = False
        return self

    def wait_ready(self, timeout: float = 60.0) -> Node:
        self.wait(timeout)
        return self

    def health(self) -> dict[str, Any]:
        data: dict[str, Any] = httpx.get(f"{self.http}/healthz", timeout=5).json()
        return data

    def metrics(self) -> str:
        return httpx.get(f"{self.http}/metrics", timeout=5).text

    # --- what happens to a node ------------------------------------------------------------------------

    def kill(self) -> None:
        """SIGKILL: no goodbye, no last write, the lease just stops being renewed."""
        if self.stopped and self.alive():
            self.cont()
        super().kill()

    def pause(self) -> None:
        """SIGSTOP: the process keeps its sockets and its belief that it owns its rooms."""
        self.signal(signal.SIGSTOP)
        self.stopped = True

    def cont(self) -> None:
        self.signal(signal.SIGCONT)
        self.stopped = False

    def terminate(self, timeout: float = 60.0) -> int:
        """SIGTERM and wait: a graceful shutdown (finish writes, hand rooms over, close sockets 4012)."""
        assert self.proc is not None
        if self.stopped:
            self.cont()
        self.proc.terminate()
        try:
            return self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            # what it was stuck on: the server logs its pending tasks after 5 s of shutdown, and SIGUSR1
            # makes it print every thread's stack (faulthandler); both end up in its output file
            self.signal(signal.SIGUSR1)
            time.sleep(1.0)
            self.proc.kill()
            self.proc.wait(timeout=10)
            raise AssertionError(f"{self.node_id} did not exit {timeout:.0f} s after SIGTERM:\n"
                                 f"{self.output()[-6000:]}") from None

    def close(self) -> None:
        self.kill()


class Cluster:
    """N nodes on one Redis (a prefix of their own) and one PostgreSQL database."""

    def __init__(self, tmp: Path, n: int, redis_url: str, database_url: str, prefix: str, *extra: str,
                 lease_ttl: float = LEASE_TTL) -> None:
        self.tmp = tmp
        self.redis_url = redis_url
        self.database_url = database_url
        self.prefix = prefix
        tag = secrets.token_hex(2)
        self.nodes = [Node(tmp, f"node{i + 1}-{tag}", redis_url, database_url, prefix, *extra,
                           lease_ttl=lease_ttl) for i in range(n)]

    def start(self) -> Cluster:
        for node in self.nodes:
            node.start()
        for node in self.nodes:
            node.wait_ready()
        return self

    def __getitem__(self, i: int) -> Node:
        return self.nodes[i]

    def by_id(self, node_id: str) -> Node:
        return next(n for n in self.nodes if n.node_id == node_id)

    def close(self) -> None:
        for node in self.nodes:
            node.close()

    def logs(self) -> str:
        return "\n".join(f"----- {n.node_id} (port {n.port}) -----\n{n.output()[-6000:]}" for n in self.nodes)

    # --- rooms -----------------------------------------------------------------------------------------

    def create_room(self, via: Node | None = None, nickname: str = "방장", **options: Any) -> dict[str, Any]:
        node = via or self.nodes[0]
        r = httpx.post(f"{node.http}/api/rooms", json={"nickname": nickname, "options": options}, timeout=10)
        assert r.status_code == 201, r.text
        data: dict[str, Any] = r.json()
        return data

    def owner(self, code: str) -> Node | None:
        """The node the room's Redis lease names (``<prefix>:lease:<code>``, pokerroom.cluster.keys), or
        None while nobody holds it (between owners, or Redis is down)."""
        import redis

        client = redis.Redis.from_url(self.redis_url, socket_timeout=2)
        try:
            value = client.get(f"{self.prefix}:lease:{code}")
        except redis.RedisError:
            return None
        finally:
            client.close()
        if value is None:
            return None
        holder = value.decode("utf-8", "replace")
        node = next((n for n in self.nodes if n.node_id == holder), None)
        assert node is not None, f"room {code}: the lease names {holder!r}, not one of this cluster's nodes"
        return node

    def wait_owner(self, code: str, *, not_: Node | None = None, timeout: float = 15.0) -> Node:
        """Wait until a live node other than ``not_`` holds the room's lease."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            node = self.owner(code)
            if node is not None and node is not not_ and node.alive() and not node.stopped:
                return node
            time.sleep(0.05)
        raise AssertionError(f"no new owner of {code} within {timeout}s (now {self.owner(code)})\n"
                             + self.logs())


@contextlib.contextmanager
def running_cluster(tmp: Path, n: int, *extra: str, redis_url: str | None = None,
                    database_url: str | None = None, lease_ttl: float = LEASE_TTL,
                    tag: str = "c", started: int | None = None) -> Iterator[tuple[Cluster, str]]:
    """A started cluster of ``n`` nodes on a fresh database and key prefix; yields it and the database URL
    the test reads directly (the nodes may be given another, e.g. through a proxy). ``started``: start only
    the first so many nodes (the test starts the others itself)."""
    from services import REDIS_URL, fresh_database, redis_prefix

    with fresh_database(tag) as db, redis_prefix(tag) as prefix:
        cluster = Cluster(tmp, n, redis_url or REDIS_URL, database_url_for(database_url, db), prefix, *extra,
                          lease_ttl=lease_ttl)
        try:
            for node in cluster.nodes[:started]:
                node.start()
            for node in cluster.nodes[:started]:
                node.wait_ready()
            yield cluster, db
        finally:
            cluster.close()


def database_url_for(template: str | None, db: str) -> str:
    """``template`` may hold ``{db}`` (the fresh database's name), e.g. a proxy's URL."""
    if template is None:
        return db
    return template.format(db=db.rpartition("/")[2])
