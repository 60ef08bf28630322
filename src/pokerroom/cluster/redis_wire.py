"""The relay's two busy Redis connections, on asyncio protocols: publishes written without waiting for their
answers, and a subscription whose messages hiredis reads as they arrive.

Why not redis-py on this path (decision 0084): measured in two nodes under load with each room's players
split over both, redis-py's pipeline and pub/sub reader took ~0.25 ms of node CPU an action, a sixth of all
the nodes spent (each publish a pipeline object, a task waiting for its answer, and the reply parsed in
Python; each message a ``get_message`` call). The relay needs two commands: ``PUBLISH``, whose answer (how
many subscribers got it) it reads only to find a node that is not listening, and ``SUBSCRIBE``. So the
bytes are framed here and every reply is read by hiredis (the C RESP reader redis-py itself uses when it is
installed); everything else a node asks of Redis (leases, checks, scans) stays on redis-py, whose parsed URL
this module connects to.

Answers to publishes come back in order on one connection, so each is matched to the oldest publish still
waiting for one; a connection lost with publishes unanswered cannot tell which of them Redis saw, and says
so (:meth:`Publisher.unanswered` hands them back as *maybe sent*).
"""

from __future__ import annotations

import asyncio
import ssl
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar, cast

import hiredis

T = TypeVar("T")


class NeverConnected(ConnectionError):
    """No connection could be made (or Redis refused the password): nothing of this attempt was sent."""


@dataclass(frozen=True)
class Endpoint:
    """Where and how to reach the Redis a redis-py client talks to."""

    host: str
    port: int
    path: str | None  # a unix socket instead of host:port
    username: str | None
    password: str | None
    tls: ssl.SSLContext | None
    connect_timeout: float
    reply_timeout: float

    @classmethod
    def of(cls, client: Any) -> Endpoint:
        """The endpoint of a ``redis.asyncio.Redis`` (its pool's connection settings)."""
        pool = client.connection_pool
        kw: dict[str, Any] = pool.connection_kwargs
        tls = None
        if "SSL" in pool.connection_class.__name__:
            tls = ssl.create_default_context(cafile=kw.get("ssl_ca_certs"))
            if kw.get("ssl_certfile"):
                tls.load_cert_chain(kw["ssl_certfile"], kw.get("ssl_keyfile"))
            if kw.get("ssl_cert_reqs") in ("none", ssl.CERT_NONE):
                tls.check_hostname = False
                tls.verify_mode = ssl.CERT_NONE
        return cls(host=kw.get("host", "localhost"), port=int(kw.get("port", 6379)), path=kw.get("path"),
                   username=kw.get("username"), password=kw.get("password"), tls=tls,
                   connect_timeout=float(kw.get("socket_connect_timeout") or 5.0),
                   reply_timeout=float(kw.get("socket_timeout") or 5.0))

    async def open(self, protocol: _Link) -> None:
        """Connect ``protocol`` and log in (``AUTH``) if a password is set; :class:`NeverConnected` if either
        fails."""
        loop = asyncio.get_running_loop()
        try:
            async with asyncio.timeout(self.connect_timeout):
                if self.path is not None:
                    await loop.create_unix_connection(lambda: protocol, self.path)
                else:
                    await loop.create_connection(lambda: protocol, self.host, self.port, ssl=self.tls)
                if self.password is not None:
                    auth = ("AUTH", self.password) if self.username is None else (
                        "AUTH", self.username, self.password)
                    answer = await protocol.ask(auth)
                    if isinstance(answer, Exception):
                        raise NeverConnected(f"Redis refused AUTH: {answer}")
        except (OSError, TimeoutError) as exc:
            protocol.abort()
            raise NeverConnected(f"Error connecting to Redis: {exc}") from exc


def pack(*args: str | bytes) -> bytes:
    """One command in RESP."""
    return bytes(hiredis.pack_command(args))  # type: ignore[arg-type]  # its stub types a 1-tuple


class _Link(asyncio.Protocol):
    """A connection whose replies hiredis reads; each reply goes to :meth:`_reply`."""

    def __init__(self) -> None:
        self.transport: asyncio.Transport | None = None
        self.reader = hiredis.Reader()
        self.closed: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._asked: deque[asyncio.Future[Any]] = deque()  # set-up commands waiting for their answer
        self._paused: asyncio.Future[None] | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)  # uvloop's are not asyncio.Transport subclasses

    def data_received(self, data: bytes) -> None:
        self.reader.feed(data)
        while (reply := self.reader.gets()) is not False:
            if self._asked:
                fut = self._asked.popleft()
                if not fut.done():
                    fut.set_result(reply)
                continue
            self._reply(reply)

    def _reply(self, reply: Any) -> None:
        raise NotImplementedError

    def connection_lost(self, exc: Exception | None) -> None:
        self.transport = None
        for fut in self._asked:
            if not fut.done():
                fut.set_exception(ConnectionError("Redis connection lost"))
        if self._paused is not None and not self._paused.done():
            self._paused.set_result(None)
        if not self.closed.done():
            self.closed.set_result(None)

    def pause_writing(self) -> None:
        self._paused = asyncio.get_running_loop().create_future()

    def resume_writing(self) -> None:
        if self._paused is not None and not self._paused.done():
            self._paused.set_result(None)
        self._paused = None

    async def drained(self) -> None:
        """Returns once the kernel takes what was written (at once, unless Redis is slow to read)."""
        if self._paused is not None:
            await self._paused

    async def ask(self, command: Sequence[str | bytes]) -> Any:
        """Send one set-up command and wait for its answer (an error reply comes back as an exception
        object, as hiredis gives it)."""
        fut: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._asked.append(fut)
        self.write(pack(*command))
        return await fut

    def write(self, data: bytes) -> None:
        if self.transport is None:
            raise ConnectionError("Redis connection lost")
        self.transport.write(data)

    def abort(self) -> None:
        if self.transport is not None:
            self.transport.abort()


class Publisher(_Link, Generic[T]):
    """``PUBLISH`` without waiting: :meth:`publish` writes and returns; each answer is matched, in order, to
    what was published, and ``on_answer(what, answer)`` is called with the count of subscribers that got it,
    or the error Redis answered instead (as an exception object, not raised). An answer overdue by
    ``reply_timeout`` seconds ends the connection (Redis is stuck or the network is gone), checked twice a
    timeout by a timer of the connection's own, so a quiet node finds it too."""

    def __init__(self, on_answer: Callable[[T, int | Exception], None], reply_timeout: float) -> None:
        super().__init__()
        self.on_answer = on_answer
        self.reply_timeout = reply_timeout
        self.waiting: deque[tuple[float, T]] = deque()  # (monotonic time written, what) per answer due
        self._watch: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)
        self._watch = asyncio.get_running_loop().call_later(self.reply_timeout / 2, self._watchdog)

    def _watchdog(self) -> None:
        if self.overdue(self.reply_timeout):
            self.abort()
        elif self.transport is not None:
            self._watch = asyncio.get_running_loop().call_later(self.reply_timeout / 2, self._watchdog)

    def connection_lost(self, exc: Exception | None) -> None:
        if self._watch is not None:
            self._watch.cancel()
        super().connection_lost(exc)

    def publish(self, commands: list[tuple[bytes, bytes, T]]) -> None:
        """Write one ``PUBLISH channel body`` per item; raises ``ConnectionError`` if the link is gone."""
        self.write(b"".join(pack(b"PUBLISH", channel, body) for channel, body, _ in commands))
        now = time.monotonic()
        self.waiting.extend((now, what) for _, _, what in commands)

    def _reply(self, reply: Any) -> None:
        if not self.waiting:
            return
        _, what = self.waiting.popleft()
        self.on_answer(what, reply if isinstance(reply, int | Exception) else ValueError(repr(reply)))

    def overdue(self, timeout: float) -> bool:
        """Has the oldest publish waited for its answer longer than ``timeout`` seconds?"""
        return bool(self.waiting) and time.monotonic() - self.waiting[0][0] > timeout

    def unanswered(self) -> list[T]:
        """What was written but never answered (call after the link is lost): maybe sent."""
        lost = [what for _, what in self.waiting]
        self.waiting.clear()
        return lost


class Subscription(_Link):
    """``SUBSCRIBE`` to some channels; each message's payload goes to ``on_message``."""

    def __init__(self, on_message: Callable[[bytes], None]) -> None:
        super().__init__()
        self.on_message = on_message
        self._confirmed = 0
        self._want = 0
        self.ready: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    async def subscribe(self, channels: Sequence[str]) -> None:
        """Subscribe and wait until Redis confirms every channel."""
        self._want = len(channels)
        self.write(pack("SUBSCRIBE", *channels))
        await asyncio.wait({self.ready, self.closed}, return_when=asyncio.FIRST_COMPLETED)
        if not self.ready.done():
            raise ConnectionError("Redis connection lost while subscribing")
        self.ready.result()

    def _reply(self, reply: Any) -> None:
        if isinstance(reply, Exception):  # SUBSCRIBE refused (NOAUTH, ...): this subscription is no good
            if not self.ready.done():
                self.ready.set_exception(ConnectionError(f"Redis refused SUBSCRIBE: {reply}"))
            self.abort()
            return
        if isinstance(reply, list) and len(reply) == 3:
            if reply[0] == b"message":
                self.on_message(reply[2])
            elif reply[0] == b"subscribe":
                self._confirmed += 1
                if self._confirmed >= self._want and not self.ready.done():
                    self.ready.set_result(None)
