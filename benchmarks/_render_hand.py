"""The hands the render benchmark plays: synthetic but complete hands of views (docs/view.md shape) built from
tests/web/fixtures, view by view as player p1 sees them.

Apart from benchmarks/render.py because it is the input of both render benchmarks (render.py and
render_profile.py), not part of the measuring.
"""

from __future__ import annotations

import copy
import json
import time
from typing import Any

from _render_page import ROOT

FIXTURES = ROOT / "tests" / "web" / "fixtures"


def load(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((FIXTURES / f"{name}.json").read_text(encoding="utf-8"))
    return data


def card(i: int) -> dict[str, Any]:
    i %= 52
    return {"id": i, "rank": 2 + i % 13, "suit": "SDHC"[i // 13]}


class Hand:
    """A hand played out action by action, yielding the view a player (p1) sees after each change."""

    def __init__(self, template: str, n: int, korean: bool) -> None:
        self.v = copy.deepcopy(load(template))
        self.korean = korean
        self.views: list[dict[str, Any]] = []
        self.next_card = 0
        proto = self.v["seats"][1]
        self.ids = [f"p{i + 1}" for i in range(n)]
        seats = []
        for i, pid in enumerate(self.ids):
            s = copy.deepcopy(proto)
            s.update(
                id=pid,
                seat=i,
                stack=1000,
                status="playing",
                away=False,
                inHand=True,
                folded=False,
                allIn=False,
                dealer=i == 0,
                sun=korean and i == 0,
                sb=not korean and i == 1,
                bb=not korean and i == 2,
                boss=False,
                committedRound=0,
                committedTotal=0,
                lastAction=None,
                up=[],
                hole=[],
                holeCount=0,
                shown=False,
                ready=False,
            )
            seats.append(s)
        self.v.update(
            seats=seats,
            board=[],
            pots=[],
            potTotal=0,
            currentBet=0,
            toAct=None,
            pending=[],
            showdown=None,
            awards=None,
            phase="betting",
            street=0,
            publicLog=[],
        )
        self.v["me"] = {
            **self.v["me"],
            "id": "p1",
            "seat": 0,
            "hole": [],
            "up": [],
            "legalActions": [],
            "hint": None,
            "toCall": 0,
        }

    def seat(self, pid: str) -> dict[str, Any]:
        return next(s for s in self.v["seats"] if s["id"] == pid)

    def deal(self, k: int) -> list[dict[str, Any]]:
        out = [card(self.next_card + j) for j in range(k)]
        self.next_card += k
        return out

    def emit(self) -> None:
        v = self.v
        me = self.seat("p1")
        v["me"].update(hole=me["hole"], up=me["up"])
        v["me"]["legalActions"] = self.legal() if v["toAct"] == "p1" else []
        v["deadlineAt"] = int(time.time() * 1000) + 60_000 if v["phase"] == "betting" else None
        v["pending"] = [v["toAct"]] if v["toAct"] else []
        out = copy.deepcopy(v)
        for s in out["seats"]:
            if s["id"] != "p1" and not s["shown"]:
                s["hole"] = [{"hidden": True, "slot": k} for k in range(len(s["hole"]))]
        self.views.append(out)

    def legal(self) -> list[dict[str, Any]]:
        if self.korean:
            return [
                {"type": t, "amount": 10} for t in ("k.die", "k.call", "k.ddadang", "k.quarter", "k.half")
            ]
        return [
            {"type": "nl.fold"},
            {"type": "nl.call", "amount": 10},
            {"type": "nl.raise", "min": 40, "max": 990},
            {"type": "nl.allIn", "amount": 990, "to": 1000},
        ]

    def bet(self, pid: str, action: str, to: int) -> None:
        v = self.v
        s = self.seat(pid)
        if action in ("fold", "k.die", "nl.fold"):
            s["folded"] = True
        else:
            add = max(0, to - s["committedRound"])
            s["stack"] -= add
            s["committedRound"] += add
            s["committedTotal"] += add
            v["potTotal"] += add
            v["currentBet"] = max(v["currentBet"], s["committedRound"])
        s["lastAction"] = action
        v["publicLog"].append({"handNo": 1, "type": "action", "text": f"{pid} {action} {to}"})

    def street(self, order: list[str], actions: list[tuple[str, int]]) -> None:
        live = [p for p in order if not self.seat(p)["folded"]]
        for pid, (action, to) in zip(live, actions, strict=False):
            self.v["toAct"] = pid
            self.emit()
            self.bet(pid, action, to)
        self.v["toAct"] = None
        for s in self.v["seats"]:
            s["committedRound"] = 0
            s["lastAction"] = None
        self.v["currentBet"] = 0
        self.v["pots"] = [{"amount": self.v["potTotal"], "eligible": self.ids}]

    def finish(self, winner: str, shown: list[str]) -> list[dict[str, Any]]:
        v = self.v
        v.update(phase="handEnd", toAct=None, street=v["street"])
        best = (v["board"][:3] if v["board"] else []) + self.seat(winner)["hole"][:2]
        v["showdown"] = [
            {
                "id": p,
                "cards": self.seat(p)["hole"],
                "best": best if p == winner else [],
                "handName": "투페어" if p == winner else "원페어",
                "lowName": None,
            }
            for p in shown
        ]
        for p in shown:
            self.seat(p)["shown"] = True
        v["awards"] = [{"potIndex": 0, "to": winner, "amount": v["potTotal"]}]
        self.seat(winner)["stack"] += v["potTotal"]
        self.emit()
        for p in self.ids[:3]:  # the ready marks come in one by one
            self.seat(p)["ready"] = True
            self.emit()
        return self.views


def holdem_ten() -> list[dict[str, Any]]:
    """10-player no-limit hold'em: blinds, a raise and calls preflop, a flop bet, checks to the river."""
    h = Hand("holdem_ten_player", 10, korean=False)
    for s in h.v["seats"]:
        s["hole"] = h.deal(2)
    h.bet("p2", "sb", 5)
    h.bet("p3", "bb", 10)
    ids = h.ids
    pre = ids[3:] + ids[:3]
    h.street(
        pre,
        [
            ("nl.call", 10),
            ("nl.fold", 0),
            ("nl.raise", 40),
            ("nl.fold", 0),
            ("nl.call", 40),
            ("nl.fold", 0),
            ("nl.fold", 0),
            ("nl.call", 40),
            ("nl.fold", 0),
            ("nl.call", 40),
            ("nl.call", 40),
            ("nl.call", 40),
        ],
    )
    post = ids[1:] + ids[:1]
    for k, name in ((3, "플랍"), (1, "턴"), (1, "리버")):
        h.v["board"] = h.v["board"] + h.deal(k)
        h.v["street"] += 1
        h.v["streetName"] = name
        acts = (
            [("nl.check", 0)] * 6
            if name != "플랍"
            else [("nl.check", 0), ("nl.raise", 60)] + [("nl.call", 60)] * 4
        )
        h.street(post, acts)
    return h.finish("p6", ["p1", "p6", "p10"])


def seven_six() -> list[dict[str, Any]]:
    """6-player 7 Poker (Korean betting): 4구 to 7구, one up card a street, the hidden seventh, a showdown."""
    h = Hand("seven_six_player", 6, korean=True)
    for s in h.v["seats"]:
        s["hole"] = h.deal(2)
        s["up"] = h.deal(1)
    order = h.ids
    for k, name in enumerate(("4구", "5구", "6구", "7구")):
        h.v["street"] = k
        h.v["streetName"] = name
        for s in h.v["seats"]:
            if not s["folded"]:
                if name == "7구":
                    s["hole"] = s["hole"] + h.deal(1)
                else:
                    s["up"] = s["up"] + h.deal(1)
        h.v["boss"] = "p3"
        acts = [("k.bbing", 10), ("k.call", 10), ("k.half", 40), ("k.call", 40), ("k.die", 0), ("k.call", 40)]
        if k:
            acts = [("k.check", 0), ("k.bbing", 10), ("k.call", 10), ("k.call", 10), ("k.call", 10)]
        h.street(order, acts)
    return h.finish("p3", ["p1", "p2", "p3"])
