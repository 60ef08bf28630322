"""The truth of a room played over several node processes, read from PostgreSQL (the source of truth).

In the single-process tests the server's ``on_commit`` hook records every committed state; node processes
have no such hook, so the test's own database records it instead: an audit trigger (installed by the test
in its fresh database, after the first node created the schema) copies every row written to every table of
the store into ``ctest_audit``. From the snapshots and action-log rows the test then rebuilds the room's
state at *every* version by replaying the log with the real engine, which gives:

- ``state_at`` / ``view_at`` for the frame scanner of the server tests (tests/server/server_helpers.py),
  so the scanner runs unchanged across nodes;
- a replay check: every snapshot a node stored must equal the replay of the log up to it (same deck order,
  same stacks: "the hand goes on with the same next cards"), and no log row is ever rewritten.

Only rows that committed are seen (a fenced write rolled back its savepoint, and its audit row with it).
The trigger is generic (``to_jsonb(NEW)``) so it does not depend on the store's column names; the mapping
to snapshot / log row is in :func:`_snapshot_of` and :func:`_log_row_of`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import psycopg

REPLAYED = frozenset({"action", "bot", "timeout"})  # pokerroom.server.room.rooms.REPLAYED_KINDS

_AUDIT = """
CREATE TABLE IF NOT EXISTS ctest_audit (
    id bigserial PRIMARY KEY, tbl text NOT NULL, op text NOT NULL, row jsonb NOT NULL,
    at timestamptz NOT NULL DEFAULT clock_timestamp());
CREATE OR REPLACE FUNCTION ctest_audit_row() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO ctest_audit(tbl, op, row) VALUES (TG_TABLE_NAME, TG_OP, to_jsonb(NEW));
    RETURN NEW;
END $$;
"""


def install_audit(db_url: str) -> list[str]:
    """Put the audit trigger on every table of the store (call once the schema exists); returns them."""
    with psycopg.connect(db_url, autocommit=True) as conn:
        conn.execute(_AUDIT)
        tables = [r[0] for r in conn.execute(
            "SELECT tablename FROM pg_tables WHERE schemaname = current_schema() "
            "AND tablename NOT IN ('ctest_audit', 'schema_version')").fetchall()]
        for t in tables:
            conn.execute(f'DROP TRIGGER IF EXISTS ctest_audit_t ON "{t}"')
            conn.execute(f'CREATE TRIGGER ctest_audit_t AFTER INSERT OR UPDATE ON "{t}" '
                         "FOR EACH ROW EXECUTE FUNCTION ctest_audit_row()")
    assert tables, "the node created no table: is the PostgreSQL store in use?"
    return tables


def _json(value: Any) -> Any:
    return json.loads(value) if isinstance(value, str) else value


def _snapshot_of(row: dict[str, Any]) -> tuple[str, int, str] | None:
    """(code, version, state text) of a rooms row that holds a state."""
    state = row.get("state")
    if not isinstance(state, str) or "code" not in row:
        return None
    version = row.get("snapshot_version")
    if version is None:
        version = row.get("version")
    return row["code"], int(version), state


def _log_row_of(row: dict[str, Any]) -> tuple[str, int, dict[str, Any]] | None:
    if "kind" not in row or "version" not in row or "code" not in row:
        return None
    at = row.get("at_ms")
    return row["code"], int(row["version"]), {
        "kind": row["kind"], "player_id": row.get("player_id"), "client_msg_id": row.get("client_msg_id"),
        "action": _json(row.get("action")), "at_ms": int(at) if at is not None else 0}


@dataclass
class RoomTruth:
    """A room's state at every version the log can rebuild, and what did not add up."""

    code: str
    engine: Any
    states: dict[int, str] = field(default_factory=dict)  # version -> dump_state text
    log: dict[int, dict[str, Any]] = field(default_factory=dict)  # version -> log row
    problems: list[str] = field(default_factory=list)
    _parsed: dict[int, Any] = field(default_factory=dict)

    # the two methods the frame scanner calls on a "server" (server_helpers.scan_frames)
    def state_at(self, code: str, version: int) -> Any:
        assert code == self.code
        if version not in self._parsed:
            assert version in self.states, f"{code}: no state at v{version} (known {self.span()})"
            self._parsed[version] = json.loads(self.states[version][1:])
        return self._parsed[version]

    def view_at(self, code: str, version: int, viewer: str | None) -> Any:
        return self.engine.view(self.engine.load_state(self.states[version]), viewer)

    def span(self) -> str:
        return f"v{min(self.states)}..v{max(self.states)}" if self.states else "nothing"

    @property
    def newest(self) -> int:
        return max(self.states)

    def final(self) -> Any:
        return self.engine.load_state(self.states[self.newest])


def read_truth(db_url: str, code: str, engine: Any) -> RoomTruth:
    """Rebuild ``code``'s states from the audit: snapshots as stored, versions between them by replay."""
    with psycopg.connect(db_url, autocommit=True) as conn:
        rows = conn.execute("SELECT row FROM ctest_audit ORDER BY id").fetchall()
    truth = RoomTruth(code, engine)
    snapshots: dict[int, list[str]] = {}
    for (raw,) in rows:
        row = _json(raw)
        snap = _snapshot_of(row)
        if snap is not None and snap[0] == code:
            snapshots.setdefault(snap[1], []).append(snap[2])
            continue
        logged = _log_row_of(row)
        if logged is not None and logged[0] == code:
            _, version, entry = logged
            old = truth.log.get(version)
            if old is not None and old != entry:
                truth.problems.append(f"log row v{version} rewritten: {old} -> {entry}")
            truth.log[version] = entry
    for version, texts in snapshots.items():
        if len(set(texts)) > 1:
            truth.problems.append(f"v{version} stored as {len(set(texts))} different states")
    if not snapshots:
        truth.problems.append("no snapshot stored")
        return truth
    top = max([*snapshots, *truth.log])
    state_text: str | None = None
    for version in range(min(snapshots), top + 1):
        row = truth.log.get(version)
        replayed: str | None = None
        if state_text is not None and row is not None and row["kind"] in REPLAYED:
            state = engine.load_state(state_text)
            if row["kind"] == "timeout":
                state, _ = engine.on_timeout(state, row["at_ms"])
            else:
                state, _ = engine.apply(state, row["player_id"], row["action"], row["at_ms"])
            replayed = engine.dump_state(state)
        if version in snapshots:
            stored = snapshots[version][-1]
            if replayed is not None and replayed != stored:
                truth.problems.append(f"v{version}: the stored snapshot differs from the replay of the log")
            state_text = stored
        elif replayed is not None:
            state_text = replayed
        elif version in truth.log or state_text is not None:
            truth.problems.append(f"v{version}: neither a snapshot nor a replayable log row")
            state_text = None
        if state_text is not None:
            truth.states[version] = state_text
    return truth


def acked_in_log(truth: RoomTruth, acks: dict[str, tuple[str | None, int]]) -> list[str]:
    """Acks ``clientMsgId -> (player id, version)`` a client received that the log does not hold."""
    missing = []
    for cmid, (pid, version) in acks.items():
        row = truth.log.get(version)
        if row is None or row["client_msg_id"] != cmid or (pid is not None and row["player_id"] != pid):
            missing.append(f"{cmid}@v{version} (log: {row})")
    return missing


def chips_of(view: dict[str, Any]) -> int | None:
    """Chips on the table in a view taken mid-hand: stacks behind plus everything in the middle (None
    outside betting phases, where pots are being paid out or rebuys add chips)."""
    if view.get("phase") not in ("betting", "choice", "draw", "declare"):
        return None
    return sum(int(s["stack"]) for s in view["seats"]) + int(view["potTotal"])
