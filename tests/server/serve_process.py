"""A real ``python -m pokerroom serve`` in a subprocess, for the tests of what the command line decides
(printed addresses, invite links, the Host allow-list, security headers) — things an in-process
``create_app`` would bypass.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Serve:
    """``pokerroom serve --port <free> --data-dir <tmp> *extra``, started and waited for."""

    def __init__(self, data: Path, *extra: str, env: dict[str, str] | None = None, port: int | None = None):
        self.port = port or free_port()
        self.out = data / f"serve-{self.port}.log"
        cmd = [sys.executable, "-m", "pokerroom", "serve", "--port", str(self.port), "--data-dir", str(data),
               "--log-level", "warning", "--no-warm-up", *extra]
        full_env = {**os.environ, "PYTHONUNBUFFERED": "1", **(env or {})}
        with self.out.open("wb") as fh:
            self.proc = subprocess.Popen(cmd, stdout=fh, stderr=subprocess.STDOUT, env=full_env)

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def wait(self) -> Serve:
        end = time.monotonic() + 30
        while time.monotonic() < end:
            if self.proc.poll() is not None:
                raise RuntimeError("server died:\n" + self.output())
            try:
                if httpx.get(f"{self.http}/healthz", timeout=0.5).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        self.stop()
        raise RuntimeError("server did not come up:\n" + self.output())

    def output(self) -> str:
        return self.out.read_text(encoding="utf-8", errors="replace")

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)


def raw_handshake(port: int, path: str, host: str, origin: str | None = None) -> int:
    """Send a websocket upgrade with exactly this ``Host`` (and ``Origin``) and return the HTTP status."""
    lines = [f"GET {path} HTTP/1.1", f"Host: {host}", "Upgrade: websocket", "Connection: Upgrade",
             "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==", "Sec-WebSocket-Version: 13"]
    if origin is not None:
        lines.append(f"Origin: {origin}")
    with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
        s.sendall(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1"))
        head = b""
        while b"\r\n" not in head:
            chunk = s.recv(1024)
            if not chunk:
                break
            head += chunk
    return int(head.split(b" ", 2)[1])
