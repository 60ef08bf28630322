"""Shared helpers for the engine tests: a seeded random player and invariant checks.

The random player draws only from ``legalActions`` (plus random timeouts, leaves and rebuy answers), with a
local ``random.Random`` so every run is reproducible from its seed.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

from pokerroom.cards import deck_for
from pokerroom.engine import apply, deadline, on_timeout, setup, view
from pokerroom.engine.audit import card_locations, chips_accounted, chips_expected
from pokerroom.engine.state import State
from pokerroom.engine.view import legal_actions


def random_choice_action(rng: random.Random, entry: dict[str, Any]) -> dict[str, Any]:
    """A concrete wire action for one legalActions entry."""
    t = entry["type"]
    if t == "nl.raise":
        lo, hi = entry["min"], entry["max"]
        to = lo if rng.random() < 0.5 else rng.randint(lo, hi)
        return {"type": t, "to": to}
    if t == "choose":
        d, o = rng.sample(entry["cardIds"], 2)
        return {"type": "choose", "discardId": d, "openId": o}
    if t == "draw":
        k = rng.randint(0, entry["max"])
        return {"type": "draw", "cardIds": rng.sample(entry["cardIds"], k)}
    if t == "declare":
        return {"type": "declare", "side": rng.choice(entry["sides"])}
    if t == "rebuy":
        return {"type": "rebuy", "accept": rng.random() < 0.7}
    return {"type": t}


def actors(state: State) -> list[tuple[str, list[dict[str, Any]]]]:
    out = []
    for s in state.seats:
        legal = legal_actions(state, s.id)
        if legal:
            out.append((s.id, legal))
    return out


def check_cards(state: State) -> None:
    kind = state.options.indian_deck if state.options.mode == "indian" else "d52"
    seen = card_locations(state)
    full = Counter(deck_for(kind))
    assert seen == full, f"cards: extra={seen - full} missing={full - seen}"


def check_chips(state: State) -> None:
    assert chips_accounted(state) == chips_expected(state), (chips_accounted(state), chips_expected(state))


def secrets_for(state: State, viewer: str | None) -> list[str]:
    """JSON fragments that must not appear in ``viewer``'s view: others' hidden cards, deck, discards."""
    hand = state.hand
    if hand is None:
        return []
    bad: list[Any] = []
    done = hand.phase == "handEnd" or state.phase != "playing"
    bad.extend(hand.deck)
    for pid, p in hand.players.items():
        mine = pid == viewer
        if not mine and not p.shown:
            bad.extend(p.hole)
            if p.choice:
                bad.extend(p.choice)
        if not mine and p.discarded is not None:
            bad.append(p.discarded)
        if p.forehead is not None and not (done and p.shown):
            if mine or viewer is None or viewer not in hand.players:
                bad.append(p.forehead)
    frags = []
    for c in bad:
        frags.append(json.dumps(c.to_json(), separators=(",", ":")))
        frags.append(f'"id":{c.id},')
    return frags


def check_no_leak(state: State, viewer: str | None, extra: list[dict[str, Any]] | None = None) -> None:
    v = view(state, viewer)
    text = json.dumps(v, separators=(",", ":"))
    # hidden-card ids must not appear at all: every visible card is {"id":..,"rank":..,"suit":..}
    for frag in secrets_for(state, viewer):
        if frag.startswith('"id"'):
            continue
        assert frag not in text, f"leak to {viewer}: {frag}"
    _check_ids(v, state, viewer)
    if extra:
        etext = json.dumps(extra, separators=(",", ":"))
        for frag in secrets_for(state, None):
            if not frag.startswith('"id"'):
                assert frag not in etext, f"event leak: {frag}"


def _check_ids(v: dict[str, Any], state: State, viewer: str | None) -> None:
    """Every card dict in the view that carries an id must be a card this viewer may see."""
    secret_ids = set()
    for frag in secrets_for(state, viewer):
        if frag.startswith('"id"'):
            secret_ids.add(int(frag[5:-1]))
    found: list[int] = []

    def walk(x: Any) -> None:
        if isinstance(x, dict):
            if "rank" in x and "suit" in x and "id" in x:
                found.append(x["id"])
            if "hidden" in x:
                assert set(x) == {"hidden", "slot"}, x
            for key, val in x.items():
                if key in ("cardIds", "discardId", "openId", "drawPending") and viewer is not None:
                    continue  # my own legal action ids / my own submission
                walk(val)
        elif isinstance(x, list):
            for y in x:
                walk(y)

    walk(v)
    leaked = secret_ids & set(found)
    assert not leaked, f"card ids leaked to {viewer}: {leaked}"


def play_random(
    seed: int,
    options: dict[str, Any],
    players: int,
    *,
    max_steps: int = 3000,
    p_timeout: float = 0.05,
    p_leave: float = 0.002,
    check: str = "all",
) -> tuple[State, list[tuple[str, Any]]]:
    """Play one random game; returns the final state and the (player, action|'timeout') script."""
    rng = random.Random(seed)
    ids = [f"p{i}" for i in range(players)]
    state = setup(ids, options, seed=seed, now_ms=0)
    now = 0
    script: list[tuple[str, Any]] = []
    if check != "none":
        check_chips(state)
        check_cards(state)
    for step in range(max_steps):
        if state.phase == "finished":
            break
        now += 1000
        r = rng.random()
        events: list[dict[str, Any]]
        if r < p_leave:
            pid = rng.choice(ids)
            seat = state.seat_of(pid)
            assert seat is not None
            if seat.status == "left":
                continue
            state, events = apply(state, pid, {"type": "leave"}, now)
            script.append((pid, {"type": "leave", "_now": now}))
        elif r < p_leave + p_timeout or not actors(state):
            d = deadline(state)
            if d is None:
                raise AssertionError("nobody can act and no deadline")
            now = max(now, d)
            state, events = on_timeout(state, now)
            script.append(("*", {"type": "timeout", "_now": now}))
        else:
            pid, legal = rng.choice(actors(state))
            action = random_choice_action(rng, rng.choice(legal))
            state, events = apply(state, pid, action, now)
            script.append((pid, {**action, "_now": now}))
        if check != "none":
            check_chips(state)
            check_cards(state)
            if check == "all" or step % 5 == 0:
                for viewer in [*ids, None]:
                    check_no_leak(state, viewer, events)
            else:
                check_no_leak(state, rng.choice([*ids, None]), events)
    return state, script
