"""Build ``tests/bots/data/choice_equities.json``: random 7 Poker and 7 Poker Hi-Lo choices (four cards, one
to throw away) with the odds tool's equity of each of the four discards, for ``tests/bots/test_choices.py``.

Why a stored file: the test asks how much of a pot the ``normal`` bot's choice (and so the hint's "버림 추천")
gives away against the best discard, and a hi-lo equity of the needed precision takes about a minute of CPU
per hundred hands, too long for the test run. Each equity is the kept three cards' share of the pot at a
showdown against 2 or 4 random opponents (the discard dead, everything else dealt at random), from the odds
tool's Monte Carlo with a fixed seed, so the file is the same on every run of this script (about four
minutes):

    PYTHONPATH=src .venv/bin/python scripts/build_choice_equities.py
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from pokerroom.cards import standard_deck  # noqa: E402
from pokerroom.odds.equity import equity  # noqa: E402

OUT = ROOT / "tests" / "bots" / "data" / "choice_equities.json"
ABOUT = "7 Poker choices and each discard's equity (scripts/build_choice_equities.py)"
#: (mode, opponents, hands, Monte Carlo samples per discard, seed of the hands)
SETS = [("sevenHiLo", 2, 300, 2000, 11), ("sevenHiLo", 4, 300, 1500, 12),
        ("sevenPoker", 2, 300, 3000, 13), ("sevenPoker", 4, 300, 3000, 14)]


def build_set(mode: str, opponents: int, hands: int, samples: int, seed: int) -> list[dict[str, Any]]:
    deck = standard_deck()
    rnd = random.Random(seed)
    rows = []
    for i in range(hands):
        hand = rnd.sample(deck, 4)
        shares = []
        for out in hand:
            kept = [c for c in hand if c.id != out.id]
            players = [kept] + [[] for _ in range(opponents)]
            got = equity(players, mode=mode, dead=[out], samples=samples, seed=i, categories=False)
            shares.append(round(float(got.equity[0]), 4))
        rows.append({"hand": [str(c) for c in hand], "equity": shares})
    return rows


def main() -> int:
    data: dict[str, Any] = {"about": ABOUT, "sets": []}
    for mode, opponents, hands, samples, seed in SETS:
        print(f"{mode} against {opponents}: {hands} hands, {samples} samples a discard", flush=True)
        data["sets"].append({"mode": mode, "opponents": opponents, "samples": samples, "seed": seed,
                             "hands": build_set(mode, opponents, hands, samples, seed)})
    OUT.write_text(json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n", encoding="utf-8")
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
