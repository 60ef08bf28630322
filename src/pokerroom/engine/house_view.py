"""The public facts of the house rules in a view (docs/rules-extensions.md, docs/view.md ``houseRules``).

Why apart from :mod:`pokerroom.engine.view`: every key here is only added while its house rule is on, so a
game without one keeps exactly the view it had (the golden files prove it); keeping those conditions in one
place makes that easy to check. Nothing here is secret: who opened, the antes, the straddle and the second
board are on the table for everyone; the run-it-twice answers are shown once everybody has answered.
"""

from __future__ import annotations

from typing import Any

from pokerroom.betting.model import NO_OPENERS, RULE_491
from pokerroom.engine import run_twice
from pokerroom.engine.house_blinds import dead_ante, straddle_amount
from pokerroom.engine.options import (
    ante_amount,
    ante_kind,
    jacks_or_better_applies,
    rule491_applies,
    run_it_twice_applies,
    straddle_applies,
)
from pokerroom.engine.state import Hand, State

JSON = dict[str, Any]


def _hand_done(state: State) -> bool:
    hand = state.hand
    return hand is None or hand.phase == "handEnd" or state.phase != "playing"


def house_rules(state: State) -> JSON | None:
    """Public facts of the house rules in force, or None when none is on.

    ``betCap`` is in chips at the current base unit; ``badugiHigh`` says the badugi is 하이 바둑이;
    ``restriction`` is the Korean sentence the table shows while the 491/591 rule (or 잭스 오어 베터) limits
    the opening of this round (None otherwise). The hold'em/Omaha options add ``ante`` (its kind and chips
    now), ``straddle`` (chips) and ``runItTwice`` (see :func:`_run_it_twice`), each only while on.
    """
    opts = state.options
    on491 = rule491_applies(opts)
    high = opts.mode == "badugi" and opts.badugi_high
    job = jacks_or_better_applies(opts)
    ante = ante_kind(opts)
    straddle = straddle_applies(opts)
    rit = run_it_twice_applies(opts)
    if not (on491 or opts.bet_cap or high or job or ante or straddle or rit):
        return None
    hand = state.hand
    restriction: str | None = None
    if (hand is not None and hand.phase == "betting" and state.phase == "playing" and hand.rnd is not None
            and not hand.rnd.opened):
        if hand.rnd.opening_only is not None:
            restriction = RULE_491[1]
        elif hand.rnd.may_open is not None:
            restriction = NO_OPENERS[1]  # the rule only: who holds openers stays secret
    out: JSON = {"rule491": on491, "betCap": opts.bet_cap * state.base_unit, "badugiHigh": high,
                 "restriction": restriction}
    if job:
        # the opener is public (they bet first); the proof only once the hand has ended
        done = hand is not None and _hand_done(state)
        out.update({"jacksOrBetter": True, "opener": None if hand is None else hand.opener,
                    "openerProof": [c.to_json() for c in hand.opener_cards] if done and hand is not None
                    and hand.opener is not None else None,
                    "noOpener": bool(hand is not None and hand.no_opener)})
    if ante is not None:
        out["ante"] = {"kind": ante, "amount": ante_amount(opts, state.base_unit)}
    if straddle:
        out["straddle"] = straddle_amount(state.base_unit)
    if rit:
        out["runItTwice"] = _run_it_twice(state, hand)
    return out


def _run_it_twice(state: State, hand: Hand | None) -> JSON:
    """``deciding``: the players still in are answering now (who still has to: the view's ``pending``);
    ``agreed``: the outcome once everybody answered (None before, or when nothing was offered this hand);
    ``votes``: each answer, from then on; ``board2``: the whole second board (shared cards first) once it is
    dealt, else []."""
    if hand is None or not hand.rit_votes:  # (empty: the deck could not hold two runs, nobody was asked)
        return {"deciding": False, "agreed": None, "votes": None, "board2": []}
    deciding = state.phase == "playing" and hand.phase == "runTwice"
    return {
        "deciding": deciding,
        "agreed": None if deciding else hand.rit_agreed,
        "votes": None if deciding else {pid: bool(v) for pid, v in hand.rit_votes.items()},
        "board2": [c.to_json() for c in run_twice.second_board(hand)] if hand.board2 else [],
    }


def seat_extras(state: State, pid: str) -> JSON:
    """A seat's own part of the hold'em/Omaha options: ``ante`` (chips it anted this hand) and ``straddle``
    (it straddled this hand), each only while its option is on."""
    opts = state.options
    hand = state.hand
    out: JSON = {}
    if ante_kind(opts) is not None:
        out["ante"] = 0 if hand is None else hand.antes.get(pid, 0)
    if straddle_applies(opts):
        out["straddle"] = hand is not None and hand.straddler == pid
    return out


def seat_time_bank(state: State, pid: str) -> JSON:
    """A seat's time bank (engine.time_bank), only while the option is on: ``timeBank`` the whole seconds
    left (what a player reads; a bank holds whole seconds) and ``timeBankInUse`` while this seat's turn is
    spending it (the view's ``deadlineAt`` is then where the bank runs out)."""
    if not state.options.time_bank:
        return {}
    seat = state.seat_of(pid)
    hand = state.hand
    in_use = (hand is not None and hand.bank_from is not None and hand.turn_of == pid
              and hand.phase == "betting" and state.phase == "playing")
    left = 0 if seat is None or seat.bank_ms is None else seat.bank_ms // 1000
    return {"timeBank": left, "timeBankInUse": in_use}


def seat_dead_ante(state: State, pid: str) -> int:
    """A big-blind ante is dead money, outside the seat's ``committed_total``; the view's ``committedTotal``
    (chips put in this hand) still counts it."""
    hand = state.hand
    return 0 if hand is None else dead_ante(hand, pid, state)
