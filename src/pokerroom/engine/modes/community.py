"""Texas hold'em and Omaha (poker.md §5.4.1, §5.4.2, §5.3 action order).

Rules:
- Blinds (posted by the flow): SB is the seat after the dealer and BB the next; heads-up the dealer is SB.
- Preflop the seat after the BB acts first (heads-up: the dealer/SB), or the seat after the straddler when
  somebody straddled (docs/rules-extensions.md); from the flop on, the first player after the dealer who is
  still in (heads-up: the BB).
- Hold'em uses any five of 2 hole + 5 board; Omaha exactly two hole cards and exactly three board cards.
- Omaha Hi-Lo (``omahaHiLo``): the same high plus an eight-or-better low from exactly two hole and three
  board cards (:func:`pokerroom.hands.omaha_low`); the cards speak, nobody declares.
"""

from __future__ import annotations

from pokerroom import hands as ev
from pokerroom.cards import Card
from pokerroom.engine.modes.base import ModeRules, Step, Strength, Valued
from pokerroom.engine.options import PokerOptions, omaha_hi_lo
from pokerroom.engine.state import Hand


class Community(ModeRules):
    street_names = ("프리플랍", "플랍", "턴", "리버")

    def __init__(self, options: PokerOptions) -> None:
        super().__init__(options)
        self.hole_count = 4 if self.options.mode == "omaha" else 2
        self.hi_lo = omaha_hi_lo(self.options)

    def script(self) -> list[Step]:
        return [
            ("hole", self.hole_count), ("bet", 0),
            ("board", 3), ("bet", 1),
            ("board", 1), ("bet", 2),
            ("board", 1), ("bet", 3),
            ("showdown", 0),
        ]

    def betting_order(self, hand: Hand, street: int) -> list[str]:
        order = list(hand.order)
        if street > 0 or hand.bb is None:
            return order
        if len(order) == 2:  # heads-up: dealer = SB acts first preflop
            return order[1:] + order[:1]
        if hand.straddler is not None:  # 스트래들: from the seat after the straddler, who acts last
            i = order.index(hand.straddler) + 1
            return order[i:] + order[:i]
        return order[2:] + order[:2]

    def all_cards(self, hand: Hand, pid: str) -> list[Card]:
        return list(hand.players[pid].hole)

    def evaluate(self, hand: Hand, pid: str) -> Valued:
        return self.evaluate_on(hand, pid, hand.board)

    def evaluate_on(self, hand: Hand, pid: str, board: list[Card]) -> Valued:
        """``pid``'s hand on a given board (run it twice values each player on both boards)."""
        hole = hand.players[pid].hole
        if self.options.mode == "omaha":
            high = ev.omaha_high(list(hole), list(board))
            if self.hi_lo:
                return Valued(high, ev.omaha_low(list(hole), list(board)))
            return Valued(high)
        return Valued(ev.international_high(list(hole) + list(board)))

    def hint_values(self, hand: Hand, pid: str) -> tuple[Strength | None, Strength | None]:
        hole = hand.players[pid].hole
        if len(hand.board) < 3 or not hole:
            paired = sorted((c for c in hole if sum(d.rank == c.rank for d in hole) >= 2),
                            key=lambda c: c.rank, reverse=True)
            if paired:  # a pocket pair (Omaha: the best one): "원페어", "킹 원페어"
                return (ev.international_high(paired[:2]), None)
            return (None, None)
        v = self.evaluate(hand, pid)
        return (v.high, v.low if self.hi_lo else None)
