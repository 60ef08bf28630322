"""The hint function of a room server, with the work the seats of one street can share.

Why: after the flop every live seat of a hold'em hand (until the river, which is counted) or of an Omaha
hand, and from the fifth card every live seat of a 7 Poker hand, asks for its equity in turn (its hint's
Monte Carlo: :func:`pokerroom.bots.hint.hint_equity`, :func:`pokerroom.bots.hint_modes.mode_equity`), and
each estimate is a few dozen numpy calls whose fixed cost is much of it. One pass over all the seats
(:func:`pokerroom.bots.hint.remember_street`, :func:`pokerroom.bots.hint_modes.remember_omaha_street`,
:func:`pokerroom.bots.hint_modes.remember_seven_street`) costs less than one per seat, so when the first
seat of a street misses, the server hands over the views it builds for this change anyway, and the seats
still to act find their estimates remembered. Each estimate is the very number that seat's own pass would
give (the same deals through its own unseen cards), so no hint changes.

Secrecy: nothing crosses between seats. Each seat's spot (its own cards, the board, the number of live
opponents) is read from that seat's own view, and what is remembered is keyed by exactly that spot, as a
seat's own hint would key it; the views handed over are those the server builds for their own seats.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pokerroom.bots.actions import Action
from pokerroom.bots.hint import remember_street, remembered
from pokerroom.bots.hint_modes import (
    SevenSpot,
    omaha_remembered,
    remember_omaha_street,
    remember_seven_street,
    seven_remembered,
)
from pokerroom.bots.policy import recommend

View = dict[str, Any]


class Hints:
    """``hints(view)`` is :func:`pokerroom.bots.recommend`; ``hints.prefetch(view, others)``, called by the
    server before the hint of a deciding seat's view, prices the street of the seats in ``others()`` (the
    other seats' views of the same change, built only if asked for) in the same pass as that seat's."""

    def __call__(self, view: View) -> Action | None:
        return recommend(view)

    def prefetch(self, view: View, others: Callable[[], list[View]]) -> int:
        """Estimate the street for ``view``'s seat and the other live seats at once, when ``view`` is a
        hold'em flop or turn decision, an Omaha (high) decision after the flop or a 7 Poker decision from
        the fifth card, whose estimate is not remembered yet; returns how many seats were estimated (0:
        nothing to share)."""
        if view.get("mode") in ("sevenPoker", "sevenHiLo"):
            return self._seven(view, others)
        mine = street_spot(view)
        if mine is None:
            return 0
        hole, board, n_opp = mine
        omaha = len(hole) == 4
        if omaha_remembered(hole, board, n_opp) if omaha else remembered(_two(hole), board, n_opp):
            return 0  # this seat's hint finds its estimate: the street was priced already
        holes = [hole]
        for other in others():
            spot = street_spot(other)
            if spot is not None and spot[1:] == (board, n_opp) and spot[0] not in holes:
                holes.append(spot[0])
        if omaha:
            return remember_omaha_street(holes, board, n_opp)
        return remember_street([_two(h) for h in holes], board, n_opp)


    @staticmethod
    def _seven(view: View, others: Callable[[], list[View]]) -> int:
        mine = seven_spot(view)
        if mine is None or len(mine[1][0]) < 5 or seven_remembered(mine[0]):
            return 0  # (three or four cards: a table; remembered: the street was priced already)
        spots = [mine]
        for other in others():
            spot = seven_spot(other)
            if spot is not None and spot[0] not in {s[0] for s in spots}:
                spots.append(spot)
        return remember_seven_street(spots)


def _two(hole: tuple[int, ...]) -> tuple[int, int]:
    """A hold'em hole as the pair it is (:func:`street_spot` reads two cards for hold'em)."""
    return hole[0], hole[1]


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
    key = (mode, tuple(sorted(mine)), tuple(sorted(tuple(t) for t in theirs)), tuple(sorted(dead)))
    return key, [mine, *theirs], dead


def _ids(cards: Any) -> list[int]:
    """The ids of a view's visible cards (a hidden one, ``{"hidden": true, ...}``, has no rank)."""
    if not isinstance(cards, list):
        return []
    return [int(c["id"]) for c in cards if isinstance(c, dict) and "rank" in c]
