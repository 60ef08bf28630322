"""Node processes for the cluster benchmarks (load.py --nodes N, failover.py): N ``pokerroom serve --redis
--database`` nodes on free 127.0.0.1 ports, on a PostgreSQL database and a Redis key prefix of their own
(created here, removed afterwards), and which node owns a room (its Redis lease).

Redis and PostgreSQL are the machine's (``--redis`` / ``--pg``; defaults as tests/services.py): only the
benchmark's own database and keys are created and removed, the services themselves are never touched.
"""

from __future__ import annotations

import os
import secrets
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx

HOST = "127.0.0.1"
REDIS_URL = os.environ.get("POKERROOM_TEST_REDIS", "redis://127.0.0.1:6379/0")
PG_ADMIN_URL = os.environ.get("POKERROOM_TEST_PG", "postgresql://postgres@127.0.0.1:5432/postgres")


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        port: int = s.getsockname()[1]
        return port


@dataclass
class Node:
    node_id: str
    port: int
    command: list[str]
    log: Path
    proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        with self.log.open("ab") as fh:
            self.proc = subprocess.Popen(self.command, stdout=fh, stderr=subprocess.STDOUT)

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def wait_ready(self, timeout: float = 60.0) -> None:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if not self.alive():
                raise RuntimeError(f"node {self.node_id} died; see {self.log}")
            try:
                if httpx.get(f"http://{HOST}:{self.port}/readyz", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise RuntimeError(f"node {self.node_id} not ready; see {self.log}")

    def kill(self) -> None:
        assert self.proc is not None
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)


@dataclass
class Nodes:
    """N nodes sharing a fresh database and key prefix; ``with Nodes(...) as nodes:`` starts and removes."""

    count: int
    extra: tuple[str, ...] = ()
    lease_ttl: float = 5.0
    redis_url: str = REDIS_URL
    pg_admin_url: str = PG_ADMIN_URL
    nodes: list[Node] = field(default_factory=list)
    prefix: str = ""
    database: str = ""

    def __enter__(self) -> Nodes:
        import psycopg

        tag = secrets.token_hex(4)
        self.prefix = f"prbench:{tag}"
        self.database = f"pokerroom_bench_{tag}"
        with psycopg.connect(self.pg_admin_url, autocommit=True) as admin:
            admin.execute(f'CREATE DATABASE "{self.database}"')
        db_url = f"{self.pg_admin_url.rpartition('/')[0]}/{self.database}"
        logs = Path(os.environ.get("TMPDIR", "/tmp")) / f"pokerroom-bench-{tag}"
        logs.mkdir(parents=True, exist_ok=True)
        for i in range(self.count):
            node_id, port = f"bench{i + 1}-{tag}", free_port()
            data = logs / node_id
            data.mkdir(exist_ok=True)
            cmd = [sys.executable, "-m", "pokerroom", "serve", "--host", HOST, "--port", str(port),
                   "--data-dir", str(data), "--log-level", "warning", "--redis", self.redis_url,
                   "--database", db_url, "--node-id", node_id, "--redis-prefix", self.prefix,
                   "--lease-ttl", str(self.lease_ttl),
                   # every scripted client comes from this one address: lift the per-address caps
                   "--rooms-per-address", "0", "--room-creations-per-minute", "0",
                   "--connections-per-address", "0", *self.extra]
            self.nodes.append(Node(node_id, port, cmd, logs / f"{node_id}.log"))
        try:
            for node in self.nodes:
                node.start()
            for node in self.nodes:
                node.wait_ready()
        except BaseException:
            self.__exit__(None, None, None)
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        import psycopg
        import redis

        for node in self.nodes:
            node.stop()
        with psycopg.connect(self.pg_admin_url, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{self.database}" WITH (FORCE)')
        client = redis.Redis.from_url(self.redis_url)
        keys = list(client.scan_iter(match=f"{self.prefix}:*", count=1000))
        if keys:
            client.delete(*keys)
        client.close()

    @property
    def ports(self) -> list[int]:
        return [n.port for n in self.nodes]

    @property
    def pids(self) -> list[int]:
        return [n.proc.pid for n in self.nodes if n.proc is not None and n.alive()]


def owner_port(redis_url: str, prefix: str, code: str, ports_by_id: dict[str, int]) -> int | None:
    """The port of the node holding the room's lease (``<prefix>:lease:<code>``), None if nobody holds it."""
    import redis

    client = redis.Redis.from_url(redis_url, socket_timeout=2)
    try:
        value = client.get(f"{prefix}:lease:{code}")
    finally:
        client.close()
    return None if value is None else ports_by_id.get(value.decode())
