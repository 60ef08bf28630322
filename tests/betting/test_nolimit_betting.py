"""No-limit / pot-limit betting (poker.md §5.3, §8.2, §10) with the spec's numbers; peer-bug regressions."""

from __future__ import annotations

import pytest
from betting_support import CANNOT_RAISE, act, refused, types

from pokerroom.betting import (
    BettingRound,
    Bettor,
    apply_action,
    legal_actions,
    pot_total,
    return_uncalled,
    round_over,
    start_round,
    validate_action,
)


def players(ids: str, stack: int = 1000) -> dict[str, Bettor]:
    return {p: Bettor(p, stack) for p in ids}


def post(b: Bettor, chips: int) -> None:
    """A posted blind: in this round's and this hand's commitment."""
    b.stack -= chips
    b.committed_round += chips
    b.committed_total += chips


def blinds_round(ids: str, order: str, sb: str, bb: str, stack: int = 1000,
                 system: str = "noLimit") -> tuple[BettingRound, dict[str, Bettor]]:
    b = players(ids, stack)
    post(b[sb], 5)
    post(b[bb], 10)
    rnd = start_round(system, 10, "half", list(order), b, current_bet=10, opened=True)  # type: ignore[arg-type]
    return rnd, b


def test_min_raise_45_refused_50_allowed() -> None:
    """§10: BB 10, A raises to 30; B's raise to 45 is refused (min 50), 50 is allowed."""
    rnd, b = blinds_round("ABSG", "ABSG", "S", "G")
    assert act(rnd, b, "A", "nl.raise", 30) == 30
    assert rnd.last_raise_size == 20
    raise_entry = legal_actions(rnd, b, "B")[2]
    assert raise_entry == {"type": "nl.raise", "min": 50, "max": 1000, "isBet": False}
    err = refused(rnd, b, "B", {"type": "nl.raise", "to": 45})
    assert (err.code, err.message) == ("raise_too_small", "최소 레이즈는 50이에요")
    assert act(rnd, b, "B", "nl.raise", 50) == 50


def test_min_bet_is_the_base_unit() -> None:
    b = players("AB")
    rnd = start_round("noLimit", 10, "half", ["A", "B"], b)
    entry = next(a for a in legal_actions(rnd, b, "A") if a["type"] == "nl.raise")
    assert entry == {"type": "nl.raise", "min": 10, "max": 1000, "isBet": True}
    assert refused(rnd, b, "A", {"type": "nl.raise", "to": 9}).message == "최소 벳은 10이에요"
    assert act(rnd, b, "A", "nl.raise", 10) == 10


def test_incomplete_all_in_does_not_reopen() -> None:
    """§10: A bets 100, B raises to 300, C all-in 350 (incomplete): A and B may only call or fold."""
    b = players("ABC")
    b["C"].stack = 350
    rnd = start_round("noLimit", 10, "half", ["A", "B", "C"], b)
    act(rnd, b, "A", "nl.raise", 100)
    act(rnd, b, "B", "nl.raise", 300)
    assert act(rnd, b, "C", "nl.allIn") == 350
    assert rnd.current_bet == 350 and rnd.last_raise_size == 200
    assert types(rnd, b, "A") == ["nl.fold", "nl.call"]
    err = refused(rnd, b, "A", {"type": "nl.raise", "to": 550})
    assert (err.code, err.message) == ("cannot_raise", CANNOT_RAISE)
    assert refused(rnd, b, "A", {"type": "nl.allIn"}).code == "cannot_raise"
    assert act(rnd, b, "A", "nl.call") == 250
    assert types(rnd, b, "B") == ["nl.fold", "nl.call"]
    assert refused(rnd, b, "B", {"type": "nl.raise", "to": 600}).message == CANNOT_RAISE
    result = apply_action(rnd, b, "B", {"type": "nl.call"})
    assert result.moved == 50 and result.round_over


def test_not_yet_acted_player_may_raise_after_incomplete_all_in() -> None:
    rnd, b = blinds_round("ABCSG", "ABCSG", "S", "G")
    b["B"].stack = 25
    act(rnd, b, "A", "nl.raise", 20)
    act(rnd, b, "B", "nl.allIn")  # 25: incomplete (+5 < 10)
    assert rnd.last_raise_size == 10 and rnd.current_bet == 25
    entry = next(a for a in legal_actions(rnd, b, "C") if a["type"] == "nl.raise")
    assert entry["min"] == 35
    act(rnd, b, "C", "nl.call")
    act(rnd, b, "S", "nl.call")
    act(rnd, b, "G", "nl.call")
    assert types(rnd, b, "A") == ["nl.fold", "nl.call"]


def test_all_in_that_is_a_full_raise_reopens_for_players_who_acted() -> None:
    """Regression: A bets 100, B calls, C all-in 250 (a full raise of 150): A and B may re-raise."""
    b = players("ABC")
    b["C"].stack = 250
    rnd = start_round("noLimit", 10, "half", ["A", "B", "C"], b)
    act(rnd, b, "A", "nl.raise", 100)
    act(rnd, b, "B", "nl.call")
    act(rnd, b, "C", "nl.allIn")
    assert rnd.last_raise_size == 150
    assert "nl.raise" in types(rnd, b, "A")
    assert next(a for a in legal_actions(rnd, b, "A") if a["type"] == "nl.raise")["min"] == 400
    act(rnd, b, "A", "nl.raise", 400)
    assert "nl.raise" in types(rnd, b, "B")


def test_short_all_ins_that_add_up_to_a_full_raise_reopen() -> None:
    """BB 10, A to 30 (raise 20), B calls; C all-in 40, D all-in 55: +25 over B's 30 ≥ 20 reopens."""
    rnd, b = blinds_round("ABCDSG", "ABCDSG", "S", "G")
    b["C"].stack = 40
    b["D"].stack = 55
    act(rnd, b, "A", "nl.raise", 30)
    act(rnd, b, "B", "nl.call")
    act(rnd, b, "C", "nl.allIn")
    act(rnd, b, "D", "nl.allIn")
    assert rnd.last_raise_size == 20 and rnd.current_bet == 55
    act(rnd, b, "S", "nl.call")
    act(rnd, b, "G", "nl.call")
    assert "nl.raise" in types(rnd, b, "A")
    act(rnd, b, "A", "nl.call")
    assert "nl.raise" in types(rnd, b, "B")


def test_one_short_all_in_after_a_call_does_not_reopen() -> None:
    rnd, b = blinds_round("ABCSG", "ABCSG", "S", "G")
    b["C"].stack = 40
    act(rnd, b, "A", "nl.raise", 30)
    act(rnd, b, "B", "nl.call")
    act(rnd, b, "C", "nl.allIn")  # +10 < 20
    act(rnd, b, "S", "nl.fold")
    act(rnd, b, "G", "nl.fold")
    assert types(rnd, b, "A") == ["nl.fold", "nl.call"]


def test_call_of_short_all_in_moves_exactly_the_short_amount() -> None:
    """Regression: calling a short all-in costs the all-in amount, not a full raise."""
    rnd, b = blinds_round("SG", "SG", "S", "G")  # heads-up: dealer = SB acts first preflop
    b["S"].stack = 12  # 17 chips in total: all-in to 17
    r = apply_action(rnd, b, "S", {"type": "nl.allIn"})
    assert r.moved == 12 and r.all_in and rnd.current_bet == 17 and rnd.last_raise_size == 10
    assert legal_actions(rnd, b, "G") == [
        {"type": "nl.fold"}, {"type": "nl.call", "amount": 7, "allIn": False},
    ]
    r = apply_action(rnd, b, "G", {"type": "nl.call"})
    assert r.moved == 7 and r.round_over and r.betting_closed
    assert b["G"].committed_total == 17 == b["S"].committed_total


def test_pot_limit_160_allowed_161_refused() -> None:
    """§10: pot 100, opponent bets 20 → max raise-to 160; 161 refused; too-big all-in refused."""
    b = {p: Bettor(p, 1000, committed_total=50) for p in "AB"}
    rnd = start_round("potLimit", 10, "half", ["A", "B"], b)
    assert pot_total(rnd, b) == 100
    act(rnd, b, "A", "nl.raise", 20)
    entry = next(a for a in legal_actions(rnd, b, "B") if a["type"] == "nl.raise")
    assert entry == {"type": "nl.raise", "min": 40, "max": 160, "isBet": False}
    assert "nl.allIn" not in types(rnd, b, "B")
    err = refused(rnd, b, "B", {"type": "nl.raise", "to": 161})
    assert (err.code, err.message) == ("pot_limit_exceeded", "팟리밋 최대 레이즈는 160이에요")
    err = refused(rnd, b, "B", {"type": "nl.allIn"})
    assert (err.code, err.message) == ("pot_limit_exceeded", "팟리밋 최대 레이즈는 160이에요")
    validate_action(rnd, b, "B", {"type": "nl.raise", "to": 160})
    assert act(rnd, b, "B", "nl.raise", 160) == 160


def test_pot_limit_all_in_within_the_cap_is_fine() -> None:
    b = {p: Bettor(p, 100, committed_total=50) for p in "AB"}
    rnd = start_round("potLimit", 10, "half", ["A", "B"], b)
    act(rnd, b, "A", "nl.raise", 20)
    assert {"type": "nl.allIn", "amount": 100, "to": 100} in legal_actions(rnd, b, "B")
    assert act(rnd, b, "B", "nl.allIn") == 100


def test_big_blind_option() -> None:
    """Nobody raised: BB may check (round over) or raise."""
    rnd, b = blinds_round("DSG", "DSG", "S", "G")
    act(rnd, b, "D", "nl.call")
    act(rnd, b, "S", "nl.call")
    assert rnd.to_act == "G"
    assert types(rnd, b, "G") == ["nl.fold", "nl.check", "nl.raise", "nl.allIn"]
    assert next(a for a in legal_actions(rnd, b, "G") if a["type"] == "nl.raise")["min"] == 20
    r = apply_action(rnd, b, "G", {"type": "nl.check"})
    assert r.round_over and pot_total(rnd, b) == 30


def test_big_blind_option_raise_reopens_for_limpers() -> None:
    rnd, b = blinds_round("DSG", "DSG", "S", "G")
    act(rnd, b, "D", "nl.call")
    act(rnd, b, "S", "nl.call")
    act(rnd, b, "G", "nl.raise", 40)
    assert "nl.raise" in types(rnd, b, "D")


def test_stack_short_of_min_raise_gives_all_in_only_raise() -> None:
    rnd, b = blinds_round("ABSG", "ABSG", "S", "G")
    act(rnd, b, "A", "nl.raise", 30)
    b["B"].stack = 40
    entry = next(a for a in legal_actions(rnd, b, "B") if a["type"] == "nl.raise")
    assert entry == {"type": "nl.raise", "min": 40, "max": 40, "isBet": False}
    assert refused(rnd, b, "B", {"type": "nl.raise", "to": 39}).message == "최소 레이즈는 50이에요"
    assert act(rnd, b, "B", "nl.raise", 40) == 40 and b["B"].all_in


@pytest.mark.parametrize("to", ["50", 50.0, True, None, -1, [50], {"x": 1}])
def test_bad_to_is_refused(to: object) -> None:
    rnd, b = blinds_round("ABSG", "ABSG", "S", "G")
    action: dict[str, object] = {"type": "nl.raise"}
    if to is not None:
        action["to"] = to
    assert refused(rnd, b, "A", action).code == "bad_amount"


def test_huge_to_is_refused() -> None:
    rnd, b = blinds_round("ABSG", "ABSG", "S", "G")
    err = refused(rnd, b, "A", {"type": "nl.raise", "to": 10**30})
    assert (err.code, err.message) == ("raise_too_large", "가진 칩으로는 최대 1,000까지 올릴 수 있어요")


def test_check_call_refusals() -> None:
    rnd, b = blinds_round("ABSG", "ABSG", "S", "G")
    assert refused(rnd, b, "A", {"type": "nl.check"}).message == "콜 금액이 있어서 체크할 수 없어요"
    assert refused(rnd, b, "A", {"type": "k.call"}).code == "wrong_betting_system"
    assert refused(rnd, b, "B", {"type": "nl.call"}).message == "지금은 내 차례가 아니에요"
    act(rnd, b, "A", "nl.fold")
    assert refused(rnd, b, "A", {"type": "nl.call"}).message == "이번 판에서 이미 다이했어요"
    b2 = players("AB")
    rnd2 = start_round("noLimit", 10, "half", ["A", "B"], b2)
    assert refused(rnd2, b2, "A", {"type": "nl.call"}).code == "nothing_to_call"


def test_fold_is_always_listed_and_one_left_ends() -> None:
    b = players("AB")
    rnd = start_round("noLimit", 10, "half", ["A", "B"], b)
    assert types(rnd, b, "A")[0] == "nl.fold"
    act(rnd, b, "A", "nl.raise", 50)
    r = apply_action(rnd, b, "B", {"type": "nl.fold"})
    assert r.one_left and r.round_over
    assert return_uncalled(b) == ("A", 50)
    assert b["A"].stack == 1000 and b["A"].committed_total == 0


def test_heads_up_postflop_order_and_no_raise_vs_all_in() -> None:
    """When the only opponent is all-in, a player may only call or fold (no pointless raise)."""
    b = players("GS")
    b["S"].stack = 100
    rnd = start_round("noLimit", 10, "half", ["G", "S"], b)
    act(rnd, b, "G", "nl.raise", 20)
    act(rnd, b, "S", "nl.allIn")
    assert types(rnd, b, "G") == ["nl.fold", "nl.call"]
    assert refused(rnd, b, "G", {"type": "nl.raise", "to": 500}).code == "no_one_to_raise"
    r = apply_action(rnd, b, "G", {"type": "nl.call"})
    assert r.moved == 80 and r.betting_closed and round_over(rnd, b)


def test_no_raise_when_nobody_can_put_in_more_than_the_current_bet() -> None:
    """A opens all-in for 300; B (1,000) faces it with only C (250, still to act) behind: nobody could call a
    raise beyond 300, so B may only call or fold (pokerkit's rule too; the raise would come back uncalled)."""
    b = players("ABC")
    b["A"].stack = 300
    b["C"].stack = 250
    rnd = start_round("noLimit", 10, "half", ["A", "B", "C"], b)
    act(rnd, b, "A", "nl.allIn")
    assert types(rnd, b, "B") == ["nl.fold", "nl.call"]
    assert refused(rnd, b, "B", {"type": "nl.raise", "to": 900}).code == "no_one_to_raise"
    # with C able to put in more than 300, B may re-raise
    b2 = players("ABC")
    b2["A"].stack = 300
    b2["C"].stack = 301
    rnd2 = start_round("noLimit", 10, "half", ["A", "B", "C"], b2)
    act(rnd2, b2, "A", "nl.allIn")
    assert "nl.raise" in types(rnd2, b2, "B")
