"""Random games with the hold'em/Omaha house options (antes, big-blind ante, straddle, run it twice).

After every step of every game (engine_support.play_random, ``check="sample"``): chips are conserved (a dead
big-blind ante included), every card of the deck is in exactly one place (two boards included: the second
run never deals a card of the first or of anybody's hand), the public events hold no secret and the sampled
views show no card their viewer may not see. Each game is then replayed from its seed and script to the same
state hash (the second board comes from the hand's own shuffle), and survives a JSON round trip.

Random play shoves often (``nl.allIn`` is one of four or five legal entries), so run it twice is offered and
agreed many times; :func:`test_seeded_games_reach_every_case` makes sure of it and checks the halves.
"""

from __future__ import annotations

import json
from typing import Any

from engine_support import play_random, replay
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pokerroom.engine import State, state_hash


def options(mode: str, betting: str, ante: str, percent: int, straddle: bool, twice: bool,
            hi_lo: bool) -> dict[str, Any]:
    return {"mode": mode, "betting": betting, "ante": ante, "antePercent": percent, "straddle": straddle,
            "runItTwice": twice, "omahaHiLo": hi_lo, "startingChips": 500, "baseUnit": 20, "handLimit": 10,
            "blindUpEvery": 5}


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(min_value=0, max_value=2**32),
    players=st.integers(min_value=2, max_value=10),
    mode=st.sampled_from(["holdem", "omaha"]),
    betting=st.sampled_from(["auto", "noLimit", "potLimit", "korean"]),
    ante=st.sampled_from(["none", "everyone", "bigBlind"]),
    percent=st.sampled_from([10, 25, 50, 100, 150]),
    straddle=st.booleans(),
    twice=st.booleans(),
    hi_lo=st.booleans(),
)
def test_random_games_keep_chips_cards_secrets_and_replay(
        seed: int, players: int, mode: str, betting: str, ante: str, percent: int, straddle: bool,
        twice: bool, hi_lo: bool) -> None:
    opts = options(mode, betting, ante, percent, straddle, twice, hi_lo)
    state, script = play_random(seed, opts, players, max_steps=40, p_timeout=0.05, p_leave=0.003,
                                check="sample")
    assert state_hash(replay(seed, opts, players, script)) == state_hash(state)
    assert state_hash(State.from_json(json.loads(json.dumps(state.to_json())))) == state_hash(state)


def test_seeded_games_reach_every_case() -> None:
    """60 seeded games with every option on (the invariants checked as above): run it twice is offered and
    played many times, each board's awards are exactly its half of the pots, both boards have five cards,
    and straddles and short antes happen."""
    seen = {"offered": 0, "twice": 0, "straddle": 0, "short ante": 0}

    def on_step(state: State, events: list[dict[str, Any]]) -> None:
        hand = state.hand
        for e in events:
            if e["type"] == "runTwiceOffer":
                seen["offered"] += 1
            elif e["type"] == "blind" and e["kind"] == "straddle":
                seen["straddle"] += 1
            elif e["type"] == "ante" and e["allIn"]:
                seen["short ante"] += 1
            elif e["type"] == "handEnd" and hand is not None and hand.board2:
                seen["twice"] += 1
                assert len(hand.board) == 5 and len(hand.board[:hand.rit_shared] + hand.board2) == 5
                assert not set(hand.board) & set(hand.board2)
                for k in (0, 1):  # every pot halved, its odd chip to the first board
                    got = sum(a["amount"] for a in hand.awards or [] if a["board"] == k)
                    assert got == sum(p.amount // 2 + (p.amount % 2 if k == 0 else 0) for p in hand.pots)

    for seed in range(60):
        opts = options(["holdem", "omaha"][seed % 2], "noLimit", ["everyone", "bigBlind"][seed % 3 % 2],
                       [10, 25, 50, 100, 150][seed % 5], True, True, seed % 4 == 1)
        play_random(seed, opts, 2 + seed % 9, max_steps=60, check="sample", on_step=on_step)
    assert seen["offered"] >= 100 and seen["twice"] >= 40, seen
    assert seen["straddle"] >= 50 and seen["short ante"] >= 1, seen
