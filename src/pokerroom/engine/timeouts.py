"""Deadlines and automatic actions (poker.md §5.8, §8.5).

Rules:
- Betting turn: ``turnSeconds`` (5 s when the player is away). Choice, draw and declaration: ``turnSeconds +
  10``, the same deadline for everyone (away players too: it is nobody's turn). ``handEnd``: 4 s. Rebuy
  decision: 15 s.
- On timeout: Korean betting checks when it can, else dies; NL/PL checks when nothing is to call, else folds;
  choice discards the lowest card and opens the lowest of the rest; draws stand pat; declaration is high;
  handEnd is ready; rebuy is declined.
- Two timeouts in a row (betting, choice, draw or declare) mark the player away; acting directly clears it.
- With the time bank on (engine.time_bank), a betting turn that runs out first spends the player's bank:
  the deadline moves later and nothing times out; only a turn whose bank is empty (or spent) times out.
- ``on_timeout`` handles every decision that is due at ``now_ms`` and returns the same state object untouched
  when nothing is due (so the server can call it freely).
"""

from __future__ import annotations

from typing import Any

from pokerroom import betting as bt
from pokerroom.engine import common, flow, lifecycle, time_bank
from pokerroom.engine.game import bet_action
from pokerroom.engine.host import shift_clock
from pokerroom.engine.log import emit
from pokerroom.engine.state import State

Events = list[dict[str, Any]]


def deadline(state: State) -> int | None:
    """The earliest pending deadline in ms, or None when nothing waits on a clock."""
    if state.phase == "finished":
        return None
    if state.phase == "rebuy":
        return state.rebuy_deadline_at
    hand = state.hand
    if hand is None:
        return None
    if hand.phase in ("betting", "handEnd"):
        return hand.deadline_at
    if hand.phase in common.SIMULTANEOUS:
        waiting = common.pending(state)
        if not waiting:
            return None
        return hand.phase_started_at + common.simultaneous_ms(state)
    return None


def resume_clock(state: State, paused_ms: int) -> tuple[State, Events]:
    """The pending deadline moved ``paused_ms`` later: time during which nobody ran the game (its server was
    stopped, or a room changing servers) is not charged to whoever must decide. The same move as a host's
    pause (:func:`pokerroom.engine.host.shift_clock`), plus a public event (and its Korean log line) that
    says so. Same object, no events, when nothing waits on a clock or ``paused_ms <= 0``; the input is never
    mutated."""
    if deadline(state) is None or paused_ms <= 0:
        return state, []
    s = shift_clock(state, paused_ms)
    ev: Events = []
    seconds = max(1, round(paused_ms / 1000))
    emit(s, ev, {"type": "clockPaused", "seconds": seconds, "deadlineAt": deadline(s)})
    return s, ev


def _strike(state: State, pid: str, phase: str, ev: Events) -> None:
    """Count a timeout; the second in a row marks the player away (§5.8)."""
    seat = common.seat_by_id(state, pid)
    emit(state, ev, {"type": "timeout", "player": pid, "phase": phase})
    seat.timeouts_in_row += 1
    if seat.timeouts_in_row >= 2 and not seat.away:
        seat.away = True
        emit(state, ev, {"type": "away", "player": pid, "away": True})


def auto_bet_action(state: State, pid: str) -> dict[str, Any]:
    """§8.5 betting default for ``pid`` now."""
    hand = state.hand
    assert hand is not None and hand.rnd is not None
    kinds = {a["type"] for a in bt.legal_actions(hand.rnd, hand.bettors, pid)}
    if state.betting == "korean":
        return {"type": "k.check" if "k.check" in kinds else "k.die"}
    return {"type": "nl.check" if "nl.check" in kinds else "nl.fold"}


def on_timeout(state: State, now_ms: int) -> tuple[State, Events]:
    """Apply §8.5 to everyone whose decision is due; no-op (same object, no events) when nothing is."""
    due = deadline(state)
    if due is None or now_ms < due:
        return state, []
    s = state.clone()
    ev: Events = []
    if s.phase == "rebuy":
        for pid in common.pending(s):
            emit(s, ev, {"type": "timeout", "player": pid, "phase": "rebuy"})
            lifecycle.decide_rebuy(s, pid, False, now_ms, ev, resume=False)
        if not common.pending(s) and s.phase == "rebuy":
            lifecycle.next_hand(s, now_ms, ev)
        lifecycle.settle(s, now_ms, ev)
        common.sync_stacks(s)
        return s, ev
    hand = s.hand
    assert hand is not None
    if hand.phase == "betting":
        assert hand.rnd is not None and hand.rnd.to_act is not None
        pid = hand.rnd.to_act
        if time_bank.spend(s, hand, pid, due, ev) and now_ms < (hand.deadline_at or 0):
            return s, ev  # the bank bought more time: no timeout yet
        time_bank.expire(s, hand, pid)
        _strike(s, pid, "betting", ev)
        bet_action(s, pid, auto_bet_action(s, pid), now_ms, ev, auto=True)
    elif hand.phase == "handEnd":
        for pid in common.pending(s):
            hand.players[pid].ready = True
    else:
        phase = hand.phase
        for pid in common.pending(s):
            if now_ms >= hand.phase_started_at + common.simultaneous_ms(s):
                _strike(s, pid, phase, ev)
                flow.auto_simultaneous(s, hand, pid, ev)
        flow.advance(s, now_ms, ev)
    lifecycle.settle(s, now_ms, ev)
    common.sync_stacks(s)
    return s, ev
