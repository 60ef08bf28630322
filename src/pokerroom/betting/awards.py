"""Who gets each pot (poker.md §6.1, §6.5, §6.6, §5.4.7): plain high, hi-lo declarations, Indian poker.

Rules of this module:

* Strengths are any totally ordered values (``a > b`` means a wins, ``a == b`` a tie); this module never
  looks inside them, so it stays free of any mode or evaluator import. ``None`` means "no hand" (a
  missing low, or a player the caller gave no strength): such a player cannot win that side.
* Pots are settled side pots first (fewest eligible first, later pots first among equals), each on its
  own: a player only ever receives chips of a pot they are eligible for. A pot with one eligible player
  goes to that player without comparing anything (``side=None``).
* Ties split with :func:`pokerroom.betting.pots.split_amount` (odd chips from the seat after the dealer).
* Hi-lo per pot (§6.6): a swing declarer takes the whole pot (``"scoop"``) only by beating every other high
  competitor (high + swing declarers) strictly in high *and* every other low competitor (low + swing) that
  has a low strictly in low, with a low of their own; otherwise they are out of this pot entirely. Then the
  best high among high declarers and the best low among low declarers with a low share it: ``ceil`` to
  high, ``floor`` to low (101 → 51/50); one side alone takes all; nobody → all eligible compete on high.
* Hi-lo where the cards speak (Omaha Hi-Lo, docs/rules-extensions.md), per pot: the best high among the
  eligible takes ``ceil`` of the pot and the best low among the eligible holding a low ``floor`` (each half
  split on ties, so a tied low is quartered); when no eligible player of *that* pot has a low, the high
  takes it all. One player may win both halves. When the very same players tie both halves (identical
  hands, e.g. two wheels) the whole pot is split among them as evenly as possible (Robert's Rules "Ties",
  TDA odd-chip illustration: 66 → 33/33, not 34/32 from two halves each giving the same player its odd
  chip); the awards still say which part is high and which low.
* Indian (§6.5, §5.4.7): a tied pot is carried to the next hand (``tie="carry"``) unless it is the last
  hand, then it is split like ``tie="split"``. Penalties go to the hand's winner(s) — the winners of the
  main pot — apart from the pots (``pot_index=-1``), split evenly; when the main pot is carried they are
  carried with it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, TypeAlias

from pokerroom.betting.pots import Pot, split_amount

Side: TypeAlias = Literal["high", "low", "scoop"]
Declare: TypeAlias = Literal["high", "low", "swing"]


@dataclass
class Award:
    """Chips of one pot (``pot_index``, -1 for Indian penalties) going to one player."""

    pot_index: int
    to: str
    amount: int
    side: Side | None = None


def settle_order(pots: Sequence[Pot]) -> list[int]:
    """Indices of the pots, side pots first: fewest eligible first, the later pot first among equals."""
    return sorted(range(len(pots)), key=lambda i: (len(pots[i].eligible), -i))


def best_of(players: Sequence[str], strength: Mapping[str, Any]) -> list[str]:
    """The players with the highest non-None strength (several on a tie); [] when nobody has one."""
    scored = [p for p in players if strength.get(p) is not None]
    if not scored:
        return []
    top = strength[scored[0]]
    for p in scored[1:]:
        if strength[p] > top:
            top = strength[p]
    return [p for p in scored if strength[p] == top]


def _give(index: int, amount: int, winners: Sequence[str], order: Sequence[str],
          side: Side | None) -> list[Award]:
    """Split ``amount`` among ``winners`` into awards, skipping zero shares."""
    return [Award(index, pid, share, side)
            for pid, share in split_amount(amount, winners, order).items() if share > 0]


def award_pots(pots: Sequence[Pot], strength: Mapping[str, Any], order: Sequence[str]) -> list[Award]:
    """Highest strength wins each pot; ties split (§6.1)."""
    awards: list[Award] = []
    for i in settle_order(pots):
        pot = pots[i]
        winners = _winners_or_all(pot, strength)
        awards += _give(i, pot.amount, winners, order, None)
    return awards


def _winners_or_all(pot: Pot, strength: Mapping[str, Any]) -> list[str]:
    """Best hand among the eligible; a lone eligible wins unseen; with no strengths at all, split."""
    if len(pot.eligible) == 1:
        return list(pot.eligible)
    return best_of(pot.eligible, strength) or list(pot.eligible)


def award_hilo(
    pots: Sequence[Pot],
    declares: Mapping[str, str],
    high: Mapping[str, Any],
    low: Mapping[str, Any | None],
    order: Sequence[str],
) -> list[Award]:
    """Hi-lo division of every pot (§6.6).

    ``declares`` maps players to ``"high"``/``"low"``/``"swing"`` (:data:`Declare`); a missing or unknown
    declaration counts as ``"high"``, the §8.5 timeout default.
    """
    awards: list[Award] = []
    for i in settle_order(pots):
        awards += _hilo_pot(i, pots[i], declares, high, low, order)
    return awards


def _hilo_pot(index: int, pot: Pot, declares: Mapping[str, str], high: Mapping[str, Any],
              low: Mapping[str, Any | None], order: Sequence[str]) -> list[Award]:
    """One pot of §6.6, steps 1 to 5."""
    elig = list(pot.eligible)
    if len(elig) == 1:
        return _give(index, pot.amount, elig, order, None)
    side = {p: _declared(declares.get(p)) for p in elig}
    for s in (p for p in elig if side[p] == "swing"):
        if _swing_wins(s, elig, side, high, low):
            return _give(index, pot.amount, [s], order, "scoop")
    rest = [p for p in elig if side[p] != "swing"]
    hi = best_of([p for p in rest if side[p] == "high"], high)
    lo = best_of([p for p in rest if side[p] == "low"], low)
    if hi and lo:
        half_low = pot.amount // 2
        return (_give(index, pot.amount - half_low, hi, order, "high")
                + _give(index, half_low, lo, order, "low"))
    if hi:
        return _give(index, pot.amount, hi, order, "high")
    if lo:
        return _give(index, pot.amount, lo, order, "low")
    return _give(index, pot.amount, best_of(elig, high) or elig, order, "high")


def award_hilo_cards_speak(
    pots: Sequence[Pot],
    high: Mapping[str, Any],
    low: Mapping[str, Any | None],
    order: Sequence[str],
) -> list[Award]:
    """Hi-lo without declarations (Omaha Hi-Lo): every player competes for both halves of every pot."""
    awards: list[Award] = []
    for i in settle_order(pots):
        pot = pots[i]
        elig = list(pot.eligible)
        if len(elig) == 1:
            awards += _give(i, pot.amount, elig, order, None)
            continue
        hi = best_of(elig, high) or elig
        lo = best_of(elig, low)
        if lo and set(lo) == set(hi):
            awards += _even_both_halves(i, pot.amount, hi, order)
        elif lo:
            half_low = pot.amount // 2
            awards += _give(i, pot.amount - half_low, hi, order, "high")
            awards += _give(i, half_low, lo, order, "low")
        else:
            awards += _give(i, pot.amount, hi, order, "high")
    return awards


def _even_both_halves(index: int, amount: int, winners: Sequence[str], order: Sequence[str]) -> list[Award]:
    """The same players won both halves: one even split of the whole pot (§6.1 odd chips), each share cut
    into its high part (an even split of the high half) and the rest as its low part."""
    whole = split_amount(amount, winners, order)
    high = split_amount(amount - amount // 2, winners, order)
    out: list[Award] = []
    for pid in whole:
        if high[pid] > 0:
            out.append(Award(index, pid, high[pid], "high"))
    for pid in whole:
        if whole[pid] - high[pid] > 0:
            out.append(Award(index, pid, whole[pid] - high[pid], "low"))
    return out


def _declared(value: object) -> Declare:
    """A declaration, defaulting to high."""
    if value == "low":
        return "low"
    if value == "swing":
        return "swing"
    return "high"


def _swing_wins(s: str, elig: Sequence[str], side: Mapping[str, str], high: Mapping[str, Any],
                low: Mapping[str, Any | None]) -> bool:
    """A swing declarer must strictly beat all other high and low competitors, holding a low."""
    mine_hi, mine_lo = high.get(s), low.get(s)
    if mine_hi is None or mine_lo is None:
        return False
    for p in elig:
        if p == s:
            continue
        if side[p] in ("high", "swing") and high.get(p) is not None and not mine_hi > high[p]:
            return False
        if side[p] in ("low", "swing") and low.get(p) is not None and not mine_lo > low[p]:
            return False
    return True


def award_indian(
    pots: Sequence[Pot],
    strength: Mapping[str, Any],
    order: Sequence[str],
    tie: Literal["carry", "split"],
    penalties: int,
    last_hand: bool,
) -> tuple[list[Award], int]:
    """Indian poker: (awards including penalty shares at ``pot_index=-1``, chips carried to next hand)."""
    awards: list[Award] = []
    carried = 0
    carry = tie == "carry" and not last_hand
    for i in settle_order(pots):
        pot = pots[i]
        winners = _winners_or_all(pot, strength)
        if len(winners) > 1 and carry:
            carried += pot.amount
            continue
        awards += _give(i, pot.amount, winners, order, None)
    if penalties > 0:
        hand_winners = _hand_winners(pots, strength)
        if not hand_winners or (len(hand_winners) > 1 and carry):
            carried += penalties
        else:
            awards += _give(-1, penalties, hand_winners, order, None)
    return awards, carried


def _hand_winners(pots: Sequence[Pot], strength: Mapping[str, Any]) -> list[str]:
    """The hand's winner(s): the winners of the main pot (the one everybody still in contests)."""
    if not pots:
        return []
    return _winners_or_all(pots[0], strength)
