"""The hint function of a room server, which may price a street for every seat at once.

Why: after the flop every live seat of a hold'em hand (until the river, which is counted) or of an Omaha
hand, and from the fifth card every live seat of a 7 Poker hand, asks for its equity in turn (its hint's
Monte Carlo), and each estimate is a few dozen numpy calls whose fixed cost is much of it. One pass over all
the seats (:func:`pokerroom.bots.hint.remember_street`, :func:`pokerroom.bots.hint_modes.
remember_omaha_street`, :func:`pokerroom.bots.hint_modes.remember_seven_street`) costs less than one per
seat. So the server hands a hint the other seats' views of the same change (built for their own seats, as
they are sent), and where the hint misses its street's estimate it prices every live seat's spot at once;
the seats still to act find theirs remembered. Each estimate is the very number that seat's own pass would
give (the same deals through its own unseen cards), so no hint changes; a hint that hits its cache asks
for no other view.
"""

from __future__ import annotations

from collections.abc import Callable

from pokerroom.bots.actions import Action
from pokerroom.bots.policy import recommend
from pokerroom.bots.street_views import View, hinting_with


class Hints:
    """``hints(view)`` is :func:`pokerroom.bots.recommend`; ``hints.hint_with_others(view, others)`` is the
    same hint, where ``others()`` gives the other seats' views of the same change should the hint price its
    street for all of them (:mod:`.street_views`)."""

    def __call__(self, view: View) -> Action | None:
        return recommend(view)

    def hint_with_others(self, view: View, others: Callable[[], list[View]]) -> Action | None:
        with hinting_with(others):
            return recommend(view)
