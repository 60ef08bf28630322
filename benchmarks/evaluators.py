"""Evaluator throughput: pokerroom.hands next to treys, phevaluator, eval7 and pokerkit.

Run: ``.venv/bin/python benchmarks/evaluators.py`` (about 40 s of CPU; ``--quick`` for a rougher ~20 s).

Rates are measured in *CPU time* of this process (``time.process_time``), so that other jobs on the
shared machine slow the wall clock but not the figures; each figure is the best of several rounds that
interleave all implementations. Every implementation evaluates the same pre-generated random hands (fixed
seed; a different hand each call, so table lookups pay their real cache misses) in the same loop shape
``for args in hands: f(*args)``, each in its own input format prepared beforehand: card conversion is not
timed, except inside a *public* call that takes card objects. The aims of the foundation issue are
checked at the end:

- 7-card international, fast internal call and public call: >= 8x treys, >= 1x phevaluator's public call;
- ``korean_high`` on 7 cards: >= 500,000 evaluations/s;
- ``badugi``: >= 20x pokerkit;
- the numpy batch path: >= 2x eval7's single-call rate.

Also printed: our id call next to phevaluator's id call (``evaluate_7cards``), a pool of distinct
hands far larger than the CPU caches (each call pays its misses), and the Omaha public call against
phevaluator's (one read of a table of every hole x board rank multiset pair, :mod:`pokerroom.hands.
omaha_table`). The output says which rows compare public calls with public calls.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from pokerroom.cards import Card, standard_deck
from pokerroom.hands import (
    badugi,
    badugi4,
    evaluate5,
    evaluate7,
    evaluate7_ids,
    international_high,
    korean7,
    korean_high,
    omaha_high,
    omaha_ids,
)
from pokerroom.hands.batch import international_high_batch


class Measure:
    """One implementation on one job; measured later, in rounds interleaved with all the others.

    Interleaving matters on a shared machine: if another job starts halfway through, it slows every
    implementation in the rounds it overlaps instead of whichever ran at that moment, so ratios stay fair.
    The figure is the best round (evaluations per CPU second).
    """

    def __init__(
        self, fn: Callable[..., Any], hands: Sequence[tuple[Any, ...]], share: float = 1.0, per_call: int = 1
    ) -> None:
        self.fn = fn
        self.hands = hands
        self.share = share  # fraction of the round budget (slow libraries get less)
        self.per_call = per_call  # hands evaluated by one call (the batch path)
        self.value = 0.0
        for args in hands[:50]:  # warm up (lazy tables)
            fn(*args)

    def run_round(self, budget: float) -> None:
        fn, hands = self.fn, self.hands
        done = 0
        start = time.process_time()
        elapsed = 0.0
        while elapsed < budget * self.share:
            for args in hands:
                fn(*args)
            done += len(hands) * self.per_call
            elapsed = time.process_time() - start
        self.value = max(self.value, done / elapsed)


def rate(fn: Callable[..., Any], hands: Sequence[tuple[Any, ...]], share: float = 1.0) -> Measure:
    return Measure(fn, hands, share)


Row = tuple[str, str, Measure]  # (job, implementation, measure)


def measure(quick: bool = False) -> tuple[list[tuple[str, str, float]], int]:
    """Every (job, implementation, evaluations per CPU second), measured in interleaved rounds, and the
    number of rounds."""
    rounds = 3 if quick else 5
    budget = (0.4 if quick else 1.0) / rounds  # CPU seconds per implementation per round

    import eval7
    import pokerkit
    import treys
    from phevaluator.card import Card as PhCard
    from phevaluator.evaluator import evaluate_7cards as ph_evaluate_7cards
    from phevaluator.evaluator import evaluate_cards as ph_evaluate_cards
    from phevaluator.evaluator_omaha import evaluate_omaha_cards as ph_evaluate_omaha

    rng = random.Random(2026)
    deck = standard_deck()
    deals = [rng.sample(deck, 9) for _ in range(2000)]
    seven = [d[:7] for d in deals]
    five = [d[:5] for d in deals]
    codes7 = [[c.code for c in h] for h in seven]
    rows: list[Row] = []

    def ph_id(card: Card) -> int:
        return int(PhCard(card.code).id_)

    # ---- 7-card international
    ids7 = [tuple(c.id for c in h) for h in seven]
    treys_ev = treys.Evaluator()
    treys7 = [([treys.Card.new(s) for s in h[:2]], [treys.Card.new(s) for s in h[2:]]) for h in codes7]
    ph7 = [tuple(ph_id(c) for c in h) for h in seven]
    e7 = [([eval7.Card(s) for s in h],) for h in codes7]
    def pk(codes: list[str]) -> list[Any]:
        return list(pokerkit.Card.parse("".join(codes)))

    pk7 = [(pk(h[:2]), pk(h[2:])) for h in codes7]
    job = "7-card high"
    rows.append((job, "pokerroom evaluate7(*ids)  [fast]", rate(evaluate7, ids7)))
    ids_args = [(i,) for i in ids7]
    rows.append((job, "pokerroom evaluate7_ids(ids)  [fast]", rate(evaluate7_ids, ids_args)))
    rows.append((job, "pokerroom international_high(cards)  [public]",
                 rate(international_high, [(h,) for h in seven])))
    rows.append((job, "treys Evaluator.evaluate", rate(treys_ev.evaluate, treys7[:300], 0.5)))
    rows.append((job, "phevaluator evaluate_cards  [public]", rate(ph_evaluate_cards, ph7)))
    rows.append((job, "eval7 evaluate", rate(eval7.evaluate, e7)))
    rows.append((job, "pokerkit StandardHighHand.from_game",
                 rate(pokerkit.StandardHighHand.from_game, pk7[:100], 0.5)))
    # phevaluator's own id call, next to our id call: internal vs internal
    rows.append((job, "phevaluator evaluate_7cards(*ids)  [ids]", rate(ph_evaluate_7cards, ph7)))

    # ---- 7-card international on distinct hands: a pool far larger than any cache, each hand once per
    # pass, so every call pays its cache misses (the 2,000-hand pool above stays in the CPU caches).
    job = "7-card high, distinct hands"
    n_distinct = 50_000 if quick else 200_000
    cold = [rng.sample(deck, 7) for _ in range(n_distinct)]
    rows.append((job, "pokerroom evaluate7(*ids)  [fast]",
                 rate(evaluate7, [tuple(c.id for c in h) for h in cold])))
    rows.append((job, "pokerroom international_high(cards)  [public]",
                 rate(international_high, [(h,) for h in cold])))
    rows.append((job, "phevaluator evaluate_cards  [public]",
                 rate(ph_evaluate_cards, [tuple(ph_id(c) for c in h) for h in cold])))
    rows.append((job, "phevaluator evaluate_7cards(*ids)  [ids]",
                 rate(ph_evaluate_7cards, [tuple(ph_id(c) for c in h) for h in cold])))
    rows.append((job, "eval7 evaluate",
                 rate(eval7.evaluate, [([eval7.Card(c.code) for c in h],) for h in cold])))

    # ---- 5-card international
    ids5 = [tuple(c.id for c in h) for h in five]
    job = "5-card high"
    rows.append((job, "pokerroom evaluate5(*ids)  [fast]", rate(evaluate5, ids5)))
    rows.append((job, "pokerroom international_high(cards)  [public]",
                 rate(international_high, [(h,) for h in five])))
    treys5 = [(t[0], t[1][:3]) for t in treys7]
    rows.append((job, "treys Evaluator.evaluate", rate(treys_ev.evaluate, treys5)))
    rows.append((job, "phevaluator evaluate_cards  [public]",
                 rate(ph_evaluate_cards, [p[:5] for p in ph7])))
    rows.append((job, "eval7 evaluate", rate(eval7.evaluate, [(h[0][:5],) for h in e7])))
    rows.append((job, "pokerkit StandardHighHand(cards)",
                 rate(pokerkit.StandardHighHand, [(h[0] + h[1][:3],) for h in pk7], 0.5)))

    # ---- Omaha (4 hole + 5 board)
    hole = [d[:4] for d in deals]
    board = [d[4:9] for d in deals]
    job = "Omaha high"
    deals_hb = list(zip(hole, board, strict=True))
    omaha_id_args = [(tuple(c.id for c in h), tuple(c.id for c in b)) for h, b in deals_hb]
    rows.append((job, "pokerroom omaha_ids(hole, board)  [fast]", rate(omaha_ids, omaha_id_args)))
    rows.append((job, "pokerroom omaha_high(hole, board)  [public]",
                 rate(omaha_high, list(zip(hole, board, strict=True)))))
    ph_omaha = [tuple(ph_id(c) for c in b) + tuple(ph_id(c) for c in h) for h, b in deals_hb]
    rows.append((job, "phevaluator evaluate_omaha_cards  [public]",
                 rate(ph_evaluate_omaha, ph_omaha)))
    pk_omaha = [(pk([c.code for c in h]), pk([c.code for c in b])) for h, b in deals_hb]
    rows.append((job, "pokerkit OmahaHoldemHand.from_game",
                 rate(pokerkit.OmahaHoldemHand.from_game, pk_omaha[:30], 0.5)))

    # ---- Korean high (no other library ranks with suits)
    job = "Korean high (7 Poker)"
    rows.append((job, "pokerroom korean7(*ids) 7 cards  [fast]", rate(korean7, ids7)))
    rows.append((job, "pokerroom korean_high(cards) 7 cards  [public]",
                 rate(korean_high, [(h,) for h in seven])))
    rows.append((job, "pokerroom korean_high(cards) 5 cards  [public]",
                 rate(korean_high, [(h,) for h in five])))

    # ---- Badugi
    four = [d[:4] for d in deals]
    job = "Badugi"
    four_ids = [tuple(c.id for c in h) for h in four]
    rows.append((job, "pokerroom badugi4(*ids)  [fast]", rate(badugi4, four_ids)))
    rows.append((job, "pokerroom badugi(cards)  [public]", rate(badugi, [(h,) for h in four])))
    pk4 = [(pk([c.code for c in h]),) for h in four]
    pk_badugi_rate = rate(pokerkit.BadugiHand.from_game, pk4[:500], 0.5)
    rows.append((job, "pokerkit BadugiHand.from_game", pk_badugi_rate))

    # ---- numpy batch
    job = "7-card high, many hands"
    n_batch = 200_000 if quick else 1_000_000
    batch_rng = np.random.default_rng(7)
    arr = np.argsort(batch_rng.random((n_batch, 52)), axis=1)[:, :7].astype(np.uint8)
    rows.append((job, f"pokerroom international_high_batch ({n_batch:,} x 7 uint8)",
                 Measure(international_high_batch, [(arr,)], per_call=n_batch)))

    # ---- measure, in interleaved rounds
    measures = [m for _, _, m in rows]
    for _ in range(rounds):
        for m in measures:
            m.run_round(budget)
    return [(job_name, impl, m.value) for job_name, impl, m in rows], rounds


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="shorter budgets (rougher figures)")
    opts = parser.parse_args(argv)
    values, rounds = measure(opts.quick)
    console = Console(width=150)
    best = values[-1][2]

    # ---- report
    figures = {impl: value for _, impl, value in values}
    title = f"Evaluations per CPU second (best of {rounds} interleaved rounds; the machine is shared)"
    table = Table(title=title)
    table.add_column("job")
    table.add_column("implementation")
    table.add_column("evals/s", justify="right")
    table.add_column("vs first row of job", justify="right")
    firsts: dict[str, float] = {}
    for job_name, impl, value in values:
        first = firsts.setdefault(job_name, value)
        table.add_row(job_name, escape(impl), f"{value:,.0f}", f"{value / first:.2f}x")
    console.print(table)
    console.print(
        "Kinds of call: [public] rows of ours take Card objects and return a HandValue; treys, eval7, "
        "pokerkit and phevaluator's evaluate_cards / evaluate_omaha_cards rows are those libraries' "
        "public calls (with their own card conversion): these compare public calls with public calls. "
        "[fast] rows of ours and phevaluator's evaluate_7cards(*ids) [ids] take integer ids: internal id "
        "call vs id call.",
        markup=False,
    )

    def f(prefix: str) -> float:
        return next(v for k, v in figures.items() if k.startswith(prefix))

    treys7_rate = next(v for j, k, v in values if j == "7-card high" and k.startswith("treys"))
    ph7_rate = next(v for j, k, v in values if j == "7-card high" and k.startswith("phevaluator"))
    e7_rate = next(v for j, k, v in values if j == "7-card high" and k.startswith("eval7"))
    pk_badugi = f("pokerkit BadugiHand")
    pub7 = next(v for j, k, v in values if j == "7-card high" and k.startswith("pokerroom international"))
    ph7_ids_rate = next(v for j, k, v in values
                        if j == "7-card high" and k.startswith("phevaluator evaluate_7"))
    cold_job = "7-card high, distinct hands"
    cold_pub = next(v for j, k, v in values if j == cold_job and k.startswith("pokerroom international"))
    cold_ph = next(v for j, k, v in values if j == cold_job and k.startswith("phevaluator evaluate_cards"))
    omaha_pub = f("pokerroom omaha_high")
    omaha_ph = f("phevaluator evaluate_omaha")
    aims = [
        ("7-card fast evaluate7 vs treys", f("pokerroom evaluate7(") / treys7_rate, 8.0),
        ("7-card public international_high vs treys", pub7 / treys7_rate, 8.0),
        ("7-card fast evaluate7 vs phevaluator public", f("pokerroom evaluate7(") / ph7_rate, 1.0),
        ("7-card public international_high vs phevaluator public", pub7 / ph7_rate, 1.0),
        ("korean_high 7 cards, evals/s / 500,000", f("pokerroom korean_high(cards) 7") / 500_000, 1.0),
        ("badugi public vs pokerkit", f("pokerroom badugi(cards)") / pk_badugi, 20.0),
        ("badugi fast vs pokerkit", f("pokerroom badugi4") / pk_badugi, 20.0),
        ("numpy batch vs eval7 single call", best / e7_rate, 2.0),
        ("7-card fast evaluate7 vs phevaluator evaluate_7cards (ids vs ids)",
         f("pokerroom evaluate7(") / ph7_ids_rate, 1.0),
        ("distinct hands: public international_high vs phevaluator public (public vs public)",
         cold_pub / cold_ph, 1.0),
        ("Omaha public omaha_high vs phevaluator public (public vs public)", omaha_pub / omaha_ph, 1.0),
    ]
    summary = Table(title="Aims")
    summary.add_column("aim")
    summary.add_column("ratio", justify="right")
    summary.add_column("target", justify="right")
    summary.add_column("met")
    for name, ratio, target in aims:
        summary.add_row(name, f"{ratio:.2f}x", f">= {target:g}x", "yes" if ratio >= target else "NO")
    console.print(summary)
    return 0


if __name__ == "__main__":
    sys.exit(main())
