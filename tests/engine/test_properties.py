"""Property runs: 300 seeded random games per mode (poker.md §10: secrets, reproducibility, chips, cards).

Each game uses a seed-derived mix of options (betting system, stacks, end condition, rebuys, dealer rule,
mode options) and 2..max players, and plays random legal actions with random timeouts (5 %) and leaves
(0.3 %) for at most ``STEPS`` steps — a hand or two; the games are short on purpose so that 2,100 of them fit
the suite's time budget.

After every step: chips are conserved (Σ stacks + everything in the middle + carry-over = starting chips ×
players + rebuys), every card of the deck is present exactly once, and the public events hold no secret.
Views: *every* viewer (each seat and a spectator) is checked whenever the game or hand phase changes, and
one random viewer on the other steps (checking all viewers on every step would triple the run time; a
leak that only shows in the middle of a betting round for one viewer would still be caught on most runs
since the sampled viewer changes every step).

Every 25th game is replayed from its seed and script and must reach the same state hash, and its final
state must survive a JSON round trip unchanged.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from engine_support import check_cards, check_chips, check_no_leak, play_random, replay
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pokerroom.engine import PokerOptions, State, player_range, state_hash

MODES = ["holdem", "omaha", "sevenPoker", "sevenHiLo", "badugi", "fiveDraw", "indian"]
#: random games per mode (and per house rule): sized to what the invariants need, about 7,000 checked steps
#: per mode, every phase of every mode reached many times over (each of the 300 games deals at least one
#: hand); the Hypothesis test below adds random options and player counts on top
GAMES = 300
#: omaha hi-lo games run to ten players and showdowns (5x the steps of a hold'em game); plain omaha above
#: already plays GAMES games, so half as many keep this test's share of the CI run in line
HILO_GAMES = 150
STEPS = 24


def options_for(mode: str, seed: int) -> dict[str, Any]:
    r = random.Random(seed * 7919 + 17)
    opts: dict[str, Any] = {
        "mode": mode,
        "betting": r.choice(["auto", "auto", "korean", "noLimit", "potLimit"]),
        "startingChips": r.choice([500, 1000]),
        "baseUnit": r.choice([10, 20]),
        "koreanMaxRaise": r.choice(["half", "full"]),
        "endCondition": r.choice(["hands", "lastStanding"]),
        "handLimit": 10,
        "blindUpEvery": r.choice([0, 5]),
        "rebuy": r.choice(["off", "limited", "unlimited"]),
        "rebuyLimit": r.choice([1, 2]),
        "dealerRule": r.choice(["rotate", "winner"]),
        "hints": r.random() < 0.5,
    }
    if mode == "sevenHiLo":
        opts["hiLoLow"] = r.choice(["korean", "aceToFive"])
        opts["hiLoQualifier"] = r.choice(["none", "eight"])
    if mode == "fiveDraw":
        opts["drawLimit"] = r.choice(["any", "three"])
    if mode == "indian":
        opts["indianCards"] = r.choice([1, 2])
        opts["indianDeck"] = r.choice(["d20", "d52"])
        opts["indianFoldPenalty"] = r.random() < 0.7
        opts["indianTie"] = r.choice(["carry", "split"])
        opts["indianReshuffle"] = r.choice(["whenEmpty", "everyHand"])
    return opts



def _play_and_replay(seed: int, opts: dict[str, Any], label: str) -> None:
    """A random game (invariants and secrets checked as it goes); every 25th seed is replayed from its
    script and round-tripped through JSON, both to the same state."""
    low, high = player_range(PokerOptions.model_validate(opts))
    players = low + seed % (high - low + 1)
    state, script = play_random(seed, opts, players, max_steps=STEPS, p_timeout=0.05, p_leave=0.003,
                                check="sample")
    if seed % 25 == 0:
        again = replay(seed, opts, players, script)
        assert state_hash(again) == state_hash(state), f"{label}seed {seed} is not reproducible"
        restored = State.from_json(json.loads(json.dumps(state.to_json())))
        assert state_hash(restored) == state_hash(state)


@pytest.mark.parametrize("mode", MODES)
def test_random_games_keep_invariants_and_secrets(mode: str) -> None:
    for seed in range(GAMES):
        opts = options_for(mode, seed)
        _play_and_replay(seed, opts, "")


def test_omaha_hi_lo_random_games_keep_invariants_and_secrets() -> None:
    """HILO_GAMES random games with ``omahaHiLo`` on (the same checks as above after every step), long enough
    to reach showdowns: the low must have been awarded in many of them (cards speak, quartered lows)."""
    lows = 0
    for seed in range(HILO_GAMES):
        opts = {**options_for("omaha", seed), "omahaHiLo": True}
        players = 2 + seed % 9
        state, script = play_random(50_000 + seed, opts, players, max_steps=48, p_timeout=0.05, p_leave=0.003,
                                    check="sample")
        lows += any(re.search(r"/ 로우 \S+탑", line["text"]) is not None
                    for line in state.public_log if line["type"] == "showdown")
        if seed % 25 == 0:
            again = replay(50_000 + seed, opts, players, script)
            assert state_hash(again) == state_hash(state), f"seed {seed} is not reproducible"
            restored = State.from_json(json.loads(json.dumps(state.to_json())))
            assert state_hash(restored) == state_hash(state)
    print(f"omahaHiLo: {HILO_GAMES} games, {lows} with a low at a showdown")
    assert lows >= HILO_GAMES // 10


@pytest.mark.parametrize("mode", MODES)
def test_long_games_to_the_end(mode: str) -> None:
    """A few complete games per mode (all hands, rebuys, eliminations, the result)."""
    for seed in range(3):
        opts = {**options_for(mode, seed), "startingChips": 500, "baseUnit": 20}
        state, _ = play_random(10_000 + seed, opts, 3, max_steps=5000, p_timeout=0.1, p_leave=0.001,
                               check="sample")
        assert state.phase == "finished"


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    mode=st.sampled_from(MODES),
    seed=st.integers(min_value=0, max_value=2**32),
    players=st.integers(min_value=2, max_value=10),
    betting=st.sampled_from(["auto", "korean", "noLimit", "potLimit"]),
    chips=st.sampled_from([500, 1000, 2000]),
)
def test_hypothesis_random_options(mode: str, seed: int, players: int, betting: str, chips: int) -> None:
    opts = {"mode": mode, "betting": betting, "startingChips": chips, "handLimit": 10}
    low, high = player_range(PokerOptions.model_validate(opts))
    players = max(low, min(high, players))
    state, script = play_random(seed, opts, players, max_steps=30, check="sample")
    check_chips(state)
    check_cards(state)
    check_no_leak(state, None)
    assert state_hash(replay(seed, opts, players, script)) == state_hash(state)


#: House rules (docs/rules-extensions.md): each option on for GAMES random games, spread over the modes where
#: it applies (491: the Korean 7 Poker modes; the cap: every mode and betting system; high badugi: badugi;
#: jacks or better: five-card draw, every betting system).
HOUSE_RULE_MODES = {"rule491": ["sevenPoker", "sevenHiLo"], "betCap": MODES, "badugiHigh": ["badugi"],
                    "jacksOrBetter": ["fiveDraw"]}


@pytest.mark.parametrize("rule", sorted(HOUSE_RULE_MODES))
def test_random_games_with_a_house_rule_keep_invariants_and_secrets(rule: str) -> None:
    modes = HOUSE_RULE_MODES[rule]
    for seed in range(GAMES):
        mode = modes[seed % len(modes)]
        opts = options_for(mode, seed + 50_000)
        if rule == "rule491":
            opts.update(rule491=True, betting=random.Random(seed).choice(["auto", "korean"]))
        elif rule in ("badugiHigh", "jacksOrBetter"):
            opts[rule] = True
        else:
            opts["betCap"] = random.Random(seed).choice([10, 20, 50, 100])
        _play_and_replay(seed, opts, f"{rule} ")
