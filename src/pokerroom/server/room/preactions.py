"""Pre-actions: a player's choice for their *next* betting turn, kept by the room (not the engine).

Why on the server: a phone on a slow network (or a reloading tab) must not make the table wait. The room
keeps each seat's pre-action with the room (stored in its metadata, so it survives a reload and a restart)
and, in the same critical section as the change that makes that seat's turn come, turns it into an ordinary
action through ``apply`` — the engine never knows a pre-action existed.

A pre-action is chosen for a *situation*: the hand, the betting round and the bet to match when it was
chosen. When that situation changes so that the choice no longer means what the player chose, it is
cancelled and the player is told (a Korean notice in their own view), never silently applied:

- ``checkFold`` 체크/다이 (체크/폴드 at a no-limit or pot-limit table, whose button says 폴드) — check
  if free, otherwise fold (die). Kept through raises in the same round.
- ``call``      콜 — call *this* amount only: cancelled as soon as someone raises (the bet to match grows).
- ``callAny``   아무거나 콜 — call whatever it costs (or check when free). Kept through raises.
- ``pingCall``  삥/콜 (Korean betting, offered while nobody has bet this round) — 삥 if the round is still
  unopened at my turn, else call the 삥 someone else made; cancelled if the bet grows beyond one base unit.

Every pre-action ends with its betting round: a new round or a new hand cancels it (with a notice).
Everything here reads only the player's own view (``docs/view.md``), so it needs no engine internals.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

Kind = Literal["checkFold", "call", "callAny", "pingCall"]
KINDS: tuple[Kind, ...] = ("checkFold", "call", "callAny", "pingCall")
LABELS: dict[str, str] = {
    "checkFold": "체크/다이", "call": "콜", "callAny": "아무거나 콜", "pingCall": "삥/콜",
}
#: the words of a no-limit or pot-limit table, where they differ: its fold button says 폴드, not 다이 (§9)
NL_LABELS: dict[str, str] = {"checkFold": "체크/폴드"}

View = dict[str, Any]


def label(kind: str, view: View) -> str:
    """The Korean word for a pre-action at the table of ``view`` (its betting system decides 다이 or 폴드)."""
    if view.get("betting") != "korean" and kind in NL_LABELS:
        return NL_LABELS[kind]
    return LABELS.get(kind, kind)


@dataclass(frozen=True)
class PreAction:
    """One seat's chosen pre-action and the situation it was chosen for."""

    kind: str
    hand_no: int
    street: int
    bet: int  # view.currentBet when chosen
    to_call: int  # my toCall when chosen (what 콜 means)

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "handNo": self.hand_no, "street": self.street, "bet": self.bet,
                "toCall": self.to_call}

    @staticmethod
    def from_json(data: dict[str, Any]) -> PreAction:
        return PreAction(str(data["kind"]), int(data["handNo"]), int(data["street"]), int(data["bet"]),
                         int(data["toCall"]))


@dataclass
class PreActions:
    """A room's pre-actions by player id, and the last cancellation notice of each player."""

    chosen: dict[str, PreAction] = field(default_factory=dict)
    notices: dict[str, dict[str, Any]] = field(default_factory=dict)  # pid -> {"text", "version"}

    def to_json(self) -> dict[str, Any]:
        return {"chosen": {pid: pa.to_json() for pid, pa in self.chosen.items()},
                "notices": {pid: dict(n) for pid, n in self.notices.items()}}

    @staticmethod
    def from_json(data: dict[str, Any] | None) -> PreActions:
        if not data:
            return PreActions()
        return PreActions({pid: PreAction.from_json(pa) for pid, pa in (data.get("chosen") or {}).items()},
                          {pid: {"text": str(n["text"]), "version": int(n["version"])}
                           for pid, n in (data.get("notices") or {}).items()})

    def copy(self) -> PreActions:
        """A copy to change (the room's own value is kept until the change is stored)."""
        return PreActions(dict(self.chosen), dict(self.notices))


# --- reading the player's own view ----------------------------------------------------------------------


def _my_seat(view: View) -> dict[str, Any] | None:
    me = view.get("me")
    if not isinstance(me, dict):
        return None
    my_id = me.get("id")
    for seat in view.get("seats") or []:
        if seat.get("id") == my_id:
            found: dict[str, Any] = seat  # read only (the view's seats are shared between viewers)
            return found
    return None


def _legal(view: View) -> dict[str, dict[str, Any]]:
    me = view.get("me") or {}
    return {a["type"]: a for a in me.get("legalActions") or [] if isinstance(a, dict)}


def can_preselect(view: View) -> bool:
    """Pre-actions make sense now: a betting round in which I still have a decision to come."""
    seat = _my_seat(view)
    if view.get("phase") != "betting" or seat is None:
        return False
    if not seat.get("inHand") or seat.get("folded") or seat.get("allIn") or seat.get("status") != "playing":
        return False
    return int(seat.get("stack") or 0) > 0


def offered(view: View) -> list[dict[str, Any]]:
    """The pre-actions I may choose now (empty on my own turn: then I simply act)."""
    me = view.get("me") or {}
    if not can_preselect(view) or view.get("toAct") == me.get("id"):
        return []
    to_call = int(me.get("toCall") or 0)
    out: list[dict[str, Any]] = [{"kind": "checkFold", "label": label("checkFold", view)}]
    if to_call > 0:
        out.append({"kind": "call", "label": LABELS["call"], "amount": to_call})
    out.append({"kind": "callAny", "label": LABELS["callAny"]})
    if view.get("betting") == "korean" and int(view.get("currentBet") or 0) == 0:
        ping = int(view.get("baseUnit") or 0)
        out.append({"kind": "pingCall", "label": LABELS["pingCall"], "amount": ping})
    return out


def choose(view: View, kind: str) -> PreAction | None:
    """The pre-action ``kind`` for the situation of ``view``, or None when it is not offered now."""
    if kind not in {o["kind"] for o in offered(view)}:
        return None
    me = view.get("me") or {}
    return PreAction(kind, int(view.get("handNo") or 0), int(view.get("street") or 0),
                     int(view.get("currentBet") or 0), int(me.get("toCall") or 0))


# --- keeping, cancelling, firing ------------------------------------------------------------------------


def _cancel_reason(pa: PreAction, view: View) -> str | None:
    """Why ``pa`` no longer fits the situation of ``view`` (a Korean notice), or None if it still does."""
    word = label(pa.kind, view)
    seat = _my_seat(view)
    if seat is None or not seat.get("inHand") or seat.get("folded") or seat.get("allIn"):
        return ""  # nothing left to decide this hand: dropped without a notice
    if view.get("phase") != "betting" or int(view.get("handNo") or 0) != pa.hand_no \
            or int(view.get("street") or 0) != pa.street:
        return f"베팅 라운드가 끝나서 '{word}' 예약이 취소됐어요"
    bet = int(view.get("currentBet") or 0)
    if pa.kind == "call" and bet > pa.bet:
        return f"누군가 레이즈해서 '{word}' 예약이 취소됐어요"
    if pa.kind == "pingCall" and bet > max(pa.bet, int(view.get("baseUnit") or 0)):
        return f"베팅이 올라서 '{word}' 예약이 취소됐어요"
    return None


def resolve(pa: PreAction, view: View) -> dict[str, Any] | None:
    """The action ``pa`` stands for on my turn (from my legal actions only), or None when none fits."""
    legal = _legal(view)
    pick: str | None
    check: str | None = next((t for t in ("k.check", "nl.check") if t in legal), None)
    call: str | None = next((t for t in ("k.call", "nl.call") if t in legal), None)
    fold: str | None = next((t for t in ("k.die", "nl.fold") if t in legal), None)
    if pa.kind == "checkFold":
        pick = check or fold
    elif pa.kind == "pingCall":
        pick = "k.ping" if "k.ping" in legal else call or check
    else:  # call / callAny (the raise test for "call" is _cancel_reason's)
        pick = call or check
    return None if pick is None else {"type": pick}


@dataclass(frozen=True)
class Review:
    """What one change did to a seat's pre-action: ``fire`` (the action to apply now) or nothing."""

    player_id: str
    fire: dict[str, Any] | None


def review(pre: PreActions, views: dict[str, View], version: int) -> list[Review]:
    """Re-check every pre-action against its owner's new view (``views[pid]``), cancelling with a notice
    those whose situation changed; returns the ones due now (it is their owner's turn) with their action.

    A due pre-action is removed here (it is used up by firing), so a refusal can never make it fire twice.
    """
    due: list[Review] = []
    for pid, pa in list(pre.chosen.items()):
        view = views.get(pid)
        reason = "" if view is None else _cancel_reason(pa, view)
        if reason is not None:
            del pre.chosen[pid]
            if reason:
                pre.notices[pid] = {"text": reason, "version": version}
            continue
        me = view.get("me") if view is not None else None
        if view is None or not isinstance(me, dict) or view.get("toAct") != pid:
            continue
        action = resolve(pa, view)
        del pre.chosen[pid]
        if action is None:
            text = f"'{label(pa.kind, view)}' 예약을 할 수 없는 상황이라 취소됐어요"
            pre.notices[pid] = {"text": text, "version": version}
            continue
        due.append(Review(pid, action))
    return due


def seat_part(view: View, pre: PreActions, viewer: str | None) -> dict[str, Any] | None:
    """``{"preAction": ...}`` for a player's own view frame (docs/protocol.md §2.6): what they may pre-select,
    what they chose, and their last cancellation notice; None for spectators. Never anyone else's."""
    me = view.get("me")
    if viewer is None or not isinstance(me, dict):
        return None
    chosen = pre.chosen.get(viewer)
    mine: dict[str, Any] | None = None
    if chosen is not None:
        mine = {"kind": chosen.kind, "label": label(chosen.kind, view),
                "amount": chosen.to_call if chosen.kind == "call" else None}
    return {"preAction": {"offered": offered(view), "chosen": mine, "notice": pre.notices.get(viewer)}}
