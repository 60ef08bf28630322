"""Run it twice (런 잇 트와이스, docs/rules-extensions.md) through the engine.

Each test is one decision of the ruling: when the decision is offered and to whom, that it is secret until
everyone answered, that any no (a timeout, a player who left) deals once, the second board from the same
deck, each pot halved with the odd chip to the first board and each half split by §6.1, side pots, Omaha
Hi-Lo, and the view's two boards.
"""

from __future__ import annotations

import json

import pytest
from engine_support import C, G, check_cards, check_chips, check_no_leak, rig, seated

from pokerroom.engine import State, apply, deadline, on_timeout, state_hash, view
from pokerroom.rejections import Rejected

#: burn cards for rigged decks (never dealt to anybody in these tests)
BURNS = [C("Th"), C("Td"), C("Tc"), C("Ts"), C("2h"), C("2d")]


def deck(first: str, second: str = "", shared: int = 0) -> list[object]:
    """A deck top rigged before the flop: the first run street by street (a burn before each), then the
    second run's own cards the same way, for the streets after the ``shared`` board cards."""
    burns = iter(BURNS)
    streets = [(0, 3), (3, 4), (4, 5)]
    one = [C(t) for t in first.split()]
    out: list[object] = []
    for lo, hi in streets:
        out += [next(burns), *one[lo:hi]]
    two = [C(t) for t in second.split()]
    if two:
        for lo, hi in streets:
            if hi > shared:
                out += [next(burns), *two[lo - shared:hi - shared]]
    return out


def answer_all(g: G, agree: bool = True) -> None:
    for pid in list(view(g.s, None)["pending"]):
        g.do(pid, "runTwice", agree=agree)


def awards(g: G) -> list[tuple[int, int, str, int]]:
    """(board, potIndex, to, amount) of every award."""
    return [(a.get("board", -1), a["potIndex"], a["to"], a["amount"]) for a in view(g.s, None)["awards"]]


def heads_up_all_in(**opts: object) -> G:
    """Heads-up hold'em, both all-in preflop: p1 deals (small blind) and shoves, p0 calls."""
    g = seated([1000, 1000], mode="holdem", runItTwice=True, **opts)
    g.bet("nl.allIn")
    g.bet("nl.call")
    return g


# --- when and to whom ---------------------------------------------------------------------------------------

def test_offered_when_betting_closes_before_the_flop_to_every_player_still_in() -> None:
    g = heads_up_all_in()
    v = view(g.s, "p0")
    assert v["phase"] == "runTwice" and v["streetName"] == "런 잇 트와이스"
    assert v["pending"] == ["p0", "p1"] and v["board"] == []
    assert v["me"]["legalActions"] == [{"type": "runTwice", "agree": [True, False]}]
    assert v["houseRules"]["runItTwice"] == {"deciding": True, "agreed": None, "votes": None, "board2": []}
    assert v["deadlineAt"] == g.now + 20_000  # turnSeconds: a yes or a no, not a card choice
    assert [e["type"] for e in g.ev][-1] == "runTwiceOffer"


def test_the_covering_player_decides_too() -> None:
    """p2 shoves 300, p0 folds, p1 (1000) calls: p1 keeps chips but nobody is left to bet against."""
    g = seated([1000, 1000, 300], mode="holdem", runItTwice=True)
    g.bet("nl.allIn")
    g.bet("nl.fold")
    g.bet("nl.call")
    assert view(g.s, None)["pending"] == ["p1", "p2"]


def test_offered_on_the_turn_with_the_board_so_far_shared() -> None:
    g = seated([1000, 1000], mode="holdem", runItTwice=True)
    rig(g.s, p0=[C("As"), C("Ad")], p1=[C("Ks"), C("Kd")], deck=deck("2c 7s 9c Jd 3h", "Kc", shared=4))
    g.bet("nl.call")
    g.bet("nl.check")
    g.bet("nl.check")  # the flop checked
    g.bet("nl.check")
    assert g.street() == 2
    g.bet("nl.allIn")
    g.bet("nl.call")
    assert view(g.s, None)["phase"] == "runTwice" and len(view(g.s, None)["board"]) == 4
    answer_all(g)
    v = view(g.s, None)
    assert [c["id"] for c in v["board"][:4]] == [c["id"] for c in v["houseRules"]["runItTwice"]["board2"][:4]]
    assert v["houseRules"]["runItTwice"]["board2"][4] == C("Kc").to_json()
    assert awards(g) == [(0, 0, "p0", 1000), (1, 0, "p1", 1000)]


def test_not_offered_on_the_river_nor_when_off_nor_against_nobody() -> None:
    g = seated([1000, 1000], mode="holdem", runItTwice=True)
    g.bet("nl.call")
    g.bet("nl.check")
    for _ in range(3):
        if g.street() == 3:
            break
        g.bet("nl.check")
        g.bet("nl.check")
    g.bet("nl.allIn")
    g.bet("nl.call")
    assert view(g.s, None)["phase"] == "handEnd" and g.s.hand.rit_votes is None
    off = seated([1000, 1000], mode="holdem")
    off.bet("nl.allIn")
    off.bet("nl.call")
    assert view(off.s, None)["phase"] == "handEnd" and "houseRules" not in view(off.s, None)
    folded = seated([1000, 1000], mode="holdem", runItTwice=True)
    folded.bet("nl.allIn")
    folded.bet("nl.fold")
    assert view(folded.s, None)["phase"] == "handEnd"


def test_not_offered_while_two_players_can_still_bet() -> None:
    """p2 is all-in for 100, p0 and p1 call and keep chips: they bet on, nobody is asked yet."""
    g = seated([1000, 1000, 100], mode="holdem", runItTwice=True)
    g.bet("nl.allIn")
    g.bet("nl.call")
    g.bet("nl.call")
    assert view(g.s, None)["phase"] == "betting" and g.street() == 1


# --- the answers --------------------------------------------------------------------------------------------

def test_answers_are_secret_until_everybody_answered() -> None:
    g = heads_up_all_in()
    ev = g.do("p0", "runTwice", agree=False)
    assert ev == [{"type": "runTwiceAnswered", "player": "p0", "auto": False}]
    for viewer in ("p0", "p1", None):
        v = view(g.s, viewer)
        assert v["houseRules"]["runItTwice"]["votes"] is None and v["pending"] == ["p1"]
        assert "false" not in json.dumps(v["houseRules"]["runItTwice"]).replace('"deciding": true', "")
    assert view(g.s, "p0")["me"]["legalActions"] == []


def test_any_no_deals_once_and_names_who_declined() -> None:
    g = heads_up_all_in()
    g.do("p0", "runTwice", agree=False)
    g.do("p1", "runTwice", agree=True)
    v = view(g.s, None)
    assert v["phase"] == "handEnd" and len(v["board"]) == 5
    assert v["houseRules"]["runItTwice"] == {"deciding": False, "agreed": False,
                                             "votes": {"p0": False, "p1": True}, "board2": []}
    assert all("board" not in a for a in v["awards"])
    assert "런 잇 트와이스: p0 거절, 한 번만 돌려요" in [e["text"] for e in v["publicLog"]]
    check_cards(g.s)
    check_chips(g.s)


def test_refusals() -> None:
    g = heads_up_all_in()
    g.do("p0", "runTwice", agree=True)
    with pytest.raises(Rejected) as info:
        g.do("p0", "runTwice", agree=True)
    assert (info.value.code, info.value.message) == ("already_answered", "이미 답했어요")
    with pytest.raises(Rejected) as bad:
        g.do("p1", "runTwice")
    assert bad.value.code == "bad_action"
    early = seated([1000, 1000], mode="holdem", runItTwice=True)
    with pytest.raises(Rejected) as wrong:
        early.do("p0", "runTwice", agree=True)
    assert wrong.value.code == "wrong_phase"


def test_a_folded_player_is_not_asked() -> None:
    g = seated([1000, 1000, 300], mode="holdem", runItTwice=True)
    g.bet("nl.allIn")
    g.bet("nl.fold")
    g.bet("nl.call")
    with pytest.raises(Rejected) as info:
        g.do("p0", "runTwice", agree=True)
    assert info.value.code == "already_folded"


def test_timeout_answers_no_and_counts_as_a_timeout() -> None:
    g = heads_up_all_in()
    g.do("p0", "runTwice", agree=True)
    due = deadline(g.s)
    assert due is not None
    s, ev = on_timeout(g.s, due - 1)
    assert s is g.s and ev == []
    s, ev = on_timeout(g.s, due)
    assert {"type": "timeout", "player": "p1", "phase": "runTwice"} in ev
    assert {"type": "runTwiceAnswered", "player": "p1", "auto": True} in ev
    assert view(s, None)["houseRules"]["runItTwice"]["agreed"] is False
    assert s.seat_of("p1").timeouts_in_row == 1


def test_a_player_who_left_answers_no() -> None:
    """An all-in player who leaves stays in the hand (all-in players never fold) and answers no."""
    g = seated([100, 300, 1000], mode="holdem", runItTwice=True)
    for _ in range(3):
        g.bet("nl.allIn")
    g.do("p1", "runTwice", agree=True)
    g.do("p2", "runTwice", agree=True)
    g.s, _ = apply(g.s, "p0", {"type": "leave"}, g.now + 1)
    v = view(g.s, None)
    assert v["phase"] == "handEnd"
    assert v["houseRules"]["runItTwice"]["votes"] == {"p0": False, "p1": True, "p2": True}


def test_the_covering_player_leaving_folds_and_the_all_in_player_wins() -> None:
    g = seated([1000, 1000, 300], mode="holdem", runItTwice=True)
    g.bet("nl.allIn")
    g.bet("nl.fold")
    g.bet("nl.call")
    g.s, _ = apply(g.s, "p1", {"type": "leave"}, g.now + 1)
    v = view(g.s, None)
    assert v["phase"] == "handEnd" and v["awards"][0]["to"] == "p2" and v["board"] == []
    check_chips(g.s)


# --- the boards and the pots --------------------------------------------------------------------------------

def test_two_boards_from_the_same_deck_each_deciding_half() -> None:
    g = seated([1000, 1000], mode="holdem", runItTwice=True)
    rig(g.s, p0=[C("As"), C("Ad")], p1=[C("Ks"), C("Kd")], deck=deck("2c 7s 9c Jd 3h", "Kc 4d 8s 5c 6h"))
    top = list(g.s.hand.deck[:16])  # burn, flop, burn, turn, burn, river; then the same for the second run
    g.bet("nl.allIn")
    g.bet("nl.call")
    answer_all(g)
    v = view(g.s, "p0")
    second = v["houseRules"]["runItTwice"]["board2"]
    assert [c["id"] for c in v["board"] + second] == [top[k].id for k in (1, 2, 3, 5, 7, 9, 10, 11, 13, 15)]
    assert awards(g) == [(0, 0, "p0", 1000), (1, 0, "p1", 1000)]
    assert [a["hand"] for a in v["awards"]] == ["에이스 원페어", "킹 트리플"]
    entries = {e["id"]: e for e in v["showdown"]}
    assert entries["p1"]["second"]["rankName"] == "킹 트리플" and entries["p1"]["rankName"] == "킹 원페어"
    assert v["handNet"] == {"p0": 0, "p1": 0}
    log = [e["text"] for e in v["publicLog"]]
    assert "두 번째 보드: K♣ 4◆ 8♠" in log
    assert "p1 1,000칩 획득(보드 2): 킹 트리플이 p0의 에이스 원페어를 이김" in log
    assert "쇼다운: p0 에이스 원페어 · 보드2 에이스 원페어, p1 킹 원페어 · 보드2 킹 트리플" in log, log
    check_cards(g.s)
    check_chips(g.s)
    for viewer in ("p0", "p1", None):
        check_no_leak(g.s, viewer)


def test_odd_chip_goes_to_the_first_board_then_each_split_by_the_seat_rule() -> None:
    """Pot 2,005 (p0's folded small blind in it): board 1 gets 1,003, board 2 1,002. Both boards tie: board 1
    splits 502/501 (the odd chip to p1, first after the dealer among the winners), board 2 501/501."""
    g = seated([1000, 1000, 1000], mode="holdem", runItTwice=True)
    rig(g.s, p1=[C("Ah"), C("Kh")], p2=[C("Ad"), C("Kd")], p0=[C("3c"), C("4c")],
        deck=deck("2c 7s 9c Jd 3h", "2s 7c 9h Js 4d"))
    g.bet("nl.allIn")  # p2
    g.bet("nl.fold")  # p0
    g.bet("nl.call")  # p1
    answer_all(g)
    assert sorted(awards(g)) == [(0, 0, "p1", 502), (0, 0, "p2", 501), (1, 0, "p1", 501), (1, 0, "p2", 501)]
    assert {s.id: s.stack for s in g.s.seats} == {"p0": 995, "p1": 1003, "p2": 1002}
    assert view(g.s, None)["awards"][0]["why"] == "에이스 하이 동점으로 나눔"


def test_side_pots_of_different_sizes_are_each_halved() -> None:
    """p0 100, p1 300, p2 1,000 all-in preflop: main 300 (all three), side 400 (p1, p2); p2's unmatched 700
    comes back. Board 1: p0 > p1 > p2; board 2: p2 best."""
    g = seated([100, 300, 1000], mode="holdem", runItTwice=True)
    rig(g.s, p0=[C("Qs"), C("Qh")], p1=[C("Js"), C("Jh")], p2=[C("9s"), C("9h")],
        deck=deck("2c 5d 7h Kc 3s", "9c 4d 8s Ac 6h"))
    g.bet("nl.allIn")  # p2
    g.bet("nl.allIn")  # p0
    g.bet("nl.allIn")  # p1
    answer_all(g)
    assert sorted(awards(g)) == [(0, 0, "p0", 150), (0, 1, "p1", 200), (1, 0, "p2", 150), (1, 1, "p2", 200)]
    assert {s.id: s.stack for s in g.s.seats} == {"p0": 150, "p1": 200, "p2": 1050}
    net = view(g.s, None)["handNet"]
    assert net == {"p0": 50, "p1": -100, "p2": 50}
    check_chips(g.s)


def test_omaha_hi_lo_halves_each_board_again() -> None:
    g = seated([1000, 1000], mode="omaha", betting="noLimit", omahaHiLo=True, runItTwice=True,
               ante="everyone", antePercent=10)
    g.bet("nl.allIn")
    g.bet("nl.call")
    answer_all(g)
    v = view(g.s, None)
    by_board = {0: 0, 1: 0}
    for a in v["awards"]:
        by_board[a["board"]] += a["amount"]
        assert a["side"] in ("high", "low", None)
    total = sum(p["amount"] for p in v["pots"])
    assert by_board == {0: total - total // 2, 1: total // 2}
    check_chips(g.s)


def test_same_seed_and_answers_give_the_same_boards() -> None:
    def play() -> State:
        g = seated([500, 700, 900], mode="omaha", betting="noLimit", runItTwice=True, seed=7)
        for _ in range(3):
            g.bet("nl.allIn")
        answer_all(g)
        return g.s

    a, b = play(), play()
    assert state_hash(a) == state_hash(b) and a.hand.board2 == b.hand.board2 and len(a.hand.board2) == 5
    restored = State.from_json(json.loads(json.dumps(a.to_json())))
    assert state_hash(restored) == state_hash(a)


def test_not_offered_when_the_deck_cannot_hold_two_runs() -> None:
    """Omaha with ten players all-in before the flop: 12 cards left, two runs with their burns need 16, so the
    board is dealt once without asking (and not asked later either, when the turn and river would fit);
    with nine, 16 are left and it is offered."""
    for n, offered in ((10, False), (9, True)):
        g = seated([100] * n, mode="omaha", betting="noLimit", runItTwice=True)
        while g.to_act is not None:
            g.bet("nl.allIn" if "nl.allIn" in g.legal(g.to_act) else "nl.call")
        v = view(g.s, None)
        assert v["phase"] == ("runTwice" if offered else "handEnd")
        if not offered:
            assert len(v["board"]) == 5 and v["houseRules"]["runItTwice"]["votes"] is None
        check_cards(g.s)
