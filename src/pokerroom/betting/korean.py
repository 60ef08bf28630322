"""Korean pot betting (poker.md §5.2): check, 삥, call, 따당, 쿼터, 하프, 풀, die.

Rules of this module:

* Amounts (chips leaving the stack): check 0; 삥 ``baseUnit``; call ``toCall``; 따당 ``2 × toCall``;
  쿼터/하프 ``toCall + floor((pot + toCall) × 1/4 or 1/2)``; 풀 ``toCall + (pot + toCall)``; die 0. For
  쿼터/하프/풀 the raise part (amount − toCall) is raised to ``baseUnit`` when smaller.
* 체크 needs ``toCall == 0`` (``opened=false``; with posted blinds the big blind's option too). 삥 needs
  ``opened=false``. 콜 and 따당 need ``toCall > 0``. 풀 needs ``koreanMaxRaise=full``. 다이 is always allowed.
* Raising (삥, 따당, 쿼터, 하프, 풀) needs: the bettor has not acted yet this round (one raise per player
  per round, none after a check or call: a raised-on player may only call or die, so a round always ends),
  the chips actually paid exceed ``toCall``, and someone else can still answer.
* All-in: when the amount is at least the stack, the whole stack goes in. An all-in not above ``toCall``
  is a (partial) call; one above it counts as a raise.
* House rules (docs/rules-extensions.md): with ``bet_cap`` the raise part of 따당/쿼터/하프/풀 shrinks to the
  cap (the action stays legal, its entry in ``legal`` says ``capped``); with ``opening_only`` (491/591 룰)
  a round nobody has opened may only be opened by that type or left by 다이 — unless that opening is itself
  impossible, then the ordinary actions stay (a player is never left with 다이 alone by the rule).
"""

from __future__ import annotations

from typing import Any

from pokerroom.betting import model as m
from pokerroom.betting.common import Move, Situation, check_or_call
from pokerroom.betting.model import BettingRound
from pokerroom.rejections import CANNOT_RAISE, Rejected, reject

#: Wire types in the order of the §5.2 table (also the order ``legal_actions`` lists them).
KOREAN_TYPES: tuple[str, ...] = (
    "k.check", "k.ping", "k.call", "k.ddadang", "k.quarter", "k.half", "k.full", "k.die",
)


def amount_for(kind: str, rnd: BettingRound, sit: Situation) -> int:
    """The §5.2 amount of an action, before the all-in cap, after the house bet cap (if any)."""
    nominal = nominal_amount(kind, rnd, sit)
    if rnd.bet_cap > 0 and nominal - sit.to_call > rnd.bet_cap:
        return sit.to_call + rnd.bet_cap
    return nominal


def nominal_amount(kind: str, rnd: BettingRound, sit: Situation) -> int:
    """The plain §5.2 amount of an action (no all-in cap, no house bet cap)."""
    to_call = sit.to_call
    if kind in ("k.check", "k.die"):
        return 0
    if kind == "k.ping":
        return rnd.base_unit
    if kind == "k.call":
        return to_call
    if kind == "k.ddadang":
        return 2 * to_call
    after_call = sit.pot + to_call
    extra = {"k.quarter": after_call // 4, "k.half": after_call // 2, "k.full": after_call}[kind]
    return to_call + max(extra, rnd.base_unit)


def resolve(rnd: BettingRound, sit: Situation, kind: str, action: dict[str, Any]) -> Move:
    """Check a Korean action against §5.2/§8.2 and return the move, or raise ``Rejected``."""
    if kind == "k.die":
        return Move(kind, fold=True)
    if _opening_restricted(rnd, sit, kind):
        raise reject(m.RULE_491)
    if kind not in ("k.check", "k.call") and not may_open(rnd, sit):
        raise reject(m.NO_OPENERS)
    if kind == "k.check" or kind == "k.call":
        return check_or_call(kind, sit, call=kind == "k.call")
    return _resolve_raise(rnd, sit, kind)


def _resolve_raise(rnd: BettingRound, sit: Situation, kind: str) -> Move:
    """삥/따당/쿼터/하프/풀: option, then condition of the action, then the raise conditions."""
    if kind == "k.full" and rnd.korean_max_raise != "full":
        raise reject(m.FULL_NOT_ALLOWED)
    if sit.bettor.acted or sit.bettor.locked or sit.bettor.raised:
        raise reject(CANNOT_RAISE)
    if kind == "k.ping" and rnd.opened:
        raise reject(m.CANNOT_PING)
    if kind == "k.ddadang" and sit.to_call == 0:
        raise reject(m.CANNOT_DDADANG)
    if not sit.others_can_respond:
        raise reject(m.NO_ONE_TO_RAISE)
    chips = min(amount_for(kind, rnd, sit), sit.stack)
    if chips <= sit.to_call:
        raise reject(m.SHORT_TO_RAISE)
    return Move(kind, pay=chips)


def may_open(rnd: BettingRound, sit: Situation) -> bool:
    """잭스 오어 베터: whether this bettor may put the first chips into an unopened round."""
    return rnd.may_open is None or rnd.opened or sit.bettor.id in rnd.may_open


def _opening_restricted(rnd: BettingRound, sit: Situation, kind: str) -> bool:
    """491/591 룰: whether ``kind`` is refused because only ``opening_only`` (or 다이) may open this round.

    The restriction holds while the round is unopened, and only when the opening action itself is possible
    (otherwise the player keeps the ordinary choices rather than being forced to die by the rule).
    """
    opening = rnd.opening_only
    if opening is None or rnd.opened or kind in (opening, "k.die"):
        return False
    try:
        _resolve_raise(rnd, sit, opening)
    except Rejected:
        return False
    return True


def legal(rnd: BettingRound, sit: Situation) -> list[dict[str, Any]]:
    """Every Korean action the bettor may take now, with the exact chips and whether it is all-in.

    Under a bet cap a raise whose §5.2 size was shrunk to the cap carries ``"capped": true`` (the key is
    absent otherwise, so games without the house rule see the same entries as before).
    """
    out: list[dict[str, Any]] = []
    for kind in KOREAN_TYPES:
        try:
            move = resolve(rnd, sit, kind, {"type": kind})
        except Rejected:
            continue
        entry: dict[str, Any] = {"type": kind, "amount": move.pay,
                                 "allIn": move.pay > 0 and move.pay >= sit.stack}
        if rnd.bet_cap > 0 and move.pay - sit.to_call > 0 and (
                nominal_amount(kind, rnd, sit) - sit.to_call > rnd.bet_cap) and move.pay < sit.stack:
            entry["capped"] = True
        out.append(entry)
    return out

