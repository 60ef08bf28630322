"""7 Poker and 7 Poker hi-lo (poker.md §5.4.3, §5.4.4, rulings 3).

Rules:
- Four private cards, a simultaneous choice (discard one, open one), then 4구/5구/6구 open and 7구
  hidden, with a betting round after each of 4구..7구 (no 3구 betting).
- The boss (first actor of each round) is the best open hand by ``korean_open_rank`` among the players who can
  still act (not folded, not all-in); the others follow clockwise from the boss.
- Showdown: the best five of seven by Korean ranking (suits break ties); hi-lo also values the low with the
  ``hiLoLow`` / ``hiLoQualifier`` options, after a simultaneous declaration.
"""

from __future__ import annotations

from pokerroom import hands as ev
from pokerroom.engine.modes.base import ModeRules, Step, Strength, Valued, rotate_to
from pokerroom.engine.state import Hand


class Stud(ModeRules):
    street_names = ("4구", "5구", "6구", "7구")

    def script(self) -> list[Step]:
        steps: list[Step] = [
            ("choice", 4),
            ("up", 1), ("bet", 0),
            ("up", 1), ("bet", 1),
            ("up", 1), ("bet", 2),
            ("hole", 1), ("bet", 3),
        ]
        if self.options.mode == "sevenHiLo":
            steps.append(("declare", 0))
        steps.append(("showdown", 0))
        return steps

    def boss(self, hand: Hand) -> str | None:
        """The best open hand among players who can still act (ties impossible: suits decide)."""
        best: str | None = None
        best_value = None
        for pid in hand.order:
            b = hand.bettors[pid]
            if b.folded or b.all_in or b.stack <= 0:
                continue
            value = ev.korean_open_rank(list(hand.players[pid].up))
            if best_value is None or value > best_value:
                best, best_value = pid, value
        return best

    def betting_order(self, hand: Hand, street: int) -> list[str]:
        boss = self.boss(hand)
        return rotate_to(list(hand.order), boss) if boss is not None else list(hand.order)

    def low(self, hand: Hand, pid: str) -> object | None:
        p = hand.players[pid]
        return ev.korean_low(
            list(p.hole) + list(p.up), rule=self.options.hi_lo_low, qualifier=self.options.hi_lo_qualifier
        )

    def evaluate(self, hand: Hand, pid: str) -> Valued:
        p = hand.players[pid]
        high = ev.korean_high(list(p.hole) + list(p.up))
        if self.options.mode == "sevenHiLo":
            return Valued(high, self.low(hand, pid))
        return Valued(high)

    def hint_values(self, hand: Hand, pid: str) -> tuple[Strength | None, Strength | None]:
        p = hand.players[pid]
        cards = list(p.hole) + list(p.up)
        if p.choice is not None:
            cards = list(p.choice)
        if not cards:
            return (None, None)
        high = ev.korean_high(cards)
        if self.options.mode != "sevenHiLo" or len(cards) < 5:
            return (high, None)
        opts = self.options
        return (high, ev.korean_low(cards, rule=opts.hi_lo_low, qualifier=opts.hi_lo_qualifier))
