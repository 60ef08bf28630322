"""A batch of room writes as ONE statement: the store's operations encoded as JSON, applied by a PL/pgSQL
function that checks the fencing tokens, writes what is current and names the rooms it refused.

Why: the write path of a cluster node cost several times its SQLite twin. A fenced batch went as a pipeline of
a row-locking ``SELECT``, a read of the tombstones, then every write and ``COMMIT`` (a second round trip, as
the writes depend on the tokens read), and each statement costs the client its own parse, bind and result
handling: about 1.3 ms of the node's CPU per one-action batch (``benchmarks/store_write.py``), on the writer
thread that shares the GIL with the event loop. One function call is one round trip and one statement for
the client, whatever the batch holds; the database runs the same statements (its plans cached per session)
in the same order, under the same locks, in the transaction of that one statement.

The semantics are the Python path's, kept for the SQLite store (``sqlite.py``): rooms first (locked in code
order, so two nodes never deadlock), then the tombstones in a later statement whose snapshot sees what a
concurrent delete left; a room's token is its row's, else its tombstone's; the operations of a refused room
are skipped, the others applied in order; the function returns the refused codes. The store contract tests
run the same assertions on both stores.

**Batches of action rows alone** (most of them: a hand is one row per action, a snapshot every few dozen)
skip the function: :data:`LOG_BATCH` is one plain statement, planned once per connection, that locks the
rooms, reads their tokens and inserts the rows of the current ones (decision 0061). The function runs its
statements one by one through PL/pgSQL, each planned again for its arguments and started as an executor of
its own: inside one busy node, batches alternating between the two, a one-row batch cost the database 678 µs
of CPU through the function and 605 µs through the statement. A statement reads its tables at one
snapshot, so it cannot see a tombstone left by a delete that committed while it waited for a lock; it
therefore writes only when every room it names still has its row, and otherwise answers NULL and changes
nothing, and the batch goes through the function (whose later statements do see it).
"""

from __future__ import annotations

from typing import Any

import orjson
import psycopg
from psycopg import pq

from pokerroom.server.storage.base import Op

#: ``pokerroom_apply(ops jsonb) -> text[]`` (the refused codes); created by a migration (postgres.py)
FUNCTION = r"""
CREATE OR REPLACE FUNCTION pokerroom_apply(ops jsonb) RETURNS text[] LANGUAGE plpgsql AS $fn$
DECLARE
  op jsonb;
  c text;
  r jsonb;
  fenced text[];
  refused text[] := '{}';
BEGIN
  SELECT array_agg(DISTINCT o->>'c' ORDER BY o->>'c') INTO fenced
    FROM jsonb_array_elements(ops) o WHERE jsonb_typeof(o->'f') = 'number';
  IF fenced IS NOT NULL THEN
    PERFORM 1 FROM rooms WHERE code = ANY(fenced) ORDER BY code FOR UPDATE;
    SELECT coalesce(array_agg(DISTINCT x.c), '{}') INTO refused
      FROM (SELECT o->>'c' AS c, (o->>'f')::bigint AS f FROM jsonb_array_elements(ops) o
            WHERE jsonb_typeof(o->'f') = 'number') x
      LEFT JOIN rooms ON rooms.code = x.c LEFT JOIN fences ON fences.code = x.c
      WHERE x.f < coalesce(rooms.fence, fences.fence, x.f);
  END IF;
  FOR op IN SELECT value FROM jsonb_array_elements(ops) LOOP
    c := op->>'c';
    CONTINUE WHEN c = ANY(refused);
    IF op->>'k' = 'save' THEN
      INSERT INTO rooms(code, meta, state, version, updated_ms, snapshot_version, fence)
        VALUES (c, op->'meta', op->>'state', (op->>'v')::bigint, (op->>'at')::bigint, (op->>'v')::bigint,
                coalesce((op->>'f')::bigint, 0))
        ON CONFLICT (code) DO UPDATE SET meta=excluded.meta, state=excluded.state, version=excluded.version,
          updated_ms=excluded.updated_ms, snapshot_version=excluded.snapshot_version,
          fence=GREATEST(rooms.fence, excluded.fence);
    ELSIF op->>'k' = 'delete' THEN
      INSERT INTO fences(code, fence, deleted_ms)
        SELECT code, GREATEST(fence, coalesce((op->>'f')::bigint, 0)), (op->>'now')::bigint FROM rooms
        WHERE code = c AND GREATEST(fence, coalesce((op->>'f')::bigint, 0)) > 0
        ON CONFLICT (code) DO UPDATE SET fence=GREATEST(fences.fence, excluded.fence),
          deleted_ms=excluded.deleted_ms;
      DELETE FROM fences WHERE deleted_ms < (op->>'prune_before')::bigint;
      DELETE FROM rooms WHERE code = c;
      DELETE FROM actions WHERE code = c;
      DELETE FROM hands WHERE code = c;
      DELETE FROM preactions WHERE code = c;
      CONTINUE;
    END IF;
    r := op->'row';
    IF jsonb_typeof(r) = 'array' THEN
      INSERT INTO actions VALUES (c, (r->>0)::bigint, r->>1, r->>2, r->>3, r->4, (r->>5)::bigint)
        ON CONFLICT (code, version) DO UPDATE SET kind=excluded.kind, player_id=excluded.player_id,
          client_msg_id=excluded.client_msg_id, action=excluded.action, at_ms=excluded.at_ms;
    END IF;
    IF jsonb_typeof(op->'hands') = 'array' THEN
      INSERT INTO hands(code, seq, data)
        SELECT c, (h->>0)::bigint, h->1 FROM jsonb_array_elements(op->'hands') h
        ON CONFLICT (code, seq) DO UPDATE SET data=excluded.data;
    END IF;
    IF jsonb_typeof(op->'prune') = 'number' THEN
      DELETE FROM hands WHERE code = c AND seq <= (op->>'prune')::bigint;
    END IF;
    IF op->>'k' = 'save' THEN
      DELETE FROM preactions WHERE code = c;
    ELSIF jsonb_typeof(op->'pre') = 'object' THEN
      INSERT INTO preactions(code, data) VALUES (c, op->'pre')
        ON CONFLICT (code) DO UPDATE SET data=excluded.data;
    END IF;
  END LOOP;
  RETURN refused;
END
$fn$
"""

CALL = b"SELECT pokerroom_apply($1::jsonb)"

#: a batch of plain ``log`` operations (:func:`log_only`), the function's argument as it is: the refused
#: codes, or NULL having written nothing when a room it names has no row (then the function decides)
LOG_BATCH = b"""
WITH o AS (SELECT x.ord, x.v->>'c' AS c, (x.v->>'f')::bigint AS f, x.v->'row' AS r
           FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS x(v, ord)),
lk AS (SELECT code, fence FROM rooms WHERE code = ANY(ARRAY(SELECT c FROM o)) ORDER BY code FOR UPDATE),
st AS (SELECT count(*) = (SELECT count(DISTINCT c) FROM o) AS whole,
              coalesce(array_agg(code) FILTER (WHERE fence > (SELECT min(f) FROM o WHERE o.c = lk.code)),
                       '{}') AS refused
       FROM lk),
ins AS (INSERT INTO actions (code, version, kind, player_id, client_msg_id, action, at_ms)
        SELECT DISTINCT ON (o.c, (o.r->>0)::bigint) o.c, (o.r->>0)::bigint, o.r->>1, o.r->>2, o.r->>3, o.r->4,
               (o.r->>5)::bigint
        FROM o, st WHERE st.whole AND o.c <> ALL(st.refused)
        ORDER BY o.c, (o.r->>0)::bigint, o.ord DESC
        ON CONFLICT (code, version) DO UPDATE SET kind=excluded.kind, player_id=excluded.player_id,
          client_msg_id=excluded.client_msg_id, action=excluded.action, at_ms=excluded.at_ms)
SELECT CASE WHEN whole THEN refused END FROM st
"""


def apply(conn: psycopg.Connection[Any], ops: list[Op], now_ms: int,
          tombstone_kept_ms: int) -> frozenset[str]:
    """Write ``ops`` in one transaction on ``conn``: the codes of the rooms refused for an outdated token.
    A batch of action rows alone goes as :data:`LOG_BATCH`, anything else (or a room without a row) through
    the function."""
    arg = encode(ops, now_ms, tombstone_kept_ms)
    if log_only(ops):
        refused = call_log(conn, arg)
        if refused is not None:
            return refused
    return call(conn, arg)


def log_only(ops: list[Op]) -> bool:
    """Whether :data:`LOG_BATCH` can write ``ops``: one or more ``log`` operations, each fenced, none with
    pre-actions or hands."""
    for kind, args in ops:
        if kind != "log" or args[1] is None or (len(args) > 2 and args[2] is not None) or (
                len(args) > 3 and args[3]):
            return False
    return bool(ops)


def call_log(conn: psycopg.Connection[Any], arg: bytes) -> frozenset[str] | None:
    """Run :data:`LOG_BATCH` with ``arg``: the refused codes, or None when it wrote nothing because a room
    has no row."""
    value = _run(conn, _LOG_PREPARED, LOG_BATCH, arg)
    return None if value is None else codes(value)


def call(conn: psycopg.Connection[Any], arg: bytes) -> frozenset[str]:
    """Run :data:`CALL` with ``arg`` (from :func:`encode`) on ``conn`` through libpq itself: the refused
    codes."""
    return codes(_run(conn, _PREPARED, CALL, arg))


def _run(conn: psycopg.Connection[Any], name: bytes, statement: bytes, arg: bytes) -> bytes | None:
    """Run the prepared ``statement`` with ``arg`` through libpq: its one value.

    Why not ``conn.execute``: psycopg's cursor machinery (the query's conversion, the parameter's adaptation,
    loading the result) cost the writer thread 50-70 µs a batch against 24 µs for the bare call (measured),
    on the thread that shares the GIL with the event loop, and this statement needs none of it: one text
    parameter in, one ``text[]`` of room codes out. libpq releases the GIL while it waits, as psycopg does.
    Errors stay psycopg's: a refused statement raises what psycopg would (``error_from_result``), and a
    connection that broke is closed and raises ``OperationalError``, so the link (``pg_link.py``) drops
    it, and tries a fresh one once if it had died while idle."""
    pgconn = conn.pgconn
    try:
        res = pgconn.exec_prepared(name, [arg])
        if res.status != pq.ExecStatus.TUPLES_OK and res.error_field(_SQLSTATE) == _NO_SUCH_STATEMENT:
            # a connection's first call: prepared once on it (psycopg's own ``execute`` prepared a statement
            # it had run five times; without it the server plans the call each time)
            ready = pgconn.prepare(name, statement)
            if ready.status != pq.ExecStatus.COMMAND_OK:
                res = ready
            else:
                res = pgconn.exec_prepared(name, [arg])
    except psycopg.OperationalError:
        conn.close()
        raise
    if res.status == pq.ExecStatus.TUPLES_OK:
        return res.get_value(0, 0)
    if pgconn.status == pq.ConnStatus.BAD:
        message = (pgconn.error_message or b"").decode("utf-8", "replace").strip()
        conn.close()
        raise psycopg.OperationalError(f"the connection to PostgreSQL was lost: {message}")
    raise psycopg.errors.error_from_result(res, encoding="utf-8")


_PREPARED = b"pokerroom_apply_batch"
_LOG_PREPARED = b"pokerroom_apply_log"
_SQLSTATE = pq.DiagnosticField.SQLSTATE
_NO_SUCH_STATEMENT = b"26000"  # invalid_sql_statement_name: not prepared on this connection yet


def codes(value: bytes | None) -> frozenset[str]:
    """The codes of a ``text[]`` in PostgreSQL's text output (``{}``, ``{a,b}``; an element with a comma,
    brace, quote, backslash or space comes quoted, with backslash escapes)."""
    if not value or value == b"{}":
        return frozenset()
    text = value.decode("utf-8")[1:-1]
    if '"' not in text:
        return frozenset(text.split(","))
    out: list[str] = []
    at = 0
    while at < len(text):
        if text[at] == '"':
            at += 1
            chars: list[str] = []
            while text[at] != '"':
                if text[at] == "\\":
                    at += 1
                chars.append(text[at])
                at += 1
            out.append("".join(chars))
            at += 2  # the closing quote and the comma
        else:
            end = text.find(",", at)
            end = len(text) if end < 0 else end
            out.append(text[at:end])
            at = end + 1
    return frozenset(out)

_Raw = orjson.Fragment


def _json(text: str | None) -> Any:
    """Stored JSON text embedded as it is (None: JSON null): it becomes the column's JSONB unparsed here."""
    return None if text is None else _Raw(text.encode())


def _row(row: tuple[Any, ...] | None) -> list[Any] | None:
    """An ``actions`` row's values after its code (the action as JSON)."""
    if row is None:
        return None
    _code, version, kind, player_id, client_msg_id, action, at_ms = row
    return [version, kind, player_id, client_msg_id, _json(action), at_ms]


def _hands(hands: tuple[tuple[Any, ...], ...] | list[tuple[Any, ...]]) -> list[list[Any]]:
    return [[seq, _json(data)] for _code, seq, data in hands]


def encode(ops: list[Op], now_ms: int, tombstone_kept_ms: int) -> bytes:
    """``ops`` (the shapes of ``base``'s ``prepare_*``) as the function's JSON argument. Raises ValueError for
    an unknown operation, before anything is sent."""
    out: list[dict[str, Any]] = []
    for kind, args in ops:
        if kind == "save":
            room, row, hands, prune, fence = args
            code, meta, state, version, at_ms, _snapshot_version, _fence0 = room
            out.append({"k": "save", "c": code, "f": fence, "meta": _json(meta), "state": state, "v": version,
                        "at": at_ms, "row": _row(row), "hands": _hands(hands),
                        "prune": None if prune is None else prune[1]})
        elif kind == "log":
            row, fence = args[0], args[1]
            pre = args[2] if len(args) > 2 else None
            hands = args[3] if len(args) > 3 else ()
            out.append({"k": "log", "c": row[0], "f": fence, "row": _row(row), "hands": _hands(hands),
                        "pre": None if pre is None else _json(pre[1])})
        elif kind == "pre":
            pre, fence = args
            out.append({"k": "pre", "c": pre[0], "f": fence, "pre": _json(pre[1])})
        elif kind == "delete":
            out.append({"k": "delete", "c": args[0], "f": args[1] if len(args) > 1 else None, "now": now_ms,
                        "prune_before": now_ms - tombstone_kept_ms})
        else:
            raise ValueError(f"unknown store operation {kind!r}")
    return orjson.dumps(out)
