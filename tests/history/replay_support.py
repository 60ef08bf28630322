"""Random hands recorded the way the room records them, with what each viewer saw live at every change.

Why: the replay's secrecy is checked against the engine's own whitelist. While a seeded random player plays
(legal actions only), every change's view for every viewer is read, and the cards it shows are added to
that viewer's running set for the hand; a replay frame of a step may show only cards of the set as of the
change that contained that step (its event index).
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass, field
from typing import Any

from pokerroom import engine
from pokerroom.engine.view import legal_actions
from pokerroom.history import HandRecord, HistoryRecorder

_CARD = re.compile(r'\{"id": (\d+), "rank": (\d+), "suit": "([SDHC])"\}')

Key = tuple[int, int, str]


def cards_in(value: Any) -> set[Key]:
    """Every visible card (id, rank, suit) anywhere in a JSON value (cards are ``Card.to_json`` dicts)."""
    return {(int(i), int(r), s) for i, r, s in _CARD.findall(json.dumps(value))}


def concrete(rng: random.Random, entry: dict[str, Any]) -> dict[str, Any]:
    """A wire action for one ``legalActions`` entry."""
    t = entry["type"]
    if t == "nl.raise":
        low, high = entry["min"], entry["max"]
        return {"type": t, "to": low if rng.random() < 0.6 else rng.randint(low, high)}
    if t == "choose":
        d, o = rng.sample(entry["cardIds"], 2)
        return {"type": "choose", "discardId": d, "openId": o}
    if t == "draw":
        return {"type": "draw", "cardIds": rng.sample(entry["cardIds"], rng.randint(0, entry["max"]))}
    if t == "declare":
        return {"type": "declare", "side": rng.choice(entry["sides"])}
    if t == "rebuy":
        return {"type": "rebuy", "accept": True}
    return {"type": t}


@dataclass
class Played:
    """Finished hands, and per hand number the viewers' running sets: ``[(events so far, {viewer: set})]``."""

    hands: list[HandRecord]
    ids: list[str]
    seen: dict[int, list[tuple[int, dict[str | None, set[Key]]]]] = field(default_factory=dict)
    nets: dict[int, dict[str, int]] = field(default_factory=dict)  # hand number -> the live view's handNet

    def allowed(self, hand_no: int, index: int, viewer: str | None) -> set[Key]:
        """What ``viewer`` had seen of hand ``hand_no`` live once the change with event ``index`` was in."""
        for count, sets in self.seen[hand_no]:
            if count > index:
                return sets[viewer]
        raise AssertionError(f"hand {hand_no}: no change holds event {index}")


def play(mode: str, players: int, seed: int, hands: int = 2, **extra: Any) -> Played:
    """Play ``hands`` hands of ``mode`` with a seeded random player; record them as the room does."""
    rng = random.Random(seed)
    ids = [f"p{i}" for i in range(players)]
    state = engine.setup(ids, {"mode": mode, "hints": False, "handLimit": 10, "rebuy": "unlimited", **extra},
                         seed=seed)
    holder = {"s": state}

    def view_of(viewer: str | None) -> dict[str, Any]:
        return engine.view(holder["s"], viewer)

    rec = HistoryRecorder(ids, int(view_of(None)["options"]["startingChips"]))
    out = Played([], ids)
    rec.begin(view_of)
    now = 0
    running: dict[str | None, set[Key]] = {v: set() for v in [*ids, None]}

    def look() -> None:
        hand = rec.current or (rec.hands[-1] if rec.hands else None)
        if hand is None:
            return
        sets = out.seen.setdefault(hand.hand_no, [])
        if not sets:
            for v in running:
                running[v] = set()
        public = view_of(None)
        if public["handNet"] is not None:
            out.nets[public["handNo"]] = public["handNet"]
        for v in running:
            shown = view_of(v)
            running[v] |= cards_in({k: x for k, x in shown.items() if k != "publicLog"})
        sets.append((len(hand.events), {v: set(s) for v, s in running.items()}))

    look()
    for _ in range(3000):
        if len(rec.hands) >= hands or holder["s"].phase == "finished":
            break
        now += 1000
        acting = [(s.id, legal_actions(holder["s"], s.id)) for s in holder["s"].seats]
        acting = [(pid, legal) for pid, legal in acting if legal]
        if not acting or rng.random() < 0.03:
            deadline = engine.deadline(holder["s"])
            if deadline is None:
                break
            now = max(now, deadline)
            holder["s"], events = engine.on_timeout(holder["s"], now)
        else:
            pid, legal = rng.choice(acting)
            holder["s"], events = engine.apply(holder["s"], pid, concrete(rng, rng.choice(legal)), now)
        rec.observe(events, view_of)
        look()  # (a hand's end stays on the table until the next change: its last look is its own)
    out.hands = list(rec.hands)
    return out
