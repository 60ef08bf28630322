"""A street's hint estimates in one pass for every live seat, against one estimate per seat (this tree).

Why: the hints price a street for all its live seats at the first miss (docs/decisions/0063-a-street-priced-
for-every-seat-at-once.md) because one pass costs less than one per seat; this script measures by how much,
on the same seeded random streets, both sides taking turns (the order alternating) after a warm-up, in CPU
time of this thread, and checks that both give the same numbers. ``--thrash`` touches 4 MB between calls,
as a busy server does between two estimates; ``--thrash-mb 128`` leaves nothing warm, as a street pass finds
the machine inside the server (docs/decisions/0086-what-a-cold-street-pass-pays-for.md).

Streets: hold'em flops and turns (``hint.estimate_holes`` against ``hint._estimate`` per hole), Omaha after
the flop (``montecarlo.omaha_street`` against ``hero_equity`` per hole), 7 Poker from the fifth card
(``montecarlo.seven_street`` against ``hero_equity`` per seat); two to six live seats.

    .venv/bin/python benchmarks/street_pass.py [--streets 300] [--rounds 3] [--thrash | --thrash-mb N]
                                               [--other-src DIR]

``--other-src DIR`` (e.g. ``git worktree add /tmp/base main`` then ``--other-src /tmp/base/src``) also times
the hold'em pass of that tree's ``pokerroom/bots/hint.py`` against this tree's, in turns on the same
streets, and checks that both give the same numbers to the bit (that file is loaded beside this tree's
package, whose other modules it imports).
"""

from __future__ import annotations

import argparse
import functools
import importlib.util
import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _turns import add_thrash_options, in_turns  # the turn-taking both before/after scripts share
from _turns import between as _between


def streets(mode: str, count: int, seed: int) -> list[Any]:
    """Seeded random streets of ``mode``: (holes, board, opponents) or, in 7 Poker, the seats' spots."""
    pick = random.Random(seed)
    out: list[Any] = []
    for _ in range(count):
        seats = pick.randint(2, 6 if mode != "sevenPoker" else 5)
        cards = pick.sample(range(52), 52)
        if mode == "holdem":
            board = tuple(sorted(cards[: pick.choice([3, 4])]))
            out.append(([(cards[10 + 2 * i], cards[11 + 2 * i]) for i in range(seats)], board, seats - 1))
        elif mode == "omaha":
            flop = cards[: pick.choice([3, 4, 5])]
            out.append(([tuple(cards[10 + 4 * i : 14 + 4 * i]) for i in range(seats)], flop, seats - 1))
        else:
            size = pick.choice([5, 6, 7])
            shown = size - 2 - (size == 7)
            hands = [cards[i * size : (i + 1) * size] for i in range(seats)]
            discards = cards[seats * size : seats * size + seats]
            out.append([([hands[h]] + [hands[o][:shown] for o in range(seats) if o != h], [discards[h]])
                        for h in range(seats)])
    return out


def sides(mode: str) -> tuple[Callable[[Any], list[float]], Callable[[Any], list[float]]]:
    """(one pass for the street, one estimate per seat) of ``mode``, each giving every seat's number."""
    from pokerroom.bots import hint
    from pokerroom.bots import montecarlo as mc
    from pokerroom.cards import standard_deck

    deck = standard_deck()
    if mode == "holdem":
        return (lambda s: [row[-1] for row in hint.estimate_holes(*s)],
                lambda s: [hint._estimate(h, s[1], s[2])[-1] for h in s[0]])
    if mode == "omaha":
        return (lambda s: mc.omaha_street(s[0], s[1], s[2], hint.fixed_deals, 96),
                lambda s: [mc.hero_equity([[deck[c] for c in h]] + [[] for _ in range(s[2])],
                                          [deck[c] for c in s[1]], "omaha", np.random.default_rng(0), 96,
                                          deals=hint.fixed_deals) for h in s[0]])
    return (lambda s: mc.seven_street(s, hint.fixed_deals, 96),
            lambda s: [mc.hero_equity([[deck[c] for c in k] for k in known], [], "sevenPoker",
                                      np.random.default_rng(0), 96, dead=[deck[c] for c in dead],
                                      deals=hint.fixed_deals) for known, dead in s])


def other_pass(src: str) -> Callable[[Any], list[list[float]]]:
    """The hold'em street pass of another tree's hint module (``--other-src``)."""
    spec = importlib.util.spec_from_file_location("other_hint", Path(src) / "pokerroom/bots/hint.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return lambda s: module.estimate_holes(*s)


def before_after(src: str, table: list[Any], rounds: int, thrash_mb: float) -> int:
    """This tree's hold'em pass against ``src``'s on the same streets, in turns; 1 if they disagree."""
    from pokerroom.bots import hint

    spent, disagree = in_turns({"this tree": functools.partial(_street, lambda s: hint.estimate_holes(*s)),
                                "other tree": functools.partial(_street, other_pass(src))},
                               table, rounds, warm=30, thrash_mb=thrash_mb)
    if disagree:
        print(f"  the trees' hold'em passes disagree on street {disagree[0][0]}", file=sys.stderr)
        return 1
    this, other = (spent[k] / rounds / len(table) / 1000 for k in ("this tree", "other tree"))
    print(f"  holdem pass, this tree {this:7.1f} us, {src}: {other:7.1f} us: {this / other:.2f}x")
    return 0


def _street(fn: Callable[[Any], Any], _i: int, street: Any) -> Any:
    return fn(street)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--streets", type=int, default=300)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--seed", type=int, default=5)
    add_thrash_options(ap)
    ap.add_argument("--other-src", default="", help="also time this src dir's hold'em pass against this one")
    args = ap.parse_args()
    print(f"a street's estimates, one pass vs one per seat: CPU us per street, {args.streets} streets x "
          f"{args.rounds} rounds, {_between(args.thrash_mb)} between calls")
    for mode in ("holdem", "omaha", "sevenPoker"):
        table = streets(mode, args.streets, args.seed)
        together, apart = sides(mode)
        spent, disagree = in_turns({"one pass": functools.partial(_street, together),
                                    "per seat": functools.partial(_street, apart)},
                                   table, args.rounds, warm=30, thrash_mb=args.thrash_mb)
        if disagree:
            print(f"  the two sides disagree on {mode} street {disagree[0][0]}", file=sys.stderr)
            return 1
        per = args.rounds * len(table)
        seats = sum(len(s[0]) if mode != "sevenPoker" else len(s) for s in table) / len(table)
        one, each = spent["one pass"] / per / 1000, spent["per seat"] / per / 1000
        print(f"  {mode:<10} ({seats:.1f} seats a street) one pass {one:7.1f} us, per seat {each:7.1f} us: "
              f"{one / each:.2f}x")
        if mode == "holdem" and args.other_src:
            if before_after(args.other_src, table, args.rounds, args.thrash_mb):
                return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
