"""런 잇 트와이스 (docs/rules-extensions.md): when betting is closed before the river, the players still in
may agree to deal the rest of the board twice, each board deciding half of every pot.

Why it is a phase of its own: the agreement is a simultaneous decision, like the hi-lo declaration (§5.4.4)
— every deciding player answers in secret, the answers are shown at once — so it reuses that machinery
(``pending``, the same-for-everyone deadline, the automatic answer of a player who left or timed out).

Rules, in the order the hand meets them:

======================= =================================================================================
when it is offered      ``runItTwice`` on, a blind game, at least two players still in, fewer than five
                        board cards, and betting closed (at most one player still able to bet), i.e. the
                        moment the flow would start dealing the rest of the board without betting; and the
                        deck holds both runs with their burns (not so in Omaha with ten players all-in
                        before the flop: 12 cards left, 16 needed; that board is dealt once, unasked).
                        Asked at that moment only, once per hand
who decides             every player still in the hand (the all-in players, and the one who covers them:
                        their chips are in the contested pots too)
agreement               everyone says yes; any no (a timeout or a player who left says no) deals once
the second board        the board cards dealt so far are shared; the first run is dealt as usual (burn, then
                        the street's cards), then the second run from the same deck, burning before each
                        street the same way (the deck is the hand's shuffle: no new randomness)
the pots                each pot splits in two: the first board's half is ``ceil(pot / 2)``, the second's
                        ``floor(pot / 2)``; each half is awarded on its board exactly as one pot would be
                        (ties split with §6.1 odd chips, Omaha Hi-Lo halves each half again)
======================= =================================================================================
"""

from __future__ import annotations

from pokerroom.cards import Card
from pokerroom.engine.common import Events, bt_can_act, in_hand, rules
from pokerroom.engine.deal import burn
from pokerroom.engine.log import emit
from pokerroom.engine.modes import Step
from pokerroom.engine.options import run_it_twice_applies
from pokerroom.engine.state import Hand, State

BOARD_CARDS = 5


def offer(state: State, hand: Hand, now: int, ev: Events) -> bool:
    """Ask every player still in, if the module table says so now (the flow calls this before dealing board
    cards and moves the hand to ``runTwice`` on True). Asked once per hand: when the deck cannot hold two
    runs at that moment, nobody is asked (``rit_votes`` stays empty) and the board is dealt once."""
    if hand.rit_votes is not None or not run_it_twice_applies(state.options):
        return False
    live = in_hand(hand)
    if len(live) < 2 or len(hand.board) >= BOARD_CARDS:
        return False
    if sum(1 for pid in live if bt_can_act(hand.bettors[pid])) > 1:
        return False
    if len(hand.deck) < 2 * _cards_to_come(rules(state).steps(), len(hand.board)):
        hand.rit_votes = {}
        return False
    hand.rit_votes = {pid: None for pid in live}
    hand.phase_started_at = now
    emit(state, ev, {"type": "runTwiceOffer", "players": live})
    return True


def _cards_to_come(script: list[Step], on_board: int) -> int:
    """The cards one run of the rest of the board takes, its burns included."""
    dealt = 0
    need = 0
    for kind, count in script:
        if kind == "board":
            if dealt >= on_board:
                need += 1 + count
            dealt += count
    return need


def answer(state: State, hand: Hand, pid: str, agree: bool, ev: Events, *, auto: bool) -> None:
    """Record one secret answer; the event says only that ``pid`` answered."""
    assert hand.rit_votes is not None
    hand.rit_votes[pid] = agree
    emit(state, ev, {"type": "runTwiceAnswered", "player": pid, "auto": auto})


def resolve(state: State, hand: Hand, ev: Events) -> None:
    """Everybody answered: show the answers at once and fix the outcome."""
    assert hand.rit_votes is not None
    votes = {pid: bool(hand.rit_votes.get(pid)) for pid in in_hand(hand)}
    hand.rit_agreed = all(votes.values())
    hand.rit_shared = len(hand.board)
    emit(state, ev, {"type": "runTwice", "agreed": hand.rit_agreed, "votes": votes})


def second_run_due(hand: Hand) -> bool:
    return bool(hand.rit_agreed) and not hand.board2 and len(hand.board) == BOARD_CARDS


def deal_second_run(state: State, hand: Hand, script: list[Step], ev: Events) -> None:
    """The second board's own cards, street by street as the script deals the first (burn, then the street's
    cards), for the streets not shared; public events like the first board's, marked ``run: 2``."""
    dealt = 0
    streets = [count for kind, count in script if kind == "board"]
    for street, count in enumerate(streets, start=1):  # (street: the betting round the cards open)
        first, dealt = dealt, dealt + count
        if first < hand.rit_shared:
            continue
        burn(hand)
        cards = [hand.deck.pop(0) for _ in range(count)]
        hand.board2.extend(cards)
        emit(state, ev, {"type": "board", "cards": [c.to_json() for c in cards], "street": street, "run": 2})


def second_board(hand: Hand) -> list[Card]:
    """The whole second board: the shared cards, then the second run's own."""
    return list(hand.board[:hand.rit_shared]) + list(hand.board2)
