"""One rules object per mode family; :func:`rules_for` picks it from the options."""

from __future__ import annotations

from pokerroom.engine.modes.base import ModeRules, Step, Valued
from pokerroom.engine.modes.community import Community
from pokerroom.engine.modes.draw import Draw
from pokerroom.engine.modes.indian import Indian
from pokerroom.engine.modes.stud import Stud
from pokerroom.engine.options import PokerOptions

__all__ = ["Community", "Draw", "Indian", "ModeRules", "Step", "Stud", "Valued", "rules_for"]

_CACHE: dict[PokerOptions, ModeRules] = {}


def rules_for(options: PokerOptions) -> ModeRules:
    """The rules object for these options (cached: options are frozen and hashable)."""
    rules = _CACHE.get(options)
    if rules is None:
        if options.mode in ("holdem", "omaha"):
            rules = Community(options)
        elif options.mode in ("sevenPoker", "sevenHiLo"):
            rules = Stud(options)
        elif options.mode in ("badugi", "fiveDraw"):
            rules = Draw(options)
        else:
            rules = Indian(options)
        _CACHE[options] = rules
    return rules
