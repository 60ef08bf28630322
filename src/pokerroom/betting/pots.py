"""Side pots from each player's hand total (poker.md §5.5), and the equal split with odd chips (§6.1).

Rules of this module:

* Levels are the distinct ``committed_total`` values (> 0) of players who are all-in and have not folded,
  in ascending order. The pot of a level collects, from *every* player (folded ones included), the part of
  their total that lies between the previous level and this one; its eligible players are those who have
  not folded and put in at least the level.
* What lies above the last level is the final pot; its eligible players are those who have neither folded
  nor gone all-in and paid up to the top (the highest total among them).
* ``dead`` chips (an Indian carry-over, owned by nobody present) go into the main (first) pot. Pots with no
  chips are dropped; consecutive pots with the same eligible set are merged; a pot nobody is eligible for
  (only possible mid-round or with an unreturned uncalled bet) is merged into the pot before it (or the
  next one; alone, it is opened to every player still in), so no chip is ever lost.
* Eligible lists follow ``order`` (seat after the dealer first), so odd chips can be handed out from it.
* ``split_amount`` divides equally; the remainder goes one chip at a time to the winners closest to the
  dealer's left, i.e. first in ``order``.
* ``halve_pots`` (run it twice): every pot in two, the odd chip in the first half, the same eligible players.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

Contribution = tuple[str, int, bool, bool]  # (id, committed_total, folded, all_in)


@dataclass
class Pot:
    """One pot: its chips and who may win it, in seat order from the seat after the dealer."""

    amount: int
    eligible: list[str] = field(default_factory=list)


def seat_sorted(ids: Iterable[str], order: Sequence[str]) -> list[str]:
    """Ids in ``order``'s sequence; ids missing from ``order`` follow, in their given order."""
    wanted = list(dict.fromkeys(ids))
    rank = {pid: i for i, pid in enumerate(order)}
    n = len(rank)
    given = {pid: i for i, pid in enumerate(wanted)}
    return sorted(wanted, key=lambda pid: (rank.get(pid, n), given[pid]))


def _band(contributions: Sequence[Contribution], low: int, high: int) -> int:
    """Chips of every contribution that lie in the band (low, high]."""
    return sum(max(0, min(total, high) - low) for _, total, _, _ in contributions if total > low)


def build_pots(
    contributions: Sequence[Contribution], order: Sequence[str], dead: int = 0
) -> list[Pot]:
    """Rebuild the main and side pots from the hand totals (see the module rules)."""
    levels = sorted({t for _, t, folded, all_in in contributions if all_in and not folded and t > 0})
    pots: list[Pot] = []
    prev = 0
    for level in levels:
        eligible = [pid for pid, t, folded, _ in contributions if not folded and t >= level]
        pots.append(Pot(_band(contributions, prev, level), seat_sorted(eligible, order)))
        prev = level
    live = [(pid, t) for pid, t, folded, all_in in contributions if not folded and not all_in]
    top = max((t for _, t in live), default=0)
    rest = _band(contributions, prev, max([prev, *(t for _, t, _, _ in contributions)]))
    pots.append(Pot(rest, seat_sorted([pid for pid, t in live if t == top and t > prev], order)))
    if dead:
        _add_dead(pots, contributions, order, dead)
    alive = seat_sorted([pid for pid, _, folded, _ in contributions if not folded], order)
    return _tidy(pots, alive)


def _add_dead(
    pots: list[Pot], contributions: Sequence[Contribution], order: Sequence[str], dead: int
) -> None:
    """Dead chips join the main pot; with nothing contributed yet they form it for the live players."""
    for pot in pots:
        if pot.amount > 0:
            pot.amount += dead
            return
    alive = [pid for pid, _, folded, _ in contributions if not folded]
    pots.insert(0, Pot(dead, seat_sorted(alive, order)))


def _tidy(pots: list[Pot], alive: list[str]) -> list[Pot]:
    """Drop empty pots, fold unwinnable pots into the previous one, merge equal eligible sets.

    An unwinnable *first* pot (only mid-round, before anyone matched a folded player's bet) is joined to
    the next pot, or, alone, opened to every player still in, so no chip is ever left without an owner.
    """
    out: list[Pot] = []
    for pot in pots:
        if pot.amount <= 0:
            continue
        if out and (not pot.eligible or set(pot.eligible) == set(out[-1].eligible)):
            out[-1].amount += pot.amount
            continue
        out.append(Pot(pot.amount, list(pot.eligible)))
    if out and not out[0].eligible:
        if len(out) > 1:
            out[1].amount += out[0].amount
            out.pop(0)
        else:
            out[0].eligible = list(alive)
    return out


def split_amount(amount: int, winners: Sequence[str], order: Sequence[str]) -> dict[str, int]:
    """Equal shares; odd chips one at a time from the first winner in ``order`` (§6.1)."""
    seated = seat_sorted(winners, order)
    if not seated:
        return {}
    share, odd = divmod(amount, len(seated))
    return {pid: share + (1 if i < odd else 0) for i, pid in enumerate(seated)}


def halve_pots(pots: Sequence[Pot]) -> tuple[list[Pot], list[Pot]]:
    """Each pot as two pots for two boards: ``ceil`` for the first, ``floor`` for the second (the odd chip
    goes to the first board), each with the pot's own eligible players."""
    first = [Pot(p.amount - p.amount // 2, list(p.eligible)) for p in pots]
    second = [Pot(p.amount // 2, list(p.eligible)) for p in pots]
    return first, second
