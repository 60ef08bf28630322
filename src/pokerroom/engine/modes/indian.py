"""Indian poker (poker.md §5.4.7, §6.5).

Rules:
- One card on the forehead (seen by everyone but its owner); with ``indianCards=2`` a second betting round
  follows a private hand card. Rounds start from the seat after the dealer.
- Showdown by :func:`pokerroom.hands.indian` (rank only; 2-card: pair beats no pair).
- Folding with the deck's top card (d20: 10, d52: A) on the forehead costs ``10 × baseUnit`` (or the rest of
  the stack) when ``indianFoldPenalty`` is on; the flow collects it, the award goes to the hand's winner(s).
"""

from __future__ import annotations

from pokerroom import hands as ev
from pokerroom.cards import Card
from pokerroom.engine.modes.base import ModeRules, Step, Strength, Valued
from pokerroom.engine.state import Hand


class Indian(ModeRules):
    street_names = ("1차 베팅", "2차 베팅")

    def script(self) -> list[Step]:
        if self.options.indian_cards == 2:
            return [("forehead", 1), ("bet", 0), ("hole", 1), ("bet", 1), ("showdown", 0)]
        return [("forehead", 1), ("bet", 0), ("showdown", 0)]

    @property
    def top_rank(self) -> int:
        return 10 if self.options.indian_deck == "d20" else 14

    def all_cards(self, hand: Hand, pid: str) -> list[Card]:
        p = hand.players[pid]
        return ([p.forehead] if p.forehead is not None else []) + list(p.hole)

    def evaluate(self, hand: Hand, pid: str) -> Valued:
        return Valued(ev.indian(self.all_cards(hand, pid), deck=self.options.indian_deck))

    def hint_values(self, hand: Hand, pid: str) -> tuple[Strength | None, Strength | None]:
        # The owner never knows their forehead before the hand ends: no hand name.
        return (None, None)
