"""The real Redis and PostgreSQL the cluster tests talk to: never a mock.

Why here: the store tests, the cluster unit tests and the multi-node process tests all need the same two
things, each isolated from every other test running at the same time (``pytest -n 2``):

- a **Redis key prefix** of their own on the machine's Redis (``POKERROOM_TEST_REDIS``, default
  ``redis://127.0.0.1:6379/0``), whose keys are deleted afterwards;
- a **PostgreSQL database** of their own, created from the maintenance database of
  ``POKERROOM_TEST_PG`` (default ``postgresql://postgres@127.0.0.1:5432/postgres``) and dropped afterwards.

``make test`` starts both services when they are missing (the ``services`` target); a test that finds one
unreachable is decided by tests/needs.py: it fails under CI or ``make test`` (a sentence says which service
and how to start it) and skips only on a developer's partial machine, so CI can never pass without them.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from contextlib import contextmanager

from needs import PG_ADMIN_URL, REDIS_URL, missing

__all__ = ["PG_ADMIN_URL", "REDIS_URL", "fresh_database", "pg_url", "redis_prefix"]


def pg_url(database: str) -> str:
    """``PG_ADMIN_URL`` with its database replaced."""
    base, _, _ = PG_ADMIN_URL.rpartition("/")
    return f"{base}/{database}"


@contextmanager
def fresh_database(tag: str = "t") -> Iterator[str]:
    """A new, empty PostgreSQL database for one test; yields its URL and drops it afterwards."""
    import psycopg

    name = f"pokerroom_{tag}_{secrets.token_hex(6)}"
    try:
        admin = psycopg.connect(PG_ADMIN_URL, autocommit=True, connect_timeout=5)
    except psycopg.OperationalError as exc:
        missing("postgres", f"PostgreSQL is not reachable at {PG_ADMIN_URL} ({exc})", "make services")
    with admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield pg_url(name)
    finally:
        with psycopg.connect(PG_ADMIN_URL, autocommit=True, connect_timeout=5) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@contextmanager
def redis_prefix(tag: str = "t") -> Iterator[str]:
    """A key prefix of its own on the test Redis; yields it and deletes its keys afterwards."""
    import redis

    prefix = f"prt:{tag}:{secrets.token_hex(4)}"
    client = redis.Redis.from_url(REDIS_URL, socket_timeout=5)
    try:
        client.ping()
    except redis.RedisError as exc:
        client.close()
        missing("redis", f"Redis is not reachable at {REDIS_URL} ({exc})", "make services")
    try:
        yield prefix
    finally:
        keys = list(client.scan_iter(match=f"{prefix}:*", count=1000))
        if keys:
            client.delete(*keys)
        client.close()
