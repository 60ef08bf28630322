"""Bots play like people (issue #15): few all-ins, games that last, hold'em VPIP/PFR inside published bands.

Fixed seeds and modest samples keep these fast and deterministic; every threshold sits several standard errors
away from the measured value (noted beside each), and far from what the bots did before issue #15 (a table
of easy bots was all-in on 39 % of ten-player hold'em hands and a game lasted 2 hands; six normal bots at
7포커 were all-in on 55 % of hands and a game lasted 2 hands).
"""

from __future__ import annotations

import math

import pytest

from pokerroom.bots.policy import range_equity
from pokerroom.tools.playstats import figures, in_band, target_bands
from pokerroom.tools.simulate import SimConfig, run_match


def _se(p: float, n: int) -> float:
    return math.sqrt(max(p * (1 - p), 1e-4) / n)


def test_ten_easy_bots_at_holdem_rarely_go_all_in_and_games_last() -> None:
    """The issue's reproduction (``--mode holdem --players 10 --bots easy``), 200 hands."""
    result = run_match(SimConfig(mode="holdem", players=10, hands=200, bots=("easy",), seed=15, check=False))
    fig = figures(result.play, result.games)
    rate = result.play.all_in_hands / result.play.hands
    # Cap 15 %: the measured rate is a few per cent, so the cap is > 3 standard errors above it.
    assert rate + 3 * _se(rate, result.play.hands) <= 0.15, fig
    assert fig.hands_per_game >= target_bands("holdem", 10).hands_per_game_min, fig
    assert result.games <= 20  # before: 54 games in 100 hands


def test_six_max_holdem_vpip_and_pfr_are_inside_the_bands() -> None:
    """6-max VPIP 20–40 % and PFR 4–30 % for both levels at one table (3 normal, 3 easy), 150 hands."""
    result = run_match(SimConfig(mode="holdem", players=6, hands=150, bots=("normal", "easy"), seed=15,
                                 samples=30, check=False))
    fig = figures(result.play, result.games)
    bands = target_bands("holdem", 6)
    assert bands.vpip is not None and bands.pfr is not None
    for level in ("normal", "easy"):
        n = result.play.by_level[level].seat_hands
        for value, (lo, hi) in ((fig.vpip[level], bands.vpip), (fig.pfr[level], bands.pfr)):
            margin = 100 * 2 * _se(value / 100, n)
            assert lo <= value <= hi, (level, value, (lo, hi), fig)
            assert in_band(value, bands.vpip if (lo, hi) == bands.vpip else bands.pfr)
            assert margin < 10  # the sample is big enough for the band to mean something
    assert fig.all_in <= bands.all_in_max
    # normal is the tighter, more aggressive player: fewer hands, a larger share of them raised.
    assert fig.vpip["normal"] < fig.vpip["easy"]
    assert fig.pfr["normal"] / fig.vpip["normal"] > fig.pfr["easy"] / fig.vpip["easy"]


@pytest.mark.parametrize("mode", ["sevenPoker", "badugi"])
def test_korean_ante_games_with_six_bots_are_no_all_in_festival(mode: str) -> None:
    """Six bots (normal and easy) in a Korean-betting ante game, 120 hands: all-ins and busts well below
    what they were."""
    result = run_match(SimConfig(mode=mode, players=6, hands=120, bots=("normal", "easy"), seed=15,
                                 samples=30, check=False))
    fig = figures(result.play, result.games)
    rate = result.play.all_in_hands / result.play.hands
    assert rate + 2 * _se(rate, result.play.hands) <= 0.30, fig  # before: 55–70 % with six normal bots
    assert fig.hands_per_game >= 6, fig  # before: 1.5–2 hands per game


def test_range_equity_prices_the_bettors_range() -> None:
    """Forced chips say nothing; a bigger bet, a bigger share of my stack and more raisers all mean a stronger
    range against me, so less equity."""
    assert range_equity(0.6, 1, amount=10, pot=15, stack=990, aggressors=0) == 0.6
    small = range_equity(0.6, 1, amount=25, pot=100, stack=900, aggressors=1)
    pot_size = range_equity(0.6, 1, amount=100, pot=200, stack=900, aggressors=1)
    all_in = range_equity(0.6, 1, amount=900, pot=1000, stack=900, aggressors=1)
    assert 0.6 > small > pot_size > all_in > 0
    multi_one = range_equity(0.3, 4, amount=100, pot=200, stack=900, aggressors=1)
    multi_two = range_equity(0.3, 4, amount=100, pot=200, stack=900, aggressors=2)
    assert 0.3 > multi_one > multi_two
