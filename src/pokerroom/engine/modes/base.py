"""What a mode family tells the hand flow: its script, who acts first, and how hands are valued.

A *script* is the hand as a list of steps that :mod:`pokerroom.engine.flow` runs in order:

- ``("hole", n)``: deal n private cards to each player still in; ``("up", n)``: n open cards;
  ``("board", n)``: burn one, then n community cards; ``("forehead", 1)``: the Indian forehead card;
- ``("choice", 4)``: deal the 4 choice cards and wait for every ``choose`` (7 Poker);
- ``("bet", street)``: a betting round (skipped when betting is closed);
- ``("draw", k)``: the k-th simultaneous exchange; ``("declare", 0)``: hi-lo declaration;
- ``("showdown", 0)``: evaluate and award.

Modes never move chips and never touch the rng; they only read the hand.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pokerroom.cards import Card
from pokerroom.engine.options import PokerOptions
from pokerroom.engine.state import Hand

Step = tuple[str, int]
#: A value from :mod:`pokerroom.hands` (totally ordered HandValue); ``Any`` keeps this layer decoupled.
Strength = Any


@dataclass(frozen=True)
class Valued:
    """One player's evaluated hand: the high (or only) value, and the hi-lo low (None: no low)."""

    high: Strength
    low: Strength | None = None


class ModeRules:
    """Base class; each family overrides what differs."""

    street_names: tuple[str, ...] = ()

    def __init__(self, options: PokerOptions) -> None:
        self.options = options
        self._steps: list[Step] | None = None

    def script(self) -> list[Step]:
        raise NotImplementedError

    def steps(self) -> list[Step]:
        """The script, built once per options (rules objects are cached per options)."""
        if self._steps is None:
            self._steps = self.script()
        return self._steps

    def betting_order(self, hand: Hand, street: int) -> list[str]:
        """Action order of a round, first actor first. Default: from the seat after the dealer."""
        return list(hand.order)

    def all_cards(self, hand: Hand, pid: str) -> list[Card]:
        """Every card of a player that counts for the showdown (shown in showdown entries)."""
        p = hand.players[pid]
        return list(p.hole) + list(p.up)

    def evaluate(self, hand: Hand, pid: str) -> Valued:
        raise NotImplementedError

    def hint(self, hand: Hand, pid: str) -> tuple[str | None, str | None]:
        """(handName, lowName) for the hints of a player who sees their own cards; None when not yet known."""
        high, low = self.hint_values(hand, pid)
        return (None if high is None else str(high.name), None if low is None else str(low.name))

    def hint_values(self, hand: Hand, pid: str) -> tuple[Strength | None, Strength | None]:
        """The values behind :meth:`hint` (high, low), for the ranked names ("K 투페어"); None: not known."""
        return (None, None)

    def street_name(self, street: int) -> str:
        if 0 <= street < len(self.street_names):
            return self.street_names[street]
        return ""


def rotate_to(order: list[str], first: str) -> list[str]:
    """``order`` rotated so that ``first`` leads."""
    i = order.index(first)
    return order[i:] + order[:i]
