"""The replay of a finished hand for one viewer: each step's view, holding only the cards that viewer may see.

Why a module of its own: this is the secrecy rule of the replay, kept apart like :mod:`.viewer` is for the
list of past hands. It is built as a whitelist on top of :mod:`.steps`, whose views hold no private card at
all: a card is *added* to a step's view only because this viewer saw it at that moment of the hand —

- their own private cards, as their own view showed them from the change that dealt (or exchanged, or
  opened) them on (``HandRecord.own_steps``), never more of them than the seat held at that step;
- in Indian poker, the other players' forehead cards, which every other player of the hand saw all along
  (docs/view.md), taken from the hand's end reveal;
- everything public, which the steps already carry: board, open cards, the showdown, cards shown after it.

A spectator, or a member who did not play the hand, gets the public steps untouched. An imported PHH file
(``everyone=True``) has no secret from its reader: every known card is shown from the deal on.
"""

from __future__ import annotations

from typing import Any

from pokerroom.cards import Card
from pokerroom.history.naming import hand_names
from pokerroom.history.record import HandRecord, card_of, cards_of
from pokerroom.history.steps import Step, public_steps

Frame = dict[str, Any]  # {"step": event, "view": view}


def _reveal(rec: HandRecord) -> dict[str, dict[str, Any]]:
    """Indian's end reveal: each player's forehead and hand cards (public once the hand has ended)."""
    for e in rec.events:
        if e.get("type") == "indianReveal":
            return {str(p): c for p, c in (e.get("cards") or {}).items() if isinstance(c, dict)}
    return {}


def _fallback_private(rec: HandRecord, pid: str) -> list[Card]:
    """A player's private cards at the hand's end, for a record kept before ``own_steps`` existed: their
    own cards less the open ones (7 Poker) and the forehead (Indian)."""
    public: set[int] = set()
    for e in rec.events:
        if e.get("type") == "dealt" and e.get("to") == pid and card_of(e.get("faceUp")) is not None:
            public.add(int(e["faceUp"]["id"]))
        if e.get("type") == "reveal" and card_of((e.get("opens") or {}).get(pid)) is not None:
            public.add(int(e["opens"][pid]["id"]))
    forehead = card_of((_reveal(rec).get(pid) or {}).get("forehead"))
    if forehead is not None:
        public.add(forehead.id)
    return [c for c in rec.own_cards.get(pid) or [] if c.id not in public]


def private_at(rec: HandRecord, pid: str, index: int) -> list[Card]:
    """``pid``'s private cards as their own view showed them after event ``index`` (all they held then)."""
    steps = rec.own_steps.get(pid)
    if not steps:
        # an older record knows the hand's end only: those cards from the last exchange or 7 Poker pick on
        # (before it the seat held others), sliced to each step's count by the caller
        kinds = ("drawn", "reveal")
        changed = max((i for i, e in enumerate(rec.events) if e.get("type") in kinds), default=0)
        return _fallback_private(rec, pid) if index >= changed else []
    held: list[Card] = []
    for start, cards in steps:
        if start > index:
            break
        held = cards
    return held


def _hole(cards: list[Card], count: int) -> list[dict[str, Any]]:
    """A seat's private row: the cards known, in their order, then hidden slots up to the seat's count."""
    shown = [c.to_json() for c in cards[:count]]
    return shown + [{"hidden": True, "slot": k} for k in range(count - len(shown))]


def _me(rec: HandRecord, seat: dict[str, Any], view: dict[str, Any], private: list[Card]) -> dict[str, Any]:
    choice = view["phase"] == "choice" and seat["holeCount"] == 4 and not seat["up"]
    visible = private[: seat["holeCount"]]
    board = cards_of(view["board"])
    names = hand_names(rec.mode, rec.options, visible, cards_of(seat["up"]), board)
    if rec.mode == "indian":
        names = (None, None, None)  # the owner never knows their forehead before the end
    forehead: Any = None
    if seat["hasForehead"]:
        forehead = seat["forehead"] if seat["forehead"] is not None else "?"
    return {
        "id": seat["id"], "seat": seat["seat"], "rebuysLeft": None, "inHand": True,
        "hole": [] if choice else [c.to_json() for c in visible], "up": [dict(c) for c in seat["up"]],
        "choice": [c.to_json() for c in visible] if choice else None, "chosen": None, "discarded": None,
        "forehead": forehead, "drawPending": None, "declare": seat["declare"], "toCall": 0,
        "handName": names[0], "rankName": names[1] if names[0] is not None else None, "lowName": names[2],
        "legalActions": [], "hint": None,
    }


def _for_viewer(rec: HandRecord, step: Step, viewer: str | None, everyone: bool,
                foreheads: dict[str, Any]) -> dict[str, Any]:
    view = step.view
    for seat in view["seats"]:
        pid = seat["id"]
        own = everyone or pid == viewer
        if own and not seat["shown"]:
            seat["hole"] = _hole(private_at(rec, pid, step.index), seat["holeCount"])
        if viewer is not None and pid != viewer and seat["hasForehead"] and seat["forehead"] is None:
            seat["forehead"] = foreheads.get(pid)  # Indian: every other player of the hand sees it
        if pid == viewer and not everyone:
            view["me"] = _me(rec, seat, view, private_at(rec, pid, step.index))
    return view


def replay_frames(rec: HandRecord, viewer: str | None, everyone: bool = False) -> list[Frame]:
    """The hand as ``viewer`` (a player id, or None: a spectator) saw it, step by step: ``{"step": the
    event that ended the step, "view": the table after it}``. Only a player of the hand gets their own
    cards (and, in Indian poker, the others' foreheads); ``everyone``: a file's reader, who sees every
    known card (an imported PHH hand has no secret)."""
    plays = viewer is not None and viewer in rec.order
    who = viewer if plays else None
    foreheads: dict[str, Any] = {}
    if who is not None:
        foreheads = {p: dict(c["forehead"]) for p, c in _reveal(rec).items()
                     if p != who and card_of(c.get("forehead")) is not None}
    return [{"step": step.event, "view": _for_viewer(rec, step, who, everyone, foreheads)}
            for step in public_steps(rec)]
