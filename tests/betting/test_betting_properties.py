"""Property tests: random legal play in all three systems conserves chips, ends, and builds sound pots.

Each example plays one whole hand (forced bets, up to four rounds) for 2..10 players with random stacks,
choosing every action among ``legal_actions``. Along the way it checks that every listed action is
accepted, that nothing unlisted is accepted, that junk is refused with ``Rejected`` only, and at the end
that the pots and awards hand out exactly the chips that went in.
"""

from __future__ import annotations

import contextlib
import copy
from typing import Any

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from pokerroom.betting import (
    BettingRound,
    Bettor,
    Pot,
    apply_action,
    award_hilo,
    award_indian,
    award_pots,
    build_pots,
    legal_actions,
    pot_total,
    return_uncalled,
    round_over,
    start_round,
    validate_action,
)
from pokerroom.rejections import Rejected

ALL_TYPES = ["k.check", "k.ping", "k.call", "k.ddadang", "k.quarter", "k.half", "k.full", "k.die",
             "nl.fold", "nl.check", "nl.call", "nl.raise", "nl.allIn"]

junk_values = st.one_of(
    st.none(), st.booleans(), st.integers(min_value=-(10**20), max_value=10**20),
    st.floats(allow_nan=True), st.text(max_size=5), st.lists(st.integers(), max_size=2),
)
junk_actions = st.one_of(
    junk_values,
    st.dictionaries(st.text(max_size=4), junk_values, max_size=3),
    st.fixed_dictionaries({"type": st.one_of(st.sampled_from(ALL_TYPES), junk_values)},
                          optional={"to": junk_values}),
)


def forced_bets(bettors: dict[str, Bettor], system: str, base: int, blinds: bool) -> int:
    """Antes (Korean, or any system without blinds) or SB/BB; returns the current bet to start with."""
    ids = list(bettors)
    if blinds:
        for pid, chips in ((ids[0], max(1, base // 2)), (ids[1], base)):
            b = bettors[pid]
            paid = min(chips, b.stack)
            b.stack -= paid
            b.committed_round += paid
            b.committed_total += paid
            b.all_in = b.stack == 0
        return base
    for b in bettors.values():
        paid = min(base, b.stack)
        b.stack -= paid
        b.committed_total += paid
        b.all_in = b.stack == 0
    return 0


def pick(data: st.DataObject, entry: dict[str, Any]) -> dict[str, Any]:
    """Turn a legal entry into a wire action (choosing a ``to`` for raises)."""
    if entry["type"] != "nl.raise":
        return {"type": entry["type"]}
    lo, hi = entry["min"], entry["max"]
    to = data.draw(st.one_of(st.just(lo), st.just(hi), st.integers(lo, hi)), label="to")
    return {"type": "nl.raise", "to": to}


WEIGHT = {"k.call": 4, "nl.call": 4, "k.check": 3, "nl.check": 3, "nl.raise": 3, "k.die": 1, "nl.fold": 1,
          "nl.allIn": 1}


def weighted(legal: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Favour calls, checks and raises so rounds run long and reopen, rather than folding at once."""
    return [e for e in legal for _ in range(WEIGHT.get(e["type"], 2))]


def check_listing(rnd: BettingRound, bettors: dict[str, Bettor], pid: str,
                  legal: list[dict[str, Any]]) -> None:
    """Every listed action validates; every unlisted type is refused (with ``Rejected``)."""
    listed = {e["type"]: e for e in legal}
    for entry in legal:
        if entry["type"] == "nl.raise":
            assert entry["min"] <= entry["max"]
            for to in (entry["min"], entry["max"]):
                validate_action(rnd, bettors, pid, {"type": "nl.raise", "to": to})
            if entry["min"] > rnd.current_bet + 1:
                below = entry["min"] - 1
                if below != bettors[pid].committed_round + bettors[pid].stack:
                    _must_refuse(rnd, bettors, pid, {"type": "nl.raise", "to": below})
            _must_refuse(rnd, bettors, pid, {"type": "nl.raise", "to": entry["max"] + 1})
        else:
            validate_action(rnd, bettors, pid, {"type": entry["type"]})
    for kind in ALL_TYPES:
        if kind not in listed:
            _must_refuse(rnd, bettors, pid, {"type": kind, "to": rnd.current_bet + rnd.base_unit})


def _must_refuse(rnd: BettingRound, bettors: dict[str, Bettor], pid: str, action: object) -> None:
    try:
        validate_action(rnd, bettors, pid, action)
    except Rejected:
        return
    raise AssertionError(f"{action} was accepted but not listed")


def poke_with_junk(data: st.DataObject, rnd: BettingRound, bettors: dict[str, Bettor]) -> None:
    """Random junk from random players is refused with Rejected or (rarely) legal — never a crash."""
    action = data.draw(junk_actions, label="junk")
    pid = data.draw(st.sampled_from([*bettors, "nobody"]), label="junk_player")
    snapshot = copy.deepcopy((rnd, bettors))
    try:
        validate_action(rnd, bettors, pid, action)
    except Rejected as err:
        assert err.code and err.message
        refused = True
    else:
        refused = False
    assert (rnd, bettors) == snapshot, "validate_action never mutates"
    if not refused:
        assert pid == rnd.to_act  # only the player on turn can ever be accepted
        return
    with contextlib.suppress(Rejected):
        apply_action(rnd, bettors, pid, action)
        raise AssertionError("apply_action accepted what validate_action refused")
    assert (rnd, bettors) == snapshot, "a refused action changes nothing"


def check_round_invariants(rnd: BettingRound, bettors: dict[str, Bettor], total: int) -> None:
    assert sum(b.stack for b in bettors.values()) + pot_total(rnd, bettors) == total
    assert all(b.stack >= 0 and b.committed_round >= 0 for b in bettors.values())
    assert rnd.current_bet >= max(b.committed_round for b in bettors.values())
    assert (rnd.to_act is None) == round_over(rnd, bettors)
    for b in bettors.values():
        if b.id != rnd.to_act:
            assert legal_actions(rnd, bettors, b.id) == []


def play_round(data: st.DataObject, rnd: BettingRound, bettors: dict[str, Bettor], total: int) -> int:
    """Play legal actions until the round ends; returns the number of actions taken."""
    n = len(bettors)
    bound = n * (n + 1) if rnd.system == "korean" else n * (total + 2)
    actions = 0
    raises: dict[str, int] = {}
    while rnd.to_act is not None:
        pid = rnd.to_act
        legal = legal_actions(rnd, bettors, pid)
        assert legal, "the player on turn always has something to do"
        check_listing(rnd, bettors, pid, legal)
        poke_with_junk(data, rnd, bettors)
        before = rnd.current_bet
        action = pick(data, data.draw(st.sampled_from(weighted(legal)), label="action"))
        stack_before = bettors[pid].stack
        result = apply_action(rnd, bettors, pid, action)
        assert result.moved == stack_before - bettors[pid].stack >= 0
        if rnd.current_bet > before:
            raises[pid] = raises.get(pid, 0) + 1
        actions += 1
        assert actions <= bound, "betting round did not end"
        check_round_invariants(rnd, bettors, total)
        assert result.round_over == round_over(rnd, bettors)
    if rnd.system == "korean":
        assert all(v <= 1 for v in raises.values()), "one raise per player per round"
    event(f"{rnd.system}: {'0' if not actions else '1-5' if actions <= 5 else '6+'} actions")
    if any(v > 1 for v in raises.values()):
        event("someone raised twice in a round (reopened)")
    return actions


def band_tops(pots: list[Pot], totals: list[int], dead: int) -> list[int]:
    """Recover each pot's level from the amounts alone: the smallest T whose Σ min(c, T) + dead covers
    every pot up to this one. An independent check of which band a pot really is."""
    tops, cum = [], 0
    for pot in pots:
        cum += pot.amount
        lo, hi = 0, max(totals, default=0)
        while lo < hi:
            mid = (lo + hi) // 2
            if sum(min(c, mid) for c in totals) + dead >= cum:
                hi = mid
            else:
                lo = mid + 1
        tops.append(lo)
    return tops


def check_pots(pots: list[Pot], bettors: dict[str, Bettor], dead: int) -> None:
    assert sum(p.amount for p in pots) == sum(b.committed_total for b in bettors.values()) + dead
    assert all(p.amount > 0 for p in pots)
    # A folded player's chips above every live player's total (a folded top is not paid back, §5.5: "다이한
    # 사람의 칩은 ... 팟에 남는다") are dead money in the last pot: the levels are those of the rest.
    live_max = max((b.committed_total for b in bettors.values() if not b.folded), default=0)
    excess = sum(max(0, b.committed_total - live_max) for b in bettors.values() if b.folded)
    bands = [Pot(p.amount - (excess if i == len(pots) - 1 else 0), p.eligible) for i, p in enumerate(pots)]
    capped = [min(b.committed_total, live_max) if b.folded else b.committed_total for b in bettors.values()]
    tops = band_tops(bands, capped, dead)
    for pot, top in zip(pots, tops, strict=True):
        assert pot.eligible, "every pot can be won"
        for pid in pot.eligible:
            b = bettors[pid]
            assert not b.folded and b.committed_total >= top, "eligible only if paid up to the level"
        for b in bettors.values():
            if b.all_in and not b.folded and b.committed_total >= top:
                assert b.id in pot.eligible, "an all-in player contests every pot up to their level"


def check_awards(awards: list[Any], pots: list[Pot], paid_out: int) -> None:
    assert sum(a.amount for a in awards) == paid_out
    for a in awards:
        assert a.amount > 0
        if a.pot_index >= 0:
            assert a.to in pots[a.pot_index].eligible


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    data=st.data(),
    n=st.integers(2, 10),
    system=st.sampled_from(["korean", "noLimit", "potLimit"]),
    base=st.sampled_from([1, 2, 10, 20, 50]),
    max_raise=st.sampled_from(["half", "full"]),
    blinds=st.booleans(),
    dead=st.sampled_from([0, 0, 7, 160]),
)
def test_random_legal_hands(data: st.DataObject, n: int, system: str, base: int, max_raise: str,
                            blinds: bool, dead: int) -> None:
    stacks = data.draw(st.lists(st.one_of(st.integers(1, 3 * base), st.integers(20 * base, 100 * base)),
                                min_size=n, max_size=n), label="stacks")
    ids = [f"p{i}" for i in range(n)]
    bettors = {pid: Bettor(pid, s) for pid, s in zip(ids, stacks, strict=True)}
    total = sum(stacks) + dead
    current_bet = forced_bets(bettors, system, base, blinds)
    order = ids[2:] + ids[:2] if blinds else ids
    for street in range(4):
        if street:
            for b in bettors.values():
                b.committed_round = 0
            current_bet = 0
        rnd = start_round(system, base, max_raise, order, bettors,  # type: ignore[arg-type]
                          current_bet=current_bet, opened=current_bet > 0, dead=dead)
        check_round_invariants(rnd, bettors, total)
        play_round(data, rnd, bettors, total)
        returned = return_uncalled(bettors)
        if returned:
            assert returned[1] > 0
        check_pots(build_pots([(b.id, b.committed_total, b.folded, b.all_in) for b in bettors.values()],
                              ids, dead), bettors, dead)
        if sum(not b.folded for b in bettors.values()) <= 1:
            break
        able = [b for b in bettors.values() if not b.folded and not b.all_in and b.stack > 0]
        if len(able) <= 1:
            break
    event(f"all-in players at the end: {min(3, sum(b.all_in for b in bettors.values()))}")
    settle(data, bettors, ids, dead, total)


def settle(data: st.DataObject, bettors: dict[str, Bettor], ids: list[str], dead: int, total: int) -> None:
    """Award the pots three ways and check every chip lands with an eligible player."""
    pots = build_pots([(b.id, b.committed_total, b.folded, b.all_in) for b in bettors.values()], ids, dead)
    check_pots(pots, bettors, dead)
    in_pots = sum(p.amount for p in pots)
    assert sum(b.stack for b in bettors.values()) + in_pots == total
    strength = {pid: data.draw(st.integers(0, 3), label="strength") for pid in ids}
    check_awards(award_pots(pots, strength, ids), pots, in_pots)
    declares = {pid: data.draw(st.sampled_from(["high", "low", "swing"]), label="declare") for pid in ids}
    low = {pid: data.draw(st.one_of(st.none(), st.integers(0, 3)), label="low") for pid in ids}
    check_awards(award_hilo(pots, declares, strength, low, ids), pots, in_pots)
    penalties = data.draw(st.sampled_from([0, 20]), label="penalties")
    tie = data.draw(st.sampled_from(["carry", "split"]), label="tie")
    last = data.draw(st.booleans(), label="last_hand")
    awards, carried = award_indian(pots, strength, ids, tie, penalties, last)  # type: ignore[arg-type]
    check_awards(awards, pots, in_pots + penalties - carried)
    if tie == "split" or last:
        assert carried == 0


@settings(max_examples=300, deadline=None)
@given(
    contrib=st.lists(
        st.tuples(st.integers(0, 500), st.booleans(), st.booleans()), min_size=2, max_size=10
    ),
    dead=st.integers(0, 50),
)
def test_build_pots_conserves_and_respects_levels(contrib: list[tuple[int, bool, bool]], dead: int) -> None:
    """Arbitrary contributions (even mid-round ones): chips conserved, eligibility sound."""
    rows = [(f"p{i}", t, f, a) for i, (t, f, a) in enumerate(contrib)]
    if all(f for _, _, f, _ in rows):
        rows[0] = (rows[0][0], rows[0][1], False, rows[0][3])
    pots = build_pots(rows, [r[0] for r in rows], dead)
    total = sum(t for _, t, _, _ in rows) + dead
    assert sum(p.amount for p in pots) == total
    by_id = {pid: (t, f, a) for pid, t, f, a in rows}
    for pot in pots:
        assert pot.amount > 0
        for pid in pot.eligible:
            assert not by_id[pid][1]
    if total:
        assert pots and all(p.eligible for p in pots)
