"""A TCP proxy the test controls, between a store and the machine's PostgreSQL (never stopped itself).

Why: "PostgreSQL unreachable" must be produced without touching the shared server. :meth:`TcpProxy.cut`
makes the link fail in one of two ways a real network does:

- ``"refuse"``: every connection is closed and new ones are closed on accept (a dead host, a restart);
- ``"blackhole"``: connections stay open but nothing is forwarded either way (a partition, a hung server),
  the case where only the client's own timeouts save it.

:meth:`TcpProxy.restore` forwards again (existing blackholed connections are closed).
"""

from __future__ import annotations

import socket
import threading
from types import TracebackType


class TcpProxy:
    def __init__(self, upstream: tuple[str, int]) -> None:
        self.upstream = upstream
        self.mode = "open"
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.port: int = self._listener.getsockname()[1]
        self._lock = threading.Lock()
        self._socks: list[socket.socket] = []
        self._closed = False
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            with self._lock:
                mode = self.mode
                if mode == "refuse" or self._closed:
                    client.close()
                    continue
                self._socks.append(client)
                if mode == "blackhole":
                    threading.Thread(target=self._pump, args=(client, None), daemon=True).start()
                    continue
            try:
                server = socket.create_connection(self.upstream, timeout=5)
                server.settimeout(None)
            except OSError:
                client.close()
                continue
            with self._lock:
                self._socks.append(server)
            threading.Thread(target=self._pump, args=(client, server), daemon=True).start()
            threading.Thread(target=self._pump, args=(server, client), daemon=True).start()

    def _pump(self, src: socket.socket, dst: socket.socket | None) -> None:
        try:
            while True:
                data = src.recv(65536)
                if not data:
                    break
                if dst is not None and self.mode == "open":
                    dst.sendall(data)
        except OSError:
            pass
        finally:
            for sock in (src, dst):
                if sock is not None:
                    try:
                        sock.shutdown(socket.SHUT_RDWR)
                    except OSError:
                        pass

    def _close_all(self) -> None:
        with self._lock:
            socks, self._socks = self._socks, []
        for sock in socks:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            sock.close()

    def cut(self, mode: str = "refuse") -> None:
        """Make the link fail: ``"refuse"`` (closed) or ``"blackhole"`` (open, silent)."""
        assert mode in ("refuse", "blackhole")
        self.mode = mode
        if mode == "refuse":
            self._close_all()

    def restore(self) -> None:
        """Forward again; connections opened during a blackhole are closed (they carried nothing)."""
        if self.mode == "blackhole":
            self._close_all()
        self.mode = "open"

    def close(self) -> None:
        self._closed = True
        self._listener.close()
        self._close_all()

    def __enter__(self) -> TcpProxy:
        return self

    def __exit__(self, t: type[BaseException] | None, e: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()
