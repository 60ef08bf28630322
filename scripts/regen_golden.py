#!/usr/bin/env python3
"""Regenerate the golden playthroughs in ``tests/golden/`` (one JSON file per mode).

Each file holds the seed, the options, the players, and the steps of one short game played by a seeded
policy (20 % fold when facing a bet, 20 % minimum raise, otherwise check/call; choices take the first two
cards; draws stand pat half the time; hi-lo declares by a coin; ready/rebuy/run it twice always yes; a timeout
every 15th step; a case marked ``shove`` raises all-in instead of the minimum)
— and after setup and after every step, the views of every seat and of a spectator (``publicLog`` and
``options`` left out to keep the files readable; the log is kept once at the end). ``tests/engine/
test_golden.py`` replays the recorded actions and compares every view, so any change in what a client sees is
a visible diff in review. Run after an intended change::

    .venv/bin/python scripts/regen_golden.py
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from pokerroom.engine import apply, deadline, on_timeout, setup, view  # noqa: E402
from pokerroom.engine.state import State  # noqa: E402
from pokerroom.engine.view import legal_actions  # noqa: E402

GOLDEN = ROOT / "tests" / "golden"
CASES: list[dict[str, Any]] = [
    {"mode": "holdem", "players": 3, "seed": 11, "options": {"mode": "holdem", "handLimit": 10}},
    {"mode": "omaha", "players": 3, "seed": 12, "options": {"mode": "omaha", "handLimit": 10}},
    {"mode": "sevenPoker", "players": 3, "seed": 13, "options": {"mode": "sevenPoker", "handLimit": 10}},
    {"mode": "sevenHiLo", "players": 3, "seed": 14, "options": {"mode": "sevenHiLo", "handLimit": 10}},
    {"mode": "badugi", "players": 3, "seed": 15, "options": {"mode": "badugi", "handLimit": 10}},
    {"mode": "fiveDraw", "players": 3, "seed": 16,
     "options": {"mode": "fiveDraw", "handLimit": 10, "drawLimit": "three"}},
    {"mode": "indian", "players": 3, "seed": 17,
     "options": {"mode": "indian", "handLimit": 10, "indianCards": 2}},
    {"mode": "omahaHiLo", "players": 3, "seed": 28,
     "options": {"mode": "omaha", "handLimit": 10, "omahaHiLo": True}},
    # House rules (docs/rules-extensions.md): one file each, named by ``name``.
    {"name": "rule491", "mode": "sevenPoker", "players": 3, "seed": 18,
     "options": {"mode": "sevenPoker", "handLimit": 10, "rule491": True}},
    {"name": "betCap", "mode": "badugi", "players": 3, "seed": 19,
     "options": {"mode": "badugi", "handLimit": 10, "betCap": 10, "koreanMaxRaise": "full"}},
    {"name": "badugiHigh", "mode": "badugi", "players": 3, "seed": 20,
     "options": {"mode": "badugi", "handLimit": 10, "badugiHigh": True}},
    {"name": "jacksOrBetter", "mode": "fiveDraw", "players": 3, "seed": 39,
     "options": {"mode": "fiveDraw", "handLimit": 10, "jacksOrBetter": True}},
    # hold'em/Omaha house options: a big-blind ante with a straddle, and antes of everyone with run it twice
    {"name": "bigBlindAnte", "mode": "holdem", "players": 4, "seed": 41,
     "options": {"mode": "holdem", "handLimit": 10, "ante": "bigBlind", "straddle": True}},
    {"name": "runItTwice", "mode": "holdem", "players": 3, "seed": 40, "shove": True,
     "options": {"mode": "holdem", "handLimit": 10, "ante": "everyone", "antePercent": 25,
                 "runItTwice": True}},
]
STEPS = 30


def policy(rng: random.Random, legal: list[dict[str, Any]], shove: bool = False) -> dict[str, Any]:
    """The benchmark's random policy on one player's legal actions; ``shove`` (cases that must reach an
    all-in, e.g. run it twice): a bet or raise is an all-in instead, when one is allowed."""
    kinds = {a["type"]: a for a in legal}
    if "choose" in kinds:
        ids = kinds["choose"]["cardIds"]
        return {"type": "choose", "discardId": ids[0], "openId": ids[1]}
    if "draw" in kinds:
        ids = kinds["draw"]["cardIds"]
        if rng.random() < 0.5:
            return {"type": "draw", "cardIds": []}
        return {"type": "draw", "cardIds": ids[: min(len(ids) - 1, kinds["draw"]["max"], 2)]}
    if "declare" in kinds:
        return {"type": "declare", "side": rng.choice(["high", "low"])}
    if "runTwice" in kinds:
        return {"type": "runTwice", "agree": True}
    if "ready" in kinds:
        return {"type": "ready"}
    if "rebuy" in kinds:
        return {"type": "rebuy", "accept": True}
    facing = "k.call" in kinds or "nl.call" in kinds
    r = rng.random()
    if facing and r < 0.2:
        return {"type": "k.die" if "k.die" in kinds else "nl.fold"}
    if r < 0.4:
        for kind in ("k.ping", "k.quarter", "k.half", "k.ddadang"):
            if kind in kinds:
                return {"type": kind}
        if shove and "nl.allIn" in kinds:
            return {"type": "nl.allIn"}
        if "nl.raise" in kinds:
            return {"type": "nl.raise", "to": kinds["nl.raise"]["min"]}
    for kind in ("k.check", "nl.check", "k.call", "nl.call"):
        if kind in kinds:
            return {"type": kind}
    return {"type": legal[0]["type"]}


def views(state: State, ids: list[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for viewer in [*ids, None]:
        v = view(state, viewer)
        v.pop("publicLog")
        v.pop("options")
        out["spectator" if viewer is None else viewer] = v
    return out


def play(case: dict[str, Any]) -> dict[str, Any]:
    ids = [f"p{i}" for i in range(case["players"])]
    rng = random.Random(case["seed"])
    state = setup(ids, case["options"], seed=case["seed"], now_ms=0)
    steps: list[dict[str, Any]] = [{"actor": None, "action": None, "now": 0, "events": [],
                                    "views": views(state, ids)}]
    now = 0
    for i in range(1, STEPS + 1):
        if state.phase == "finished":
            break
        now += 1000
        # "show" (an uncalled winner's optional gesture) is never a decision the table waits for
        actors = [(s.id, [a for a in legal_actions(state, s.id) if a["type"] != "show"]) for s in state.seats]
        actors = [(pid, legal) for pid, legal in actors if legal]
        if i % 15 == 0 or not actors:
            due = deadline(state)
            assert due is not None
            now = max(now, due)
            state, events = on_timeout(state, now)
            actor, action = "*", {"type": "timeout"}
        else:
            actor, legal = actors[0] if len(actors) == 1 else rng.choice(actors)
            action = policy(rng, legal, bool(case.get("shove")))
            state, events = apply(state, actor, action, now)
        steps.append({"actor": actor, "action": action, "now": now, "events": events,
                      "views": views(state, ids)})
    return {**case, "steps": steps, "finalLog": view(state, None)["publicLog"]}


def dump_lines(data: dict[str, Any]) -> str:
    """JSON lines: the case, then per step one line for the action and one per viewer (reviewable diffs)."""

    def enc(x: Any) -> str:
        return json.dumps(x, ensure_ascii=False, sort_keys=True, separators=(",", ":"))

    lines = [enc({k: data[k] for k in ("mode", "players", "seed", "options")})]
    for i, step in enumerate(data["steps"]):
        lines.append(enc({"step": i, "actor": step["actor"], "action": step["action"], "now": step["now"],
                          "events": step["events"]}))
        for viewer, v in step["views"].items():
            lines.append(enc({"step": i, "viewer": viewer, "view": v}))
    lines.append(enc({"finalLog": data["finalLog"]}))
    return "\n".join(lines) + "\n"


def load_lines(text: str) -> dict[str, Any]:
    """Inverse of :func:`dump_lines`."""
    rows = [json.loads(line) for line in text.splitlines() if line.strip()]
    data: dict[str, Any] = dict(rows[0])
    steps: list[dict[str, Any]] = []
    for row in rows[1:-1]:
        if "viewer" in row:
            steps[row["step"]]["views"][row["viewer"]] = row["view"]
        else:
            steps.append({**{k: row[k] for k in ("actor", "action", "now", "events")}, "views": {}})
    data["steps"] = steps
    data["finalLog"] = rows[-1]["finalLog"]
    return data


def main() -> None:
    GOLDEN.mkdir(parents=True, exist_ok=True)
    for case in CASES:
        data = play(case)
        path = GOLDEN / f"{case.get('name', case['mode'])}.jsonl"
        path.write_text(dump_lines(data), encoding="utf-8")
        print(f"{path.relative_to(ROOT)}: {len(data['steps']) - 1} steps")


if __name__ == "__main__":
    main()
