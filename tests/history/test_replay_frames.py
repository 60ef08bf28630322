"""The replay of a finished hand: one view per step in the table's own shape, and no card a viewer could not
see at that step (a property over random hands of every mode, checked against the engine's live views)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from replay_support import cards_in, play

from pokerroom.history import HandRecord
from pokerroom.history.frames import replay_frames
from pokerroom.history.steps import public_steps

MODES = ["holdem", "omaha", "sevenPoker", "sevenHiLo", "badugi", "fiveDraw", "indian"]
EXTRA: dict[str, dict[str, Any]] = {"indian": {"indianCards": 2}}


def _check_hand(played: Any, rec: HandRecord) -> None:
    for viewer in [*played.ids, None]:
        frames = replay_frames(rec, viewer)
        steps = list(public_steps(rec))  # the same steps, in the same order: their event indexes
        assert frames and len(frames) == len(steps)
        for frame, at in zip(frames, steps, strict=True):
            step, view = frame["step"], frame["view"]
            allowed = played.allowed(rec.hand_no, at.index, viewer)
            leaked = (cards_in(view) | cards_in(step)) - allowed
            assert not leaked, f"{rec.mode} hand {rec.hand_no}: {viewer} sees {leaked} at {step.get('type')}"
            if viewer is None or viewer not in rec.order:
                assert view["me"] is None
        last = frames[-1]["view"]
        assert {s["id"]: s["stack"] for s in last["seats"]} == rec.finishing_stacks
        assert last["handNet"] == played.nets[rec.hand_no]  # the live table's figures, not the pots


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mode=st.sampled_from(MODES), players=st.integers(2, 5), seed=st.integers(0, 10_000))
def test_no_replay_frame_shows_a_card_its_viewer_could_not_see(mode: str, players: int, seed: int) -> None:
    """Every card in every frame (and its step's event) for a player or a spectator was in that viewer's
    live view by the change that held the step: own cards as dealt, others' only once shown."""
    played = play(mode, players, seed, hands=2, **EXTRA.get(mode, {}))
    for rec in played.hands:
        _check_hand(played, rec)


@pytest.mark.parametrize("mode", MODES)
def test_frames_follow_the_hand_with_ranked_names(mode: str) -> None:
    """Steps in order, the viewer's own cards from the deal, ranked names ("K 투페어") where the table names,
    and the last frame's stacks are the hand's finishing stacks."""
    played = play(mode, 3, 7, hands=3, **EXTRA.get(mode, {}))
    assert played.hands
    named = False
    for rec in played.hands:
        _check_hand(played, rec)
        player = rec.order[0]
        frames = replay_frames(rec, player)
        kinds = [f["step"]["type"] for f in frames]
        assert kinds[0] == "deal" and kinds[-1] in ("handEnd", "shown")
        first_me = frames[0]["view"]["me"]
        assert first_me["hole"] or first_me["choice"] or (mode == "indian" and first_me["forehead"] == "?")
        for f in frames:
            me = f["view"]["me"]
            named = named or (bool(me["rankName"]) and me["rankName"] != me["handName"])
    if mode != "indian":
        assert named, "a ranked name (with its rank) along the way"


@pytest.mark.parametrize("mode", ["sevenPoker", "badugi", "holdem", "indian"])
def test_records_kept_before_own_steps_still_replay_within_the_rule(mode: str) -> None:
    """A record stored before ``own_steps`` existed knows its players' cards at the end only: the replay shows
    them from the last exchange or pick on (never a card before it was held), from the deal where they
    never change."""
    played = play(mode, 3, 11, hands=2, **EXTRA.get(mode, {}))
    for rec in played.hands:
        rec.own_steps.clear()
        _check_hand(played, rec)
        first = replay_frames(rec, rec.order[0])[0]["view"]["me"]
        if mode == "holdem":
            assert first["hole"], "hold'em cards never change: shown from the deal"


@pytest.mark.parametrize("seed", [3, 7])
def test_a_seven_poker_replays_deal_step_names_its_new_street(seed: int) -> None:
    """A 7 Poker street's deal is one step of the replay with the new street's name and first actor (its
    ``roundStart``), its log line's ``street`` event with them, not pushed on to the first bet's step."""
    played = play("sevenPoker", 3, seed, hands=3)
    seen = 0
    for rec in played.hands:
        steps = list(public_steps(rec))
        for i, e in enumerate(rec.events):
            if e["type"] != "street":
                continue
            step = next(s for s in steps if s.index >= i)
            assert step.event == {"type": "deal"}, step.event
            if i + 1 < len(rec.events) and rec.events[i + 1]["type"] == "roundStart":
                assert step.index >= i + 1 and step.view["streetName"] == e["streetName"], (step.view, e)
                seen += 1
    assert seen >= 3, seen
