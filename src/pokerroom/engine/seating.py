"""Seats that change between hands: a late joiner, sitting out by choice and coming back.

Why between hands only: a hand in play keeps its dealer, blinds and side pots; a friend who arrives late is
dealt in from the next hand instead of watching the whole game (see
docs/decisions/0005-seats-change-between-hands.md).

Rules (decided here, documented in docs/architecture.md and docs/view.md):
- :func:`join_seat` adds a seat at the end of the table (seat number = the number of seats so far, so the
  newcomer sits between the last seat and seat 0) with ``startingChips``. It is refused once the game is
  over and when the table already has the mode's maximum number of seats (``player_range``: eliminated and
  left seats keep their chair, they are ranked in the result). It never touches the hand in progress: the
  newcomer is dealt in from the next hand, and rebuys, blind levels (§5.7) and the hand count go on as if
  they had always been there.
- Sitting out (``{"type": "sitOut"}``) takes effect from the next hand: the current hand is played out.
  A sitting-out seat is not dealt in, posts no ante or blind, keeps its chips and its place in the result.
  ``{"type": "sitIn"}`` deals them in again from the next hand. Sitting out is refused when fewer than two
  other players would be dealt in; should that happen anyway (somebody busted), the sitting-out players are
  dealt back in rather than stopping the game (they then play on the §5.8 timeouts, like any absent player).
  It is distinct from ``away`` (§5.8), which is set by two timeouts and keeps the player dealt in.
- Blind modes (hold'em, Omaha): a seat entering play between hands (a newcomer, or a player coming back
  from sitting out) posts one big blind in its first hand, live, wherever it sits, so it neither gets a free
  pass through the blinds nor pays twice (a player who sits out and back within one hand missed nothing and
  posts nothing extra): in the big-blind seat it posts just the big blind; in the
  small-blind seat it posts a full big blind instead of the small blind; anywhere else it posts a big blind
  beside the regular two (its call of the big blind is already in, it may check when nobody raised). This is
  the card-room rule ("post to play"), which a player who joins mid-game expects; waiting for the big blind
  would keep a friend out for up to a whole orbit. Ante modes need no rule: everybody antes every hand.
"""

from __future__ import annotations

from pokerroom.engine import common, time_bank
from pokerroom.engine.log import emit
from pokerroom.engine.options import player_range
from pokerroom.engine.state import Seat, State
from pokerroom.rejections import Rejected

Events = common.Events

TABLE_FULL = ("table_full", "자리가 모두 찼어요")
ALREADY_SEATED = ("already_seated", "이미 자리에 앉아 있어요")
BAD_PLAYER = ("bad_players", "참가자 이름이 올바르지 않아요")
GAME_OVER = ("game_over", "게임이 이미 끝났어요")
ALREADY_SITTING_OUT = ("already_sitting_out", "이미 자리를 비웠어요")
NOT_SITTING_OUT = ("not_sitting_out", "자리를 비운 상태가 아니에요")
CANNOT_SIT_OUT = ("cannot_sit_out", "다른 참가자가 둘 이상 있어야 자리를 비울 수 있어요")
NO_CHIPS = ("no_chips", "칩이 없어서 쉴 수 없어요")


def dealable(state: State) -> list[Seat]:
    """Seats dealt into the next hand: chips, not eliminated, not sitting out (a ``left`` seat is dealt in
    and dies at once, §5.8)."""
    return [s for s in state.seats if s.status in ("playing", "left") and s.stack > 0 and not s.sitting_out]


def _playing_others(state: State, pid: str) -> int:
    return sum(1 for s in state.seats
               if s.id != pid and s.status == "playing" and s.stack > 0 and not s.sitting_out)


def join_seat(state: State, player_id: str, now_ms: int = 0) -> tuple[State, Events]:
    """A new player takes a seat between hands and is dealt in from the next hand with ``startingChips``.

    Pure like ``apply``: the input is never mutated; a refusal raises :class:`Rejected`.
    """
    if not isinstance(player_id, str) or not player_id:
        raise Rejected(*BAD_PLAYER)
    if state.phase == "finished":
        raise Rejected(*GAME_OVER)
    if state.seat_of(player_id) is not None:
        raise Rejected(*ALREADY_SEATED)
    high = player_range(state.options)[1]
    if len(state.seats) >= high:
        raise Rejected(TABLE_FULL[0], f"자리가 모두 찼어요(이 모드는 최대 {high}명)")
    s = state.clone()
    ev: Events = []
    seat = Seat(player_id, len(s.seats), s.options.starting_chips, entry_due=True,
                joined_at_hand=s.hands_played)
    s.seats.append(seat)
    time_bank.fill_new_seats(s)
    emit(s, ev, {"type": "seatJoined", "player": player_id, "seat": seat.seat, "stack": seat.stack,
                 "afterHand": s.hands_played})
    return s, ev


def sit_out(state: State, seat: Seat, ev: Events) -> None:
    """``sitOut``: not dealt in from the next hand (the current one is played out)."""
    if seat.sitting_out:
        raise Rejected(*ALREADY_SITTING_OUT)
    if seat.status != "playing" or seat.stack <= 0:
        raise Rejected(*NO_CHIPS)
    if _playing_others(state, seat.id) < 2:
        raise Rejected(*CANNOT_SIT_OUT)
    seat.sitting_out = True
    emit(state, ev, {"type": "sitOut", "player": seat.id, "sittingOut": True})


def sit_in(state: State, seat: Seat, ev: Events) -> None:
    """``sitIn``: dealt in again from the next hand (blind modes: with the entry big blind)."""
    if not seat.sitting_out:
        raise Rejected(*NOT_SITTING_OUT)
    # changed their mind before missing a hand (still in the current one): nothing to post on return
    missed = state.hand is None or seat.id not in state.hand.order
    _back(state, seat, ev, entry=missed)


def _back(state: State, seat: Seat, ev: Events, *, entry: bool = True) -> None:
    seat.sitting_out = False
    seat.entry_due = seat.entry_due or entry
    emit(state, ev, {"type": "sitOut", "player": seat.id, "sittingOut": False})


def before_hand(state: State, ev: Events) -> None:
    """Called before a hand is dealt: when fewer than two players would be dealt in, everybody sitting out
    is dealt back in (the game never stalls on a choice to rest)."""
    if sum(1 for s in dealable(state) if s.status == "playing") >= 2:
        return
    for s in state.seats:
        if s.sitting_out and s.status == "playing" and s.stack > 0:
            _back(state, s, ev)
