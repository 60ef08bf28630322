"""Synthetic worst-case views (docs/view.md shape) for the 390×844 UI audit tests: every mode and player count
with marks, badges, bets and (at hand end) every card shown, plus the small changes the audit looks at (the
button on another seat, the raise panel open, 인디언 포커's used cards) and the call that renders a view in
the fixture harness.

Apart from the tests because both halves of the audit (test_audit_fixes.py: nothing covers a seat;
test_audit_fixes_controls.py: buttons, rings, dialogs) render them.
"""

from __future__ import annotations

import copy
import json
import time
from typing import Any

from webplay import load

IDS = [f"p{i}" for i in range(1, 11)]


def render(page: Any, view: dict[str, Any]) -> None:
    sweep(page, "(v) => { window.renderView(v, v.me ? 'player' : 'spectator'); }", view)


def sweep(page: Any, script: str, views: Any) -> Any:
    """``page.evaluate(script, views)`` for a check over many views (``script``: a ``(views) => …`` function,
    async or not), the views handed over as one JSON text the page parses. Why: Playwright encodes an
    argument value by value, in Python and again in its driver; 706 views took 8.3 s that way against 0.6 s
    as text, where rendering all of them took 4.5 s."""
    return page.evaluate(f"(text) => ({script})(JSON.parse(text))", json.dumps(views))


def card(i: int) -> dict[str, Any]:
    i %= 52
    return {"id": i, "rank": 2 + i % 13, "suit": "SDHC"[i // 13]}


def hidden(n: int) -> list[dict[str, Any]]:
    return [{"hidden": True, "slot": k} for k in range(n)]


# mode: (template fixture, max players, hole cards, up cards, phases besides betting/handEnd/rebuy)
MODES: dict[str, tuple[str, int, int, int, list[str]]] = {
    "sevenPoker": ("seven_six_player", 6, 3, 4, ["choice"]),
    "sevenHiLo": ("hilo_declare", 6, 3, 4, ["choice", "declare"]),
    "badugi": ("badugi_draw", 6, 4, 0, ["draw"]),
    "fiveDraw": ("badugi_draw", 6, 5, 0, ["draw"]),
    "holdem": ("holdem_ten_player", 10, 2, 0, []),
    "omaha": ("holdem_ten_player", 10, 4, 0, []),
    "indian": ("indian_betting", 10, 0, 0, []),
    "indian2": ("indian_betting", 6, 1, 0, []),
}


def crowd_view(
    mode: str, n: int, phase: str, spectator: bool = False, deadline: bool = True
) -> dict[str, Any]:
    """A worst-case view: n players, each seat with marks, badges, bets and (at hand end) all cards shown."""
    template, _, n_hole, n_up, _ = MODES[mode]
    v = copy.deepcopy(load(template))
    real_mode = "indian" if mode == "indian2" else mode
    v["mode"] = real_mode
    v["options"] = {**v["options"], "mode": real_mode}
    if real_mode == "indian":
        v["options"]["indianCards"] = 2 if mode == "indian2" else 1
        v["options"]["indianDeck"] = "d52"
    korean = v["betting"] == "korean"
    shown = phase == "handEnd"
    proto = v["seats"][1]
    seats: list[dict[str, Any]] = []
    next_card = 0

    def deal(k: int) -> list[dict[str, Any]]:
        nonlocal next_card
        out = [card(next_card + j) for j in range(k)]
        next_card += k
        return out

    for i in range(n):
        s = copy.deepcopy(proto)
        pid = IDS[i]
        hole, up = (deal(4), []) if phase == "choice" else (deal(n_hole), deal(n_up))
        s.update(
            id=pid,
            seat=i,
            stack=1000 + 111 * i,
            status="playing",
            away=i == 3,
            inHand=True,
            folded=False,
            allIn=i == 2,
            dealer=i == 0,
            sun=i == 0 and korean,
            sb=i == 1 and not korean,
            bb=i == 2 and not korean,
            boss=i == 1 and korean,
            committedRound=1000 if phase == "betting" else 0,
            lastAction=("k.half" if korean else "nl.raise") if phase == "betting" else None,
            up=up,
            hole=hole if (shown or (spectator is False and i == 0)) else hidden(len(hole)),
            holeCount=len(hole),
            shown=shown,
            ready=shown,
            choiceDone=phase == "choice" and i % 2 == 0,
            drawDone=phase == "draw" and i % 2 == 0,
            drawCounts=[2, 1] if mode == "badugi" else [],
            declared=phase == "declare" and i % 2 == 0,
            declare="swing" if shown and mode == "sevenHiLo" else None,
        )
        if real_mode == "indian":
            s["forehead"] = deal(1)[0]
            s["hasForehead"] = True
        if phase == "rebuy":
            s.update(stack=0 if i % 2 else s["stack"], status="busted" if i % 2 else "playing", ready=False)
        seats.append(s)
    v["seats"] = seats
    v["phase"] = phase
    ids = [s["id"] for s in seats]
    v["board"] = deal(5) if real_mode in ("holdem", "omaha") else []
    v["toAct"] = ids[-1] if phase == "betting" else None
    v["pending"] = [ids[-1]] if phase == "betting" else ids if phase in ("choice", "draw", "declare") else []
    v["rebuyPending"] = [s["id"] for s in seats if s["status"] == "busted"] if phase == "rebuy" else []
    if phase == "rebuy":
        v["pending"] = list(v["rebuyPending"])
    v["deadlineAt"] = int(time.time() * 1000) + 15000 if deadline and phase != "handEnd" else None
    v["pots"] = [{"amount": 900 * n, "eligible": ids}, {"amount": 300, "eligible": ids[:2]}]
    v["potTotal"] = 1200 * n
    if shown:
        low = "7탑" if mode == "sevenHiLo" else None
        v["showdown"] = [
            {"id": pid, "cards": [], "best": [], "handName": "로열 스트레이트 플러시", "lowName": low}
            for pid in ids
        ]
        v["awards"] = [
            {"potIndex": 0, "to": ids[-1], "amount": 900 * n},
            {"potIndex": 1, "to": ids[1], "amount": 300},
        ]
        # everyone put 900 in the main pot, the first two 150 more each in the side pot; net: back less in
        v["handNet"] = {pid: -900 - (150 if i < 2 else 0) for i, pid in enumerate(ids)}
        v["handNet"][ids[-1]] += 900 * n
        v["handNet"][ids[1]] += 300
    else:
        v["showdown"] = None
        v["awards"] = None
        v["handNet"] = None
    if spectator:
        v["me"] = None
    else:
        me = v["me"]
        me.update(id=ids[0], seat=0, hole=seats[0]["hole"], up=seats[0]["up"], legalActions=[], hint=None)
        me["forehead"] = "?" if real_mode == "indian" else None
        me["choice"] = seats[0]["hole"] if phase == "choice" else None
        me["chosen"] = None
        me["drawPending"] = None
        me["declare"] = None
    return v


def all_crowd_views() -> list[tuple[str, dict[str, Any]]]:
    out = []
    for mode, (_, top, _, _, extra) in MODES.items():
        for n in range(2, top + 1):
            for phase in ["betting", "handEnd", "rebuy", *extra]:
                for spectator in (False, True):
                    label = f"{mode}/{n}/{phase}/{'spectator' if spectator else 'player'}"
                    out.append((label, crowd_view(mode, n, phase, spectator)))
    return out


def indian_view(
    n: int, phase: str, spectator: bool = False, used: int = 30, mode: str = "indian"
) -> dict[str, Any]:
    """A crowd view of 인디언 포커 (d52) with `used` cards already used in this deck."""
    v = crowd_view(mode, n, phase, spectator)
    v["indianUsed"] = [card(40 + 7 * k) for k in range(used)]  # 7 is coprime to 52: all different
    v["indianDeckLeft"] = 52 - used - n
    return v


def with_button_at(v: dict[str, Any], k: int) -> dict[str, Any]:
    """The same view with the dealer (선) at seat k, the blinds (보스) on the next seats."""
    v = copy.deepcopy(v)
    n = len(v["seats"])
    korean = v["betting"] == "korean"
    for i, s in enumerate(v["seats"]):
        d = (i - k) % n
        s.update(dealer=d == 0, sun=d == 0 and korean, sb=d == 1 and not korean, bb=d == 2 and not korean)
        s.update(boss=d == 1 and korean)
    return v


def raise_open(v: dict[str, Any]) -> dict[str, Any]:
    """My turn with a legal no-limit raise: the test opens the raise panel (the table area shrinks)."""
    v = copy.deepcopy(v)
    me = v["me"]["id"]
    v["toAct"] = me
    v["pending"] = [me]
    v["me"]["legalActions"] = [
        {"type": "nl.fold"},
        {"type": "nl.call", "amount": 40, "allIn": False},
        {"type": "nl.raise", "min": 80, "max": 880, "isBet": False},
        {"type": "nl.allIn", "amount": 880, "to": 880},
    ]
    v["openRaise"] = True
    return v


def button_views() -> list[tuple[str, dict[str, Any]]]:
    """Every mode and player count during a bet, for a player and a spectator, with the dealer (선) at each
    seat in turn (the marks and bet chips move with it), and for a no-limit player also with the raise panel
    to open: the views the bet chips and marks are held to (test_audit_fixes.py, test_wide_tables.py)."""
    views = []
    for mode, (_, top, *_rest) in MODES.items():
        for n in range(2, top + 1):
            for sp in (False, True):
                base = crowd_view(mode, n, "betting", sp)
                for k in range(n):
                    label = f"{mode}/{n}/{'spectator' if sp else 'player'}/button{k}"
                    v = with_button_at(base, k)
                    views.append((label, v))
                    if not sp and v["betting"] != "korean":
                        views.append((label + "/raise", raise_open(v)))
    return views
