"""``pokerroom simulate``: bot games through the engine, with results, speed and deal statistics.

Example::

    pokerroom simulate --mode sevenPoker --players 4 --hands 200 --bots normal,easy --seed 1

Levels are assigned to seats in turn (``normal,easy`` → p1 normal, p2 easy, p3 normal, ...). Every step is
checked for chip and card conservation; a broken invariant stops the run with exit code 1.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from pokerroom.history import to_phh
from pokerroom.tools.playstats import band_text, figures, in_band, target_bands
from pokerroom.tools.simulate import (
    InvariantError,
    SimConfig,
    SimResult,
    exact_start_probabilities,
    level_names,
    mean_ci,
    paired_margin,
    run_match,
)

MODES = ("holdem", "omaha", "sevenPoker", "sevenHiLo", "badugi", "fiveDraw", "indian")


def register(subparsers: Any) -> None:
    """Add the ``simulate`` sub-command (called by :mod:`pokerroom.cli`)."""
    parser = subparsers.add_parser("simulate", help="play bot games through the engine",
                                   description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--mode", choices=MODES, default="holdem")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--hands", type=int, default=200)
    parser.add_argument("--bots", default="normal,easy", help="levels by seat, cycled (easy|normal)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--samples", type=int, default=200, help="Monte Carlo samples per normal decision")
    parser.add_argument("--betting", choices=("auto", "korean", "noLimit", "potLimit"), default="auto")
    parser.add_argument("--no-check", action="store_true", help="skip the per-step invariant checks")
    parser.add_argument("--phh", metavar="DIR", default=None,
                        help="write every NL hold'em / PL Omaha hand as a PHH file into DIR")
    parser.add_argument("--no-progress", action="store_true")
    parser.set_defaults(func=run)


def render(result: SimResult, console: Console) -> None:
    cfg = result.config
    seats = Table(title=f"Bots ({cfg.mode}, {cfg.players} players, seed {cfg.seed})")
    seats.add_column("Seat")
    seats.add_column("Bot")
    seats.add_column("Hands", justify="right")
    seats.add_column("Chips won", justify="right")
    seats.add_column("Per hand", justify="right")
    seats.add_column("95% CI", justify="right")
    for pid in result.seats:
        values = result.deltas[pid]
        mean, half = mean_ci(values)
        seats.add_row(pid, result.levels[pid], str(len(values)), f"{sum(values):+,}", f"{mean:+.2f}",
                      f"±{half:.2f}")
    console.print(seats)
    levels = result.level_deltas()
    if len(levels) > 1:
        table = Table(title="By level")
        table.add_column("Bot")
        table.add_column("Per seat-hand", justify="right")
        table.add_column("95% CI", justify="right")
        for level, values in sorted(levels.items()):
            mean, half = mean_ci(values)
            table.add_row(level, f"{mean:+.2f}", f"±{half:.2f}")
        console.print(table)
        if "normal" in levels and "easy" in levels:
            margin, half, z = paired_margin(result, "normal", "easy")
            console.print(f"normal − easy margin: {margin:+.2f} chips/hand ± {half:.2f} (95% CI), "
                          f"z = {z:.2f}")
    console.print(f"Speed: {result.hands:,} hands in {result.seconds:.2f} s = {result.hands_per_second:,.1f} "
                  f"hands/s; {result.decisions:,} bot decisions; {result.checks:,} invariant checks passed "
                  f"(chips and cards); {result.games} game(s)")
    render_play(result, console)
    exact = exact_start_probabilities(cfg.mode, cfg.options)
    if exact and result.category_total:
        cats = Table(title="Starting cards: observed vs exact (fair shuffle)")
        cats.add_column("Category")
        cats.add_column("Count", justify="right")
        cats.add_column("Observed %", justify="right")
        cats.add_column("Exact %", justify="right")
        for name, p in sorted(exact.items(), key=lambda kv: -kv[1]):
            count = result.categories.get(name, 0)
            cats.add_row(name, f"{count:,}", f"{100 * count / result.category_total:.2f}", f"{100 * p:.2f}")
        console.print(cats)


def _mark(value: str, ok: bool | None) -> str:
    if ok is None:
        return value
    return f"[green]{value} ✓[/green]" if ok else f"[red]{value} ✗[/red]"


def render_play(result: SimResult, console: Console) -> None:
    """All-in rate, hands per game and VPIP/PFR/stay per level, beside the bands of
    :mod:`pokerroom.tools.playstats` (✓ inside, ✗ outside)."""
    from pokerroom.engine import PokerOptions, resolved_betting

    cfg = result.config
    korean = resolved_betting(PokerOptions.from_json({"mode": cfg.mode, **cfg.options})) == "korean"
    bands = target_bands(cfg.mode, cfg.players, korean)
    fig = figures(result.play, result.games)
    table = Table(title="Play style (target bands: pokerroom.tools.playstats)")
    table.add_column("Figure")
    table.add_column("Value", justify="right")
    table.add_column("Target", justify="right")
    table.add_row("all-in hands", _mark(f"{fig.all_in:.1f}%", fig.all_in <= bands.all_in_max),
                  f"≤ {bands.all_in_max:g}%")
    table.add_row("all-in on hand 1", f"{fig.first_hand_all_in:.1f}%", "")
    table.add_row("hands per game", _mark(f"{fig.hands_per_game:.1f}",
                                          fig.hands_per_game >= bands.hands_per_game_min),
                  f"≥ {bands.hands_per_game_min:g}")
    for level in fig.vpip:
        table.add_row(f"VPIP {level}", _mark(f"{fig.vpip[level]:.1f}%", in_band(fig.vpip[level], bands.vpip)),
                      band_text(bands.vpip))
        table.add_row(f"PFR {level}", _mark(f"{fig.pfr[level]:.1f}%", in_band(fig.pfr[level], bands.pfr)),
                      band_text(bands.pfr))
        table.add_row(f"stay {level}", _mark(f"{fig.stay[level]:.1f}%", in_band(fig.stay[level], bands.stay)),
                      band_text(bands.stay))
    console.print(table)


def _check_args(args: argparse.Namespace, options: dict[str, Any]) -> str | None:
    """The first problem with the flags, in words, before anything runs (None: all fine)."""
    from pokerroom.engine import PokerOptions, player_range
    from pokerroom.rejections import Rejected

    if args.hands < 1:
        return "--hands must be at least 1"
    if args.samples < 1:
        return "--samples must be at least 1"
    if not 0 <= args.seed < 2**256:
        return "--seed must be from 0 to 2**256 - 1"
    try:
        low, high = player_range(PokerOptions.from_json({"mode": args.mode, **options}))
    except Rejected as exc:
        return exc.message
    if not low <= args.players <= high:
        return f"--players: {args.mode} takes {low} to {high} players (이 모드는 {low}~{high}명이에요)"
    if args.phh is not None and Path(args.phh).exists() and not Path(args.phh).is_dir():
        return f"--phh: {args.phh} exists and is not a directory"
    return None


def run(args: argparse.Namespace) -> int:
    console = Console(width=120)
    try:
        bots = level_names(args.bots)
    except ValueError as exc:
        console.print(f"[red]{exc}[/red]")
        return 2
    options: dict[str, Any] = {}
    if args.betting != "auto":
        options["betting"] = args.betting
    problem = _check_args(args, options)
    if problem is not None:
        console.print(f"[red]{problem}[/red]")
        return 2
    config = SimConfig(mode=args.mode, players=args.players, hands=args.hands, bots=bots, seed=args.seed,
                       samples=args.samples, options=options, check=not args.no_check,
                       record=args.phh is not None)
    try:
        if args.no_progress:
            result = run_match(config)
        else:
            with Progress(TextColumn("[bold]simulating"), BarColumn(), MofNCompleteColumn(),
                          TimeRemainingColumn(), console=console, transient=True) as bar:
                task = bar.add_task("hands", total=args.hands)

                def tick(done: int, total: int) -> None:
                    bar.update(task, completed=done, total=total)

                result = run_match(config, progress=tick)
    except InvariantError as exc:
        console.print(f"[red]invariant broken: {exc}[/red]")
        return 1
    render(result, console)
    if args.phh is not None:
        written = write_phh(result, Path(args.phh))
        console.print(f"PHH: {written} hand(s) written to {args.phh}"
                      + ("" if written else " (only NL hold'em and PL Omaha can be exported)"))
    return 0


def write_phh(result: SimResult, directory: Path) -> int:
    """One ``.phh`` file per exportable recorded hand, named by game order and hand number."""
    directory.mkdir(parents=True, exist_ok=True)
    count = 0
    for i, record in enumerate(result.histories):
        try:
            text = to_phh(record)
        except ValueError:
            continue
        (directory / f"hand-{i + 1:05d}-{record.hand_no}.phh").write_text(text, encoding="utf-8")
        count += 1
    return count
