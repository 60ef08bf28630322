#!/usr/bin/env python3
"""Engine throughput: full random-policy hands per second, ours (7 modes) against pokerkit (4 games).

Policy (the same for both engines): facing a bet, fold 20 % of the time; 20 % a minimum raise (Korean: the
smallest raise type, ping first); otherwise check or call. Draws stand pat half the time, else exchange two
cards. 7 Poker choice takes the first two cards; hi-lo declares high or low at random; ``ready`` at once.

Ours: games of 4 players with ``handLimit=50``, unlimited rebuys (accepted), played through the public API
(``setup``/``apply``/``pending``/``legal_actions``: the driver asks ``pending`` who is to act, as a server or
a bot does, much as pokerkit's methods know their actor), so a hand includes the choice/draw/declare phases
and the hand-end ``ready`` round; every ``apply`` returns a new state (the input is never mutated), with its
events and public log. pokerkit: one ``create_state`` per hand with every automation on (4 players, stacks
1000, blinds 5/10 or ante 10; dealing, burning, showdown and chip pushing are automatic in both engines),
no-limit hold'em, pot-limit Omaha, fixed-limit badugi and no-limit 2-7 single draw (its one single-draw game)
— its closest relatives of hold'em, Omaha, badugi and five-card draw.

Like for like: the first table plays every mode with its default betting (badugi and five-card draw are
Korean pot betting there); the comparison plays our hold'em no-limit, Omaha pot-limit, and badugi and
five-card draw no-limit (we have no fixed limit; a no-limit minimum raise is one big blind, like pokerkit's
fixed-limit small bet), with the same policy and player count as pokerkit.

Usage: ``.venv/bin/python benchmarks/engine.py [--seconds 3]``. Timings are CPU time of this process.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from pokerroom.engine import apply, pending, setup
from pokerroom.engine.state import State
from pokerroom.engine.view import legal_actions

MODES = ["holdem", "omaha", "sevenPoker", "sevenHiLo", "badugi", "fiveDraw", "indian"]
PLAYERS = 4


def our_policy(rng: random.Random, legal: list[dict[str, Any]]) -> dict[str, Any]:
    kinds = {a["type"]: a for a in legal}
    if "choose" in kinds:
        ids = kinds["choose"]["cardIds"]
        return {"type": "choose", "discardId": ids[0], "openId": ids[1]}
    if "draw" in kinds:
        if rng.random() < 0.5:
            return {"type": "draw", "cardIds": []}
        return {"type": "draw", "cardIds": kinds["draw"]["cardIds"][:2]}
    if "declare" in kinds:
        return {"type": "declare", "side": "high" if rng.random() < 0.5 else "low"}
    if "ready" in kinds:
        return {"type": "ready"}
    if "rebuy" in kinds:
        return {"type": "rebuy", "accept": True}
    r = rng.random()
    if ("k.call" in kinds or "nl.call" in kinds) and r < 0.2:
        return {"type": "k.die" if "k.die" in kinds else "nl.fold"}
    if r < 0.4:
        for kind in ("k.ping", "k.ddadang", "k.quarter", "k.half"):
            if kind in kinds:
                return {"type": kind}
        if "nl.raise" in kinds:
            return {"type": "nl.raise", "to": kinds["nl.raise"]["min"]}
    for kind in ("k.check", "nl.check", "k.call", "nl.call"):
        if kind in kinds:
            return {"type": kind}
    return {"type": legal[0]["type"]}


def our_hands(mode: str, seconds: float, betting: str = "auto",
              samples: list[tuple[State, str]] | None = None) -> tuple[int, float, int]:
    """Play games until ``seconds`` of CPU time; returns (hands completed, CPU seconds, decisions).

    ``samples`` (optional) collects every 20th (state, actor) for :func:`floor_per_decision`.
    """
    rng = random.Random(1)
    ids = [f"p{i}" for i in range(PLAYERS)]
    options = {"mode": mode, "handLimit": 50, "rebuy": "unlimited", "betting": betting}
    hands = 0
    decisions = 0
    start = time.process_time()
    seed = 0
    while time.process_time() - start < seconds:
        seed += 1
        state: State = setup(ids, options, seed=seed)
        now = 0
        while state.phase != "finished":
            now += 1000
            waiting = pending(state)
            assert waiting, "nobody can act"
            pid = waiting[0]
            legal = legal_actions(state, pid)
            if samples is not None and decisions % 20 == 0 and len(samples) < 2000:
                samples.append((state, pid))
            state, _ = apply(state, pid, our_policy(rng, legal), now)
            decisions += 1
        hands += state.hands_played
    return hands, time.process_time() - start, decisions


def floor_per_decision(samples: list[tuple[State, str]]) -> float:
    """CPU seconds per decision of the work every decision needs whatever the rules cost: the driver's
    ``pending`` and ``legal_actions`` queries and the copy that keeps ``apply`` pure (``State.clone``).

    Hands/s can never exceed ``1 / (decisions per hand x this)``: it bounds what any rule-level speed-up of
    this pure API can reach in CPython.
    """
    rounds = 5
    start = time.process_time()
    for _ in range(rounds):
        for state, pid in samples:
            pending(state)
            legal_actions(state, pid)
            state.clone()
    return (time.process_time() - start) / (rounds * len(samples))


def pokerkit_games() -> dict[str, Callable[[], Any]]:
    from pokerkit import (
        Automation,
        FixedLimitBadugi,
        NoLimitDeuceToSevenLowballSingleDraw,
        NoLimitTexasHoldem,
        PotLimitOmahaHoldem,
    )

    auto = tuple(Automation)
    stacks = (1000,) * PLAYERS
    return {
        "holdem": lambda: NoLimitTexasHoldem.create_state(auto, True, 0, (5, 10), 10, stacks, PLAYERS),
        "omaha": lambda: PotLimitOmahaHoldem.create_state(auto, True, 0, (5, 10), 10, stacks, PLAYERS),
        "badugi": lambda: FixedLimitBadugi.create_state(auto, True, 0, (5, 10), 10, 20, stacks, PLAYERS),
        "fiveDraw": lambda: NoLimitDeuceToSevenLowballSingleDraw.create_state(
            auto, True, 0, (5, 10), 10, stacks, PLAYERS),
    }


def pokerkit_hand(make: Callable[[], Any], rng: random.Random) -> None:
    st = make()
    while st.status:
        if st.can_stand_pat_or_discard():
            hole = list(st.hole_cards[st.stand_patter_or_discarder_index])
            st.stand_pat_or_discard([] if rng.random() < 0.5 else hole[:2])
            continue
        r = rng.random()
        facing = st.checking_or_calling_amount and st.checking_or_calling_amount > 0
        if facing and r < 0.2 and st.can_fold():
            st.fold()
        elif r < 0.4 and st.can_complete_bet_or_raise_to():
            st.complete_bet_or_raise_to(st.min_completion_betting_or_raising_to_amount)
        elif st.can_check_or_call():
            st.check_or_call()
        else:
            raise AssertionError("pokerkit: no action")


def pokerkit_hands(make: Callable[[], Any], seconds: float) -> tuple[int, float]:
    rng = random.Random(1)
    hands = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        pokerkit_hand(make, rng)
        hands += 1
    return hands, time.process_time() - start


#: our betting system for the comparison with each pokerkit game (see the module docstring)
COMPARE_BETTING = {"holdem": "noLimit", "omaha": "potLimit", "badugi": "noLimit", "fiveDraw": "noLimit"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="CPU seconds per measurement")
    args = parser.parse_args()
    print(f"{'default options':<28}{'hands':>8}{'hands/s':>10}{'ms/hand':>10}")
    for mode in MODES:
        our_hands(mode, 0.2)  # warm-up: evaluator tables, caches
        n, t, _ = our_hands(mode, args.seconds)
        print(f"{'ours ' + mode:<28}{n:>8}{n / t:>10.0f}{1000 * t / n:>10.3f}")
    try:
        games = pokerkit_games()
    except ImportError:
        print("pokerkit is not installed: no comparison")
        return
    print(f"\n{'like for like (CPU time)':<28}{'hands':>8}{'hands/s':>10}{'ms/hand':>10}")
    ceilings: list[str] = []
    for mode, make in games.items():
        betting = COMPARE_BETTING[mode]
        our_hands(mode, 0.2, betting)
        samples: list[tuple[State, str]] = []
        n, t, decisions = our_hands(mode, args.seconds, betting, samples)
        ours = n / t
        print(f"{'ours ' + mode + ' ' + betting:<28}{n:>8}{ours:>10.0f}{1000 * t / n:>10.3f}")
        pokerkit_hands(make, 0.2)
        pn, pt = pokerkit_hands(make, args.seconds)
        rate = pn / pt
        print(f"{'pokerkit ' + mode:<28}{pn:>8}{rate:>10.0f}{1000 * pt / pn:>10.3f}"
              f"   ours/pokerkit = {ours / rate:.1f}x")
        per_hand = decisions / n
        floor = floor_per_decision(samples)
        ceiling = 1 / (per_hand * floor)
        ceilings.append(f"{mode:<10}{per_hand:>7.1f} decisions/hand x {1e6 * floor:5.1f} us = "
                        f"{ceiling:>6.0f} hands/s at most = {ceiling / rate:4.1f}x pokerkit "
                        f"(now {ours / ceiling:.0%} of it)")
    print("\nceiling if the rules cost nothing (pending + legal_actions + the clone that keeps apply pure):")
    for line in ceilings:
        print("  " + line)


if __name__ == "__main__":
    main()
