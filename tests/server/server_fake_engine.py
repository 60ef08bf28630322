"""A tiny stand-in rules engine with the real engine's interface and view shape (docs/view.md).

Why: the server's guarantees (routing each viewer its own view, one writer, dedup, timeouts, recovery)
must be testable without depending on the rules engine's progress or bugs. The game: everyone gets two
hidden cards (and, in "fakeIndian", a forehead card the owner cannot see); one betting pass where each
player checks, folds or bets; the best top card among non-folders wins; ``handEnd`` waits for ``ready``.
"""

from __future__ import annotations

import copy
import json
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, ValidationError, model_validator

from pokerroom.cards import standard_deck
from pokerroom.rejections import Rejected
from pokerroom.rng import DealRng
from pokerroom.server.engine_port import OptionsError, korean_option_error


class FakeOptions(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    mode: Literal["fake", "fakeIndian"] = "fake"
    startingChips: int = 1000
    turnSeconds: int = 20
    handLimit: int = 3
    hints: bool = False

    @model_validator(mode="after")
    def _check(self) -> FakeOptions:
        if self.startingChips < 100:
            raise ValueError("시작 칩은 100 이상이어야 해요")
        return self


def _card(c: Any) -> dict[str, Any]:
    return c.to_json()


class FakeEngine:
    def parse_options(self, raw: dict[str, Any]) -> Any:
        try:
            return FakeOptions.model_validate(raw)
        except ValidationError as exc:
            raise OptionsError(korean_option_error([dict(e) for e in exc.errors()])) from None

    def options_json(self, options: Any) -> dict[str, Any]:
        return options.model_dump()

    def player_range(self, options: Any) -> tuple[int, int]:
        return (2, 6)

    def setup(self, player_ids: list[str], options: Any, now_ms: int) -> Any:
        return self.setup_with_events(player_ids, options, now_ms)[0]

    def setup_with_events(self, player_ids: list[str], options: Any, now_ms: int
                          ) -> tuple[Any, list[dict[str, Any]]]:
        st = {"options": options.model_dump(), "players": list(player_ids),
              "stacks": {p: options.startingChips for p in player_ids}, "rng": DealRng.from_seed().to_json(),
              "handsPlayed": 0, "phase": "playing", "hand": None, "deadline": None}
        self._new_hand(st, now_ms)
        return st, [self._hand_start(st)]

    @staticmethod
    def _hand_start(st: dict[str, Any]) -> dict[str, Any]:
        order = st["hand"]["order"]
        return {"type": "handStart", "handNo": st["hand"]["no"], "dealer": order[-1],
                "dealerSeat": len(order) - 1, "baseUnit": 10, "players": list(order)}

    def _new_hand(self, st: dict[str, Any], now_ms: int) -> None:
        rng = DealRng.from_json(st["rng"])
        deck = [_card(c) for c in rng.shuffled(standard_deck())]
        st["rng"] = rng.to_json()
        hand: dict[str, Any] = {"no": st["handsPlayed"] + 1, "phase": "betting", "pot": 0, "hole": {},
                                "forehead": {}, "folded": [], "acted": [], "ready": [], "shown": [],
                                "order": list(st["players"]), "toAct": st["players"][0]}
        for p in st["players"]:
            hand["hole"][p] = [deck.pop(), deck.pop()]
            if st["options"]["mode"] == "fakeIndian":
                hand["forehead"][p] = deck.pop()
        hand["deck"] = deck
        st["hand"] = hand
        st["deadline"] = now_ms + st["options"]["turnSeconds"] * 1000

    def _legal(self, st: dict[str, Any], pid: str) -> list[dict[str, Any]]:
        hand = st["hand"]
        if st["phase"] != "playing" or hand is None:
            return []
        if hand["phase"] == "betting" and hand["toAct"] == pid:
            return [{"type": "nl.fold"}, {"type": "nl.check"},
                    {"type": "nl.raise", "min": 10, "max": max(10, st["stacks"][pid]), "isBet": True}]
        if hand["phase"] == "handEnd" and pid in st["players"] and pid not in hand["ready"]:
            return [{"type": "ready"}]
        return []

    def apply(self, state: Any, player_id: str, action: dict[str, Any], now_ms: int
              ) -> tuple[Any, list[dict[str, Any]]]:
        st = copy.deepcopy(state)
        hand = st["hand"]
        kind = action.get("type")
        events: list[dict[str, Any]] = []
        if kind == "leave":
            return st, [{"type": "left", "player": player_id}]
        if player_id not in st["players"]:
            raise Rejected("not_in_game", "이 게임의 참가자가 아니에요")
        legal = {a["type"]: a for a in self._legal(st, player_id)}
        if kind not in legal:
            raise Rejected("not_your_turn", "지금은 내 차례가 아니에요")
        if kind == "ready":
            hand["ready"].append(player_id)
            events.append({"type": "ready", "player": player_id})
            if len(hand["ready"]) == len(st["players"]):
                self._next(st, now_ms, events)
            return st, events
        if kind == "nl.raise":
            to = action["to"]
            if not legal["nl.raise"]["min"] <= to <= legal["nl.raise"]["max"] or to > st["stacks"][player_id]:
                raise Rejected("raise_too_big", "레이즈 금액이 올바르지 않아요")
            st["stacks"][player_id] -= to
            hand["pot"] += to
        if kind == "nl.fold":
            hand["folded"].append(player_id)
        events.append({"type": "action", "player": player_id, "action": dict(action), "auto": False})
        self._advance(st, player_id, now_ms, events)
        return st, events

    def _advance(self, st: dict[str, Any], pid: str, now_ms: int, events: list[dict[str, Any]]) -> None:
        hand = st["hand"]
        hand["acted"].append(pid)
        live = [p for p in hand["order"] if p not in hand["folded"]]
        rest = [p for p in hand["order"] if p not in hand["acted"] and p not in hand["folded"]]
        if rest and len(live) > 1:
            hand["toAct"] = rest[0]
            st["deadline"] = now_ms + st["options"]["turnSeconds"] * 1000
            return
        hand["toAct"] = None
        def top(p: str) -> int:
            return max(c["rank"] * 4 + "CHDS".index(c["suit"]) for c in hand["hole"][p])

        winner = max(live, key=top)
        st["stacks"][winner] += hand["pot"]
        if len(live) > 1:
            hand["shown"] = live
            entries = [{"id": p, "cards": hand["hole"][p]} for p in live]
            events.append({"type": "showdown", "entries": entries})
        events.append({"type": "award", "to": winner, "amount": hand["pot"]})
        events.append({"type": "handEnd", "handNo": hand["no"], "winners": [winner],
                       "oneLeft": len(live) == 1})
        hand["phase"] = "handEnd"
        st["deadline"] = now_ms + 4000

    def _next(self, st: dict[str, Any], now_ms: int, events: list[dict[str, Any]]) -> None:
        st["handsPlayed"] += 1
        if st["handsPlayed"] >= st["options"]["handLimit"]:
            st["phase"] = "finished"
            st["deadline"] = None
            events.append({"type": "gameEnd", "reason": "hands"})
            return
        self._new_hand(st, now_ms)
        events.append(self._hand_start(st))

    def view(self, state: Any, viewer: str | None) -> dict[str, Any]:
        st = state
        hand = st["hand"]
        end = hand["phase"] == "handEnd"
        seats = []
        for i, p in enumerate(st["players"]):
            visible = p == viewer or p in hand["shown"]
            hole = [c if visible else {"hidden": True, "slot": 0} for c in hand["hole"][p]]
            fh = hand["forehead"].get(p)
            forehead = fh if fh is not None and (end or (viewer is not None and viewer != p)) else None
            seats.append({"id": p, "seat": i, "stack": st["stacks"][p], "hole": hole, "holeCount": 2,
                          "forehead": forehead, "hasForehead": fh is not None,
                          "folded": p in hand["folded"], "ready": p in hand["ready"]})
        me = None
        if viewer in st["players"]:
            own = hand["forehead"].get(viewer)
            me = {"id": viewer, "hole": hand["hole"][viewer],
                  "forehead": "?" if own is not None and not end else own,
                  "legalActions": self._legal(st, viewer)}
        return {"game": "poker", "mode": st["options"]["mode"], "phase": st["phase"] if st["phase"] ==
                "finished" else hand["phase"], "handNo": hand["no"], "seats": seats, "pots":
                [{"amount": hand["pot"]}], "toAct": hand["toAct"], "deadlineAt": st["deadline"], "me": me,
                "result": self.result(st)}

    def deadline(self, state: Any) -> int | None:
        value: int | None = state["deadline"]
        return value

    def on_timeout(self, state: Any, now_ms: int) -> tuple[Any, list[dict[str, Any]]]:
        st = copy.deepcopy(state)
        if st["deadline"] is None or now_ms < st["deadline"]:
            return st, []
        hand = st["hand"]
        events: list[dict[str, Any]] = []
        if hand["phase"] == "betting":
            pid = hand["toAct"]
            events.append({"type": "timeout", "player": pid, "phase": "betting"})
            events.append({"type": "action", "player": pid, "action": {"type": "nl.check"}, "auto": True})
            self._advance(st, pid, now_ms, events)
        else:
            self._next(st, now_ms, events)
        return st, events

    def result(self, state: Any) -> dict[str, Any] | None:
        if state["phase"] != "finished":
            return None
        ranking = sorted(state["players"], key=lambda p: -state["stacks"][p])
        return {"ranking": [{"playerId": p, "rank": i + 1, "finalChips": state["stacks"][p]}
                            for i, p in enumerate(ranking)], "summary": "게임 종료"}

    def dump_state(self, state: Any) -> str:
        return json.dumps(state)

    def load_state(self, text: str) -> Any:
        return json.loads(text)


def secrets_for(state: dict[str, Any], viewer: str | None) -> set[tuple[int, str]]:
    """Cards the viewer must never receive in this state (truth for the frame scanner)."""
    hand = state["hand"]
    out = {(c["rank"], c["suit"]) for c in hand["deck"]}
    end = hand["phase"] == "handEnd"
    for p in state["players"]:
        if p != viewer and p not in hand["shown"]:
            out |= {(c["rank"], c["suit"]) for c in hand["hole"][p]}
        fh = hand["forehead"].get(p)
        if fh is not None and not end and (viewer is None or viewer == p):
            out.add((fh["rank"], fh["suit"]))
    return out
