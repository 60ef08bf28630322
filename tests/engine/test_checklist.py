"""poker.md §10, one test per checklist item, all driven through the engine's setup/apply/view/on_timeout.

Cards are arranged with ``engine_support.rig`` (swapping cards inside the dealt hand, so the 52 cards stay
unique); everything else goes through the public API.
"""

from __future__ import annotations

import json

import pytest
from engine_support import G, cards, check_no_leak, play_random, replay, rig

from pokerroom.engine import State, deadline, on_timeout, result, state_hash

# ------------------------------------------------------------------------------------------------- Korean


def test_korean_5_2_example_pot_280_and_round_ends() -> None:
    g = G(4, mode="badugi")
    a, _b, _c, _d = g.order
    assert g.view(None)["potTotal"] == 40
    g.bet("k.ping")
    assert g.moved() == 10 and g.view(None)["potTotal"] == 50
    g.bet("k.half")
    assert g.moved() == 40 and g.view(None)["potTotal"] == 90
    g.bet("k.ddadang")
    assert g.moved() == 80 and g.view(None)["potTotal"] == 170
    g.bet("k.die")
    assert g.to_act == a and set(g.legal(a)) == {"k.call", "k.die"}
    g.bet("k.call")
    assert g.moved() == 70
    g.bet("k.call")
    assert g.moved() == 40
    v = g.view(None)
    assert v["potTotal"] == 280 and v["phase"] == "draw"
    assert sum(p["amount"] for p in v["pots"]) == 280
    assert any(e["type"] == "roundEnd" for e in g.ev)


def test_korean_no_raise_after_call_or_check() -> None:
    g = G(4, mode="badugi")
    a, b, _c, _d = g.order
    g.bet("k.check")  # a checks
    g.bet("k.ping")  # b
    g.bet("k.call")  # c
    g.bet("k.call")  # d
    assert g.to_act == a
    err = g.refused(a, "k.half")  # a checked: call or die only
    assert err.code == "cannot_raise" and "더 올릴 수 없어요" in err.message
    g.bet("k.call")
    g.pass_draw()
    a, b, _c, _d = g.order
    g.bet("k.ping")  # a
    g.bet("k.call")  # b calls
    g.bet("k.half")  # c raises
    g.bet("k.call")  # d
    g.bet("k.call")  # a (pinged before: call only)
    assert g.to_act == b
    err = g.refused(b, "k.half")  # b called before: no raise
    assert err.code == "cannot_raise" and "더 올릴 수 없어요" in err.message


def test_korean_boss_check_then_ping_then_boss_only_call_or_die() -> None:
    g = G(3, mode="badugi")
    a, b, _c = g.order
    g.bet("k.check")
    assert {"k.check", "k.ping", "k.quarter", "k.half", "k.die"} <= set(g.legal(b))
    g.bet("k.ping")
    g.bet("k.call")
    assert g.to_act == a
    assert set(g.legal(a)) == {"k.call", "k.die"}


def test_korean_all_check_goes_to_next_card() -> None:
    g = G(3, mode="sevenPoker")
    for pid in g.ids:
        ch = g.view(pid)["me"]["choice"]
        g.do(pid, "choose", discardId=ch[0]["id"], openId=ch[1]["id"])
    assert g.view(None)["phase"] == "betting"
    ups = {pid: len(g.hand.players[pid].up) for pid in g.ids}
    g.check_around()
    assert g.view(None)["phase"] == "betting" and g.view(None)["street"] == 1
    assert all(len(g.hand.players[pid].up) == ups[pid] + 1 for pid in g.ids)
    assert g.view(None)["potTotal"] == 30  # antes only


def test_korean_half_game_refuses_full() -> None:
    g = G(3, mode="badugi", koreanMaxRaise="half")
    a = g.to_act
    assert a is not None and "k.full" not in g.legal(a)
    err = g.refused(a, "k.full")
    assert err.code == "full_not_allowed"
    g2 = G(3, mode="badugi", koreanMaxRaise="full")
    assert "k.full" in g2.legal(g2.to_act)  # type: ignore[arg-type]


# ------------------------------------------------------------------------------------------------- NL / PL


def test_nl_min_raise_after_30_is_50() -> None:
    g = G(3, mode="holdem", baseUnit=10)
    g.bet("nl.raise", to=30)
    b = g.to_act
    assert b is not None
    raise_entry = next(x for x in g.view(b)["me"]["legalActions"] if x["type"] == "nl.raise")
    assert raise_entry["min"] == 50
    err = g.refused(b, "nl.raise", to=45)
    assert err.code == "raise_too_small" and err.message == "최소 레이즈는 50이에요"
    g.do(b, "nl.raise", to=50)
    assert g.hand.rnd.current_bet == 50


def test_nl_incomplete_all_in_does_not_reopen() -> None:
    g = G(3, mode="badugi", betting="noLimit")
    a, b, c = g.order
    g.hand.bettors[c].stack = 350  # C can put in exactly 350 this round
    g.bet("nl.raise", to=100)
    g.bet("nl.raise", to=300)
    g.bet("nl.allIn")
    assert g.hand.bettors[c].committed_round == 350
    assert g.to_act == a and set(g.legal(a)) <= {"nl.fold", "nl.call"}
    assert g.refused(a, "nl.raise", to=1000).code in ("cannot_raise", "raise_too_small")
    g.bet("nl.call")
    assert g.to_act == b and set(g.legal(b)) <= {"nl.fold", "nl.call"}


def test_pl_max_raise_is_160() -> None:
    g = G(5, mode="badugi", betting="potLimit", baseUnit=20)  # antes 5 x 20 = 100
    assert g.view(None)["potTotal"] == 100
    g.bet("nl.raise", to=20)
    b = g.to_act
    assert b is not None
    entry = next(x for x in g.view(b)["me"]["legalActions"] if x["type"] == "nl.raise")
    assert entry["max"] == 160
    assert g.refused(b, "nl.raise", to=161).code == "pot_limit_exceeded"
    g.do(b, "nl.raise", to=160)


def test_heads_up_holdem_dealer_is_sb_and_acts_first_preflop_bb_first_after() -> None:
    g = G(2, mode="holdem")
    h = g.hand
    dealer = next(s.id for s in g.s.seats if s.seat == h.dealer_seat)
    assert h.sb == dealer and h.bb != dealer
    assert g.to_act == dealer
    v = g.view(None)
    assert next(s for s in v["seats"] if s["id"] == dealer)["sb"]
    g.bet("nl.call")
    g.bet("nl.check")
    assert g.view(None)["street"] == 1 and g.to_act == h.bb


# ------------------------------------------------------------------------------------------------- pots


def test_side_pots_100_300_500_and_return() -> None:
    g = G(3, mode="badugi", betting="noLimit", baseUnit=10)
    c, a, b = g.order  # C acts first: its 500 is only matched up to 300
    g.hand.bettors[a].stack = 90  # totals incl. the ante: A 100, B 300, C 500
    g.hand.bettors[b].stack = 290
    g.hand.bettors[c].stack = 490
    rig(g.s, **{a: cards("As 2d 3h 4c"), b: cards("2s 3d 4h 5c"), c: cards("Ks Kd Kh Kc")})
    g.bet("nl.allIn")  # C 500
    g.bet("nl.call")  # A all-in for less
    g.bet("nl.call")  # B all-in for less
    returned = [e for e in g.ev if e["type"] == "uncalled"]
    assert returned == [{"type": "uncalled", "to": c, "amount": 200}]
    pots = g.view(None)["pots"]
    assert [p["amount"] for p in pots] == [300, 400]
    assert sorted(pots[0]["eligible"]) == sorted([a, b, c]) and sorted(pots[1]["eligible"]) == sorted([b, c])
    for _ in range(3):
        g.pass_draw()
    awards = g.view(None)["awards"]
    assert {(x["potIndex"], x["to"], x["amount"]) for x in awards} == {(0, a, 300), (1, b, 400)}
    assert g.hand.bettors[c].stack == 200


def test_holdem_board_split_odd_chip_to_first_after_dealer() -> None:
    g = G(3, mode="holdem", baseUnit=10)
    h = g.hand
    sb, bb = h.sb, h.bb
    btn = next(p for p in h.order if p not in (sb, bb))
    rig(g.s, deck=cards("2s 9s 9d 8c 3s 8h 4s As"),
        **{bb: cards("2c 3d"), btn: cards("2h 3c"), sb: cards("Kc Kd")})
    g.bet("nl.call")  # btn
    g.bet("nl.fold")  # sb: 5 dead chips
    g.bet("nl.check")  # bb
    g.check_around()
    g.check_around()
    g.check_around()
    v = g.view(None)
    assert v["phase"] == "handEnd"
    got = {a["to"]: a["amount"] for a in v["awards"]}
    assert got == {bb: 13, btn: 12}


def test_omaha_one_hole_spade_is_not_a_flush() -> None:
    g = G(2, mode="omaha")
    p, q = g.hand.order
    rig(g.s, deck=cards("3c 2s 5s 7s 4d 9s 5d Jc"),
        **{p: cards("As Ah Kd Qd"), q: cards("Ks Qs 8h 8d")})
    for _ in range(4):
        g.check_around()
    sd = {e["id"]: e["handName"] for e in g.view(None)["showdown"]}
    assert sd[p] != "플러시" and sd[q] == "플러시"
    assert {a["to"] for a in g.view(None)["awards"]} == {q}


# ------------------------------------------------------------------------------------------------- timeouts


def test_timeout_korean_dies_facing_a_bet_checks_when_unopened() -> None:
    g = G(3, mode="badugi", turnSeconds=15)
    a, _b, c = g.order
    assert deadline(g.s) == 15_000
    s2, ev = on_timeout(g.s, 14_999)
    assert s2 is g.s and ev == []
    g.s, ev = on_timeout(g.s, 15_000)
    assert g.hand.bettors[a].last_action == "k.check"
    g.now = 15_000
    g.bet("k.ping")
    g.s, ev = on_timeout(g.s, deadline(g.s))  # type: ignore[arg-type]
    assert g.hand.bettors[c].folded and g.hand.bettors[c].last_action == "k.die"


def test_two_timeouts_in_a_row_mark_away_five_second_turns_cleared_by_acting() -> None:
    g = G(2, mode="badugi", turnSeconds=20)
    for _ in range(8):
        if g.s.phase != "playing" or g.hand.phase == "handEnd":
            break
        g.s, _ev = on_timeout(g.s, deadline(g.s))  # type: ignore[arg-type]
        if any(s.away for s in g.s.seats):
            break
    away = [s for s in g.s.seats if s.away]
    assert away
    pid = away[0].id
    assert g.view(None)["seats"][[s["id"] for s in g.view(None)["seats"]].index(pid)]["away"]
    while g.to_act != pid:
        if g.view(None)["phase"] == "draw":
            g.pass_draw()
        elif g.view(None)["phase"] == "handEnd":
            g.ready_all()
        else:
            g.bet("k.check" if "k.check" in g.legal(g.to_act) else "k.call")  # type: ignore[arg-type]
    assert deadline(g.s) == g.now + 5_000
    g.bet("k.check" if "k.check" in g.legal(pid) else "k.call")
    assert not g.s.seat_of(pid).away
    assert any(e["type"] == "away" and not e["away"] for e in g.ev)


# ----------------------------------------------------------------------------------- rebuys and ranking


def bust(g: G, loser: str, winner: str) -> None:
    """Hold'em: loser all-in with 7-2 against winner's aces, everyone else folds."""
    h = g.hand
    rig(g.s, deck=cards("2s Kh 9c 5d 3s 4s 3c Qh"),
        **{loser: cards("7c 2d"), winner: cards("As Ad")})
    while g.to_act is not None:
        pid = g.to_act
        if pid == loser:
            g.bet("nl.allIn")
        elif pid == winner:
            g.bet("nl.call" if "nl.call" in g.legal(pid) else "nl.check")
        else:
            g.bet("nl.fold")
    assert h.hand_no == g.hand.hand_no and g.view(None)["phase"] in ("handEnd", "rebuy", "finished")


def test_rebuy_limited_once_then_eliminated_and_hands_score() -> None:
    g = G(3, mode="holdem", rebuy="limited", rebuyLimit=1, handLimit=10)
    loser, winner = g.hand.order[0], g.hand.order[1]
    bust(g, loser, winner)
    assert g.s.seat_of(loser).stack == 0 and g.s.seat_of(loser).status == "busted"
    g.ready_all()
    assert g.view(None)["phase"] == "rebuy" and g.view(None)["rebuyPending"] == [loser]
    g.do(loser, "rebuy", accept=True)
    assert g.s.seat_of(loser).stack == 1000 and g.s.seat_of(loser).rebuys == 1
    bust(g, loser, winner)
    g.ready_all()
    assert g.s.seat_of(loser).status == "eliminated"
    while g.s.phase != "finished":
        g.s, _ = on_timeout(g.s, deadline(g.s))  # type: ignore[arg-type]
    res = result(g.s)
    assert res is not None
    row = next(r for r in res["ranking"] if r["playerId"] == loser)
    assert row["score"] == 0 - 1000 * 1 and row["rebuys"] == 1 and row["rank"] == 3
    for r in res["ranking"]:
        seat = g.s.seat_of(r["playerId"])
        assert r["score"] == seat.stack - 1000 * seat.rebuys
    assert res["stats"]["handsPlayed"] == 10


def test_last_standing_same_hand_busts_ranked_by_stack_at_hand_start() -> None:
    g = G(3, mode="holdem", endCondition="lastStanding", rebuy="off")
    h = g.hand
    big, small = h.order[0], h.order[1]
    win = h.order[2]
    h.bettors[big].stack = 600 - h.bettors[big].committed_total
    h.bettors[small].stack = 400 - h.bettors[small].committed_total
    h.bettors[win].stack = 2000 - h.bettors[win].committed_total
    g.s.seat_of(big).stack_at_hand_start = 600
    g.s.seat_of(small).stack_at_hand_start = 400
    rig(g.s, deck=cards("2s Kh 9c 5d 3s 4s 3c Qh"),
        **{big: cards("7c 2d"), small: cards("8c 2h"), win: cards("As Ad")})
    while g.to_act is not None:
        pid = g.to_act
        g.bet("nl.allIn" if pid != win or "nl.call" not in g.legal(pid) else "nl.call")
    assert g.s.phase == "finished" or g.view(None)["phase"] == "handEnd"
    if g.s.phase != "finished":
        g.ready_all()
    res = result(g.s)
    assert res is not None
    ranks = {r["playerId"]: r["rank"] for r in res["ranking"]}
    assert ranks == {win: 1, big: 2, small: 3}
    scores = {r["playerId"]: r["score"] for r in res["ranking"]}
    assert scores == {win: 3, big: 2, small: 1}


# ----------------------------------------------------------------------------------- properties
# (sampled here; the full 1,000-games-per-mode runs are in test_properties.py)

MODES = ["holdem", "omaha", "sevenPoker", "sevenHiLo", "badugi", "fiveDraw", "indian"]


@pytest.mark.parametrize("mode", MODES)
def test_no_secret_leaks_in_views_and_events(mode: str) -> None:
    for seed in range(6):
        opts = {"mode": mode, "handLimit": 10}
        state, _ = play_random(seed, opts, 2 + seed % 4, max_steps=120, check="all")
        for viewer in [s.id for s in state.seats] + [None]:
            check_no_leak(state, viewer)


@pytest.mark.parametrize("mode", MODES)
def test_same_seed_same_actions_same_state_hash(mode: str) -> None:
    state, script = play_random(7, {"mode": mode, "handLimit": 10}, 4, max_steps=150, check="none")
    again = replay(7, {"mode": mode, "handLimit": 10}, 4, script)
    assert state_hash(again) == state_hash(state)
    restored = State.from_json(json.loads(json.dumps(state.to_json())))
    assert state_hash(restored) == state_hash(state)


@pytest.mark.parametrize("mode", MODES)
def test_chip_conservation_after_every_apply(mode: str) -> None:
    for seed in range(4):
        play_random(100 + seed, {"mode": mode, "handLimit": 10, "rebuy": "unlimited", "startingChips": 500,
                                 "baseUnit": 20}, 3 + seed % 3, max_steps=200, check="sample")
