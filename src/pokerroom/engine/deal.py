"""Decks and dealing (poker.md §5.1, §5.4.5, §5.4.7, §8.4).

Rules:
- A hand shuffles a fresh 52-card deck once with the state's DealRng and deals from the top (``deck[0]``).
- Dealing goes round the table one card at a time, starting from the seat after the dealer, to players who
  have not folded.
- Draw replacements (badugi / five-card draw) are dealt in the same order. When the deck runs short, the
  player first gets what is left, then the cards discarded *before* this draw (the muck) are shuffled into a
  new deck; if that is still not enough, this draw's discards are shuffled in too (§5.4.5).
- Indian ``whenEmpty`` keeps one deck between hands; when it cannot serve a hand (participants × cards) every
  used card is gathered, shuffled, and the used-card list starts again. ``everyHand`` shuffles a fresh deck.
The only randomness is the rng's shuffle (:func:`shuffle`, i.e. ``DealRng.shuffle``); nothing
else here draws from the stream. ``State.clone`` shares the
rng with the original state, so every draw here first takes the state's own copy (:func:`own_rng`).
"""

from __future__ import annotations

from typing import TypeVar

from pokerroom.cards import Card, deck_for, standard_deck
from pokerroom.engine.state import Hand, State
from pokerroom.rng import DealRng

_STANDARD: tuple[Card, ...] = tuple(standard_deck())
_DECKS: dict[str, tuple[Card, ...]] = {"d52": _STANDARD, "d20": tuple(deck_for("d20"))}


_T = TypeVar("_T")


def own_rng(state: State) -> DealRng:
    """The state's rng, copied first: a cloned state shares its rng with the state it came from."""
    rng = state.rng.copy()
    state.rng = rng
    return rng


def shuffle(state: State, items: list[_T]) -> None:
    """Shuffle ``items`` with the state's own rng (``DealRng.shuffle``: unbiased Fisher–Yates)."""
    own_rng(state).shuffle(items)


def fresh_deck(state: State) -> list[Card]:
    """A freshly shuffled 52-card deck (§8.4 point 2). Cards are immutable, so one set is shared."""
    deck = list(_STANDARD)
    shuffle(state, deck)
    return deck


def indian_deck_for_hand(state: State, needed: int) -> tuple[list[Card], bool]:
    """The deck this Indian hand deals from and whether it was reshuffled (§5.4.7 덱).

    ``whenEmpty``: the kept deck if it holds ``needed`` cards, else all cards reshuffled (used list cleared).
    ``everyHand``: a fresh shuffle every hand (the used list only shows the current hand).
    """
    opts = state.options
    if opts.indian_reshuffle == "everyHand" or state.indian_deck is None:
        deck = list(_DECKS[opts.indian_deck])
        shuffle(state, deck)
        state.indian_used = []
        return deck, state.indian_deck is not None and opts.indian_reshuffle == "whenEmpty"
    if len(state.indian_deck) >= needed:
        return state.indian_deck, False
    deck = list(_DECKS[opts.indian_deck])
    shuffle(state, deck)
    state.indian_used = []
    return deck, True


def receivers(hand: Hand) -> list[str]:
    """Players who receive cards: not folded, from the seat after the dealer."""
    return [pid for pid in hand.order if not hand.bettors[pid].folded]


def deal_round(hand: Hand, count: int) -> dict[str, list[Card]]:
    """Deal ``count`` cards to every receiver, one at a time round the table."""
    got: dict[str, list[Card]] = {pid: [] for pid in receivers(hand)}
    for _ in range(count):
        for pid in got:
            got[pid].append(hand.deck.pop(0))
    return got


def burn(hand: Hand) -> None:
    """Burn one card face down (holdem/omaha, before each board card group)."""
    hand.muck.append(hand.deck.pop(0))


def _muck_folded_hands(hand: Hand) -> None:
    """Move the cards of folded players into the muck (draw modes: they only hold hole cards)."""
    for pid in hand.order:
        p = hand.players[pid]
        if hand.bettors[pid].folded and p.hole:
            hand.muck.extend(p.hole)
            p.hole = []


def replace_cards(state: State, hand: Hand, requests: list[tuple[str, list[int]]]) -> bool:
    """Resolve one simultaneous draw: discard, then deal replacements in seat order with the §5.4.5
    reshuffles.

    Returns True when a reshuffle happened. ``requests`` is (player, discarded card ids) in dealing order.
    The muck is every card thrown away so far (§8.1: burns, earlier exchanges, "다이한 패"): folded hands are
    collected into it when it is reshuffled (their owners see them until then), before this exchange's
    discards, which are only used when even that is not enough.
    """
    this_draw: list[Card] = []
    reshuffled = False
    for pid, ids in requests:
        p = hand.players[pid]
        keep = [c for c in p.hole if c.id not in ids]
        this_draw.extend(c for c in p.hole if c.id in ids)
        p.hole = keep
    for pid, ids in requests:
        p = hand.players[pid]
        for _ in range(len(ids)):
            if not hand.deck:
                reshuffled = True
                _muck_folded_hands(hand)
                if hand.muck:
                    hand.deck = hand.muck
                    hand.muck = []
                else:
                    hand.deck = this_draw
                    this_draw = []
                shuffle(state, hand.deck)
            p.hole.append(hand.deck.pop(0))
    hand.muck.extend(this_draw)
    return reshuffled
