"""What won each pot at a showdown, and why, in words ("A·10 투페어가 10·9 투페어를 이김").

Why: players could not tell what beat what when the table only moved the chips (see
docs/decisions/0006-hands-named-and-explained.md).

Each award of a showdown gets two public fields:

- ``hand``: the winner's hand for that pot (and side) by name, as decisively as the comparison needs:
  "A·10 투페어" when the second pair decided, "킹 투페어, 에이스 키커" when a kicker did;
- ``why``: one Korean sentence with player ids (the client replaces them by nicknames): the best hand the
  winner beat for that pot ("A·10 투페어가 p1의 10·9 투페어를 이김"; a low half's both called lows:
  "로우 8탑이 p1의 로우 9탑을 이김"), a split ("K 스트레이트 동점으로 나눔"), or, in hi-lo, why a half
  went to the only hand on its side ("로우 9탑, 혼자 로우를 선언해 로우 몫을 가져감"), so both winners are
  explained; ``None`` when the pot had no other hand at all.

Only players eligible for the pot are compared; in hi-lo only those who declared the side (swing counts for
both), and never a hand that was better but disqualified (a swing that lost the other side), so the
sentence is always true.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pokerroom.betting import Pot
from pokerroom.engine.modes import Valued
from pokerroom.hands import ranked_name, versus
from pokerroom.hands.names import object_, subject


def _side_value(v: Valued | None, side: str) -> Any:
    if v is None:
        return None
    return v.low if side == "low" else v.high


def annotate(awards: list[dict[str, Any]], pots: Sequence[Pot], values: Mapping[str, Valued],
             declares: Mapping[str, str | None] | None) -> None:
    """Add ``hand`` and ``why`` to each showdown award in place (Indian penalty shares get neither)."""
    groups: dict[tuple[int, str], list[str]] = {}
    for a in awards:
        groups.setdefault((int(a["potIndex"]), str(a["side"] or "high")), []).append(str(a["to"]))
    for a in awards:
        index = int(a["potIndex"])
        if index < 0 or index >= len(pots):
            continue
        side = str(a["side"] or "high")
        winners = groups[(index, side)]
        me = values.get(str(a["to"]))
        if side == "scoop":
            a["hand"] = _scoop_name(me)
            a["why"] = "스윙으로 하이·로우 모두 이김"
            continue
        mine = _side_value(me, side)
        if mine is None:
            continue
        # a low is named as a high card is ("8탑"): its sentences call it a low (the log's line has no side,
        # and "8탑이 p1의 9탑을 이김" reads as the lower high card winning)
        low = "로우 " if side == "low" else ""
        rivals = [pid for pid in pots[index].eligible if pid not in winners and pid in values
                  and _contests(declares, pid, side)]
        best: tuple[str, Any] | None = None
        for pid in rivals:
            theirs = _side_value(values[pid], side)
            if theirs is None or not theirs < mine:
                continue  # no hand on this side, or better but disqualified (a failed swing)
            if best is None or theirs > best[1]:
                best = (pid, theirs)
        if best is None:
            a["hand"] = ranked_name(mine)
            if len(winners) > 1:
                a["why"] = f"{low}{ranked_name(mine)} 동점으로 나눔"
            elif a["side"] in ("high", "low") and len(pots[index].eligible) > 1:
                beaten_off = any(_side_value(values[pid], side) is not None for pid in rivals)
                a["why"] = _alone(ranked_name(mine), side, declares, beaten_off)
            else:
                a["why"] = None
            continue
        mine_name, their_name = versus(mine, best[1])
        a["hand"] = mine_name
        a["why"] = f"{subject(low + mine_name)} {best[0]}의 {object_(low + their_name)} 이김"


def _alone(name: str, side: str, declares: Mapping[str, str | None] | None, beaten_off: bool) -> str:
    """Why a hi-lo half went to the only hand on its side: without it the banner explained the high winner
    and left the low one (or the reverse) unexplained, as if that half had not been won."""
    word = "로우" if side == "low" else "하이"
    hand = f"{word} {name}" if side == "low" else name
    if beaten_off:  # better hands on this side were there but lost their swing
        return f"{hand}, 더 좋은 패는 스윙에 실패해 빠짐"
    if declares is None:  # cards speak (Omaha Hi-Lo): nobody else made a low / had a high
        return f"{hand}, {word}를 만든 사람이 혼자라 {word} 몫을 가져감"
    return f"{hand}, 혼자 {word}를 선언해 {word} 몫을 가져감"


def _contests(declares: Mapping[str, str | None] | None, pid: str, side: str) -> bool:
    if declares is None:
        return True
    declared = declares.get(pid) or "high"
    return declared == side or declared == "swing"


def _scoop_name(v: Valued | None) -> str | None:
    if v is None:
        return None
    high = ranked_name(v.high)
    return high if v.low is None else f"{high} / {ranked_name(v.low)}"
