"""The real rules engine with a stacked deck, for the browser test of the night's numbers (test_money.py).

Why: that test must read a win, a loss, a split pot and a rebuy off the screen, and a split pot does not come
from a shuffled deck on demand. ``pokerroom serve --engine money_engine:factory`` runs this engine; it is the
server's own :class:`PokerEngine` in every respect (bets, pots, awards, views, the ledger), except that right
after a hold'em hand is dealt its cards are swapped into the order below, by player id (the room's p1, p2,
p3: host first). Swapping keeps every card exactly once; nothing is dealt face up before the swap, so no
event or view ever showed another order. Hands after the script are dealt as shuffled.
"""

from __future__ import annotations

from typing import Any

from pokerroom.cards import Card, parse_cards
from pokerroom.engine import State
from pokerroom.server.engine_port import PokerEngine

#: hand number -> hole cards by player id, and the five board cards (flop, turn, river)
SCRIPT: dict[int, tuple[dict[str, str], str]] = {
    # 1: a win and two losses: aces against nothing
    1: ({"p1": "As Ah", "p2": "7c 2d", "p3": "8c 3d"}, "Ks 9h 5c 4d Jh"),
    # 2: a split: p1 and p2 both hold the ace-high straight, p3 a pair of nines
    2: ({"p1": "As Th", "p2": "Ad Tc", "p3": "9c 9d"}, "Ks Qd Jc 4h 2s"),
    # 3: p3 goes all-in with nothing, p2's kings call: p3 is busted and rebuys
    3: ({"p1": "2c 3c", "p2": "Kh Kc", "p3": "6s 7s"}, "Ac 8d 4s Qh 9c"),
}
#: the same, for a table of three people and a bot (p4; test_whole_night.py): in hand 1 p3 goes all-in with
#: nothing and p2's kings call, so p3 busts and rebuys; the bot holds the worst hand there is
SCRIPT_WITH_BOT: dict[int, tuple[dict[str, str], str]] = {
    1: ({"p1": "2c 3c", "p2": "Kh Kc", "p3": "6s 7s", "p4": "7d 2h"}, "Ac 8d 4s Qh 9c"),
}
#: where the board cards are taken from the deck: a burn before the flop, the turn and the river
BOARD_AT = (1, 2, 3, 5, 7)


def _swap_in(state: State, target: tuple[list[Card], int], card: Card) -> None:
    hand = state.hand
    assert hand is not None
    places: list[list[Card]] = [hand.deck, *(p.hole for p in hand.players.values())]
    here = next((lst, i) for lst in places for i, c in enumerate(lst) if c == card)
    lst, i = target
    here[0][here[1]], lst[i] = lst[i], card


def stack(state: State) -> None:
    """Arrange the cards of a freshly dealt scripted hold'em hand (in place: the state is brand new)."""
    hand = state.hand
    if hand is None or state.options.mode != "holdem" or hand.board:
        return
    script = SCRIPT_WITH_BOT if len(hand.players) == 4 else SCRIPT
    if hand.hand_no not in script:
        return
    holes, board = script[hand.hand_no]
    if set(holes) != set(hand.players):
        return
    for pid, text in holes.items():
        for i, card in enumerate(parse_cards(text)):
            _swap_in(state, (hand.players[pid].hole, i), card)
    for at, card in zip(BOARD_AT, parse_cards(board), strict=True):
        _swap_in(state, (hand.deck, at), card)


class StackedEngine(PokerEngine):
    """:class:`PokerEngine` whose scripted hands are dealt in the order of :data:`SCRIPT`."""

    def _stacked(self, before: State | None, after: State) -> State:
        if after.hand is not None and (before is None or before.hand is None
                                       or before.hand.hand_no != after.hand.hand_no):
            stack(after)
        return after

    def setup_with_events(self, player_ids: list[str], options: Any, now_ms: int
                          ) -> tuple[State, list[dict[str, Any]] | None]:
        state, events = super().setup_with_events(player_ids, options, now_ms)
        return self._stacked(None, state), events

    def apply(self, state: State, player_id: str, action: dict[str, Any], now_ms: int
              ) -> tuple[State, list[dict[str, Any]]]:
        after, events = super().apply(state, player_id, action, now_ms)
        return self._stacked(state, after), events

    def on_timeout(self, state: State, now_ms: int) -> tuple[State, list[dict[str, Any]]]:
        after, events = super().on_timeout(state, now_ms)
        return self._stacked(state, after), events


def factory() -> StackedEngine:
    return StackedEngine()
