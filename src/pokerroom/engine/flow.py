"""The hand lifecycle: start, forced bets, the mode's script, betting rounds, simultaneous phases, up to
the hand's end (poker.md §4, §5.1, §5.4, §5.8); awards are :mod:`showdown`'s, what follows :mod:`lifecycle`'s.

Hand phases and what moves them (h11-style: every transition the code makes is in this table, and
:func:`goto` refuses any other):

=========== ================== =========== ===================================================================
from        trigger            to          when
=========== ================== =========== ===================================================================
deal        choiceStep         choice      7 Poker: the four choice cards are dealt
deal        betStep            betting     a betting round starts and somebody must act
deal        drawStep           draw        badugi / five-card draw exchange (all-in players too)
deal        declareStep        declare     hi-lo, two or more players left after the last round
deal        showdown           handEnd     the script is done: evaluate and award
deal        oneLeft            handEnd     everybody else folded (also by leaving)
choice      allChose           deal        every player still in has chosen: open cards shown at once
betting     roundOver          deal        §5.2 round end (or betting closed: the cards are run out)
betting     oneLeft            handEnd     a fold left one player
betting     noOpener           handEnd     잭스 오어 베터: the first round ended unopened (pot carries)
draw        allDrew            deal        everybody submitted: replacements dealt in seat order
declare     allDeclared        deal        everybody declared: sides shown at once
deal        runTwiceStep       runTwice    런 잇 트와이스: betting closed before the river (run_twice module)
runTwice    allAnswered        deal        everybody answered: the answers shown at once, one or two boards
choice      oneLeft            handEnd     a leave folded the last opponent
draw        oneLeft            handEnd     (same)
declare     oneLeft            handEnd     (same)
runTwice    oneLeft            handEnd     (same: the covering player left)
=========== ================== =========== ===================================================================

Game phases: ``playing`` → (all ready / 4 s after handEnd) → ``rebuy`` when somebody busted with rebuys left
→ ``playing`` (next hand) → ... → ``finished`` (§6.7). The flow never waits on a ``left`` player: they fold
after the forced bets, fold at their turn, choose/draw/declare automatically and count as ready.

Chips move only through :mod:`pokerroom.betting` (bets, uncalled returns) and here for forced bets, the
Indian penalty and the awards; cards only through :mod:`pokerroom.engine.deal`.
"""

from __future__ import annotations

from typing import Any

from pokerroom import betting as bt
from pokerroom.betting import Bettor
from pokerroom.cards import SUIT_STRENGTH, Card
from pokerroom.engine import house_blinds, run_twice, seating, time_bank
from pokerroom.engine.common import (
    SIMULTANEOUS,
    Events,
    bt_can_act,
    build_pots,
    in_hand,
    is_left,
    pending,
    pots_json,
    rules,
    seat_by_id,
    turn_ms,
)
from pokerroom.engine.deal import burn, deal_round, fresh_deck, indian_deck_for_hand, replace_cards
from pokerroom.engine.log import emit
from pokerroom.engine.modes import Draw, ModeRules, Stud
from pokerroom.engine.options import RULE491_STREETS, jacks_or_better_applies, rule491_applies, uses_blinds
from pokerroom.engine.showdown import end_hand
from pokerroom.engine.state import Hand, HandPlayer, Seat, State

TRANSITIONS: dict[tuple[str, str], str] = {
    ("deal", "choiceStep"): "choice",
    ("deal", "betStep"): "betting",
    ("deal", "drawStep"): "draw",
    ("deal", "declareStep"): "declare",
    ("deal", "showdown"): "handEnd",
    ("deal", "oneLeft"): "handEnd",
    ("choice", "allChose"): "deal",
    ("betting", "roundOver"): "deal",
    ("betting", "oneLeft"): "handEnd",
    ("betting", "noOpener"): "handEnd",
    ("draw", "allDrew"): "deal",
    ("declare", "allDeclared"): "deal",
    ("deal", "runTwiceStep"): "runTwice",
    ("runTwice", "allAnswered"): "deal",
    ("choice", "oneLeft"): "handEnd",
    ("draw", "oneLeft"): "handEnd",
    ("declare", "oneLeft"): "handEnd",
    ("runTwice", "oneLeft"): "handEnd",
}



def goto(hand: Hand, trigger: str) -> None:
    """Move the hand along the transition table (an impossible move is a bug, not a player error)."""
    target = TRANSITIONS.get((hand.phase, trigger))
    if target is None:
        raise AssertionError(f"no transition from {hand.phase!r} on {trigger!r}")
    hand.phase = target


# ---------------------------------------------------------------------------------------------------------
# helpers


# ---------------------------------------------------------------------------------------------------------
# hand start


def start_hand(state: State, now: int, ev: Events) -> None:
    """§5.1 steps 1–5, then run the script until somebody must decide."""
    parts = seating.dealable(state)
    assert len(parts) >= 2, "lifecycle.end_reason ends the game before a hand without opponents"
    dealer = choose_dealer(state, parts)
    n = len(state.seats)
    by_seat = {s.seat: s for s in parts}
    order = [by_seat[(dealer.seat + k) % n].id for k in range(1, n + 1) if (dealer.seat + k) % n in by_seat]
    hand_no = (state.hand.hand_no if state.hand is not None else 0) + 1
    hand = Hand(
        hand_no=hand_no,
        phase="deal",
        dealer_seat=dealer.seat,
        order=order,
        players={pid: HandPlayer(pid) for pid in order},
        bettors={pid: Bettor(pid, seat_by_id(state, pid).stack) for pid in order},
    )
    state.hand = hand
    entering = {s.id for s in parts if s.entry_due}
    for s in parts:
        s.stack_at_hand_start = s.stack
        s.entry_due = False
    emit(state, ev, {
        "type": "handStart", "handNo": hand_no, "dealer": dealer.id, "dealerSeat": dealer.seat,
        "baseUnit": state.base_unit, "players": list(order),
    })
    time_bank.before_hand(state, ev)
    if state.options.mode == "indian":
        needed = len(order) * state.options.indian_cards
        deck, reshuffled = indian_deck_for_hand(state, needed)
        hand.deck = deck
        state.indian_deck = None  # the kept deck lives in the hand until the hand ends
        if reshuffled:
            emit(state, ev, {"type": "reshuffle", "reason": "indian"})
        hand.dead = state.carry_over
        state.carry_over = 0
    else:
        hand.deck = fresh_deck(state)
        if state.carry_over:  # 잭스 오어 베터: the antes of an unopened hand stay in the pot of the re-deal
            hand.dead = state.carry_over
            state.carry_over = 0
    post_forced_bets(state, hand, ev, entering)
    hand.pots = build_pots(hand, settled_only=True)
    for pid in order:  # §5.8: a player who left dies right after the forced bets (all-in by them or not)
        if is_left(state, pid):
            fold_out_of_turn(state, hand, pid, ev)
    advance(state, now, ev)


def choose_dealer(state: State, parts: list[Seat]) -> Seat:
    """§5.1 step 2: the setup seat first; then rotate, or the last winner under ``dealerRule=winner``."""
    seats = sorted(parts, key=lambda s: s.seat)
    if state.hand is None:
        start = state.first_dealer_seat
        return next((s for s in seats if s.seat >= start), seats[0])
    if state.hand.no_opener:  # 잭스 오어 베터: nobody opened, the same dealer deals again
        same = next((s for s in seats if s.seat == state.hand.dealer_seat), None)
        if same is not None:
            return same
    if state.options.dealer_rule == "winner" and state.last_winner is not None:
        for s in seats:
            if s.id == state.last_winner:
                return s
    prev = state.hand.dealer_seat
    return next((s for s in seats if s.seat > prev), seats[0])


def post_forced_bets(state: State, hand: Hand, ev: Events, entering: set[str] | frozenset[str] = frozenset()
                     ) -> None:
    """Antes (not in committedRound) or blinds (in committedRound); short stacks go all-in (§5.1 step 4).

    ``entering``: seats dealt in for the first time since they joined or came back; in blind modes each
    posts one live big blind (:mod:`pokerroom.engine.seating`): the big blind itself in the big-blind
    seat, a big blind instead of the small one in the small-blind seat, an extra big blind elsewhere.
    """
    unit = state.base_unit
    if uses_blinds(state.options):
        if len(hand.order) == 2:
            sb, bb = hand.order[1], hand.order[0]
        else:
            sb, bb = hand.order[0], hand.order[1]
        hand.sb, hand.bb = sb, bb
        straddler = house_blinds.straddler_for(state, hand)  # (its straddle is its entry big blind too)
        posts = [(sb, "entry" if sb in entering else "sb", unit if sb in entering else max(1, unit // 2)),
                 (bb, "bb", unit)]
        posts += [(pid, "entry", unit) for pid in hand.order
                  if pid in entering and pid not in (sb, bb, straddler)]
        for pid, kind, amount in posts:
            b = hand.bettors[pid]
            paid = min(amount, b.stack)
            b.stack -= paid
            b.committed_round += paid
            b.committed_total += paid
            b.all_in = b.stack == 0
            hand.players[pid].forced = "bb" if kind == "entry" else kind
            emit(state, ev, {"type": "blind", "from": pid, "kind": kind, "amount": paid, "allIn": b.all_in})
        if straddler is not None:
            house_blinds.post_straddle(state, hand, straddler, ev)
        house_blinds.post_antes(state, hand, ev)
        return
    for pid in hand.order:
        b = hand.bettors[pid]
        paid = min(unit, b.stack)
        b.stack -= paid
        b.committed_total += paid
        b.all_in = b.stack == 0
        hand.players[pid].forced = "ante"
        emit(state, ev, {"type": "ante", "from": pid, "amount": paid, "allIn": b.all_in})


# ---------------------------------------------------------------------------------------------------------
# folding outside the betting module (leaving)


def penalty_for_fold(state: State, hand: Hand, pid: str, ev: Events) -> None:
    """§5.4.7: folding with the deck's top card on the forehead pays 10 × baseUnit (or the rest)."""
    opts = state.options
    if opts.mode != "indian" or not opts.indian_fold_penalty:
        return
    p = hand.players[pid]
    top = 10 if opts.indian_deck == "d20" else 14
    if p.forehead is None or p.forehead.rank != top:
        return
    b = hand.bettors[pid]
    amount = min(10 * state.base_unit, b.stack)
    if amount <= 0:
        return
    b.stack -= amount
    hand.penalties.append({"from": pid, "amount": amount})
    emit(state, ev, {"type": "penalty", "from": pid, "amount": amount})


def fold_out_of_turn(state: State, hand: Hand, pid: str, ev: Events) -> None:
    """Fold a player who left without waiting for their turn (auto-die, §5.8)."""
    b = hand.bettors[pid]
    kind = "k.die" if state.betting == "korean" else "nl.fold"
    if hand.rnd is not None and hand.phase == "betting" and hand.rnd.to_act == pid:
        bt.apply_action(hand.rnd, hand.bettors, pid, {"type": kind})
    else:
        b.folded = True
        b.last_action = kind
    emit(state, ev, {"type": "action", "player": pid, "action": {"type": kind}, "amount": 0,
                     "allIn": False, "auto": True})
    penalty_for_fold(state, hand, pid, ev)


# ---------------------------------------------------------------------------------------------------------
# the driver


def advance(state: State, now: int, ev: Events) -> None:
    """Run automatic steps until a live player must decide, the hand ends, or the game ends."""
    hand = state.hand
    assert hand is not None
    script = rules(state).steps()
    while True:
        if hand.phase == "handEnd":
            return
        if len(in_hand(hand)) <= 1:
            if hand.phase == "betting":
                end_round(state, hand, ev)
            goto(hand, "oneLeft")
            end_hand(state, now, ev, one_left=True)
            return
        if hand.phase == "betting":
            if _betting_step(state, hand, now, ev):
                return
            continue
        if hand.phase in SIMULTANEOUS:
            _auto_simultaneous_for_left(state, hand, ev)
            if pending(state):
                return
            _resolve_simultaneous(state, hand, ev)
            continue
        # phase "deal": the next step of the script
        if hand.step >= len(script):
            if run_twice.second_run_due(hand):
                run_twice.deal_second_run(state, hand, script, ev)
            goto(hand, "showdown")
            end_hand(state, now, ev, one_left=False)
            return
        kind, arg = script[hand.step]
        if kind == "board" and run_twice.offer(state, hand, now, ev):
            goto(hand, "runTwiceStep")
            continue
        hand.step += 1
        _run_step(state, hand, kind, arg, now, ev)


def _next_street(mode: ModeRules, hand: Hand) -> str:
    """The name of the betting round the cards just dealt open (the script's next step is its bet)."""
    steps = mode.steps()
    kind, street = steps[hand.step] if hand.step < len(steps) else ("", -1)
    return mode.street_name(street) if kind == "bet" else ""


def _betting_step(state: State, hand: Hand, now: int, ev: Events) -> bool:
    """True when waiting for the player to act; False when the round ended (continue the script)."""
    rnd = hand.rnd
    assert rnd is not None
    if bt.round_over(rnd, hand.bettors) or rnd.to_act is None:
        unopened = rnd.may_open is not None and not rnd.opened
        end_round(state, hand, ev)
        if unopened and len(in_hand(hand)) > 1:  # 잭스 오어 베터: nobody opened
            goto(hand, "noOpener")
            end_hand(state, now, ev, one_left=False, no_opener=True)
            return True
        goto(hand, "roundOver")
        return False
    pid = rnd.to_act
    if is_left(state, pid):
        fold_out_of_turn(state, hand, pid, ev)
        return False
    if hand.turn_of != pid or hand.deadline_at is None:
        time_bank.end_turn(hand)
        hand.turn_of = pid
        hand.deadline_at = now + turn_ms(state, pid)
    return True


def _run_step(state: State, hand: Hand, kind: str, arg: int, now: int, ev: Events) -> None:
    mode = rules(state)
    if kind == "hole":
        for pid, cards in deal_round(hand, arg).items():
            hand.players[pid].hole.extend(cards)
            emit(state, ev, {"type": "dealt", "to": pid, "count": len(cards), "target": "hole"})
        if isinstance(mode, Stud):  # 7구, face down: the log marks the street like the open ones
            emit(state, ev, {"type": "street", "streetName": _next_street(mode, hand), "up": {}})
    elif kind == "up":
        dealt = deal_round(hand, arg)
        for pid, cards in dealt.items():
            hand.players[pid].up.extend(cards)
            for c in cards:
                emit(state, ev, {"type": "dealt", "to": pid, "count": 1, "target": "up",
                                 "faceUp": c.to_json()})
        # one line for the street's open cards ("5구: 민수 K♠, 지수 9◆"): the log told one street's bets from
        # the next's only by who acted
        emit(state, ev, {"type": "street", "streetName": _next_street(mode, hand),
                         "up": {pid: [c.to_json() for c in cards] for pid, cards in dealt.items()}})
    elif kind == "forehead":
        for pid, cards in deal_round(hand, 1).items():
            hand.players[pid].forehead = cards[0]
            emit(state, ev, {"type": "dealt", "to": pid, "count": 1, "target": "forehead"})
    elif kind == "board":
        burn(hand)
        emit(state, ev, {"type": "burn"})
        cards = [hand.deck.pop(0) for _ in range(arg)]
        hand.board.extend(cards)
        emit(state, ev, {"type": "board", "cards": [c.to_json() for c in cards], "street": hand.street + 1})
    elif kind == "choice":
        for pid, cards in deal_round(hand, arg).items():
            hand.players[pid].choice = cards
            emit(state, ev, {"type": "dealt", "to": pid, "count": len(cards), "target": "choice"})
        hand.phase_started_at = now
        goto(hand, "choiceStep")
    elif kind == "draw":
        hand.draw_no = arg
        for pid in in_hand(hand):
            hand.players[pid].draw_pending = None
        hand.phase_started_at = now
        goto(hand, "drawStep")
    elif kind == "declare":
        hand.phase_started_at = now
        goto(hand, "declareStep")
    elif kind == "bet":
        _start_betting(state, hand, arg, mode, ev)
    elif kind == "showdown":
        hand.step = len(mode.steps())  # advance() ends the hand when the script is exhausted


def _start_betting(state: State, hand: Hand, street: int, mode: ModeRules, ev: Events) -> None:
    hand.street = street
    able = [pid for pid in in_hand(hand) if bt_can_act(hand.bettors[pid])]
    top = max(b.committed_round for b in hand.bettors.values())
    if not able or (len(able) == 1 and hand.bettors[able[0]].committed_round >= top):
        return  # betting closed: the cards are run out (§5.2)
    order = mode.betting_order(hand, street)
    blinds = street == 0 and hand.bb is not None
    # rulings.md 4: a blind all-in for less than its amount does not lower the bet: the others still owe
    # the full big blind, and the minimum raise goes to twice it (``top`` above, the chips actually posted,
    # only decides whether anybody can still contest them)
    opts = state.options
    hand.rnd = bt.start_round(
        state.betting, state.base_unit, opts.korean_max_raise, order, hand.bettors,
        current_bet=max(top, state.base_unit) if blinds else 0, opened=blinds, dead=hand.dead,
        opening_only="k.half" if rule491_applies(opts) and street in RULE491_STREETS else None,
        bet_cap=opts.bet_cap * state.base_unit,
        may_open=_openers(state, hand, mode) if street == 0 and jacks_or_better_applies(opts) else None,
    )
    if blinds and hand.straddler is not None:  # the straddle is a full raise: the next must add as much
        hand.rnd.last_raise_size = house_blinds.straddle_amount(state.base_unit)
    hand.boss = hand.rnd.to_act
    for p in hand.players.values():
        p.forced = None if not blinds else p.forced
    goto(hand, "betStep")
    emit(state, ev, {"type": "roundStart", "street": street, "streetName": mode.street_name(street),
                     "toAct": hand.rnd.to_act, "boss": hand.boss})


def _openers(state: State, hand: Hand, mode: ModeRules) -> list[str]:
    """잭스 오어 베터: the players of the hand who hold a pair of jacks or better."""
    assert isinstance(mode, Draw)
    return [pid for pid in in_hand(hand) if mode.openers(hand, pid) is not None]


def record_opener(state: State, hand: Hand, pid: str, ev: Events) -> None:
    """The first chips of an unopened 잭스 오어 베터 round: remember who opened and with which cards."""
    rnd = hand.rnd
    if rnd is None or rnd.may_open is None or hand.opener is not None or not rnd.opened:
        return
    mode = rules(state)
    assert isinstance(mode, Draw)
    proof = mode.openers(hand, pid)
    assert proof is not None, "the betting layer only lets a player with openers open"
    hand.opener = pid
    hand.opener_cards = proof
    emit(state, ev, {"type": "opened", "player": pid})


def end_round(state: State, hand: Hand, ev: Events) -> None:
    """Round end: return an uncalled top bet, clear round bets, rebuild the pots (§5.5)."""
    back = bt.return_uncalled(hand.bettors)
    if back is not None:
        emit(state, ev, {"type": "uncalled", "to": back[0], "amount": back[1]})
    for b in hand.bettors.values():
        b.committed_round = 0
    for p in hand.players.values():
        p.forced = None
    hand.pots = build_pots(hand)
    hand.deadline_at = None
    hand.turn_of = None
    time_bank.end_turn(hand)
    emit(state, ev, {"type": "roundEnd", "street": hand.street, "pots": pots_json(hand.pots)})


# ---------------------------------------------------------------------------------------------------------
# simultaneous phases


def auto_choice(cards: list[Card]) -> tuple[int, int]:
    """§8.5: discard the lowest card (rank, then suit), open the lowest of the remaining three."""
    def key(c: Card) -> tuple[int, int]:
        return (c.rank, SUIT_STRENGTH[c.suit])

    ordered = sorted(cards, key=key)
    return ordered[0].id, ordered[1].id


def auto_simultaneous(state: State, hand: Hand, pid: str, ev: Events) -> None:
    """The §8.5 automatic decision of one player in the current simultaneous phase."""
    p = hand.players[pid]
    if hand.phase == "choice":
        assert p.choice is not None
        d, o = auto_choice(p.choice)
        p.chosen = [d, o]
        emit(state, ev, {"type": "chose", "player": pid, "auto": True})
    elif hand.phase == "draw":
        p.draw_pending = []
        emit(state, ev, {"type": "drew", "player": pid, "auto": True})
    elif hand.phase == "declare":
        p.declare = "high"
        emit(state, ev, {"type": "declared", "player": pid, "auto": True})
    elif hand.phase == "runTwice":  # one board unless everybody says yes
        run_twice.answer(state, hand, pid, False, ev, auto=True)


def _auto_simultaneous_for_left(state: State, hand: Hand, ev: Events) -> None:
    for pid in pending(state):
        if is_left(state, pid):
            auto_simultaneous(state, hand, pid, ev)


def _resolve_simultaneous(state: State, hand: Hand, ev: Events) -> None:
    if hand.phase == "choice":
        opens: dict[str, Any] = {}
        for pid in in_hand(hand):
            p = hand.players[pid]
            assert p.choice is not None and p.chosen is not None
            d, o = p.chosen
            discard = next(c for c in p.choice if c.id == d)
            opened = next(c for c in p.choice if c.id == o)
            hand.muck.append(discard)
            p.discarded = discard
            p.up = [opened]
            p.hole = [c for c in p.choice if c.id not in (d, o)]
            p.choice = None
            p.chosen = None
            opens[pid] = opened.to_json()
        emit(state, ev, {"type": "reveal", "opens": opens})
        goto(hand, "allChose")
    elif hand.phase == "draw":
        requests = [(pid, list(hand.players[pid].draw_pending or [])) for pid in in_hand(hand)]
        if replace_cards(state, hand, requests):
            emit(state, ev, {"type": "reshuffle", "reason": "draw"})
        counts = {}
        for pid, ids in requests:
            p = hand.players[pid]
            p.draw_counts.append(len(ids))
            p.draw_pending = None
            counts[pid] = len(ids)
        emit(state, ev, {"type": "drawn", "counts": counts, "drawNo": hand.draw_no})
        goto(hand, "allDrew")
    elif hand.phase == "runTwice":
        run_twice.resolve(state, hand, ev)
        goto(hand, "allAnswered")
    else:
        sides = {pid: hand.players[pid].declare for pid in in_hand(hand)}
        emit(state, ev, {"type": "declares", "sides": sides})
        goto(hand, "allDeclared")
