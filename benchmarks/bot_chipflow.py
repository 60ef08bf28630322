"""Where a table of bots loses its stacks: chips put in by each hand's losers, per betting round and action.

Run: ``PYTHONPATH=src .venv/bin/python benchmarks/bot_chipflow.py --mode fiveDraw --betting noLimit
[--players 6] [--level normal] [--hands 200] [--before REF]``.

Why: "hands per game" says *that* games end too fast, not *why*. This plays the same seeded games as
``benchmarks/bots.py`` through :func:`pokerroom.tools.simulate.run_match`, wraps the policy to note every
betting decision (round, action, chips it puts in, whether the bot had already bet or raised this round, i.e.
a raising war), and at each hand's end charges the chips of the players who lost the hand to the actions that
put them in. A table dominated by last-round calls is a different problem from one dominated by first-round
raises or by raising wars. ``--before REF`` prints the same breakdown for the bots at a git ref. Figures, not
a timed test.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

from bots import load_policy  # the same git loader as the bots benchmark
from pokerroom.bots import decide
from pokerroom.tools.playstats import figures
from pokerroom.tools.simulate import Decide, SimConfig, run_match

RAISES = ("nl.raise", "nl.allIn")


Flow = Counter[tuple[int, str]]


def chip_flow(cfg: SimConfig, policy: Decide) -> tuple[str, Flow, Flow, list[int]]:
    """(summary, chips per (round, action), how many put in >= 25 % of a stack, losers' chips per hand)."""
    current: list[dict[str, Any]] = []
    hands: list[tuple[list[dict[str, Any]], dict[str, int]]] = []

    def noting(view: dict[str, Any], level: str, seed: Any, samples: int | None = None) -> dict[str, Any]:
        action = policy(view, level=level, seed=seed, samples=samples)
        me = view["me"]
        mine = next(s for s in view["seats"] if s["id"] == me["id"])
        if view.get("phase") == "betting":
            kind = str(action["type"])
            put = 0
            if kind in ("nl.call", "k.call"):
                put = min(int(me.get("toCall") or 0), int(mine["stack"]))
            elif kind == "nl.raise":
                put = int(action["to"]) - int(mine.get("committedRound", 0))
            elif kind == "nl.allIn":
                put = int(mine["stack"])
            if mine.get("lastAction") in RAISES and put:
                kind += " (war)"
            current.append({"round": int(view["street"]), "pid": me["id"], "kind": kind, "put": put,
                            "start": int(mine["stack"]) + int(mine.get("committedTotal", 0))})
        return action

    def on_step(state: Any, _events: list[dict[str, Any]]) -> None:
        hand = state.hand
        if hand is not None and hand.phase == "handEnd" and current:
            hands.append((list(current), {s.id: s.stack - s.stack_at_hand_start for s in state.seats}))
            current.clear()

    result = run_match(cfg, policy=noting, on_step=on_step)
    fig = figures(result.play, result.games)
    chips: Counter[tuple[int, str]] = Counter()
    big: Counter[tuple[int, str]] = Counter()
    for log, delta in hands:
        for entry in log:
            if delta[entry["pid"]] < 0 and entry["put"] > 0:
                key = (entry["round"], entry["kind"])
                chips[key] += entry["put"]
                big[key] += entry["put"] >= 0.25 * entry["start"]
    lost = sorted(sum(-min(0, v) for v in delta.values()) for _, delta in hands)
    summary = (f"all-in {fig.all_in:.1f} %, {fig.hands_per_game:.1f} hands/game, "
               f"{result.games} games in {result.play.hands} hands")
    return summary, chips, big, lost


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--mode", default="fiveDraw")
    parser.add_argument("--betting", default="noLimit", choices=("korean", "noLimit", "potLimit"))
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--level", default="normal", choices=("easy", "normal"))
    parser.add_argument("--hands", type=int, default=200)
    parser.add_argument("--samples", type=int, default=60)
    parser.add_argument("--seed", type=int, default=15)
    parser.add_argument("--before", default=None, help="also the bots at this git ref")
    args = parser.parse_args()
    cfg = SimConfig(mode=args.mode, players=args.players, hands=args.hands, bots=(args.level,),
                    seed=args.seed, samples=args.samples, options={"betting": args.betting}, check=False)
    with tempfile.TemporaryDirectory() as tmp:
        policies: dict[str, Decide] = {"after (working tree)": decide}
        if args.before:
            policies = {f"before ({args.before})": load_policy(args.before, Path(tmp)), **policies}
        for name, policy in policies.items():
            summary, chips, big, lost = chip_flow(cfg, policy)
            total = sum(chips.values()) or 1
            print(f"{args.mode} {args.betting}, {args.players} {args.level} bots, {name}: {summary}")
            print(f"  losers' chips per hand: median {statistics.median(lost):.0f}, "
                  f"90th percentile {lost[int(0.9 * (len(lost) - 1))]}, mean {sum(lost) / len(lost):.0f}")
            print("  round  action              share  actions >= 25 % of the stack")
            for (rnd, kind), value in sorted(chips.items(), key=lambda kv: -kv[1]):
                print(f"  {rnd:5}  {kind:18} {100 * value / total:5.1f} %  {big[(rnd, kind)]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
