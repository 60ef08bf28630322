"""What each equity mode deals: hole and board counts, the Korean-ranked modes, the hi-lo low rules.

Why a module of its own: the equity driver, the showdown evaluation and the bots' one-player fast path
(:mod:`pokerroom.bots.montecarlo`) all read these tables; none of them should have to import another's
machinery to learn how many cards a 7 Poker hand holds.
"""

from __future__ import annotations

from typing import Literal

from pokerroom.hands.korean import LowQualifier, LowRule

EquityMode = Literal["holdem", "omaha", "sevenPoker", "sevenHiLo"]
MODES: tuple[EquityMode, ...] = ("holdem", "omaha", "sevenPoker", "sevenHiLo")
#: Modes ranked with the Korean high (§6.2).
KOREAN_MODES = ("sevenPoker", "sevenHiLo")
#: Cards each player holds at showdown, and board cards, per mode.
HOLE_COUNT: dict[str, int] = {"holdem": 2, "omaha": 4, "sevenPoker": 7, "sevenHiLo": 7}
BOARD_COUNT: dict[str, int] = {"holdem": 5, "omaha": 5, "sevenPoker": 0, "sevenHiLo": 0}
LOW_RULES: tuple[LowRule, ...] = ("korean", "aceToFive")
QUALIFIERS: tuple[LowQualifier, ...] = ("none", "eight")
