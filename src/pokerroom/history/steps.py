"""A finished hand's public table, step by step: what its events show everyone, as views without secrets.

Why a module of its own: the replay draws each step of a hand with the live table's renderer, which reads a
view (docs/view.md). A record keeps the hand's events, not its states, so this module walks the events and
keeps the *public* table they describe — stacks, bets, pots, the board, open cards, folds, draw counts,
declarations, the showdown, the awards — and says where each step of the replay ends (an action, a card
dealt, a draw, the showdown, the result). It never holds a private card: every seat's hidden cards are
placeholders here, and :mod:`.frames` alone adds, per viewer, the cards that viewer may see. So what this
module produces is the same for every viewer, and a secret cannot reach it from the events (none carry one).
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from pokerroom.history.record import HandRecord, card_of

#: events that end a step of the replay by themselves (a run of ``dealt`` events ends one at its last)
STEP_KINDS = frozenset(("action", "board", "drawn", "reveal", "declares", "showdown", "handEnd", "shown",
                        "mucked", "noOpener"))
#: events that belong to the step before them: the next round's start (street name, who acts first), a burn,
#: the line of a 7 Poker street's cards (after its deal)
_TRAILING = frozenset(("roundStart", "burn", "street"))
_DRAW_NAMES = {"badugi": ("아침", "점심", "저녁")}
_COMMUNITY_STREETS = ("프리플랍", "플랍", "턴", "리버")
_FOLDS = frozenset(("nl.fold", "k.die"))


@dataclass
class _Seat:
    """The public part of one seat during the hand."""

    id: str
    seat: int
    stack: int
    committed_round: int = 0
    committed_total: int = 0
    folded: bool = False
    all_in: bool = False
    last_action: str | None = None
    up: list[dict[str, Any]] = field(default_factory=list)
    hole_count: int = 0
    forehead: bool = False
    draw_counts: list[int] = field(default_factory=list)
    draw_done: bool = False
    choice_done: bool = False
    declare: str | None = None
    declared: bool = False
    shown: list[dict[str, Any]] | None = None  # cards shown to everyone (showdown, a show, Indian's end)
    shown_forehead: dict[str, Any] | None = None
    mucked: bool = False  # an imported hand's seat that threw its cards away at the showdown (``sm`` alone)
    sb: bool = False
    bb: bool = False


@dataclass(frozen=True)
class Step:
    """One step of the replay: the index of the event that ended it, that event (a synthetic ``deal`` for a
    round of cards dealt), and the public view of the table after it (hidden cards as placeholders)."""

    index: int
    event: dict[str, Any]
    view: dict[str, Any]


class PublicTable:
    """The public table of one hand, moved event by event (:meth:`apply`), viewed at any point (:meth:`view`).
    """

    def __init__(self, rec: HandRecord) -> None:
        self.rec = rec
        self.options = dict(rec.options or {"mode": rec.mode, "betting": rec.betting})
        self.seats = {pid: _Seat(pid, i, int(rec.starting_stacks.get(pid, 0)))
                      for i, pid in enumerate(rec.order)}
        self.board: list[dict[str, Any]] = []
        self.pots: list[dict[str, Any]] = []
        self.dead = 0  # chips in the pots nobody present put in (a carried pot)
        self.phase = "betting"
        self.street = 0
        self.street_name = ""
        self.to_act: str | None = None
        self.boss: str | None = None
        self.showdown: list[dict[str, Any]] | None = None
        self.awards: list[dict[str, Any]] = []
        self.penalties: list[dict[str, Any]] = []
        self.base_unit = rec.base_unit

    # --- events -------------------------------------------------------------------------------------------

    def apply(self, e: dict[str, Any]) -> None:
        kind = e.get("type")
        seat = self.seats.get(str(e.get("player") or e.get("from") or e.get("to") or ""))
        if kind == "handStart":
            self.base_unit = int(e.get("baseUnit") or self.base_unit)
        elif kind in ("ante", "blind") and seat is not None:
            amount = int(e.get("amount") or 0)
            seat.stack -= amount
            seat.committed_total += amount
            seat.all_in = seat.all_in or bool(e.get("allIn"))
            if kind == "blind":
                seat.committed_round += amount
                seat.last_action = str(e.get("kind") or "bb")
                seat.sb = seat.sb or e.get("kind") == "sb"
                seat.bb = seat.bb or e.get("kind") in ("bb", "entry")
            else:
                seat.last_action = seat.last_action or "ante"
                self.pots = [{"amount": sum(s.committed_total for s in self.seats.values()) + self.dead,
                              "eligible": list(self.rec.order)}]
        elif kind == "dealt" and seat is not None:
            target = e.get("target")
            if target == "up" and isinstance(e.get("faceUp"), dict):
                seat.up.append(dict(e["faceUp"]))
            elif target == "forehead":
                seat.forehead = True
            elif target == "choice":
                seat.hole_count = int(e.get("count") or 0)
                self.phase, self.street_name = "choice", "초이스"
            else:
                seat.hole_count += int(e.get("count") or 0)
        elif kind == "board":
            self.board.extend(dict(c) for c in e.get("cards") or [])
            self.street = int(e.get("street") or self.street)
            if 0 <= self.street < len(_COMMUNITY_STREETS):  # an all-in run-out has no round to name it
                self.street_name = _COMMUNITY_STREETS[self.street]
        elif kind == "roundStart":
            self.phase = "betting"
            self.street = int(e.get("street") or 0)
            self.street_name = str(e.get("streetName") or "")
            self.to_act = e.get("toAct")
            self.boss = e.get("boss")
            for s in self.seats.values():
                s.draw_done = False
        elif kind == "action" and seat is not None:
            self._action(seat, e)
        elif kind == "roundEnd":
            self._collect(e.get("pots"))
        elif kind == "uncalled" and seat is not None:
            amount = int(e.get("amount") or 0)
            seat.stack += amount
            seat.committed_total -= amount
            seat.committed_round = max(0, seat.committed_round - amount)
        elif kind == "chose" and seat is not None:
            seat.choice_done = True
        elif kind == "reveal":
            for pid, c in (e.get("opens") or {}).items():
                opener = self.seats.get(str(pid))
                if opener is not None and card_of(c) is not None:
                    opener.up = [dict(c)]
                    opener.hole_count = max(0, opener.hole_count - 2)  # one discarded, one opened
        elif kind == "drew" and seat is not None:
            self.phase = "draw"
            seat.draw_done = True
        elif kind == "drawn":
            self._drawn(e)
        elif kind == "declared" and seat is not None:
            self.phase, self.street_name = "declare", "선언"
            seat.declared = True
        elif kind == "declares":
            for pid, side in (e.get("sides") or {}).items():
                if str(pid) in self.seats:
                    self.seats[str(pid)].declare = str(side)
        else:
            self._ending(kind, seat, e)

    def _action(self, seat: _Seat, e: dict[str, Any]) -> None:
        act = e.get("action") or {}
        amount = int(e.get("amount") or 0)
        seat.stack -= amount
        seat.committed_round += amount
        seat.committed_total += amount
        seat.last_action = str(act.get("type") or "")
        seat.folded = seat.folded or act.get("type") in _FOLDS
        seat.all_in = seat.all_in or bool(e.get("allIn"))
        self.phase = "betting"
        self.to_act = None

    def _collect(self, pots: Any) -> None:
        if isinstance(pots, list):
            self.pots = [dict(p) for p in pots]
            self.dead = max(0, sum(int(p.get("amount") or 0) for p in self.pots)
                            - sum(s.committed_total for s in self.seats.values()))
        for s in self.seats.values():
            s.committed_round = 0
            s.last_action = None
        self.to_act = None
        self.boss = None

    def _drawn(self, e: dict[str, Any]) -> None:
        names = _DRAW_NAMES.get(self.rec.mode, ("교환",))
        no = int(e.get("drawNo") or 0)
        self.phase = "draw"
        self.street_name = names[no] if 0 <= no < len(names) else "교환"
        for pid, n in (e.get("counts") or {}).items():
            s = self.seats.get(str(pid))
            if s is not None:
                s.draw_counts.append(int(n))
                s.draw_done = True

    def _ending(self, kind: Any, seat: _Seat | None, e: dict[str, Any]) -> None:
        if kind == "showdown":
            self.showdown = [dict(x) for x in e.get("entries") or []]
            reveal = next((x for x in self.rec.events if x.get("type") == "indianReveal"), None)
            if reveal is not None:  # Indian: the same change reveals every card (foreheads apart from hands)
                self.apply(reveal)
            else:
                for entry in self.showdown:
                    s = self.seats.get(str(entry.get("id")))
                    if s is not None and s.shown is None:
                        s.shown = _private_part(s, entry.get("cards"))
            self._hand_over()
        elif kind == "shown" and seat is not None:
            seat.shown = _private_part(seat, e.get("cards"))
        elif kind == "mucked" and seat is not None:
            seat.folded = True  # out of every pot, but the table says it was a muck, not a fold
            seat.mucked = True
        elif kind == "indianReveal":
            for pid, both in (e.get("cards") or {}).items():
                s = self.seats.get(str(pid))
                if s is not None and isinstance(both, dict):
                    s.shown_forehead = both.get("forehead") if card_of(both.get("forehead")) else None
                    s.shown = _private_part(s, both.get("hole"))
        elif kind == "penalty" and seat is not None:
            amount = int(e.get("amount") or 0)
            seat.stack -= amount
            self.penalties.append({"from": seat.id, "amount": amount})
        elif kind == "award" and seat is not None:
            seat.stack += int(e.get("amount") or 0)
            self.awards.append({k: v for k, v in e.items() if k != "type"})
            self._hand_over()
        elif kind in ("handEnd", "carry", "noOpener"):
            self._hand_over()
            if kind == "handEnd" and self.rec.pots:  # the final pots the awards refer to
                self.pots = [dict(p) for p in self.rec.pots]

    def _hand_over(self) -> None:
        if self.phase != "handEnd":
            self._collect(None)
        self.phase = "handEnd"
        self.street_name = ""

    # --- the view -----------------------------------------------------------------------------------------

    def _seat_json(self, s: _Seat) -> dict[str, Any]:
        rec = self.rec
        korean = rec.betting == "korean"
        hidden = [{"hidden": True, "slot": k} for k in range(s.hole_count)]
        return {
            "id": s.id, "seat": s.seat, "stack": s.stack, "status": "playing", "away": False,
            "sittingOut": False, "rebuys": 0, "dealer": s.id == rec.dealer,
            "sun": korean and s.id == rec.dealer,
            "sb": s.sb, "bb": s.bb, "boss": self.phase == "betting" and self.boss == s.id, "inHand": True,
            "folded": s.folded, "allIn": s.all_in, "committedRound": s.committed_round,
            "committedTotal": s.committed_total, "lastAction": s.last_action, "up": [dict(c) for c in s.up],
            "hole": [dict(c) for c in s.shown] if s.shown is not None else hidden,
            "holeCount": len(s.shown) if s.shown is not None else s.hole_count,
            "forehead": None if s.shown_forehead is None else dict(s.shown_forehead),
            "hasForehead": s.forehead,
            "drawCounts": list(s.draw_counts), "drawDone": self.phase == "draw" and s.draw_done,
            "choiceDone": s.choice_done or (self.phase != "choice" and bool(s.up)),
            "declare": s.declare, "declared": s.declared, "ready": False, "shown": s.shown is not None,
            "mucked": s.mucked,
        }

    def _used(self) -> list[dict[str, Any]]:
        """Indian: this hand's cards, once revealed at its end (the live table counts every hand since the
        last reshuffle; a replay knows its own hand only)."""
        if self.rec.mode != "indian" or self.phase != "handEnd":
            return []
        out: list[dict[str, Any]] = []
        for s in self.seats.values():
            out += [dict(c) for c in [s.shown_forehead, *(s.shown or [])] if c is not None]
        return out

    def view(self) -> dict[str, Any]:
        """The public view of the table now (docs/view.md shape; nobody's private card, ``me`` None)."""
        rec = self.rec
        seats = [self._seat_json(s) for s in self.seats.values()]
        pending = [self.to_act] if self.phase == "betting" and self.to_act else []
        return {
            "game": "poker", "options": copy.deepcopy(self.options), "mode": rec.mode, "betting": rec.betting,
            "phase": self.phase, "handNo": rec.hand_no, "handLimit": None, "handsPlayed": rec.hand_no - 1,
            "baseUnit": self.base_unit, "smallBlind": rec.small_blind, "level": 1, "nextLevelAt": None,
            "carryOver": 0, "dealerSeat": self.seats[rec.dealer].seat if rec.dealer in self.seats else None,
            "street": self.street, "streetName": self.street_name, "seats": seats,
            "board": [dict(c) for c in self.board], "pots": [dict(p) for p in self.pots],
            "potTotal": sum(s.committed_total for s in self.seats.values()) + self.dead,
            "currentBet": max((s.committed_round for s in self.seats.values()), default=0)
            if self.phase == "betting" else 0,
            "toAct": self.to_act if self.phase == "betting" else None,
            "boss": self.boss if self.phase == "betting" else None, "deadlineAt": None, "pending": pending,
            "showdown": None if self.showdown is None else copy.deepcopy(self.showdown),
            "awards": copy.deepcopy(self.awards) if self.phase == "handEnd" else None,
            # what the hand won or lost each player, as the live view's (engine.accounts.hand_net): the
            # replay's banner and caption name it, never the pot collected
            "handNet": {pid: s.stack - int(rec.starting_stacks.get(pid, 0)) for pid, s in self.seats.items()}
            if self.phase == "handEnd" else None,
            "penalties": copy.deepcopy(self.penalties), "indianUsed": self._used(), "indianDeckLeft": None,
            "rebuyPending": [], "me": None, "publicLog": [], "result": None,
        }


def _private_part(seat: _Seat, cards: Any) -> list[dict[str, Any]]:
    """Cards shown for a seat (a showdown entry, a show: hole and open cards together) less its open cards,
    which the seat already shows apart: the seat's private row."""
    up = {c.get("id") for c in seat.up}
    return [dict(c) for c in cards or [] if card_of(c) is not None and c.get("id") not in up]


def _ends_step(events: list[dict[str, Any]], i: int) -> bool:
    kind = events[i].get("type")
    if kind in STEP_KINDS:
        return True
    following = events[i + 1].get("type") if i + 1 < len(events) else None
    return kind == "dealt" and following != "dealt"


def public_steps(rec: HandRecord) -> Iterator[Step]:
    """The replay's steps of a hand, in order: after each step event (an action, a board card, a draw, the
    showdown, the result ...) and after each round of cards dealt, the public table. A step takes with it
    the next round's start that follows it at once (the new street's name and first actor)."""
    table = PublicTable(rec)
    events = rec.events
    i = 0
    while i < len(events):
        table.apply(events[i])
        if not _ends_step(events, i):
            i += 1
            continue
        end = i
        while end + 1 < len(events) and events[end + 1].get("type") in _TRAILING:
            end += 1
            table.apply(events[end])
        kind = events[i].get("type")
        label = {"type": "deal"} if kind == "dealt" else dict(events[i])
        yield Step(end, label, table.view())
        i = end + 1
