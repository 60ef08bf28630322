"""A batch of action rows alone is written by one plain statement (``pg_apply.LOG_BATCH``) instead of the
batch function: the two must leave the same rows and refuse the same rooms on any batch the statement takes,
and the statement must write nothing (and say so) when a room it names has no row."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import psycopg
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pokerroom.server.storage import Fenced, LogRow, pg_apply
from pokerroom.server.storage.base import prepare_log, prepare_pre
from pokerroom.server.storage.postgres import PgStore
from services import fresh_database

pytestmark = pytest.mark.timeout(300)

CODES = ("ra", "rb", "rc")


@pytest.fixture(scope="module")
def conn() -> Iterator[psycopg.Connection[Any]]:
    with fresh_database("logbatch") as url:
        PgStore(url).close()  # the schema and the function
        with psycopg.connect(url, autocommit=True) as c:
            # prepared outside the examples' transactions (a first call inside one fails it, then prepares)
            assert pg_apply.call(c, b"[]") == pg_apply.call_log(c, b"[]") == frozenset()
            yield c


@contextmanager
def rolled_back(conn: psycopg.Connection[Any]) -> Iterator[None]:
    """One transaction, always rolled back: every example starts from the same empty tables."""
    conn.pgconn.exec_(b"BEGIN")
    try:
        yield
    finally:
        conn.pgconn.exec_(b"ROLLBACK")


# a room: a row with this token, a tombstone with this token, or nothing stored
rooms = st.fixed_dictionaries({c: st.one_of(st.tuples(st.sampled_from(["row", "tomb"]), st.integers(0, 3)),
                                            st.none()) for c in CODES})
log_ops = st.lists(st.tuples(st.sampled_from(CODES), st.integers(0, 3), st.integers(1, 4),
                             st.sampled_from([None, {"type": "k.call"}, {"type": "nl.raise", "amount": 40}])),
                   min_size=1, max_size=6)


def world(conn: psycopg.Connection[Any], stored: dict[str, Any]) -> None:
    for code, room in stored.items():
        if room is None:
            continue
        kind, fence = room
        if kind == "row":
            conn.execute("INSERT INTO rooms(code, meta, state, version, updated_ms, snapshot_version, fence) "
                         "VALUES (%s, '{}', 's', 0, 0, 0, %s)", (code, fence))
            conn.execute("INSERT INTO actions VALUES (%s, 2, 'action', 'old', 'old', NULL, 0)", (code,))
        else:
            conn.execute("INSERT INTO fences(code, fence, deleted_ms) VALUES (%s, %s, 0)", (code, fence))


def ops_of(batch: list[tuple[str, int, int, Any]]) -> list[Any]:
    return [prepare_log(code, LogRow(version, "action", "p1", f"m{i}", action, 100 + i), fence=fence)
            for i, (code, fence, version, action) in enumerate(batch)]


def actions(conn: psycopg.Connection[Any]) -> list[tuple[Any, ...]]:
    return conn.execute("SELECT code, version, kind, player_id, client_msg_id, action::text, at_ms "
                        "FROM actions ORDER BY code, version").fetchall()


@settings(max_examples=120, deadline=None)
@given(stored=rooms, batch=log_ops)
def test_the_statement_and_the_function_agree_on_every_batch_of_rows(
        conn: psycopg.Connection[Any], stored: dict[str, Any],
        batch: list[tuple[str, int, int, Any]]) -> None:
    ops = ops_of(batch)
    assert pg_apply.log_only(ops)
    arg = pg_apply.encode(ops, 1000, 10**9)
    with rolled_back(conn):
        world(conn, stored)
        by_function = pg_apply.call(conn, arg)
        rows_by_function = actions(conn)
    with rolled_back(conn):
        world(conn, stored)
        before = actions(conn)
        by_statement = pg_apply.call_log(conn, arg)
        rows_by_statement = actions(conn)
    named = {code for code, *_ in batch}
    if all(stored[code] is not None and stored[code][0] == "row" for code in named):
        assert by_statement == by_function
        assert rows_by_statement == rows_by_function
    else:  # a room without a row: nothing written, the function decides
        assert by_statement is None
        assert rows_by_statement == before


def test_a_store_writes_rows_through_the_statement_and_the_rest_through_the_function() -> None:
    with fresh_database("logpath") as url:
        store = PgStore(url)
        try:
            store.save("R", {}, "s", 0, 0, fence=1)
            store.save("Q", {}, "s", 0, 0, fence=1)
            store.delete("Q", fence=1)  # a tombstone with token 1, no row
            with psycopg.connect(url, autocommit=True) as conn:
                def prepared() -> set[str]:
                    return {r[0] for r in conn.execute("SELECT name FROM pg_prepared_statements").fetchall()}

                rows = [LogRow(v, "action", "p1", f"m{v}", {"type": "k.call"}, v) for v in (1, 2)]
                assert pg_apply.apply(conn, [prepare_log("R", rows[0], fence=1)], 0, 10**9) == frozenset()
                assert prepared() == {"pokerroom_apply_log"}, "rows alone: the statement, not the function"
                # pre-actions are not the statement's: the function writes them
                pre = prepare_pre("R", {"p1": "check"}, fence=1)
                assert pg_apply.apply(conn, [pre], 0, 10**9) == frozenset()
                assert prepared() == {"pokerroom_apply_log", "pokerroom_apply_batch"}
                # a deleted room has no row: the statement hands the batch to the function, which reads the
                # tombstone and refuses the stale token while writing the current room's row
                batch = [prepare_log("R", rows[1], fence=1), prepare_log("Q", rows[0], fence=0)]
                assert pg_apply.apply(conn, batch, 0, 10**9) == frozenset({"Q"})
            assert [r.version for r in store.log("R")] == [1, 2]
            assert store.log("Q") == []
            with pytest.raises(Fenced) as refused:
                store.apply_batch([store.prepare_log("R", LogRow(3, "action", "p1", "m3", None, 3), fence=0)])
            assert refused.value.codes == frozenset({"R"})
            assert [r.version for r in store.log("R")] == [1, 2]
        finally:
            store.close()
