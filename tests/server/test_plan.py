"""The pure core of a room's change (server/room/plan.py): a plan is computed from values only, never changes
the table it starts from, and stores a change as a snapshot exactly when a replay could not rebuild it."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pokerroom import engine
from pokerroom.history import HistoryRecorder
from pokerroom.server.engine_port import PokerEngine
from pokerroom.server.room import preactions as pre
from pokerroom.server.room.botseat import cautious_decide, legal_actions
from pokerroom.server.room.model import Member, Table
from pokerroom.server.room.plan import (
    REPLAYED_KINDS,
    SNAPSHOT_EVERY,
    plan_change,
    plan_pre,
    plan_save,
    review_preactions,
    snapshot_needed,
)
from pokerroom.server.room.recording import record
from pokerroom.server.storage import LogRow

PORT = PokerEngine()
IDS = ["p1", "p2", "p3"]


def _table(seed: int) -> tuple[Table, HistoryRecorder]:
    """A three-seat hold'em table whose game has just started (dealt from ``seed``)."""
    options = PORT.parse_options({"mode": "holdem", "handLimit": 10})
    lo, hi = PORT.player_range(options)
    state, _events = engine.setup_with_events(IDS, options, seed=seed, now_ms=1_000)
    recorder = HistoryRecorder(IDS, int(PORT.options_json(options).get("startingChips") or 0))
    members = {pid: Member(pid, f"n{pid}", "d" + pid, False, "seated", i + 1) for i, pid in enumerate(IDS)}
    table = Table("ABCD", 1_000, options, PORT.options_json(options), lo, hi, members=members, host_id="p1",
                  phase="playing", version=1, game_no=1, next_seq=4, state=state, game_players=list(IDS),
                  recorder_json=recorder.to_json())
    return table, recorder


def _frozen(table: Table) -> tuple[str, int, Any, str]:
    """What a change must leave as it was: the stored part, the state (by identity), the pre-actions."""
    stored = json.dumps(table.meta(), sort_keys=True)
    return stored, table.version, table.state, json.dumps(table.pre.to_json())


def _action(view: dict[str, Any], pick: int) -> dict[str, Any]:
    """One of the viewer's legal bets, as a client sends it (a raise to its minimum); anything else (a
    rebuy, ...) as the cautious bot answers it."""
    chosen = legal_actions(view)[pick % len(legal_actions(view))]
    if "min" in chosen:
        return {"type": chosen["type"], "to": chosen["min"]}
    if chosen["type"].rsplit(".", 1)[-1] in ("fold", "check", "call", "allIn"):
        return {"type": chosen["type"]}
    fallback = cautious_decide(view)
    assert fallback is not None
    return fallback


@pytest.mark.parametrize("kind", sorted(REPLAYED_KINDS | {"start", "leave", "kick", "join"}))
@pytest.mark.parametrize("recorded_apart", [False, True])
@pytest.mark.parametrize("ended_hand", [False, True])
@pytest.mark.parametrize("ended_game", [False, True])
@pytest.mark.parametrize("log_only", [0, SNAPSHOT_EVERY - 1, SNAPSHOT_EVERY])
def test_snapshot_or_log_row(kind: str, recorded_apart: bool, ended_hand: bool, ended_game: bool,
                             log_only: int) -> None:
    """A log row alone only for a replayable change inside a hand, while the replay stays bounded."""
    log_row = (kind in REPLAYED_KINDS and not recorded_apart and not ended_hand and not ended_game
               and log_only < SNAPSHOT_EVERY)
    assert snapshot_needed(kind, recorded_apart=recorded_apart, ended_hand=ended_hand, ended_game=ended_game,
                           log_only=log_only) is not log_row


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32), st.lists(st.integers(0, 7), min_size=1, max_size=60),
       st.integers(0, SNAPSHOT_EVERY))
def test_a_plan_never_changes_the_table_it_starts_from(seed: int, picks: list[int], log_only: int) -> None:
    """Play a game's actions through plans: each plan leaves its input table as it was, its table is the
    change's new value, and it is stored as a snapshot exactly when ``snapshot_needed`` says so."""
    table, recorder = _table(seed)
    hand_seq = 0
    for version, pick in enumerate(picks, start=2):
        if table.phase != "playing":
            break
        state = table.game_state
        mover = next((pid for pid in IDS if legal_actions(PORT.view(state, pid))), None)
        if mover is None:
            break
        action = _action(PORT.view(state, mover), pick)
        new_state, events = PORT.apply(state, mover, action, 1_000 + version)
        row = LogRow(version, "action", mover, f"m{version}", action, 1_000 + version)
        before = _frozen(table)
        recorded = record(PORT, table, new_state, events, version, recorder, None)
        plan = plan_change(PORT, table, new_state, row, recorded, recorder, log_only=log_only)
        assert _frozen(table) == before  # rollback is keeping this value: it must be intact
        assert plan.table is not table and plan.table.state is new_state and plan.table.version == version
        assert plan.table.hand_seq == recorded.hand_seq >= hand_seq
        ended = any(h.seq > table.hand_seq for h in plan.finished)
        expected = snapshot_needed("action", recorded_apart=False, ended_hand=ended,
                                   ended_game=plan.result is not None, log_only=log_only)
        assert plan.snapshot is expected
        if expected:
            assert plan.write.op == "save" and plan.log_only == 0
            assert plan.write.args[0] == plan.table.meta() and plan.write.args[4] is row
        else:
            assert plan.write.op == "log" and plan.write.args[0] is row and plan.log_only == log_only + 1
        assert (plan.result is not None) == (plan.table.phase == "finished")
        table, hand_seq, log_only = plan.table, plan.table.hand_seq, plan.log_only


def test_a_save_and_a_preactions_write_are_plans_too() -> None:
    table, _recorder = _table(7)
    before = _frozen(table)
    saved = plan_save(PORT, table, 5_000)
    assert saved.table is table and saved.snapshot and saved.log_only == 0
    assert saved.write.args == (table.meta(), PORT.dump_state(table.game_state), table.version, 5_000, None)
    kept = plan_pre(table, 12)
    assert kept.write.op == "pre" and kept.write.args == (table.pre.to_json(),) and kept.log_only == 12
    assert not kept.snapshot and _frozen(table) == before


def test_reviewing_preactions_returns_a_new_value() -> None:
    table, _recorder = _table(11)
    nobody = pre.PreActions()
    assert review_preactions(PORT, nobody, table.game_state, 2) == (nobody, [])
    waiting = next(pid for pid in IDS if not legal_actions(PORT.view(table.game_state, pid))
                   and pre.offered(PORT.view(table.game_state, pid)))
    chosen = pre.choose(PORT.view(table.game_state, waiting), "checkFold")
    assert chosen is not None
    book = pre.PreActions()
    book.chosen[waiting] = chosen
    untouched = copy.deepcopy(book.to_json())
    kept, _due = review_preactions(PORT, book, table.game_state, 2)
    assert kept is not book and book.to_json() == untouched
