"""The final result (poker.md §6.7, §8.6).

Rules:
- ``hands`` (and the 300-hand safety stop, and any game ended because opponents left): score = final chips −
  startingChips × rebuys (the chips the rebuys brought, when the host changed the stack mid-game); rank by
  score, equal scores share a rank (1, 1, 3). A game the host ended early ranks by its own end condition.
- ``lastStanding``: players still holding chips first (by chips), then the eliminated, the later the better;
  players eliminated in the same hand are ordered by their stack at the start of that hand, equal stacks share
  a rank. Score = N − rank + 1 (the winner scores N).
- ``net`` is each player's gain or loss in chips: final chips − every chip the seat was given (startingChips
  × (1 + rebuys), or what the host's stack changes gave, ``common.chips_given``), whatever the end condition
  (a player who ends with 906 of 1,000 chips lost 94: ``net = -94``); the same figure as the room's ledger
  (:mod:`pokerroom.engine.accounts`).
- The summary is one Korean line naming the winner's 손익 (net) with its sign, never the score: a score of
  1,015 is a gain of 15, and "+1,015칩" would read as a gain of 1,015. Stats give the biggest pot and the
  best hand shown at a showdown.
"""

from __future__ import annotations

from typing import Any

from pokerroom.engine.accounts import accounts
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


def signed_chips(n: int) -> str:
    """A gain or loss as a Korean reader expects it: "+1,240", "−94" (a real minus sign), "0"."""
    if n > 0:
        return f"+{n:,}"
    return f"\u2212{-n:,}" if n < 0 else "0"


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
    nets = {a["playerId"]: int(a["net"]) for a in accounts(state)}
    ranking: list[dict[str, Any]] = []
    for (_key, s, score), rank in zip(rows, ranks, strict=True):
        ranking.append({
            "playerId": s.id,
            "rank": rank,
            "score": score if by_hands else n - rank + 1,
            "finalChips": _final_chips(state, s),
            # what the game won or lost this player: final chips less every chip they were given
            "net": nets[s.id],
            "rebuys": s.rebuys,
            "eliminatedAtHand": s.eliminated_at_hand,
        })
    top = ranking[0]
    gain = f"손익 {signed_chips(top['net'])}칩"
    if by_hands:
        summary = f"{state.hands_played}판 종료. 1위 {top['playerId']}({gain})"
    else:
        summary = f"{state.hands_played}판 만에 종료. 1위 {top['playerId']}({gain})"
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
