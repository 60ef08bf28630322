"""What a differential run reports: the documented differences it counts (``DIFFERENCES``, explained in the
package docstring), the counts of one game or run (``Stats``) and the error raised at a disagreement.

Apart from the driver so that the tests and the hunting tool read the results without the machinery.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields

DIFFERENCES = (
    "odd-chip", "incomplete-raise", "short-all-in-sum", "pointless-raise", "free-fold", "closed-betting",
    "pot-shape", "short-blind", "side-pot-no-low", "reshuffle",
)


class Discrepancy(AssertionError):
    """Our engine and pokerkit disagree (the message carries the seed, hand and action log to replay it)."""



@dataclass
class Stats:
    hands: int = 0
    showdowns: int = 0
    one_left: int = 0  # everybody else folded: winner and final stacks compared (``pot-shape``)
    split_pots: int = 0
    odd_chip_adjusted: int = 0
    side_pots: int = 0  # hands with 2+ contested pots
    all_in_hands: int = 0
    heads_up: int = 0  # hands with two players (reversed blinds)
    short_forced: int = 0  # hands where somebody starts with at most one base unit (short forced bet)
    actions: int = 0
    raises: int = 0
    legal_checks: int = 0
    probes: int = 0  # out-of-range raises both engines refused
    differences: dict[str, int] = field(default_factory=lambda: dict.fromkeys(DIFFERENCES, 0))

    def add(self, other: Stats) -> None:
        for f in fields(self):
            if f.name != "differences":
                setattr(self, f.name, getattr(self, f.name) + getattr(other, f.name))
        for k, v in other.differences.items():
            self.differences[k] += v
