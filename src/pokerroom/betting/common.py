"""What every betting system shares: the situation a bettor faces, a resolved move, turns and round end.

Rules of this module:

* A *move* is an action already checked against the rules: how many chips leave the stack and whether it
  folds. Systems (``korean``, ``nolimit``) turn a wire action into a move or raise ``Rejected``; this module
  then applies any move the same way, so validation and application can never disagree.
* Chips move only here: ``stack -= pay``, ``committed_round += pay``, ``committed_total += pay``. A bettor
  whose stack reaches 0 is all-in.
* The round is over (§5.2) when one bettor alone has not folded, or when every bettor who can act has acted
  and matched ``current_bet``, or when at most one can act and that one has matched (betting closed: the
  cards are run out without betting).
* The next bettor to act is the first one after the actor, cyclically in ``order``, who can act and still
  owes a decision (has not acted, or is below ``current_bet``).
"""

from __future__ import annotations

from dataclasses import dataclass

from pokerroom.betting import model as m
from pokerroom.betting.model import ActionResult, BettingRound, Bettor, can_act
from pokerroom.rejections import CANNOT_CHECK, reject


@dataclass(slots=True)  # built twice per action: a plain slots class is much cheaper than frozen
class Situation:
    """The numbers one bettor faces on their turn (§5.2 terms)."""

    bettor: Bettor
    to_call: int
    pot: int
    others_can_respond: bool

    @property
    def stack(self) -> int:
        return self.bettor.stack


@dataclass(slots=True)
class Move:
    """A validated action: its wire type, chips leaving the stack, and whether it is a fold."""

    type: str
    pay: int = 0
    fold: bool = False


def check_or_call(kind: str, sit: Situation, call: bool) -> Move:
    """The two moves every system spells alike: a check when nothing is owed, a call of what is owed (the
    whole stack when it is short: all-in). Raises ``Rejected`` when the other one was due."""
    if not call:
        if sit.to_call > 0:
            raise reject(CANNOT_CHECK)
        return Move(kind)
    if sit.to_call == 0:
        raise reject(m.NOTHING_TO_CALL)
    return Move(kind, pay=min(sit.to_call, sit.stack))


def pot_of(rnd: BettingRound, table: dict[str, Bettor]) -> int:
    """§5.2 ``pot``: every chip committed this hand (antes, earlier rounds, this round) plus dead chips."""
    return sum(b.committed_total for b in table.values()) + rnd.dead


def situation(rnd: BettingRound, table: dict[str, Bettor], bettor: Bettor) -> Situation:
    """Build the situation; ``others_can_respond`` is why a raise can make sense at all: somebody else who
    has not folded can put in more than the current bet (a raise nobody can call beyond it would only come
    back as uncalled chips; pokerkit refuses it the same way)."""
    others = False
    me = bettor.id
    bet = rnd.current_bet
    for pid in rnd.order:
        if pid != me:
            b = table.get(pid)
            if b is not None and not b.folded and not b.all_in and b.stack > 0 and (
                    b.stack + b.committed_round > bet):
                others = True
                break
    return Situation(
        bettor=bettor,
        to_call=max(0, rnd.current_bet - bettor.committed_round),
        pot=pot_of(rnd, table),
        others_can_respond=others,
    )


def actors(rnd: BettingRound, table: dict[str, Bettor]) -> list[Bettor]:
    """Bettors of this round's order who can still act, in order."""
    return [table[pid] for pid in rnd.order if pid in table and can_act(table[pid])]


def one_left(table: dict[str, Bettor]) -> bool:
    """Only one bettor has not folded: the hand ends without showdown (§5.1 step 6)."""
    live = 0
    for b in table.values():
        if not b.folded:
            live += 1
            if live > 1:
                return False
    return True


def _round_state(rnd: BettingRound, table: dict[str, Bettor]) -> tuple[bool, bool, int]:
    """(round over, one left, number of bettors who can act) in one pass (hot path of every action).

    Same rule as :func:`is_round_over`: over when one bettor alone has not folded, when nobody who can act
    owes a decision, or when at most one can act and has matched ``current_bet``.
    """
    if one_left(table):
        return True, True, sum(1 for pid in rnd.order if pid in table and can_act(table[pid]))
    bet = rnd.current_bet
    able = 0
    owes = False
    unmatched = False
    for pid in rnd.order:
        b = table.get(pid)
        if b is None or b.folded or b.all_in or b.stack <= 0:
            continue
        able += 1
        if b.committed_round < bet:
            unmatched = True
        elif not b.acted:
            owes = True
    over = (not owes and not unmatched) or (able <= 1 and not unmatched)
    return over, False, able


def is_round_over(rnd: BettingRound, table: dict[str, Bettor]) -> bool:
    """§5.2 round end, including the "at most one can act and has matched" run-out case."""
    return _round_state(rnd, table)[0]


def betting_closed(rnd: BettingRound, table: dict[str, Bettor]) -> bool:
    """No more betting this hand: the round is over, several remain, and at most one can still act."""
    over, alone, able = _round_state(rnd, table)
    return over and not alone and able <= 1


def first_to_act(rnd: BettingRound, table: dict[str, Bettor], after: str | None) -> str | None:
    """The next bettor owing a decision, cyclically after ``after`` (from the start when None)."""
    if is_round_over(rnd, table):
        return None
    return _next_owing(rnd, table, after)


def _next_owing(rnd: BettingRound, table: dict[str, Bettor], after: str | None) -> str | None:
    """:func:`first_to_act` once the round is known not to be over."""
    order = [pid for pid in rnd.order if pid in table]
    start = order.index(after) + 1 if after in order else 0
    n = len(order)
    bet = rnd.current_bet
    for i in range(n):
        b = table[order[(start + i) % n]]
        if not b.folded and not b.all_in and b.stack > 0 and (not b.acted or b.committed_round < bet):
            return b.id
    return None


def pay(b: Bettor, chips: int) -> None:
    """Move chips from the stack into this round's and this hand's commitment."""
    b.stack -= chips
    b.committed_round += chips
    b.committed_total += chips
    if b.stack == 0:
        b.all_in = True


def relock_after_raise(rnd: BettingRound, table: dict[str, Bettor], raiser: str) -> None:
    """NL/PL §5.3: decide who may re-raise after an incomplete all-in raise.

    A bettor who has not acted yet may always raise. One who already acted is reopened only when the bet
    rose by at least ``last_raise_size`` since the later of their last action and the last full raise: an
    incomplete all-in does not reopen (§10: "A 벳 100, B 레이즈 300, C 올인 350" leaves A and B with
    call/fold), but several short all-ins can add up to one full raise.
    """
    for b in table.values():
        if b.id == raiser or not can_act(b):
            continue
        if not b.acted:
            b.locked = False
        else:
            base = max(b.acted_at_bet, rnd.full_bet)
            b.locked = rnd.current_bet - base < rnd.last_raise_size


def apply_move(rnd: BettingRound, table: dict[str, Bettor], b: Bettor, move: Move) -> ActionResult:
    """Apply a validated move, update the round (bet, raise size, locks), and pass the turn."""
    before = b.stack
    if move.fold:
        b.folded = True
    else:
        pay(b, move.pay)
    if b.committed_round > rnd.current_bet:
        _record_raise(rnd, table, b)
    b.acted = True
    b.acted_at_bet = rnd.current_bet
    b.last_action = move.type
    if rnd.system == "korean":
        b.locked = True  # §5.2: after any action this round, only call or die
    over, alone, able = _round_state(rnd, table)  # once: the turn and the result both need it
    rnd.to_act = None if over else _next_owing(rnd, table, b.id)
    return ActionResult(
        moved=before - b.stack,
        all_in=b.all_in and before > 0 and b.stack == 0 and not move.fold,
        round_over=over,
        one_left=alone,
        betting_closed=over and not alone and able <= 1,
    )


def _record_raise(rnd: BettingRound, table: dict[str, Bettor], b: Bettor) -> None:
    """The bettor raised (or bet): raise the bar; in NL/PL track full raises and re-locks."""
    size = b.committed_round - rnd.current_bet
    rnd.current_bet = b.committed_round
    rnd.opened = True
    b.raised = True
    if rnd.system == "korean":
        return
    if size >= rnd.last_raise_size:
        rnd.last_raise_size = size
        rnd.full_bet = rnd.current_bet
        for other in table.values():
            if other.id != b.id:
                other.locked = False  # a full raise reopens betting for everybody
    else:
        relock_after_raise(rnd, table, b.id)
