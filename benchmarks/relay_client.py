"""What a relayed message costs the process that sends and receives it: redis-py (a pipeline per publish, the
pub/sub reader's ``get_message``, as the relay used before decision 0084) against ``cluster/redis_wire``
(publishes written without waiting, hiredis reading answers and messages), on the machine's Redis.

One process publishes a message of ``--size`` bytes to a channel it subscribes to itself, waits until it
arrives, and does it again ``--n`` times: each message is one publish, one answer and one delivery, the work
a node does for a relayed frame at a quiet moment (its own loop asleep between messages). CPU is
``time.process_time()`` around the ``--n`` messages only (connections made and subscribed before, a warm-up
of 200 messages each); the two clients take turns for ``--rounds`` rounds and the ratio of each round is
printed, then the median.

    PYTHONPATH=src .venv/bin/python benchmarks/relay_client.py [--n 3000] [--rounds 5] [--size 600]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import secrets
import statistics
import time
from collections.abc import Awaitable, Callable

import redis.asyncio as aioredis

from pokerroom.cluster.redis_wire import Endpoint, Publisher, Subscription

REDIS_URL = os.environ.get("POKERROOM_TEST_REDIS", "redis://127.0.0.1:6379/0")

Run = Callable[[int], Awaitable[float]]  # messages -> CPU seconds they took


async def redis_py_client(channel: str, body: bytes) -> tuple[Run, Callable[[], Awaitable[None]]]:
    """The relay's way before decision 0084: a pipeline per publish, ``get_message`` in a reader task."""
    r = aioredis.Redis.from_url(REDIS_URL, socket_timeout=5)
    pubsub = r.pubsub(ignore_subscribe_messages=True)
    await pubsub.subscribe(channel)
    arrived = asyncio.Event()

    async def reader() -> None:
        while True:
            message = await pubsub.get_message(timeout=1.0)
            if message is not None and message.get("type") == "message":
                arrived.set()

    task = asyncio.get_running_loop().create_task(reader())

    async def run(n: int) -> float:
        t0 = time.process_time()
        for _ in range(n):
            arrived.clear()
            async with r.pipeline(transaction=False) as pipe:
                pipe.publish(channel, body)
                await pipe.execute()
            await arrived.wait()
        return time.process_time() - t0

    async def close() -> None:
        task.cancel()
        await pubsub.aclose()
        await r.aclose()

    return run, close


async def redis_wire_client(channel: str, body: bytes) -> tuple[Run, Callable[[], Awaitable[None]]]:
    """The relay's way since decision 0084."""
    r = aioredis.Redis.from_url(REDIS_URL, socket_timeout=5)
    endpoint = Endpoint.of(r)
    arrived = asyncio.Event()
    sub = Subscription(lambda _data: arrived.set())
    await endpoint.open(sub)
    await sub.subscribe([channel])
    answers: list[int | Exception] = []
    pub: Publisher[None] = Publisher(lambda _what, answer: answers.append(answer), endpoint.reply_timeout)
    await endpoint.open(pub)
    raw = channel.encode()

    async def run(n: int) -> float:
        t0 = time.process_time()
        for _ in range(n):
            arrived.clear()
            pub.publish([(raw, body, None)])
            await arrived.wait()
        return time.process_time() - t0

    async def close() -> None:
        assert all(a == 1 for a in answers), "every publish must have reached its one subscriber"
        sub.abort()
        pub.abort()
        await r.aclose()

    return run, close


async def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=3000)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--size", type=int, default=600)
    args = ap.parse_args()
    body = b"x" * args.size
    ratios = []
    print(f"{args.n} messages of {args.size} bytes per round, published and received by one process")
    for i in range(args.rounds):
        cpu = {}
        for name, make in (("redis-py", redis_py_client), ("redis_wire", redis_wire_client)):
            run, close = await make(f"prbench:relay:{secrets.token_hex(4)}", body)
            await run(200)  # warm-up
            cpu[name] = await run(args.n) / args.n * 1e6
            await close()
        ratios.append(cpu["redis_wire"] / cpu["redis-py"])
        print(f"round {i + 1}: redis-py {cpu['redis-py']:.1f} µs, redis_wire {cpu['redis_wire']:.1f} µs "
              f"of CPU a message: {ratios[-1]:.2f}x")
    print(f"median: redis_wire costs {statistics.median(ratios):.2f}x redis-py's CPU per relayed message")


if __name__ == "__main__":
    asyncio.run(main())
