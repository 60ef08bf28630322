"""The fault injectors of the cluster tests do what the tests rely on (faults.py), on real services: a cut
proxy makes PostgreSQL unreachable through it and a restore brings it back; a restarted private Redis comes
back empty. Without this, an outage test could pass because its outage never happened."""

from __future__ import annotations

import time

import psycopg
import pytest
import redis
from faults import PrivateRedis, TcpProxy


def test_proxy_cut_and_restore(pg_proxy: TcpProxy) -> None:
    from services import PG_ADMIN_URL

    url = PG_ADMIN_URL.replace(PG_ADMIN_URL.split("@", 1)[1].split("/", 1)[0], f"127.0.0.1:{pg_proxy.port}")
    with psycopg.connect(url, autocommit=True, connect_timeout=3) as conn:
        assert conn.execute("SELECT 1").fetchone() == (1,)
        pg_proxy.cut()
        with pytest.raises(psycopg.OperationalError):
            conn.execute("SELECT 1")
    with pytest.raises(psycopg.OperationalError):
        psycopg.connect(url, connect_timeout=3)
    pg_proxy.restore()
    with psycopg.connect(url, autocommit=True, connect_timeout=3) as conn:
        assert conn.execute("SELECT 2").fetchone() == (2,)


def test_private_redis_restart_loses_everything(private_redis: PrivateRedis) -> None:
    client = redis.Redis.from_url(private_redis.url, socket_timeout=2)
    client.set("lease", "x")
    private_redis.stop()
    with pytest.raises(redis.ConnectionError):
        client.get("lease")
    t0 = time.monotonic()
    private_redis.start()
    assert time.monotonic() - t0 < 5
    assert client.get("lease") is None  # a restart is an empty Redis: leases and counters are gone
    client.close()
