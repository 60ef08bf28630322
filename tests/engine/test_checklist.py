"""poker.md §10, one test per checklist item, all driven through the engine's setup/apply/view/on_timeout.

Cards are arranged with ``engine_support.rig`` (swapping cards inside the dealt hand, so the 52 cards stay
unique); everything else goes through the public API.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from engine_support import G, check_cards, check_chips, check_no_leak, play_random, rig

from pokerroom.cards import parse_card, parse_cards
from pokerroom.engine import State, apply, deadline, on_timeout, result, setup, state_hash


def C(text: str, deck: str = "d52") -> Any:
    return parse_card(text, deck)  # type: ignore[arg-type]


def cards(text: str) -> list[Any]:
    return parse_cards(text)


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


# ------------------------------------------------------------------------------------------------- 7 Poker


def stud_showdown(specs: list[str], mode: str = "sevenPoker", **opts: Any) -> tuple[G, list[str]]:
    """Each spec: 8 cards "discard open h1 h2 4구 5구 6구 7구" for the players in dealing order."""
    g = G(len(specs), mode=mode, **opts)
    order = list(g.hand.order)
    per = [cards(s) for s in specs]
    deck: list[Any] = []
    for street in range(4, 8):
        deck += [per[i][street] for i in range(len(per))]
    rig(g.s, deck=deck, **{order[i]: per[i][:4] for i in range(len(per))})
    for i, pid in enumerate(order):
        g.do(pid, "choose", discardId=per[i][0].id, openId=per[i][1].id)
    for _ in range(4):
        g.check_around()
    return g, order


def winners(g: G) -> set[str]:
    return {a["to"] for a in g.view(None)["awards"]}


def test_seven_poker_rank_order_mountain_back_straight_flushes() -> None:
    mountain = "2c As Kd Qh Jc Ts 3h 4d"
    back = "7c Ad 2s 3d 4c 5h 9c 9d"
    ktop = "8d Ks Qd Jh Tc 9h 2h 3c"
    g, o = stud_showdown([mountain, back, ktop])
    assert winners(g) == {o[0]}
    g, o = stud_showdown([back, ktop])
    assert winners(g) == {o[0]}
    names = {e["id"]: e["handName"] for e in g.view(None)["showdown"]}
    assert names[o[0]] != names[o[1]]
    back_sf = "Kc Ah 2h 3h 4h 5h 9c 9d"
    k_sf = "8d Ks Qs Js Ts 9s 2c 3c"
    quads = "6c 7h 7d 7s 7c 2d 3d 4s"
    g, o = stud_showdown([back_sf, k_sf, quads])
    assert winners(g) == {o[0]}
    g, o = stud_showdown([k_sf, quads])
    assert winners(g) == {o[0]}


def test_seven_poker_suit_ties_pair_and_two_pair_no_kicker() -> None:
    g, o = stud_showdown(["2c 7s 7c 3d 5h 9d Jc Qh", "2d 7d 7h 4c 6s Ts Kc Ah"])
    assert winners(g) == {o[0]}  # 7♠7♣ beats 7◆7♥ although the other has better kickers
    g, o = stud_showdown(["2c Ks Kc 5d 5h 3s 8c 9h", "2d Kd Kh 9d 9s 4c 6d Jh"])
    assert winners(g) == {o[1]}  # K-9 beats K-5


def test_seven_poker_boss_pair_over_top_and_suit_on_same_rank() -> None:
    g = G(2, mode="sevenPoker")
    p, q = g.hand.order
    rig(g.s, deck=cards("5d Ks"), **{p: cards("2c 5c 8h 9h"), q: cards("3c As Jd Td")})
    g.do(p, "choose", discardId=C("2c").id, openId=C("5c").id)
    g.do(q, "choose", discardId=C("3c").id, openId=C("As").id)
    assert g.to_act == p and g.view(None)["boss"] == p  # 5-5 open pair beats A-K top
    g2 = G(2, mode="sevenPoker", seed=5)
    p, q = g2.hand.order
    rig(g2.s, deck=cards("5h 5s"), **{p: cards("2c 5d 8h 9h"), q: cards("3c 5c Jd Td")})
    g2.do(p, "choose", discardId=C("2c").id, openId=C("5d").id)
    g2.do(q, "choose", discardId=C("3c").id, openId=C("5c").id)
    assert g2.to_act == q  # 5♠5♣ beats 5♦5♥: the pair with the spade


def test_seven_poker_choice_is_simultaneous_and_revealed_together() -> None:
    g = G(3, mode="sevenPoker")
    a, b, c = g.hand.order
    ch = g.hand.players[a].choice
    g.do(a, "choose", discardId=ch[0].id, openId=ch[1].id)
    for viewer in (b, c, None):
        v = g.view(viewer)
        seat = next(s for s in v["seats"] if s["id"] == a)
        assert seat["up"] == [] and seat["choiceDone"] and seat["holeCount"] == 4
        assert all(card == {"hidden": True, "slot": card["slot"]} for card in seat["hole"])
        text = json.dumps(v)
        assert json.dumps(ch[1].to_json()) not in text and json.dumps(ch[0].to_json()) not in text
    assert g.view(a)["me"]["chosen"] == {"discardId": ch[0].id, "openId": ch[1].id}
    for pid in (b, c):
        x = g.hand.players[pid].choice
        g.do(pid, "choose", discardId=x[0].id, openId=x[1].id)
    reveal = next(e for e in g.ev if e["type"] == "reveal")
    assert set(reveal["opens"]) == {a, b, c}
    for viewer in (b, c, None):
        seat = next(s for s in g.view(viewer)["seats"] if s["id"] == a)
        assert seat["up"][0] == ch[1].to_json()
        assert json.dumps(ch[0].to_json()) not in json.dumps(g.view(viewer))
    assert g.view(a)["me"]["discarded"] == ch[0].to_json()


# ------------------------------------------------------------------------------------------------- hi-lo


def test_hilo_korean_low_skips_back_straight_and_ace_to_five_allows_it() -> None:
    spec = ["Jd As 2d 3h 4c 5s 9d Kh", "Qc Qs Qh 8c 8d Tc Td 6h"]
    for rule, name in (("korean", "9탑"), ("aceToFive", "5탑")):
        g = G(2, mode="sevenHiLo", hiLoLow=rule)
        order = list(g.hand.order)
        per = [cards(s) for s in spec]
        deck = [per[i][k] for k in range(4, 8) for i in range(2)]
        rig(g.s, deck=deck, **{order[i]: per[i][:4] for i in range(2)})
        for i, pid in enumerate(order):
            g.do(pid, "choose", discardId=per[i][0].id, openId=per[i][1].id)
        for _ in range(4):
            g.check_around()
        assert g.view(order[0])["me"]["lowName"] == name
        g.do(order[0], "declare", side="low")
        g.do(order[1], "declare", side="high")
        low = next(e for e in g.view(None)["showdown"] if e["id"] == order[0])
        assert low["lowName"] == name


def hilo_game(specs: list[str], sides: list[str], dead: int = 0) -> tuple[G, list[str]]:
    g = G(len(specs), mode="sevenHiLo")
    order = list(g.hand.order)
    g.hand.dead = dead
    per = [cards(s) for s in specs]
    deck = [per[i][k] for k in range(4, 8) for i in range(len(per))]
    rig(g.s, deck=deck, **{order[i]: per[i][:4] for i in range(len(per))})
    for i, pid in enumerate(order):
        g.do(pid, "choose", discardId=per[i][0].id, openId=per[i][1].id)
    for _ in range(4):
        g.check_around()
    for pid, side in zip(order, sides, strict=True):
        g.do(pid, "declare", side=side)
    return g, order


FULL_HOUSE = "4h Ks Kd Kh 2c 2d Qc Jc"
SEVEN_LOW = "9h Ad 2h 3c 4d 7h Kc Qh"
FLUSH_8_LOW = "Jh As 3s 5s 8s 9s 6h Td"


def test_hilo_failed_swing_is_out_and_high_low_split() -> None:
    g, (a, b, c) = hilo_game([FULL_HOUSE, SEVEN_LOW, FLUSH_8_LOW], ["high", "low", "swing"])
    got = {x["to"]: x["amount"] for x in g.view(None)["awards"]}
    assert got == {a: 15, b: 15} and c not in got
    g, (a, b, c) = hilo_game([FULL_HOUSE, SEVEN_LOW, FLUSH_8_LOW], ["high", "high", "swing"])
    got = {x["to"]: x["amount"] for x in g.view(None)["awards"]}
    assert got == {a: 30}


def test_hilo_odd_chip_goes_high() -> None:
    g, (a, b) = hilo_game([FULL_HOUSE, SEVEN_LOW], ["high", "low"], dead=81)
    got = {(x["to"], x["side"]): x["amount"] for x in g.view(None)["awards"]}
    assert got == {(a, "high"): 51, (b, "low"): 50}


# ------------------------------------------------------------------------------------------------- badugi


def badugi_showdown(hands: list[str]) -> tuple[G, list[str]]:
    g = G(len(hands), mode="badugi")
    order = list(g.hand.order)
    rig(g.s, **{order[i]: cards(h) for i, h in enumerate(hands)})
    g.check_around()
    for _ in range(3):
        g.pass_draw()
        g.check_around()
    return g, order


def test_badugi_made_beats_base_lower_wins_equal_splits() -> None:
    g, o = badugi_showdown(["As 2d 3h 3c", "2s 3d 7h 8c"])
    assert winners(g) == {o[1]}
    g, o = badugi_showdown(["2h 4c 7d 8s", "2s 3d 7h 8c"])
    assert winners(g) == {o[1]}
    g, o = badugi_showdown(["2h 4c 7d 8s", "2s 4d 7h 8c"])
    assert winners(g) == set(o)
    assert sorted(x["amount"] for x in g.view(None)["awards"]) == [10, 10]


def test_badugi_deck_shortage_reshuffles_and_keeps_52_cards() -> None:
    g = G(6, mode="badugi")
    reshuffles = 0
    g.check_around()
    for _ in range(3):
        for pid in list(g.view(None)["pending"]):
            g.do(pid, "draw", cardIds=[c.id for c in g.hand.players[pid].hole])
            check_cards(g.s)
        reshuffles += sum(1 for e in g.ev if e["type"] == "reshuffle")
        assert all(len(g.hand.players[p].hole) == 4 for p in g.ids)
        check_cards(g.s)
        assert all(g.view(p)["seats"][0]["drawCounts"][-1] == 4 for p in g.ids)
        g.check_around()
    assert reshuffles >= 2


def test_five_draw_three_limit_four_only_keeping_an_ace() -> None:
    g = G(2, mode="fiveDraw", drawLimit="three")
    p, q = g.hand.order
    rig(g.s, **{p: cards("2c 5d 7h 9s Jc"), q: cards("Ah 3c 6d 8s Qd")})
    g.check_around()
    err = g.refused(p, "draw", cardIds=[c.id for c in cards("2c 5d 7h 9s")])
    assert err.code == "draw_limit"
    assert g.refused(q, "draw", cardIds=[c.id for c in cards("Ah 3c 6d 8s")]).code == "draw_limit"
    entry = next(a for a in g.view(q)["me"]["legalActions"] if a["type"] == "draw")
    assert entry["max"] == 3 and entry["maxKeepingAce"] == 4
    g.do(q, "draw", cardIds=[c.id for c in cards("3c 6d 8s Qd")])
    g.do(p, "draw", cardIds=[c.id for c in cards("2c 5d 7h")])
    assert g.view(None)["phase"] == "betting"


# ------------------------------------------------------------------------------------------------- Indian


def test_indian_forehead_hidden_from_owner_and_spectators() -> None:
    g = G(3, mode="indian")
    a, b, _c = g.hand.order
    fa = g.hand.players[a].forehead.to_json()
    seat_a = lambda v: next(s for s in v["seats"] if s["id"] == a)  # noqa: E731
    assert seat_a(g.view(a))["forehead"] is None and g.view(a)["me"]["forehead"] == "?"
    assert seat_a(g.view(b))["forehead"] == fa
    assert seat_a(g.view(None))["forehead"] is None and seat_a(g.view(None))["hasForehead"]
    assert json.dumps(fa) not in json.dumps(g.view(a)) and json.dumps(fa) not in json.dumps(g.view(None))
    g.check_around()
    assert g.view(None)["phase"] == "handEnd"
    assert seat_a(g.view(None))["forehead"] == fa and seat_a(g.view(a))["forehead"] == fa


def test_indian_ten_fold_penalty_and_tie_carry() -> None:
    g = G(2, mode="indian", baseUnit=10)
    a, b = g.hand.order
    rig(g.s, **{a: [C("10s", "d20")], b: [C("5s", "d20")]})
    # the d20 deck uses its own ids: rig with d20 cards
    assert g.hand.players[a].forehead.rank == 10
    g.do(a, "nl.fold")
    assert g.view(None)["penalties"] == [{"from": a, "amount": 100}]
    got = {(x["potIndex"], x["to"]): x["amount"] for x in g.view(None)["awards"]}
    assert got == {(0, b): 20, (-1, b): 100}
    assert g.s.seat_of(a).stack == 890 and g.s.seat_of(b).stack == 1110
    check_chips(g.s)
    # tie: carried to the next hand, whose winner takes it
    g2 = G(2, mode="indian", baseUnit=10, seed=3)
    a, b = g2.hand.order
    rig(g2.s, **{a: [C("7s", "d20")], b: [C("7h", "d20")]})
    g2.check_around()
    assert g2.view(None)["carryOver"] == 20 and not g2.view(None)["awards"]
    check_chips(g2.s)
    g2.ready_all()
    assert g2.view(None)["potTotal"] == 40 and g2.view(None)["carryOver"] == 0
    a, b = g2.hand.order
    rig(g2.s, **{a: [C("3s", "d20")], b: [C("9h", "d20")]})
    g2.check_around()
    got = {x["to"]: x["amount"] for x in g2.view(None)["awards"]}
    assert got == {b: 40}
    check_chips(g2.s)


def test_indian_when_empty_reshuffles_after_ten_two_player_hands() -> None:
    g = G(2, mode="indian", indianDeck="d20", indianReshuffle="whenEmpty")
    seen: list[int] = []
    for hand_no in range(1, 11):
        assert g.view(None)["handNo"] == hand_no
        seen += [g.hand.players[p].forehead.id for p in g.hand.order]
        g.check_around()
        if hand_no < 10:
            g.ready_all()
            assert len(g.view(None)["indianUsed"]) == 2 * hand_no
            assert g.view(None)["indianDeckLeft"] == 20 - 2 * (hand_no + 1)
    assert sorted(seen) == list(range(20))
    g.ready_all()
    assert g.view(None)["handNo"] == 11
    assert any(e["type"] == "reshuffle" and e["reason"] == "indian" for e in g.ev)
    assert g.view(None)["indianUsed"] == []


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
    replay = setup([f"p{i}" for i in range(4)], {"mode": mode, "handLimit": 10}, seed=7)
    for pid, action in script:
        now = action["_now"]
        if action["type"] == "timeout":
            replay, _ = on_timeout(replay, now)
        else:
            replay, _ = apply(replay, pid, {k: v for k, v in action.items() if k != "_now"}, now)
    assert state_hash(replay) == state_hash(state)
    restored = State.from_json(json.loads(json.dumps(state.to_json())))
    assert state_hash(restored) == state_hash(state)


@pytest.mark.parametrize("mode", MODES)
def test_chip_conservation_after_every_apply(mode: str) -> None:
    for seed in range(4):
        play_random(100 + seed, {"mode": mode, "handLimit": 10, "rebuy": "unlimited", "startingChips": 500,
                                 "baseUnit": 20}, 3 + seed % 3, max_steps=200, check="sample")
