"""The bots' and hints' Monte Carlo (``pokerroom.bots.montecarlo.hero_equity``), this tree against another.

Why: a bot decision and a hint that misses its cache are mostly this one call, and the server benchmark
(``profile_action.py``) moves by a few per cent between runs, more than a change here shows in it. This
script times the call alone: ``--other-src DIR``'s ``montecarlo.py`` (e.g. ``git worktree add /tmp/base
main``, then ``--other-src /tmp/base/src``) is loaded beside this tree's, both use this tree's evaluators
and tables, and the two take turns on the very same spots (the order alternating), each call timed in CPU
time of this thread after a warm-up of both (``_turns.in_turns``).

Spots: seeded random tables of every street (Omaha: my four cards, 0/3/4/5 board cards, 1-5 opponents;
7 Poker: my 3-7 cards, every opponent's 0-4 open cards, a few dead ones), priced twice: as a hint (96 fixed
deals, :func:`pokerroom.bots.hint.fixed_deals`) and as a bot (200 deals drawn from a seeded generator).
``--thrash`` touches 4 MB between calls, as a busy server does between two estimates (``--thrash-mb N``: N MB;
128 leaves nothing warm).

    .venv/bin/python benchmarks/bot_equity.py --other-src /tmp/base/src [--spots 400] [--rounds 3]
"""

from __future__ import annotations

import argparse
import functools
import importlib.util
import random
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _turns import add_thrash_options, in_turns  # the turn-taking both before/after scripts share
from _turns import between as _between


def load_other(src: str) -> ModuleType:
    """The other tree's ``montecarlo.py`` as a module of its own (its imports are this tree's)."""
    path = Path(src) / "pokerroom" / "bots" / "montecarlo.py"
    spec = importlib.util.spec_from_file_location("other_montecarlo", path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"no montecarlo.py under {src}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def spots(mode: str, count: int, seed: int) -> list[tuple[list[list[Any]], list[Any], list[Any]]]:
    """(players' known cards, board, dead cards) of ``count`` seeded random tables."""
    from pokerroom.cards import standard_deck

    pick = random.Random(seed)
    out: list[tuple[list[list[Any]], list[Any], list[Any]]] = []
    for _ in range(count):
        deck = pick.sample(standard_deck(), 52)
        opponents = pick.randint(1, 5)
        if mode == "omaha":
            board = deck[4 : 4 + pick.choice([0, 3, 4, 5])]
            out.append(([deck[:4]] + [[] for _ in range(opponents)], board, []))
        else:
            shown = pick.randint(3, 7)
            known = [deck[:shown]] + [deck[7 * i : 7 * i + pick.randint(0, min(4, shown - 2))]
                                      for i in range(1, opponents + 1)]
            out.append((known, [], deck[45 : 45 + pick.randint(0, 3)]))
    return out


def call(module: ModuleType, how: tuple[str, int, Any], i: int,
         spot: tuple[list[list[Any]], list[Any], list[Any]]) -> float:
    """One ``hero_equity`` of ``module`` (``how``: mode, samples, deals), its generator seeded by ``i``."""
    mode, samples, deals = how
    players, board, dead = spot
    rng = np.random.Generator(np.random.PCG64(i))
    value: float = module.hero_equity(players, board, mode, rng, samples, dead=dead, deals=deals)
    return value


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--other-src", required=True, help="the src directory of the tree to compare with")
    ap.add_argument("--spots", type=int, default=400)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--seed", type=int, default=7)
    add_thrash_options(ap)
    args = ap.parse_args()

    from pokerroom.bots import montecarlo as this
    from pokerroom.bots.hint import fixed_deals

    other = load_other(args.other_src)
    print(f"hero_equity, this tree vs {args.other_src}: CPU us per call, {args.spots} spots x {args.rounds} "
          f"rounds, {_between(args.thrash_mb)} between calls")
    for mode in ("omaha", "sevenPoker"):
        table = spots(mode, args.spots, args.seed)
        for label, deals, samples in (("hint, 96 fixed deals", fixed_deals, 96),
                                      ("bot, 200 drawn", None, 200)):
            how = (mode, samples, deals)
            sides = {name: functools.partial(call, module, how) for name, module in
                     (("this tree", this), ("other", other))}
            spent, disagree = in_turns(sides, table, args.rounds, warm=40, thrash_mb=args.thrash_mb)
            for i, results in disagree:
                print(f"  the trees disagree on {mode} spot {i}: {results}", file=sys.stderr)
            calls = args.rounds * len(table)
            mine, theirs = spent["this tree"] / calls / 1000, spent["other"] / calls / 1000
            print(f"  {mode:<10} {label:<22} this {mine:7.1f} us, other {theirs:7.1f} us: "
                  f"{mine / theirs:.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
