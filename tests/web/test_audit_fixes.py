"""Fixes from the 390×844 UI audit: seat layout, rebuy ring, pot-limit quick button, rules table, labels.

Most checks render synthetic views (docs/view.md shape) through the fixture harness (no server).
"""

from __future__ import annotations

import copy
import sys
import time
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from webplay import harness, load, shot

pytestmark = pytest.mark.browser
IDS = [f"p{i}" for i in range(1, 11)]



def render(page: Any, view: dict[str, Any]) -> None:
    page.evaluate("(v) => window.renderView(v, v.me ? 'player' : 'spectator')", view)


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
    else:
        v["showdown"] = None
        v["awards"] = None
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


MEASURE_SEATS = r"""(views) => {
  const out = [];
  const W = window.innerWidth;
  for (const [label, v] of views) {
    window.renderView(v, v.me ? 'player' : 'spectator');
    const rs = [...document.querySelectorAll('.seat')]
      .map((e) => [e.dataset.seatId, e.getBoundingClientRect()]);
    for (const [id, r] of rs) {
      if (r.left < 0 || r.right > W) out.push(`${label}: ${id} out ${r.left}..${r.right}`);
    }
    for (let i = 0; i < rs.length; i++) for (let j = i + 1; j < rs.length; j++) {
      const a = rs[i][1], b = rs[j][1];
      const x = Math.min(a.right, b.right) - Math.max(a.left, b.left);
      const y = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
      const what = `${rs[i][0]} x ${rs[j][0]} ${Math.round(x)}x${Math.round(y)}`;
      if (x > 0.5 && y > 0.5) out.push(`${label}: ${what}`);
    }
    for (const c of document.querySelectorAll('.seat .card')) {
      const r = c.getBoundingClientRect();
      if (r.left < 0 || r.right > W) out.push(`${label}: card out ${r.left}..${r.right}`);
    }
  }
  return out;
}"""


def test_seats_never_overlap_at_390px_for_every_mode_count_and_phase(static_page: Any) -> None:
    page = harness(static_page, "seven_six_player")
    views = all_crowd_views()
    problems: list[str] = page.evaluate(MEASURE_SEATS, views)
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems[:40])
    render(page, crowd_view("sevenPoker", 6, "handEnd"))
    shot(page, "audit-seven-six-hand-end")
    render(page, crowd_view("sevenPoker", 6, "handEnd", spectator=True))
    shot(page, "audit-seven-six-hand-end-spectator")
    render(page, crowd_view("omaha", 10, "handEnd"))
    shot(page, "audit-omaha-ten-hand-end")


def overlaps(a: dict[str, float], b: dict[str, float]) -> bool:
    x = min(a["x"] + a["width"], b["x"] + b["width"]) - max(a["x"], b["x"])
    y = min(a["y"] + a["height"], b["y"] + b["height"]) - max(a["y"], b["y"])
    return x > 0.5 and y > 0.5


def test_rebuy_decision_shows_a_countdown_ring(static_page: Any) -> None:
    page = harness(static_page, "rebuy")
    view = load("rebuy")
    view["seats"][1].update(stack=0, status="busted")
    view["rebuyPending"] = ["p1", "p2"]
    view["pending"] = ["p1", "p2"]
    view["deadlineAt"] = int(time.time() * 1000) + 7500
    render(page, view)
    page.wait_for_timeout(300)
    mine = page.locator("[data-testid=me-area] .timer-ring")
    assert mine.count() == 1
    assert page.locator(".seat[data-seat-id=p2] .timer-ring").count() == 1
    # the rebuy decision has 15 s: half of it is left, so half of the ring is gone
    offset = float(mine.locator(".fg").get_attribute("stroke-dashoffset") or "0")
    circumference = 2 * 3.141592653589793 * 12
    assert abs(offset / circumference - 0.5) < 0.08
    assert int(mine.locator("text").text_content() or "0") in (7, 8)
    assert "urgent" not in (mine.get_attribute("class") or "")
    shot(page, "audit-rebuy-ring")
    view["deadlineAt"] = int(time.time() * 1000) + 3000
    render(page, view)
    page.wait_for_timeout(300)
    assert "urgent" in (page.locator("[data-testid=me-area] .timer-ring").get_attribute("class") or "")


def test_rebuy_phase_shows_no_stale_pot(static_page: Any) -> None:
    page = harness(static_page, "rebuy")
    view = load("rebuy")
    view["potTotal"] = 2000  # the last hand's pot, already paid out
    view["pots"] = [{"amount": 1500, "eligible": ["p1", "p2"]}, {"amount": 500, "eligible": ["p2"]}]
    render(page, view)
    pot = page.locator("[data-testid=pot]").inner_text()
    assert "2,000" not in pot and "1,500" not in pot
    assert page.locator(".side-pot").count() == 0


def test_pot_limit_cap_quick_button_is_max_not_all_in(static_page: Any) -> None:
    page = harness(static_page, "holdem_raise")
    page.click("[data-action='nl.raise']")
    assert page.locator("[data-quick=max]").inner_text() == "올인"  # no limit: the top is my whole stack
    view = load("holdem_raise")
    view["options"]["betting"] = "potLimit"
    view["betting"] = "potLimit"
    me = next(s for s in view["seats"] if s["id"] == view["me"]["id"])
    me["stack"] = 1000
    view["me"]["legalActions"] = [
        {"type": "nl.fold"},
        {"type": "nl.call", "amount": 40, "allIn": False},
        {"type": "nl.raise", "min": 80, "max": 310, "isBet": False},
    ]
    render(page, view)  # same turn: the panel stays open
    quick = page.locator("[data-quick=max]")
    assert quick.inner_text() == "최대"
    quick.click()
    assert page.locator("[data-testid=raise-amount]").inner_text() == "레이즈 310까지"
    shot(page, "audit-pot-limit-max")


def test_settings_dialog_outside_a_room_prints_no_null(live_server: Any, open_page: Any) -> None:
    page = open_page("settings")
    page.goto(live_server.http + "/")
    page.click("#btn-settings")
    body = page.locator("#settings-body")
    assert body.is_visible()
    assert "null" not in body.inner_text()
    assert page.evaluate(
        "() => [...document.querySelector('#settings-body').childNodes].every(n => n.nodeType === 1)"
    )
    assert page.locator("[data-testid=leave]").count() == 0
    shot(page, "audit-settings-lobby")


@pytest.mark.parametrize("mode", ["sevenPoker", "sevenHiLo", "holdem", "badugi"])
def test_rules_ranking_table_is_readable_on_a_phone(live_server: Any, open_page: Any, mode: str) -> None:
    page = open_page("rules")
    page.goto(live_server.http + "/")
    page.click("#btn-rules")
    page.select_option("#rules-mode", mode)
    dlg = page.locator("#dlg-rules")
    # the width of the element that holds each row's description (the text after the name, not the cards)
    widths: list[float] = page.evaluate(
        """() => [...document.querySelectorAll('#dlg-rules .rank-table tr')].map((tr) => {
          const texts = [];
          const walker = document.createTreeWalker(tr, NodeFilter.SHOW_TEXT);
          for (let n = walker.nextNode(); n; n = walker.nextNode()) {
            if (n.textContent.trim() && !n.parentElement.closest('.ex')) texts.push(n);
          }
          return texts.length > 1 ? texts[texts.length - 1].parentElement.getBoundingClientRect().width : 0;
        })"""
    )
    assert len(widths) >= 6 and min(widths) >= 120, widths
    # nothing sticks out of the dialog sideways
    body = dlg.locator(".dlg-body")
    assert body.evaluate("e => e.scrollWidth <= e.clientWidth + 1")
    if mode == "sevenPoker":
        page.locator("#dlg-rules .rank-table").first.scroll_into_view_if_needed()
        shot(page, "audit-rules-seven")


def test_boss_mark_has_a_crown(static_page: Any) -> None:
    page = harness(static_page, "seven_betting_me")
    boss = page.locator(".seat[data-seat-id=p2] .mark.boss")
    assert boss.count() == 1
    assert boss.get_attribute("aria-label") == "보스"
    assert boss.locator("svg.crown").count() == 1
    box = boss.locator("svg.crown").bounding_box()
    assert box and box["width"] >= 10
    page.locator(".seat[data-seat-id=p2]").screenshot(
        path=str(Path(__file__).resolve().parents[2] / "artifacts/screenshots/audit-boss-crown.png")
    )


BUTTON_TEXT = r"""(sel) => {
  const out = [];
  const W = window.innerWidth;
  for (const b of document.querySelectorAll(sel)) {
    const br = b.getBoundingClientRect();
    if (br.left < 0 || br.right > W) out.push(`button out of screen: ${b.innerText}`);
    if (b.scrollWidth > b.clientWidth + 1) out.push(`overflow: ${b.innerText}`);
    const walker = document.createTreeWalker(b, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      if (!n.textContent.trim()) continue;
      const size = parseFloat(getComputedStyle(n.parentElement).fontSize);
      if (size < 18) out.push(`${size}px: ${n.textContent}`);
      const range = document.createRange();
      range.selectNodeContents(n);
      for (const r of range.getClientRects()) {
        if (r.left < br.left - 0.5 || r.right > br.right + 0.5) out.push(`text outside: ${n.textContent}`);
      }
    }
  }
  return out;
}"""


def test_action_button_texts_are_18px_and_fit(static_page: Any) -> None:
    page = harness(static_page, "seven_betting_me")
    view = load("seven_betting_me")
    view["me"]["legalActions"] = [
        {"type": "k.die", "amount": 0, "allIn": False},
        {"type": "k.call", "amount": 1000, "allIn": False},
        {"type": "k.ddadang", "amount": 2000, "allIn": False},
        {"type": "k.quarter", "amount": 1250, "allIn": False},
        {"type": "k.half", "amount": 2500, "allIn": False},
        {"type": "k.full", "amount": 9990, "allIn": True},
    ]
    render(page, view)
    assert page.locator(".actions.korean button").count() == 8
    assert page.locator("[data-action='k.call']").inner_text().replace("\n", " ") == "콜 (+1,000)"
    problems: list[str] = page.evaluate(BUTTON_TEXT, ".actions button")
    assert not problems, problems
    for b in page.locator(".actions button").all():
        box = b.bounding_box()
        assert box and box["height"] >= 56
    shot(page, "audit-korean-buttons-1000")
    # no limit: call / all-in amounts
    page2 = harness(static_page, "holdem_raise")
    problems = page2.evaluate(BUTTON_TEXT, ".actions button")
    assert not problems, problems
    page2.click("[data-action='nl.raise']")
    problems = page2.evaluate(BUTTON_TEXT, ".actions button, .raise-panel .confirm-row button")
    assert not problems, problems
    # hi-lo: the hand names under 하이 / 로우 / 스윙
    page3 = harness(static_page, "hilo_declare")
    hilo = load("hilo_declare")
    hilo["me"]["handName"] = "백 스트레이트 플러시"
    hilo["me"]["lowName"] = "7탑"
    render(page3, hilo)
    problems = page3.evaluate(BUTTON_TEXT, ".actions button")
    assert not problems, problems
    shot(page3, "audit-hilo-buttons")


def test_timer_rings_stay_inside_the_screen(static_page: Any) -> None:
    page = harness(static_page, "seven_six_player")
    views = []
    for mode, phase, top in [("sevenPoker", "choice", 6), ("badugi", "draw", 6), ("sevenHiLo", "declare", 6)]:
        for n in range(2, top + 1):
            for spectator in (False, True):
                views.append(crowd_view(mode, n, phase, spectator))
    for n in range(2, 11):
        for k in range(n):
            v = crowd_view("holdem", n, "betting", spectator=True)
            v["toAct"] = v["seats"][k]["id"]
            views.append(v)
    out: list[str] = page.evaluate(
        """(views) => {
      const out = [];
      for (const v of views) {
        window.renderView(v, v.me ? 'player' : 'spectator');
        const rings = document.querySelectorAll('.timer-ring');
        if (!rings.length) out.push(`${v.mode} ${v.seats.length} ${v.phase}: no ring`);
        for (const r of rings) {
          const b = r.getBoundingClientRect();
          const label = `${v.mode} ${v.seats.length} ${v.phase}`;
          if (b.left < 0 || b.right > window.innerWidth) out.push(`${label}: ${b.left}..${b.right}`);
        }
      }
      return out;
    }""",
        views,
    )
    assert not out, out[:20]
    render(page, crowd_view("sevenPoker", 4, "choice"))
    shot(page, "audit-rings-choice")


def test_hand_end_banner_hides_no_seat(static_page: Any) -> None:
    page = harness(static_page, "holdem_showdown")
    views = [
        crowd_view(mode, n, "handEnd", spectator)
        for mode, (_, top, *_rest) in MODES.items()
        for n in range(2, top + 1)
        for spectator in (False, True)
    ]
    views.append(load("holdem_showdown"))
    out: list[str] = page.evaluate(
        """(views) => {
      const out = [];
      const hit = (a, b) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > 0.5
        && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 0.5;
      for (const v of views) {
        window.renderView(v, v.me ? 'player' : 'spectator');
        const banner = document.querySelector('[data-testid=hand-result]');
        if (!banner) { out.push(`${v.mode} ${v.seats.length}: no banner`); continue; }
        const b = banner.getBoundingClientRect();
        const label = `${v.mode} ${v.seats.length} ${v.me ? 'player' : 'spectator'}`;
        if (b.left < 0 || b.right > window.innerWidth) out.push(`${label}: banner out`);
        for (const s of document.querySelectorAll('.seat')) {
          if (hit(b, s.getBoundingClientRect())) out.push(`${label}: covers ${s.dataset.seatId}`);
        }
      }
      return out;
    }""",
        views,
    )
    assert not out, out[:30]
    render(page, load("holdem_showdown"))
    assert page.locator("[data-testid=hand-result]").inner_text() == "민수 +320 · 플러시"
    lines = page.evaluate(
        "() => { const r = document.createRange();"
        " r.selectNodeContents(document.querySelector('.banner .big').firstChild);"
        " return new Set([...r.getClientRects()].map(x => Math.round(x.top))).size; }"
    )
    assert lines == 1  # not squeezed into two lines
    shot(page, "audit-banner-holdem")
    render(page, crowd_view("omaha", 10, "handEnd"))
    shot(page, "audit-banner-omaha-ten")



def indian_view(
    n: int, phase: str, spectator: bool = False, used: int = 30, mode: str = "indian"
) -> dict[str, Any]:
    """A crowd view of 인디언 포커 (d52) with `used` cards already used in this deck."""
    v = crowd_view(mode, n, phase, spectator)
    v["indianUsed"] = [card(40 + 7 * k) for k in range(used)]  # 7 is coprime to 52: all different
    v["indianDeckLeft"] = 52 - used - n
    return v


# the shared head of the measuring scripts below: render each (label, view), collect problems in `out`
_VIEWS_HEAD = r"""(views) => {
  const out = [];
  const W = window.innerWidth;
  const hit = (a, b) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > 0.5
    && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 0.5;
  for (const [label, v] of views) {
    window.renderView(v, v.me ? 'player' : 'spectator');"""

# the used-cards panel, the rest of the centre (pot, side pots) and the hand-end banner against each seat
CENTER_CLEAR = _VIEWS_HEAD + r"""    const seats = [...document.querySelectorAll('.seat')];
    const panel = document.querySelector('[data-testid=used-panel]');
    if (!panel) { out.push(`${label}: no used panel`); continue; }
    const parts = [['used-panel', panel], ...[...document.querySelectorAll('.center > *, .banner')]
      .filter((e) => e !== panel).map((e) => [e.className, e])];
    for (const [name, e] of parts) {
      const r = e.getBoundingClientRect();
      if (!r.width || !r.height) continue;
      if (r.left < 0 || r.right > W) out.push(`${label}: ${name} out ${r.left}..${r.right}`);
      for (const s of seats) {
        if (hit(r, s.getBoundingClientRect())) out.push(`${label}: ${name} covers ${s.dataset.seatId}`);
      }
    }
    // the grid itself stays on screen (not folded away) and readable
    if (panel.classList.contains('folded') && !window.foldOk) out.push(`${label}: grid folded`);
    const c = panel.querySelector('td').getBoundingClientRect();
    if (c.width && (c.width < 11.5 || c.height < 11.5)) out.push(`${label}: cells ${c.width}x${c.height}`);
  }
  return out;
}"""


def test_indian_used_cards_panel_covers_no_seat(static_page: Any) -> None:
    page = harness(static_page, "indian_betting")
    # 8 to 10 players (d52 with one card each) with 30 cards used: the panel against every seat box
    crowded = [
        (f"indian/{n}/{phase}/{'spectator' if sp else 'player'}", indian_view(n, phase, sp))
        for n in (8, 9, 10)
        for phase in ("betting", "handEnd", "rebuy")
        for sp in (False, True)
    ]
    problems: list[str] = page.evaluate(CENTER_CLEAR, crowded)
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems[:40])
    render(page, indian_view(10, "betting"))
    assert page.locator("[data-testid=used-panel] td.used").count() == 30
    assert "사용된 카드 30장" in page.locator("[data-testid=used-panel]").inner_text()
    shot(page, "audit-indian-ten-used")
    render(page, indian_view(8, "handEnd"))
    shot(page, "audit-indian-eight-hand-end")
    render(page, indian_view(9, "betting", spectator=True))
    shot(page, "audit-indian-nine-spectator")
    # every other count, both decks' card counts, however many cards are used
    views = [
        (f"{mode}/{n}/{phase}/{'spectator' if sp else 'player'}/{k}", indian_view(n, phase, sp, k, mode))
        for mode, top in (("indian", 10), ("indian2", 6))
        for n in range(2, top + 1)
        for phase in ("betting", "handEnd", "rebuy")
        for sp in (False, True)
        for k in (0, 52 - n * (2 if mode == "indian2" else 1))
    ]
    problems = page.evaluate(CENTER_CLEAR, views)
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems[:40])


def test_indian_used_cards_fold_into_a_count_on_a_short_phone(static_page: Any) -> None:
    # 375×600 during a bet with one opponent: no band below the top seat is tall enough for the grid
    # (at 375×667 the short-phone my-area now leaves the grid room enough)
    page = harness(static_page, "indian_betting", {"width": 375, "height": 600})
    page.evaluate("() => { window.foldOk = true; }")
    problems: list[str] = page.evaluate(CENTER_CLEAR, [["indian/2/betting", indian_view(2, "betting")]])
    assert not problems, problems
    panel = page.locator("[data-testid=used-panel]")
    assert "folded" in (panel.get_attribute("class") or "")
    assert not panel.locator("table").is_visible()
    assert "사용된 카드 30장" in panel.inner_text()
    shot(page, "audit-indian-folded")
    toggle = panel.locator(".used-toggle")
    assert toggle.inner_text() == "보기"
    toggle.click()
    assert panel.locator("table").is_visible()
    assert toggle.inner_text() == "닫기"
    # opened over the table, but inside the table area (not over my cards)
    box, area = panel.bounding_box(), page.locator(".table-main").bounding_box()
    assert box and area and area["y"] <= box["y"] and box["y"] + box["height"] <= area["y"] + area["height"]
    shot(page, "audit-indian-folded-open")
    toggle.click()
    assert not panel.locator("table").is_visible()


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


# every bet chip and D / SB / BB / 선 / 보스 mark against every other seat's box
CHIPS_CLEAR = _VIEWS_HEAD + r"""    if (v.openRaise) {
      document.querySelector("[data-action='nl.raise']").click();
      if (!document.querySelector('[data-testid=raise-panel]')) {
        out.push(`${label}: no raise panel`);
        continue;
      }
    }
    const seats = [...document.querySelectorAll('.seat')];
    const chips = document.querySelectorAll('.seat > .bet-chip').length;
    const want = v.seats.filter((s) => s.committedRound > 0 && s.id !== v.me?.id).length;
    if (chips !== want) out.push(`${label}: ${chips} chips, want ${want}`);
    for (const s of seats) {
      for (const e of s.querySelectorAll(':scope > .bet-chip, .marks .mark')) {
        const r = e.getBoundingClientRect();
        if (r.left < 0 || r.right > W) out.push(`${label}: ${s.dataset.seatId} ${e.className} out`);
        for (const o of seats) {
          if (o !== s && hit(r, o.getBoundingClientRect())) {
            out.push(`${label}: ${s.dataset.seatId} ${e.className} covers ${o.dataset.seatId}`);
          }
        }
      }
    }
  }
  return out;
}"""


def test_bet_chips_and_marks_cover_no_other_seat(static_page: Any) -> None:
    page = harness(static_page, "holdem_ten_player")
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
    problems: list[str] = page.evaluate(CHIPS_CLEAR, views)
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems[:40])
    render(page, indian_view(10, "betting"))
    shot(page, "audit-chips-indian-ten")
    render(page, crowd_view("holdem", 10, "betting"))
    shot(page, "audit-chips-holdem-ten")
    render(page, raise_open(crowd_view("omaha", 9, "betting")))
    page.click("[data-action='nl.raise']")
    shot(page, "audit-chips-omaha-nine-raise")
    render(page, crowd_view("sevenPoker", 6, "betting", spectator=True))
    shot(page, "audit-chips-seven-six-spectator")


# the centre (pot, side pots, board, carry-over) against every seat box
POT_CLEAR = _VIEWS_HEAD + r"""    if (v.openRaise) document.querySelector("[data-action='nl.raise']").click();
    const seats = [...document.querySelectorAll('.seat')];
    for (const e of document.querySelectorAll('.center > *')) {
      const r = e.getBoundingClientRect();
      if (!r.width || !r.height) continue;
      if (r.left < 0 || r.right > W) out.push(`${label}: ${e.className} out ${r.left}..${r.right}`);
      for (const s of seats) {
        const name = s.dataset.seatId;
        if (hit(r, s.getBoundingClientRect())) out.push(`${label}: ${e.className} covers ${name}`);
      }
    }
  }
  return out;
}"""


def test_pot_and_side_pots_cover_no_seat(static_page: Any) -> None:
    page = harness(static_page, "holdem_ten_player")
    views = all_crowd_views()
    views += [
        (f"{mode}/{n}/betting/player/raise", raise_open(crowd_view(mode, n, "betting")))
        for mode in ("holdem", "omaha", "indian", "indian2")
        for n in range(2, MODES[mode][1] + 1)
    ]
    problems: list[str] = page.evaluate(POT_CLEAR, views)
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems[:40])
    render(page, crowd_view("sevenHiLo", 6, "betting"))
    shot(page, "audit-side-pots-hilo-six")
    render(page, crowd_view("holdem", 10, "betting", spectator=True))
    shot(page, "audit-side-pots-holdem-ten-spectator")
