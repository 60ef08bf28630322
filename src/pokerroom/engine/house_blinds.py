"""Antes and the straddle of the blind games (docs/rules-extensions.md: 앤티, 빅 블라인드 앤티, 스트래들).

Why a module: :func:`pokerroom.engine.flow.post_forced_bets` posts the blinds of poker.md §5.1 step 4; these
house options add forced chips to it, and what each one is, who posts it and where its chips go are rules of
their own, kept together here as a table.

=============== ======================= ============================ ====================================
option          who posts               how much                     where the chips go
=============== ======================= ============================ ====================================
ante=everyone   every player dealt in   antePercent % of the big     committedTotal (not committedRound):
                                        blind (floor, at least 1)    the §5.5 side-pot levels hold it,
                                                                     as the antes of the ante modes (§5.1)
ante=bigBlind   the big blind, for all  the same amount              dead money in the main pot
                                                                     (``hand.dead``): nobody matches it,
                                                                     an uncalled bet never returns it
straddle        the seat after the big  2 × big blind, live          committedRound, like a blind: the
                blind (4+ players)                                   bet to call; a raise adds as much
=============== ======================= ============================ ====================================

Order and short stacks: the blinds first, then the straddle, then the antes, each from what is left (a blind
is live money that can win from the others; TDA 2024 and the WSOP post the big blind before its ante). A stack
that cannot pay its ante pays what it has and is all-in. The straddle is only posted by a stack that keeps
chips behind it (an all-in straddle would have no option to act on); a player who left posts no straddle.
"""

from __future__ import annotations

from pokerroom.engine.common import Events, is_left
from pokerroom.engine.log import emit
from pokerroom.engine.options import STRADDLE_BLINDS, ante_amount, ante_kind, straddle_applies
from pokerroom.engine.state import Hand, State

#: The fewest players dealt in for a straddle: the straddler must be neither a blind nor the button.
STRADDLE_MIN_PLAYERS = 4


def straddle_amount(base_unit: int) -> int:
    """The straddle in chips at the current big blind."""
    return STRADDLE_BLINDS * base_unit


def straddler_for(state: State, hand: Hand) -> str | None:
    """Who straddles this hand: the seat after the big blind (``order`` starts with the small blind when
    three or more play), when the option is on, at least four play (with three that seat is the button, which
    card rooms do not let straddle; heads-up there is no such seat), that player has not left and keeps chips
    behind the straddle."""
    if not straddle_applies(state.options) or len(hand.order) < STRADDLE_MIN_PLAYERS:
        return None
    pid = hand.order[2]
    if is_left(state, pid) or hand.bettors[pid].stack <= straddle_amount(state.base_unit):
        return None
    return pid


def post_straddle(state: State, hand: Hand, pid: str, ev: Events) -> None:
    """A live blind raise to twice the big blind (:func:`straddler_for` made sure it leaves chips behind)."""
    amount = straddle_amount(state.base_unit)
    b = hand.bettors[pid]
    b.stack -= amount
    b.committed_round += amount
    b.committed_total += amount
    hand.straddler = pid
    hand.players[pid].forced = "straddle"
    emit(state, ev, {"type": "blind", "from": pid, "kind": "straddle", "amount": amount, "allIn": False})


def post_antes(state: State, hand: Hand, ev: Events) -> None:
    """The ante option's chips, after the blinds (see the module table). ``hand.antes`` keeps what each paid
    (the view's seat ``ante``; the dead big-blind ante also counts in that player's hand net)."""
    kind = ante_kind(state.options)
    if kind is None:
        return
    amount = ante_amount(state.options, state.base_unit)
    payers = list(hand.order) if kind == "everyone" else [hand.bb] if hand.bb is not None else []
    for pid in payers:
        b = hand.bettors[pid]
        paid = min(amount, b.stack)
        if paid <= 0:
            continue  # all-in from a blind already: nothing left for the ante
        b.stack -= paid
        if kind == "everyone":
            b.committed_total += paid
        else:
            hand.dead += paid
        b.all_in = b.stack == 0
        hand.antes[pid] = paid
        if hand.players[pid].forced is None:
            hand.players[pid].forced = "ante"
        emit(state, ev, {"type": "ante", "from": pid, "amount": paid, "allIn": b.all_in,
                         **({"kind": "bigBlind"} if kind == "bigBlind" else {})})


def dead_ante(hand: Hand, pid: str, state: State) -> int:
    """The dead (big-blind) ante ``pid`` paid this hand: chips of theirs that are in ``hand.dead``, not in
    their ``committed_total``."""
    if ante_kind(state.options) != "bigBlind":
        return 0
    return hand.antes.get(pid, 0)
