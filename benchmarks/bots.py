"""How people-like the bots play, before and after, in every mode at 2, 6 and the mode's maximum players.

Run: ``PYTHONPATH=src .venv/bin/python benchmarks/bots.py [--hands 120] [--match-hands 600] [--samples 60]``.

"Before" is the bots package at ``--before`` (default: the commit before the bots learned to play like people,
see docs/decisions/0032-bots-play-like-people.md), loaded from git
into a temporary package and played through the *same* simulator loop (``run_match(policy=...)``) with the
same seeds, so the only difference between the two columns is the policy. "After" is the working tree.

For every mode × table size × level (a table of one level only, so the figures describe that level) it
prints the all-in rate, the all-in rate on hand 1, the average hands per game (a bust ends a game), VPIP,
PFR and stay, beside the target bands of :mod:`pokerroom.tools.playstats` (which say where they come from).
Then, per mode, a heads-up ``normal`` vs ``easy`` match: chips won per hand by ``normal`` and its z
(``paired_margin``). These are figures, not a timed test: nothing here measures speed.
"""

from __future__ import annotations

import argparse
import importlib
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from pokerroom.engine import PokerOptions, resolved_betting
from pokerroom.tools.playstats import Figures, band_text, figures, in_band, max_players, target_bands
from pokerroom.tools.simulate import Decide, SimConfig, paired_margin, run_match

MODES = ("holdem", "omaha", "sevenPoker", "sevenHiLo", "badugi", "fiveDraw", "indian")
#: The main commit on which the reckless bots were measured (all nine all-in on hand 1).
BEFORE = "82c41e6"
ROOT = Path(__file__).resolve().parent.parent


def load_policy(ref: str, into: Path) -> Decide:
    """``decide`` of ``src/pokerroom/bots`` at git ``ref``, imported as a package of its own."""
    name = "bots_" + re.sub(r"\W", "_", ref)
    pkg = into / name
    pkg.mkdir(parents=True, exist_ok=True)
    files = subprocess.run(["git", "ls-tree", "--name-only", ref, "src/pokerroom/bots/"], cwd=ROOT,
                           check=True, capture_output=True, text=True).stdout.split()
    for path in files:
        if not path.endswith(".py"):
            continue
        text = subprocess.run(["git", "show", f"{ref}:{path}"], cwd=ROOT, check=True, capture_output=True,
                              text=True).stdout
        # the equity library the old bots import has moved below them (pokerroom.odds, same names)
        text = text.replace("pokerroom.tools.equity", "pokerroom.odds")
        (pkg / Path(path).name).write_text(text.replace("pokerroom.bots", name), encoding="utf-8")
    sys.path.insert(0, str(into))
    module = importlib.import_module(f"{name}.policy")
    return module.decide  # type: ignore[no-any-return]


def _pair(before: float, after: float, fmt: str, ok: bool | None) -> str:
    mark = "" if ok is None else (" [green]✓[/green]" if ok else " [red]✗[/red]")
    return f"{format(before, fmt)} → {format(after, fmt)}{mark}"


def style_table(mode: str, rows: list[tuple[int, str, Figures, Figures]], korean: bool,
                betting: str) -> Table:
    table = Table(title=f"{mode} ({betting}): before → after (✓/✗: after inside/outside the target)")
    for col in ("players", "bot", "all-in %", "target", "hand-1 all-in %", "hands/game", "target", "VPIP %",
                "PFR %", "stay %", "VPIP/PFR/stay target"):
        table.add_column(col, justify="right")
    for players, level, old, new in rows:
        b = target_bands(mode, players, korean)
        vp_band = b.vpip if b.vpip is not None else None
        table.add_row(
            str(players), level,
            _pair(old.all_in, new.all_in, ".1f", new.all_in <= b.all_in_max), f"≤ {b.all_in_max:g}",
            _pair(old.first_hand_all_in, new.first_hand_all_in, ".0f", None),
            _pair(old.hands_per_game, new.hands_per_game, ".1f", new.hands_per_game >= b.hands_per_game_min),
            f"≥ {b.hands_per_game_min:g}",
            _pair(old.vpip[level], new.vpip[level], ".1f", in_band(new.vpip[level], vp_band)),
            _pair(old.pfr[level], new.pfr[level], ".1f", in_band(new.pfr[level], b.pfr)),
            _pair(old.stay[level], new.stay[level], ".1f", in_band(new.stay[level], b.stay)),
            f"{band_text(b.vpip)} / {band_text(b.pfr)} / {band_text(b.stay)}",
        )
    return table


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--before", default=BEFORE, help="git ref of the bots to compare with")
    parser.add_argument("--modes", default=",".join(MODES))
    parser.add_argument("--hands", type=int, default=120, help="hands per mode × players × level cell")
    parser.add_argument("--match-hands", type=int, default=600, help="heads-up normal vs easy hands per mode")
    parser.add_argument("--samples", type=int, default=60, help="Monte Carlo samples per normal decision")
    parser.add_argument("--seed", type=int, default=15)
    parser.add_argument("--betting", choices=("auto", "korean", "noLimit", "potLimit"), default="auto",
                        help="play every mode with this betting system (auto: each mode's own)")
    args = parser.parse_args()
    console = Console(width=200)
    modes = [m for m in args.modes.split(",") if m]
    options: dict[str, Any] = {} if args.betting == "auto" else {"betting": args.betting}
    with tempfile.TemporaryDirectory() as tmp:
        try:
            before = load_policy(args.before, Path(tmp))
        except (subprocess.CalledProcessError, FileNotFoundError) as exc:
            console.print(f"the bots at {args.before!r} cannot be read from git here ({exc}); run in a clone "
                          "that has that commit, or pass --before REF")
            return 0
        policies: dict[str, Decide | None] = {"before": before, "after": None}
        z_rows: list[tuple[str, list[Any]]] = []
        for mode in modes:
            korean = resolved_betting(PokerOptions.model_validate({"mode": mode, **options})) == "korean"
            rows: list[tuple[int, str, Figures, Figures]] = []
            sizes = sorted({2, 6, max_players(mode)})
            cells: list[tuple[int, dict[str, Any]]] = [(p, options) for p in sizes]
            if mode == "indian":
                # Indian's real maximum: ten players need the 52-card deck (indianDeck d52).
                cells.append((10, {**options, "indianDeck": "d52"}))
            for players, cell_options in cells:
                for level in ("easy", "normal"):
                    figs = {}
                    for name, policy in policies.items():
                        cfg = SimConfig(mode=mode, players=players, hands=args.hands, bots=(level,),
                                        seed=args.seed, samples=args.samples, options=cell_options,
                                        check=False)
                        result = run_match(cfg, policy=policy)
                        figs[name] = figures(result.play, result.games)
                    rows.append((players, level, figs["before"], figs["after"]))
            console.print(style_table(mode, rows, korean, args.betting))
            margins = []
            for policy in policies.values():
                cfg = SimConfig(mode=mode, players=2, hands=args.match_hands, bots=("normal", "easy"),
                                seed=args.seed, samples=args.samples, options=options, check=False)
                margins.append(paired_margin(run_match(cfg, policy=policy), "normal", "easy"))
            z_rows.append((mode, margins))
        table = Table(title=f"Heads-up normal vs easy, {args.match_hands} hands per mode: "
                            "chips/hand (95% CI), z")
        for col in ("mode", "before", "z before", "after", "z after"):
            table.add_column(col, justify="right")
        for mode, ((m0, h0, z0), (m1, h1, z1)) in z_rows:
            ok = "[green]✓[/green]" if z1 > 2 else "[red]✗[/red]"
            table.add_row(mode, f"{m0:+.2f} ± {h0:.2f}", f"{z0:.2f}", f"{m1:+.2f} ± {h1:.2f}",
                          f"{z1:.2f} {ok}")
        console.print(table)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
