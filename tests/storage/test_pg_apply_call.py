"""The batch function is called through libpq itself (``storage/pg_apply.py``, ``call``): its answer is read
the way PostgreSQL writes it, and its failures are psycopg's."""

from __future__ import annotations

import psycopg
import pytest

from pokerroom.server.storage import pg_apply
from pokerroom.server.storage.postgres import PgStore
from services import fresh_database

pytestmark = pytest.mark.timeout(60)

ARRAYS = [[], ["r0abc12345"], ["r0abc12345", "zz9"], ["a b", 'q"x', "c,d", "back\\slash", "{br}", "NULL", ""]]


def test_an_array_of_codes_reads_as_postgresql_wrote_it() -> None:
    with fresh_database("pqcodes") as url, psycopg.connect(url, autocommit=True) as conn:
        for values in ARRAYS:
            text = conn.execute("SELECT %s::text[]::text", (values,)).fetchone()
            assert text is not None
            assert pg_apply.codes(text[0].encode()) == frozenset(values), text[0]
    assert pg_apply.codes(None) == frozenset()


def test_a_refused_statement_raises_psycopgs_own_error_and_the_connection_lives_on() -> None:
    with fresh_database("pqerror") as url:
        store = PgStore(url)  # (creates the function)
        store.close()
        with psycopg.connect(url, autocommit=True) as conn:
            with pytest.raises(psycopg.errors.InvalidTextRepresentation):
                pg_apply.call(conn, b"not json")
            assert not conn.closed
            assert pg_apply.call(conn, b"[]") == frozenset()
            assert pg_apply.call(conn, b"[]") == frozenset()
            # prepared once on the connection, as psycopg's execute did after a few runs
            names = [r[0] for r in conn.execute("SELECT name FROM pg_prepared_statements").fetchall()]
            assert names == ["pokerroom_apply_batch"]


def test_a_connection_that_broke_is_closed_and_raises_operational_error() -> None:
    with fresh_database("pqbroken") as url:
        store = PgStore(url)
        store.close()
        conn = psycopg.connect(url, autocommit=True)
        pid = conn.execute("SELECT pg_backend_pid()").fetchone()
        with psycopg.connect(url, autocommit=True) as admin:
            admin.execute("SELECT pg_terminate_backend(%s)", pid)
        with pytest.raises(psycopg.OperationalError):
            pg_apply.call(conn, b"[]")
        assert conn.closed
