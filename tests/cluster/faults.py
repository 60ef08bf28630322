"""The faults the cluster tests inject, on processes and sockets the test owns and nothing else:

- :class:`PrivateRedis`: a ``redis-server --port <free> --save ''`` of the test's own, which it may stop and
  start again (the machine's Redis is shared by every helper and is never touched);
- :class:`TcpProxy`: a loopback TCP relay between the nodes and PostgreSQL that the test can ``cut`` (every
  open connection reset, new ones refused) and ``restore`` — PostgreSQL itself keeps running.

Why real processes and sockets: the tests never mock Redis or PostgreSQL; an outage has to look to the
node exactly like one (a reset connection, a refused connect, an empty Redis after a restart).
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import subprocess
import threading
import time
from pathlib import Path

import needs
from serving import fixed_port


class PrivateRedis:
    """A redis-server on a free loopback port, no persistence: a restart comes back empty, like a lost
    Redis (the cluster must rebuild leases and never trust Redis for anything durable)."""

    def __init__(self, tmp: Path) -> None:
        self.binary = needs.redis_server()
        self.tmp = tmp
        self.port = fixed_port()  # (restarted on the same port: never an ephemeral one)
        self.proc: subprocess.Popen[bytes] | None = None
        self.start()

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        assert self.proc is None or self.proc.poll() is not None
        log = (self.tmp / f"redis-{self.port}.log").open("ab")
        self.proc = subprocess.Popen(
            [self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
             "--dir", str(self.tmp), "--protected-mode", "no"], stdout=log, stderr=subprocess.STDOUT)
        end = time.monotonic() + 10
        while time.monotonic() < end:
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", self.port), 0.2) as s:
                s.sendall(b"PING\r\n")
                if s.recv(16).startswith(b"+PONG"):
                    return
            time.sleep(0.05)
        raise RuntimeError("the private redis-server did not start")

    def stop(self) -> None:
        """SIGKILL: Redis vanishes at once, with whatever it held (its leases, its counters)."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=10)

    def restart(self, down_for: float = 0.0) -> None:
        self.stop()
        time.sleep(down_for)
        self.start()


class TcpProxy:
    """A loopback TCP relay to ``target_port`` in a thread of its own (an asyncio loop).

    ``cut()``: every relayed connection is reset and new ones are closed at once, so the node sees
    PostgreSQL as unreachable; ``restore()``: new connections are relayed again.
    """

    def __init__(self, target_port: int, target_host: str = "127.0.0.1") -> None:
        self.target = (target_host, target_port)
        self.port = 0  # bound to port 0 in start_server: the port it got is read back (no race)
        self.up = True
        self.accepted = 0
        self._writers: set[asyncio.StreamWriter] = set()
        self._loop = asyncio.new_event_loop()
        self._ready = threading.Event()
        self._server: asyncio.base_events.Server | None = None
        self._thread = threading.Thread(target=self._run, daemon=True, name="tcp-proxy")
        self._thread.start()
        if not self._ready.wait(10):
            raise RuntimeError("the TCP proxy did not start")

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)

        async def serve() -> None:
            self._server = await asyncio.start_server(self._client, "127.0.0.1", 0)
            self.port = self._server.sockets[0].getsockname()[1]
            self._ready.set()

        self._loop.run_until_complete(serve())
        self._loop.run_forever()

    async def _client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if not self.up:
            self._reset(writer)
            return
        try:
            up_reader, up_writer = await asyncio.open_connection(*self.target)
        except OSError:
            self._reset(writer)
            return
        self.accepted += 1
        self._writers.update((writer, up_writer))

        async def pump(src: asyncio.StreamReader, dst: asyncio.StreamWriter) -> None:
            try:
                while data := await src.read(65536):
                    dst.write(data)
                    await dst.drain()
            except (OSError, asyncio.CancelledError):
                pass
            finally:
                self._reset(dst)

        await asyncio.gather(pump(reader, up_writer), pump(up_reader, writer))
        self._writers.difference_update((writer, up_writer))

    @staticmethod
    def _reset(writer: asyncio.StreamWriter) -> None:
        """Close with RST (SO_LINGER 0), as a dead network path or a crashed peer would."""
        sock = writer.get_extra_info("socket")
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
        writer.close()

    def cut(self) -> None:
        def go() -> None:
            self.up = False
            for w in list(self._writers):
                self._reset(w)
            self._writers.clear()

        self._loop.call_soon_threadsafe(go)
        time.sleep(0.05)

    def restore(self) -> None:
        self._loop.call_soon_threadsafe(lambda: setattr(self, "up", True))
        time.sleep(0.05)

    def close(self) -> None:
        def go() -> None:
            if self._server is not None:
                self._server.close()
            for w in list(self._writers):
                self._reset(w)
            self._loop.stop()

        self._loop.call_soon_threadsafe(go)
        self._thread.join(timeout=5)
