"""What one viewer may see of a finished hand: public events, open cards and their own cards only.

Why a module of its own: this is the secrecy rule of the history (the server sends its result to players
and spectators), kept apart from the recording so it can be read, and tested, on its own.
"""

from __future__ import annotations

from typing import Any

from pokerroom.history.naming import final_name
from pokerroom.history.record import HandRecord, card_of, cards_of

_PUBLIC_STEPS = ("ante", "blind", "action", "board", "street", "uncalled", "reveal", "drawn", "declares",
                 "penalty", "award", "carry", "indianReveal", "shown")


def for_viewer(rec: HandRecord, viewer: str | None) -> dict[str, Any]:
    """The hand as ``viewer`` may see it afterwards (docs/protocol.md, ``history``): only public events
    (actions, board, open cards, showdown, awards) plus, for a player of the hand, their OWN cards.
    ``viewer=None`` (a spectator) gets public information only; nobody gets another player's unshown cards.
    """
    street = 0
    steps: list[dict[str, Any]] = []
    open_cards: dict[str, list[dict[str, Any]]] = {}
    for e in rec.events:
        kind = e.get("type")
        if kind == "roundStart":
            street = int(e.get("street") or 0)
        elif kind == "dealt" and isinstance(e.get("faceUp"), dict):
            card = card_of(e["faceUp"])
            if card is not None:
                open_cards.setdefault(str(e["to"]), []).append(card.to_json())
        elif kind == "reveal":
            for pid, c in (e.get("opens") or {}).items():
                card = card_of(c)
                if card is not None:
                    open_cards.setdefault(str(pid), []).append(card.to_json())
        if kind in _PUBLIC_STEPS:
            steps.append({**e, "street": street} if kind == "action" else dict(e))
    mine = rec.own_cards.get(viewer) if viewer is not None and viewer in rec.order else None
    shown = {str(e["player"]): list(e.get("cards") or []) for e in rec.events if e.get("type") == "shown"}
    return {
        "handNo": rec.hand_no, "mode": rec.mode, "betting": rec.betting, "baseUnit": rec.base_unit,
        "dealer": rec.dealer, "players": rec.order, "startingStacks": rec.starting_stacks,
        "finishingStacks": rec.finishing_stacks, "board": [c.to_json() for c in rec.board],
        "open": open_cards, "actions": steps, "pots": rec.pots, "awards": rec.awards, "winners": rec.winners,
        "showdown": rec.showdown, "mine": None if mine is None else [c.to_json() for c in mine],
        "shown": shown,
        # the names the table gave these cards, ranks included ("J 원페어"): mine at the end, and a show's
        "mineName": None if not mine else final_name(rec.mode, rec.options, mine, rec.board),
        "shownNames": {p: final_name(rec.mode, rec.options, cards_of(cs), rec.board)
                       for p, cs in shown.items()},
    }
