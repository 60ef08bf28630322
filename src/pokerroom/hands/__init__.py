"""Hand evaluators (pure): every function returns a :class:`HandValue` where ``a > b`` means a wins.

- :func:`international_high` — best five of 5..7 cards, §6.1 (hold'em, five-card draw).
- :func:`omaha_high` — exactly two hole + three board cards, §5.4.2.
- :func:`korean_high` — 7 Poker high with suits, §6.2 (also fewer than five cards for the hint).
- :func:`korean_open_rank` — the boss among open cards, §5.4.3.
- :func:`korean_low` — hi-lo low, §6.3 (``None`` when there is no low).
- :func:`omaha_low` — Omaha Hi-Lo low, eight or better, two hole + three board cards (``None``: no low).
- :func:`badugi` — §6.4.  :func:`badugi_high` — 하이 바둑이 (docs/rules-extensions.md).
- :func:`indian` — §6.5.
- :func:`ranked_name` — "K 투페어", "킹 투페어", "9탑"; :func:`versus` — what decided between two hands.

Fast integer cores for simulations: :func:`evaluate7`, :func:`evaluate7_ids`, :func:`evaluate_ids`,
:func:`omaha_ids`, :func:`korean7`, :func:`korean_key_ids`, :func:`badugi4`; for numpy arrays of many
hands, :mod:`pokerroom.hands.batch` (``international_high_batch``, ``omaha_high_batch``,
``korean_high_batch``: the same integers, on the same tables).
"""

from pokerroom.hands.badugi import badugi, badugi4, badugi_key_ids
from pokerroom.hands.badugi_high import badugi_high, badugi_high4, badugi_high_key_ids
from pokerroom.hands.indian import indian
from pokerroom.hands.international import (
    evaluate5,
    evaluate7,
    evaluate7_ids,
    evaluate_ids,
    international_high,
    omaha_high,
    omaha_ids,
)
from pokerroom.hands.korean import korean7, korean_high, korean_key_ids, korean_low, korean_open_rank
from pokerroom.hands.names import ranked_name, versus
from pokerroom.hands.omaha_low import omaha_low, omaha_low_ids
from pokerroom.hands.value import HandValue

__all__ = [
    "HandValue",
    "badugi",
    "badugi4",
    "badugi_high",
    "badugi_high4",
    "badugi_high_key_ids",
    "badugi_key_ids",
    "evaluate5",
    "evaluate7",
    "evaluate7_ids",
    "evaluate_ids",
    "indian",
    "international_high",
    "korean7",
    "korean_high",
    "korean_key_ids",
    "korean_low",
    "korean_open_rank",
    "omaha_high",
    "omaha_ids",
    "omaha_low",
    "omaha_low_ids",
    "ranked_name",
    "versus",
]
