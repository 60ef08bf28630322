"""House rules through the engine (docs/rules-extensions.md): 491/591 룰 and 맥스 베팅 상한.

Each named test is one decision of the ruling: which streets, who is bound, timeouts, what the view shows,
where the option is ignored, how the cap follows the base unit, options validation, bots that follow.
"""

from __future__ import annotations

from typing import Any

import pytest
from engine_support import G, check_cards, check_chips

from pokerroom.bots import decide, recommend
from pokerroom.engine import PokerOptions, apply, deadline, on_timeout, state_hash, view
from pokerroom.rejections import Rejected

RULE_491 = "491 룰: 4구·5구 첫 베팅은 하프 또는 다이만 할 수 있어요"
CAP_CHOICES = "맥스 베팅 상한(betCap)은 0(없음), 10, 20, 50, 100(기본 단위의 배수) 중에서 골라 주세요"


def stud(n: int = 3, seed: int = 1, **opts: Any) -> G:
    g = G(n, seed=seed, mode=opts.pop("mode", "sevenPoker"), rule491=opts.pop("rule491", True), **opts)
    g.choose_all()
    return g


# --- 491/591 룰 ---------------------------------------------------------------------------------------------

def test_rule491_4gu_opening_is_half_or_die_only() -> None:
    g = stud()
    assert g.street() == 0 and g.to_act is not None
    assert g.legal(g.to_act) == ["k.half", "k.die"]


def test_rule491_refusal_is_korean_and_names_the_rule() -> None:
    g = stud()
    pid = g.to_act
    assert pid is not None
    before = state_hash(g.s)
    for kind in ("k.check", "k.ping", "k.quarter"):
        with pytest.raises(Rejected) as info:
            apply(g.s, pid, {"type": kind}, g.now + 1)
        assert (info.value.code, info.value.message) == ("rule_491", RULE_491)
    assert state_hash(g.s) == before


def test_rule491_applies_on_5gu_too_but_not_6gu_or_7gu() -> None:
    g = stud(seed=4)
    for street in range(4):
        assert g.street() == street
        opener = g.to_act
        assert opener is not None
        if street in (0, 1):
            assert g.legal(opener) == ["k.half", "k.die"]
        else:
            assert "k.check" in g.legal(opener) and "k.ping" in g.legal(opener)
        g.bet("k.half")
        while g.to_act is not None and g.street() == street:
            g.bet("k.call")
    check_chips(g.s)
    check_cards(g.s)


def test_rule491_after_the_opening_half_everyone_plays_normally() -> None:
    g = stud()
    g.bet("k.half")
    nxt = g.to_act
    assert nxt is not None
    assert g.legal(nxt) == ["k.call", "k.ddadang", "k.quarter", "k.half", "k.die"]
    assert view(g.s, None)["houseRules"]["restriction"] is None


def test_rule491_boss_dies_then_the_next_player_is_bound() -> None:
    g = stud()
    g.bet("k.die")
    nxt = g.to_act
    assert nxt is not None and g.legal(nxt) == ["k.half", "k.die"]


def test_rule491_timeout_dies_because_check_is_not_legal() -> None:
    g = stud(turnSeconds=15)
    pid = g.to_act
    assert pid is not None
    g.s, ev = on_timeout(g.s, deadline(g.s))  # type: ignore[arg-type]
    assert g.s.hand is not None and g.s.hand.bettors[pid].folded
    assert any(e["type"] == "action" and e["player"] == pid and e["action"] == {"type": "k.die"} for e in ev)


def test_rule491_view_explains_the_restriction_to_everyone() -> None:
    g = stud()
    for viewer in [*g.ids, None]:
        hr = view(g.s, viewer)["houseRules"]
        assert hr == {"rule491": True, "betCap": 0, "badugiHigh": False, "restriction": RULE_491}


def test_rule491_in_hilo_too() -> None:
    g = stud(mode="sevenHiLo")
    assert g.to_act is not None and g.legal(g.to_act) == ["k.half", "k.die"]


def test_rule491_full_game_opens_with_half_only() -> None:
    g = stud(koreanMaxRaise="full")
    assert g.to_act is not None and g.legal(g.to_act) == ["k.half", "k.die"]
    g.bet("k.half")
    assert g.to_act is not None and "k.full" in g.legal(g.to_act)


@pytest.mark.parametrize("opts", [
    {"mode": "sevenPoker", "betting": "noLimit"},
    {"mode": "badugi"},
    {"mode": "fiveDraw"},
])
def test_rule491_is_ignored_outside_korean_7_poker(opts: dict[str, Any]) -> None:
    g = G(3, rule491=True, **opts)
    if opts["mode"] == "sevenPoker":
        g.choose_all()
    assert g.to_act is not None
    kinds = g.legal(g.to_act)
    assert "k.check" in kinds or "nl.check" in kinds
    assert "houseRules" not in view(g.s, None)


def test_rule491_off_by_default_and_no_house_rules_key() -> None:
    g = G(3, mode="sevenPoker")
    g.choose_all()
    assert g.to_act is not None and "k.check" in g.legal(g.to_act)
    assert "houseRules" not in view(g.s, g.ids[0])
    assert PokerOptions().rule491 is False and PokerOptions().bet_cap == 0


def test_rule491_bots_open_with_a_good_hand_and_never_send_an_illegal_action() -> None:
    seen: set[str] = set()
    for seed in range(12):
        g = stud(seed=seed)
        pid = g.to_act
        assert pid is not None
        for level in ("easy", "normal"):
            act = decide(view(g.s, pid), level, seed=seed, samples=40)  # type: ignore[arg-type]
            assert act["type"] in ("k.half", "k.die")
            seen.add(act["type"])
        hint = recommend(view(g.s, pid))
        assert hint is not None and hint["type"] in ("k.half", "k.die")
    assert seen == {"k.half", "k.die"}  # they do not simply die every time


# --- 맥스 베팅 상한 ---------------------------------------------------------------------------------------

def test_bet_cap_is_a_multiple_of_the_base_unit_in_chips() -> None:
    g = G(3, mode="badugi", betCap=10, baseUnit=10)
    assert view(g.s, None)["houseRules"] == {"rule491": False, "betCap": 100, "badugiHigh": False,
                                             "restriction": None}
    assert g.s.hand is not None and g.s.hand.rnd is not None and g.s.hand.rnd.bet_cap == 100


def test_bet_cap_follows_the_blind_level() -> None:
    g = G(2, mode="badugi", betCap=10, baseUnit=10, blindUpEvery=5, startingChips=1000)
    while g.s.hands_played < 5:
        if (g.s.hand is not None and g.s.hand.phase == "handEnd") or g.to_act is None:
            g.s, _ = on_timeout(g.s, deadline(g.s))  # type: ignore[arg-type]
            continue
        g.bet("k.die")
    while g.to_act is None:
        g.s, _ = on_timeout(g.s, deadline(g.s))  # type: ignore[arg-type]
    assert g.s.base_unit == 20
    assert view(g.s, None)["houseRules"]["betCap"] == 200
    assert g.s.hand.rnd.bet_cap == 200  # type: ignore[union-attr]


def test_bet_cap_korean_half_shrinks_to_the_cap_and_is_marked() -> None:
    """Half/full above the cap become the cap (not greyed) and say ``capped``; smaller sizes stay exact."""
    g = G(3, mode="badugi", betCap=10, baseUnit=10, koreanMaxRaise="full")
    found = None
    for _ in range(40):
        if g.s.hand is not None and g.s.hand.phase == "draw":
            for pid in list(view(g.s, None)["pending"]):
                g.do(pid, "draw", cardIds=[])
            continue
        pid = g.to_act
        assert pid is not None
        me = view(g.s, pid)["me"]
        acts = {a["type"]: a for a in me["legalActions"]}
        if "k.half" in acts and acts["k.half"].get("capped"):
            found = (acts, me["toCall"], view(g.s, None)["potTotal"])
            break
        g.bet("k.half" if "k.half" in acts else "k.call")
    assert found is not None
    acts, to_call, pot = found
    assert (pot + to_call) // 2 > 100  # the plain 하프 would be more than the cap
    assert acts["k.half"]["amount"] == to_call + 100 and acts["k.full"]["amount"] == to_call + 100
    assert acts["k.full"]["capped"]
    if "k.quarter" in acts and (pot + to_call) // 4 <= 100:
        assert acts["k.quarter"]["amount"] == to_call + max((pot + to_call) // 4, 10)
        assert "capped" not in acts["k.quarter"]
    g.bet("k.half")
    assert g.ev and next(e for e in g.ev if e["type"] == "action")["amount"] == to_call + 100


def test_bet_cap_holdem_no_limit_raise_max_and_refusal() -> None:
    g = G(3, mode="holdem", betCap=10, baseUnit=10)
    pid = g.to_act
    assert pid is not None
    r = next(a for a in view(g.s, pid)["me"]["legalActions"] if a["type"] == "nl.raise")
    assert (r["min"], r["max"]) == (20, 110)  # BB 10 + cap 100
    assert "nl.allIn" not in {a["type"] for a in view(g.s, pid)["me"]["legalActions"]}
    with pytest.raises(Rejected) as info:
        apply(g.s, pid, {"type": "nl.raise", "to": 111}, 1)
    assert info.value.code == "bet_cap_exceeded" and "맥스 베팅 상한" in info.value.message


def test_bet_cap_omaha_pot_limit_takes_the_smaller() -> None:
    g = G(3, mode="omaha", betCap=100, baseUnit=10)
    pid = g.to_act
    assert pid is not None
    r = next(a for a in view(g.s, pid)["me"]["legalActions"] if a["type"] == "nl.raise")
    assert r["max"] == 35  # pot-limit (10 + 5 + 10 + 10) far below the cap of 1,000


def test_bet_cap_timeout_unchanged() -> None:
    g = G(3, mode="badugi", betCap=10)
    pid = g.to_act
    g.s, _ = on_timeout(g.s, deadline(g.s))  # type: ignore[arg-type]
    assert g.s.hand is not None and g.s.hand.bettors[pid].last_action == "k.check"  # type: ignore[index]


# --- options ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("data", "message"), [
    ({"betCap": 30}, CAP_CHOICES),
    ({"betCap": 10.0}, CAP_CHOICES),
    ({"rule491": "yes"}, "491 룰(rule491)은 켬(true) 또는 끔(false)만 고를 수 있어요"),
    ({"rule491": 1}, "491 룰(rule491)은 켬(true) 또는 끔(false)만 고를 수 있어요"),
])
def test_house_rule_options_refused_in_korean(data: dict[str, Any], message: str) -> None:
    with pytest.raises(Rejected) as info:
        PokerOptions.from_json(data)
    assert (info.value.code, info.value.message) == ("bad_options", message)


def test_house_rule_options_round_trip() -> None:
    o = PokerOptions.from_json({"mode": "sevenHiLo", "rule491": True, "betCap": 50})
    assert o.to_json()["rule491"] is True and o.to_json()["betCap"] == 50
    assert PokerOptions.from_json(o.to_json()) == o


# --- 하이 바둑이 ------------------------------------------------------------------------------------------

def high_showdown(hands: list[str], **opts: Any) -> tuple[G, list[str]]:
    from engine_support import rig

    from pokerroom.cards import parse_cards

    g = G(len(hands), mode="badugi", badugiHigh=opts.pop("badugiHigh", True), **opts)
    assert g.s.hand is not None
    order = list(g.s.hand.order)
    rig(g.s, **{order[i]: parse_cards(h) for i, h in enumerate(hands)})
    while g.s.hand is not None and g.s.hand.phase != "handEnd":
        if g.s.hand.phase == "draw":
            for pid in list(view(g.s, None)["pending"]):
                g.do(pid, "draw", cardIds=[])
        else:
            g.bet("k.check")
    return g, order


def winners(g: G) -> set[str]:
    return {a["to"] for a in view(g.s, None)["awards"]}


def test_badugi_high_highest_made_wins_and_made_beats_base() -> None:
    g, o = high_showdown(["As Kd Qh Jc", "2s 3d 4h 5c"])
    assert winners(g) == {o[0]}  # low badugi would give it to the 5-4-3-2
    g, o = high_showdown(["2s 3d 4h 5c", "As Ks Qh Jd"])
    assert winners(g) == {o[0]}  # any 메이드 beats an A 베이스
    names = {e["id"]: e["handName"] for e in view(g.s, None)["showdown"]}
    assert names == {o[0]: "5 메이드", o[1]: "A 베이스"}


def test_badugi_high_equal_ranks_split() -> None:
    g, o = high_showdown(["As Kd Qh 9c", "Ad Ks Qc 9h"])
    assert winners(g) == set(o)
    assert sorted(a["amount"] for a in view(g.s, None)["awards"]) == [10, 10]


def test_badugi_high_off_keeps_low_badugi() -> None:
    g, o = high_showdown(["As Kd Qh Jc", "2s 3d 4h 5c"], badugiHigh=False)
    assert winners(g) == {o[1]}
    assert "houseRules" not in view(g.s, None)


def test_badugi_high_hint_names_the_high_hand_and_view_says_so() -> None:
    from engine_support import rig

    from pokerroom.cards import parse_cards

    g = G(2, mode="badugi", badugiHigh=True)
    assert g.s.hand is not None
    pid = g.s.hand.order[0]
    rig(g.s, **{pid: parse_cards("As Kd Qh Jc")})
    assert view(g.s, pid)["me"]["handName"] == "A-K-Q-J 메이드"
    assert view(g.s, None)["houseRules"] == {"rule491": False, "betCap": 0, "badugiHigh": True,
                                             "restriction": None}


@pytest.mark.parametrize("mode", ["sevenPoker", "fiveDraw", "holdem"])
def test_badugi_high_ignored_outside_badugi(mode: str) -> None:
    g = G(2, mode=mode, badugiHigh=True)
    assert "houseRules" not in view(g.s, None)


def test_badugi_high_bots_keep_high_cards_and_low_bots_keep_low_ones() -> None:
    from engine_support import rig

    from pokerroom.cards import parse_cards

    for high in (True, False):
        g = G(2, mode="badugi", badugiHigh=high)
        assert g.s.hand is not None
        a, b = g.s.hand.order
        rig(g.s, **{a: parse_cards("Ks Qd 2h 2c"), b: parse_cards("3s 4d 5h 6c")})
        while g.s.hand.phase != "draw":
            g.bet("k.check")
        act = decide(view(g.s, a), "normal", seed=1, samples=40)
        dropped = {c.rank for c in parse_cards("Ks Qd 2h 2c") if c.id in act["cardIds"]}
        if high:
            assert 13 not in dropped and 12 not in dropped and 2 in dropped
        else:
            assert 13 in dropped and 12 in dropped


def test_badugi_high_timeout_stands_pat() -> None:
    g = G(2, mode="badugi", badugiHigh=True)
    while g.s.hand is not None and g.s.hand.phase != "draw":
        g.bet("k.check")
    before = {pid: list(p.hole) for pid, p in g.s.hand.players.items()}  # type: ignore[union-attr]
    g.s, _ = on_timeout(g.s, deadline(g.s))  # type: ignore[arg-type]
    assert g.s.hand is not None
    assert all(g.s.hand.players[pid].hole == cards for pid, cards in before.items())


def test_badugi_high_option_validation() -> None:
    with pytest.raises(Rejected) as info:
        PokerOptions.from_json({"mode": "badugi", "badugiHigh": "on"})
    assert info.value.message == "하이 바둑이(badugiHigh)는 켬(true) 또는 끔(false)만 고를 수 있어요"


@pytest.mark.parametrize("options", [{"badugiHigh": True}, {"rule491": True}, {"jacksOrBetter": True}],
                         ids=["badugiHigh", "rule491", "jacksOrBetter"])
def test_house_rule_bot_matches_are_legal_and_normal_still_wins(options: dict[str, Any]) -> None:
    """Heads-up normal vs easy with the rule on: every decision is checked against legalActions."""
    from pokerroom.tools.simulate import SimConfig, paired_margin, run_match

    mode = "badugi" if "badugiHigh" in options else "fiveDraw" if "jacksOrBetter" in options else "sevenPoker"
    match = run_match(SimConfig(mode=mode, players=2, hands=300, bots=("normal", "easy"), seed=2026,
                                samples=40, options=options))
    assert match.checks == match.decisions > 1000
    margin, half, _z = paired_margin(match, "normal", "easy")
    print(f"\n{options}: normal - easy = {margin:+.2f} ± {half:.2f} chips/hand over {match.hands} hands")
    assert margin > 0


# --- 잭스 오어 베터 ---------------------------------------------------------------------------------------

NO_OPENERS = "잭스 오어 베터: J 원페어 이상이 있어야 첫 베팅을 열 수 있어요"


def job(hands: list[str], **opts: Any) -> tuple[G, list[str]]:
    from engine_support import rig

    from pokerroom.cards import parse_cards

    g = G(len(hands), mode="fiveDraw", jacksOrBetter=True, seed=opts.pop("seed", 3), **opts)
    assert g.s.hand is not None
    order = list(g.s.hand.order)
    rig(g.s, **{order[i]: parse_cards(h) for i, h in enumerate(hands) if h})
    # the openers were read when the round started: read them again from the rigged cards
    from pokerroom.engine.flow import _openers
    from pokerroom.engine.modes import rules_for

    assert g.s.hand.rnd is not None and g.s.hand.rnd.may_open is not None
    g.s.hand.rnd.may_open = _openers(g.s, g.s.hand, rules_for(g.s.options))
    return g, order


NOTHING, JACKS, TENS = "2s 5d 9h Tc Kd", "Js Jd 4h 6c 8d", "Th Ts 3c 7d Qc"


def test_job_without_openers_only_check_or_die() -> None:
    g, o = job([NOTHING, JACKS, TENS])
    assert g.legal(o[0]) == ["k.check", "k.die"]
    for kind in ("k.ping", "k.quarter", "k.half"):
        with pytest.raises(Rejected) as info:
            apply(g.s, o[0], {"type": kind}, 1)
        assert (info.value.code, info.value.message) == ("no_openers", NO_OPENERS)
    assert view(g.s, None)["houseRules"]["restriction"] == NO_OPENERS


def test_job_tens_are_not_openers_jacks_are() -> None:
    g, o = job([NOTHING, JACKS, TENS])
    g.bet("k.check")
    assert "k.ping" in g.legal(o[1]) and "k.half" in g.legal(o[1])
    g.bet("k.check")
    assert g.legal(o[2]) == ["k.check", "k.die"]


@pytest.mark.parametrize("cards", ["3s 3d 4h 4c 8d", "5s 6d 7h 8c 9d", "3h 6h 8h Jh Qh", "As Ad 2c 7d 9c"])
def test_job_two_pair_straight_flush_and_aces_open(cards: str) -> None:
    g, o = job([cards, NOTHING])
    assert "k.ping" in g.legal(o[0])


def test_job_after_the_open_anybody_may_call_or_raise() -> None:
    g, o = job([JACKS, NOTHING, TENS])
    g.bet("k.ping")
    assert "k.call" in g.legal(o[1]) and "k.half" in g.legal(o[1])  # no openers needed to raise an open pot
    assert view(g.s, None)["houseRules"]["restriction"] is None
    assert view(g.s, None)["houseRules"]["opener"] == o[0]
    assert any(e["type"] == "opened" and e["player"] == o[0] for e in g.ev)


def test_job_nobody_opens_antes_stay_and_the_same_dealer_redeals() -> None:
    g, _o = job([NOTHING, TENS, NOTHING])
    dealer, hand_no = g.s.hand.dealer_seat, g.s.hand.hand_no  # type: ignore[union-attr]
    for _ in range(3):
        g.bet("k.check")
    assert g.s.hand is not None and g.s.hand.phase == "handEnd"
    assert any(e["type"] == "noOpener" and e["carry"] == 30 for e in g.ev)
    assert g.s.carry_over == 30 and view(g.s, None)["houseRules"]["noOpener"] is True
    assert view(g.s, None)["showdown"] == [] and view(g.s, None)["awards"] == []
    assert all(s["hole"][0] == {"hidden": True, "slot": s["hole"][0]["slot"]}
               for s in view(g.s, None)["seats"])  # no card is shown
    check_chips(g.s)
    g.s, _ = on_timeout(g.s, deadline(g.s))  # type: ignore[arg-type]
    h = g.s.hand
    assert h is not None and h.hand_no == hand_no + 1 and g.s.hands_played == 1  # a re-deal counts as a hand
    assert h.dealer_seat == dealer and h.dead == 30  # same dealer; old antes + a fresh ante each
    assert view(g.s, None)["potTotal"] == 60
    check_chips(g.s)
    check_cards(g.s)


def test_job_dealer_rule_winner_also_keeps_the_dealer_on_a_redeal() -> None:
    g, _o = job([NOTHING, NOTHING], dealerRule="winner")
    dealer = g.s.hand.dealer_seat  # type: ignore[union-attr]
    g.bet("k.check")
    g.bet("k.check")
    g.s, _ = on_timeout(g.s, deadline(g.s))  # type: ignore[arg-type]
    assert g.s.hand is not None and g.s.hand.dealer_seat == dealer


def test_job_last_hand_without_opener_splits_the_pot() -> None:
    g, _o = job([NOTHING, NOTHING, NOTHING], handLimit=10)
    g.s.hands_played = 9  # this is the game's last hand
    for _ in range(3):
        g.bet("k.check")
    awards = view(g.s, None)["awards"]
    assert sorted(a["amount"] for a in awards) == [10, 10, 10] and g.s.carry_over == 0


def test_job_everyone_dies_but_one_before_an_open_wins_the_antes() -> None:
    g, o = job([NOTHING, NOTHING, NOTHING])
    g.bet("k.die")
    g.bet("k.die")
    assert [a["to"] for a in view(g.s, None)["awards"]] == [o[2]] and g.s.carry_over == 0


def test_job_opener_proof_shown_to_all_when_everyone_folds() -> None:
    g, o = job([NOTHING, JACKS, TENS])
    g.bet("k.check")
    g.bet("k.ping")
    for viewer in (o[0], o[2], None):
        assert view(g.s, viewer)["houseRules"]["openerProof"] is None  # not during the hand
    g.bet("k.die")
    g.bet("k.die")
    for viewer in [*o, None]:
        hr = view(g.s, viewer)["houseRules"]
        assert hr["opener"] == o[1]
        assert sorted((c["rank"], c["suit"]) for c in hr["openerProof"]) == [(11, "D"), (11, "S")]
    check_no_leak_all(g)


def test_job_split_openers_the_discarded_jack_is_still_the_proof() -> None:
    from pokerroom.cards import parse_card

    g, o = job([JACKS, NOTHING])
    g.bet("k.ping")
    g.bet("k.call")
    jd = parse_card("Jd")
    g.do(o[0], "draw", cardIds=[jd.id, parse_card("4h").id])  # break the jacks to draw at a flush, say
    g.do(o[1], "draw", cardIds=[])
    while g.s.hand is not None and g.s.hand.phase == "betting":
        g.bet("k.check")
    proof = view(g.s, None)["houseRules"]["openerProof"]
    assert {(c["rank"], c["suit"]) for c in proof} == {(11, "S"), (11, "D")}
    check_no_leak_all(g)


def check_no_leak_all(g: G) -> None:
    from engine_support import check_no_leak

    for viewer in [*g.ids, None]:
        check_no_leak(g.s, viewer)


def test_job_second_round_has_no_requirement() -> None:
    g, o = job([JACKS, NOTHING])
    g.bet("k.ping")
    g.bet("k.call")
    for pid in o:
        g.do(pid, "draw", cardIds=[])
    assert g.to_act is not None and "k.ping" in g.legal(g.to_act)
    assert view(g.s, None)["houseRules"]["restriction"] is None


def test_job_no_limit_without_openers_check_or_fold() -> None:
    g, o = job([NOTHING, JACKS], betting="noLimit")
    assert g.legal(o[0]) == ["nl.fold", "nl.check"]
    with pytest.raises(Rejected) as info:
        apply(g.s, o[0], {"type": "nl.allIn"}, 1)
    assert info.value.code == "no_openers"
    g.bet("nl.check")
    assert "nl.raise" in g.legal(o[1])


def test_job_timeout_checks() -> None:
    g, o = job([NOTHING, JACKS])
    g.s, _ = on_timeout(g.s, deadline(g.s))  # type: ignore[arg-type]
    assert g.s.hand is not None and g.s.hand.bettors[o[0]].last_action == "k.check"


def test_job_carry_pending_when_the_game_ends_is_split() -> None:
    g, o = job([NOTHING, NOTHING])
    g.bet("k.check")
    g.bet("k.check")
    assert g.s.carry_over == 20
    g.do(o[1], "leave")  # only one connected player is left: the game ends during handEnd
    assert g.s.phase == "finished" and g.s.carry_over == 0
    check_chips(g.s)


@pytest.mark.parametrize("mode", ["badugi", "sevenPoker", "holdem"])
def test_job_ignored_outside_five_draw(mode: str) -> None:
    g = G(2, mode=mode, jacksOrBetter=True)
    assert "houseRules" not in view(g.s, None)


def test_job_option_validation_and_off_by_default() -> None:
    assert PokerOptions().jacks_or_better is False
    with pytest.raises(Rejected) as info:
        PokerOptions.from_json({"mode": "fiveDraw", "jacksOrBetter": 1})
    assert info.value.message == "잭스 오어 베터(jacksOrBetter)는 켬(true) 또는 끔(false)만 고를 수 있어요"


@pytest.mark.parametrize(("cards", "proof"), [
    ("Js Jd 4h 6c 8d", {(11, "S"), (11, "D")}),                   # the pair, not the kickers
    ("3s 3d 4h 4c 8d", {(3, "S"), (3, "D"), (4, "H"), (4, "C")}),   # two pair: both pairs
    ("5s 6d 7h 8c 9d", {(5, "S"), (6, "D"), (7, "H"), (8, "C"), (9, "D")}),  # a straight: all five
])
def test_job_proof_is_the_qualifying_cards_only(cards: str, proof: set[tuple[int, str]]) -> None:
    g, _o = job([cards, NOTHING])
    g.bet("k.ping")
    g.bet("k.die")
    shown = view(g.s, None)["houseRules"]["openerProof"]
    assert {(c["rank"], c["suit"]) for c in shown} == proof
