"""``pokerroom odds``: equity of hands from the command line, printed as rich tables.

Examples::

    pokerroom odds "AsAh" "KdKc"                       # hold'em, preflop, Monte Carlo
    pokerroom odds "AsAh" "KdKc" --board "2c7d9h"      # exact on the flop
    pokerroom odds "AsAhKdKc" random --mode omaha
    pokerroom odds "AsAh7c2d3h9s" "QsQh" "9c8c" --mode sevenPoker   # own 7 vs opponents' open cards
    pokerroom odds "As2d3h5cKdKh" "8s8c7d6h" --mode sevenHiLo --qualifier eight
    pokerroom odds "As2d3h5c" "KdKhQsJs" --mode omaha --hi-lo --board "4c8d9h"   # Omaha Hi-Lo, 8 or better
    pokerroom odds "9s8s7s6d" random --mode fiveDraw            # keep four, draw one: outs and equity
    pokerroom odds "As2d3h" random random --mode badugi --draws 3  # a three-card badugi, three draws to come
    pokerroom odds random "5s" "9h" --mode indian               # my forehead unseen, theirs 5 and 9 (d20)
    pokerroom odds "7s" "5s" "9h" --mode indian --cards 2       # two-card Indian: my hand card is 7

A player given as ``random`` (or ``?``/``-``) has no known cards. Cards may be written with or without
separators ("AsAh", "As Ah", "10h").

sevenHiLo is scored "cards speak": the real game's simultaneous high/low/swing declaration cannot be known,
so every deal gives the high half (ceil) to the best Korean high and the low half (floor) to the best low
(--low-rule, --qualifier); with no qualifying low the high takes all. Equity is the expected pot share;
scoop, high-win, low-win and no-low rates are shown per player. Lows are evaluated per distinct hand, so
this mode samples 20,000 deals by default (100,000 for the others).

fiveDraw and badugi: the first player's cards are the ones kept, the rest of the hand is drawn now; others
hold random hands (or their known cards plus random ones). --draws says how many draws are still to come
(five-card draw: one; badugi: up to three, after the first every player keeps their best badugi and redraws
the rest); discards can go to --dead. Outs are printed when exactly one card is drawn. indian: the first
player is me (my hand card with --cards 2, else nothing: my forehead is unseen), each other player is the
forehead I see; --deck d20 (default) or d52.
"""

from __future__ import annotations

import argparse
import re
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, Progress, TaskProgressColumn, TextColumn, TimeRemainingColumn
from rich.table import Table

from pokerroom.cards import Card, DeckKind, parse_card
from pokerroom.hands.korean import LowQualifier, LowRule
from pokerroom.odds import (
    HILO_DEFAULT_SAMPLES,
    LOW_RULES,
    MODES,
    QUALIFIERS,
    EquityMode,
    EquityResult,
    category_names,
    class_names,
    draw_equity,
    equity,
    indian_equity,
)

#: Modes answered by :mod:`pokerroom.odds.draws` (no board; draws to come, or the unseen forehead).
OTHER_MODES = ("fiveDraw", "badugi", "indian")

_CARD_RE = re.compile(r"(10|[2-9TJQKA])([SDHC])", re.IGNORECASE)
_RANDOM = {"", "random", "?", "??", "-", "x"}


def parse_compact(text: str, deck: DeckKind = "d52") -> list[Card]:
    """Cards written together or apart: ``"AsAh"``, ``"As Ah"``, ``"10h,9c"``; ``random`` is no card."""
    cleaned = text.strip()
    if cleaned.lower() in _RANDOM:
        return []
    squeezed = re.sub(r"[\s,]+", "", cleaned)
    cards: list[Card] = []
    pos = 0
    while pos < len(squeezed):
        match = _CARD_RE.match(squeezed, pos)
        if not match:
            raise ValueError(f"cannot read cards from {text!r} at {squeezed[pos:]!r}")
        cards.append(parse_card(match.group(0), deck))
        pos = match.end()
    return cards


def register(subparsers: Any) -> None:
    """Add the ``odds`` sub-command (called by :mod:`pokerroom.cli`)."""
    parser = subparsers.add_parser("odds", help="win/tie equity of hands (exact or Monte Carlo)",
                                   description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("hands", nargs="+", help='known cards per player, e.g. "AsAh" "KdKc" or random')
    parser.add_argument("--board", default="", help="board cards so far (hold'em/Omaha)")
    parser.add_argument("--dead", default="", help="cards known to be out of play")
    parser.add_argument("--mode", choices=MODES + OTHER_MODES, default="holdem")
    parser.add_argument("--draws", type=int, default=1,
                        help="fiveDraw/badugi: draws still to come (fiveDraw 0-1, badugi 0-3; default 1)")
    parser.add_argument("--deck", choices=("d20", "d52"), default="d20", help="indian: the deck (d20)")
    parser.add_argument("--cards", type=int, choices=(1, 2), default=1, help="indian: cards per player")
    parser.add_argument("--samples", type=int, default=None,
                        help=f"Monte Carlo deals (default 100000; {HILO_DEFAULT_SAMPLES} for sevenHiLo)")
    parser.add_argument("--low-rule", choices=LOW_RULES, default="korean",
                        help="sevenHiLo low (§6.3): korean (no straight/flush, best A-2-3-4-6) or aceToFive")
    parser.add_argument("--qualifier", choices=QUALIFIERS, default="none",
                        help="sevenHiLo low qualifier: none (up to K-high) or eight (8 or lower)")
    parser.add_argument("--hi-lo", dest="hi_lo", action="store_true",
                        help="omaha only: Omaha Hi-Lo (omahaHiLo), eight-or-better low from 2 hole + 3 board")
    parser.add_argument("--seed", type=int, default=None, help="seed for a reproducible Monte Carlo run")
    method = parser.add_mutually_exclusive_group()
    method.add_argument("--exact", dest="exact", action="store_true", default=None,
                        help="enumerate every completion")
    method.add_argument("--monte-carlo", dest="exact", action="store_false", help="always sample")
    parser.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    parser.set_defaults(func=run)


def _hilo_table(result: EquityResult, players: list[list[Card]]) -> Table:
    if result.mode == "omaha":
        title = "Equity (Omaha Hi-Lo, cards speak, low A-5 eight or better from 2 hole + 3 board)"
    else:
        title = f"Equity ({result.mode}, cards speak, low {result.low_rule}, qualifier {result.qualifier})"
    return _player_table(title, result, players, [
        ("Equity %", result.equity), ("± SE %", None), ("Scoop %", result.scoop),
        ("High %", result.high_win), ("Low %", result.low_win), ("No low %", result.no_low),
    ])


def render(result: EquityResult, players: list[list[Card]], console: Console) -> None:
    """Print the equity table, the method line and the hand-category table."""
    if result.scoop:  # a hi-lo split: sevenHiLo, or omaha with --hi-lo
        console.print(_hilo_table(result, players))
        how = "cards speak" if result.mode == "omaha" else "cards speak (declarations unknown)"
        console.print(f"Split: {how}: high half (ceil) to the best high, "
                      "low half (floor) to the best qualifying low (a tied half is shared);")
        console.print("no qualifying low → the high takes all. Equity = expected share of the pot.")
        console.print(f"Nobody has a qualifying low: {100 * result.no_low_any:.2f} %")
    else:
        console.print(_plain_table(result, players))
    if result.exact:
        console.print(f"Method: exact enumeration of {result.samples:,} deals in {result.seconds:.3f} s")
    else:
        console.print(f"Method: Monte Carlo, {result.samples:,} samples in {result.seconds:.3f} s "
                      f"({result.per_second:,.0f} samples/s); ± is one standard error")
    names = class_names(result.mode) if result.mode in OTHER_MODES else category_names(result.mode)
    title = "Hand at showdown, after the draws (%)" if result.mode in ("fiveDraw", "badugi") else \
        "Hand at showdown (%)" if result.mode == "indian" else "Hand category at showdown (%)"
    cats = Table(title=title)
    cats.add_column("Category")
    for i in range(len(players)):
        cats.add_column(f"P{i + 1}", justify="right")
    for c in range(len(names) - 1, -1, -1):
        if any(row[c] > 0 for row in result.categories):
            cats.add_row(names[c], *[f"{100 * row[c]:.2f}" for row in result.categories])
    console.print(cats)


def _plain_table(result: EquityResult, players: list[list[Card]]) -> Table:
    return _player_table(f"Equity ({result.mode})", result, players, [
        ("Win %", result.win), ("Tie %", result.tie), ("Equity %", result.equity), ("± SE %", None),
    ])


def _player_table(title: str, result: EquityResult, players: list[list[Card]],
                  figures: list[tuple[str, tuple[float, ...] | None]]) -> Table:
    """One row per player: number, cards, then each figure as a percentage. A figure without values is
    the standard error column ("exact" when the deals were enumerated)."""
    table = Table(title=title)
    table.add_column("Player", justify="right")
    table.add_column("Cards")
    for header, _ in figures:
        table.add_column(header, justify="right")
    for i, cards in enumerate(players):
        cells = [f"{100 * values[i]:.2f}" if values is not None
                 else "exact" if result.exact else f"{100 * result.stderr[i]:.2f}"
                 for _, values in figures]
        table.add_row(str(i + 1), " ".join(c.label for c in cards) or "(random)", *cells)
    return table


def run_other(args: argparse.Namespace, console: Console) -> int:
    """fiveDraw, badugi and indian (:mod:`pokerroom.odds.draws`)."""
    mode = args.mode
    deck: DeckKind = args.deck if mode == "indian" else "d52"
    try:
        players = [parse_compact(h, deck) for h in args.hands]
        dead = parse_compact(args.dead, deck)
        if args.board:
            raise ValueError(f"{mode} has no board")
        outs: int | None = None
        if mode == "indian":
            result = indian_equity(players, deck=args.deck, cards=args.cards, dead=dead, samples=args.samples,
                                   seed=args.seed, exact=args.exact)
        else:
            drawn = draw_equity(players, mode, draws=args.draws, dead=dead, samples=args.samples,
                                seed=args.seed, exact=args.exact)
            result, outs = drawn.result, drawn.outs
    except ValueError as exc:
        console.print(f"[red]{exc}[/red]")
        return 2
    if mode == "indian":
        console.print("Player 1 cannot see their own forehead; every other player shows theirs.")
    else:
        console.print(f"Player 1 keeps the cards shown and draws the rest; {args.draws} draw(s) to come.")
    render(result, players, console)
    if outs is not None:
        unseen = 52 - sum(len(p) for p in players) - len(dead)
        console.print(f"Outs: {outs} of {unseen} unseen cards make player 1 a better hand "
                      f"({100 * outs / unseen:.1f} % on this draw)")
    return 0


def run(args: argparse.Namespace) -> int:
    console = Console(width=120)
    if args.mode in OTHER_MODES:
        return run_other(args, console)
    try:
        players = [parse_compact(h) for h in args.hands]
        board = parse_compact(args.board)
        dead = parse_compact(args.dead)
    except ValueError as exc:
        console.print(f"[red]{exc}[/red]")
        return 2
    mode: EquityMode = args.mode
    if mode in ("holdem", "omaha") and len(board) not in (0, 3, 4, 5):
        console.print(f"[red]--board: a {mode} board has 0 (preflop), 3 (flop), 4 (turn) or 5 (river) cards, "
                      f"not {len(board)}[/red]")
        return 2
    low_rule: LowRule = args.low_rule
    qualifier: LowQualifier = args.qualifier
    if args.hi_lo and mode != "omaha":
        console.print("[red]--hi-lo is Omaha Hi-Lo: use it with --mode omaha[/red]")
        return 2
    try:
        if args.no_progress:
            result = equity(players, board, mode=mode, dead=dead, samples=args.samples, seed=args.seed,
                            exact=args.exact, low_rule=low_rule, qualifier=qualifier,
                            omaha_hi_lo=args.hi_lo)
        else:
            with Progress(TextColumn("[bold]dealing"), BarColumn(), TaskProgressColumn(),
                          TimeRemainingColumn(), console=console, transient=True) as bar:
                task = bar.add_task("deals", total=None)

                def tick(done: int, total: int) -> None:
                    bar.update(task, completed=done, total=total)

                result = equity(players, board, mode=mode, dead=dead, samples=args.samples, seed=args.seed,
                                exact=args.exact, progress=tick, low_rule=low_rule,
                                qualifier=qualifier, omaha_hi_lo=args.hi_lo)
    except ValueError as exc:
        console.print(f"[red]{exc}[/red]")
        return 2
    render(result, players, console)
    return 0
