"""Badugi and five-card draw (poker.md §5.4.5, §5.4.6).

Rules:
- Badugi: 4 private cards; bet, then three simultaneous exchanges (아침/점심/저녁) each followed by a betting
  round: four rounds in all. Five-card draw: 5 cards; bet, one exchange, bet.
- Every round starts from the seat after the dealer. All-in players still exchange.
- Exchange limits: badugi 0..4; five-card draw ``any`` 0..5, ``three`` 0..3, or 0..4 when an ace stays in
  hand.
- ``badugiHigh`` (하이 바둑이, docs/rules-extensions.md): the same game, valued by the high-badugi evaluator
  (ace high, the highest badugi wins).
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
        self.badugi_high = self.badugi and self.options.badugi_high
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
        if self.badugi:
            return Valued(ev.badugi_high(hole) if self.badugi_high else ev.badugi(hole))
        return Valued(ev.international_high(hole))

    def openers(self, hand: Hand, pid: str) -> list[Card] | None:
        """잭스 오어 베터: the cards that qualify ``pid`` to open, or None without openers.

        A pair of jacks or better qualifies (§6.1 categories: a pair of J/Q/K/A, or two pair and anything
        higher). The proof is as small as the rule allows: the paired cards of a pair, two pair, trips or
        quads (never the kickers), all five cards of a straight, flush, full house or straight flush.
        """
        hole = list(hand.players[pid].hole)
        if len(hole) < 5:
            return None
        value = ev.international_high(hole)
        cards = list(value.cards)
        paired = [c for c in cards if sum(1 for d in cards if d.rank == c.rank) >= 2]
        if value.category == 1:
            return paired if paired[0].rank >= 11 else None
        if value.category in (2, 3, 7):  # two pair, trips, quads
            return paired
        return cards if value.category >= 4 else None

    def hint_values(self, hand: Hand, pid: str) -> tuple[Strength | None, Strength | None]:
        if not hand.players[pid].hole:
            return (None, None)
        return (self.evaluate(hand, pid).high, None)
