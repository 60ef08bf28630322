"""Free loopback ports and real ``python -m pokerroom serve`` processes, for every test (and benchmark) that
needs the command line itself: printed addresses, the Host allow-list, SIGKILL and SIGTERM, restarts on the
same address, cluster nodes, the browser tests' server.

Why one module: start, wait until it answers, read its output, stop it — written once, every server process
in the suite behaves the same and reports a failed start the same way (its output, not a bare timeout).

The port race: a port found free is closed again before the server binds it, so another process may take it
in between. A server whose port the harness picked and that dies with "address already in use" is started
again on another port; a caller that fixed the port (a restart on the same address) gets the error. Arguments
may hold ``{port}`` (e.g. a ``--public-url`` naming the port), filled in at each start. The in-process test
server (tests/server/server_helpers.py) needs none of this: it binds port 0 and reads the port it got.

A process the harness cannot restart on another port (nginx, whose port is written into a node's public URL
before it starts) takes :func:`fixed_port`: a port below the kernel's ephemeral range, which no outgoing
connection is ever given (the race a port from :func:`free_port` loses is mostly to those: a test's own
client sockets and database connections take ports from that range all the time).
"""

from __future__ import annotations

import os
import random
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar, TypeAlias

import httpx

from forked_serve import ForkedProcess, forkable, limit_open_files, zygote

ROOT = Path(__file__).resolve().parents[1]
START_ATTEMPTS = 3


def free_port() -> int:
    """A loopback port nothing listens on right now (see the port race above)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def fixed_port() -> int:
    """A loopback port nothing listens on right now, below the ephemeral range (see above)."""
    try:
        low = int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        low = 32768
    for _ in range(200):
        port = random.randrange(10_000, max(10_001, low))
        if port in _GIVEN:  # (two asked for in a row are not yet listening: never hand one out twice)
            continue
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            _GIVEN.add(port)
            return port
    raise RuntimeError("no free loopback port below the ephemeral range")


_GIVEN: set[int] = set()


class ServeProcess:
    """``pokerroom serve --port <port> --data-dir <data> *extra`` (stdout and stderr to ``data/serve-*.log``).

    ``start()`` runs it, ``wait()`` polls ``ready_path`` until 200 (retrying the port race), ``stop()`` is
    SIGTERM then SIGKILL, ``kill()`` SIGKILL; ``start()`` again restarts it on the same port and log.
    """

    ready_path = "/healthz"
    #: fork from a warm parent instead of a fresh interpreter (tests/forked_serve.py): the test suite sets it;
    #: a benchmark measuring a server's own CPU from its start keeps the fresh interpreter
    fork: ClassVar[bool] = False

    def __init__(self, data: Path, *extra: str, port: int | None = None, env: dict[str, str] | None = None,
                 log_level: str = "warning", warm_up: bool = False, nofile: int | None = None,
                 name: str = "serve") -> None:
        data.mkdir(parents=True, exist_ok=True)
        self.data = data
        self.extra = extra
        self.fixed_port = port is not None
        self.port = port or free_port()
        self.env = env or {}
        self.log_level = log_level
        self.warm_up = warm_up
        self.nofile = nofile
        self.log = data / f"{name}.log"
        self.proc: subprocess.Popen[bytes] | ForkedProcess | None = None
        self.starts = 0
        self.served = False  # it answered once: its port is its address from now on (restarts keep it)
        self._mark = 0  # where this start's output begins in the log

    def command(self) -> list[str]:
        args = [a.format(port=self.port) if "{port}" in a else a for a in self.extra]
        return [sys.executable, "-m", "pokerroom", "serve", "--port", str(self.port), "--data-dir",
                str(self.data), "--log-level", self.log_level, *(() if self.warm_up else ("--no-warm-up",)),
                *args]

    def _limits(self) -> None:
        if self.nofile is not None:  # like ``ulimit -n`` for the server alone
            limit_open_files(self.nofile)

    def start(self) -> ServeProcess:
        assert not self.alive(), f"{self.log.name}: already running"
        self.starts += 1
        with self.log.open("ab") as fh:
            fh.write(f"\n=== start {self.starts} (port {self.port}) ===\n".encode())
            fh.flush()
            self._mark = fh.tell()
        env = {**os.environ, "PYTHONUNBUFFERED": "1", **self.env}
        if self.fork and forkable(self.env):  # forked from this worker's warm parent (tests/forked_serve.py)
            self.proc = zygote().spawn(self.command()[3:], env, self.log, self.nofile)
            return self
        with self.log.open("ab") as fh:
            limits = self._limits if self.nofile is not None else None
            self.proc = subprocess.Popen(self.command(), stdout=fh, stderr=subprocess.STDOUT, cwd=str(ROOT),
                                         env=env, preexec_fn=limits)
        return self

    def wait(self, timeout: float = 30.0) -> ServeProcess:
        """Until ``ready_path`` answers 200; the server's output is in the error if it dies or never does."""
        attempts = 1
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if self.proc is not None and self.proc.poll() is not None:
                if not (self.fixed_port or self.served) and attempts < START_ATTEMPTS and \
                        "address already in use" in self.output(since_start=True).lower():
                    attempts += 1
                    self.port = free_port()
                    self.start()
                    continue
                raise RuntimeError(f"{self.log.name} died (exit {self.proc.returncode}):\n"
                                   f"{self.output()[-4000:]}")
            if self.answers():
                self.served = True
                return self
            time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"{self.log.name} did not come up within {timeout}s:\n{self.output()[-4000:]}")

    def answers(self) -> bool:
        try:
            return httpx.get(f"{self.http}{self.ready_path}", timeout=1.0).status_code == 200
        except httpx.HTTPError:
            return False

    def up(self) -> ServeProcess:
        return self.start().wait()

    # --- what a test reads -------------------------------------------------------------------------------

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def ws_url(self, code: str) -> str:
        return f"ws://127.0.0.1:{self.port}/ws/{code}"

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def output(self, since_start: bool = False) -> str:
        if not self.log.exists():
            return ""
        raw = self.log.read_bytes()
        return (raw[self._mark:] if since_start else raw).decode("utf-8", errors="replace")

    def rss_mb(self) -> float:
        """Resident memory of the server, from /proc (psutil may not be installed)."""
        assert self.proc is not None
        for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024.0
        return 0.0

    def create_room(self, nickname: str = "방장", **options: Any) -> dict[str, Any]:
        r = httpx.post(f"{self.http}/api/rooms", json={"nickname": nickname, "options": options}, timeout=10)
        assert r.status_code == 201, r.text
        data: dict[str, Any] = r.json()
        return data

    def healthz(self, timeout: float = 5.0) -> dict[str, Any]:
        data: dict[str, Any] = httpx.get(f"{self.http}/healthz", timeout=timeout).json()
        return data

    # --- what happens to it ------------------------------------------------------------------------------

    def signal(self, sig: int) -> None:
        assert self.proc is not None
        os.kill(self.proc.pid, sig)

    def kill(self) -> None:
        """SIGKILL: no goodbye, no last write."""
        if self.alive():
            self.signal(signal.SIGKILL)
        if self.proc is not None:
            self.proc.wait(timeout=10)

    def stop(self) -> None:
        """SIGTERM (a graceful drain), SIGKILL if it has not exited within 10 s."""
        if self.alive():
            assert self.proc is not None
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()


#: the ``serve_process`` fixture (tests/conftest.py): ``serve_process(*extra, data=None, wait=True, **kw)``
Serve: TypeAlias = Callable[..., "ServeProcess"]


def serve(data: Path, *extra: str, wait: bool = True, **kw: Any) -> ServeProcess:
    """A started ``pokerroom serve`` (waited for unless ``wait=False``); ``kw`` as :class:`ServeProcess`."""
    srv = ServeProcess(data, *extra, **kw).start()
    return srv.wait() if wait else srv

