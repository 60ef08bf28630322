"""Fixes reported by other teams: Indian ``indianUsed`` at hand end, the first hand's events from setup, and
chip conservation through rebuys (accepted, declined, timed out) and leaves in every mode."""

from __future__ import annotations

import random
from typing import Any

import pytest
from engine_support import actors, check_cards, check_chips, random_choice_action

from pokerroom.engine import (
    PokerOptions,
    apply,
    deadline,
    on_timeout,
    player_range,
    setup,
    setup_with_events,
    state_hash,
    view,
)
from pokerroom.engine.state import State

MODES = ["holdem", "omaha", "sevenPoker", "sevenHiLo", "badugi", "fiveDraw", "indian"]


# ------------------------------------------------------------------------------------- Indian indianUsed


def _check_around(state: State, now: int) -> tuple[State, int]:
    """Everybody checks (or calls) until the hand ends."""
    while state.phase == "playing" and state.hand is not None and state.hand.phase == "betting":
        assert state.hand.rnd is not None and state.hand.rnd.to_act is not None
        pid = state.hand.rnd.to_act
        kinds = {a["type"] for a in view(state, pid)["me"]["legalActions"]}
        now += 100
        state, _ = apply(state, pid, {"type": "nl.check" if "nl.check" in kinds else "nl.call"}, now)
    return state, now


@pytest.mark.parametrize("cards", [1, 2])
@pytest.mark.parametrize("reshuffle", ["whenEmpty", "everyHand"])
def test_indian_used_lists_the_hand_cards_at_hand_end(cards: int, reshuffle: str) -> None:
    ids = ["a", "b", "c"]
    state = setup(ids, {"mode": "indian", "indianCards": cards, "indianReshuffle": reshuffle}, seed=5)
    now = 0
    used_before: list[dict[str, Any]] = []
    for _hand in range(3):
        hand = state.hand
        assert hand is not None
        assert view(state, None)["indianUsed"] == used_before  # nothing of the running hand yet
        state, now = _check_around(state, now)
        hand = state.hand
        assert hand is not None and hand.phase == "handEnd"
        this_hand = []
        for pid in hand.order:
            p = hand.players[pid]
            assert p.forehead is not None
            this_hand += [p.forehead.to_json()] + [c.to_json() for c in p.hole]
        assert len(this_hand) == 3 * cards
        for viewer in [*ids, None]:
            assert view(state, viewer)["indianUsed"] == used_before + this_hand
        check_cards(state)
        check_chips(state)
        events: list[dict[str, Any]] = []
        for pid in ids:
            now += 100
            state, events = apply(state, pid, {"type": "ready"}, now)
        check_cards(state)
        # the next hand keeps the list (whenEmpty, until the kept deck runs short) or starts a new one
        reshuffled = any(e["type"] == "reshuffle" for e in events)
        used_before = used_before + this_hand if reshuffle == "whenEmpty" and not reshuffled else []
        assert view(state, None)["indianUsed"] == used_before


def test_indian_used_after_the_last_hand() -> None:
    state = setup(["a", "b"], {"mode": "indian", "handLimit": 10}, seed=3)
    now = 0
    while state.phase != "finished":
        state, now = _check_around(state, now)
        for pid in ("a", "b"):
            if state.phase == "playing":
                now += 100
                state, _ = apply(state, pid, {"type": "ready"}, now)
        check_cards(state)
    # 10 two-player hands of the 20-card deck: every card was used, none reshuffled yet
    assert len(view(state, None)["indianUsed"]) == 20


# ------------------------------------------------------------------------------------ setup_with_events


@pytest.mark.parametrize("mode", MODES)
def test_setup_with_events_returns_the_first_hand_events(mode: str) -> None:
    ids = ["a", "b", "c"]
    state, events = setup_with_events(ids, {"mode": mode}, seed=9, now_ms=0)
    assert state_hash(state) == state_hash(setup(ids, {"mode": mode}, seed=9, now_ms=0))
    types = [e["type"] for e in events]
    assert types[0] == "handStart"
    assert events[0]["handNo"] == 1 and sorted(events[0]["players"]) == ids
    forced = "blind" if mode in ("holdem", "omaha") else "ante"
    assert types.count(forced) == (2 if forced == "blind" else 3)
    assert "dealt" in types
    if mode != "sevenPoker" and mode != "sevenHiLo":
        assert types[-1] == "roundStart"
    # the same lines as the public log of the new state
    logged = [e["type"] for e in view(state, None)["publicLog"]]
    assert logged == [t for t in types if t in ("handStart", "ante", "blind", "reshuffle")]


# ------------------------------------------------------------------ chips through rebuys, timeouts, leaves


def _aggressive(rng: random.Random, legal: list[dict[str, Any]]) -> dict[str, Any]:
    """Bust players fast: shove or raise big often, otherwise a random legal action."""
    kinds = {a["type"]: a for a in legal}
    r = rng.random()
    if r < 0.35:
        if "nl.allIn" in kinds:
            return {"type": "nl.allIn"}
        for kind in ("k.full", "k.half", "k.ddadang", "k.quarter"):
            if kind in kinds:
                return {"type": kind}
        if "nl.raise" in kinds:
            return {"type": "nl.raise", "to": kinds["nl.raise"]["max"]}
    if r < 0.6:
        for kind in ("k.call", "nl.call", "k.check", "nl.check"):
            if kind in kinds:
                return {"type": kind}
    return random_choice_action(rng, rng.choice(legal))


def _play_rebuy_game(mode: str, seed: int, steps: int = 400) -> tuple[int, int, int]:
    """One game; checks chips and cards after every step. Returns (accepted, declined, rebuy timeouts)."""
    rng = random.Random(seed)
    opts: dict[str, Any] = {
        "mode": mode,
        "startingChips": 500,
        "baseUnit": 20,
        "rebuy": rng.choice(["unlimited", "unlimited", "limited"]),
        "rebuyLimit": rng.choice([1, 2, 3]),
        "endCondition": rng.choice(["hands", "lastStanding"]),
        "handLimit": rng.choice([10, 20]),
        "betting": rng.choice(["auto", "korean", "noLimit", "potLimit"]),
        "blindUpEvery": rng.choice([0, 5]),
    }
    if mode == "indian":
        opts["indianCards"] = rng.choice([1, 2])
        opts["indianFoldPenalty"] = True
        opts["indianTie"] = rng.choice(["carry", "split"])
    low, high = player_range(PokerOptions.model_validate(opts))
    players = 4 if seed % 3 else rng.randint(low, min(high, 6))
    ids = [f"p{i}" for i in range(players)]
    state = setup(ids, opts, seed=seed)
    check_chips(state)
    now = 0
    accepted = declined = timed_out = 0
    for _ in range(steps):
        if state.phase == "finished":
            break
        now += 1000
        r = rng.random()
        if r < 0.01:
            pid = rng.choice(ids)
            seat = state.seat_of(pid)
            assert seat is not None
            if seat.status != "left":
                state, _ = apply(state, pid, {"type": "leave"}, now)
        elif state.phase == "rebuy":
            if rng.random() < 0.3:
                due = deadline(state)
                assert due is not None
                now = max(now, due)
                before = len(state.rebuy_pending)
                state, events = on_timeout(state, now)
                timed_out += sum(1 for e in events if e["type"] == "timeout") if before else 0
            else:
                pid = rng.choice([p for p, _ in actors(state)])
                accept = rng.random() < 0.6
                state, events = apply(state, pid, {"type": "rebuy", "accept": accept}, now)
                accepted += accept
                declined += not accept
                if accept:
                    seat = state.seat_of(pid)
                    assert seat is not None
                    assert state.phase == "finished" or seat.stack > 0 or (
                        state.hand is not None and state.hand.bettors.get(pid) is not None
                        and state.hand.bettors[pid].committed_total > 0
                    ), f"{pid} accepted a rebuy but has no chips"
        else:
            acting = actors(state)
            if not acting or rng.random() < 0.05:
                due = deadline(state)
                assert due is not None
                now = max(now, due)
                state, _ = on_timeout(state, now)
            else:
                pid, legal = rng.choice(acting)
                state, _ = apply(state, pid, _aggressive(rng, legal), now)
        check_chips(state)
        check_cards(state)
        for s in state.seats:
            assert s.stack >= 0
    return accepted, declined, timed_out


@pytest.mark.parametrize("mode", MODES)
def test_rebuys_conserve_chips(mode: str) -> None:
    totals = [0, 0, 0]
    for seed in range(30):
        got = _play_rebuy_game(mode, 1000 * MODES.index(mode) + seed)
        totals = [a + b for a, b in zip(totals, got, strict=True)]
    accepted, declined, timed_out = totals
    assert accepted > 0 and declined > 0 and timed_out > 0, totals


# ------------------------------------------------------------------------- the engine's fast shuffle


def test_deal_shuffle_is_dealrng_shuffle_on_the_states_own_copy() -> None:
    """``deal.shuffle`` gives DealRng.shuffle's order and position, and never advances a shared rng."""
    from types import SimpleNamespace

    from pokerroom.engine import deal
    from pokerroom.rng import DealRng

    for k in range(50):
        r = random.Random(k)
        seed = r.getrandbits(256).to_bytes(32, "big")
        offset = r.randrange(0, 3000)
        n = r.choice([0, 1, 2, 20, 52])
        want, got = list(range(n)), list(range(n))
        reference = DealRng(seed, offset)
        reference.shuffle(want)
        original = DealRng(seed, offset)
        holder: Any = SimpleNamespace(rng=original)
        deal.shuffle(holder, got)
        assert got == want
        assert holder.rng.consumed == reference.consumed
        assert original.consumed == offset  # the shared rng of the input state is untouched
