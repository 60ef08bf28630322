"""Each shown hand's equity at every street of a hand that reached the showdown, from the project's own odds.

Why a module of its own, and why only from the showdown's cards: equity is the replay's hindsight ("지수 had
28 % on the flop"), computed from the hands shown at the showdown — public from the showdown on — and the
board as it stood on each street. It never uses a card that was not shown (a folded hand stays unknown,
like the unseen deck), so it tells nobody anything the showdown did not; the replayer shows it from the
showdown step on. Community-card modes only: their streets are the board's, and a shown hole is the same
cards on every street (in 7 Poker it would say which hidden card came last, which nobody was shown).

The numbers are :func:`pokerroom.odds.equity`'s: exact enumeration where the completions are few (the flop
and the turn, and heads-up Omaha preflop is not), otherwise a seeded sample (the hand's own seed, so the same
hand always shows the same numbers), marked as such.
"""

from __future__ import annotations

from typing import Any

from pokerroom.history.record import HandRecord, cards_of
from pokerroom.odds import equity

STREETS = (("프리플랍", 0), ("플랍", 3), ("턴", 4), ("리버", 5))
SAMPLES = 20_000  # a sampled street's standard error is under 0.4 percentage points
_HOLE = {"holdem": 2, "omaha": 4}


def street_equity(rec: HandRecord) -> dict[str, Any] | None:
    """``{"players": [ids], "streets": [{"street", "exact", "equity": [share per player]}]}`` for a
    hold'em or Omaha hand whose showdown showed two or more whole hands; None otherwise."""
    hole = _HOLE.get(rec.mode)
    shown = [(str(e.get("id")), cards_of(e.get("cards"))) for e in rec.showdown]
    if hole is None or len(shown) < 2 or any(len(cards) != hole for _, cards in shown):
        return None
    rows = []
    for name, count in STREETS:
        if len(rec.board) < count:
            break
        try:
            got = equity([cards for _, cards in shown], rec.board[:count],
                         mode="holdem" if hole == 2 else "omaha", seed=rec.hand_no * 16 + count,
                         samples=SAMPLES, categories=False, omaha_hi_lo=rec.hi_lo)
        except ValueError:  # cards the odds cannot take (a record it does not understand): no numbers
            return None
        rows.append({"street": name, "exact": got.exact, "equity": [round(x, 4) for x in got.equity]})
    return {"players": [pid for pid, _ in shown], "streets": rows} if rows else None
