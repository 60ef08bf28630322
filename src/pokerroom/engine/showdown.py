"""The end of a hand: pots, showdown values, awards, the Indian reveal and the game statistics
(poker.md §5.1 steps 6–8, §5.5, §6.1–§6.6, §8.6 stats).

Rules:
- One player left: every pot (and any Indian penalty) goes to them, no card is shown (Indian: all are).
- Otherwise the pots are rebuilt from the hand totals and awarded side pots first by
  :mod:`pokerroom.betting` (plain, hi-lo with declarations, or Indian with carry-over and penalties); the
  players who reached the showdown show every card, with the Korean hand name (and the low for hi-lo).
- Chips that nobody wins in Indian poker (a tie under ``carry``) stay in ``carryOver`` for the next hand; on
  the game's last hand, or when carrying would leave nobody to play a next hand, the tied players split them
  (§6.5), and a carry still pending when the game ends is split too (:func:`split_carry_at_game_end`).
- Players left with no chip become ``busted``; what happens to them is :mod:`lifecycle`'s business.
"""

from __future__ import annotations

from typing import Any

from pokerroom import betting as bt
from pokerroom.engine import run_twice
from pokerroom.engine.common import (
    HAND_END_MS,
    SAFETY_HANDS,
    Events,
    build_pots,
    in_hand,
    rebuy_possible,
    rules,
    seat_by_id,
    sync_stacks,
)
from pokerroom.engine.log import emit
from pokerroom.engine.modes import Community, Indian, ModeRules, Valued
from pokerroom.engine.options import omaha_hi_lo
from pokerroom.engine.state import Hand, State
from pokerroom.engine.verdict import annotate
from pokerroom.hands import ranked_name


def end_hand(state: State, now: int, ev: Events, *, one_left: bool, no_opener: bool = False) -> None:
    """§5.1 steps 6–8: award the pots (with or without showdown) and show the result.

    ``no_opener`` (잭스 오어 베터, docs/rules-extensions.md): nobody opened the first round; no card is shown,
    the whole pot carries to the re-deal, or is split among the players still in when no re-deal can follow.
    """
    hand = state.hand
    assert hand is not None
    assert hand.phase == "handEnd", "flow.goto moves the hand to handEnd first"
    hand.rnd = None
    for b in hand.bettors.values():
        b.committed_round = 0
    mode = rules(state)
    is_indian = isinstance(mode, Indian)
    penalties = sum(int(p["amount"]) for p in hand.penalties)
    awards: list[dict[str, Any]] = []
    carried = 0
    hand.pots = build_pots(hand)
    if no_opener:
        hand.no_opener = True
        hand.showdown = []
        awards, carried = _no_opener(state, hand, ev)
    elif one_left:
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


def _values(v: Valued, state: State) -> dict[str, Any]:
    """The named parts of one evaluated hand in a showdown entry: the best five and their names, and the low
    of a hi-lo game."""
    out: dict[str, Any] = {"best": [c.to_json() for c in v.high.cards], "handName": str(v.high.name),
                           "rankName": ranked_name(v.high)}
    if state.options.mode == "sevenHiLo" or omaha_hi_lo(state.options):
        out["lowName"] = None if v.low is None else str(v.low.name)
        out["lowBest"] = None if v.low is None else [c.to_json() for c in v.low.cards]
    return out


def _showdown(state: State, hand: Hand, mode: ModeRules, penalties: int,
              ev: Events) -> tuple[list[dict[str, Any]], int]:
    if hand.rit_agreed and hand.board2:
        return _two_boards(state, hand, mode, ev)
    contenders = in_hand(hand)
    values: dict[str, Valued] = {pid: mode.evaluate(hand, pid) for pid in contenders}
    entries = []
    shown = contenders
    if isinstance(mode, Indian):  # everyone dealt in is revealed, folded players included
        shown = [pid for pid in hand.order if hand.players[pid].forehead is not None]
    for pid in shown:
        p = hand.players[pid]
        v = values.get(pid) or mode.evaluate(hand, pid)
        entry: dict[str, Any] = {"id": pid, "cards": [c.to_json() for c in mode.all_cards(hand, pid)],
                                 **_values(v, state)}
        if state.options.mode == "sevenHiLo":  # (the keys in the order clients have always received)
            entry = {**{k: entry[k] for k in ("id", "cards", "best", "handName", "rankName", "lowName")},
                     "declare": p.declare, "lowBest": entry["lowBest"]}
        p.shown = True
        entries.append(entry)
    hand.showdown = entries
    emit(state, ev, {"type": "showdown", "entries": entries})
    high = {pid: v.high for pid, v in values.items()}
    carried = 0
    if isinstance(mode, Indian):
        tie = state.options.indian_tie
        last = _is_last_hand(state)
        raw, carried = bt.award_indian(hand.pots, high, hand.order, tie, penalties, last)
        if carried and not _next_hand_possible(state, hand, raw):
            # §6.5 "게임의 마지막 핸드에서 이월되면 동점자끼리 분할": a carry that leaves nobody to play a
            # next hand would make this the last hand, so the tied players split now and the game goes on
            raw, carried = bt.award_indian(hand.pots, high, hand.order, tie, penalties, True)
    elif state.options.mode == "sevenHiLo":
        low = {pid: v.low for pid, v in values.items()}
        declares: dict[str, Any] = {pid: hand.players[pid].declare or "high" for pid in contenders}
        raw = bt.award_hilo(hand.pots, declares, high, low, hand.order)
    elif omaha_hi_lo(state.options):  # the cards speak: both halves of every pot, no declaration
        low = {pid: v.low for pid, v in values.items()}
        raw = bt.award_hilo_cards_speak(hand.pots, high, low, hand.order)
    else:
        raw = bt.award_pots(hand.pots, high, hand.order)
    _remember_best(state, hand, mode, values)
    awards = [{"potIndex": a.pot_index, "to": a.to, "amount": a.amount, "side": a.side} for a in raw]
    sides = {pid: hand.players[pid].declare for pid in contenders}
    annotate(awards, hand.pots, values, sides if state.options.mode == "sevenHiLo" else None)
    return awards, carried


def _two_boards(state: State, hand: Hand, mode: ModeRules, ev: Events) -> tuple[list[dict[str, Any]], int]:
    """Run it twice (docs/rules-extensions.md, :mod:`run_twice`): every pot halved, the first half on the
    first board and the second on the second, each awarded like a whole pot (awards carry ``board`` 0 or 1);
    each showdown entry names the hand on the second board under ``second``."""
    assert isinstance(mode, Community)
    contenders = in_hand(hand)
    boards = [list(hand.board), run_twice.second_board(hand)]
    values = [{pid: mode.evaluate_on(hand, pid, board) for pid in contenders} for board in boards]
    entries = []
    for pid in contenders:
        hand.players[pid].shown = True
        entries.append({"id": pid, "cards": [c.to_json() for c in mode.all_cards(hand, pid)],
                        **_values(values[0][pid], state), "second": _values(values[1][pid], state)})
    hand.showdown = entries
    emit(state, ev, {"type": "showdown", "entries": entries})
    awards: list[dict[str, Any]] = []
    for board, (pots, vals) in enumerate(zip(bt.halve_pots(hand.pots), values, strict=True)):
        high = {pid: v.high for pid, v in vals.items()}
        if omaha_hi_lo(state.options):
            raw = bt.award_hilo_cards_speak(pots, high, {pid: v.low for pid, v in vals.items()}, hand.order)
        else:
            raw = bt.award_pots(pots, high, hand.order)
        part = [{"potIndex": a.pot_index, "to": a.to, "amount": a.amount, "side": a.side, "board": board}
                for a in raw]
        annotate(part, pots, vals, None)
        awards += part
        _remember_best(state, hand, mode, vals)
    return awards, 0


def _no_opener(state: State, hand: Hand, ev: Events) -> tuple[list[dict[str, Any]], int]:
    """잭스 오어 베터 with nobody opening: carry the pot to the re-deal, or split it among the players still
    in when this is the game's last hand or nobody could play a next one (no chip may stay unowned)."""
    total = sum(p.amount for p in hand.pots)
    if not _is_last_hand(state) and _next_hand_possible(state, hand, []):
        emit(state, ev, {"type": "noOpener", "carry": total})
        return [], total
    emit(state, ev, {"type": "noOpener", "carry": 0})
    raw = bt.award_pots(hand.pots, {pid: 0 for pid in in_hand(hand)}, hand.order)
    return [{"potIndex": a.pot_index, "to": a.to, "amount": a.amount, "side": a.side} for a in raw], 0


def _next_hand_possible(state: State, hand: Hand, awards: list[bt.Award]) -> bool:
    """Whether two players could still play a hand after these awards: with chips, or busted but allowed to
    rebuy (players who left never count: they only fold)."""
    gained: dict[str, int] = {}
    for a in awards:
        gained[a.to] = gained.get(a.to, 0) + a.amount
    able = 0
    for s in state.seats:
        if s.status in ("left", "eliminated"):
            continue
        stack = (hand.bettors[s.id].stack if s.id in hand.bettors else s.stack) + gained.get(s.id, 0)
        if stack > 0 or rebuy_possible(state, s):
            able += 1
    return able >= 2


def split_carry_at_game_end(state: State, ev: Events) -> None:
    """§6.5: chips carried from what turned out to be the game's last hand (a busted tie declined its rebuy,
    or a player left) are split among that hand's tied players, so no chip stays in ``carryOver``.

    ``carryOver`` only ever holds the last hand's carry (a new hand takes it as dead money), so the pots and
    penalties of ``state.hand`` that nobody was paid are exactly what was carried.
    """
    hand = state.hand
    if state.carry_over <= 0 or hand is None or hand.phase != "handEnd" or hand.awards is None:
        return
    if hand.no_opener:  # 잭스 오어 베터: the players still in the unopened hand share the carried pot
        shares = bt.split_amount(state.carry_over, in_hand(hand), hand.order)
        split: list[dict[str, Any]] = []
        for pid, amount in shares.items():
            seat_by_id(state, pid).stack += amount
            entry: dict[str, Any] = {"potIndex": 0, "to": pid, "amount": amount, "side": None}
            emit(state, ev, {"type": "award", **entry})
            split.append(entry)
        state.carry_over = 0
        hand.awards = [*hand.awards, *split]
        hand.winners = list(dict.fromkeys(str(a["to"]) for a in hand.awards))
        return
    mode = rules(state)
    high = {pid: mode.evaluate(hand, pid).high for pid in in_hand(hand)}
    penalties = sum(int(p["amount"]) for p in hand.penalties)
    raw, _ = bt.award_indian(hand.pots, high, hand.order, state.options.indian_tie, penalties, True)
    paid = {int(a["potIndex"]) for a in hand.awards}
    extra = [a for a in raw if a.pot_index not in paid]
    if sum(a.amount for a in extra) != state.carry_over:
        return  # not this hand's carry (cannot happen; never guess who owns chips)
    for a in extra:
        seat_by_id(state, a.to).stack += a.amount
        emit(state, ev, {"type": "award", "potIndex": a.pot_index, "to": a.to, "amount": a.amount,
                         "side": a.side})
    state.carry_over = 0
    hand.awards = [*hand.awards, *({"potIndex": a.pot_index, "to": a.to, "amount": a.amount, "side": a.side}
                                   for a in extra)]
    hand.winners = list(dict.fromkeys(str(a["to"]) for a in hand.awards))


def _is_last_hand(state: State) -> bool:
    opts = state.options
    nxt = state.hands_played + 1
    if opts.end_condition == "hands":
        return nxt >= opts.hand_limit
    return nxt >= SAFETY_HANDS


def _indian_reveal(state: State, hand: Hand, ev: Events) -> None:
    """Show every card of the hand and add them to the used-card list at once (view ``indianUsed``: cards
    used and revealed since the last reshuffle, so the hand's own cards are listed from ``handEnd`` on)."""
    cards: dict[str, Any] = {}
    for pid in hand.order:
        p = hand.players[pid]
        p.shown = True
        if p.forehead is not None:
            state.indian_used.append(p.forehead)
        state.indian_used.extend(p.hole)
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
