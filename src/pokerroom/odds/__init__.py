"""Odds: win/tie equity of hands from the cards one can see, exact or Monte Carlo (pure, numpy).

Why a layer of its own, below the bots: the bots' ``normal`` level and the hints estimate equity with this
code, and the ``pokerroom odds`` command-line tool prints it; both sit above it, so neither has to reach
into the other. It reads only cards, the deal generator and the hand evaluators (cards/rng → hands → odds),
never the engine, the bots or the server.

- :mod:`.equity` — :func:`equity`, the driver: validates the known cards, picks exact or Monte Carlo,
  feeds batches to the tallies and returns an :class:`EquityResult` (the model is described there).
- :mod:`.modes` — what each mode deals (hole and board counts, Korean-ranked modes, low rules).
- :mod:`.exact` — every completion, enumerated (:func:`count_completions`, :func:`enumerate_completions`).
- :mod:`.sampling` — uniform completions drawn with numpy, bit for bit numpy's own stream
  (:func:`sample_completions`, :func:`numpy_rng`).
- :mod:`.showdown` — batch showdown values and the high hand's win/tie/category tallies.
- :mod:`.holdem_table` — hold'em with every hole known (per-player tables by board rank multiset) and its
  column-major rejection sampler: the path of "AA vs KK" and of multi-way all-ins.
- :mod:`.hilo` — the cards-speak hi-lo split (7 Poker hi-lo, Omaha Hi-Lo).
- :mod:`.draws` — badugi and five-card draw after the draws to come (:func:`draw_equity`, outs and the
  chance of each final hand), and Indian poker against the foreheads I can see (:func:`indian_equity`).
"""

from pokerroom.odds.draws import DRAW_MODES, DrawResult, class_names, draw_equity, indian_equity
from pokerroom.odds.equity import (
    DEFAULT_BATCH,
    DEFAULT_EXACT_LIMIT,
    DEFAULT_SAMPLES,
    HILO_DEFAULT_SAMPLES,
    HILO_EXACT_LIMIT,
    MAX_EXACT,
    EquityResult,
    Progress,
    equity,
)
from pokerroom.odds.exact import combinations_array, count_completions, enumerate_completions
from pokerroom.odds.modes import BOARD_COUNT, HOLE_COUNT, LOW_RULES, MODES, QUALIFIERS, EquityMode
from pokerroom.odds.sampling import numpy_rng, sample_completions
from pokerroom.odds.showdown import category_names

__all__ = [
    "BOARD_COUNT",
    "DEFAULT_BATCH",
    "DEFAULT_EXACT_LIMIT",
    "DEFAULT_SAMPLES",
    "DRAW_MODES",
    "HILO_DEFAULT_SAMPLES",
    "HILO_EXACT_LIMIT",
    "HOLE_COUNT",
    "LOW_RULES",
    "MAX_EXACT",
    "MODES",
    "QUALIFIERS",
    "DrawResult",
    "EquityMode",
    "EquityResult",
    "Progress",
    "category_names",
    "class_names",
    "combinations_array",
    "count_completions",
    "draw_equity",
    "enumerate_completions",
    "equity",
    "indian_equity",
    "numpy_rng",
    "sample_completions",
]
