"""What each player won or lost, in chips: per hand (the view's ``handNet``) and per game (the room's ledger,
the result's ``net``).

Why one module: the hand-end banner, the result screen and the room's ledger must show the same figure for
the same thing, so each figure is computed once, here, from the state's own chip flow, never from what a pot
held (the pot a winner collects includes their own bet: "+150" for a pot where they won 100).

Rules:
- A hand's net for a player = what came back to them − what went in: the awards they received (every pot
  and side pot share, Hi-Lo half, split, Indian penalty share and carried dead money) − their
  ``committedTotal`` (antes and blinds included; an uncalled bet returned is no longer in it) − a big-blind
  ante they paid (dead money: in the hand's ``dead``, not in their total) − the Indian penalty they paid.
  Over the players of a hand the nets sum to the carried dead money taken in minus the chips carried out
  (both 0 unless an Indian tie or an unopened 잭스 오어 베터 pot carries).
- A game's account for a seat: it brought ``startingChips`` once (a late joiner too) plus ``startingChips``
  per rebuy (or, once the host changed the starting stack mid-game, what each seat was really given:
  ``common.chips_given``); its stack is *settled*: during a hand, the chips it had before the hand (its
  stack plus what it has put in); net = settled stack − everything it was given. The nets of a game sum to
  minus the chips nobody owns yet (:func:`unowned`: a carried pot); at the end of a game nothing is
  carried, so they sum to 0.
"""

from __future__ import annotations

from typing import Any

from pokerroom.engine.common import chips_given
from pokerroom.engine.house_blinds import dead_ante
from pokerroom.engine.state import Hand, State


def _running(hand: Hand | None) -> bool:
    """A hand whose chips are still in the middle (its awards not yet paid)."""
    return hand is not None and hand.phase != "handEnd" and hand.awards is None


def hand_net(state: State) -> dict[str, int] | None:
    """The last finished hand's net per player of that hand (from the seat after the dealer), or None while
    no hand has ended since the last one started. Stays until the next hand starts (phases rebuy and
    finished included): amended by a carry split at the game's end, whose awards are added to the hand's."""
    hand = state.hand
    if hand is None or hand.phase != "handEnd" or hand.awards is None:
        return None
    net = {pid: -hand.bettors[pid].committed_total - dead_ante(hand, pid, state) for pid in hand.order}
    for p in hand.penalties:
        net[str(p["from"])] -= int(p["amount"])
    for a in hand.awards:
        net[str(a["to"])] += int(a["amount"])
    return net


def settled_stack(state: State, player_id: str) -> int:
    """The seat's chips as of the last settled moment: while a hand runs, what it held before that hand."""
    seat = state.seat_of(player_id)
    assert seat is not None, player_id
    hand = state.hand
    if hand is None or not _running(hand) or player_id not in hand.bettors:
        return seat.stack
    b = hand.bettors[player_id]
    paid = sum(int(p["amount"]) for p in hand.penalties if p["from"] == player_id)
    return b.stack + b.committed_total + paid + dead_ante(hand, player_id, state)


def unowned(state: State) -> int:
    """Chips that belong to nobody yet: a carried pot waiting for the next hand, or taken in as dead money
    by the hand running now (a big-blind ante is dead money too, but its owner's until the hand ends)."""
    hand = state.hand
    if hand is None or not _running(hand):
        return state.carry_over
    return state.carry_over + hand.dead - sum(dead_ante(hand, pid, state) for pid in hand.antes)


def accounts(state: State) -> list[dict[str, Any]]:
    """Each seat's account in this game, in seat order: ``buyIn`` (startingChips), ``rebuys`` (how many),
    ``rebuyChips``, ``stack`` (settled) and ``net`` (stack − buyIn − rebuyChips)."""
    out: list[dict[str, Any]] = []
    for s in sorted(state.seats, key=lambda s: s.seat):
        stack = settled_stack(state, s.id)
        buy_in, rebuy_chips = chips_given(state, s)  # (the host may have changed the stack mid-game)
        out.append({"playerId": s.id, "buyIn": buy_in, "rebuys": s.rebuys, "rebuyChips": rebuy_chips,
                    "stack": stack, "net": stack - buy_in - rebuy_chips})
    return out


def game_accounts(state: State) -> dict[str, Any]:
    """What the room's ledger reads of a game: :func:`accounts`, :func:`unowned`, the hands played and whether
    a hand's chips are in the middle now (its figures are then those from before that hand)."""
    return {"seats": accounts(state), "unowned": unowned(state), "handsPlayed": state.hands_played,
            "running": _running(state.hand)}
