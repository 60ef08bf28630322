"""Build the hint's tables: ``src/pokerroom/bots/data/omaha_preflop.npz`` (Omaha's four cards against 1-9
random hands), ``seven_streets.npz`` (7 Poker's first three and four cards against 1-5 random seven-card
hands) and ``badugi_draws.npz`` (badugi by the hint's key: the class of the badugi kept, the betting round,
the opponents' last draws).

Why generated files: these equities depend only on the cards' suit-isomorphic class (badugi's: on the hint's
key), and a Monte Carlo of one costs more than an action (docs/decisions/0046-hints-nearly-free.md, 0057). So
every class is estimated once here and the server looks it up. About five minutes of CPU in all (badugi's
table four of them):

    PYTHONPATH=src .venv/bin/python scripts/build_hint_tables.py [--samples 1024] [--seed 46] [--only ...]

Each class is dealt random boards (Omaha) or the rest of its seven cards (7 Poker) and every opponent's
hand, from fixed random orders of the unseen cards (one set per table and run of this script); the equity
against the first k opponents is read from the same deals, ties shared, stored as ``round(equity * 255)``.
7 Poker uses half the deals (its classes are many more deals' worth of work each). Badugi runs the bots'
own model (``bots.strength.badugi_shares``) on one hand of each class, chosen at random, for every spot,
with an eighth of the deals (128, where the hint's own Monte Carlo dealt 96; about four minutes of CPU:
every spot is a pass over all the classes at once).
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from pokerroom.bots.hint_modes import _breaks
from pokerroom.bots.hint_tables import BADUGI_DRAWS, OMAHA_PREFLOP, PAD, SEVEN_STREETS, omaha_class
from pokerroom.bots.strength import badugi_key, badugi_plan, badugi_shares
from pokerroom.cards import standard_deck
from pokerroom.hands import batch as hb

BATCH = 16


def classes(size: int) -> list[tuple[int, ...]]:
    """One hand of every class of ``size`` cards, in class order."""
    first: dict[tuple[tuple[int, ...], ...], tuple[int, ...]] = {}
    for hand in itertools.combinations(range(52), size):
        first.setdefault(omaha_class(hand), hand)
    return [first[k] for k in sorted(first)]


def _shares(values: NDArray[np.int64]) -> NDArray[np.float64]:
    """(hands, samples, 1 + opponents) values -> (hands, opponents): my share against the first k."""
    mine, theirs = values[:, :, :1], values[:, :, 1:]
    best = np.maximum.accumulate(theirs, axis=2)
    level = mine == best
    shares = np.where(mine > best, 1.0, level / (np.cumsum(theirs == mine, axis=2) + 1))
    return np.asarray(shares.mean(axis=1), dtype=np.float64)


def omaha(hands: list[tuple[int, ...]], orders: NDArray[np.intp], opponents: int) -> NDArray[np.float64]:
    """Omaha high before the flop: 5 board cards, then four per opponent."""
    n, samples = len(hands), orders.shape[0]
    unseen = np.array([sorted(set(range(52)) - set(h)) for h in hands], dtype=np.int64)
    dealt = unseen[:, orders]  # (hands, samples, 5 + 4 * opponents)
    players = np.empty((n, samples, opponents + 1, 4), dtype=np.int64)
    players[:, :, 0] = np.array(hands, dtype=np.int64)[:, None, :]
    players[:, :, 1:] = dealt[:, :, 5:].reshape(n, samples, opponents, 4)
    boards = np.repeat(dealt[:, :, None, :5], opponents + 1, axis=2)
    values = hb.omaha_high_batch(players.reshape(-1, 4), boards.reshape(-1, 5)).astype(np.int64)
    return _shares(values.reshape(n, samples, opponents + 1))


def seven(hands: list[tuple[int, ...]], orders: NDArray[np.intp], opponents: int) -> NDArray[np.float64]:
    """7 Poker (Korean high, §6.2): the rest of my seven, then seven per opponent."""
    n, samples, size = len(hands), orders.shape[0], len(hands[0])
    rest = 7 - size
    unseen = np.array([sorted(set(range(52)) - set(h)) for h in hands], dtype=np.int64)
    dealt = unseen[:, orders]  # (hands, samples, rest + 7 * opponents)
    players = np.empty((n, samples, opponents + 1, 7), dtype=np.int64)
    players[:, :, 0, :size] = np.array(hands, dtype=np.int64)[:, None, :]
    players[:, :, 0, size:] = dealt[:, :, :rest]
    players[:, :, 1:] = dealt[:, :, rest:].reshape(n, samples, opponents, 7)
    values = hb.korean_high_batch(players.reshape(-1, 7)).astype(np.int64)
    return _shares(values.reshape(n, samples, opponents + 1))


def table(size: int, deal: str, opponents: int, samples: int, seed: int) -> tuple[NDArray[np.uint8], ...]:
    hands = classes(size)
    gen = np.random.Generator(np.random.PCG64(seed + size))
    take = 5 + 4 * opponents if deal == "omaha" else 7 - size + 7 * opponents
    orders = np.stack([gen.permutation(52 - size)[:take] for _ in range(samples)])
    fn = omaha if deal == "omaha" else seven
    out = np.empty((len(hands), opponents), dtype=np.uint8)
    for start in range(0, len(hands), BATCH):
        out[start : start + BATCH] = np.rint(fn(hands[start : start + BATCH], orders, opponents) * 255)
    return np.array(hands, dtype=np.uint8), out


def badugi_spots() -> list[tuple[int, tuple[int, ...]]]:
    """Every (betting round, opponents' last draws sorted) of 1-5 opponents: before the first draw nobody has
    drawn (-1); after it each opponent drew 0-4 cards."""
    spots: list[tuple[int, tuple[int, ...]]] = [(0, (-1,) * n) for n in range(1, 6)]
    for street in (1, 2, 3):
        for n in range(1, 6):
            spots += [(street, w) for w in itertools.combinations_with_replacement(range(5), n)]
    return spots


def badugi_classes(high: bool, seed: int) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """(class row, one hand of it) for every class of four cards, the hand the first of its class in a
    random order of all hands (a class stands for its hands as the hint's cache did: by the first it met)."""
    deck = standard_deck()
    hands = list(itertools.combinations(range(52), 4))
    first: dict[tuple[int, ...], tuple[int, ...]] = {}
    for i in np.random.Generator(np.random.PCG64(seed)).permutation(len(hands)).tolist():
        cards = [deck[c] for c in hands[i]]
        size, ranks = badugi_key(cards, high)
        breaks = _breaks(cards, high)
        row = (size, *(ranks[:1] or (PAD,)), *breaks, *(PAD,) * (4 - len(breaks)))
        first.setdefault(row, hands[i])
    return sorted(first.items())


def badugi_orders(samples: int, seed: int) -> NDArray[np.intp]:
    """(samples, 48): the deals, as orders of the 48 cards a hand leaves unseen."""
    gen = np.random.Generator(np.random.PCG64(seed))
    return np.stack([gen.permutation(48) for _ in range(samples)])


def badugi_column(hands: NDArray[np.int64], orders: NDArray[np.intp], street: int, wants: tuple[int, ...],
                  high: bool) -> NDArray[np.uint8]:
    """Each hand's equity at one spot, ``round(equity * 255)``: the bots' badugi model on the deals."""
    samples = orders.shape[0]
    unseen = np.array([sorted(set(range(52)) - set(h)) for h in hands.tolist()], dtype=np.int64)
    draws_left, need = badugi_plan(len(wants), street, 48)
    rows = unseen[:, orders[:, :need]].reshape(-1, need)
    mine = np.repeat(hands, samples, axis=0)  # a row per hand and deal
    shares = badugi_shares(mine, rows, [4 - w if w >= 0 else 1 for w in wants], draws_left, high)
    return np.rint(shares.reshape(len(hands), samples).mean(axis=1) * 255).astype(np.uint8)


def badugi(samples: int, seed: int) -> dict[str, NDArray[np.int8] | NDArray[np.uint8]]:
    spots = badugi_spots()
    orders = badugi_orders(samples, seed)
    out: dict[str, NDArray[np.int8] | NDArray[np.uint8]] = {
        "spots": np.array([(street, len(w), *w, *(PAD,) * (5 - len(w))) for street, w in spots],
                          dtype=np.int8)}
    for high in (False, True):
        classes = badugi_classes(high, seed)
        hands = np.array([hand for _row, hand in classes], dtype=np.int64)
        equity = np.empty((len(classes), len(spots)), dtype=np.uint8)
        for col, (street, wants) in enumerate(spots):
            equity[:, col] = badugi_column(hands, orders, street, wants, high)
        side = "high" if high else "low"
        out[f"classes_{side}"] = np.array([row for row, _hand in classes], dtype=np.int8)
        out[f"hands_{side}"] = hands.astype(np.uint8)
        out[f"equity_{side}"] = equity
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--samples", type=int, default=1024)
    ap.add_argument("--seed", type=int, default=46)
    ap.add_argument("--only", choices=("omaha", "seven", "badugi"), default=None)
    args = ap.parse_args()
    t0 = time.process_time()
    if args.only in (None, "omaha"):
        hands, equity = table(4, "omaha", 9, args.samples, args.seed)
        np.savez_compressed(OMAHA_PREFLOP, hands4=hands, equity4=equity)
    if args.only in (None, "seven"):
        parts: dict[str, NDArray[np.uint8]] = {}
        for size in (3, 4):
            parts[f"hands{size}"], parts[f"equity{size}"] = table(size, "seven", 5, args.samples // 2,
                                                                    args.seed)
        np.savez_compressed(SEVEN_STREETS, **parts)  # type: ignore[arg-type]
    if args.only in (None, "badugi"):
        np.savez_compressed(BADUGI_DRAWS, **badugi(args.samples // 8, args.seed))  # type: ignore[arg-type]
    print(f"{time.process_time() - t0:.0f} s CPU -> {Path(OMAHA_PREFLOP).parent}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
