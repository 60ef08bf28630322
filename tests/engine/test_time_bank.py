"""The time bank (engine.time_bank, docs/decisions/0047-time-bank.md): extra seconds a betting turn spends
before it times out; only a turn whose bank is empty times out and counts toward §5.8's away rule."""

from __future__ import annotations

import json
import random
from typing import Any

from engine_support import actors, random_choice_action
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pokerroom.engine import (
    State,
    StateViews,
    apply,
    deadline,
    on_timeout,
    resume_clock,
    setup,
    state_hash,
    view,
)
from pokerroom.engine.host import shift_clock
from pokerroom.engine.seating import join_seat
from pokerroom.rejections import Rejected

T0 = 1_000_000
BANKED = {"mode": "holdem", "turnSeconds": 15, "timeBank": 30, "timeBankEvery": 5}


def _banks(state: State) -> dict[str, Any]:
    return {s["id"]: (s["timeBank"], s["timeBankInUse"]) for s in view(state, None)["seats"]}


def _to_act(state: State) -> str:
    pid = view(state, None)["toAct"]
    assert isinstance(pid, str)
    return pid


def test_off_by_default_writes_nothing_and_times_out_as_before() -> None:
    state = setup(["a", "b", "c"], {"mode": "holdem", "turnSeconds": 15}, seed=3, now_ms=T0)
    assert all("timeBank" not in s for s in view(state, None)["seats"])
    assert all("bank_ms" not in s for s in state.to_json()["seats"])
    due = deadline(state)
    assert due == T0 + 15_000
    _, events = on_timeout(state, due)
    assert events[0]["type"] == "timeout"


def test_a_turn_that_runs_out_spends_the_bank_instead_of_timing_out() -> None:
    state = setup(["a", "b", "c"], BANKED, seed=3, now_ms=T0)
    pid = _to_act(state)
    assert _banks(state)[pid] == (30, False)
    due = deadline(state)
    assert due == T0 + 15_000
    spent, events = on_timeout(state, due + 40)  # a timer a little late eats nothing
    assert events == [{"type": "timeBank", "player": pid, "seconds": 30, "deadlineAt": due + 30_000}]
    assert deadline(spent) == due + 30_000 and _to_act(spent) == pid
    assert _banks(spent)[pid] == (30, True)
    seat = spent.seat_of(pid)
    assert seat is not None and seat.timeouts_in_row == 0 and not seat.away
    assert "타임뱅크 사용 (30초)" in spent.public_log[-1]["text"]
    # 12.2 s of bank used: 13 whole seconds are taken (a second begun is spent), 17 stay for later turns
    acted, events = apply(spent, pid, {"type": "nl.call"}, due + 12_200)
    assert events[0] == {"type": "timeBankUsed", "player": pid, "seconds": 13, "left": 17}
    assert _banks(acted)[pid] == (17, False)
    assert deadline(acted) == due + 12_200 + 15_000  # the next player has the usual 15 s


def test_only_an_empty_bank_times_out_and_two_of_those_mark_away() -> None:
    state = setup(["a", "b", "c"], BANKED, seed=3, now_ms=T0)
    pid = _to_act(state)
    state, _ = on_timeout(state, deadline(state) or 0)
    state, events = on_timeout(state, deadline(state) or 0)  # the bank ran out too: now the turn times out
    assert [e["type"] for e in events[:2]] == ["timeout", "action"]
    assert _banks(state)[pid] == (0, False)
    seat = state.seat_of(pid)
    assert seat is not None and seat.timeouts_in_row == 1 and not seat.away
    # play on (the others call or check, the hand's end passes) until pid's next turn: with its bank empty
    # it times out at 15 s, no bank, and that second timeout in a row marks it away (§5.8 as written)
    now = deadline(state) or 0
    for _ in range(40):
        if view(state, None)["phase"] == "betting" and _to_act(state) == pid:
            break
        now += 1000
        if view(state, None)["phase"] == "betting":
            other = _to_act(state)
            move = "nl.call" if view(state, other)["me"]["toCall"] else "nl.check"
            state, _ = apply(state, other, {"type": move}, now)
        else:
            now = max(now, deadline(state) or now)
            state, _ = on_timeout(state, now)
    assert _to_act(state) == pid
    due = deadline(state) or 0
    state, events = on_timeout(state, due)
    assert events[0] == {"type": "timeout", "player": pid, "phase": "betting"}
    assert {"type": "away", "player": pid, "away": True} in events


def test_a_timer_that_fires_after_the_bank_ran_out_times_the_turn_out_at_once() -> None:
    state = setup(["a", "b", "c"], BANKED, seed=3, now_ms=T0)
    pid = _to_act(state)
    state, events = on_timeout(state, T0 + 15_000 + 31_000)  # a restart after both deadlines
    assert [e["type"] for e in events[:3]] == ["timeBank", "timeout", "action"]
    assert _banks(state)[pid] == (0, False)


def test_an_away_player_keeps_the_five_seconds_of_the_away_rule() -> None:
    state = setup(["a", "b", "c"], BANKED, seed=3, now_ms=T0)
    pid = _to_act(state)
    seat = state.seat_of(pid)
    assert seat is not None
    seat.away = True
    _, events = on_timeout(state, deadline(state) or 0)
    assert events[0]["type"] == "timeout"


def test_a_pause_moves_the_bank_with_the_deadline() -> None:
    state = setup(["a", "b", "c"], BANKED, seed=3, now_ms=T0)
    pid = _to_act(state)
    due = deadline(state) or 0
    state, _ = on_timeout(state, due)
    paused = shift_clock(state, 60_000)  # a minute's pause 5 s into the bank
    assert deadline(paused) == due + 90_000
    acted, events = apply(paused, pid, {"type": "nl.fold"}, due + 60_000 + 5_000)
    assert events[0] == {"type": "timeBankUsed", "player": pid, "seconds": 5, "left": 25}
    # the same after a restart: the state comes back from JSON and the downtime is given back
    back = State.from_json(json.loads(json.dumps(state.to_json())))
    assert state_hash(back) == state_hash(state)
    moved, _ = resume_clock(back, 60_000)
    assert deadline(moved) == deadline(paused)
    again, events = apply(moved, pid, {"type": "nl.fold"}, due + 60_000 + 5_000)
    assert events[0]["left"] == 25 and _banks(again) == _banks(acted)


def test_banks_refill_every_n_hands_and_a_late_joiner_gets_one() -> None:
    state = setup(["a", "b"], {**BANKED, "timeBankEvery": 5}, seed=7, now_ms=T0)
    pid = _to_act(state)
    now = T0
    state, _ = on_timeout(state, deadline(state) or 0)
    now = (deadline(state) or 0) - 20_000  # 10 s of bank used
    state, _ = apply(state, pid, {"type": "nl.fold"}, now)
    assert _banks(state)[pid][0] == 20
    state, _ = join_seat(state, "late", now)
    assert _banks(state)["late"] == (30, False)
    refills = []
    while state.hands_played < 6:
        now += 1000
        if state.phase == "playing" and state.hand is not None and state.hand.phase == "betting":
            state, ev = apply(state, _to_act(state), {"type": "nl.fold"}, now)
        else:
            state, ev = on_timeout(state, max(now, deadline(state) or now))
            now = max(now, deadline(state) or now)
        refills += [(state.hands_played, e) for e in ev if e["type"] == "timeBankRefill"]
        if state.hands_played < 5:
            assert _banks(state)[pid][0] == 20  # kept until the refill
    assert refills == [(5, {"type": "timeBankRefill", "seconds": 30})]
    assert all(bank == 30 for bank, _ in _banks(state).values())


def test_the_options_are_checked_in_korean() -> None:
    for bad in ({"timeBank": 45}, {"timeBank": True}, {"timeBankEvery": 3}):
        try:
            setup(["a", "b"], {"mode": "holdem", **bad}, seed=1)
        except Rejected as exc:
            assert "타임뱅크" in exc.message
        else:
            raise AssertionError(f"accepted {bad}")


def _play(seed: int, steps: int, pause_at: int | None, pause_ms: int) -> tuple[State, list[str]]:
    """A random game with many timeouts; with ``pause_at``, a pause of ``pause_ms`` at that step and every
    later move that much later."""
    rng = random.Random(seed)
    state = setup(["a", "b", "c"], {**BANKED, "mode": ["holdem", "sevenPoker"][seed % 2]}, seed=seed,
                  now_ms=T0)
    now = T0
    shift = 0
    strikes: list[str] = []
    full = 30_000
    views: StateViews | None = None
    for step in range(steps):
        if state.phase == "finished":
            break
        if step == pause_at:
            state = shift_clock(state, pause_ms)
            shift += pause_ms
        now += rng.choice([500, 3_000, 9_000])
        due = deadline(state)
        acting = actors(state)
        if due is not None and (now + shift >= due or not acting or rng.random() < 0.3):
            now = max(now, due - shift)
            before = {s.id: s.bank_ms for s in state.seats}
            state, events = on_timeout(state, now + shift)
            for e in events:
                if e["type"] == "timeout" and e["phase"] == "betting":
                    seat = state.seat_of(e["player"])
                    assert seat is not None and (seat.bank_ms == 0 or seat.away or before[seat.id] == 0)
                    strikes.append(e["player"])
        else:
            pid, legal = rng.choice(acting)
            state, _ = apply(state, pid, random_choice_action(rng, rng.choice(legal)), now + shift)
        for s in state.seats:  # a bank holds whole seconds, never more than the option
            assert s.bank_ms is not None and 0 <= s.bank_ms <= full and s.bank_ms % 1000 == 0
        hand = state.hand
        if hand is not None and hand.bank_from is not None:
            assert hand.phase == "betting" and hand.turn_of is not None
            assert hand.deadline_at is not None and hand.bank_from < hand.deadline_at
        assert state_hash(State.from_json(json.loads(json.dumps(state.to_json())))) == state_hash(state)
        # the server's views (seat dicts reused from the previous change) are exactly view()'s, bank and all
        views = StateViews(state, views)
        for viewer in (["a", "b", "c"][step % 3], None):
            assert views.of(viewer) == view(state, viewer)
    return state, strikes


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**32), pause_at=st.integers(min_value=0, max_value=59),
       pause_ms=st.integers(min_value=1, max_value=600_000))
def test_a_pause_anywhere_changes_no_bank_no_strike_and_no_chip(seed: int, pause_at: int,
                                                                 pause_ms: int) -> None:
    plain, strikes = _play(seed, 60, None, 0)
    paused, strikes_paused = _play(seed, 60, pause_at, pause_ms)

    def facts(state: State) -> list[Any]:
        return [(s.id, s.stack, s.bank_ms, s.away, s.timeouts_in_row, s.status) for s in state.seats]

    assert facts(paused) == facts(plain) and strikes_paused == strikes
    assert [e["text"] for e in paused.public_log] == [e["text"] for e in plain.public_log]
