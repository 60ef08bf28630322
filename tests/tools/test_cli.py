"""CLI smoke tests: run the sub-commands in-process and check the numbers they print."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import pytest

import needs
from pokerroom.tools import odds_cli, simulate_cli


def _run(module: object, argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers()
    module.register(sub)  # type: ignore[attr-defined]
    args = parser.parse_args(argv)
    code = args.func(args)
    return code, capsys.readouterr().out


def _row(out: str, label: str) -> list[float]:
    line = next(line for line in out.splitlines() if label in line)
    return [float(x) for x in re.findall(r"[-+]?\d+\.\d+", line)]


def test_odds_exact_on_the_flop(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = _run(odds_cli, ["odds", "AsAh", "KdKc", "--board", "2c7d9h", "--no-progress"], capsys)
    assert code == 0
    assert "exact enumeration of 990 deals" in out
    win, tie, eq = _row(out, "A♠ A♥")
    assert (win, tie, eq) == (91.62, 0.0, 91.62)
    assert _row(out, "K◆ K♣")[2] == 8.38


def test_odds_monte_carlo_prints_samples_and_error(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["odds", "As Ah", "Kd Kc", "--samples", "40000", "--seed", "3", "--monte-carlo", "--no-progress"]
    code, out = _run(odds_cli, argv, capsys)
    assert code == 0
    assert "Monte Carlo, 40,000 samples" in out
    win, tie, eq, se = _row(out, "A♠ A♥")
    assert 0.15 < se < 0.25  # percent: sqrt(.81 * .19 / 40000)
    assert abs(eq - 81.26) < 4 * se
    assert abs(win - 81.06) < 4 * se and tie < 1.0


def test_odds_seven_poker_and_omaha_and_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = _run(odds_cli, ["odds", "AsAhAdKc2h", "7c7d", "--mode", "sevenPoker", "--samples", "5000",
                                "--seed", "1", "--no-progress"], capsys)
    assert code == 0 and "Equity (sevenPoker)" in out and "트리플" in out
    assert _row(out, "A♠ A♥ A◆")[2] > 70
    code, out = _run(odds_cli, ["odds", "AsAhKsKh", "random", "--mode", "omaha", "--samples", "5000",
                                "--seed", "1", "--no-progress"], capsys)
    assert code == 0 and "(random)" in out
    code, out = _run(odds_cli, ["odds", "AsAs", "KdKc", "--no-progress"], capsys)
    assert code == 2 and "twice" in out


def test_simulate_prints_results_speed_and_deal_check(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["simulate", "--mode", "holdem", "--players", "3", "--hands", "30", "--bots", "normal,easy",
            "--seed", "4", "--samples", "30", "--no-progress"]
    code, out = _run(simulate_cli, argv, capsys)
    assert code == 0
    chips = [int(m.replace(",", "")) for m in re.findall(r"│ p\d\s+│ \w+\s+│\s+30 │\s+([-+][\d,]+)", out)]
    assert len(chips) == 3 and sum(chips) == 0  # heads-up or not, chips only move between seats
    assert re.search(r"30 hands in [\d.]+ s = [\d.,]+ hands/s", out)
    checks = re.search(r"([\d,]+) bot decisions; ([\d,]+) invariant checks passed", out)
    assert checks and checks.group(1) == checks.group(2)
    assert "포켓 페어" in out and "5.88" in out  # exact 3/51 next to the observed share
    assert "normal − easy margin" in out


def test_simulate_rejects_unknown_level(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = _run(simulate_cli, ["simulate", "--bots", "hard", "--no-progress"], capsys)
    assert code == 2 and "unknown bot level" in out


def test_simulate_writes_phh_that_pokerkit_replays(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    pokerkit = needs.module("pokerkit")
    argv = ["simulate", "--mode", "omaha", "--players", "3", "--hands", "12", "--bots", "easy,normal",
            "--seed", "2", "--samples", "20", "--no-progress", "--phh", str(tmp_path)]
    code, out = _run(simulate_cli, argv, capsys)
    assert code == 0
    files = sorted(tmp_path.glob("*.phh"))
    assert "PHH: 12 hand(s) written" in out and len(files) == 12
    for path in files:
        history = pokerkit.HandHistory.loads(path.read_text(encoding="utf-8"))
        states = list(history)
        assert list(states[-1].stacks) == list(history.finishing_stacks or [])


def test_odds_seven_hilo_exact_river_and_monte_carlo(capsys: pytest.CaptureFixture[str]) -> None:
    # River, cards speak: a full house (no low) vs a 9탑 low — half each, unless the low must be 8 or better.
    argv = ["odds", "KcKdKhQsQd2c3c", "As2d3h4c9s10dJh", "--mode", "sevenHiLo", "--no-progress"]
    code, out = _run(odds_cli, argv, capsys)
    assert code == 0 and "cards speak" in out and "qualifier none" in out
    assert "exact enumeration of 1 deals" in out
    assert _row(out, "K♣ K◆ K♥") == [50.0, 0.0, 100.0, 0.0, 100.0]  # equity, scoop, high, low, no low
    assert _row(out, "A♠ 2◆ 3♥") == [50.0, 0.0, 0.0, 100.0, 0.0]
    code, out = _run(odds_cli, [*argv, "--qualifier", "eight"], capsys)
    assert code == 0 and "qualifier eight" in out
    assert _row(out, "K♣ K◆ K♥") == [100.0, 100.0, 100.0, 0.0, 100.0]
    assert _row(out, "Nobody has a qualifying low") == [100.0]
    # Monte Carlo with the mode's default sample count and a standard error per player.
    argv = ["odds", "As2d3h", "8s8c", "--mode", "sevenHiLo", "--seed", "2", "--monte-carlo", "--no-progress"]
    code, out = _run(odds_cli, argv, capsys)
    assert code == 0 and "Monte Carlo, 20,000 samples" in out
    eq1, se1, scoop1, high1, low1, _ = _row(out, "A♠ 2◆ 3♥")
    eq2, se2, *_ = _row(out, "8♠ 8♣")
    assert abs(eq1 + eq2 - 100.0) < 0.02 and 0.1 < se1 < 0.6 and 0.1 < se2 < 0.6
    assert low1 > 50 and high1 < 50 and 0 < scoop1 < eq1


@pytest.mark.parametrize(("argv", "words"), [
    (["--players", "1"], "2 to 10 players"),
    (["--mode", "sevenPoker", "--players", "7"], "이 모드는 2~6명이에요"),
    (["--hands", "0"], "--hands must be at least 1"),
    (["--samples", "0"], "--samples must be at least 1"),
    (["--seed", "-1"], "--seed must be from 0"),
])
def test_simulate_refuses_bad_flags_with_words_not_tracebacks(
    capsys: pytest.CaptureFixture[str], argv: list[str], words: str
) -> None:
    code, out = _run(simulate_cli, ["simulate", *argv, "--no-progress"], capsys)
    assert code == 2 and words in out and "Traceback" not in out


def test_simulate_refuses_a_phh_path_that_is_a_file_before_playing(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    target = tmp_path / "taken"
    target.write_text("x", encoding="utf-8")
    code, out = _run(simulate_cli, ["simulate", "--phh", str(target), "--no-progress"], capsys)
    assert code == 2 and "not a directory" in out and "Speed" not in out


@pytest.mark.parametrize("board", ["2c", "2c7d", "2c7d9hJsQs5d"])
def test_odds_refuses_a_board_that_is_no_street(capsys: pytest.CaptureFixture[str], board: str) -> None:
    code, out = _run(odds_cli, ["odds", "AsAh", "KdKc", "--board", board, "--no-progress"], capsys)
    assert code == 2 and "--board" in out


def test_simulate_prints_the_play_style_beside_target_bands(capsys: pytest.CaptureFixture[str]) -> None:
    """All-in rate, hands per game and VPIP/PFR/stay per level, each with its band (docs/bots.md)."""
    argv = ["simulate", "--mode", "holdem", "--players", "6", "--hands", "40", "--bots", "normal,easy",
            "--seed", "4", "--samples", "20", "--no-progress"]
    code, out = _run(simulate_cli, argv, capsys)
    assert code == 0 and "Play style" in out
    assert re.search(r"all-in hands\s+│\s+[\d.]+% [✓✗]\s+│\s+≤ 15%", out)
    assert re.search(r"hands per game\s+│\s+[\d.]+ [✓✗]\s+│\s+≥ 15", out)
    for level in ("normal", "easy"):
        vpip = re.search(rf"VPIP {level}\s+│\s+([\d.]+)% [✓✗]\s+│\s+20–40%", out)
        pfr = re.search(rf"PFR {level}\s+│\s+([\d.]+)% [✓✗]\s+│\s+4–30%", out)
        assert vpip and pfr and 0 <= float(pfr.group(1)) <= float(vpip.group(1)) <= 100


def test_odds_omaha_hi_lo_flag(capsys: pytest.CaptureFixture[str]) -> None:
    # river: a wheel (best high and the best low) against kings: a scoop
    argv = ["odds", "As2d9h9c", "KdKhQsJs", "--mode", "omaha", "--hi-lo", "--board", "3c4d5hKcTd",
            "--no-progress"]
    code, out = _run(odds_cli, argv, capsys)
    assert code == 0 and "Omaha Hi-Lo" in out and "exact enumeration of 1 deals" in out
    assert _row(out, "A♠ 2◆ 9♥") == [100.0, 100.0, 100.0, 100.0, 0.0]
    code, out = _run(odds_cli, ["odds", "AsAh", "KdKc", "--hi-lo", "--no-progress"], capsys)
    assert code == 2 and "--mode omaha" in out
