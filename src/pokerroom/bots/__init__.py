"""Bots and hints: decisions from a player's own view only (docs/view.md).

``decide(view, level="easy"|"normal", seed=...)`` returns an action among ``view["me"]["legalActions"]``;
``recommend(view)`` is the hint the server shows under ``view["me"]["hint"]``. See :mod:`.policy`.
"""

from pokerroom.bots.actions import Level
from pokerroom.bots.hint_prefetch import Hints
from pokerroom.bots.policy import decide, recommend

__all__ = ["Hints", "Level", "decide", "recommend"]
