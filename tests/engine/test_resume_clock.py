"""resume_clock: the pending deadline moved later by time nobody ran the game, whatever the phase waits on."""

from __future__ import annotations

from typing import Any

from pokerroom.engine import apply, deadline, on_timeout, resume_clock, setup, view
from pokerroom.engine.state import State

T0 = 1_000_000
SAFE = ("ready", "k.check", "nl.check", "k.call", "nl.call", "draw")


def _until(state: State, phase: str, now: int) -> State:
    """Safe moves (ready, check, call, stand pat) until the hand is in ``phase``."""
    for _ in range(60):
        if state.hand is not None and state.hand.phase == phase:
            return state
        acted = False
        for pid in [s.id for s in state.seats]:
            acts: list[dict[str, Any]] = view(state, pid)["me"]["legalActions"]
            kinds = {a["type"] for a in acts}
            move = next((k for k in SAFE if k in kinds), None)
            if move is not None:
                state, _ = apply(state, pid, {"type": move, **({"cards": []} if move == "draw" else {})}, now)
                acted = True
                break
        assert acted, view(state, None)["phase"]
    raise AssertionError(f"no {phase!r}")


def test_a_betting_turn_gets_the_paused_time_back() -> None:
    state = setup(["a", "b", "c"], {"mode": "holdem", "turnSeconds": 15}, seed=3, now_ms=T0)
    due = deadline(state)
    assert due is not None
    moved, events = resume_clock(state, 20_000)
    assert deadline(moved) == due + 20_000 and deadline(state) == due  # the input is left as it was
    assert events == [{"type": "clockPaused", "seconds": 20, "deadlineAt": due + 20_000}]
    line = moved.public_log[-1]["text"]
    assert "20초" in line and "멈춰" in line
    # the old deadline is no longer due; the new one is
    assert on_timeout(moved, due + 1)[0] is moved
    assert on_timeout(moved, due + 20_000)[1][0]["type"] == "timeout"
    assert view(moved, None)["deadlineAt"] == due + 20_000


def test_nothing_to_move_is_no_change() -> None:
    state = setup(["a", "b"], {"mode": "holdem"}, seed=1, now_ms=T0)
    assert resume_clock(state, 0) == (state, [])
    assert resume_clock(state, -5) == (state, [])


def test_a_simultaneous_phase_moves_everyones_deadline() -> None:
    state = _until(setup(["a", "b", "c"], {"mode": "badugi", "turnSeconds": 15}, seed=5, now_ms=T0), "draw",
                   T0)
    due = deadline(state)
    assert due is not None
    moved, _ = resume_clock(state, 7_500)
    assert deadline(moved) == due + 7_500
    assert on_timeout(moved, due)[0] is moved
