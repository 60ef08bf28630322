"""poker.md §10, the checklist items of each mode's own rules: 7 Poker, hi-lo, badugi and draw, Indian.

The betting, pots, timeouts, rebuys and sampled properties of the checklist are in test_checklist.py; the
two files split one checklist by topic (one file was over 600 lines). Cards are arranged with
``engine_support.rig``; everything else goes through the public API.
"""

from __future__ import annotations

import json
from typing import Any

from engine_support import C, G, cards, check_cards, check_chips, rig

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


def first_wins(*specs: str) -> tuple[G, list[str]]:
    """The showdown of ``stud_showdown(specs)``, whose first player must win the whole pot."""
    g, o = stud_showdown(list(specs))
    assert winners(g) == {o[0]}
    return g, o


def test_seven_poker_rank_order_mountain_back_straight_flushes() -> None:
    mountain = "2c As Kd Qh Jc Ts 3h 4d"
    back = "7c Ad 2s 3d 4c 5h 9c 9d"
    ktop = "8d Ks Qd Jh Tc 9h 2h 3c"
    first_wins(mountain, back, ktop)
    g, o = first_wins(back, ktop)
    names = {e["id"]: e["handName"] for e in g.view(None)["showdown"]}
    assert names[o[0]] != names[o[1]]
    back_sf = "Kc Ah 2h 3h 4h 5h 9c 9d"
    k_sf = "8d Ks Qs Js Ts 9s 2c 3c"
    quads = "6c 7h 7d 7s 7c 2d 3d 4s"
    first_wins(back_sf, k_sf, quads)
    first_wins(k_sf, quads)


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
