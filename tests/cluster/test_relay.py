"""The relay on the real Redis: messages arrive in order, requests get replies, a dead node is noticed."""

from __future__ import annotations

import asyncio
import signal
import ssl
import time
from typing import Any

import pytest
import redis.asyncio as aioredis
from faults import PrivateRedis

from pokerroom.cluster import messages as M
from pokerroom.cluster.keys import Keys
from pokerroom.cluster.redis_wire import Endpoint
from pokerroom.cluster.relay import Relay


def test_items_in_order_broadcast_and_request(prefix: str, redis_url: str) -> None:
    async def main() -> None:
        r = aioredis.Redis.from_url(redis_url, socket_timeout=5)
        got: dict[str, list[M.Routed]] = {"a": [], "b": []}
        relays: dict[str, Relay] = {}

        def handler(node: str) -> Any:
            def on_message(msg: M.Routed) -> None:
                got[node].append(msg)
                if isinstance(msg, M.Request) and isinstance(msg.ask, M.RoomInfo):
                    relays[node].reply(msg, {"answer": int(msg.ask.code) * 2, "by": node})
            return on_message

        for n in "ab":
            relays[n] = Relay(r, Keys(prefix), n, handler(n))
            await relays[n].start()
        for i in range(500):
            relays["a"].send("b", M.Frame(i, "프레임" * (i % 7)))
            if i % 50 == 0:
                await asyncio.sleep(0)
        relays["b"].broadcast(M.Moved("ABCD", None))
        answer = await relays["a"].request("b", M.RoomInfo("21"), timeout_s=5)
        assert answer == {"answer": 42, "by": "b"}
        frames = [(m.cid, m.text) for m in got["b"] if isinstance(m, M.Frame)]
        assert frames == [(i, "프레임" * (i % 7)) for i in range(500)]  # every message, in order
        assert [m for m in got["a"] if isinstance(m, M.Moved)] == [M.Moved("ABCD", None)]
        assert any(isinstance(m, M.Moved) for m in got["b"])
        assert not any(isinstance(m, M.Frame) for m in got["a"])  # nothing for b reached a
        for relay in relays.values():
            await relay.close()
        await r.aclose()

    asyncio.run(main())


def test_undelivered_items_are_reported_and_requests_time_out(prefix: str, redis_url: str) -> None:
    async def main() -> None:
        r = aioredis.Redis.from_url(redis_url, socket_timeout=5)
        lost: list[tuple[str, list[M.Message]]] = []
        relay = Relay(r, Keys(prefix), "a", lambda msg: None, lambda node, msgs: lost.append((node, msgs)))
        await relay.start()
        sent = M.ClientMsg(1, "a", "ABCD", {"type": "ping"})
        relay.send("ghost", sent)
        t0 = time.monotonic()
        try:
            await relay.request("ghost", M.CreateRoom({}, "방장", "127.0.0.1"), timeout_s=0.3)
        except TimeoutError:
            pass
        else:
            raise AssertionError("a request to a node nobody runs must time out")
        assert time.monotonic() - t0 < 2
        assert lost and lost[0][0] == "ghost" and lost[0][1][0] == sent
        await relay.close()
        await r.aclose()

    asyncio.run(main())


def test_a_lost_subscription_is_noticed_and_renewed(prefix: str, redis_url: str) -> None:
    """A Redis restarted without data keeps no subscription: ``check`` sees the channel without a
    subscriber and subscribes again (simulated by killing the subscriber's connection on the server)."""

    async def main() -> None:
        r = aioredis.Redis.from_url(redis_url, socket_timeout=5)
        got: list[M.Routed] = []
        relay = Relay(r, Keys(prefix), "solo", got.append)
        await relay.start()
        assert await relay.check()
        channel = Keys(prefix).channel("solo")
        relay._tasks[0].cancel()  # the subscriber is gone, as after a restart that lost it
        await asyncio.sleep(0.1)
        assert (await r.pubsub_numsub(channel))[0][1] == 0
        assert not await relay.check()
        for _ in range(50):
            if (await r.pubsub_numsub(channel))[0][1] == 1:
                break
            await asyncio.sleep(0.05)
        relay.send("solo", M.Close(7, 4000))
        for _ in range(50):
            if got:
                break
            await asyncio.sleep(0.05)
        assert got == [M.Close(7, 4000)]
        await relay.close()
        await r.aclose()

    asyncio.run(main())


def test_publishes_redis_never_answers_are_handed_back_not_sent_again(prefix: str,
                                                                     private_redis: PrivateRedis) -> None:
    """Publishes are written without waiting for their answers; when Redis stops answering (a stopped
    process: the connection stays open), a publish overdue by the client's timeout ends the connection, and
    what it carried is handed back as maybe sent: its frames to be made good, its client messages refused,
    neither written again (node b hears each at most once). Once Redis answers again, the relay publishes on
    a new connection."""

    async def main() -> None:
        r = aioredis.Redis.from_url(private_redis.url, socket_timeout=0.5, socket_connect_timeout=2)
        frames_lost: list[tuple[str, list[M.Message]]] = []
        undelivered: list[tuple[str, list[M.Message]]] = []
        got: list[M.Routed] = []
        relay = Relay(r, Keys(prefix), "a", got.append, lambda node, msgs: undelivered.append((node, msgs)),
                      on_frames_lost=lambda node, msgs: frames_lost.append((node, msgs)))
        await relay.start()
        heard_b: list[M.Routed] = []
        node_b = Relay(r, Keys(prefix), "b", heard_b.append)
        await node_b.start()
        relay.send("a", M.Close(1, 4000))  # to itself: heard, answered 1
        for _ in range(50):
            if got:
                break
            await asyncio.sleep(0.02)
        assert got == [M.Close(1, 4000)] and not undelivered
        assert private_redis.proc is not None
        private_redis.proc.send_signal(signal.SIGSTOP)
        try:
            frame, msg = M.Frame(7, "{}"), M.ClientMsg(3, "a", "ABCD", {"type": "ping"})
            relay.send("b", frame)
            relay.send("b", msg)
            await asyncio.sleep(0.8)  # past the 0.5 s timeout, unanswered
            relay.send("a", M.Close(2, 4000))
            for _ in range(50):
                if frames_lost:
                    break
                await asyncio.sleep(0.02)
            assert frames_lost == [("b", [frame])]
            assert undelivered == [("b", [msg])]
        finally:
            private_redis.proc.send_signal(signal.SIGCONT)
        for _ in range(150):
            if len(got) == 2:
                break
            await asyncio.sleep(0.02)
        assert got == [M.Close(1, 4000), M.Close(2, 4000)]  # on a new connection once Redis was back
        await asyncio.sleep(0.3)
        assert got == [M.Close(1, 4000), M.Close(2, 4000)]  # once
        assert heard_b.count(frame) <= 1 and heard_b.count(msg) <= 1
        await node_b.close()
        await relay.close()
        await r.aclose()

    asyncio.run(main())


def test_a_relay_on_a_redis_with_a_password(prefix: str, private_redis: PrivateRedis) -> None:
    """The relay's own connections log in as redis-py's do (``AUTH``); with a wrong password nothing is
    published (it is retried, kept in order) and the subscription never stands."""

    async def main() -> None:
        admin = aioredis.Redis.from_url(private_redis.url)
        await admin.config_set("requirepass", "s3cret")
        await admin.aclose()
        url = private_redis.url.replace("redis://", "redis://:s3cret@")
        r = aioredis.Redis.from_url(url, socket_timeout=2)
        got: dict[str, list[M.Routed]] = {"a": [], "b": []}
        relays = {n: Relay(r, Keys(prefix), n, got[n].append) for n in "ab"}
        for relay in relays.values():
            await relay.start()
        for i in range(20):
            relays["a"].send("b", M.Frame(i, "x" * i))
        for _ in range(100):
            if len(got["b"]) == 20:
                break
            await asyncio.sleep(0.02)
        assert got["b"] == [M.Frame(i, "x" * i) for i in range(20)]

        wrong = aioredis.Redis.from_url(url.replace("s3cret", "wrong"), socket_timeout=2)
        bad = Relay(wrong, Keys(prefix), "c", lambda msg: None)
        with pytest.raises(TimeoutError):
            async with asyncio.timeout(1.0):
                await bad.start()
        bad.send("b", M.Frame(99, "never"))
        await asyncio.sleep(0.3)
        assert got["b"] == [M.Frame(i, "x" * i) for i in range(20)]  # nothing from the wrong password
        await bad.close()
        for relay in relays.values():
            await relay.close()
        await wrong.aclose()
        await r.aclose()

    asyncio.run(main())


def test_the_endpoint_is_read_from_the_client_url() -> None:
    plain = Endpoint.of(aioredis.Redis.from_url("redis://127.0.0.1:6390/3", socket_timeout=4))
    assert (plain.host, plain.port, plain.path, plain.password, plain.tls, plain.reply_timeout) == (
        "127.0.0.1", 6390, None, None, None, 4.0)
    tls = Endpoint.of(aioredis.Redis.from_url("rediss://user:pw@redis.example:6380/0?ssl_cert_reqs=none"))
    assert (tls.host, tls.port, tls.username, tls.password) == ("redis.example", 6380, "user", "pw")
    assert tls.tls is not None and tls.tls.verify_mode == ssl.CERT_NONE and not tls.tls.check_hostname
    unix = Endpoint.of(aioredis.Redis.from_url("unix:///run/redis.sock?db=1"))
    assert unix.path == "/run/redis.sock"
