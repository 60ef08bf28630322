"""Between hands: hand-end readiness, blind increases, busts, rebuys, eliminations and the end of the game
(poker.md §5.1 step 9, §5.6, §5.7, §6.7).

Rules:
- After ``handEnd`` (everyone ready, or 4 s): blinds double every ``blindUpEvery`` hands (capped at
  startingChips / 5); a busted player with rebuys left is asked (15 s, default no) unless the game is over
  (``hands``: never after the last hand); otherwise they are eliminated. ``left`` players never rebuy.
- The game ends after ``handLimit`` hands, when one player has chips (``lastStanding``), at 300 hands
  (safety), or at once when at most one connected player has chips (or may still rebuy).
- The host's changes between hands (engine.host): new stakes take effect here, after the blind increase (the
  host's base unit wins), before rebuys (which get the new stack); a game the host ended ends here, its
  busted players not asked to rebuy.
- :func:`settle` is called after every change: it moves the game on whenever nobody needs to be waited for.
"""

from __future__ import annotations

from pokerroom.engine import flow, seating, time_bank
from pokerroom.engine.common import (
    REBUY_MS,
    SAFETY_HANDS,
    Events,
    chips_given,
    connected_with_chips,
    is_left,
    pending,
    rebuy_possible,
    seat_by_id,
)
from pokerroom.engine.log import emit
from pokerroom.engine.showdown import split_carry_at_game_end
from pokerroom.engine.state import Seat, State

#: ``end_reason`` of a game the host ended early (engine.host)
HOST_END = "host"


def settle(state: State, now: int, ev: Events) -> None:
    """Move on from a finished hand when nobody needs to be waited for (or nobody is left to play)."""
    while state.phase == "playing" and state.hand is not None and state.hand.phase == "handEnd":
        if connected_with_chips(state) <= 1:
            after_hand(state, now, ev, force_end=True)
        elif not pending(state):
            after_hand(state, now, ev)
        else:
            return


def after_hand(state: State, now: int, ev: Events, *, force_end: bool = False) -> None:
    """§5.1 step 9, §5.6, §5.7, §6.7."""
    hand = state.hand
    assert hand is not None
    hand.deadline_at = None
    time_bank.end_turn(hand)
    opts = state.options
    if opts.mode == "indian":  # the hand's cards joined indian_used at its end (showdown._indian_reveal)
        state.indian_deck = hand.deck
        hand.deck = []
    host_end = state.end_after_hand  # the host ended the game during this hand (engine.host)
    force_end = force_end or host_end
    last = (opts.end_condition == "hands" and state.hands_played >= opts.hand_limit) or (
        state.hands_played >= SAFETY_HANDS)
    if opts.blind_up_every and state.hands_played % opts.blind_up_every == 0 and not last and not force_end:
        cap = opts.starting_chips // 5
        new = min(state.base_unit * 2, cap)
        if new > state.base_unit:
            state.base_unit = new
            state.level += 1
            emit(state, ev, {"type": "blindUp", "baseUnit": new, "level": state.level})
    if state.next_options is not None and not force_end:
        apply_stakes(state, ev)  # after the blind increase: the host's base unit is the next hand's
    eliminated: list[str] = []
    state.rebuy_pending = []
    for s in state.seats:
        if s.id not in hand.bettors:
            continue
        if s.stack == 0 and s.status in ("busted", "left"):
            if s.status == "busted" and rebuy_possible(state, s) and not force_end:
                state.rebuy_pending.append(s.id)
                s.rebuy_decided = False
            else:
                eliminate(state, s, hand.hand_no, ev, eliminated)
    if force_end:  # the reason the next hand would give (lastStanding, hands ...), else opponents are gone
        finish(state, ev, HOST_END if host_end else end_reason(state) or "noOpponents")
        return
    if state.rebuy_pending:
        state.phase = "rebuy"
        state.rebuy_deadline_at = now + REBUY_MS
        for pid in list(state.rebuy_pending):
            if is_left(state, pid):
                decide_rebuy(state, pid, False, now, ev, resume=False)
        if pending(state):
            return
    next_hand(state, now, ev)


def apply_stakes(state: State, ev: Events) -> None:
    """The host's new stakes (``state.next_options``) take effect: the base unit of the next hand and the
    stack of rebuys and newcomers from now on. A new stack first writes down, on every seat, what it was
    given so far (``common.chips_given``), so scores and chip counts stay exact across the change."""
    new = state.next_options
    assert new is not None
    state.next_options = None
    if new.starting_chips != state.options.starting_chips:
        for s in state.seats:
            s.start_chips, s.rebuy_chips = chips_given(state, s)
    state.options = new
    state.base_unit = new.base_unit
    emit(state, ev, {"type": "stakesChanged", "baseUnit": new.base_unit, "startingChips": new.starting_chips})


def eliminate(state: State, s: Seat, hand_no: int, ev: Events, group: list[str] | None = None) -> None:
    if s.status != "left":
        s.status = "eliminated"
    s.eliminated_at_hand = hand_no
    if state.elimination_seq and all(
        seat_by_id(state, pid).eliminated_at_hand == hand_no for pid in state.elimination_seq[-1]
    ):
        state.elimination_seq[-1].append(s.id)
    else:
        state.elimination_seq.append([s.id])
    emit(state, ev, {"type": "eliminated", "player": s.id, "handNo": hand_no})


def decide_rebuy(state: State, pid: str, accept: bool, now: int, ev: Events, *, resume: bool = True) -> None:
    s = seat_by_id(state, pid)
    s.rebuy_decided = True
    if accept:
        s.stack = state.options.starting_chips
        s.rebuys += 1
        if s.rebuy_chips is not None:  # the host changed the stack mid-game: count what each rebuy brought
            s.rebuy_chips += s.stack
        s.status = "playing"
    emit(state, ev, {"type": "rebuy", "player": pid, "accept": accept})
    if not accept:
        hand_no = state.hand.hand_no if state.hand is not None else 0
        eliminate(state, s, hand_no, ev)
    if resume and not pending(state):
        next_hand(state, now, ev)


def end_reason(state: State) -> str | None:
    """§6.7: why the game ends now, or None to play on."""
    opts = state.options
    if opts.end_condition == "hands" and state.hands_played >= opts.hand_limit:
        return "hands"
    if opts.end_condition == "lastStanding" and state.hands_played >= SAFETY_HANDS:
        return "safety"
    with_chips = [s for s in state.seats if s.status in ("playing", "left") and s.stack > 0]
    if len(with_chips) <= 1:
        return "lastStanding" if opts.end_condition == "lastStanding" else "noOpponents"
    if sum(1 for s in with_chips if s.status == "playing") <= 1:
        return "noOpponents"
    return None


def next_hand(state: State, now: int, ev: Events) -> None:
    state.phase = "playing"
    state.rebuy_pending = []
    state.rebuy_deadline_at = None
    for s in state.seats:
        s.rebuy_decided = False
    reason = end_reason(state)
    if reason is not None:
        finish(state, ev, reason)
        return
    seating.before_hand(state, ev)
    flow.start_hand(state, now, ev)


def finish(state: State, ev: Events, reason: str) -> None:
    """The game is over (§6.7). An Indian carry still pending is split among the last hand's tied players."""
    split_carry_at_game_end(state, ev)
    state.phase = "finished"
    state.end_reason = reason
    state.rebuy_pending = []
    state.rebuy_deadline_at = None
    if state.hand is not None:
        state.hand.deadline_at = None
        time_bank.end_turn(state.hand)
    emit(state, ev, {"type": "gameEnd", "reason": reason})
