"""Shared helpers of the betting-layer tests: anted players, the legal action types, acting as the player to
act, and the refusal an action gets.

Apart from the test files because the Korean, no-limit and house-rule tests all drive ``pokerroom.betting``
the same way (each file had its own copy).
"""

from __future__ import annotations

from typing import Any

import pytest

from pokerroom.betting import BettingRound, Bettor, apply_action, legal_actions, validate_action
from pokerroom.rejections import Rejected

CANNOT_RAISE = "이번 라운드에서는 더 올릴 수 없어요(콜 또는 다이만 가능)"


def anted(ids: str, stack: int = 1000, ante: int = 10) -> dict[str, Bettor]:
    """Players who each posted ``ante`` (into committed_total only, §5.1)."""
    return {p: Bettor(p, stack - ante, committed_total=ante) for p in ids}


def types(rnd: BettingRound, b: dict[str, Bettor], pid: str) -> list[str]:
    return [a["type"] for a in legal_actions(rnd, b, pid)]


def act(rnd: BettingRound, b: dict[str, Bettor], pid: str, kind: str, to: int | None = None) -> int:
    """``pid`` (who must be the player to act) plays ``kind`` (raising to ``to``); the chips it moved."""
    assert rnd.to_act == pid, (rnd.to_act, pid)
    action: dict[str, Any] = {"type": kind}
    if to is not None:
        action["to"] = to
    return apply_action(rnd, b, pid, action).moved


def refused(rnd: BettingRound, b: dict[str, Bettor], pid: str, action: object) -> Rejected:
    """The refusal ``action`` gets (the test fails if it is accepted)."""
    with pytest.raises(Rejected) as info:
        validate_action(rnd, b, pid, action)
    return info.value
