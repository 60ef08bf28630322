"""The hand lifecycle: start, forced bets, the mode's script, betting rounds, simultaneous phases, showdown,
hand end, rebuys and the end of the game (poker.md §4, §5.1, §5.4–§5.8, §6.7).

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
draw        allDrew            deal        everybody submitted: replacements dealt in seat order
declare     allDeclared        deal        everybody declared: sides shown at once
choice      oneLeft            handEnd     a leave folded the last opponent
draw        oneLeft            handEnd     (same)
declare     oneLeft            handEnd     (same)
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
from pokerroom.betting import Bettor, Pot
from pokerroom.cards import Card
from pokerroom.engine.deal import burn, deal_round, fresh_deck, indian_deck_for_hand, replace_cards
from pokerroom.engine.log import emit
from pokerroom.engine.modes import Draw, Indian, ModeRules, Stud, Valued, rules_for
from pokerroom.engine.options import uses_blinds
from pokerroom.engine.state import Hand, HandPlayer, Seat, State

Events = list[dict[str, Any]]

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
    ("draw", "allDrew"): "deal",
    ("declare", "allDeclared"): "deal",
    ("choice", "oneLeft"): "handEnd",
    ("draw", "oneLeft"): "handEnd",
    ("declare", "oneLeft"): "handEnd",
}

SIMULTANEOUS = ("choice", "draw", "declare")
HAND_END_MS = 4_000
REBUY_MS = 15_000
AWAY_MS = 5_000
SAFETY_HANDS = 300


def goto(hand: Hand, trigger: str) -> None:
    """Move the hand along the transition table (an impossible move is a bug, not a player error)."""
    target = TRANSITIONS.get((hand.phase, trigger))
    if target is None:
        raise AssertionError(f"no transition from {hand.phase!r} on {trigger!r}")
    hand.phase = target


# ---------------------------------------------------------------------------------------------------------
# helpers


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


def simultaneous_ms(state: State, pid: str) -> int:
    """Choice/draw/declare: turnSeconds + 10 s for everyone; an away player is timed out after 5 s."""
    return AWAY_MS if seat_by_id(state, pid).away else (state.options.turn_seconds + 10) * 1000


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
    if hand.phase == "handEnd":
        return [pid for pid in hand.order if not hand.players[pid].ready]
    return []


def rebuy_possible(state: State, seat: Seat) -> bool:
    """§5.6: rebuys left, and not right after the last hand of a ``hands`` game."""
    opts = state.options
    if opts.rebuy == "off":
        return False
    if opts.rebuy == "limited" and seat.rebuys >= opts.rebuy_limit:
        return False
    return not (opts.end_condition == "hands" and state.hands_played >= opts.hand_limit)


# ---------------------------------------------------------------------------------------------------------
# hand start


def start_hand(state: State, now: int, ev: Events) -> None:
    """§5.1 steps 1–5, then run the script until somebody must decide."""
    parts = [s for s in state.seats if s.status in ("playing", "left") and s.stack > 0]
    if len(parts) < 2:
        finish(state, ev, "lastStanding" if state.options.end_condition == "lastStanding" else "noOpponents")
        return
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
    for s in parts:
        s.stack_at_hand_start = s.stack
    emit(state, ev, {
        "type": "handStart", "handNo": hand_no, "dealer": dealer.id, "dealerSeat": dealer.seat,
        "baseUnit": state.base_unit, "players": list(order),
    })
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
    post_forced_bets(state, hand, ev)
    hand.pots = build_pots(hand, settled_only=True)
    for pid in order:  # §5.8: a player who left dies right after the forced bets
        b = hand.bettors[pid]
        if is_left(state, pid) and not b.all_in:
            fold_out_of_turn(state, hand, pid, ev)
    advance(state, now, ev)


def choose_dealer(state: State, parts: list[Seat]) -> Seat:
    """§5.1 step 2: the setup seat first; then rotate, or the last winner under ``dealerRule=winner``."""
    seats = sorted(parts, key=lambda s: s.seat)
    if state.hand is None:
        start = state.first_dealer_seat
        return next((s for s in seats if s.seat >= start), seats[0])
    if state.options.dealer_rule == "winner" and state.last_winner is not None:
        for s in seats:
            if s.id == state.last_winner:
                return s
    prev = state.hand.dealer_seat
    return next((s for s in seats if s.seat > prev), seats[0])


def post_forced_bets(state: State, hand: Hand, ev: Events) -> None:
    """Antes (not in committedRound) or blinds (in committedRound); short stacks go all-in (§5.1 step 4)."""
    unit = state.base_unit
    if uses_blinds(state.options):
        if len(hand.order) == 2:
            sb, bb = hand.order[1], hand.order[0]
        else:
            sb, bb = hand.order[0], hand.order[1]
        hand.sb, hand.bb = sb, bb
        for pid, kind, amount in ((sb, "sb", max(1, unit // 2)), (bb, "bb", unit)):
            b = hand.bettors[pid]
            paid = min(amount, b.stack)
            b.stack -= paid
            b.committed_round += paid
            b.committed_total += paid
            b.all_in = b.stack == 0
            hand.players[pid].forced = kind
            emit(state, ev, {"type": "blind", "from": pid, "kind": kind, "amount": paid, "allIn": b.all_in})
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
            end_hand(state, now, ev, one_left=False)
            return
        kind, arg = script[hand.step]
        hand.step += 1
        _run_step(state, hand, kind, arg, now, ev)


def _betting_step(state: State, hand: Hand, now: int, ev: Events) -> bool:
    """True when waiting for the player to act; False when the round ended (continue the script)."""
    rnd = hand.rnd
    assert rnd is not None
    if bt.round_over(rnd, hand.bettors) or rnd.to_act is None:
        end_round(state, hand, ev)
        goto(hand, "roundOver")
        return False
    pid = rnd.to_act
    if is_left(state, pid):
        fold_out_of_turn(state, hand, pid, ev)
        return False
    if hand.turn_of != pid or hand.deadline_at is None:
        hand.turn_of = pid
        hand.deadline_at = now + turn_ms(state, pid)
    return True


def _run_step(state: State, hand: Hand, kind: str, arg: int, now: int, ev: Events) -> None:
    mode = rules(state)
    if kind == "hole":
        for pid, cards in deal_round(hand, arg).items():
            hand.players[pid].hole.extend(cards)
            emit(state, ev, {"type": "dealt", "to": pid, "count": len(cards), "target": "hole"})
    elif kind == "up":
        for pid, cards in deal_round(hand, arg).items():
            hand.players[pid].up.extend(cards)
            for c in cards:
                emit(state, ev, {"type": "dealt", "to": pid, "count": 1, "target": "up",
                                 "faceUp": c.to_json()})
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
    hand.rnd = bt.start_round(
        state.betting, state.base_unit, state.options.korean_max_raise, order, hand.bettors,
        current_bet=top if blinds else 0, opened=blinds, dead=hand.dead,
    )
    hand.boss = hand.rnd.to_act
    for p in hand.players.values():
        p.forced = None if not blinds else p.forced
    goto(hand, "betStep")
    emit(state, ev, {"type": "roundStart", "street": street, "streetName": mode.street_name(street),
                     "toAct": hand.rnd.to_act, "boss": hand.boss})


def bt_can_act(b: Bettor) -> bool:
    return not b.folded and not b.all_in and b.stack > 0


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
    emit(state, ev, {"type": "roundEnd", "street": hand.street, "pots": pots_json(hand.pots)})


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


# ---------------------------------------------------------------------------------------------------------
# simultaneous phases


def auto_choice(cards: list[Card]) -> tuple[int, int]:
    """§8.5: discard the lowest card (rank, then suit), open the lowest of the remaining three."""
    from pokerroom.cards import SUIT_STRENGTH

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
    else:
        sides = {pid: hand.players[pid].declare for pid in in_hand(hand)}
        emit(state, ev, {"type": "declares", "sides": sides})
        goto(hand, "allDeclared")


# ---------------------------------------------------------------------------------------------------------
# hand end


def end_hand(state: State, now: int, ev: Events, *, one_left: bool) -> None:
    """§5.1 steps 6–8: award the pots (with or without showdown) and show the result."""
    hand = state.hand
    assert hand is not None
    goto(hand, "oneLeft" if one_left else "showdown")
    hand.rnd = None
    for b in hand.bettors.values():
        b.committed_round = 0
    mode = rules(state)
    is_indian = isinstance(mode, Indian)
    penalties = sum(int(p["amount"]) for p in hand.penalties)
    awards: list[dict[str, Any]] = []
    carried = 0
    hand.pots = build_pots(hand)
    if one_left:
        winner = in_hand(hand)[0]
        hand.one_left = True
        hand.showdown = []
        for i, pot in enumerate(hand.pots):
            awards.append({"potIndex": i, "to": winner, "amount": pot.amount, "side": None})
        if penalties:
            awards.append({"potIndex": -1, "to": winner, "amount": penalties, "side": None})
    else:
        awards, carried = _showdown(state, hand, mode, penalties, ev)
    if is_indian:
        _indian_reveal(state, hand, ev)
    for a in awards:
        hand.bettors[a["to"]].stack += a["amount"]
        emit(state, ev, {"type": "award", **a})
    if carried:
        state.carry_over += carried
        emit(state, ev, {"type": "carry", "amount": carried})
    hand.awards = awards
    hand.winners = list(dict.fromkeys(a["to"] for a in awards))
    _record_stats(state, hand, awards)
    sync_stacks(state, force=True)
    state.hands_played += 1
    hand.deadline_at = now + HAND_END_MS
    emit(state, ev, {"type": "handEnd", "handNo": hand.hand_no, "winners": list(hand.winners),
                     "oneLeft": hand.one_left})
    for pid in hand.order:
        s = seat_by_id(state, pid)
        if s.stack == 0 and s.status == "playing":
            s.status = "busted"
            emit(state, ev, {"type": "busted", "player": pid})
        if s.status == "left":
            hand.players[pid].ready = True
    if _connected_with_chips(state) <= 1:
        after_hand(state, now, ev, force_end=True)
        return
    if not pending(state):
        after_hand(state, now, ev)


def _showdown(state: State, hand: Hand, mode: ModeRules, penalties: int,
              ev: Events) -> tuple[list[dict[str, Any]], int]:
    contenders = in_hand(hand)
    values: dict[str, Valued] = {pid: mode.evaluate(hand, pid) for pid in contenders}
    entries = []
    shown = contenders
    if isinstance(mode, Indian):  # everyone dealt in is revealed, folded players included
        shown = [pid for pid in hand.order if hand.players[pid].forehead is not None]
    for pid in shown:
        p = hand.players[pid]
        v = values.get(pid) or mode.evaluate(hand, pid)
        entry: dict[str, Any] = {
            "id": pid,
            "cards": [c.to_json() for c in mode.all_cards(hand, pid)],
            "best": [c.to_json() for c in v.high.cards],
            "handName": str(v.high.name),
        }
        if state.options.mode == "sevenHiLo":
            entry["lowName"] = None if v.low is None else str(v.low.name)
            entry["declare"] = p.declare
        p.shown = True
        entries.append(entry)
    hand.showdown = entries
    emit(state, ev, {"type": "showdown", "entries": entries})
    high = {pid: v.high for pid, v in values.items()}
    carried = 0
    if isinstance(mode, Indian):
        raw, carried = bt.award_indian(hand.pots, high, hand.order, state.options.indian_tie, penalties,
                                       _is_last_hand(state))
    elif state.options.mode == "sevenHiLo":
        low = {pid: v.low for pid, v in values.items()}
        declares: dict[str, Any] = {pid: hand.players[pid].declare or "high" for pid in contenders}
        raw = bt.award_hilo(hand.pots, declares, high, low, hand.order)
    else:
        raw = bt.award_pots(hand.pots, high, hand.order)
    _remember_best(state, hand, mode, values)
    return [{"potIndex": a.pot_index, "to": a.to, "amount": a.amount, "side": a.side} for a in raw], carried


def _is_last_hand(state: State) -> bool:
    opts = state.options
    nxt = state.hands_played + 1
    if opts.end_condition == "hands":
        return nxt >= opts.hand_limit
    return nxt >= SAFETY_HANDS


def _indian_reveal(state: State, hand: Hand, ev: Events) -> None:
    cards: dict[str, Any] = {}
    for pid in hand.order:
        p = hand.players[pid]
        p.shown = True
        cards[pid] = {"forehead": None if p.forehead is None else p.forehead.to_json(),
                      "hole": [c.to_json() for c in p.hole]}
    emit(state, ev, {"type": "indianReveal", "cards": cards})


def _remember_best(state: State, hand: Hand, mode: ModeRules, values: dict[str, Valued]) -> None:
    """stats.bestHand: the best high hand shown at any showdown of the game (one evaluator per game, so the
    integer keys of its values compare; an equal later hand does not replace the first one)."""
    best_pid = None
    for pid, v in values.items():
        if best_pid is None or v.high > values[best_pid].high:
            best_pid = pid
    if best_pid is None:
        return
    key = int(values[best_pid].high.key)
    if state.best_hand is not None and key <= int(state.best_hand["key"]):
        return
    state.best_hand = {"playerId": best_pid, "handName": str(values[best_pid].high.name),
                       "handNo": hand.hand_no, "key": key}


def _record_stats(state: State, hand: Hand, awards: list[dict[str, Any]]) -> None:
    """stats.biggestPot (total chips awarded in one hand) and the dealerRule=winner candidate."""
    total = sum(int(a["amount"]) for a in awards)
    state.last_winner = None
    if awards:
        biggest_index = max(range(len(hand.pots)), key=lambda i: hand.pots[i].amount) if hand.pots else -1
        winners = [a["to"] for a in awards if a["potIndex"] == biggest_index] or [awards[0]["to"]]
        order = hand.order
        winners = sorted(dict.fromkeys(winners), key=order.index)
        state.last_winner = winners[0]
        if state.biggest_pot is None or total > int(state.biggest_pot["amount"]):
            state.biggest_pot = {"handNo": hand.hand_no, "amount": total,
                                 "winners": list(dict.fromkeys(a["to"] for a in awards))}


def _connected_with_chips(state: State) -> int:
    """§6.7 common end rule: connected players who have chips (or may still rebuy)."""
    count = 0
    for s in state.seats:
        if s.status == "playing" and s.stack > 0:
            count += 1
        elif s.status == "busted" and rebuy_possible(state, s):
            count += 1
    return count


# ---------------------------------------------------------------------------------------------------------
# after the hand: blinds, busts, rebuys, end of game


def after_hand(state: State, now: int, ev: Events, *, force_end: bool = False) -> None:
    """§5.1 step 9, §5.6, §5.7, §6.7."""
    hand = state.hand
    assert hand is not None
    hand.deadline_at = None
    opts = state.options
    if opts.mode == "indian":
        state.indian_deck = hand.deck
        for pid in hand.order:
            p = hand.players[pid]
            state.indian_used.extend(([p.forehead] if p.forehead else []) + list(p.hole))
        hand.deck = []
    if opts.blind_up_every and state.hands_played % opts.blind_up_every == 0:
        cap = opts.starting_chips // 5
        new = min(state.base_unit * 2, cap)
        if new > state.base_unit:
            state.base_unit = new
            state.level += 1
            emit(state, ev, {"type": "blindUp", "baseUnit": new, "level": state.level})
    eliminated: list[str] = []
    state.rebuy_pending = []
    for s in state.seats:
        if s.id not in hand.bettors:
            continue
        if s.stack == 0 and s.status in ("busted", "left"):
            if s.status == "busted" and rebuy_possible(state, s) and not force_end:
                state.rebuy_pending.append(s.id)
                s.rebuy_decided = False
            else:
                eliminate(state, s, hand.hand_no, ev, eliminated)
    if force_end:
        finish(state, ev, "noOpponents")
        return
    if state.rebuy_pending:
        state.phase = "rebuy"
        state.rebuy_deadline_at = now + REBUY_MS
        for pid in list(state.rebuy_pending):
            if is_left(state, pid):
                decide_rebuy(state, pid, False, now, ev, resume=False)
        if pending(state):
            return
    next_hand(state, now, ev)


def eliminate(state: State, s: Seat, hand_no: int, ev: Events, group: list[str] | None = None) -> None:
    if s.status != "left":
        s.status = "eliminated"
    s.eliminated_at_hand = hand_no
    if state.elimination_seq and all(
        seat_by_id(state, pid).eliminated_at_hand == hand_no for pid in state.elimination_seq[-1]
    ):
        state.elimination_seq[-1].append(s.id)
    else:
        state.elimination_seq.append([s.id])
    emit(state, ev, {"type": "eliminated", "player": s.id, "handNo": hand_no})


def decide_rebuy(state: State, pid: str, accept: bool, now: int, ev: Events, *, resume: bool = True) -> None:
    s = seat_by_id(state, pid)
    s.rebuy_decided = True
    if accept:
        s.stack = state.options.starting_chips
        s.rebuys += 1
        s.status = "playing"
    emit(state, ev, {"type": "rebuy", "player": pid, "accept": accept})
    if not accept:
        hand_no = state.hand.hand_no if state.hand is not None else 0
        eliminate(state, s, hand_no, ev)
    if resume and not pending(state):
        next_hand(state, now, ev)


def end_reason(state: State) -> str | None:
    """§6.7: why the game ends now, or None to play on."""
    opts = state.options
    if opts.end_condition == "hands" and state.hands_played >= opts.hand_limit:
        return "hands"
    if opts.end_condition == "lastStanding" and state.hands_played >= SAFETY_HANDS:
        return "safety"
    with_chips = [s for s in state.seats if s.status in ("playing", "left") and s.stack > 0]
    if len(with_chips) <= 1:
        return "lastStanding" if opts.end_condition == "lastStanding" else "noOpponents"
    if sum(1 for s in with_chips if s.status == "playing") <= 1:
        return "noOpponents"
    return None


def next_hand(state: State, now: int, ev: Events) -> None:
    state.phase = "playing"
    state.rebuy_pending = []
    state.rebuy_deadline_at = None
    for s in state.seats:
        s.rebuy_decided = False
    reason = end_reason(state)
    if reason is not None:
        finish(state, ev, reason)
        return
    start_hand(state, now, ev)


def finish(state: State, ev: Events, reason: str) -> None:
    """The game is over (§6.7); chips carried over in Indian go back to nobody: they stay in carryOver."""
    state.phase = "finished"
    state.end_reason = reason
    state.rebuy_pending = []
    state.rebuy_deadline_at = None
    if state.hand is not None:
        state.hand.deadline_at = None
    emit(state, ev, {"type": "gameEnd", "reason": reason})


__all__ = [
    "SIMULTANEOUS",
    "TRANSITIONS",
    "Draw",
    "Stud",
    "advance",
    "after_hand",
    "auto_simultaneous",
    "decide_rebuy",
    "end_hand",
    "fold_out_of_turn",
    "goto",
    "pending",
    "start_hand",
]
