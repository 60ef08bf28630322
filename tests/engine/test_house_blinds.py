"""Antes, the big-blind ante and the straddle of hold'em and Omaha (docs/rules-extensions.md).

Each test is one decision of the ruling: who posts what and in which order, where the chips go (the side-pot
levels for antes of everyone, dead money in the main pot for a big-blind ante), a short big blind, the action
order and minimum raise after a straddle, the view's keys, the options' validation and that everything is
ignored outside the blind games and off by default.
"""

from __future__ import annotations

from typing import Any

import pytest
from engine_support import C, G, check_cards, check_chips, rig, seated

from pokerroom.engine import PokerOptions, game_accounts, view
from pokerroom.engine.options import ante_amount
from pokerroom.engine.state import State
from pokerroom.rejections import Rejected


def pots(g: G) -> list[tuple[int, list[str]]]:
    return [(p["amount"], p["eligible"]) for p in view(g.s, None)["pots"]]


def stacks(g: G) -> dict[str, int]:
    return {s.id: s.stack for s in g.s.seats}


def legal(g: G, pid: str) -> dict[str, dict[str, Any]]:
    return {a["type"]: a for a in view(g.s, pid)["me"]["legalActions"]}


def check_down(g: G) -> None:
    """Both players still able to bet check every street to the showdown."""
    while g.to_act is not None:
        g.bet("nl.check")


def net_sum_zero(g: G) -> dict[str, int]:
    net = view(g.s, None)["handNet"]
    assert net is not None and sum(net.values()) == 0, net
    return net


# --- the amount -------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("base", "percent", "chips"), [
    (10, 10, 1), (2, 10, 1), (2, 25, 1), (10, 25, 2), (20, 25, 5), (10, 50, 5), (10, 100, 10), (50, 150, 75),
    (80_000, 150, 120_000),
])
def test_ante_is_a_percent_of_the_big_blind_rounded_down_at_least_one_chip(base: int, percent: int,
                                                                          chips: int) -> None:
    opts = PokerOptions.model_validate({"mode": "holdem", "ante": "everyone", "antePercent": percent})
    assert ante_amount(opts, base) == chips


def test_ante_follows_the_blind_level() -> None:
    g = G(3, mode="holdem", ante="everyone", antePercent=50, blindUpEvery=5, startingChips=5000)
    assert view(g.s, None)["houseRules"]["ante"] == {"kind": "everyone", "amount": 5}
    g.s.base_unit = 20  # (what the fifth hand's blind increase does)
    assert view(g.s, None)["houseRules"]["ante"] == {"kind": "everyone", "amount": 10}


# --- antes of everyone ------------------------------------------------------------------------------------

def test_everyone_antes_after_the_blinds_outside_the_round_bet() -> None:
    g = seated([1000, 1000, 1000, 1000], mode="holdem", ante="everyone", antePercent=50)
    v = view(g.s, "p0")
    seats = {s["id"]: s for s in v["seats"]}
    assert [(seats[p]["committedRound"], seats[p]["committedTotal"], seats[p]["ante"]) for p in g.ids] == [
        (5, 10, 5), (10, 15, 5), (0, 5, 5), (0, 5, 5)]
    assert [seats[p]["lastAction"] for p in g.ids] == ["sb", "bb", "ante", "ante"]
    assert v["potTotal"] == 35 and v["currentBet"] == 10
    assert [e["type"] for e in g.ev if e["type"] in ("blind", "ante")] == ["blind", "blind"] + ["ante"] * 4
    log = [e["text"] for e in v["publicLog"]]
    assert log[1:4] == ["p0 스몰 블라인드 5", "p1 빅 블라인드 10", "p0 앤티 5"]
    assert legal(g, "p2")["nl.raise"]["min"] == 20  # antes change no bet: the minimum raise is as usual
    check_chips(g.s)


def test_everyone_antes_side_pots_with_all_ins_of_different_sizes() -> None:
    """Antes count in each player's hand total, so the §5.5 levels hold them: p2 (60 with its ante) makes a
    main pot of 4 × 60, p3 (200) a side pot of 3 × 140 with the two players who cover it."""
    g = seated([1000, 1000, 60, 200], mode="holdem", ante="everyone", antePercent=50)
    rig(g.s, p2=[C("As"), C("Ad")], p3=[C("Ks"), C("Kd")], p0=[C("7c"), C("2d")], p1=[C("8c"), C("3d")],
        deck=[C("4h"), C("Qh"), C("9s"), C("5c"), C("4c"), C("Jd"), C("4d"), C("6h")])
    g.bet("nl.allIn")  # p2: 55 more
    g.bet("nl.allIn")  # p3: 195
    g.bet("nl.call")  # p0
    g.bet("nl.call")  # p1
    assert pots(g) == [(240, ["p0", "p1", "p2", "p3"]), (420, ["p0", "p1", "p3"])]
    check_down(g)
    assert stacks(g) == {"p0": 800, "p1": 800, "p2": 240, "p3": 420}
    assert net_sum_zero(g) == {"p0": -200, "p1": -200, "p2": 180, "p3": 220}
    check_chips(g.s)


def test_a_stack_short_of_its_blind_pays_no_ante() -> None:
    """The blind first, then the ante from what is left: a small blind of 3 chips is all-in for its blind."""
    g = seated([3, 1000, 1000, 997], mode="holdem", ante="everyone", antePercent=50)
    hand = g.s.hand
    assert hand.bettors["p0"].committed_total == 3 and hand.bettors["p0"].all_in
    assert "p0" not in hand.antes and view(g.s, None)["seats"][0]["ante"] == 0
    assert [e["from"] for e in g.ev if e["type"] == "ante"] == ["p1", "p2", "p3"]


def test_a_stack_that_cannot_pay_the_whole_ante_is_all_in_for_the_rest() -> None:
    g = seated([1000, 1000, 3, 997], mode="holdem", ante="everyone", antePercent=50)
    b = g.s.hand.bettors["p2"]
    assert (b.committed_total, b.stack, b.all_in) == (3, 0, True)
    assert g.to_act == "p3"  # the all-in player is skipped


# --- the big-blind ante -----------------------------------------------------------------------------------

def test_big_blind_ante_is_dead_money_in_the_main_pot() -> None:
    g = seated([1000, 1000, 1000, 1000], mode="holdem", ante="bigBlind", antePercent=100)
    hand = g.s.hand
    assert hand.dead == 10 and hand.antes == {"p1": 10}
    assert hand.bettors["p1"].committed_total == 10  # (the blind: the ante is not its bet)
    v = view(g.s, None)
    seats = {s["id"]: s for s in v["seats"]}
    assert (seats["p1"]["committedTotal"], seats["p1"]["ante"], seats["p0"]["ante"]) == (20, 10, 0)
    assert v["potTotal"] == 25 and v["currentBet"] == 10 and pots(g) == [(10, ["p0", "p1", "p2", "p3"])]
    assert v["houseRules"]["ante"] == {"kind": "bigBlind", "amount": 10}
    assert [e["text"] for e in v["publicLog"]][-1] == "p1 빅 블라인드 앤티 10"


def test_big_blind_ante_never_comes_back_as_an_uncalled_bet() -> None:
    """p2 raises, everyone folds: p2's unmatched raise comes back, the blinds and the dead ante are won."""
    g = seated([1000, 1000, 1000, 1000], mode="holdem", ante="bigBlind", antePercent=100)
    g.bet("nl.raise", to=30)
    for _ in range(3):
        g.bet("nl.fold")
    assert net_sum_zero(g) == {"p0": -5, "p1": -20, "p2": 25, "p3": 0}
    assert stacks(g) == {"p0": 995, "p1": 980, "p2": 1025, "p3": 1000}


def test_big_blind_ante_walk_gives_the_big_blind_back_its_ante() -> None:
    g = seated([1000, 1000, 1000, 1000], mode="holdem", ante="bigBlind", antePercent=100)
    for _ in range(3):
        g.bet("nl.fold")
    assert net_sum_zero(g) == {"p0": -5, "p1": 5, "p2": 0, "p3": 0}


def test_big_blind_ante_side_pots_keep_the_dead_ante_in_the_main_pot() -> None:
    g = seated([1000, 1000, 50, 300], mode="holdem", ante="bigBlind", antePercent=100)
    rig(g.s, p2=[C("As"), C("Ad")], p3=[C("Ks"), C("Kd")], p0=[C("7c"), C("2d")], p1=[C("8c"), C("3d")],
        deck=[C("4h"), C("Qh"), C("9s"), C("5c"), C("4c"), C("Jd"), C("4d"), C("6h")])
    g.bet("nl.allIn")  # p2 50
    g.bet("nl.allIn")  # p3 300
    g.bet("nl.call")
    g.bet("nl.call")
    assert pots(g) == [(210, ["p0", "p1", "p2", "p3"]), (750, ["p0", "p1", "p3"])]
    check_down(g)
    assert stacks(g) == {"p0": 700, "p1": 690, "p2": 210, "p3": 750}
    assert net_sum_zero(g)["p1"] == -310  # its blind, its call and its dead ante
    check_chips(g.s)


def test_big_blind_ante_with_a_short_big_blind_posts_the_blind_first() -> None:
    """15 chips for a 10 blind and a 10 ante: the whole blind, 5 of the ante (dead in the main pot); the
    others owe the full big blind, and the big blind can win 10 from each caller plus the dead 5."""
    g = seated([1000, 15, 985], mode="holdem", ante="bigBlind", antePercent=100)
    hand = g.s.hand
    assert (hand.bettors["p1"].committed_round, hand.antes, hand.dead) == (10, {"p1": 5}, 5)
    assert hand.bettors["p1"].all_in
    rig(g.s, p1=[C("As"), C("Ad")], p0=[C("7c"), C("2d")], p2=[C("8c"), C("3d")],
        deck=[C("4h"), C("Qh"), C("9s"), C("5c"), C("4c"), C("Jd"), C("4d"), C("6h")])
    assert legal(g, "p2")["nl.call"]["amount"] == 10
    g.bet("nl.call")  # p2
    g.bet("nl.call")  # p0 completes
    assert pots(g) == [(35, ["p0", "p1", "p2"])]
    check_down(g)
    assert stacks(g) == {"p0": 990, "p1": 35, "p2": 975}
    assert net_sum_zero(g)["p1"] == 20
    check_chips(g.s)


def test_big_blind_ante_with_a_big_blind_short_of_its_blind_pays_no_ante() -> None:
    g = seated([1000, 7, 993], mode="holdem", ante="bigBlind", antePercent=100)
    hand = g.s.hand
    assert hand.antes == {} and hand.dead == 0 and hand.bettors["p1"].committed_round == 7
    assert view(g.s, None)["currentBet"] == 10  # rulings.md 4, as without the ante
    assert not [e for e in g.ev if e["type"] == "ante"]


def test_big_blind_ante_counts_in_the_pot_limit() -> None:
    """Omaha pot limit: the dead ante is in the pot, so the first raise may go to 10 + (5 + 10 + 10) + 10."""
    g = seated([1000, 1000, 1000, 1000], mode="omaha", ante="bigBlind", antePercent=100)
    assert legal(g, "p2")["nl.raise"]["max"] == 45
    plain = seated([1000, 1000, 1000, 1000], mode="omaha")
    assert legal(plain, "p2")["nl.raise"]["max"] == 35


def test_big_blind_ante_belongs_to_its_payer_in_the_ledger_while_the_hand_runs() -> None:
    g = seated([1000, 1000, 1000, 1000], mode="holdem", ante="bigBlind", antePercent=100)
    acc = game_accounts(g.s)
    assert acc["unowned"] == 0 and acc["running"]
    assert [s["net"] for s in acc["seats"]] == [0, 0, 0, 0]


# --- the straddle -----------------------------------------------------------------------------------------

def test_straddle_is_posted_by_the_seat_after_the_big_blind_who_acts_last() -> None:
    g = seated([1000] * 5, mode="holdem", straddle=True)
    hand = g.s.hand
    assert hand.straddler == "p2" and hand.bettors["p2"].committed_round == 20
    assert g.order == ["p3", "p4", "p0", "p1", "p2"] and g.to_act == "p3"
    v = view(g.s, "p3")
    assert v["currentBet"] == 20 and v["houseRules"]["straddle"] == 20
    assert [s["straddle"] for s in v["seats"]] == [False, False, True, False, False]
    assert v["seats"][2]["lastAction"] == "straddle"
    lg = legal(g, "p3")
    assert lg["nl.call"]["amount"] == 20 and lg["nl.raise"]["min"] == 40  # the straddle is the bigger blind
    assert "p2 스트래들 20" in [e["text"] for e in v["publicLog"]]


def test_straddle_minimum_reraise_keeps_the_raise_size() -> None:
    g = seated([1000] * 5, mode="holdem", straddle=True)
    g.bet("nl.raise", to=40)
    assert legal(g, "p4")["nl.raise"]["min"] == 60
    with pytest.raises(Rejected, match="최소 레이즈는 60"):
        g.bet("nl.raise", to=50)


def test_straddler_has_the_option_when_everybody_calls() -> None:
    g = seated([1000] * 5, mode="holdem", straddle=True)
    for _ in range(4):
        g.bet("nl.call")
    assert g.to_act == "p2"
    assert set(legal(g, "p2")) == {"nl.fold", "nl.check", "nl.raise", "nl.allIn"}
    g.bet("nl.check")
    assert g.street() == 1 and g.to_act == "p0"  # after the flop: the usual order


def test_no_straddle_with_three_players_or_heads_up() -> None:
    for n in (2, 3):
        g = seated([1000] * n, mode="holdem", straddle=True)
        assert g.s.hand.straddler is None and view(g.s, None)["currentBet"] == 10
        assert "straddle" not in {e.get("kind") for e in g.ev}


def test_no_straddle_from_a_stack_it_would_put_all_in() -> None:
    g = seated([1000, 1000, 20, 1000], mode="holdem", straddle=True)
    assert g.s.hand.straddler is None and g.to_act == "p2"
    g = seated([1000, 1000, 21, 1000], mode="holdem", straddle=True)
    assert g.s.hand.straddler == "p2" and g.s.hand.bettors["p2"].stack == 1


def test_no_straddle_from_a_player_who_left() -> None:
    def gone(state: State) -> None:
        state.seats[2].status = "left"

    g = seated([1000] * 4, mode="holdem", straddle=True, prepare=gone)
    assert g.s.hand.straddler is None and g.s.hand.bettors["p2"].folded
    assert g.to_act == "p3"


def test_an_entering_straddler_posts_the_straddle_only() -> None:
    def entering(state: State) -> None:
        state.seats[2].entry_due = True

    g = seated([1000] * 5, mode="holdem", straddle=True, prepare=entering)
    assert g.s.hand.bettors["p2"].committed_round == 20
    assert [(e["from"], e["kind"]) for e in g.ev if e["type"] == "blind"] == [
        ("p0", "sb"), ("p1", "bb"), ("p2", "straddle")]


def test_straddle_and_big_blind_ante_together() -> None:
    g = seated([1000] * 4, mode="omaha", straddle=True, ante="bigBlind", antePercent=100)
    v = view(g.s, None)
    assert v["potTotal"] == 5 + 10 + 20 + 10 and v["currentBet"] == 20
    # pot limit for p3: 20 + (45 + 20)
    assert legal(g, "p3")["nl.raise"]["max"] == 85
    g.bet("nl.fold")
    g.bet("nl.fold")  # p0
    g.bet("nl.fold")  # p1: the straddler wins the blinds and the dead ante
    assert net_sum_zero(g) == {"p0": -5, "p1": -20, "p2": 25, "p3": 0}


def test_straddle_with_korean_betting_is_the_bet_to_call() -> None:
    g = seated([1000] * 4, mode="holdem", betting="korean", straddle=True)
    assert g.to_act == "p3"
    lg = legal(g, "p3")
    assert lg["k.call"]["amount"] == 20 and "k.check" not in lg


# --- options ----------------------------------------------------------------------------------------------

ANTE_CHOICES = "앤티(ante)는 none(없음), everyone(모두 앤티), bigBlind(빅 블라인드 앤티) 중에서 골라 주세요"
PERCENT_CHOICES = "앤티 크기(antePercent)는 빅 블라인드의 10, 25, 50, 100, 150(%) 중에서 골라 주세요"


@pytest.mark.parametrize(("data", "message"), [
    ({"ante": "all"}, ANTE_CHOICES),
    ({"antePercent": 30}, PERCENT_CHOICES),
    ({"antePercent": 100.0}, PERCENT_CHOICES),
    ({"straddle": 1}, "스트래들(straddle)은 켬(true) 또는 끔(false)만 고를 수 있어요"),
    ({"runItTwice": "yes"}, "런 잇 트와이스(runItTwice)는 켬(true) 또는 끔(false)만 고를 수 있어요"),
])
def test_options_refused_in_korean(data: dict[str, Any], message: str) -> None:
    with pytest.raises(Rejected) as info:
        PokerOptions.from_json({"mode": "holdem", **data})
    assert info.value.code == "bad_options" and info.value.message == message


def test_options_round_trip_and_default_off() -> None:
    opts = PokerOptions.from_json({"mode": "omaha", "ante": "bigBlind", "antePercent": 150, "straddle": True,
                                   "runItTwice": True})
    assert PokerOptions.from_json(opts.to_json()) == opts
    default = PokerOptions.from_json({"mode": "holdem"}).to_json()
    assert (default["ante"], default["antePercent"], default["straddle"], default["runItTwice"]) == (
        "none", 100, False, False)


def test_off_by_default_the_view_has_no_new_keys() -> None:
    g = seated([1000] * 4, mode="holdem")
    v = view(g.s, "p0")
    assert "houseRules" not in v
    assert all("ante" not in s and "straddle" not in s for s in v["seats"])


@pytest.mark.parametrize("mode", ["sevenPoker", "badugi", "fiveDraw", "indian"])
def test_ignored_outside_the_blind_games(mode: str) -> None:
    g = G(4, mode=mode, ante="bigBlind", straddle=True, runItTwice=True)
    v = view(g.s, None)
    assert "houseRules" not in v
    assert all("ante" not in s and "straddle" not in s for s in v["seats"])
    assert g.s.hand.antes == {} and g.s.hand.straddler is None and g.s.hand.dead == 0
    check_chips(g.s)
    check_cards(g.s)
