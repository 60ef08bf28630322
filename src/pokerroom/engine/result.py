"""The final result (poker.md §6.7, §8.6).

Rules:
- ``hands`` (and the 300-hand safety stop, and any game ended because opponents left): score = final chips −
  startingChips × rebuys (the chips the rebuys brought, when the host changed the stack mid-game); rank by
  score, equal scores share a rank (1, 1, 3). A game the host ended early ranks by its own end condition.
- ``lastStanding``: players still holding chips first (by chips), then the eliminated, the later the better;
  players eliminated in the same hand are ordered by their stack at the start of that hand, equal stacks share
  a rank. Score = N − rank + 1 (the winner scores N).
- ``net`` is each player's gain or loss in chips: final chips − startingChips × (1 + rebuys) (every chip the
  seat was given, ``common.chips_given``), whatever the end condition
  (a player who ends with 906 of 1,000 chips lost 94: ``net = -94``).
- The summary is one Korean line; stats give the biggest pot and the best hand shown at a showdown.
"""

from __future__ import annotations

from typing import Any

from pokerroom.engine.common import chips_given
from pokerroom.engine.state import Seat, State


def _competition_ranks(keys: list[tuple[Any, ...]]) -> list[int]:
    """Ranks for already-sorted keys (best first): equal keys share the rank of the first of them."""
    ranks: list[int] = []
    for i, k in enumerate(keys):
        ranks.append(ranks[-1] if i and keys[i - 1] == k else i + 1)
    return ranks


def _final_chips(state: State, seat: Seat) -> int:
    return seat.stack


def result(state: State) -> dict[str, Any] | None:
    """§8.6 PokerResult when the game is finished, else None."""
    if state.phase != "finished":
        return None
    opts = state.options
    seats = list(state.seats)
    n = len(seats)
    by_hands = opts.end_condition == "hands" or state.end_reason == "safety"
    rows: list[tuple[tuple[Any, ...], Seat, int]] = []
    for s in seats:
        chips = _final_chips(state, s)
        if by_hands:
            score = chips - chips_given(state, s)[1]
            key: tuple[Any, ...] = (-score,)
        else:
            score = 0
            if s.eliminated_at_hand is None:
                key = (0, -chips)
            else:
                key = (1, -s.eliminated_at_hand, -s.stack_at_hand_start)
        rows.append((key, s, score))
    rows.sort(key=lambda r: (r[0], r[1].seat))
    ranks = _competition_ranks([r[0] for r in rows])
    ranking: list[dict[str, Any]] = []
    for (_key, s, score), rank in zip(rows, ranks, strict=True):
        ranking.append({
            "playerId": s.id,
            "rank": rank,
            "score": score if by_hands else n - rank + 1,
            "finalChips": _final_chips(state, s),
            # what the game won or lost this player: final chips less every chip they were given
            "net": _final_chips(state, s) - sum(chips_given(state, s)),
            "rebuys": s.rebuys,
            "eliminatedAtHand": s.eliminated_at_hand,
        })
    top = ranking[0]
    if by_hands:
        summary = f"{state.hands_played}판 종료. 1위 {top['playerId']}({top['score']:+,}칩)"
    else:
        summary = f"{state.hands_played}판 만에 종료. 1위 {top['playerId']}({top['finalChips']:,}칩)"
    winners_at_1 = [r["playerId"] for r in ranking if r["rank"] == 1]
    if len(winners_at_1) > 1:
        summary = f"{state.hands_played}판 종료. 공동 1위 " + ", ".join(winners_at_1)
    best = state.best_hand
    return {
        "ranking": ranking,
        "summary": summary,
        "stats": {
            "handsPlayed": state.hands_played,
            "biggestPot": dict(state.biggest_pot) if state.biggest_pot is not None
            else {"handNo": 0, "amount": 0, "winners": []},
            "bestHand": None if best is None else {
                "playerId": best["playerId"], "handName": best["handName"], "handNo": best["handNo"],
            },
        },
    }
