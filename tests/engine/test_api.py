"""The engine's interface contract: options, setup, malformed actions, immutability, JSON round trip,
leaving, blind increases, dealer rules, end conditions and the public log."""

from __future__ import annotations

import itertools
import json
import random
from typing import Any

import pytest
from engine_support import check_cards, check_chips, play_random, random_choice_action

from pokerroom.engine import (
    PokerOptions,
    State,
    apply,
    deadline,
    on_timeout,
    player_range,
    resolved_betting,
    result,
    setup,
    state_hash,
    view,
)
from pokerroom.engine.view import legal_actions
from pokerroom.rejections import Rejected

# ------------------------------------------------------------------------------------------------- options


def test_options_defaults_aliases_and_names() -> None:
    o = PokerOptions()
    assert o.mode == "sevenPoker" and o.starting_chips == 1000 and o.base_unit == 10 and o.hints
    assert PokerOptions.model_validate({"startingChips": 2000}).starting_chips == 2000
    assert PokerOptions(starting_chips=2000).starting_chips == 2000
    assert o.to_json()["startingChips"] == 1000 and "koreanMaxRaise" in o.to_json()


@pytest.mark.parametrize(("mode", "betting"), [("holdem", "noLimit"), ("omaha", "potLimit"),
                                               ("indian", "noLimit"), ("sevenPoker", "korean"),
                                               ("sevenHiLo", "korean"), ("badugi", "korean"),
                                               ("fiveDraw", "korean")])
def test_auto_betting_resolution(mode: str, betting: str) -> None:
    assert resolved_betting(PokerOptions.model_validate({"mode": mode})) == betting
    assert resolved_betting(PokerOptions.model_validate({"mode": mode, "betting": "potLimit"})) == "potLimit"


def test_options_validation_in_korean() -> None:
    with pytest.raises(Rejected) as info:
        PokerOptions.from_json({"startingChips": 500, "baseUnit": 50})
    assert "20배" in info.value.message and info.value.code == "bad_options"
    with pytest.raises(Rejected):
        PokerOptions.from_json({"mode": "poker"})
    with pytest.raises(Rejected):
        PokerOptions.from_json({"handLimit": 11})
    with pytest.raises(Rejected) as info:
        PokerOptions.from_json({"bogus": 1})
    assert "알 수 없는 옵션" in info.value.message
    # options of other modes are accepted and ignored
    assert PokerOptions.from_json({"mode": "holdem", "drawLimit": "three", "indianCards": 2}).mode == "holdem"


def test_player_range_and_setup_limits() -> None:
    assert player_range(PokerOptions(mode="holdem")) == (2, 10)
    assert player_range(PokerOptions(mode="sevenPoker")) == (2, 6)
    assert player_range(PokerOptions(mode="indian")) == (2, 6)
    assert player_range(PokerOptions.model_validate({"mode": "indian", "indianDeck": "d52"})) == (2, 10)
    assert player_range(PokerOptions.model_validate(
        {"mode": "indian", "indianDeck": "d52", "indianCards": 2})) == (2, 6)
    with pytest.raises(Rejected) as info:
        setup([f"p{i}" for i in range(7)], {"mode": "badugi"}, seed=1)
    assert info.value.message == "이 모드는 최대 6명까지 할 수 있어요"
    with pytest.raises(Rejected):
        setup(["solo"], {"mode": "holdem"}, seed=1)
    s = setup([f"p{i}" for i in range(10)], {"mode": "holdem"}, seed=1)
    check_cards(s)
    check_chips(s)


def test_setup_is_seeded() -> None:
    a = setup(["x", "y", "z"], {"mode": "holdem"}, seed=42)
    b = setup(["x", "y", "z"], {"mode": "holdem"}, seed=42)
    assert state_hash(a) == state_hash(b)
    seatings = {tuple(s.id for s in setup(["x", "y", "z"], {}, seed=k).seats) for k in range(30)}
    assert len(seatings) > 1
    dealers = {setup(["x", "y", "z"], {}, seed=k).hand.dealer_seat for k in range(30)}  # type: ignore[union-attr]
    assert dealers == {0, 1, 2}


# ------------------------------------------------------------------------------------------------- actions


@pytest.mark.parametrize("bad", [
    None, 3, "k.call", [], {}, {"type": 5}, {"type": "k.bogus"}, {"type": "k.call", "amount": 10},
    {"type": "nl.raise"}, {"type": "nl.raise", "to": "50"}, {"type": "nl.raise", "to": True},
    {"type": "nl.raise", "to": 5.5}, {"type": "nl.raise", "to": -1}, {"type": "choose", "discardId": 1},
    {"type": "choose", "discardId": 1, "openId": False}, {"type": "draw", "cardIds": [True]},
    {"type": "draw", "cardIds": "1,2"}, {"type": "draw", "cardIds": [1], "x": 1},
    {"type": "declare", "side": "both"}, {"type": "rebuy", "accept": 1}, {"type": "rebuy"},
    {"type": "ready", "now": True}, {"type": "leave", "why": "bye"},
])
def test_malformed_actions_are_rejected_not_crashing(bad: Any) -> None:
    s = setup(["a", "b", "c"], {"mode": "sevenPoker"}, seed=3)
    before = state_hash(s)
    for pid in ("a", "b", "c", "nobody"):
        with pytest.raises(Rejected) as info:
            apply(s, pid, bad, 10)
        assert info.value.code and info.value.message
    assert state_hash(s) == before


def test_apply_never_mutates_its_input_even_when_refusing() -> None:
    rng = random.Random(5)
    for mode in ("holdem", "sevenHiLo", "badugi", "indian"):
        s = setup(["a", "b", "c"], {"mode": mode}, seed=9)
        now = 0
        for _ in range(60):
            if s.phase == "finished":
                break
            now += 500
            frozen = json.dumps(s.to_json(), sort_keys=True)
            pid = rng.choice(["a", "b", "c"])
            legal = legal_actions(s, pid)
            wrong = {"type": rng.choice(["k.half", "nl.call", "ready", "draw", "choose"])}
            try:
                apply(s, pid, wrong, now)
            except Rejected:
                pass
            assert json.dumps(s.to_json(), sort_keys=True) == frozen
            if legal:
                s2, _ = apply(s, pid, random_choice_action(rng, rng.choice(legal)), now)
                assert json.dumps(s.to_json(), sort_keys=True) == frozen
                s = s2
            else:
                s2, _ = on_timeout(s, deadline(s) or now)
                assert json.dumps(s.to_json(), sort_keys=True) == frozen
                s = s2


def test_wrong_turn_and_wrong_phase_messages() -> None:
    g = setup(["a", "b", "c"], {"mode": "badugi"}, seed=2)
    hand = g.hand
    assert hand is not None and hand.rnd is not None
    other = next(p for p in hand.order if p != hand.rnd.to_act)
    with pytest.raises(Rejected) as info:
        apply(g, other, {"type": "k.check"}, 1)
    assert info.value.message == "지금은 내 차례가 아니에요"
    with pytest.raises(Rejected) as info:
        apply(g, hand.rnd.to_act, {"type": "nl.check"}, 1)
    assert info.value.code == "wrong_betting_system"
    with pytest.raises(Rejected) as info:
        apply(g, "a", {"type": "ready"}, 1)
    assert info.value.code == "wrong_phase"


def test_on_timeout_before_deadline_is_a_no_op() -> None:
    s = setup(["a", "b"], {"mode": "holdem"}, seed=1)
    d = deadline(s)
    assert d == 20_000
    same, events = on_timeout(s, d - 1)
    assert same is s and events == []


def test_simultaneous_phase_deadline_is_turn_plus_ten() -> None:
    s = setup(["a", "b"], {"mode": "sevenPoker", "turnSeconds": 30}, seed=1, now_ms=1000)
    assert view(s, None)["phase"] == "choice" and deadline(s) == 1000 + 40_000
    s2, ev = on_timeout(s, 41_000)
    assert view(s2, None)["phase"] == "betting"
    assert [e["player"] for e in ev if e["type"] == "timeout"] != []
    # §8.5: lowest card discarded, lowest of the rest opened
    for pid in ("a", "b"):
        hp = s.hand.players[pid]  # type: ignore[union-attr]
        ranked = sorted(hp.choice or [], key=lambda c: (c.rank, "CHDS".index(c.suit)))
        assert s2.hand.players[pid].up[0] == ranked[1]  # type: ignore[union-attr]


# ------------------------------------------------------------------------------------------------- JSON


def test_json_round_trip_mid_hand_continues_identically() -> None:
    rng = random.Random(1)
    for mode in ("holdem", "omaha", "sevenPoker", "sevenHiLo", "badugi", "fiveDraw", "indian"):
        state, _ = play_random(3, {"mode": mode}, 3, max_steps=15, check="none")
        restored = State.from_json(json.loads(json.dumps(state.to_json())))
        assert state_hash(restored) == state_hash(state)
        assert view(restored, "p0") == view(state, "p0")
        now = 100_000
        for _ in range(30):
            if state.phase == "finished":
                break
            now += 1000
            movers = [(s.id, legal_actions(state, s.id)) for s in state.seats]
            movers = [(p, lg) for p, lg in movers if lg]
            if not movers:
                state, _ = on_timeout(state, deadline(state) or now)
                restored, _ = on_timeout(restored, deadline(restored) or now)
                continue
            pid, legal = rng.choice(movers)
            action = random_choice_action(rng, rng.choice(legal))
            state, ev1 = apply(state, pid, action, now)
            restored, ev2 = apply(restored, pid, action, now)
            assert ev1 == ev2
        assert state_hash(restored) == state_hash(state)


# ------------------------------------------------------------------------------------------------- leaving


def test_leave_folds_keeps_chips_and_auto_dies_every_hand() -> None:
    s = setup(["a", "b", "c"], {"mode": "badugi"}, seed=4)
    hand = s.hand
    assert hand is not None
    leaver = next(p for p in hand.order if p != hand.rnd.to_act)  # type: ignore[union-attr]
    s, _ev = apply(s, leaver, {"type": "leave"}, 10)
    assert s.hand.bettors[leaver].folded  # type: ignore[union-attr]
    seat = s.seat_of(leaver)
    assert seat is not None and seat.status == "left" and seat.stack == 990
    with pytest.raises(Rejected):
        apply(s, leaver, {"type": "leave"}, 11)
    with pytest.raises(Rejected):
        apply(s, leaver, {"type": "k.check"}, 11)
    for _ in range(200):
        if s.hand.hand_no >= 3 or s.phase == "finished":  # type: ignore[union-attr]
            break
        s, _ = on_timeout(s, deadline(s))  # type: ignore[arg-type]
    assert s.hand is not None and s.hand.hand_no >= 3
    assert s.hand.bettors[leaver].folded and s.hand.bettors[leaver].committed_total == 10
    check_chips(s)


def test_game_ends_when_one_connected_player_with_chips_is_left() -> None:
    s = setup(["a", "b", "c"], {"mode": "holdem"}, seed=4)
    s, _ = apply(s, "a", {"type": "leave"}, 10)
    assert s.phase != "finished"
    s, ev = apply(s, "b", {"type": "leave"}, 20)
    assert s.phase == "finished" and any(e["type"] == "gameEnd" for e in ev)
    res = result(s)
    assert res is not None and len(res["ranking"]) == 3
    check_chips(s)


# ------------------------------------------------------------------------------- levels, dealers, ends


def _next_hand(s: State) -> State:
    start = s.hand.hand_no  # type: ignore[union-attr]
    while s.phase != "finished" and s.hand.hand_no == start:  # type: ignore[union-attr]
        s, _ = on_timeout(s, deadline(s))  # type: ignore[arg-type]
    return s


def test_blind_up_every_n_hands_capped_at_a_fifth_of_the_stack() -> None:
    s = setup(["a", "b"], {"mode": "holdem", "blindUpEvery": 5, "startingChips": 500, "baseUnit": 20,
                           "handLimit": 50, "rebuy": "unlimited"}, seed=8)
    units = []
    for _ in range(16):
        units.append((s.hand.hand_no, s.base_unit))  # type: ignore[union-attr]
        s = _next_hand(s)
        if s.phase == "finished":
            break
    assert (5, 20) in units and (6, 40) in units and (11, 80) in units and (16, 100) in units
    assert view(s, None)["level"] == 4


def test_dealer_rotates_and_winner_rule_gives_button_to_last_winner() -> None:
    s = setup(["a", "b", "c"], {"mode": "badugi"}, seed=6)
    seats = [s.hand.dealer_seat]  # type: ignore[union-attr]
    for _ in range(3):
        s = _next_hand(s)
        seats.append(s.hand.dealer_seat)  # type: ignore[union-attr]
    assert all((b - a) % 3 == 1 for a, b in itertools.pairwise(seats))
    w = setup(["a", "b", "c"], {"mode": "badugi", "dealerRule": "winner"}, seed=6)
    for _ in range(4):
        w = _next_hand(w)
        if w.last_winner is not None:
            assert w.seat_of(w.last_winner).seat == w.hand.dealer_seat  # type: ignore[union-attr]


def test_hands_game_ends_after_hand_limit_with_result() -> None:
    s = setup(["a", "b", "c"], {"mode": "fiveDraw", "handLimit": 10}, seed=2)
    while s.phase != "finished":
        s, _ = on_timeout(s, deadline(s))  # type: ignore[arg-type]
    res = result(s)
    assert res is not None and res["stats"]["handsPlayed"] == 10
    assert res["summary"].startswith("10판 종료. ")
    best = res["stats"]["bestHand"]
    assert best is not None and set(best) == {"playerId", "handName", "handNo"}
    assert res["stats"]["biggestPot"]["amount"] > 0 and res["stats"]["biggestPot"]["winners"]
    assert [r["rank"] for r in res["ranking"]] == sorted(r["rank"] for r in res["ranking"])
    assert view(s, None)["result"] == res and view(s, None)["phase"] == "finished"
    with pytest.raises(Rejected):
        apply(s, "a", {"type": "ready"}, 10**9)


def test_last_standing_safety_stop_at_300_hands() -> None:
    s = setup(["a", "b"], {"mode": "holdem", "endCondition": "lastStanding"}, seed=2)
    s.hands_played = 299
    while s.phase != "finished":
        s, _ = on_timeout(s, deadline(s))  # type: ignore[arg-type]
    assert s.end_reason == "safety"
    res = result(s)
    assert res is not None
    for r in res["ranking"]:
        assert r["score"] == r["finalChips"] - 1000 * r["rebuys"]


def test_public_log_keeps_last_100_without_secrets() -> None:
    s = setup(["a", "b", "c", "d"], {"mode": "holdem", "handLimit": 20}, seed=5)
    for _ in range(12):
        s = _next_hand(s)
    log = view(s, None)["publicLog"]
    assert len(log) == 100
    assert all(set(e) == {"handNo", "type", "text"} for e in log)


def test_rebuy_timeout_declines_and_off_eliminates() -> None:
    s = setup(["a", "b", "c"], {"mode": "holdem", "rebuy": "off", "endCondition": "lastStanding"}, seed=3)
    s2, _ = play_random(3, {"mode": "holdem", "rebuy": "off", "endCondition": "lastStanding",
                            "startingChips": 500, "baseUnit": 20}, 3, max_steps=5000, check="none")
    assert s2.phase == "finished"
    assert all(seat.status in ("eliminated", "left", "playing") for seat in s2.seats)
    assert s.phase == "playing"


def _assert_deep_copy(original: Any, copy_: Any, path: str) -> None:
    """Every dataclass field equal, and no list/dict of the live state shared between the two."""
    import dataclasses

    if dataclasses.is_dataclass(original) and not isinstance(original, type):
        assert type(copy_) is type(original), path
        frozen = type(original).__dataclass_params__.frozen
        if not frozen and not path.startswith("state.hand.pots["):  # pots are rebuilt, never mutated
            assert copy_ is not original, f"{path} is shared"
        for f in dataclasses.fields(original):
            _assert_deep_copy(getattr(original, f.name), getattr(copy_, f.name), f"{path}.{f.name}")
    elif isinstance(original, (list, dict)):
        assert copy_ == original, path
        # records written once and never mutated (log entries, showdown, awards, pots' dicts) may be shared;
        # the containers the engine appends to or mutates may not
        if not path.startswith(("state.public_log[", "state.hand.showdown", "state.hand.awards",
                                "state.hand.penalties[", "state.hand.pots[", "state.biggest_pot",
                                "state.best_hand")):
            assert copy_ is not original or not original, f"{path} is shared"
        items = original.items() if isinstance(original, dict) else enumerate(original)
        for k, v in items:
            other = copy_[k]
            _assert_deep_copy(v, other, f"{path}[{k!r}]")
    else:
        assert copy_ == original, path


def test_clone_copies_every_field_and_shares_no_mutable_container() -> None:
    """``State.clone`` is written out field by field for speed: a field it forgets would be reset or shared.

    Checked after every step of a game in every mode, so each field is seen with a non-default value.
    """
    from engine_support import actors

    for mode in ("holdem", "omaha", "sevenPoker", "sevenHiLo", "badugi", "fiveDraw", "indian"):
        rng = random.Random(mode)
        state = setup(["a", "b", "c"], {"mode": mode}, seed=17)
        now = 0
        for _ in range(150):
            copy_ = state.clone()
            assert copy_.rng is state.rng
            _assert_deep_copy(state, copy_, "state")
            assert state_hash(copy_) == state_hash(state)
            if state.phase == "finished":
                break
            now += 1000
            acting = actors(state)
            if not acting or rng.random() < 0.05:
                state, _ = on_timeout(state, max(now, deadline(state) or now))
            else:
                pid, legal = rng.choice(acting)
                state, _ = apply(state, pid, random_choice_action(rng, rng.choice(legal)), now)


@pytest.mark.parametrize("bad", [
    {"startingChips": 1000.0}, {"handLimit": True}, {"turnSeconds": "20"}, {"rebuyLimit": True},
    {"hints": "yes"}, {"hints": 1}, {"indianFoldPenalty": None}, {"indianCards": 1.0},
])
def test_options_take_json_types_exactly(bad: dict[str, Any]) -> None:
    """5.0, "5" and true are not the integer 5, and 1 or "yes" is not a switch (a lax parse stored them)."""
    with pytest.raises(Rejected) as info:
        PokerOptions.from_json(bad)
    assert info.value.code == "bad_options" and info.value.message.startswith("옵션 값이 올바르지 않아요: ")
    assert PokerOptions.from_json({"startingChips": 2000, "hints": False}).starting_chips == 2000
