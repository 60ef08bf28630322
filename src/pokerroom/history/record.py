"""Hand records: every finished hand rebuilt from the engine's public events and each player's own view.

Why from events and views (not the full state): a history is what the players saw — the public events of
every step (actions with the chips they moved, board cards, showdown, awards) plus, for each player, their
*own* cards as their own view shows them at the end of the hand. Nothing secret from anyone else is read,
so a history can be handed to any player of the hand (:mod:`pokerroom.history.viewer` says what each one
gets).

The chips of every hand are also rebuilt from the events alone (a ledger: forced bets and actions take
chips, returned bets and awards give them back); :attr:`HandRecord.ledger_ok` says whether that ledger
ends at the stacks the views show, an independent check of the engine's chip flow.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from pokerroom.cards import Card

ViewOf = Callable[[str | None], dict[str, Any]]

#: events after which a player's private cards may differ (dealt, exchanged, a 7 Poker pick opened)
_CARD_EVENTS = frozenset(("dealt", "drawn", "reveal"))


def card_of(data: Any) -> Card | None:
    """The card a view or an event describes (``Card.to_json`` form); ``None`` for a hidden card."""
    if isinstance(data, dict) and {"id", "rank", "suit"} <= set(data):
        return Card.from_json(data)
    return None


def cards_of(items: Any) -> list[Card]:
    """The known cards of a view's or an event's card list (hidden ones left out)."""
    return [c for c in (card_of(i) for i in items or []) if c is not None]


@dataclass
class HandRecord:
    """One finished hand as the table saw it, plus each player's own cards."""

    hand_no: int
    mode: str
    betting: str
    base_unit: int
    small_blind: int | None
    dealer: str
    order: list[str]  # from the seat after the dealer
    starting_stacks: dict[str, int]
    finishing_stacks: dict[str, int] = field(default_factory=dict)
    own_cards: dict[str, list[Card]] = field(default_factory=dict)  # hole (and up) as each owner saw them
    board: list[Card] = field(default_factory=list)
    events: list[dict[str, Any]] = field(default_factory=list)
    showdown: list[dict[str, Any]] = field(default_factory=list)
    awards: list[dict[str, Any]] = field(default_factory=list)
    ledger: dict[str, int] = field(default_factory=dict)
    pots: list[dict[str, Any]] = field(default_factory=list)  # the final pots the awards refer to
    winners: list[str] = field(default_factory=list)
    hi_lo: bool = False  # Omaha Hi-Lo (``omahaHiLo``): the pots were split high/low
    #: each player's private cards as their own view showed them, from an event on (its index in ``events``):
    #: what the replay shows its owner step by step (draws and 7 Poker's choice change them mid-hand)
    own_steps: dict[str, list[tuple[int, list[Card]]]] = field(default_factory=dict)
    options: dict[str, Any] | None = None  # the game's options as the view showed them (names, house rules)
    phh: dict[str, Any] | None = None  # an imported PHH hand's own parameters (pokerroom.history.phh_import)

    @property
    def ledger_ok(self) -> bool:
        return all(self.ledger.get(p) == self.finishing_stacks.get(p) for p in self.order)

    @property
    def actions(self) -> list[dict[str, Any]]:
        return [e for e in self.events if e.get("type") == "action"]

    def to_json(self) -> dict[str, Any]:
        """Everything, JSON-ready (for storage; ``own_cards`` holds every player's cards: never send this)."""
        out = {
            "handNo": self.hand_no, "mode": self.mode, "betting": self.betting, "baseUnit": self.base_unit,
            "smallBlind": self.small_blind, "dealer": self.dealer, "order": self.order,
            "startingStacks": self.starting_stacks, "finishingStacks": self.finishing_stacks,
            "ownCards": {p: [c.to_json() for c in cs] for p, cs in self.own_cards.items()},
            "board": [c.to_json() for c in self.board], "events": list(self.events),
            "showdown": self.showdown,
            "awards": self.awards, "ledger": dict(self.ledger), "pots": self.pots, "winners": self.winners,
        }
        if self.hi_lo:  # only then: records of every other game keep their exact shape
            out["hiLo"] = True
        if self.own_steps:
            out["ownSteps"] = {p: [[i, [c.to_json() for c in cs]] for i, cs in steps]
                               for p, steps in self.own_steps.items()}
        if self.options is not None:
            out["options"] = self.options
        if self.phh is not None:
            out["phh"] = self.phh
        return out

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> HandRecord:
        return HandRecord(
            hand_no=int(data["handNo"]), mode=str(data["mode"]), betting=str(data["betting"]),
            base_unit=int(data["baseUnit"]), small_blind=data.get("smallBlind"), dealer=str(data["dealer"]),
            order=list(data["order"]), starting_stacks=dict(data["startingStacks"]),
            finishing_stacks=dict(data.get("finishingStacks") or {}),
            own_cards={p: cards_of(cs) for p, cs in (data.get("ownCards") or {}).items()},
            board=cards_of(data.get("board")), events=list(data.get("events") or []),
            showdown=list(data.get("showdown") or []), awards=list(data.get("awards") or []),
            ledger=dict(data.get("ledger") or {}), pots=list(data.get("pots") or []),
            winners=list(data.get("winners") or []), hi_lo=data.get("hiLo") is True,
            own_steps={p: [(int(i), cards_of(cs)) for i, cs in steps]
                       for p, steps in (data.get("ownSteps") or {}).items()},
            options=data.get("options"), phh=data.get("phh"),
        )


class HistoryRecorder:
    """Feed it every step's events (and a way to get views); it keeps every finished hand.

    ``observe(events, view_of)`` where ``view_of(player_id)`` returns that player's view after the step and
    ``view_of(None)`` the spectator view. Views are requested at hand start and hand end, and each player's
    own view after a change that dealt, exchanged or opened cards (their private cards, for the replay).
    """

    def __init__(self, player_ids: list[str], starting_chips: int) -> None:
        self.stacks: dict[str, int] = {p: starting_chips for p in player_ids}
        self.starting_chips = starting_chips
        self.hands: list[HandRecord] = []
        self.current: HandRecord | None = None
        self.last: HandRecord | None = None  # the hand that just ended (its winner may still show)
        self.amended: HandRecord | None = None  # ``last`` after a ``shown`` event, for the caller to re-store
        self._cards_from: int | None = None  # index of this change's first card event in the hand's events

    def to_json(self) -> dict[str, Any]:
        """The recorder's running state (stacks and the hand in progress), not the finished ``hands``."""
        return {"stacks": dict(self.stacks), "startingChips": self.starting_chips,
                "current": None if self.current is None else self.current.to_json()}

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> HistoryRecorder:
        rec = HistoryRecorder([], int(data["startingChips"]))
        rec.stacks = {str(p): int(s) for p, s in (data.get("stacks") or {}).items()}
        current = data.get("current")
        rec.current = None if current is None else HandRecord.from_json(current)
        return rec

    def begin(self, view_of: ViewOf) -> None:
        """Pick up a hand already running when recording starts (``engine.setup`` deals the first hand and
        returns no events): its start and forced bets are rebuilt from the spectator view, which is exact as
        long as nobody has acted yet."""
        pub = view_of(None)
        if pub.get("phase") in ("handEnd", "rebuy", "finished") or not pub.get("handNo"):
            return
        seats = pub.get("seats") or []
        n = len(seats)
        dealer_seat = int(pub.get("dealerSeat") or 0)
        playing = sorted((s for s in seats if s.get("inHand")),
                         key=lambda s: (int(s["seat"]) - dealer_seat - 1) % n)
        dealer = next((str(s["id"]) for s in seats if s.get("dealer")), str(playing[-1]["id"]))
        synthetic: list[dict[str, Any]] = [{
            "type": "handStart", "handNo": pub["handNo"], "dealer": dealer, "dealerSeat": dealer_seat,
            "baseUnit": pub.get("baseUnit"), "players": [str(s["id"]) for s in playing],
        }]
        for s in playing:
            self.stacks[str(s["id"])] = int(s["stack"]) + int(s.get("committedTotal") or 0)
        for s in playing:
            round_bet = int(s.get("committedRound") or 0)
            ante = int(s.get("committedTotal") or 0) - round_bet
            if ante:
                synthetic.append({"type": "ante", "from": s["id"], "amount": ante, "allIn": False})
            if s.get("sb") or s.get("bb") or s.get("straddle"):  # (a straddle: docs/rules-extensions.md)
                kind = "sb" if s.get("sb") else "bb" if s.get("bb") else "straddle"
                synthetic.append({"type": "blind", "from": s["id"], "kind": kind,
                                  "amount": round_bet, "allIn": bool(s.get("allIn"))})
        synthetic += _dealt_from(pub, playing)
        self.observe(synthetic, view_of)
        if self.current is not None:  # the cards were dealt before recording began: mine from the start
            self._cards_from = 0
            self._own_step(self.current, view_of)

    def observe(self, events: list[dict[str, Any]], view_of: ViewOf) -> None:
        self._cards_from = None
        for event in events:
            self._event(event, view_of)
        if self.current is not None and self._cards_from is not None:
            self._own_step(self.current, view_of)

    def _own_step(self, rec: HandRecord, view_of: ViewOf) -> None:
        """Each player's private cards after this change, as their own view shows them, kept from the
        change's first card event on (only when they changed): the replay shows its owner these."""
        assert self._cards_from is not None
        for pid in rec.order:
            seat = next((s for s in view_of(pid).get("seats") or [] if str(s.get("id")) == pid), None)
            cards = cards_of((seat or {}).get("hole"))
            steps = rec.own_steps.setdefault(pid, [])
            if not steps or steps[-1][1] != cards:
                steps.append((self._cards_from, cards))
        self._cards_from = None

    def _event(self, event: dict[str, Any], view_of: ViewOf) -> None:
        kind = event.get("type")
        if kind == "seatJoined":  # a late joiner (engine.seating): their stack starts the ledger
            self.stacks[str(event["player"])] = int(event["stack"])
            return
        if kind == "rebuy" and event.get("accept"):
            self.stacks[str(event["player"])] = self.stacks.get(str(event["player"]), 0) + self.starting_chips
            return
        if kind == "handStart":
            pub = view_of(None)
            order = [str(p) for p in event["players"]]
            self.current = HandRecord(
                hand_no=int(event["handNo"]),
                mode=str(pub.get("mode")),
                betting=str(pub.get("betting")),
                base_unit=int(event.get("baseUnit") or pub.get("baseUnit") or 0),
                small_blind=pub.get("smallBlind"),
                dealer=str(event["dealer"]),
                order=order,
                starting_stacks={p: self.stacks.get(p, 0) for p in order},
                hi_lo=pub.get("mode") == "omaha" and (pub.get("options") or {}).get("omahaHiLo") is True,
                options=dict(pub.get("options") or {}) or None,
            )
            self.current.ledger = dict(self.current.starting_stacks)
            self.current.events.append(event)
            return
        rec = self.current
        if rec is None:
            if kind == "shown" and self.last is not None:  # shown during handEnd, after the hand was closed
                self.last.events.append(event)
                self.amended = self.last
            return
        if kind in _CARD_EVENTS and self._cards_from is None:
            self._cards_from = len(rec.events)
        rec.events.append(event)
        if kind in ("ante", "blind", "penalty"):
            rec.ledger[str(event["from"])] -= int(event["amount"])
        elif kind == "action":
            rec.ledger[str(event["player"])] -= int(event.get("amount") or 0)
        elif kind in ("uncalled", "award"):
            rec.ledger[str(event["to"])] += int(event["amount"])
        elif kind == "board" and event.get("run") is None:  # (run it twice: the second board stays an event)
            rec.board.extend(cards_of(event.get("cards")))
        elif kind == "showdown":
            rec.showdown = list(event.get("entries") or [])
        elif kind == "handEnd":
            if self._cards_from is not None:  # cards dealt in the change that also ended the hand
                self._own_step(rec, view_of)
            rec.awards = [e for e in rec.events if e.get("type") == "award"]
            rec.winners = [str(w) for w in event.get("winners") or []]
            pub = view_of(None)
            rec.pots = [dict(p) for p in pub.get("pots") or []]
            stacks = {str(s["id"]): int(s["stack"]) for s in pub.get("seats", [])}
            rec.finishing_stacks = {p: stacks.get(p, 0) for p in rec.order}
            for pid in rec.order:
                me = view_of(pid).get("me") or {}
                # Indian: the forehead card is a card once the hand has ended (a "?" string before)
                own = cards_of(me.get("hole")) + cards_of(me.get("up")) + cards_of([me.get("forehead")])
                rec.own_cards[pid] = own
            for p, s in rec.finishing_stacks.items():
                self.stacks[p] = s
            self.hands.append(rec)
            self.last = rec
            self.current = None


def _dealt_from(pub: Mapping[str, Any], playing: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The deal a spectator view shows (how many private cards each seat holds, its open cards, its
    forehead) and the first round's start, as the engine's events would have said them."""
    target = "choice" if pub.get("phase") == "choice" else "hole"
    out: list[dict[str, Any]] = []
    for s in playing:
        if s.get("holeCount"):
            out.append({"type": "dealt", "to": s["id"], "count": int(s["holeCount"]), "target": target})
        out += [{"type": "dealt", "to": s["id"], "count": 1, "target": "up", "faceUp": c}
                for c in s.get("up") or []]
        if s.get("hasForehead"):
            out.append({"type": "dealt", "to": s["id"], "count": 1, "target": "forehead"})
    if pub.get("phase") == "betting":
        out.append({"type": "roundStart", "street": pub.get("street"), "streetName": pub.get("streetName"),
                    "toAct": pub.get("toAct"), "boss": pub.get("boss")})
    return out


def summary(rec: HandRecord) -> Mapping[str, Any]:
    """A JSON-ready summary (for logs and the CLI)."""
    return {
        "handNo": rec.hand_no,
        "mode": rec.mode,
        "order": rec.order,
        "board": [c.code for c in rec.board],
        "actions": [(e["player"], e["action"], e.get("amount")) for e in rec.actions],
        "starting": rec.starting_stacks,
        "finishing": rec.finishing_stacks,
        "ledgerOk": rec.ledger_ok,
    }
