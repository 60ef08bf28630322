"""The time bank (타임뱅크): extra seconds each player may spend when a betting turn's clock runs out
(docs/decisions/0047-time-bank.md).

Why it is engine state: the bank is part of the game like a stack. It must survive a restart and a
failover, move with a pause, and give the same result on every replay, so it lives in the state (a seat's
``bank_ms``, the hand's ``bank_from``) and changes only through the engine's pure functions.

Rules (options ``timeBank`` seconds, 0 = off, and ``timeBankEvery`` hands):
- Off (the default), nothing here runs and no state or view field is written: poker.md's clocks as they are.
- Every seat starts with ``timeBank`` seconds (a late joiner too). When ``hands_played`` reaches a multiple
  of ``timeBankEvery`` (0: never) every seat's bank is set back to ``timeBank`` before the hand is dealt
  (a refill, not an addition: a bank never holds more than the option).
- Only a betting turn spends it: choice, draw, declaration and the run-it-twice answer have one deadline
  for everybody, which one player's bank must not move. An away player (§5.8) does not spend it either:
  their 5 s turn is the away rule's own clock.
- When the turn's deadline passes with bank left, the deadline moves later by the whole bank and the hand
  remembers when the bank started (``bank_from``, the old deadline, so a late timer never eats bank). No
  timeout, no strike: §5.8 counts only turns that really time out.
- When the player acts, the time spent since ``bank_from`` is taken off the bank in whole seconds (a second
  begun is a second spent, so a bank always holds whole seconds and the seat shows it exactly); the rest
  stays for later turns. When the moved deadline passes too, the bank is empty and the turn times out as
  poker.md says (§8.5 automatic action, a strike toward §5.8's away mark).
- A pause or a server's downtime moves ``bank_from`` with the deadline (:func:`shift`), so the time frozen
  is never charged to the bank.
"""

from __future__ import annotations

from pokerroom.engine.common import Events, seat_by_id
from pokerroom.engine.log import emit
from pokerroom.engine.state import Hand, State


def bank_ms(state: State) -> int:
    """The option's bank in ms (0: the time bank is off)."""
    return state.options.time_bank * 1000


def on(state: State) -> bool:
    return state.options.time_bank > 0


def fill_new_seats(state: State) -> None:
    """Give a full bank to every seat that has none yet (the first hand, a late joiner)."""
    if not on(state):
        return
    for seat in state.seats:
        if seat.bank_ms is None:
            seat.bank_ms = bank_ms(state)


def before_hand(state: State, ev: Events) -> None:
    """Called as a hand starts: new seats get a bank; every ``timeBankEvery`` hands every bank is refilled."""
    if not on(state):
        return
    fill_new_seats(state)
    every = state.options.time_bank_every
    if every and state.hands_played and state.hands_played % every == 0:
        full = bank_ms(state)
        if any(seat.bank_ms != full for seat in state.seats):
            for seat in state.seats:
                seat.bank_ms = full
            emit(state, ev, {"type": "timeBankRefill", "seconds": state.options.time_bank})


def spend(state: State, hand: Hand, pid: str, due: int, ev: Events) -> bool:
    """The betting turn of ``pid`` ran out at ``due``: start spending the bank when there is any (True:
    the deadline moved, no timeout). False: no bank to spend, the turn times out."""
    if not on(state) or hand.bank_from is not None:
        return False
    seat = seat_by_id(state, pid)
    left = seat.bank_ms or 0
    if seat.away or left <= 0:
        return False
    hand.bank_from = due
    hand.deadline_at = due + left
    emit(state, ev, {"type": "timeBank", "player": pid, "seconds": -(-left // 1000),
                     "deadlineAt": hand.deadline_at})
    return True


def expire(state: State, hand: Hand, pid: str) -> None:
    """The bank ran out too: it is empty (the turn times out next)."""
    if hand.bank_from is None:
        return
    seat_by_id(state, pid).bank_ms = 0
    hand.bank_from = None


def charge(state: State, hand: Hand, pid: str, now: int, ev: Events) -> None:
    """``pid`` acted while spending the bank: take the time used off it."""
    if hand.bank_from is None or hand.turn_of != pid:
        return
    seat = seat_by_id(state, pid)
    seconds = -(-max(0, now - hand.bank_from) // 1000)  # a second begun is a second spent
    left = max(0, (seat.bank_ms or 0) - seconds * 1000)
    seat.bank_ms = left
    hand.bank_from = None
    emit(state, ev, {"type": "timeBankUsed", "player": pid, "seconds": seconds, "left": left // 1000})


def end_turn(hand: Hand) -> None:
    """The turn ended some other way (a new turn, the round's or hand's end): nothing is spending."""
    hand.bank_from = None


def shift(hand: Hand, delta_ms: int) -> None:
    """A pause of ``delta_ms``: the bank started that much later too."""
    if hand.bank_from is not None:
        hand.bank_from += delta_ms
