"""No-limit and pot-limit betting (poker.md §5.3): fold, check, call, bet/raise-to, all-in.

Rules of this module:

* ``nl.raise`` carries ``to``, the bettor's total for this round. It must be an ``int`` (not a bool), at
  least ``currentBet + lastRaiseSize`` (the minimum bet ``baseUnit`` when nobody bet: ``lastRaiseSize``
  starts at ``baseUnit``) unless it is exactly the bettor's all-in, and at most ``committedRound + stack``.
* Pot-limit caps ``to`` at ``currentBet + (pot + toCall)`` where ``pot`` already holds every chip bet so
  far (§5.3: pot 100, a bet of 20 → at most 160). ``nl.allIn`` above that cap is refused with the cap.
* Raising needs: not locked (an incomplete all-in raise keeps players who already acted to call/fold), more
  chips than ``toCall``, and someone else who can still answer. An ``nl.allIn`` not above ``toCall`` is a
  call for less and is always allowed.
* House bet cap (docs/rules-extensions.md, "맥스 베팅 상한"): ``to`` may not exceed ``currentBet + cap``
  either (the smaller of the pot-limit and the cap bounds wins, never below the minimum raise); an
  ``nl.allIn`` above it is refused with the cap, an all-in call for less is always fine.
* A full raise (size ≥ ``lastRaiseSize``) sets ``lastRaiseSize`` and reopens betting; an incomplete one
  leaves it (see :func:`pokerroom.betting.common.relock_after_raise`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pokerroom.betting import model as m
from pokerroom.betting.common import Move, Situation, check_or_call
from pokerroom.betting.model import BettingRound
from pokerroom.rejections import CANNOT_RAISE, min_raise_message, reject

NL_TYPES: tuple[str, ...] = ("nl.fold", "nl.check", "nl.call", "nl.raise", "nl.allIn")


@dataclass(slots=True)
class Limits:
    """The ``to`` bounds of a raise for one bettor (all totals for this round)."""

    min_to: int       # the smallest full raise/bet
    all_in_to: int    # committed_round + stack
    cap: int | None   # pot-limit / house-cap maximum, None when neither applies
    by_bet_cap: bool = False  # the cap is the house bet cap (not the pot limit): for the refusal wording

    @property
    def max_to(self) -> int:
        return self.all_in_to if self.cap is None else min(self.all_in_to, self.cap)


def limits(rnd: BettingRound, sit: Situation) -> Limits:
    """Compute the §5.3 bounds; the cap never drops below the minimum raise."""
    min_to = rnd.current_bet + rnd.last_raise_size
    cap = None
    if rnd.system == "potLimit":
        cap = max(rnd.current_bet + sit.pot + sit.to_call, min_to)
    by_bet_cap = False
    if rnd.bet_cap > 0:
        house = max(rnd.current_bet + rnd.bet_cap, min_to)
        if cap is None or house < cap:
            cap, by_bet_cap = house, True
    return Limits(min_to=min_to, all_in_to=sit.bettor.committed_round + sit.stack, cap=cap,
                  by_bet_cap=by_bet_cap)


def _cap_message(lim: Limits) -> tuple[str, str]:
    assert lim.cap is not None
    return m.bet_cap_message(lim.cap) if lim.by_bet_cap else m.pot_limit_message(lim.cap)


def _may_open(rnd: BettingRound, sit: Situation) -> bool:
    """잭스 오어 베터: whether this bettor may bet into an unopened round (see the model field)."""
    return rnd.may_open is None or rnd.opened or sit.bettor.id in rnd.may_open


def _check_may_raise(sit: Situation, rnd: BettingRound | None = None) -> None:
    """The conditions every bet/raise shares, in the order a player would want to hear them."""
    if rnd is not None and not _may_open(rnd, sit):
        raise reject(m.NO_OPENERS)
    if sit.bettor.locked:
        raise reject(CANNOT_RAISE)
    if sit.stack <= sit.to_call:
        raise reject(m.SHORT_TO_RAISE)
    if not sit.others_can_respond:
        raise reject(m.NO_ONE_TO_RAISE)


def resolve(rnd: BettingRound, sit: Situation, kind: str, action: dict[str, Any]) -> Move:
    """Check an NL/PL action against §5.3/§8.2 and return the move, or raise ``Rejected``."""
    if kind == "nl.fold":
        return Move(kind, fold=True)
    if kind == "nl.check" or kind == "nl.call":
        return check_or_call(kind, sit, call=kind == "nl.call")
    if kind == "nl.allIn":
        return _resolve_all_in(rnd, sit)
    return _resolve_raise(rnd, sit, action.get("to"))


def _resolve_all_in(rnd: BettingRound, sit: Situation) -> Move:
    """All-in: a call for less/exact is always fine; above ``toCall`` it is a raise (PL-capped)."""
    if sit.stack <= 0:
        raise reject(m.NO_CHIPS)
    if sit.stack > sit.to_call:
        _check_may_raise(sit, rnd)
        lim = limits(rnd, sit)
        if lim.cap is not None and lim.all_in_to > lim.cap:
            raise reject(_cap_message(lim))
    return Move("nl.allIn", pay=sit.stack)


def _resolve_raise(rnd: BettingRound, sit: Situation, to: object) -> Move:
    """``nl.raise {to}``: shape of ``to``, the raise conditions, then the bounds."""
    if not isinstance(to, int) or isinstance(to, bool) or to < 0:
        raise reject(m.BAD_AMOUNT)
    _check_may_raise(sit, rnd)
    lim = limits(rnd, sit)
    if to > lim.max_to:
        if lim.cap is not None and lim.cap < lim.all_in_to:
            raise reject(_cap_message(lim))
        raise reject(m.stack_limit_message(lim.all_in_to))
    if to < lim.min_to and to != lim.all_in_to:
        bet = rnd.current_bet == 0
        raise reject(m.min_bet_message(lim.min_to) if bet else min_raise_message(lim.min_to))
    return Move("nl.raise", pay=to - sit.bettor.committed_round)


def legal(rnd: BettingRound, sit: Situation) -> list[dict[str, Any]]:
    """The NL/PL actions available now, in the shapes of the architecture contract."""
    out: list[dict[str, Any]] = [{"type": "nl.fold"}]
    if sit.to_call == 0:
        out.append({"type": "nl.check"})
    else:
        call = min(sit.to_call, sit.stack)
        out.append({"type": "nl.call", "amount": call, "allIn": call >= sit.stack})
    lim = limits(rnd, sit)
    may_raise = (
        not sit.bettor.locked and sit.stack > sit.to_call and sit.others_can_respond and _may_open(rnd, sit)
    )
    if may_raise:
        lo = min(lim.min_to, lim.all_in_to)
        out.append({"type": "nl.raise", "min": lo, "max": max(lo, lim.max_to),
                    "isBet": rnd.current_bet == 0})
    if sit.stack > 0 and (
        sit.stack <= sit.to_call or (may_raise and (lim.cap is None or lim.all_in_to <= lim.cap))
    ):
        out.append({"type": "nl.allIn", "amount": sit.stack, "to": lim.all_in_to})
    return out
