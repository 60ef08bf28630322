"""Small shared helpers of the engine modules: lookups, who the current phase waits for, clocks, pots.

Nothing here changes the flow of a hand; :mod:`flow` (one hand), :mod:`showdown` (awards) and
:mod:`lifecycle` (between hands) all build on these.
"""

from __future__ import annotations

from typing import Any

from pokerroom import betting as bt
from pokerroom.betting import Bettor, Pot
from pokerroom.engine.modes import ModeRules, rules_for
from pokerroom.engine.state import Hand, Seat, State

Events = list[dict[str, Any]]

SIMULTANEOUS = ("choice", "draw", "declare", "runTwice")
HAND_END_MS = 4_000
REBUY_MS = 15_000
AWAY_MS = 5_000
SAFETY_HANDS = 300


def rules(state: State) -> ModeRules:
    return rules_for(state.options)


def seat_by_id(state: State, pid: str) -> Seat:
    for s in state.seats:
        if s.id == pid:
            return s
    raise KeyError(pid)


def is_left(state: State, pid: str) -> bool:
    return seat_by_id(state, pid).status == "left"


def in_hand(hand: Hand) -> list[str]:
    """Players who have not folded, in seat order from the seat after the dealer."""
    return [pid for pid in hand.order if not hand.bettors[pid].folded]


def sync_stacks(state: State, *, force: bool = False) -> None:
    """Seats mirror the bettors' stacks while a hand runs (the bettors are the source of truth then).

    After the hand has ended the seats are the truth (rebuys change them), so only ``force`` syncs then.
    """
    hand = state.hand
    if hand is None or (not force and (hand.phase == "handEnd" or state.phase != "playing")):
        return
    for s in state.seats:
        b = hand.bettors.get(s.id)
        if b is not None:
            s.stack = b.stack


def turn_ms(state: State, pid: str) -> int:
    """Betting turn length: turnSeconds, or 5 s for an away player (§5.8, §8.5)."""
    return AWAY_MS if seat_by_id(state, pid).away else state.options.turn_seconds * 1000


def simultaneous_ms(state: State) -> int:
    """Choice/draw/declare: turnSeconds + 10 s, one deadline for everyone (§8.5 "모두에게 같은 마감"); the
    yes/no of run it twice (docs/rules-extensions.md): turnSeconds, a betting turn's time (no cards to pick).

    The 5 s of an away player (§5.8 "그 사람의 차례") is for betting turns only: a simultaneous phase is
    nobody's turn, and a shorter clock for one player would move the deadline everybody sees.
    """
    if state.hand is not None and state.hand.phase == "runTwice":
        return state.options.turn_seconds * 1000
    return (state.options.turn_seconds + 10) * 1000


def pending(state: State) -> list[str]:
    """Who the current phase waits for (view ``pending``)."""
    if state.phase == "rebuy":
        return [pid for pid in state.rebuy_pending if not seat_by_id(state, pid).rebuy_decided]
    hand = state.hand
    if state.phase != "playing" or hand is None:
        return []
    if hand.phase == "betting":
        return [hand.rnd.to_act] if hand.rnd is not None and hand.rnd.to_act is not None else []
    if hand.phase == "choice":
        return [pid for pid in in_hand(hand) if hand.players[pid].chosen is None]
    if hand.phase == "draw":
        return [pid for pid in in_hand(hand) if hand.players[pid].draw_pending is None]
    if hand.phase == "declare":
        return [pid for pid in in_hand(hand) if hand.players[pid].declare is None]
    if hand.phase == "runTwice":  # (players who folded since, by leaving, are no longer asked)
        votes = hand.rit_votes or {}
        return [pid for pid in in_hand(hand) if pid in votes and votes[pid] is None]
    if hand.phase == "handEnd":
        return [pid for pid in hand.order if not hand.players[pid].ready]
    return []


def chips_given(state: State, seat: Seat) -> tuple[int, int]:
    """(chips the seat started with, chips its rebuys brought): ``startingChips`` and ``startingChips x
    rebuys`` unless the host changed the starting stack mid-game, which writes them on the seats
    (engine.host)."""
    stack = state.options.starting_chips
    start = stack if seat.start_chips is None else seat.start_chips
    return start, stack * seat.rebuys if seat.rebuy_chips is None else seat.rebuy_chips


def rebuy_possible(state: State, seat: Seat) -> bool:
    """§5.6: rebuys left, and not right after the last hand of a ``hands`` game."""
    opts = state.options
    if opts.rebuy == "off":
        return False
    if opts.rebuy == "limited" and seat.rebuys >= opts.rebuy_limit:
        return False
    return not (opts.end_condition == "hands" and state.hands_played >= opts.hand_limit)


def bt_can_act(b: Bettor) -> bool:
    return not b.folded and not b.all_in and b.stack > 0


def build_pots(hand: Hand, *, settled_only: bool = False) -> list[Pot]:
    """§5.5 pots from the hand totals (``settled_only``: without this round's bets, e.g. posted blinds)."""
    contributions = [
        (pid, hand.bettors[pid].committed_total - (hand.bettors[pid].committed_round if settled_only else 0),
         hand.bettors[pid].folded, hand.bettors[pid].all_in)
        for pid in hand.order
    ]
    return bt.build_pots(contributions, hand.order, hand.dead)


def pots_json(pots: list[Pot]) -> list[dict[str, Any]]:
    return [{"amount": p.amount, "eligible": list(p.eligible)} for p in pots]


def connected_with_chips(state: State) -> int:
    """§6.7 common end rule: connected players who have chips (or may still rebuy)."""
    count = 0
    for s in state.seats:
        if s.status == "playing" and s.stack > 0:
            count += 1
        elif s.status == "busted" and rebuy_possible(state, s):
            count += 1
    return count


def may_show(state: State, pid: str) -> bool:
    """The winner of an uncalled pot may show their cards during ``handEnd`` (players expect to show a bluff;
    by default nothing is shown, poker.md §3 step 6; see docs/decisions/0030-show-or-muck.md). Showdown hands
    are open anyway (§8.3), Indian hands are all revealed."""
    hand = state.hand
    if state.phase != "playing" or hand is None or hand.phase != "handEnd" or not hand.one_left:
        return False
    if state.options.mode == "indian" or pid not in hand.players:
        return False
    p = hand.players[pid]
    return not p.shown and not hand.bettors[pid].folded and pid in {a["to"] for a in hand.awards or []}
