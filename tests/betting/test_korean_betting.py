"""Korean pot betting (poker.md §5.2, §8.2, §10) with the spec's own numbers."""

from __future__ import annotations

import pytest
from betting_support import CANNOT_RAISE, act, anted, refused, types

from pokerroom.betting import (
    BettingRound,
    Bettor,
    apply_action,
    legal_actions,
    pot_total,
    round_over,
    start_round,
)


def korean(bettors: dict[str, Bettor], order: str, *, max_raise: str = "half", base: int = 10,
           **kw: int | bool) -> BettingRound:
    return start_round("korean", base, max_raise, list(order), bettors, **kw)  # type: ignore[arg-type]


def amounts(rnd: BettingRound, bettors: dict[str, Bettor], pid: str) -> dict[str, int]:
    return {a["type"]: a["amount"] for a in legal_actions(rnd, bettors, pid)}


def test_spec_example_280_step_by_step() -> None:
    """§5.2: ante 40 → 삥 10 → 하프 40 → 따당 80 → 다이 → 콜 70 → 콜 40, pot 280, round over."""
    b = anted("ABCD")
    rnd = korean(b, "ABCD")
    assert pot_total(rnd, b) == 40 and rnd.to_act == "A"
    assert act(rnd, b, "A", "k.ping") == 10
    assert (pot_total(rnd, b), rnd.current_bet) == (50, 10)
    assert amounts(rnd, b, "B")["k.half"] == 40
    assert act(rnd, b, "B", "k.half") == 40
    assert (pot_total(rnd, b), rnd.current_bet) == (90, 40)
    assert amounts(rnd, b, "C")["k.ddadang"] == 80
    assert act(rnd, b, "C", "k.ddadang") == 80
    assert (pot_total(rnd, b), rnd.current_bet) == (170, 80)
    assert act(rnd, b, "D", "k.die") == 0
    assert types(rnd, b, "A") == ["k.call", "k.die"]
    assert act(rnd, b, "A", "k.call") == 70
    assert pot_total(rnd, b) == 240
    assert types(rnd, b, "B") == ["k.call", "k.die"]
    result = apply_action(rnd, b, "B", {"type": "k.call"})
    assert result.moved == 40 and result.round_over and not result.one_left
    assert pot_total(rnd, b) == 280 == 40 + 80 * 3
    assert round_over(rnd, b) and rnd.to_act is None
    assert [b[p].committed_round for p in "ABC"] == [80, 80, 80]


def test_opening_menu_and_quarter_floor() -> None:
    """Unopened: check/삥/쿼터/하프/다이; a quarter of 20 is 5, raised to the base unit 10."""
    b = anted("AB")
    rnd = korean(b, "AB")
    assert amounts(rnd, b, "A") == {"k.check": 0, "k.ping": 10, "k.quarter": 10, "k.half": 10,
                                    "k.die": 0}
    b4 = anted("ABCD")
    rnd4 = korean(b4, "ABCD", max_raise="full")
    assert amounts(rnd4, b4, "A") == {"k.check": 0, "k.ping": 10, "k.quarter": 10, "k.half": 20,
                                      "k.full": 40, "k.die": 0}


@pytest.mark.parametrize("first", ["k.call", "k.check"])
def test_half_after_call_or_check_is_refused(first: str) -> None:
    """§10: a player who called or checked may not 하프 later in the same round."""
    b = anted("ABC")
    rnd = korean(b, "ABC")
    if first == "k.call":
        act(rnd, b, "A", "k.ping")
        act(rnd, b, "B", "k.call")
        act(rnd, b, "C", "k.half")
        act(rnd, b, "A", "k.call")
        who = "B"
    else:
        act(rnd, b, "A", "k.check")
        act(rnd, b, "B", "k.ping")
        act(rnd, b, "C", "k.call")
        who = "A"
    err = refused(rnd, b, who, {"type": "k.half"})
    assert (err.code, err.message) == ("cannot_raise", CANNOT_RAISE)
    for raise_type in ("k.ping", "k.ddadang", "k.quarter"):
        assert refused(rnd, b, who, {"type": raise_type}).code == "cannot_raise"


def test_boss_check_then_ping_then_boss_only_call_or_die() -> None:
    b = anted("ABC")
    rnd = korean(b, "ABC")
    act(rnd, b, "A", "k.check")
    assert "k.ping" in types(rnd, b, "B") and "k.check" in types(rnd, b, "B")
    act(rnd, b, "B", "k.ping")
    assert types(rnd, b, "C") == ["k.call", "k.ddadang", "k.quarter", "k.half", "k.die"]
    act(rnd, b, "C", "k.call")
    assert types(rnd, b, "A") == ["k.call", "k.die"]
    assert refused(rnd, b, "A", {"type": "k.check"}).message == "콜 금액이 있어서 체크할 수 없어요"
    assert act(rnd, b, "A", "k.call") == 10
    assert round_over(rnd, b)


def test_all_check_ends_round_without_betting() -> None:
    b = anted("ABCD")
    rnd = korean(b, "BCDA")
    for pid in "BCD":
        assert not apply_action(rnd, b, pid, {"type": "k.check"}).round_over
    result = apply_action(rnd, b, "A", {"type": "k.check"})
    assert result.round_over and result.moved == 0 and not result.betting_closed
    assert pot_total(rnd, b) == 40 and rnd.to_act is None


def test_full_refused_under_half_and_allowed_under_full() -> None:
    b = anted("ABC")
    rnd = korean(b, "ABC")
    act(rnd, b, "A", "k.ping")
    err = refused(rnd, b, "B", {"type": "k.full"})
    assert err.code == "full_not_allowed" and "풀 베팅" in err.message
    b2 = anted("ABC")
    rnd2 = korean(b2, "ABC", max_raise="full")
    act(rnd2, b2, "A", "k.ping")
    # pot 40, toCall 10: 10 + (40 + 10) = 60
    assert amounts(rnd2, b2, "B")["k.full"] == 60
    assert act(rnd2, b2, "B", "k.full") == 60


def test_ping_only_unopened_and_ddadang_only_facing_a_bet() -> None:
    b = anted("ABC")
    rnd = korean(b, "ABC")
    assert refused(rnd, b, "A", {"type": "k.ddadang"}).code == "cannot_ddadang"
    assert refused(rnd, b, "A", {"type": "k.call"}).code == "nothing_to_call"
    act(rnd, b, "A", "k.ping")
    assert refused(rnd, b, "B", {"type": "k.ping"}).code == "cannot_ping"


def test_all_in_for_less_is_a_partial_call_and_for_more_a_raise() -> None:
    b = anted("ABC")
    b["B"].stack = 25
    b["C"].stack = 15
    rnd = korean(b, "ABC")
    act(rnd, b, "A", "k.half")  # pot 30 → 15
    assert rnd.current_bet == 15
    # B: toCall 15, stack 25: 따당 30 and 하프 15 + 30 = 45 are capped at 25, still above toCall: a raise.
    assert legal_actions(rnd, b, "B")[1] == {"type": "k.ddadang", "amount": 25, "allIn": True}
    result = apply_action(rnd, b, "B", {"type": "k.ddadang"})
    assert result.all_in and rnd.current_bet == 25 and b["B"].raised
    # C: 15 chips, toCall 25: only an all-in partial call or die.
    assert legal_actions(rnd, b, "C") == [
        {"type": "k.call", "amount": 15, "allIn": True},
        {"type": "k.die", "amount": 0, "allIn": False},
    ]
    assert refused(rnd, b, "C", {"type": "k.half"}).code == "short_to_raise"
    assert act(rnd, b, "C", "k.call") == 15
    assert b["C"].all_in and rnd.current_bet == 25
    result = apply_action(rnd, b, "A", {"type": "k.call"})
    assert result.moved == 10 and result.round_over and result.betting_closed


def test_raise_needs_chips_above_to_call() -> None:
    """An all-in that does not exceed toCall is only a call: raise actions are refused."""
    b = anted("AB")
    b["B"].stack = 20
    rnd = korean(b, "AB")
    act(rnd, b, "A", "k.half")  # 10
    act_b = amounts(rnd, b, "B")
    assert act_b["k.ddadang"] == 20 and act_b["k.call"] == 10
    b2 = anted("ABC")
    b2["B"].stack = 10
    rnd2 = korean(b2, "ABC")
    act(rnd2, b2, "A", "k.half")  # 15
    assert types(rnd2, b2, "B") == ["k.call", "k.die"]
    assert refused(rnd2, b2, "B", {"type": "k.half"}).code == "short_to_raise"


def test_blinds_before_a_korean_round() -> None:
    """Hold'em with Korean betting: blinds posted, opened; BB may check its option or raise."""
    b = {p: Bettor(p, 1000) for p in "DSBU"}
    b["S"].stack, b["S"].committed_round, b["S"].committed_total = 995, 5, 5
    b["B"].stack, b["B"].committed_round, b["B"].committed_total = 990, 10, 10
    rnd = korean(b, "UDSB", current_bet=10, opened=True)
    assert rnd.opened and "k.ping" not in types(rnd, b, "U") and "k.check" not in types(rnd, b, "U")
    act(rnd, b, "U", "k.call")
    act(rnd, b, "D", "k.call")
    assert amounts(rnd, b, "S")["k.call"] == 5 and amounts(rnd, b, "S")["k.ddadang"] == 10
    act(rnd, b, "S", "k.call")
    assert types(rnd, b, "B") == ["k.check", "k.quarter", "k.half", "k.die"]
    result = apply_action(rnd, b, "B", {"type": "k.check"})
    assert result.round_over and pot_total(rnd, b) == 40


def test_die_ends_hand_when_one_left() -> None:
    b = anted("AB")
    rnd = korean(b, "AB")
    act(rnd, b, "A", "k.ping")
    result = apply_action(rnd, b, "B", {"type": "k.die"})
    assert result.one_left and result.round_over and not result.betting_closed
    assert refused(rnd, b, "B", {"type": "k.call"}).message == "이번 판에서 이미 다이했어요"


def test_turn_and_system_refusals() -> None:
    b = anted("ABC")
    rnd = korean(b, "ABC")
    assert refused(rnd, b, "B", {"type": "k.check"}).message == "지금은 내 차례가 아니에요"
    assert legal_actions(rnd, b, "B") == []
    assert refused(rnd, b, "A", {"type": "nl.check"}).code == "wrong_betting_system"
    assert refused(rnd, b, "A", {"type": "k.allIn"}).code == "unknown_action"
    assert refused(rnd, b, "Z", {"type": "k.check"}).code == "not_in_hand"


def test_no_betting_when_nobody_can_answer() -> None:
    """Everyone but one all-in from the antes: no round at all (cards are run out)."""
    b = anted("ABC")
    b["B"].stack = 0
    b["B"].all_in = True
    b["C"].stack = 0
    b["C"].all_in = True
    rnd = korean(b, "ABC")
    assert rnd.to_act is None and round_over(rnd, b)


def test_lone_player_facing_an_all_in_may_only_call_or_die() -> None:
    b = anted("AB")
    b["A"].stack = 30
    rnd = korean(b, "AB")
    act(rnd, b, "A", "k.half")  # pot 20 → 10; A keeps 20 behind, so B may still raise
    assert types(rnd, b, "B") == ["k.call", "k.ddadang", "k.quarter", "k.half", "k.die"]
    b2 = anted("AB")
    b2["A"].stack = 5
    rnd2 = korean(b2, "AB")
    r = apply_action(rnd2, b2, "A", {"type": "k.ping"})
    assert r.all_in and r.moved == 5 and not r.round_over
    assert types(rnd2, b2, "B") == ["k.call", "k.die"]
    assert refused(rnd2, b2, "B", {"type": "k.half"}).code == "no_one_to_raise"
    r = apply_action(rnd2, b2, "B", {"type": "k.call"})
    assert r.round_over and r.betting_closed and r.moved == 5
