"""What one relay hop adds: ``ping`` round trips from a socket on the room's owner and from a
socket on another node (its messages and frames cross Redis pub/sub), two in-process nodes on the real Redis
and PostgreSQL (tests/services.py), the real engine (a ping never reaches it).

Prints p50/p99 of both and the difference (the relay's added latency per round trip, i.e. two hops: the
message in and the frame back), with the load average, since wall-clock figures on a shared machine vary.

    PYTHONPATH=src python benchmarks/relay_hop.py [--n 2000]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
for extra in (ROOT / "tests" / "cluster", ROOT / "tests" / "server", ROOT / "tests"):
    sys.path.insert(0, str(extra))

from cluster_inproc import start_node  # noqa: E402
from server_helpers import Client  # noqa: E402

from services import fresh_database, redis_prefix  # noqa: E402


def pct(data: list[float], q: float) -> float:
    data = sorted(data)
    return data[min(len(data) - 1, int(q * len(data)))]


async def pings(client: Client, n: int) -> list[float]:
    out: list[float] = []
    for _ in range(n):
        t0 = time.perf_counter()
        await client.send({"type": "ping"})
        await client.expect("pong")
        out.append((time.perf_counter() - t0) * 1000.0)
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=2000)
    args = parser.parse_args()
    with fresh_database("bench") as db, redis_prefix("bench") as prefix, tempfile.TemporaryDirectory() as tmp:
        a = start_node("A", db, prefix, Path(tmp))
        b = start_node("B", db, prefix, Path(tmp))
        try:
            made = a.create_room("방장", mode="holdem")
            code = made["code"]

            async def run() -> tuple[list[float], list[float]]:
                local = await Client.open(a.ws_url(code), "local")
                await local.hello(token=made["token"])
                remote = await Client.open(b.ws_url(code), "remote")
                await remote.hello(spectate=True)
                await pings(local, 100)  # warm-up
                await pings(remote, 100)
                direct, relayed = [], []
                for _ in range(10):  # interleaved rounds: both see the same machine load
                    direct += await pings(local, args.n // 10)
                    relayed += await pings(remote, args.n // 10)
                await local.close()
                await remote.close()
                return direct, relayed

            direct, relayed = asyncio.run(run())
        finally:
            b.stop()
            a.stop()
    load = os.getloadavg()[0]
    print(f"ping round trip, {len(direct)} each (load average {load:.1f})")
    for name, data in (("on the owner", direct), ("via another node", relayed)):
        print(f"  {name:17s} p50 {pct(data, 0.5):6.2f} ms  p99 {pct(data, 0.99):6.2f} ms  "
              f"mean {statistics.fmean(data):6.2f} ms")
    print(f"  relay adds        p50 {pct(relayed, 0.5) - pct(direct, 0.5):6.2f} ms  "
          f"p99 {pct(relayed, 0.99) - pct(direct, 0.99):6.2f} ms  (message in + frame back)")


if __name__ == "__main__":
    main()
