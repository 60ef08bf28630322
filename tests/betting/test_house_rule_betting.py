"""House rules of the betting layer (docs/rules-extensions.md): the 491/591 opening restriction
(``opening_only``) and the 맥스 베팅 상한 (``bet_cap``), each edge case of the ruling by name."""

from __future__ import annotations

from typing import Any

import pytest
from betting_support import anted, refused

from pokerroom.betting import (
    BettingRound,
    Bettor,
    apply_action,
    legal_actions,
    pot_total,
    start_round,
)

RULE_491 = "491 룰: 4구·5구 첫 베팅은 하프 또는 다이만 할 수 있어요"


def rnd491(b: dict[str, Bettor], order: str, max_raise: str = "half", **kw: Any) -> BettingRound:
    return start_round("korean", 10, max_raise, list(order), b, opening_only="k.half", **kw)  # type: ignore[arg-type]


def legal(rnd: BettingRound, b: dict[str, Bettor], pid: str) -> dict[str, dict[str, Any]]:
    return {a["type"]: a for a in legal_actions(rnd, b, pid)}


# --- 491/591 룰 -------------------------------------------------------------------------------------------

def test_rule491_opener_may_only_half_or_die() -> None:
    b = anted("ABC")
    rnd = rnd491(b, "ABC")
    assert list(legal(rnd, b, "A")) == ["k.half", "k.die"]
    assert legal(rnd, b, "A")["k.half"]["amount"] == 15  # floor(30 / 2)


@pytest.mark.parametrize("kind", ["k.check", "k.ping", "k.quarter", "k.full"])
def test_rule491_refusal_names_the_rule(kind: str) -> None:
    b = anted("ABC")
    rnd = rnd491(b, "ABC", max_raise="full")
    err = refused(rnd, b, "A", {"type": kind})
    assert (err.code, err.message) == ("rule_491", RULE_491)


def test_rule491_full_game_still_opens_with_half_only() -> None:
    """koreanMaxRaise=full does not widen the opening: 풀 only after the half (the rule names 하프)."""
    b = anted("ABC")
    rnd = rnd491(b, "ABC", max_raise="full")
    assert "k.full" not in legal(rnd, b, "A")
    apply_action(rnd, b, "A", {"type": "k.half"})
    assert "k.full" in legal(rnd, b, "B")


def test_rule491_after_the_half_the_ordinary_actions_return() -> None:
    b = anted("ABC")
    rnd = rnd491(b, "ABC")
    apply_action(rnd, b, "A", {"type": "k.half"})
    assert list(legal(rnd, b, "B")) == ["k.call", "k.ddadang", "k.quarter", "k.half", "k.die"]


def test_rule491_opener_dies_and_the_next_player_is_bound() -> None:
    """"First" is whoever would open the round: after the boss dies the next player faces the same choice."""
    b = anted("ABC")
    rnd = rnd491(b, "ABC")
    apply_action(rnd, b, "A", {"type": "k.die"})
    assert rnd.to_act == "B" and list(legal(rnd, b, "B")) == ["k.half", "k.die"]
    apply_action(rnd, b, "B", {"type": "k.die"})
    assert rnd.to_act is None  # C is alone: the hand ends, C takes the antes


def test_rule491_all_in_player_is_skipped_and_the_first_who_can_act_is_bound() -> None:
    """A player all-in from the ante never acts; the restriction falls on the first one who can."""
    b = anted("ABC")
    b["A"] = Bettor("A", 0, committed_total=5, all_in=True)
    rnd = rnd491(b, "ABC")
    assert rnd.to_act == "B" and list(legal(rnd, b, "B")) == ["k.half", "k.die"]


def test_rule491_half_above_the_stack_is_an_all_in_for_less() -> None:
    b = anted("ABC")
    b["A"] = Bettor("A", 7, committed_total=10)
    rnd = rnd491(b, "ABC")
    half = legal(rnd, b, "A")["k.half"]
    assert (half["amount"], half["allIn"]) == (7, True)
    assert apply_action(rnd, b, "A", {"type": "k.half"}).all_in
    assert "k.call" in legal(rnd, b, "B") and legal(rnd, b, "B")["k.call"]["amount"] == 7


def test_rule491_heads_up_still_restricts() -> None:
    b = anted("AB")
    rnd = rnd491(b, "AB")
    assert list(legal(rnd, b, "A")) == ["k.half", "k.die"]


def test_rule491_without_opening_only_nothing_changes() -> None:
    b = anted("ABC")
    rnd = start_round("korean", 10, "half", list("ABC"), b)
    assert "k.check" in legal(rnd, b, "A") and "k.ping" in legal(rnd, b, "A")


# --- 맥스 베팅 상한 ---------------------------------------------------------------------------------------

def test_cap_shrinks_korean_sizes_above_it_and_marks_them() -> None:
    b = anted("ABC", stack=5000, ante=100)  # pot 300
    rnd = start_round("korean", 10, "full", list("ABC"), b, bet_cap=100)
    acts = legal(rnd, b, "A")
    assert acts["k.ping"]["amount"] == 10 and "capped" not in acts["k.ping"]
    assert acts["k.quarter"]["amount"] == 75 and "capped" not in acts["k.quarter"]
    assert acts["k.half"] == {"type": "k.half", "amount": 100, "allIn": False, "capped": True}
    assert acts["k.full"] == {"type": "k.full", "amount": 100, "allIn": False, "capped": True}


def test_cap_limits_the_raise_part_not_the_call() -> None:
    b = anted("ABC", stack=5000, ante=100)
    rnd = start_round("korean", 10, "half", list("ABC"), b, bet_cap=100)
    apply_action(rnd, b, "A", {"type": "k.half"})  # 100 (capped)
    acts = legal(rnd, b, "B")
    assert acts["k.call"]["amount"] == 100
    assert acts["k.ddadang"]["amount"] == 200 and "capped" not in acts["k.ddadang"]  # raise part 100 = cap
    assert acts["k.half"]["amount"] == 200 and acts["k.half"]["capped"]


def test_cap_is_per_bet_so_the_round_total_can_grow() -> None:
    b = anted("ABC", stack=5000, ante=100)
    rnd = start_round("korean", 10, "half", list("ABC"), b, bet_cap=100)
    apply_action(rnd, b, "A", {"type": "k.half"})
    apply_action(rnd, b, "B", {"type": "k.half"})
    apply_action(rnd, b, "C", {"type": "k.half"})
    assert rnd.current_bet == 300 and pot_total(rnd, b) == 300 + 100 + 200 + 300


def test_cap_korean_short_stack_is_all_in_below_the_cap() -> None:
    b = anted("ABC", stack=5000, ante=100)
    b["A"] = Bettor("A", 60, committed_total=100)
    rnd = start_round("korean", 10, "half", list("ABC"), b, bet_cap=100)
    half = legal(rnd, b, "A")["k.half"]
    assert (half["amount"], half["allIn"]) == (60, True) and "capped" not in half


def _nl(system: str, b: dict[str, Bettor], cap: int, **kw: Any) -> BettingRound:
    return start_round(system, 10, "half", list(b), b, bet_cap=cap, **kw)  # type: ignore[arg-type]


def test_cap_no_limit_raise_to_at_most_current_bet_plus_cap() -> None:
    b = {p: Bettor(p, 1000) for p in "AB"}
    rnd = _nl("noLimit", b, 100)
    assert legal(rnd, b, "A")["nl.raise"] == {"type": "nl.raise", "min": 10, "max": 100, "isBet": True}
    err = refused(rnd, b, "A", {"type": "nl.raise", "to": 101})
    assert err.code == "bet_cap_exceeded"
    assert err.message == "맥스 베팅 상한 때문에 최대 100까지만 올릴 수 있어요"
    apply_action(rnd, b, "A", {"type": "nl.raise", "to": 100})
    assert legal(rnd, b, "B")["nl.raise"]["max"] == 200  # per bet: the re-raise adds another cap


def test_cap_no_limit_all_in_above_the_cap_is_refused_but_a_short_all_in_is_fine() -> None:
    b = {"A": Bettor("A", 1000), "B": Bettor("B", 80)}
    rnd = _nl("noLimit", b, 100)
    assert "nl.allIn" not in legal(rnd, b, "A")
    err = refused(rnd, b, "A", {"type": "nl.allIn"})
    assert err.code == "bet_cap_exceeded"
    apply_action(rnd, b, "A", {"type": "nl.raise", "to": 100})
    assert legal(rnd, b, "B")["nl.allIn"] == {"type": "nl.allIn", "amount": 80, "to": 80}
    b2 = {"A": Bettor("A", 90), "B": Bettor("B", 1000)}
    rnd2 = _nl("noLimit", b2, 100)
    assert legal(rnd2, b2, "A")["nl.allIn"]["amount"] == 90  # all-in within the cap


def test_cap_pot_limit_uses_the_smaller_bound_and_names_it() -> None:
    b = {p: Bettor(p, 5000, committed_total=100) for p in "AB"}  # pot 200
    small = _nl("potLimit", b, 500)
    assert legal(small, b, "A")["nl.raise"]["max"] == 200  # pot limit below the cap
    assert refused(small, b, "A", {"type": "nl.raise", "to": 300}).code == "pot_limit_exceeded"
    b = {p: Bettor(p, 5000, committed_total=100) for p in "AB"}
    tight = _nl("potLimit", b, 50)
    assert legal(tight, b, "A")["nl.raise"]["max"] == 50
    assert refused(tight, b, "A", {"type": "nl.raise", "to": 60}).code == "bet_cap_exceeded"


def test_cap_never_below_the_minimum_raise() -> None:
    """A blind above the cap (impossible with the lobby's choices) still leaves a legal minimum raise."""
    b = {"A": Bettor("A", 1000, committed_round=50, committed_total=50), "B": Bettor("B", 1000)}
    rnd = start_round("noLimit", 50, "half", ["B", "A"], b, current_bet=50, opened=True, bet_cap=20)
    r = legal(rnd, b, "B")["nl.raise"]
    assert r["min"] == r["max"] == 100


def test_cap_zero_is_no_cap() -> None:
    b = {p: Bettor(p, 1000) for p in "AB"}
    rnd = _nl("noLimit", b, 0)
    assert legal(rnd, b, "A")["nl.raise"]["max"] == 1000


def test_negative_cap_is_a_programming_error() -> None:
    with pytest.raises(ValueError):
        _nl("noLimit", {p: Bettor(p, 1000) for p in "AB"}, -1)
