"""The public round API: start a round, list/validate/apply actions, end the round, return uncalled chips.

Rules of this module:

* ``start_round`` resets the per-round flags (acted, raised, locked, acted_at_bet, last_action) but keeps
  ``committed_round``: the engine zeroes it itself at a new street and leaves posted blinds in it before
  the first round (then passes ``current_bet=BB``; ``opened`` becomes true whenever ``current_bet > 0``).
  ``lastRaiseSize`` starts at ``baseUnit``.
* ``validate_action`` refuses, in this order: a malformed action, an unknown type, a player not in the
  hand, one who folded, one who is all-in, one whose turn it is not, a type of the other betting system,
  then the system's own rules (``korean`` / ``nolimit``). Every refusal is a ``Rejected`` with a Korean
  message; nothing else is ever raised for player input.
* ``apply_action`` validates first, so a refused action changes nothing.
* ``return_uncalled`` gives back (mutating the bettor) the part of the single highest ``committed_total``
  above the second highest: nobody matched it (§5.5).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pokerroom.betting import korean, nolimit
from pokerroom.betting import model as m
from pokerroom.betting.common import (
    Move,
    apply_move,
    first_to_act,
    is_round_over,
    pot_of,
    situation,
)
from pokerroom.betting.model import (
    ActionResult,
    BettingRound,
    BettingSystem,
    Bettor,
    Bettors,
    KoreanMaxRaise,
    as_table,
    can_act,
)
from pokerroom.rejections import ALREADY_FOLDED, NOT_YOUR_TURN, reject

_SYSTEM_OF_TYPE: dict[str, str] = {
    **{t: "korean" for t in korean.KOREAN_TYPES},
    **{t: "nl" for t in nolimit.NL_TYPES},
}


def start_round(
    system: BettingSystem,
    base_unit: int,
    korean_max_raise: KoreanMaxRaise,
    order: Sequence[str],
    bettors: Bettors,
    *,
    current_bet: int = 0,
    opened: bool = False,
    dead: int = 0,
    opening_only: str | None = None,
    bet_cap: int = 0,
    may_open: Sequence[str] | None = None,
) -> BettingRound:
    """Begin a betting round; ``to_act`` is None when nobody has to (or can) bet.

    ``opening_only``, ``bet_cap`` and ``may_open`` are the house rules of docs/rules-extensions.md (491/591
    룰, 맥스 베팅 상한, 잭스 오어 베터); their defaults leave the §5.2/§5.3 rules untouched.
    """
    if bet_cap < 0:
        raise ValueError("bet_cap must be 0 (none) or positive")
    if system not in ("korean", "noLimit", "potLimit"):
        raise ValueError(f"unknown betting system {system!r}")
    if base_unit < 1:
        raise ValueError("base_unit must be at least 1")
    table = as_table(bettors)
    for b in table.values():
        b.acted = False
        b.raised = False
        b.locked = False
        b.acted_at_bet = 0
        b.last_action = None
    bet = max([current_bet, *(table[p].committed_round for p in order if p in table)])
    rnd = m.BettingRound(
        system=system,
        base_unit=base_unit,
        korean_max_raise=korean_max_raise,
        order=list(order),
        to_act=None,
        current_bet=bet,
        last_raise_size=base_unit,
        opened=opened or bet > 0,
        dead=dead,
        full_bet=bet,
        opening_only=opening_only,
        bet_cap=bet_cap,
        may_open=None if may_open is None else list(may_open),
    )
    rnd.to_act = first_to_act(rnd, table, None)
    return rnd


def pot_total(rnd: BettingRound, bettors: Bettors) -> int:
    """``sum(committed_total) + dead``: the §5.2 ``pot`` the Korean ratios are taken of."""
    return pot_of(rnd, as_table(bettors))


def legal_actions(rnd: BettingRound, bettors: Bettors, player_id: str) -> list[dict[str, Any]]:
    """JSON-ready legal actions for ``player_id`` ([] when it is not their turn)."""
    table = as_table(bettors)
    b = table.get(player_id)
    if b is None or rnd.to_act != player_id or not can_act(b):
        return []
    sit = situation(rnd, table, b)
    if rnd.system == "korean":
        return korean.legal(rnd, sit)
    return nolimit.legal(rnd, sit)


def validate_action(rnd: BettingRound, bettors: Bettors, player_id: str, action: object) -> None:
    """Raise ``Rejected`` unless ``action`` is legal for ``player_id`` now; never mutates."""
    _resolve(rnd, as_table(bettors), player_id, action)


def apply_action(rnd: BettingRound, bettors: Bettors, player_id: str, action: object) -> ActionResult:
    """Validate, then move the chips and pass the turn (the round and bettors are mutated in place)."""
    table = as_table(bettors)
    move = _resolve(rnd, table, player_id, action)
    return apply_move(rnd, table, table[player_id], move)


def round_over(rnd: BettingRound, bettors: Bettors) -> bool:
    """§5.2 round end (also true when only one bettor is left or the betting is closed)."""
    return is_round_over(rnd, as_table(bettors))


def return_uncalled(bettors: Bettors) -> tuple[str, int] | None:
    """Give the unmatched top of the single highest ``committed_total`` back to its owner.

    Folded bettors' totals count as matched chips, and a folded top is never paid back (§5.5 "다이한 사람의
    칩은 ... 팟에 남는다": a player who left and dies after the forced bets, or who folded when nothing was
    owed; the pots module then gives that dead money to the live players' last pot). Mutates the owner:
    ``stack`` up, ``committed_total`` and ``committed_round`` down (the latter not below 0: an uncalled ante
    is not in it).
    """
    ranked = sorted(as_table(bettors).values(), key=lambda b: b.committed_total, reverse=True)
    if not ranked or ranked[0].folded:
        return None  # §5.5: a folded bettor's chips stay in the pot (a player who left folds out of turn)
    second = ranked[1].committed_total if len(ranked) > 1 else 0
    top = ranked[0]
    excess = top.committed_total - second
    if excess <= 0:
        return None
    top.committed_total -= excess
    top.committed_round = max(0, top.committed_round - excess)
    top.stack += excess
    if top.stack > 0:
        top.all_in = False
    return (top.id, excess)


def _resolve(rnd: BettingRound, table: dict[str, Bettor], player_id: str, action: object) -> Move:
    """Turn a wire action into a :class:`Move` or raise ``Rejected`` (see the module rules)."""
    kind = _action_type(action)
    assert isinstance(action, Mapping)
    b = table.get(player_id)
    if b is None:
        raise reject(m.NOT_IN_HAND)
    if b.folded:
        raise reject(ALREADY_FOLDED)
    if b.all_in:
        raise reject(m.ALREADY_ALL_IN)
    if rnd.to_act != player_id or player_id not in rnd.order or not can_act(b):
        raise reject(NOT_YOUR_TURN)
    family = "korean" if rnd.system == "korean" else "nl"
    if _SYSTEM_OF_TYPE[kind] != family:
        raise reject(m.WRONG_SYSTEM)
    sit = situation(rnd, table, b)
    payload = dict(action)
    if family == "korean":
        return korean.resolve(rnd, sit, kind, payload)
    return nolimit.resolve(rnd, sit, kind, payload)


def _action_type(action: object) -> str:
    """The wire ``type`` of a well-formed action dict, else ``Rejected``."""
    if not isinstance(action, Mapping):
        raise reject(m.BAD_ACTION)
    kind = action.get("type")
    if not isinstance(kind, str):
        raise reject(m.BAD_ACTION)
    if kind not in _SYSTEM_OF_TYPE:
        raise reject(m.UNKNOWN_ACTION)
    return kind
