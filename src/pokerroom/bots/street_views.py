"""The other seats' views of a change, for a hint that prices its street for every seat at once.

Why a module of its own: the hint functions (:mod:`.hint`, :mod:`.hint_modes`) find out that a street is
new where they miss their cache, deep inside a hint; the server knows the other seats' views of the same
change. :func:`hinting_with` sets, for the duration of one hint, how to get those views (built only if
asked for), and the functions here read a seat's spot from a seat's own view, as that seat's own hint reads
it (:func:`pokerroom.bots.situation.situation`). Nothing here crosses between seats: a spot is read from
the view of the seat it belongs to, and a hint only ever reads its own.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

View = dict[str, Any]
#: (the estimate's key, every player's known card ids: mine first, then each live opponent's open cards in
#: the view's order; the dead card ids)
SevenSpot = tuple[tuple[object, ...], list[list[int]], list[int]]

_OTHERS: ContextVar[Callable[[], list[View]] | None] = ContextVar("street_others", default=None)


@contextmanager
def hinting_with(others: Callable[[], list[View]]) -> Iterator[None]:
    """While a hint runs: how to get the other seats' views of the same change (:func:`other_views`)."""
    token = _OTHERS.set(others)
    try:
        yield
    finally:
        _OTHERS.reset(token)


def other_views() -> list[View]:
    """The other seats' views of the change whose hint is running ([] outside :func:`hinting_with`); asked
    once per hint at most, where a street's estimate is missing. (The views are built for their own seats,
    as the server sends them.)"""
    others = _OTHERS.get()
    if others is None:
        return []
    _OTHERS.set(None)  # (once per hint: a second miss in the same hint does not build them again)
    return others()


#: the street spots shared, by mode: (cards in a hole, board sizes whose estimate is a Monte Carlo)
_STREETS = {"holdem": (2, (3, 4)), "omaha": (4, (3, 4, 5))}


def street_spot(view: View) -> tuple[tuple[int, ...], tuple[int, ...], int] | None:
    """(my hole's card ids as the view orders them, the board's sorted ids, the number of opponents still
    in the hand) of a hold'em view after the flop or the turn, or of an Omaha (high) view after the flop,
    whose seat is still to act this hand (in the hand, not folded, not all in); else None. The same spot the
    seat's own hint reads (:func:`pokerroom.bots.situation.situation`: opponents are the other seats in the
    hand and not folded)."""
    street = _STREETS.get(str(view.get("mode")))
    board = view.get("board")
    me = view.get("me")
    if street is None or not isinstance(me, dict) or not isinstance(board, list):
        return None
    if len(board) not in street[1]:
        return None
    options = view.get("options")
    if isinstance(options, dict) and options.get("omahaHiLo") is True:
        return None  # (the hi-lo split is the odds tool's, estimated per seat)
    hole = me.get("hole")
    if not isinstance(hole, list) or len(hole) != street[0]:
        return None
    my_id = me.get("id")
    n_opp = 0
    live = False
    for seat in view.get("seats") or []:
        if seat.get("id") == my_id:
            live = bool(seat.get("inHand")) and not seat.get("folded") and not seat.get("allIn")
        elif seat.get("inHand") and not seat.get("folded"):
            n_opp += 1
    try:
        ids = tuple(int(c["id"]) for c in hole)
        cards = tuple(sorted(int(c["id"]) for c in board))
    except (KeyError, TypeError, ValueError):  # a hidden or odd card: nothing to estimate
        return None
    if not live or n_opp == 0:
        return None
    return ids, cards, n_opp


def seven_spot(view: View) -> SevenSpot | None:
    """A 7 Poker (or Hi-Lo) betting seat's estimate, read from its own view as its hint reads it
    (:func:`pokerroom.bots.situation.situation`, :func:`pokerroom.bots.hint_modes._key`): the estimate's
    key, every player's known card ids (mine: hole then open cards; then each opponent still in the hand,
    in the view's order, by the open cards) and the dead card ids (folded seats' open cards, my discarded
    choice); None for a seat not still to act this hand (folded, all in, out) or still choosing."""
    mode = view.get("mode")
    me = view.get("me")
    if mode not in ("sevenPoker", "sevenHiLo") or not isinstance(me, dict) or me.get("choice"):
        return None
    my_id = me.get("id")
    live = False
    theirs: list[list[int]] = []
    dead: list[int] = []
    try:
        for seat in view.get("seats") or []:
            if seat.get("id") == my_id:
                live = bool(seat.get("inHand")) and not seat.get("folded") and not seat.get("allIn")
            elif seat.get("inHand"):
                ups = _ids(seat.get("up"))
                if seat.get("folded"):
                    dead += ups
                else:
                    theirs.append(ups[:7])
        mine = (_ids(me.get("hole")) + _ids(me.get("up")))[:7]
        discarded = me.get("discarded")
        if isinstance(discarded, dict) and "rank" in discarded:
            dead.append(int(discarded["id"]))
    except (KeyError, TypeError, ValueError):  # an odd card: nothing to estimate
        return None
    if not live or not theirs:
        return None
    return seven_key(str(mode), mine, theirs, dead), [mine, *theirs], dead


def seven_key(mode: str, mine: Sequence[int], theirs: Sequence[Sequence[int]], dead: Sequence[int]
              ) -> tuple[object, ...]:
    """What a 7 Poker estimate is remembered by (:func:`pokerroom.bots.hint_modes.mode_equity`): my cards,
    each live opponent's open cards and the dead cards, each in any order (two orders of the opponents share
    one estimate: their open cards only leave the deck, so the equity sampled is the same)."""
    return (mode, tuple(sorted(mine)), tuple(sorted(tuple(t) for t in theirs)), tuple(sorted(dead)))


def _ids(cards: Any) -> list[int]:
    """The ids of a view's visible cards (a hidden one, ``{"hidden": true, ...}``, has no rank)."""
    if not isinstance(cards, list):
        return []
    return [int(c["id"]) for c in cards if isinstance(c, dict) and "rank" in c]
