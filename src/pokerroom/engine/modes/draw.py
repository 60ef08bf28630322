"""Badugi and five-card draw (poker.md §5.4.5, §5.4.6).

Rules:
- Badugi: 4 private cards; bet, then three simultaneous exchanges (아침/점심/저녁) each followed by a betting
  round: four rounds in all. Five-card draw: 5 cards; bet, one exchange, bet.
- Every round starts from the seat after the dealer. All-in players still exchange.
- Exchange limits: badugi 0..4; five-card draw ``any`` 0..5, ``three`` 0..3, or 0..4 when an ace stays in
  hand.
"""

from __future__ import annotations

from pokerroom import hands as ev
from pokerroom.cards import Card
from pokerroom.engine.modes.base import ModeRules, Step, Strength, Valued
from pokerroom.engine.options import PokerOptions
from pokerroom.engine.state import Hand


class Draw(ModeRules):
    def __init__(self, options: PokerOptions) -> None:
        super().__init__(options)
        self.badugi = self.options.mode == "badugi"
        self.street_names = (
            ("1차 베팅", "2차 베팅", "3차 베팅", "4차 베팅") if self.badugi else ("1차 베팅", "2차 베팅")
        )

    def script(self) -> list[Step]:
        if self.badugi:
            return [
                ("hole", 4), ("bet", 0),
                ("draw", 0), ("bet", 1),
                ("draw", 1), ("bet", 2),
                ("draw", 2), ("bet", 3),
                ("showdown", 0),
            ]
        return [("hole", 5), ("bet", 0), ("draw", 0), ("bet", 1), ("showdown", 0)]

    def draw_limits(self, hole: list[Card]) -> tuple[int, int | None]:
        """(max, maxKeepingAce or None) for one exchange."""
        if self.badugi:
            return (4, None)
        if self.options.draw_limit == "any":
            return (5, None)
        has_ace = any(c.rank == 14 for c in hole)
        return (3, 4 if has_ace else None)

    def draw_allowed(self, hole: list[Card], ids: list[int]) -> bool:
        """Whether discarding ``ids`` respects the limit (the 4th card only when an ace stays)."""
        limit, with_ace = self.draw_limits(hole)
        if len(ids) <= limit:
            return True
        if with_ace is None or len(ids) > with_ace:
            return False
        return any(c.rank == 14 and c.id not in ids for c in hole)

    def evaluate(self, hand: Hand, pid: str) -> Valued:
        hole = list(hand.players[pid].hole)
        return Valued(ev.badugi(hole) if self.badugi else ev.international_high(hole))

    def hint_values(self, hand: Hand, pid: str) -> tuple[Strength | None, Strength | None]:
        if not hand.players[pid].hole:
            return (None, None)
        return (self.evaluate(hand, pid).high, None)
