"""The host's changes to a running game (pokerroom.engine.host): stakes from the next hand, an early end, a
pause's shift of every deadline.

What matters: a hand in play keeps its stakes; every chip stays accounted for across a new starting stack
(rebuys at either price, late joiners); the early end gives the ordinary §6.7 result; and the state's JSON of
a game the host never touched is what it was (the goldens check the views).
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from engine_support import actors, check_cards, check_chips, random_choice_action

from pokerroom.engine import (
    PokerOptions,
    State,
    apply,
    change_stakes,
    deadline,
    end_early,
    join_seat,
    on_timeout,
    result,
    setup,
    shift_clock,
    view,
)
from pokerroom.engine.accounts import accounts, unowned
from pokerroom.rejections import Rejected


def _stakes(state: State, **changes: Any) -> PokerOptions:
    return PokerOptions.from_json({**state.options.to_json(), **changes})


def _to_next_hand(state: State, now: int) -> tuple[State, int, list[dict[str, Any]]]:
    """Time out decisions until a new hand starts (or the game ends); all events on the way."""
    start = state.hand.hand_no if state.hand is not None else 0
    seen: list[dict[str, Any]] = []
    while state.phase != "finished" and (state.hand is None or state.hand.hand_no == start):
        due = deadline(state)
        assert due is not None
        now = max(now, due)
        state, events = on_timeout(state, now)
        seen.extend(events)
    return state, now, seen


@pytest.mark.parametrize("mode", ["holdem", "sevenPoker", "badugi", "indian"])
def test_new_stakes_wait_for_the_next_hand(mode: str) -> None:
    state = setup(["a", "b", "c"], {"mode": mode, "handLimit": 10}, seed=5, now_ms=0)
    before = view(state, None)
    state, events = change_stakes(state, _stakes(state, baseUnit=20, startingChips=2000), 100)
    assert [e["type"] for e in events] == ["stakesSet"]
    assert state.public_log[-1]["text"] == "다음 판부터 기본 단위 20 · 시작 칩 2,000"
    now_view = view(state, None)
    # the hand in play keeps its stakes; the view says what comes next
    assert now_view["baseUnit"] == before["baseUnit"] == 10
    assert now_view["nextStakes"] == {"baseUnit": 20, "startingChips": 2000}
    assert state.options.starting_chips == 1000
    state, _, seen = _to_next_hand(state, 100)
    assert [e for e in seen if e["type"] == "stakesChanged"] == [
        {"type": "stakesChanged", "baseUnit": 20, "startingChips": 2000}]
    start = next(e for e in seen if e["type"] == "handStart" and e["handNo"] == 2)
    assert start["baseUnit"] == 20
    after = view(state, None)
    assert after["baseUnit"] == 20 and "nextStakes" not in after
    assert state.options.starting_chips == 2000
    check_chips(state)


def test_only_the_stakes_may_change_and_the_same_stakes_are_refused() -> None:
    state = setup(["a", "b"], {"mode": "holdem"}, seed=1)
    with pytest.raises(Rejected) as other:
        change_stakes(state, _stakes(state, mode="omaha"), 0)
    assert other.value.code == "only_stakes"
    with pytest.raises(Rejected) as same:
        change_stakes(state, _stakes(state), 0)
    assert same.value.code == "same_stakes"
    # choosing the stakes in force again cancels a change still waiting
    waiting, _ = change_stakes(state, _stakes(state, baseUnit=20), 0)
    back, events = change_stakes(waiting, _stakes(state), 0)
    assert back.next_options is None and events[0]["baseUnit"] is None
    assert "nextStakes" not in view(back, None)
    assert waiting.next_options is not None  # the input is never changed


def _asked_to_rebuy() -> tuple[State, str]:
    """A game between hands whose first seat busted and is being asked to rebuy (set by hand: the deal is
    random; its chips are not counted, the first hand's antes stay in the bettors)."""
    state = setup(["a", "b", "c"], {"mode": "sevenPoker", "rebuy": "unlimited"}, seed=2)
    state.seats[0].stack, state.seats[1].stack = 0, state.seats[1].stack + state.seats[0].stack
    state.phase, state.rebuy_pending = "rebuy", [state.seats[0].id]
    state.seats[0].status = "busted"
    state.rebuy_deadline_at = 15_000
    assert state.hand is not None
    state.hand.phase, state.hand.deadline_at = "handEnd", None
    return state, state.seats[0].id


def test_end_early_during_the_rebuy_decision_declines_it_and_ends_now() -> None:
    state, busted = _asked_to_rebuy()
    ended, events = end_early(state, 10)
    assert ended.phase == "finished" and ended.end_reason == "host"
    assert {"type": "rebuy", "player": busted, "accept": False} in events
    res = result(ended)
    assert res is not None and res["ranking"][-1]["playerId"] == busted


def test_stakes_between_hands_apply_at_once_and_rebuys_get_the_new_stack() -> None:
    state, busted = _asked_to_rebuy()
    changed, events = change_stakes(state, _stakes(state, startingChips=2000), 10)
    assert [e["type"] for e in events] == ["stakesSet", "stakesChanged"]
    seat = changed.seat_of(busted)
    assert seat is not None and (seat.start_chips, seat.rebuy_chips) == (1000, 0)
    after, _ = apply(changed, busted, {"type": "rebuy", "accept": True}, 20)
    seat = after.seat_of(busted)
    assert seat is not None and seat.rebuys == 1 and seat.rebuy_chips == 2000
    final, _ = end_early(after, 30)
    while final.phase != "finished":
        due = deadline(final)
        assert due is not None
        final, _ = on_timeout(final, due)
    res = result(final)
    assert res is not None
    row = next(r for r in res["ranking"] if r["playerId"] == busted)
    seat = final.seat_of(busted)
    assert seat is not None
    assert row["score"] == seat.stack - 2000  # the rebuy brought 2,000: that is what the score takes off
    assert row["net"] == seat.stack - 3000


@pytest.mark.parametrize("seed", range(8))
def test_chips_stay_accounted_for_through_random_host_changes(seed: int) -> None:
    rng = random.Random(seed)
    mode = rng.choice(["holdem", "sevenPoker", "indian", "fiveDraw"])
    ids = ["p0", "p1", "p2"]
    state = setup(ids, {"mode": mode, "endCondition": "lastStanding", "rebuy": "unlimited",
                        "blindUpEvery": 5}, seed=seed)
    now = 0
    for step in range(1200):
        if state.phase == "finished":
            break
        now += 1000
        r = rng.random()
        if r < 0.03:
            base = rng.choice([2, 10, 20, 50])
            start = rng.choice([c for c in (500, 1000, 2000, 5000) if c >= base * 20])
            try:
                state, _ = change_stakes(state, _stakes(state, baseUnit=base, startingChips=start), now)
            except Rejected as exc:
                assert exc.code == "same_stakes"
        elif r < 0.04 and len(ids) < 6:
            try:
                state, _ = join_seat(state, f"j{len(ids)}", now)
                ids.append(f"j{len(ids)}")
            except Rejected:
                pass
        elif r < 0.1 or not actors(state):
            due = deadline(state)
            assert due is not None
            now = max(now, due)
            state, _ = on_timeout(state, now)
        else:
            pid, legal = rng.choice(actors(state))
            state, _ = apply(state, pid, random_choice_action(rng, rng.choice(legal)), now)
        check_chips(state)
        # the ledger's accounts (what each seat was really given, stack changes included) add up at every step
        assert sum(a["net"] for a in accounts(state)) + unowned(state) == 0
        if step % 25 == 0:
            check_cards(state)
            assert State.from_json(state.to_json()).to_json() == state.to_json()
    if state.phase != "finished":
        state, _ = end_early(state, now)
        while state.phase != "finished":
            due = deadline(state)
            assert due is not None
            now = max(now, due)
            state, _ = on_timeout(state, now)
    res = result(state)
    assert res is not None and len(res["ranking"]) == len(state.seats)
    # net sums to zero across the table: every chip given is a chip somebody holds
    assert sum(r["net"] for r in res["ranking"]) + state.carry_over == 0


def test_end_early_between_hands_ends_at_once_with_the_normal_result() -> None:
    state = setup(["a", "b", "c"], {"mode": "holdem", "handLimit": 20}, seed=4)
    # to the end of the first hand (everybody times out: folds until one is left)
    while state.hand is not None and state.hand.phase != "handEnd":
        due = deadline(state)
        assert due is not None
        state, _ = on_timeout(state, due)
    ended, events = end_early(state, 50_000)
    assert [e["type"] for e in events][:1] == ["endAfterHand"] and events[-1] == {"type": "gameEnd",
                                                                                   "reason": "host"}
    res = result(ended)
    assert ended.phase == "finished" and ended.end_reason == "host" and res is not None
    assert res["stats"]["handsPlayed"] == 1
    assert [r["rank"] for r in res["ranking"]] == sorted(r["rank"] for r in res["ranking"])
    assert all(r["score"] == r["finalChips"] for r in res["ranking"])  # hands: chips less rebuys (none)
    with pytest.raises(Rejected) as again:
        end_early(ended, 50_001)
    assert again.value.code == "game_over"


def test_end_early_mid_hand_plays_the_hand_out_then_ends() -> None:
    state = setup(["a", "b", "c"], {"mode": "sevenPoker", "endCondition": "lastStanding"}, seed=6)
    marked, events = end_early(state, 10)
    assert [e["type"] for e in events] == ["endAfterHand"] and marked.phase == "playing"
    assert view(marked, None)["endAfterHand"] is True
    with pytest.raises(Rejected) as twice:
        end_early(marked, 11)
    assert twice.value.code == "already_ending"
    done, _, seen = _to_next_hand(marked, 10)
    assert done.phase == "finished" and done.end_reason == "host" and done.hands_played == 1
    assert not any(e["type"] == "handStart" for e in seen)
    res = result(done)
    assert res is not None and "endAfterHand" not in view(done, None)
    # lastStanding ranks by chips among players still holding them (§6.7)
    chips = [r["finalChips"] for r in res["ranking"]]
    assert chips == sorted(chips, reverse=True)


def test_shift_clock_moves_every_deadline_and_only_them() -> None:
    state = setup(["a", "b", "c"], {"mode": "sevenPoker"}, seed=8, now_ms=1_000)
    due = deadline(state)
    assert due is not None
    later = shift_clock(state, 30_000)
    assert deadline(later) == due + 30_000
    assert later is not state and deadline(state) == due
    assert shift_clock(state, 0) is state
    # the shifted state times out only at its new deadline
    same, events = on_timeout(later, due + 1)
    assert same is later and events == []
    _, events = on_timeout(later, due + 30_000)
    assert events


def test_untouched_games_keep_their_exact_state_json() -> None:
    state = setup(["a", "b"], {"mode": "holdem"}, seed=9)
    data = state.to_json()
    assert "next_options" not in data and "end_after_hand" not in data
    assert all("start_chips" not in s and "rebuy_chips" not in s for s in data["seats"])
