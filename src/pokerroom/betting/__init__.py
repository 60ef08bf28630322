"""Betting rounds, side pots and awards (poker.md §5.2, §5.3, §5.5, §6.1, §6.5, §6.6): pure and integer-only.

This package imports no game mode and no evaluator, so another game (섯다) can reuse it; hand strengths
are any comparable values the caller passes in. The API is the ``pokerroom.betting`` contract of
``docs/architecture.md``.

Deviations from / additions to the contract (kept minimal, all backward compatible):

* ``BettingRound.full_bet: int = 0`` (extra, defaulted field): the ``current_bet`` right after the last full
  raise. The incomplete-all-in rule reopens betting for a bettor who already acted only when
  ``current_bet - max(acted_at_bet, full_bet) >= last_raise_size``. Measuring from ``acted_at_bet`` alone
  would let A re-raise in poker.md §10's case (A bets 100, B raises to 300, C all-in 350), which the spec
  says leaves A and B with call/fold only; several short all-ins still add up to one full raise.
* ``bettors`` may be a mapping ``id -> Bettor`` or any iterable of ``Bettor`` (the objects are mutated).
* ``return_uncalled`` mutates the owner (stack up, committed_total/committed_round down) and returns
  ``(id, amount)`` for the event; the engine must not add the chips back a second time.
* ``start_round`` raises ``current_bet`` to the highest posted ``committed_round`` and sets ``opened`` when
  ``current_bet > 0`` (posted blinds count as chips put in, §5.2).
* Korean ``k.check`` is allowed whenever ``toCall == 0`` (same as ``opened=false`` without blinds; with blinds
  posted it is the big blind's option when everybody just called).
* Raises (Korean and NL/PL) also need somebody else who can put in more than the current bet: with every
  other player all-in, folded, or too short to go beyond the bet, a player may only call or fold/die
  (refused with ``no_one_to_raise``, "더 받을 수 있는 사람이 없어서 ...").
* ``award_hilo`` takes ``declares: Mapping[str, str]`` (a missing or unknown declaration counts as high, the
  §8.5 default), so the engine can pass its stored strings.
* ``Award.side``: ``"scoop"`` for a winning swing, ``"high"``/``"low"`` for the hi-lo halves (or one side
  taking all), ``None`` for plain pots and for a pot with a single eligible player.
"""

from pokerroom.betting.awards import Award, award_hilo, award_hilo_cards_speak, award_indian, award_pots
from pokerroom.betting.model import ActionResult, BettingRound, BettingSystem, Bettor
from pokerroom.betting.pots import Pot, build_pots, halve_pots, split_amount
from pokerroom.betting.round import (
    apply_action,
    legal_actions,
    pot_total,
    return_uncalled,
    round_over,
    start_round,
    validate_action,
)

__all__ = [
    "ActionResult",
    "Award",
    "BettingRound",
    "BettingSystem",
    "Bettor",
    "Pot",
    "apply_action",
    "award_hilo",
    "award_hilo_cards_speak",
    "award_indian",
    "award_pots",
    "build_pots",
    "halve_pots",
    "legal_actions",
    "pot_total",
    "return_uncalled",
    "round_over",
    "split_amount",
    "start_round",
    "validate_action",
]
