"""Fixes reported by other teams and by spec audits: Indian ``indianUsed`` at hand end, the first hand's
events from setup, chip conservation through rebuys (accepted, declined, timed out) and leaves in every mode,
an Indian tie carried when no next hand can come, a left player all-in by the forced bet, a folded top
contributor's "uncalled" chips, the away clock in simultaneous phases and a blind increase after the last
hand."""

from __future__ import annotations

import random
from typing import Any

import pytest
from engine_support import actors, check_cards, check_chips, random_choice_action

from pokerroom.engine import (
    PokerOptions,
    apply,
    deadline,
    on_timeout,
    player_range,
    setup,
    setup_with_events,
    state_hash,
    view,
)
from pokerroom.engine.state import State

MODES = ["holdem", "omaha", "sevenPoker", "sevenHiLo", "badugi", "fiveDraw", "indian"]


# ------------------------------------------------------------------------------------- Indian indianUsed


def _bet_around(state: State, now: int, first: str, otherwise: str) -> tuple[State, int]:
    """Until the betting stops, whoever acts sends ``first`` when it is legal, else ``otherwise``."""
    while state.phase == "playing" and state.hand is not None and state.hand.phase == "betting":
        assert state.hand.rnd is not None and state.hand.rnd.to_act is not None
        pid = state.hand.rnd.to_act
        kinds = {a["type"] for a in view(state, pid)["me"]["legalActions"]}
        now += 100
        state, _ = apply(state, pid, {"type": first if first in kinds else otherwise}, now)
    return state, now


def _check_around(state: State, now: int) -> tuple[State, int]:
    """Everybody checks (or calls) until the hand ends."""
    return _bet_around(state, now, "nl.check", "nl.call")


@pytest.mark.parametrize("cards", [1, 2])
@pytest.mark.parametrize("reshuffle", ["whenEmpty", "everyHand"])
def test_indian_used_lists_the_hand_cards_at_hand_end(cards: int, reshuffle: str) -> None:
    ids = ["a", "b", "c"]
    state = setup(ids, {"mode": "indian", "indianCards": cards, "indianReshuffle": reshuffle}, seed=5)
    now = 0
    used_before: list[dict[str, Any]] = []
    for _hand in range(3):
        hand = state.hand
        assert hand is not None
        assert view(state, None)["indianUsed"] == used_before  # nothing of the running hand yet
        state, now = _check_around(state, now)
        hand = state.hand
        assert hand is not None and hand.phase == "handEnd"
        this_hand = []
        for pid in hand.order:
            p = hand.players[pid]
            assert p.forehead is not None
            this_hand += [p.forehead.to_json()] + [c.to_json() for c in p.hole]
        assert len(this_hand) == 3 * cards
        for viewer in [*ids, None]:
            assert view(state, viewer)["indianUsed"] == used_before + this_hand
        check_cards(state)
        check_chips(state)
        events: list[dict[str, Any]] = []
        for pid in ids:
            now += 100
            state, events = apply(state, pid, {"type": "ready"}, now)
        check_cards(state)
        # the next hand keeps the list (whenEmpty, until the kept deck runs short) or starts a new one
        reshuffled = any(e["type"] == "reshuffle" for e in events)
        used_before = used_before + this_hand if reshuffle == "whenEmpty" and not reshuffled else []
        assert view(state, None)["indianUsed"] == used_before


def test_indian_used_after_the_last_hand() -> None:
    state = setup(["a", "b"], {"mode": "indian", "handLimit": 10}, seed=3)
    now = 0
    while state.phase != "finished":
        state, now = _check_around(state, now)
        for pid in ("a", "b"):
            if state.phase == "playing":
                now += 100
                state, _ = apply(state, pid, {"type": "ready"}, now)
        check_cards(state)
    # 10 two-player hands of the 20-card deck: every card was used, none reshuffled yet
    assert len(view(state, None)["indianUsed"]) == 20


# ------------------------------------------------------------------------------------ setup_with_events


@pytest.mark.parametrize("mode", MODES)
def test_setup_with_events_returns_the_first_hand_events(mode: str) -> None:
    ids = ["a", "b", "c"]
    state, events = setup_with_events(ids, {"mode": mode}, seed=9, now_ms=0)
    assert state_hash(state) == state_hash(setup(ids, {"mode": mode}, seed=9, now_ms=0))
    types = [e["type"] for e in events]
    assert types[0] == "handStart"
    assert events[0]["handNo"] == 1 and sorted(events[0]["players"]) == ids
    forced = "blind" if mode in ("holdem", "omaha") else "ante"
    assert types.count(forced) == (2 if forced == "blind" else 3)
    assert "dealt" in types
    if mode != "sevenPoker" and mode != "sevenHiLo":
        assert types[-1] == "roundStart"
    # the same lines as the public log of the new state
    logged = [e["type"] for e in view(state, None)["publicLog"]]
    assert logged == [t for t in types if t in ("handStart", "ante", "blind", "reshuffle")]


# ------------------------------------------------------------------ chips through rebuys, timeouts, leaves


def _aggressive(rng: random.Random, legal: list[dict[str, Any]]) -> dict[str, Any]:
    """Bust players fast: shove or raise big often, otherwise a random legal action."""
    kinds = {a["type"]: a for a in legal}
    r = rng.random()
    if r < 0.35:
        if "nl.allIn" in kinds:
            return {"type": "nl.allIn"}
        for kind in ("k.full", "k.half", "k.ddadang", "k.quarter"):
            if kind in kinds:
                return {"type": kind}
        if "nl.raise" in kinds:
            return {"type": "nl.raise", "to": kinds["nl.raise"]["max"]}
    if r < 0.6:
        for kind in ("k.call", "nl.call", "k.check", "nl.check"):
            if kind in kinds:
                return {"type": kind}
    return random_choice_action(rng, rng.choice(legal))


def _play_rebuy_game(mode: str, seed: int, steps: int = 400) -> tuple[int, int, int]:
    """One game; checks chips and cards after every step. Returns (accepted, declined, rebuy timeouts)."""
    rng = random.Random(seed)
    opts: dict[str, Any] = {
        "mode": mode,
        "startingChips": 500,
        "baseUnit": 20,
        "rebuy": rng.choice(["unlimited", "unlimited", "limited"]),
        "rebuyLimit": rng.choice([1, 2, 3]),
        "endCondition": rng.choice(["hands", "lastStanding"]),
        "handLimit": rng.choice([10, 20]),
        "betting": rng.choice(["auto", "korean", "noLimit", "potLimit"]),
        "blindUpEvery": rng.choice([0, 5]),
    }
    if mode == "indian":
        opts["indianCards"] = rng.choice([1, 2])
        opts["indianFoldPenalty"] = True
        opts["indianTie"] = rng.choice(["carry", "split"])
    low, high = player_range(PokerOptions.model_validate(opts))
    players = 4 if seed % 3 else rng.randint(low, min(high, 6))
    ids = [f"p{i}" for i in range(players)]
    state = setup(ids, opts, seed=seed)
    check_chips(state)
    now = 0
    accepted = declined = timed_out = 0
    for _ in range(steps):
        if state.phase == "finished":
            break
        now += 1000
        r = rng.random()
        if r < 0.01:
            pid = rng.choice(ids)
            seat = state.seat_of(pid)
            assert seat is not None
            if seat.status != "left":
                state, _ = apply(state, pid, {"type": "leave"}, now)
        elif state.phase == "rebuy":
            if rng.random() < 0.3:
                due = deadline(state)
                assert due is not None
                now = max(now, due)
                before = len(state.rebuy_pending)
                state, events = on_timeout(state, now)
                timed_out += sum(1 for e in events if e["type"] == "timeout") if before else 0
            else:
                pid = rng.choice([p for p, _ in actors(state)])
                accept = rng.random() < 0.6
                state, events = apply(state, pid, {"type": "rebuy", "accept": accept}, now)
                accepted += accept
                declined += not accept
                if accept:
                    seat = state.seat_of(pid)
                    assert seat is not None
                    assert state.phase == "finished" or seat.stack > 0 or (
                        state.hand is not None and state.hand.bettors.get(pid) is not None
                        and state.hand.bettors[pid].committed_total > 0
                    ), f"{pid} accepted a rebuy but has no chips"
        else:
            acting = actors(state)
            if not acting or rng.random() < 0.05:
                due = deadline(state)
                assert due is not None
                now = max(now, due)
                state, _ = on_timeout(state, now)
            else:
                pid, legal = rng.choice(acting)
                state, _ = apply(state, pid, _aggressive(rng, legal), now)
        check_chips(state)
        check_cards(state)
        for s in state.seats:
            assert s.stack >= 0
    return accepted, declined, timed_out


@pytest.mark.parametrize("mode", MODES)
def test_rebuys_conserve_chips(mode: str) -> None:
    totals = [0, 0, 0]
    for seed in range(30):
        got = _play_rebuy_game(mode, 1000 * MODES.index(mode) + seed)
        totals = [a + b for a, b in zip(totals, got, strict=True)]
    accepted, declined, timed_out = totals
    assert accepted > 0 and declined > 0 and timed_out > 0, totals


# ------------------------------------------------------------------------- the engine's fast shuffle


def test_deal_shuffle_is_dealrng_shuffle_on_the_states_own_copy() -> None:
    """``deal.shuffle`` gives DealRng.shuffle's order and position, and never advances a shared rng."""
    from types import SimpleNamespace

    from pokerroom.engine import deal
    from pokerroom.rng import DealRng

    for k in range(50):
        r = random.Random(k)
        seed = r.getrandbits(256).to_bytes(32, "big")
        offset = r.randrange(0, 3000)
        n = r.choice([0, 1, 2, 20, 52])
        want, got = list(range(n)), list(range(n))
        reference = DealRng(seed, offset)
        reference.shuffle(want)
        original = DealRng(seed, offset)
        holder: Any = SimpleNamespace(rng=original)
        deal.shuffle(holder, got)
        assert got == want
        assert holder.rng.consumed == reference.consumed
        assert original.consumed == offset  # the shared rng of the input state is untouched


# ----------------------------------------------------------------------------------- spec audit (2026-11-29)


def _play_to_showdown_all_in(state: State, now: int) -> tuple[State, int]:
    """The player to act goes all-in and everybody calls."""
    return _bet_around(state, now, "nl.call", "nl.allIn")


@pytest.mark.parametrize("end", ["hands", "lastStanding"])
def test_indian_tie_that_would_leave_nobody_to_play_is_split_not_carried(end: str) -> None:
    """§6.5: a carried tie on the game's last hand is split. Two players tie all-in with no rebuy: carrying
    would end the game with every chip in carryOver, so this is the last hand and they split."""
    from engine_support import rig

    from pokerroom.cards import parse_card

    s = setup(["a", "b"], {"mode": "indian", "rebuy": "off", "endCondition": end}, seed=1)
    assert s.hand is not None
    first, second = s.hand.order
    rig(s, **{first: [parse_card("7s", "d20")], second: [parse_card("7h", "d20")]})
    s, _ = _play_to_showdown_all_in(s, 0)
    assert s.carry_over == 0
    assert {x.id: x.stack for x in s.seats} == {"a": 1000, "b": 1000}
    check_chips(s)
    assert s.phase == "playing"  # nobody busted: the game goes on


def test_indian_carry_pending_when_the_game_ends_is_split_among_the_tied() -> None:
    """A tie carried because the busted tied players may rebuy; both decline, the game ends: the carried pot
    goes to them (split), it never stays in carryOver."""
    from engine_support import rig

    from pokerroom.cards import parse_card
    from pokerroom.engine.result import result

    s = setup(["a", "b", "c"], {"mode": "indian", "rebuy": "limited", "rebuyLimit": 1}, seed=3)
    assert s.hand is not None
    order = s.hand.order
    rig(s, **{order[0]: [parse_card("7s", "d20")], order[1]: [parse_card("7h", "d20")],
              order[2]: [parse_card("2s", "d20")]})
    now = 0
    while s.hand is not None and s.hand.phase == "betting" and s.phase == "playing":
        assert s.hand.rnd is not None and s.hand.rnd.to_act is not None
        pid = s.hand.rnd.to_act
        kinds = {a["type"] for a in view(s, pid)["me"]["legalActions"]}
        now += 100
        if pid == order[2]:
            act = "nl.fold" if "nl.fold" in kinds and "nl.call" in kinds else "nl.check"
        else:
            act = "nl.call" if "nl.call" in kinds else "nl.allIn"
        s, _ = apply(s, pid, {"type": act}, now)
    tied = {order[0], order[1]}
    assert s.carry_over > 0 and all(x.stack == 0 for x in s.seats if x.id in tied)  # carried: rebuys possible
    carried = s.carry_over
    check_chips(s)
    for pid in list(view(s, None)["pending"]):
        now += 100
        s, _ = apply(s, pid, {"type": "ready"}, now)
    assert s.phase == "rebuy"
    for pid in sorted(tied):
        now += 100
        s, ev = apply(s, pid, {"type": "rebuy", "accept": False}, now)
    assert s.phase == "finished" and s.carry_over == 0
    check_chips(s)
    got = {x.id: x.stack for x in s.seats if x.id in tied}
    assert sum(got.values()) == carried and abs(got[order[0]] - got[order[1]]) <= 1
    assert [e["to"] for e in ev if e["type"] == "award"]  # shown as awards, before gameEnd
    assert [e["type"] for e in ev].index("award") < [e["type"] for e in ev].index("gameEnd")
    r = result(s)
    assert r is not None and sum(x["finalChips"] for x in r["ranking"]) == 3000


def test_a_left_player_all_in_by_the_forced_bet_still_dies() -> None:
    """§5.8 "매 핸드 강제 베팅 후 자동 다이": also when the ante/blind took the last chips."""
    s = setup(["a", "b", "c"], {"mode": "sevenPoker"}, seed=5)
    assert s.hand is not None
    now = 100
    s, _ = apply(s, "b", {"type": "leave"}, now)
    while s.hand is not None and s.hand.phase != "handEnd":
        d = deadline(s)
        assert d is not None
        now = max(now, d)
        s, _ = on_timeout(s, now)
    # after the hand the seats hold the chips: leave b exactly one ante, so the next ante puts b all-in
    seat_b = next(x for x in s.seats if x.id == "b")
    keeper = next(x for x in s.seats if x.id != "b" and x.stack > 0)
    keeper.stack += seat_b.stack - 10
    seat_b.stack = 10
    check_chips(s)
    d = deadline(s)
    assert d is not None
    s, _ = on_timeout(s, max(now, d))
    assert s.hand is not None and s.hand.hand_no == 2 and "b" in s.hand.bettors
    b = s.hand.bettors["b"]
    assert b.all_in and b.folded and b.last_action == "k.die"
    check_chips(s)


def test_a_folded_top_contributor_gets_no_uncalled_chips_back() -> None:
    """§5.5: a folded player's chips stay in the pot. Hold'em: the BB leaves (auto-fold) and the dealer folds;
    the SB takes both blinds (15), the BB is not paid back the 5 nobody called."""
    s = setup(["a", "b", "c"], {"mode": "holdem"}, seed=2)
    assert s.hand is not None and s.hand.bb is not None and s.hand.sb is not None
    sb, bb = s.hand.sb, s.hand.bb
    s, ev = apply(s, bb, {"type": "leave"}, 100)
    assert s.hand is not None and s.hand.rnd is not None
    dealer = s.hand.rnd.to_act
    assert dealer not in (sb, bb)
    s, ev = apply(s, str(dealer), {"type": "nl.fold"}, 200)
    assert not [e for e in ev if e["type"] == "uncalled"]
    assert [(e["to"], e["amount"]) for e in ev if e["type"] == "award"] == [(sb, 15)]
    stacks = {x.id: x.stack for x in s.seats}
    assert stacks[sb] == 1010 and stacks[bb] == 990
    check_chips(s)


def test_an_away_player_does_not_shorten_a_simultaneous_phase() -> None:
    """§8.5 "turnSeconds + 10초(동시 단계, 모두에게 같은 마감)": the 5 s of §5.8 is for betting turns."""
    s = setup(["a", "b", "c"], {"mode": "sevenPoker", "turnSeconds": 20}, seed=1)
    for seat in s.seats:
        seat.away = seat.id == "a"
    assert s.hand is not None and s.hand.phase == "choice"
    assert deadline(s) == s.hand.phase_started_at + 30_000
    assert view(s, "b")["deadlineAt"] == s.hand.phase_started_at + 30_000
    early, ev = on_timeout(s, s.hand.phase_started_at + 5_000)
    assert early is s and ev == []


def test_no_blind_increase_after_the_last_hand() -> None:
    """§5.7: the base unit doubles for the *next* hands; after the game's last hand there is none."""
    s = setup(["a", "b"], {"mode": "holdem", "handLimit": 10, "blindUpEvery": 5}, seed=4)
    now = 0
    events: list[dict[str, Any]] = []
    while s.phase != "finished":
        d = deadline(s)
        assert d is not None
        now = max(now + 1, d)
        s, ev = on_timeout(s, now)
        events += ev
    assert s.hands_played == 10
    ups = [e for e in events if e["type"] == "blindUp"]
    assert [e["baseUnit"] for e in ups] == [20] and s.base_unit == 20 and s.level == 2


def test_a_draw_shortage_reshuffles_folded_hands_before_this_exchanges_discards() -> None:
    """§5.4.5 with §8.1 (muck = "... 다이한 패"): 6-player five-card draw, one dies, five swap all five cards
    (25 needed, 22 left): the last 3 come from the folded hand, not from the cards just thrown away."""
    s = setup([f"p{i}" for i in range(6)], {"mode": "fiveDraw"}, seed=11)
    assert s.hand is not None and s.hand.rnd is not None
    folder = s.hand.rnd.to_act
    now = 0
    while s.hand is not None and s.hand.phase == "betting":
        assert s.hand.rnd is not None and s.hand.rnd.to_act is not None
        pid = s.hand.rnd.to_act
        kinds = {a["type"] for a in view(s, pid)["me"]["legalActions"]}
        act = "k.die" if pid == folder else ("k.check" if "k.check" in kinds else "k.call")
        now += 100
        s, _ = apply(s, pid, {"type": act}, now)
    assert s.hand is not None and s.hand.phase == "draw" and len(s.hand.deck) == 22
    folded_cards = {c.id for c in s.hand.players[str(folder)].hole}
    discards: set[int] = set()
    for pid in list(view(s, None)["pending"]):
        ids = [c.id for c in s.hand.players[pid].hole]
        discards |= set(ids)
        now += 100
        s, ev = apply(s, pid, {"type": "draw", "cardIds": ids}, now)
    assert {"type": "reshuffle", "reason": "draw"} in ev
    assert s.hand is not None and s.hand.players[str(folder)].hole == []
    held = {c.id for pid, p in s.hand.players.items() for c in p.hole}
    assert not held & discards  # nothing just discarded came back
    assert len(held & folded_cards) == 3  # the folded hand filled the shortage
    check_cards(s)
    check_chips(s)


def test_last_standing_game_ends_with_its_own_reason() -> None:
    """lastStanding: when the last opponent busts, the game ends with reason ``lastStanding`` (§6.7)."""
    from engine_support import rig

    from pokerroom.cards import parse_card

    s = setup(["a", "b"], {"mode": "indian", "endCondition": "lastStanding", "rebuy": "off"}, seed=2)
    assert s.hand is not None
    first, second = s.hand.order
    rig(s, **{first: [parse_card("9s", "d20")], second: [parse_card("3h", "d20")]})
    events: list[dict[str, Any]] = []
    now = 0
    while s.phase != "finished":
        pid = view(s, None)["pending"][0]
        kinds = {a["type"] for a in view(s, pid)["me"]["legalActions"]}
        act = next(k for k in ("nl.allIn", "nl.call", "ready") if k in kinds)
        now += 100
        s, ev = apply(s, pid, {"type": act}, now)
        events += ev
    assert s.end_reason == "lastStanding"
    assert [e["reason"] for e in events if e["type"] == "gameEnd"] == ["lastStanding"]


# ------------------------------------------------------------------------ rulings.md 4 and 5: short blinds


def _hand_with_stacks(mode: str, stacks: dict[str, int], seed: int = 3, **opts: Any) -> State:
    """A first hand dealt with the given seat stacks (their sum kept at the starting chips, so the chip audit
    still holds): the seats are set before the forced bets are posted."""
    from pokerroom.engine.flow import start_hand

    ids = sorted(stacks)  # the same seating and dealer whatever order the stacks are given in
    state = setup(ids, {"mode": mode, **opts}, seed=seed)
    assert sum(stacks.values()) == state.options.starting_chips * len(ids)
    for seat in state.seats:
        seat.stack = stacks[seat.id]
    state.hand = None
    start_hand(state, 0, [])
    return state


def _blind_seats(state: State) -> tuple[str, str, str]:
    """(small blind, big blind, first to act preflop) of a hand with three players."""
    hand = state.hand
    assert hand is not None and hand.sb is not None and hand.bb is not None and hand.rnd is not None
    assert hand.rnd.to_act is not None
    return hand.sb, hand.bb, hand.rnd.to_act


def _short_bb_hand(bb_stack: int, mode: str = "holdem", **opts: Any) -> tuple[State, str, str, str]:
    """Three players, the big blind seat holding ``bb_stack`` chips (base unit 10, blinds 5/10)."""
    probe = _hand_with_stacks(mode, {"a": 1000, "b": 1000, "c": 1000}, **opts)
    sb, bb, btn = _blind_seats(probe)
    stacks = {sb: 1000, bb: bb_stack, btn: 2000 - bb_stack}
    state = _hand_with_stacks(mode, stacks, **opts)
    assert _blind_seats(state) == (sb, bb, btn)
    return state, sb, bb, btn


def _legal(state: State, pid: str) -> dict[str, dict[str, Any]]:
    return {a["type"]: a for a in view(state, pid)["me"]["legalActions"]}


@pytest.mark.parametrize("bb_stack", [7, 3])
def test_ruling_4_a_short_big_blind_still_leaves_the_full_big_blind_to_call(bb_stack: int) -> None:
    """rulings.md 4: the big blind all-in for 7 (or for 3, less than the small blind): the button still owes
    10, may raise to at least 20, and the small blind completes to 10 (pokerkit would ask 7 or 5 and a raise
    to 17 or 15: see tests/oracle ``short-blind``)."""
    state, sb, bb, btn = _short_bb_hand(bb_stack)
    assert state.hand is not None and state.hand.bettors[bb].all_in
    assert state.hand.bettors[bb].committed_round == bb_stack
    pub = view(state, None)
    assert pub["currentBet"] == 10
    legal = _legal(state, btn)
    assert legal["nl.call"] == {"type": "nl.call", "amount": 10, "allIn": False}
    assert (legal["nl.raise"]["min"], legal["nl.raise"]["isBet"]) == (20, False)
    assert view(state, btn)["me"]["toCall"] == 10
    before = state_hash(state)
    with pytest.raises(Exception, match="20"):
        apply(state, btn, {"type": "nl.raise", "to": 19}, 100)
    assert state_hash(state) == before
    state, _ = apply(state, btn, {"type": "nl.call"}, 100)
    assert _legal(state, sb)["nl.call"]["amount"] == 5
    state, _ = apply(state, sb, {"type": "nl.call"}, 200)
    hand = state.hand
    assert hand is not None and hand.street == 1  # the round ended at 10 each
    # §5.5: the short blind's stake is capped by the side pots as usual
    pots = view(state, None)["pots"]
    assert pots[0] == {"amount": 3 * bb_stack, "eligible": pots[0]["eligible"]}
    assert sorted(pots[0]["eligible"]) == sorted([sb, bb, btn])
    assert pots[1]["amount"] == 2 * (10 - bb_stack) and sorted(pots[1]["eligible"]) == sorted([sb, btn])
    check_chips(state)


def test_ruling_4_korean_betting_with_blinds_owes_the_full_big_blind_too() -> None:
    """The ruling is about the blinds, not the betting system: hold'em with Korean betting, big blind all-in
    for 4: the button's call is 10."""
    state, _sb, _bb, btn = _short_bb_hand(4, betting="korean")
    assert _legal(state, btn)["k.call"]["amount"] == 10


def test_ruling_4_a_short_small_blind_leaves_the_big_blind_to_call() -> None:
    """rulings.md 4, second half: the small blind all-in for 2; the big blind (10) is still the amount to call
    and the minimum raise is to 20 (pokerkit agrees: these hands stay in the differential run)."""
    probe = _hand_with_stacks("holdem", {"a": 1000, "b": 1000, "c": 1000})
    sb, bb, btn = _blind_seats(probe)
    state = _hand_with_stacks("holdem", {sb: 2, bb: 1000, btn: 1998})
    hand = state.hand
    assert hand is not None and hand.bettors[sb].all_in and hand.bettors[sb].committed_round == 2
    legal = _legal(state, btn)
    assert legal["nl.call"]["amount"] == 10 and legal["nl.raise"]["min"] == 20
    state, _ = apply(state, btn, {"type": "nl.call"}, 100)
    assert set(_legal(state, bb)) >= {"nl.check", "nl.raise"}  # the big blind's option (§5.3)


def test_ruling_4_heads_up_short_big_blind_covered_by_the_small_blind_closes_the_betting() -> None:
    """Heads-up, the big blind all-in for 3 under the dealer's small blind of 5: nobody can contest more than
    3, so there is no decision; the 2 nobody matched come back and the cards are run out (§5.2, §5.5)."""
    probe = _hand_with_stacks("holdem", {"a": 1000, "b": 1000})
    hand = probe.hand
    assert hand is not None and hand.sb is not None and hand.bb is not None
    state = _hand_with_stacks("holdem", {hand.sb: 1997, hand.bb: 3})
    assert state.hand is not None and state.hand.phase == "handEnd"
    check_chips(state)
    pots = view(state, None)["pots"]
    assert [p["amount"] for p in pots] == [6, 2]  # contested: 3 each; the small blind's 2 only it can win
    assert pots[1]["eligible"] == [hand.sb]


def test_ruling_5_short_all_ins_add_up_to_a_full_raise_for_a_player_who_acted() -> None:
    """rulings.md 5: A raises to 100 (a full raise), B goes all-in for 150 and C for 205: each alone is short
    of a full raise (90), but together they raise A's 100 by more than one, so A may re-raise; D, who has
    not acted yet, may raise anyway."""
    probe = _hand_with_stacks("holdem", {"a": 1000, "b": 1000, "c": 1000, "d": 1000})
    hand = probe.hand
    assert hand is not None and hand.rnd is not None
    first = hand.rnd.to_act  # preflop: the seat after the big blind
    assert first is not None
    order = list(hand.order)
    sb, bb = order[0], order[1]
    utg, btn = order[2], order[3]
    assert first == utg
    # stacks: UTG 1000; the button 150 (B), the small blind 205 (C, 5 posted), the big blind 1000 (D)
    state = _hand_with_stacks("holdem", {utg: 2645, btn: 150, sb: 205, bb: 1000})
    state, _ = apply(state, utg, {"type": "nl.raise", "to": 100}, 100)  # A: full raise to 100
    state, _ = apply(state, btn, {"type": "nl.allIn"}, 200)             # B: 150, short by itself
    state, _ = apply(state, sb, {"type": "nl.allIn"}, 300)              # C: 205, short by itself
    assert "nl.raise" in _legal(state, bb)
    state, _ = apply(state, bb, {"type": "nl.call"}, 400)
    legal = _legal(state, utg)
    assert "nl.raise" in legal, legal  # 100 → 205: more than a full raise of 90 since A acted
    assert legal["nl.raise"]["min"] == 205 + 90


def test_ruling_5_the_spec_case_stays_call_or_fold() -> None:
    """§10 as ruling 5 keeps it: A 100, B 300 (full), C all-in 350: C's 50 over B's full raise is short, so A
    and B may only call or fold."""
    probe = _hand_with_stacks("holdem", {"a": 1000, "b": 1000, "c": 1000, "d": 1000})
    hand = probe.hand
    assert hand is not None
    sb, bb, utg, btn = hand.order
    state = _hand_with_stacks("holdem", {utg: 1000, btn: 1000, sb: 355, bb: 1645})
    state, _ = apply(state, utg, {"type": "nl.raise", "to": 100}, 100)  # A
    state, _ = apply(state, btn, {"type": "nl.raise", "to": 300}, 200)  # B: a full raise
    state, _ = apply(state, sb, {"type": "nl.allIn"}, 300)              # C: 355 in all, short
    state, _ = apply(state, bb, {"type": "nl.fold"}, 400)
    assert set(_legal(state, utg)) == {"nl.fold", "nl.call"}
    state, _ = apply(state, utg, {"type": "nl.call"}, 500)
    assert "nl.raise" not in _legal(state, btn)
