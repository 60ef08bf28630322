"""One rules object per mode family; :func:`rules_for` picks it from the options."""

from __future__ import annotations

from pokerroom.engine.modes.base import ModeRules, Step, Valued
from pokerroom.engine.modes.community import Community
from pokerroom.engine.modes.draw import Draw
from pokerroom.engine.modes.indian import Indian
from pokerroom.engine.modes.stud import Stud
from pokerroom.engine.options import PokerOptions

__all__ = ["Community", "Draw", "Indian", "ModeRules", "Step", "Stud", "Valued", "rules_for"]

_CACHE: dict[int, tuple[PokerOptions, ModeRules]] = {}


def rules_for(options: PokerOptions) -> ModeRules:
    """The rules object for these options.

    Cached by the identity of the (frozen) options object, which every clone of a state shares; hashing a
    pydantic model on every call would cost more than the rules lookups themselves. The cache keeps the
    options alive, so an id is never reused while its entry exists (bounded: one entry per room's options).
    """
    hit = _CACHE.get(id(options))
    if hit is not None and hit[0] is options:
        return hit[1]
    if len(_CACHE) > 4096:
        _CACHE.clear()
    rules: ModeRules
    if options.mode in ("holdem", "omaha"):
        rules = Community(options)
    elif options.mode in ("sevenPoker", "sevenHiLo"):
        rules = Stud(options)
    elif options.mode in ("badugi", "fiveDraw"):
        rules = Draw(options)
    else:
        rules = Indian(options)
    _CACHE[id(options)] = (options, rules)
    return rules
