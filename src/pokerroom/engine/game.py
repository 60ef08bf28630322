"""``setup`` and ``apply``: the two ways a game changes (poker.md §4, §8.2).

Rules:
- ``apply`` never mutates its input: it parses the wire dict (:mod:`pokerroom.engine.actions`), clones the
  state, validates and mutates the clone, and returns ``(new_state, events)``. A refusal is a
  :class:`~pokerroom.rejections.Rejected` with a stable code and a Korean reason; the caller keeps the old
  state.
- Acting directly clears the away mark and the timeout streak (§5.8); ``leave`` is the server's injection and
  never does. ``sitOut`` / ``sitIn`` (sitting out by choice, from the next hand) are actions of the seat
  itself, allowed at any time of a running game (:mod:`pokerroom.engine.seating`); ``join_seat`` there adds a
  seat between hands.
- After every change the hand is driven forward by :func:`pokerroom.engine.flow.advance` until a live player
  must decide, so the returned state always waits on somebody (or is finished).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pokerroom import betting as bt
from pokerroom.engine import common, flow, lifecycle, run_twice, seating, time_bank
from pokerroom.engine.actions import BETTING_TYPES, FOLD_TYPES, KOREAN_TYPES, parse_action
from pokerroom.engine.hint_names import shown_name
from pokerroom.engine.log import emit
from pokerroom.engine.modes import Draw
from pokerroom.engine.options import PokerOptions, player_range, resolved_betting
from pokerroom.engine.state import HandPlayer, Seat, State
from pokerroom.rejections import ALREADY_CHOSE, ALREADY_FOLDED, NOT_YOUR_TURN, Rejected, reject
from pokerroom.rng import DealRng

Events = list[dict[str, Any]]

WRONG_PHASE = ("wrong_phase", "지금은 할 수 없는 행동이에요")
NOT_SEATED = ("not_seated", "이 방의 참가자가 아니에요")
NOT_IN_HAND = ("not_in_hand", "이번 판에 참가하고 있지 않아요")
GAME_OVER = ("game_over", "게임이 이미 끝났어요")
ALREADY_LEFT = ("already_left", "이미 방을 나갔어요")
WRONG_SYSTEM = ("wrong_betting_system", "이 방의 베팅 방식에서는 쓸 수 없는 행동이에요")
BAD_CARDS = ("bad_cards", "고를 수 없는 카드예요")
SAME_CARD = ("same_card", "버릴 카드와 보여 줄 카드는 달라야 해요")
ALREADY_DREW = ("already_drew", "이미 교환할 카드를 냈어요")
DRAW_LIMIT = ("draw_limit", "그만큼 바꿀 수 없어요")
ALREADY_DECLARED = ("already_declared", "이미 선언했어요")
ALREADY_READY = ("already_ready", "이미 준비했어요")
ALREADY_ANSWERED = ("already_answered", "이미 답했어요")
CANNOT_SHOW = ("cannot_show", "카드를 보여 줄 수 있는 건 상대가 모두 다이해서 이긴 사람뿐이에요")
NO_REBUY = ("no_rebuy", "지금은 리바이할 수 없어요")


def setup(player_ids: list[str], options: PokerOptions | dict[str, Any] | None = None,
          seed: bytes | str | int | None = None, now_ms: int = 0) -> State:
    """§4: seat shuffle and first dealer from the seeded rng, starting chips, then the first hand.

    The first hand's events (``handStart``, forced bets, ``dealt``, ``roundStart`` ...) are dropped here; use
    :func:`setup_with_events` to get them (e.g. for a recorder).
    """
    return setup_with_events(player_ids, options, seed, now_ms)[0]


def setup_with_events(player_ids: list[str], options: PokerOptions | dict[str, Any] | None = None,
                      seed: bytes | str | int | None = None, now_ms: int = 0) -> tuple[State, Events]:
    """:func:`setup`, also returning the public events of starting the first hand (as ``apply`` does)."""
    opts = options if isinstance(options, PokerOptions) else PokerOptions.from_json(options)
    low, high = player_range(opts)
    if len(player_ids) > high:
        raise Rejected("too_many_players", f"이 모드는 최대 {high}명까지 할 수 있어요")
    if len(player_ids) < low:
        raise Rejected("too_few_players", f"이 모드는 최소 {low}명이 있어야 해요")
    if len(set(player_ids)) != len(player_ids) or not all(isinstance(p, str) and p for p in player_ids):
        raise Rejected("bad_players", "참가자 이름이 올바르지 않아요")
    rng = DealRng.from_seed(seed)
    order = rng.shuffled(list(player_ids))
    first_dealer = rng.randbelow(len(order))
    state = State(
        options=opts,
        betting=resolved_betting(opts),
        rng=rng,
        seats=[Seat(pid, i, opts.starting_chips) for i, pid in enumerate(order)],
        base_unit=opts.base_unit,
        first_dealer_seat=first_dealer,
    )
    ev: Events = []
    flow.start_hand(state, now_ms, ev)
    lifecycle.settle(state, now_ms, ev)
    common.sync_stacks(state)
    return state, ev


def apply(state: State, player_id: str, action: Any, now_ms: int) -> tuple[State, Events]:
    """Apply one wire action of ``player_id``; returns the new state and the public events."""
    act = parse_action(action)
    seat = state.seat_of(player_id) if isinstance(player_id, str) else None
    if seat is None:
        raise reject(NOT_SEATED)
    kind = act["type"]
    if state.phase == "finished" and kind != "leave":
        raise reject(GAME_OVER)
    s = state.clone()
    ev: Events = []
    seat = s.seat_of(player_id)
    assert seat is not None
    if kind == "leave":
        _leave(s, seat, now_ms, ev)
    else:
        if seat.status == "left":
            raise reject(ALREADY_LEFT)
        handler = _betting if kind in BETTING_TYPES else _HANDLERS[kind]
        handler(s, seat, act, now_ms, ev)
        _came_back(s, seat, ev)
    lifecycle.settle(s, now_ms, ev)
    common.sync_stacks(s)
    return s, ev


def _came_back(state: State, seat: Seat, ev: Events) -> None:
    """§5.8: acting directly clears the timeout streak and the away mark."""
    seat.timeouts_in_row = 0
    if seat.away:
        seat.away = False
        emit(state, ev, {"type": "away", "player": seat.id, "away": False})


def _hand_player(state: State, pid: str, phase: str) -> HandPlayer:
    """The hand's player ``pid`` when the hand is in ``phase`` and ``pid`` is still in it; else refused."""
    hand = state.hand
    if state.phase != "playing" or hand is None or hand.phase != phase:
        raise reject(WRONG_PHASE)
    if pid not in hand.bettors:
        raise reject(NOT_IN_HAND)
    if hand.bettors[pid].folded:
        raise reject(ALREADY_FOLDED)
    return hand.players[pid]


def _betting(state: State, seat: Seat, act: dict[str, Any], now: int, ev: Events) -> None:
    pid = seat.id
    _hand_player(state, pid, "betting")
    hand = state.hand
    assert hand is not None and hand.rnd is not None
    if (act["type"] in KOREAN_TYPES) != (state.betting == "korean"):
        raise reject(WRONG_SYSTEM)
    if hand.rnd.to_act != pid:
        raise reject(NOT_YOUR_TURN)
    bet_action(state, pid, act, now, ev, auto=False)


def bet_action(state: State, pid: str, act: dict[str, Any], now: int, ev: Events, *, auto: bool) -> None:
    """One betting action through :mod:`pokerroom.betting` (validates before mutating), then advance."""
    hand = state.hand
    assert hand is not None and hand.rnd is not None
    time_bank.charge(state, hand, pid, now, ev)
    opening = hand.rnd.current_bet == 0  # an nl.raise into no bet is a bet (the button's "벳")
    result = bt.apply_action(hand.rnd, hand.bettors, pid, act)
    hand.players[pid].forced = None
    event: dict[str, Any] = {"type": "action", "player": pid, "action": dict(act), "amount": result.moved,
             "allIn": result.all_in, "auto": auto}
    if act["type"] == "nl.raise":
        event["bet"] = opening
    emit(state, ev, event)
    if hand.rnd.may_open is not None:
        flow.record_opener(state, hand, pid, ev)
    if act["type"] in FOLD_TYPES:
        flow.penalty_for_fold(state, hand, pid, ev)
    flow.advance(state, now, ev)


def _choose(state: State, seat: Seat, act: dict[str, Any], now: int, ev: Events) -> None:
    pid = seat.id
    p = _hand_player(state, pid, "choice")
    if p.chosen is not None:
        raise reject(ALREADY_CHOSE)
    ids = {c.id for c in p.choice or []}
    d, o = act["discardId"], act["openId"]
    if d == o:
        raise reject(SAME_CARD)
    if d not in ids or o not in ids:
        raise reject(BAD_CARDS)
    p.chosen = [d, o]
    _acted(state, ev, "chose", pid, now)


def _acted(state: State, ev: Events, kind: str, pid: str, now: int) -> None:
    """A seat's own card action (not a bet) is public as ``kind``, never its cards; then the hand goes on."""
    emit(state, ev, {"type": kind, "player": pid, "auto": False})
    flow.advance(state, now, ev)


def _draw(state: State, seat: Seat, act: dict[str, Any], now: int, ev: Events) -> None:
    pid = seat.id
    p = _hand_player(state, pid, "draw")
    if p.draw_pending is not None:
        raise reject(ALREADY_DREW)
    ids: list[int] = act["cardIds"]
    hole_ids = {c.id for c in p.hole}
    if len(set(ids)) != len(ids) or not set(ids) <= hole_ids:
        raise reject(BAD_CARDS)
    mode = common.rules(state)
    assert isinstance(mode, Draw)
    if not mode.draw_allowed(list(p.hole), ids):
        limit, with_ace = mode.draw_limits(list(p.hole))
        if with_ace is not None:
            raise Rejected(DRAW_LIMIT[0], f"최대 {limit}장까지 바꿀 수 있어요(A를 남기면 {with_ace}장)")
        raise Rejected(DRAW_LIMIT[0], f"최대 {limit}장까지 바꿀 수 있어요")
    p.draw_pending = list(ids)
    _acted(state, ev, "drew", pid, now)


def _declare(state: State, seat: Seat, act: dict[str, Any], now: int, ev: Events) -> None:
    pid = seat.id
    p = _hand_player(state, pid, "declare")
    if p.declare is not None:
        raise reject(ALREADY_DECLARED)
    p.declare = act["side"]
    _acted(state, ev, "declared", pid, now)


def _run_twice(state: State, seat: Seat, act: dict[str, Any], now: int, ev: Events) -> None:
    """런 잇 트와이스: one secret yes/no of a player still in (docs/rules-extensions.md)."""
    pid = seat.id
    _hand_player(state, pid, "runTwice")
    hand = state.hand
    assert hand is not None and hand.rit_votes is not None
    if pid not in hand.rit_votes:
        raise reject(NOT_IN_HAND)
    if hand.rit_votes[pid] is not None:
        raise reject(ALREADY_ANSWERED)
    run_twice.answer(state, hand, pid, bool(act["agree"]), ev, auto=False)
    flow.advance(state, now, ev)


def _ready(state: State, seat: Seat, act: dict[str, Any], now: int, ev: Events) -> None:
    pid = seat.id
    hand = state.hand
    if state.phase != "playing" or hand is None or hand.phase != "handEnd":
        raise reject(WRONG_PHASE)
    if pid not in hand.players:
        raise reject(NOT_IN_HAND)
    if hand.players[pid].ready:
        raise reject(ALREADY_READY)
    hand.players[pid].ready = True
    emit(state, ev, {"type": "ready", "player": pid})


def _show(state: State, seat: Seat, act: dict[str, Any], now: int, ev: Events) -> None:
    """Open my cards to everyone: from now on every view shows them (``shown``), and the event says which."""
    pid = seat.id
    hand = state.hand
    if state.phase != "playing" or hand is None or hand.phase != "handEnd":
        raise reject(WRONG_PHASE)
    if not common.may_show(state, pid):
        raise reject(CANNOT_SHOW)
    p = hand.players[pid]
    p.shown = True
    emit(state, ev, {"type": "shown", "player": pid, "cards": [c.to_json() for c in [*p.hole, *p.up]],
                     "name": shown_name(common.rules(state), hand, pid)})


def _rebuy(state: State, seat: Seat, act: dict[str, Any], now: int, ev: Events) -> None:
    pid = seat.id
    if state.phase != "rebuy":
        raise reject(WRONG_PHASE)
    if pid not in state.rebuy_pending or seat.rebuy_decided:
        raise reject(NO_REBUY)
    lifecycle.decide_rebuy(state, pid, bool(act["accept"]), now, ev)


def _sit_out(state: State, seat: Seat, act: dict[str, Any], now: int, ev: Events) -> None:
    seating.sit_out(state, seat, ev)


def _sit_in(state: State, seat: Seat, act: dict[str, Any], now: int, ev: Events) -> None:
    seating.sit_in(state, seat, ev)


Handler = Callable[[State, Seat, dict[str, Any], int, Events], None]

#: a seat's own action (other than a bet, which ``_betting`` takes, and ``leave``) -> the rule that applies it
_HANDLERS: dict[str, Handler] = {
    "choose": _choose, "draw": _draw, "declare": _declare, "ready": _ready, "show": _show,
    "sitOut": _sit_out, "sitIn": _sit_in, "rebuy": _rebuy, "runTwice": _run_twice,
}


def _leave(state: State, seat: Seat, now: int, ev: Events) -> None:
    """§5.8: a player who left keeps their chips, dies right away and in every later hand."""
    if seat.status == "left":
        raise reject(ALREADY_LEFT)
    previous = seat.status
    if previous in ("playing", "busted"):
        seat.status = "left"
    emit(state, ev, {"type": "left", "player": seat.id})
    if state.phase == "finished":
        return
    if state.phase == "rebuy":
        if seat.id in state.rebuy_pending and not seat.rebuy_decided:
            lifecycle.decide_rebuy(state, seat.id, False, now, ev)
        if state.phase == "rebuy" and common.connected_with_chips(state) <= 1:
            lifecycle.finish(state, ev, "noOpponents")
        return
    hand = state.hand
    if hand is None:
        return
    if hand.phase == "handEnd":
        if seat.id in hand.players:
            hand.players[seat.id].ready = True
        return  # lifecycle.settle moves on (or ends the game) after apply
    b = hand.bettors.get(seat.id)
    if b is not None and not b.folded and not b.all_in:
        flow.fold_out_of_turn(state, hand, seat.id, ev)
    flow.advance(state, now, ev)
