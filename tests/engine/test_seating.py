"""Seats between hands: a late joiner, sitting out by choice and coming back
(docs/decisions/0005-seats-change-between-hands.md).

The rules are those of :mod:`pokerroom.engine.seating`: a joiner is dealt in from the next hand with
startingChips; in blind modes a seat entering play posts one live big blind (never two, never none); a
sitting-out seat is not dealt in, posts nothing and keeps its chips; blind levels, rebuys and results go on
as if the joiner had always been there (their net is measured against the chips they brought).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import pytest
from engine_support import check_cards, check_chips, check_no_leak, play_random, random_choice_action, replay
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pokerroom.engine import (
    PokerOptions,
    State,
    apply,
    join_seat,
    on_timeout,
    player_range,
    result,
    setup,
    state_hash,
    view,
)
from pokerroom.engine.view import legal_actions
from pokerroom.rejections import Rejected

MODES = ["holdem", "omaha", "sevenPoker", "sevenHiLo", "badugi", "fiveDraw", "indian"]


def act_once(state: State, now: int, rng: random.Random) -> State:
    """One step: a quick legal action (fold/die first, so hands end soon), or the deadline's."""
    for s in state.seats:
        legal = legal_actions(state, s.id)
        if not legal:
            continue
        kinds = {a["type"]: a for a in legal}
        for quick in ("nl.check", "k.check", "nl.call", "k.call", "ready"):
            if quick in kinds:
                return apply(state, s.id, {"type": quick}, now)[0]
        return apply(state, s.id, random_choice_action(rng, legal[0]), now)[0]
    return on_timeout(state, now + 60_000)[0]


def to_next_hand(state: State, now: int = 1_000) -> State:
    """Play (check/call) until the next hand has started or the game is over."""
    rng = random.Random(0)
    start = state.hand.hand_no if state.hand is not None else 0
    for _ in range(500):
        if state.phase == "finished" or (state.hand is not None and state.hand.hand_no > start
                                         and state.phase == "playing"):
            return state
        state = act_once(state, now, rng)
        now += 1000
        check_chips(state)
        check_cards(state)
    raise AssertionError("the hand did not end")


def blinds_of(state: State) -> dict[str, int]:
    hand = state.hand
    assert hand is not None
    return {pid: b.committed_total for pid, b in hand.bettors.items() if b.committed_total}


# --- joining --------------------------------------------------------------------------------------------


def test_join_is_pure_and_deals_in_from_the_next_hand() -> None:
    state = setup(["a", "b", "c"], {"mode": "holdem"}, seed=3)
    before = state_hash(state)
    joined, events = join_seat(state, "d", 500)
    assert state_hash(state) == before  # input untouched
    assert events == [{"type": "seatJoined", "player": "d", "seat": 3, "stack": 1000, "afterHand": 0}]
    assert joined.hand is not None and "d" not in joined.hand.order  # not in the hand in progress
    assert view(joined, "d")["me"]["legalActions"] == []
    check_chips(joined)
    nxt = to_next_hand(joined)
    assert nxt.hand is not None and nxt.hand.hand_no == 2 and "d" in nxt.hand.order
    assert len(nxt.hand.players["d"].hole) == 2
    check_no_leak(nxt, "d")
    check_no_leak(nxt, None)


@pytest.mark.parametrize(("ids", "opts", "code"), [
    (["a", "b", "c", "d", "e", "f"], {"mode": "sevenPoker"}, "table_full"),  # 7 Poker seats 6 at most
    (["a", "b"], {"mode": "holdem"}, "already_seated"),
])
def test_join_refusals(ids: list[str], opts: dict[str, Any], code: str) -> None:
    state = setup(ids, opts, seed=1)
    with pytest.raises(Rejected) as err:
        join_seat(state, "a" if code == "already_seated" else "z", 0)
    assert err.value.code == code
    with pytest.raises(Rejected):
        join_seat(state, "", 0)


def test_join_refused_once_the_game_is_over() -> None:
    state, _ = play_random(5, {"mode": "holdem", "handLimit": 10}, 3, max_steps=5000, check="none")
    assert state.phase == "finished"
    with pytest.raises(Rejected) as err:
        join_seat(state, "z", 0)
    assert err.value.code == "game_over"


def test_join_counts_eliminated_chairs_against_the_limit() -> None:
    _low, high = player_range(PokerOptions.model_validate({"mode": "sevenPoker"}))
    state = setup([f"p{i}" for i in range(high - 1)], {"mode": "sevenPoker"}, seed=2)
    state, _ = join_seat(state, "late", 0)
    assert len(state.seats) == high
    with pytest.raises(Rejected) as err:
        join_seat(state, "later", 0)
    assert err.value.code == "table_full" and str(high) in err.value.message


def test_entry_big_blind_by_position() -> None:
    """Hold'em: the joiner posts exactly one big blind in their first hand, wherever the button puts them;
    the regular blinds stay where rotation puts them; from the second hand on they post by position only."""
    seen: set[str] = set()
    for seed in range(40):
        state = setup(["a", "b", "c"], {"mode": "holdem", "baseUnit": 10}, seed=seed)
        first_dealer = state.hand.dealer_seat if state.hand else -1
        state, _ = join_seat(state, "d", 0)
        state = to_next_hand(state)
        hand = state.hand
        assert hand is not None
        # rotation: the button moves to the next seat with chips after hand 1's, the joiner's chair included
        assert hand.dealer_seat == (first_dealer + 1) % 4
        posted = blinds_of(state)
        assert posted["d"] == 10  # one big blind, live
        assert hand.sb is not None and hand.bb is not None
        if hand.bb == "d":
            case = "bb"
            assert posted == {hand.sb: 5, "d": 10}
        elif hand.sb == "d":
            case = "sb"  # a full big blind instead of the small one
            assert posted == {"d": 10, hand.bb: 10}
        else:
            case = "other"
            assert posted == {hand.sb: 5, hand.bb: 10, "d": 10}
        assert hand.rnd is not None and hand.rnd.current_bet == 10
        seen.add(case)
        # it is live: with nobody raising, the joiner may check when the action reaches them
        for _ in range(10):
            if hand.rnd is None or hand.rnd.to_act == "d" or hand.phase != "betting":
                break
            pid = hand.rnd.to_act
            kinds = {a["type"] for a in legal_actions(state, pid)}
            state = apply(state, pid, {"type": "nl.call" if "nl.call" in kinds else "nl.check"}, 2000)[0]
            hand = state.hand
            assert hand is not None
        if hand.phase == "betting" and hand.rnd is not None and hand.rnd.to_act == "d" and hand.street == 0:
            kinds = {a["type"] for a in legal_actions(state, "d")}
            assert "nl.check" in kinds and "nl.call" not in kinds
        # the next hand: by position only
        state = to_next_hand(state)
        hand = state.hand
        assert hand is not None
        if state.phase == "playing" and "d" in hand.order:
            expected = 5 if hand.sb == "d" else 10 if hand.bb == "d" else 0
            assert blinds_of(state).get("d", 0) == expected
    assert seen == {"bb", "sb", "other"}


def test_blind_levels_count_hands_not_seats() -> None:
    """§5.7: the level rises every blindUpEvery hands, whether or not somebody joined."""
    opts = {"mode": "holdem", "baseUnit": 10, "startingChips": 5000, "blindUpEvery": 5}
    plain = setup(["a", "b", "c"], opts, seed=9)
    joined = to_next_hand(plain)
    plain = joined
    joined, _ = join_seat(joined, "d", 0)
    for _ in range(10):
        plain, joined = to_next_hand(plain), to_next_hand(joined)
        assert joined.hands_played == plain.hands_played
        assert (joined.level, joined.base_unit) == (plain.level, plain.base_unit)
        assert joined.level == 1 + joined.hands_played // 5
    assert joined.level == 3 and joined.base_unit == 40


@pytest.mark.parametrize(("mode", "extra"), [(m, {}) for m in MODES] + [("omaha", {"omahaHiLo": True})])
def test_every_mode_deals_the_new_seat_in(mode: str, extra: dict[str, Any]) -> None:
    state = setup(["a", "b", "c"], {"mode": mode, **extra}, seed=4)
    state, _ = join_seat(state, "d", 0)
    state = to_next_hand(state)
    hand = state.hand
    assert hand is not None and "d" in hand.order
    p = hand.players["d"]
    assert p.hole or p.up or p.choice or p.forehead is not None
    if mode in ("sevenPoker", "sevenHiLo"):
        assert p.choice is not None and len(p.choice) == 4
    if mode == "indian":
        assert p.forehead is not None
    check_cards(state)
    check_chips(state)
    for viewer in ("a", "b", "c", "d", None):
        check_no_leak(state, viewer)


def test_results_measure_the_late_joiner_against_what_they_brought() -> None:
    """§8.6 ``hands``: score = final chips − startingChips × rebuys for everybody, the joiner included, so
    Σ (final chips − startingChips × (1 + rebuys)) is 0 over all seats (nobody's net is counted twice)."""
    for seed in range(6):
        opts = {"mode": "holdem", "handLimit": 10, "startingChips": 500, "baseUnit": 20, "rebuy": "unlimited"}
        state = setup(["a", "b", "c"], opts, seed=seed)
        state = to_next_hand(state)
        state, _ = join_seat(state, "late", 0)
        state = play_out(state, seed, now=10_000, each=check_chips)
        res = result(state)
        assert res is not None
        rows = {r["playerId"]: r for r in res["ranking"]}
        assert set(rows) == {"a", "b", "c", "late"}
        late = state.seat_of("late")
        assert late is not None and late.joined_at_hand == 1
        for r in rows.values():
            assert r["score"] == r["finalChips"] - 500 * r["rebuys"]
        assert sum(r["finalChips"] - 500 * (1 + r["rebuys"]) for r in rows.values()) == 0


# --- sitting out ----------------------------------------------------------------------------------------


def test_sit_out_from_the_next_hand_and_come_back_with_an_entry_blind() -> None:
    state = setup(["a", "b", "c", "d"], {"mode": "holdem", "baseUnit": 10}, seed=12)
    state, ev = apply(state, "b", {"type": "sitOut"}, 100)
    assert ev[0] == {"type": "sitOut", "player": "b", "sittingOut": True}
    assert state.hand is not None and "b" in state.hand.order  # the current hand is played out
    assert next(s for s in view(state, None)["seats"] if s["id"] == "b")["sittingOut"] is True
    with pytest.raises(Rejected) as err:
        apply(state, "b", {"type": "sitOut"}, 100)
    assert err.value.code == "already_sitting_out"
    state = to_next_hand(state)
    for _ in range(3):  # sitting out: never dealt in, never pays, keeps the chips
        hand = state.hand
        assert hand is not None and "b" not in hand.order and hand.sb != "b" and hand.bb != "b"
        b_stack = state.seat_of("b").stack  # type: ignore[union-attr]
        state = to_next_hand(state)
        assert state.seat_of("b").stack == b_stack  # type: ignore[union-attr]
    state, ev = apply(state, "b", {"type": "sitIn"}, 100)
    assert ev[0] == {"type": "sitOut", "player": "b", "sittingOut": False}
    assert "b" not in state.hand.order  # type: ignore[union-attr]
    state = to_next_hand(state)
    assert "b" in state.hand.order and blinds_of(state)["b"] == 10  # type: ignore[union-attr]
    with pytest.raises(Rejected) as err:
        apply(state, "b", {"type": "sitIn"}, 100)
    assert err.value.code == "not_sitting_out"


def test_sitting_out_and_back_within_one_hand_posts_nothing_extra() -> None:
    state = setup(["a", "b", "c", "d"], {"mode": "holdem", "baseUnit": 10}, seed=12)
    state, _ = apply(state, "b", {"type": "sitOut"}, 100)
    state, _ = apply(state, "b", {"type": "sitIn"}, 200)  # still in this hand: no hand missed
    state = to_next_hand(state)
    hand = state.hand
    assert hand is not None and "b" in hand.order
    expected = 5 if hand.sb == "b" else 10 if hand.bb == "b" else 0
    assert blinds_of(state).get("b", 0) == expected


def test_sitting_out_in_an_ante_mode_pays_no_ante() -> None:
    state = setup(["a", "b", "c"], {"mode": "sevenPoker", "baseUnit": 10}, seed=5)
    state, _ = apply(state, "c", {"type": "sitOut"}, 0)
    state = to_next_hand(state)
    hand = state.hand
    assert hand is not None and hand.order and "c" not in hand.order
    assert blinds_of(state) == {pid: 10 for pid in hand.order}
    state, _ = apply(state, "c", {"type": "sitIn"}, 0)
    state = to_next_hand(state)
    assert blinds_of(state) == {pid: 10 for pid in ("a", "b", "c")}  # back: the ante like everybody


def test_sit_out_needs_two_others_dealt_in() -> None:
    two = setup(["a", "b"], {"mode": "holdem"}, seed=1)
    with pytest.raises(Rejected) as err:
        apply(two, "a", {"type": "sitOut"}, 0)
    assert err.value.code == "cannot_sit_out"
    three = setup(["a", "b", "c"], {"mode": "holdem"}, seed=1)
    three, _ = apply(three, "a", {"type": "sitOut"}, 0)
    with pytest.raises(Rejected):
        apply(three, "b", {"type": "sitOut"}, 0)


def test_sitting_out_players_come_back_rather_than_the_game_stalling() -> None:
    """If the players dealt in drop below two (a bust), those sitting out are dealt back in."""
    state = setup(["a", "b", "c"], {"mode": "holdem", "rebuy": "off"}, seed=2)
    state, _ = apply(state, "c", {"type": "sitOut"}, 0)
    # a is eliminated at this hand's end: give a's chips to b (a rigged but chip-conserving bust)
    hand = state.hand
    assert hand is not None
    a, b = hand.bettors["a"], hand.bettors["b"]
    b.stack += a.stack
    a.stack = 0
    a.folded = True
    state = to_next_hand(state)
    assert state.phase == "playing"
    hand = state.hand
    assert hand is not None and sorted(hand.order) == ["b", "c"]
    assert state.seat_of("c").sitting_out is False  # type: ignore[union-attr]
    assert any("c 복귀" in str(e.get("text", "")) for e in state.public_log), state.public_log[-8:]


def play_out(state: State, seed: int, now: int = 0, each: Callable[[State], None] | None = None) -> State:
    """Random legal moves by whoever may act (a timeout when nobody may) until the game ends; ``each`` is
    called with the state after every move."""
    rng = random.Random(seed)
    for _ in range(20_000):
        if state.phase == "finished":
            return state
        now += 1000
        acting = [(s.id, legal_actions(state, s.id)) for s in state.seats if legal_actions(state, s.id)]
        if not acting:
            state = on_timeout(state, now + 60_000)[0]
            continue
        pid, legal = rng.choice(acting)
        state = apply(state, pid, random_choice_action(rng, rng.choice(legal)), now)[0]
        if each is not None:
            each(state)
    raise AssertionError("the game did not end")


def test_last_standing_with_a_player_sitting_out() -> None:
    """lastStanding: a sitting-out player is never eliminated while resting and comes back when the others
    are down to one, so the game still ends with one player holding every chip."""
    opts = {"mode": "holdem", "endCondition": "lastStanding", "rebuy": "off", "startingChips": 500,
            "baseUnit": 20}
    for seed in range(4):
        state = setup(["a", "b", "c"], opts, seed=seed)
        state, _ = apply(state, "c", {"type": "sitOut"}, 0)
        state = play_out(state, seed)
        assert state.end_reason == "lastStanding"
        res = result(state)
        assert res is not None
        assert res["ranking"][0]["finalChips"] == 1500
        assert [r["eliminatedAtHand"] is None for r in res["ranking"]] == [True, False, False]


def test_hands_game_ends_with_a_sitting_out_player_ranked_by_chips() -> None:
    opts = {"mode": "holdem", "handLimit": 10, "rebuy": "off"}
    state = setup(["a", "b", "c", "d"], opts, seed=7)
    state, _ = apply(state, "d", {"type": "sitOut"}, 0)
    state = to_next_hand(state)
    kept = state.seat_of("d").stack  # type: ignore[union-attr]
    while state.phase != "finished":  # checks and calls only: small pots, nobody busts
        state = to_next_hand(state)
    assert state.hands_played == 10
    res = result(state)
    assert res is not None
    row = next(r for r in res["ranking"] if r["playerId"] == "d")
    assert row["finalChips"] == kept and row["score"] == kept


def test_sit_out_is_refused_without_chips_and_after_leaving() -> None:
    state = setup(["a", "b", "c", "d"], {"mode": "holdem"}, seed=1)
    state, _ = apply(state, "a", {"type": "leave"}, 0)
    with pytest.raises(Rejected) as err:
        apply(state, "a", {"type": "sitOut"}, 0)
    assert err.value.code == "already_left"


def test_new_fields_round_trip_and_old_states_load() -> None:
    state = setup(["a", "b", "c"], {"mode": "holdem"}, seed=1)
    state, _ = join_seat(state, "d", 0)
    state, _ = apply(state, "a", {"type": "sitOut"}, 0)
    again = State.from_json(json.loads(json.dumps(state.to_json())))
    assert state_hash(again) == state_hash(state)
    old = state.to_json()
    for seat in old["seats"]:  # a room stored before seats could change mid-game
        for key in ("sitting_out", "entry_due", "joined_at_hand"):
            del seat[key]
    loaded = State.from_json(old)
    assert [s.sitting_out for s in loaded.seats] == [False] * 4


# --- properties -----------------------------------------------------------------------------------------



@pytest.mark.parametrize("mode", MODES)
def test_random_games_with_joins_and_sitting_out(mode: str) -> None:
    """Chips, cards and secrecy hold after every step while seats join and sit out at random; games replay
    to the same hash."""
    joined = 0
    for seed in range(60):
        opts = {"mode": mode, "handLimit": 10, "startingChips": 500, "baseUnit": 20,
                "rebuy": ["off", "limited", "unlimited"][seed % 3], "blindUpEvery": 5 * (seed % 2),
                "endCondition": "lastStanding" if seed % 4 == 0 else "hands"}
        low, _high = player_range(PokerOptions.model_validate(opts))
        players = low + seed % 2
        state, script = play_random(seed, opts, players, max_steps=220, p_timeout=0.05, p_leave=0.003,
                                    p_join=0.02, p_sit=0.04, check="sample")
        joined += sum(1 for pid, _ in script if pid == "+")
        if seed % 6 == 0:
            assert state_hash(replay(seed, opts, players, script)) == state_hash(state)
        if state.phase == "finished":
            res = result(state)
            assert res is not None and len(res["ranking"]) == len(state.seats)
    assert joined > 20


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mode=st.sampled_from(MODES), seed=st.integers(min_value=0, max_value=2**32),
       p_join=st.sampled_from([0.01, 0.05, 0.15]), p_sit=st.sampled_from([0.0, 0.05, 0.2]))
def test_hypothesis_joins_keep_invariants(mode: str, seed: int, p_join: float, p_sit: float) -> None:
    opts = {"mode": mode, "handLimit": 10, "startingChips": 500, "baseUnit": 20}
    low, _ = player_range(PokerOptions.model_validate(opts))
    state, script = play_random(seed, opts, low, max_steps=120, p_join=p_join, p_sit=p_sit, check="sample")
    check_chips(state)
    check_cards(state)
    assert state_hash(replay(seed, opts, low, script)) == state_hash(state)
