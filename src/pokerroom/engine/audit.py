"""Invariants the tests (and a cautious server) can check on any state (poker.md §10).

- Chips: Σ stacks + chips in the middle of a running hand (bets, dead carry-over, Indian penalties) + the
  carried-over pot = starting chips × players + starting chips × rebuys.
- Cards: every card of the deck in use is in exactly one place (deck, muck, board, a player's cards, the kept
  Indian deck, the used-card list).
"""

from __future__ import annotations

from collections import Counter

from pokerroom.cards import Card
from pokerroom.engine.common import chips_given
from pokerroom.engine.state import State


def chips_accounted(state: State) -> int:
    """Every chip of the game, wherever it is."""
    total = sum(s.stack for s in state.seats) + state.carry_over
    hand = state.hand
    if hand is not None and hand.phase != "handEnd" and hand.awards is None:
        total += sum(b.committed_total for b in hand.bettors.values()) + hand.dead
        total += sum(int(p["amount"]) for p in hand.penalties)
        # seats mirror bettors (synced after every apply); pots are not double counted: bets are in bettors
    return total


def chips_expected(state: State) -> int:
    """Starting chips of every seat plus every rebuy (at the stack each was given: ``chips_given``)."""
    return sum(sum(chips_given(state, s)) for s in state.seats)


def card_locations(state: State) -> Counter[Card]:
    """How many times each card appears anywhere in the state."""
    seen: Counter[Card] = Counter()
    hand = state.hand
    if state.indian_deck is not None:
        seen.update(state.indian_deck)
    if state.options.mode == "indian":
        seen.update(state.indian_used)
    if hand is not None:
        if state.options.mode == "indian" and hand.phase == "handEnd":
            # the hand's cards are in the used list from the hand's end on; after_hand then moves the rest
            # of the deck back to the kept deck (hand.deck is [] from then on)
            seen.update(hand.deck)
            return seen
        seen.update(hand.deck)
        seen.update(hand.muck)
        seen.update(hand.board)
        seen.update(hand.board2)  # run it twice: the second run's own cards (the shared ones are in board)
        for p in hand.players.values():
            seen.update(p.hole)
            seen.update(p.up)
            if p.forehead is not None:
                seen.update([p.forehead])
            if p.choice is not None:
                seen.update(p.choice)
    return seen
