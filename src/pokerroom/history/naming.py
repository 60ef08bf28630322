"""The names of a hand in the history, with its ranks ("J 원페어", "K·7 투페어"), as the live table says them.

Why a module of its own: the table names a player's cards through the engine's modes (``hint_values``, then
:func:`pokerroom.hands.ranked_name`); a finished hand has no engine state left, only cards. This module asks
the same evaluators of :mod:`pokerroom.hands` the same questions from the cards alone (hole, open cards,
board, the game's options), so the history and the replay print exactly the names the table printed. The
showdown's own names come with its entries (the engine's); these are for the cards a player held along the
way and for cards shown after the hand.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pokerroom import hands as ev
from pokerroom.cards import Card
from pokerroom.hands import HandValue, ranked_name

Names = tuple[str | None, str | None, str | None]  # (handName, rankName, lowName), as the view's ``me``
NONE: Names = (None, None, None)


def _named(high: HandValue | None, low: HandValue | None = None) -> Names:
    if high is None:
        return NONE
    return (str(high.name), ranked_name(high), None if low is None else str(low.name))


def _community(mode: str, options: Mapping[str, Any], hole: Sequence[Card], board: Sequence[Card]) -> Names:
    hi_lo = mode == "omaha" and options.get("omahaHiLo") is True
    if len(board) < 3 or not hole:
        paired = sorted((c for c in hole if sum(d.rank == c.rank for d in hole) >= 2),
                        key=lambda c: c.rank, reverse=True)
        return _named(ev.international_high(paired[:2])) if paired else NONE  # a pocket pair: "킹 원페어"
    if mode == "omaha":
        if len(hole) != 4:
            return NONE
        low = ev.omaha_low(list(hole), list(board)) if hi_lo else None
        return _named(ev.omaha_high(list(hole), list(board)), low)
    return _named(ev.international_high([*hole, *board]))


def hand_names(mode: str, options: Mapping[str, Any] | None, hole: Sequence[Card], up: Sequence[Card] = (),
               board: Sequence[Card] = ()) -> Names:
    """What the table calls these cards of one player in ``mode`` now (the hint's names): ``None``s when the
    table names nothing yet (hold'em before a pair or the flop, Indian before the hand ends)."""
    opts = options or {}
    try:
        if mode in ("holdem", "omaha"):
            return _community(mode, opts, hole, board)
        cards = [*hole, *up]
        if not cards:
            return NONE
        if mode in ("sevenPoker", "sevenHiLo"):
            high = ev.korean_high(cards)
            if mode != "sevenHiLo" or len(cards) < 5:
                return _named(high)
            low = ev.korean_low(cards, rule=opts.get("hiLoLow", "korean"),
                                qualifier=opts.get("hiLoQualifier", "none"))
            return _named(high, low)
        if mode == "badugi":
            return _named(ev.badugi_high(cards) if opts.get("badugiHigh") is True else ev.badugi(cards))
        if mode == "fiveDraw":
            return _named(ev.international_high(cards))
    except ValueError:  # cards the evaluator does not take (an unknown card count): the table names none
        return NONE
    return NONE


def final_name(mode: str, options: Mapping[str, Any] | None, cards: Sequence[Card],
               board: Sequence[Card] = ()) -> str | None:
    """The ranked name of a player's whole hand at its end (their own cards, or cards shown after it):
    Indian names its forehead and hand card together, as its showdown does."""
    if mode == "indian":
        if not cards:
            return None
        try:
            return ranked_name(ev.indian(list(cards), deck=(options or {}).get("indianDeck", "d20")))
        except ValueError:
            return None
    return hand_names(mode, options, cards, (), board)[1]
