"""What the room's host changes in a running game outside the play: the stakes from the next hand, ending
the game early, and moving every deadline past a pause.

Why a module of its own: these are not a seat's actions (``apply`` is what players do, checked against whose
turn it is); the server calls them for the host between moves, and each is pure like ``apply`` (the input is
never changed, a refusal raises :class:`Rejected`). Why the engine and not the server: a hand in play keeps
its stakes, so new ones must wait for the hand's end, which happens inside the engine (``lifecycle``); and a
deadline lives in the state, so only the engine can move it without reading its insides.

Rules (docs/decisions/0043-host-runs-the-table.md):
- :func:`change_stakes` takes the room's options validated like the lobby's; only ``baseUnit`` and
  ``startingChips`` may differ from the game's (``baseUnit`` is the ante, or the big blind in the blind
  modes). They take effect when the hand in play ends (after that hand's blind increase: the host's base
  unit wins), at once between hands (the rebuy decision). The new stack is what rebuys and newcomers get from
  then on; the chips each seat was given so far are written on it, so scores stay exact. Choosing the
  stakes in force again cancels a change still waiting.
- :func:`end_early` ends the game with its normal result (§6.7): at once between hands (a pending rebuy is
  declined), else when the hand in play ends (no rebuy is offered after it). ``end_reason`` is ``"host"``.
- :func:`shift_clock` moves every pending deadline by the length of a pause, so each decision resumes with the
  time it had (a time bank being spent included: engine.time_bank).
"""

from __future__ import annotations

from pokerroom.engine import common, lifecycle, time_bank
from pokerroom.engine.log import emit
from pokerroom.engine.options import PokerOptions
from pokerroom.engine.state import State
from pokerroom.rejections import Rejected

Events = common.Events

GAME_OVER = ("game_over", "게임이 이미 끝났어요")
ONLY_STAKES = ("only_stakes", "게임 중에는 기본 단위와 시작 칩만 바꿀 수 있어요")
SAME_STAKES = ("same_stakes", "지금과 같은 설정이에요")
ALREADY_ENDING = ("already_ending", "이번 판이 끝나면 게임을 마치기로 이미 정했어요")
STAKE_KEYS = frozenset({"baseUnit", "startingChips"})


def change_stakes(state: State, options: PokerOptions, now_ms: int = 0) -> tuple[State, Events]:
    """New stakes from the next hand (see the module's rules). ``options``: the room's options with the new
    ``baseUnit`` / ``startingChips``, validated as :class:`PokerOptions` (the lobby's checks)."""
    if state.phase == "finished":
        raise Rejected(*GAME_OVER)
    old, new = state.options.to_json(), options.to_json()
    if any(old[k] != new[k] for k in old if k not in STAKE_KEYS):
        raise Rejected(*ONLY_STAKES)
    same = options.base_unit == state.base_unit and options.starting_chips == state.options.starting_chips
    if same and state.next_options is None:
        raise Rejected(*SAME_STAKES)
    s = state.clone()
    ev: Events = []
    if same:
        s.next_options = None
        emit(s, ev, {"type": "stakesSet", "baseUnit": None, "startingChips": None})
        return s, ev
    s.next_options = options
    emit(s, ev, {"type": "stakesSet", "baseUnit": options.base_unit, "startingChips": options.starting_chips})
    if s.phase == "rebuy":  # between hands already: the next hand is the one about to be dealt
        lifecycle.apply_stakes(s, ev)
    return s, ev


def end_early(state: State, now_ms: int) -> tuple[State, Events]:
    """The host ends the game (see the module's rules); the result is ``result(state)`` once finished."""
    if state.phase == "finished":
        raise Rejected(*GAME_OVER)
    if state.end_after_hand:
        raise Rejected(*ALREADY_ENDING)
    s = state.clone()
    ev: Events = []
    s.end_after_hand = True
    emit(s, ev, {"type": "endAfterHand"})
    if s.phase == "rebuy":
        for pid in common.pending(s):
            lifecycle.decide_rebuy(s, pid, False, now_ms, ev, resume=False)
        lifecycle.finish(s, ev, lifecycle.HOST_END)
    elif s.hand is not None and s.hand.phase == "handEnd":
        lifecycle.after_hand(s, now_ms, ev)
    return s, ev


def shift_clock(state: State, delta_ms: int) -> State:
    """``state`` with every pending deadline ``delta_ms`` later (a pause's length); the same state when
    nothing waits on a clock or ``delta_ms`` is not positive."""
    if delta_ms <= 0 or (state.hand is None and state.rebuy_deadline_at is None):
        return state
    s = state.clone()
    if s.rebuy_deadline_at is not None:
        s.rebuy_deadline_at += delta_ms
    hand = s.hand
    if hand is not None:
        if hand.deadline_at is not None:
            hand.deadline_at += delta_ms
        hand.phase_started_at += delta_ms
        time_bank.shift(hand, delta_ms)
    return s
