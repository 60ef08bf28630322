"""Fixes from the 390×844 UI audit, the layout half: no seat overlaps another, and nothing (timer rings, the
hand-end banner, 인디언 포커's used cards, bet chips and marks, the pots) covers a seat, for every mode,
player count and phase.

The views are synthetic (crowd_views.py) and rendered through the fixture harness (no server); the buttons,
rings and dialogs of the audit are in test_audit_fixes_controls.py.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from crowd_views import (
    MODES,
    all_crowd_views,
    button_views,
    crowd_view,
    indian_view,
    raise_open,
    render,
    sweep,
)
from webplay import harness, load, shot

pytestmark = pytest.mark.browser


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
    problems: list[str] = sweep(page, MEASURE_SEATS, views)
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems[:40])
    render(page, crowd_view("sevenPoker", 6, "handEnd"))
    shot(page, "audit-seven-six-hand-end")
    render(page, crowd_view("sevenPoker", 6, "handEnd", spectator=True))
    shot(page, "audit-seven-six-hand-end-spectator")
    render(page, crowd_view("omaha", 10, "handEnd"))
    shot(page, "audit-omaha-ten-hand-end")


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
    out: list[str] = sweep(
        page,
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
    out: list[str] = sweep(
        page,
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
    # the winner's net (320 collected, 140 of it their own), the pot in smaller type
    assert page.locator("[data-testid=hand-result]").inner_text() == "민수 +180 · 플러시 판돈 320"
    # the winner's line (name, net, hand, the pot in smaller type) is one line high: not squeezed into two
    lines = page.evaluate(
        "() => { const big = document.querySelector('.banner .big');"
        " return big.getBoundingClientRect().height / parseFloat(getComputedStyle(big).lineHeight); }"
    )
    assert lines < 1.5, lines
    shot(page, "audit-banner-holdem")
    render(page, crowd_view("omaha", 10, "handEnd"))
    shot(page, "audit-banner-omaha-ten")


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
    problems: list[str] = sweep(page, CENTER_CLEAR, crowded)
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
    problems = sweep(page, CENTER_CLEAR, views)
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems[:40])


#: after the frame that placed it: the hand-end banner's box against each centre part but the board's cards,
#: [part's class, covered in part, drawn]
UNDER_BANNER = r"""async () => {
  await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  const banner = document.querySelector('.table-main > .banner');
  if (!banner) return null;
  const b = banner.getBoundingClientRect();
  return [...document.querySelectorAll('.table-main > .center > :not(.board)')].map((e) => {
    const r = e.getBoundingClientRect();
    const over = Math.min(r.right, b.right) > Math.max(r.left, b.left)
      && Math.min(r.bottom, b.bottom) > Math.max(r.top, b.top);
    return [e.className, over, getComputedStyle(e).visibility === 'visible'];
  });
}"""


def test_a_banner_over_the_centre_leaves_no_cut_edges_around_it(static_page: Any) -> None:
    """A tall phone's table does not grow, so at a hand's end the banner may find no place clear of the centre
    and lie over it (Indian poker at 360×740: the pot and the used-cards grid under it). What it covers is
    not drawn then (the banner says the pot); what it does not cover stays; the next deal draws it all."""
    page = harness(static_page, "indian_betting", {"width": 360, "height": 740})
    covered = 0
    for n in range(2, 7):
        for used in (4, 20):
            render(page, indian_view(n, "handEnd", used=used))
            parts = page.evaluate(UNDER_BANNER)
            assert parts, (n, used)
            assert all(over != drawn for _, over, drawn in parts), (n, used, parts)
            covered += sum(over for _, over, _ in parts)
    assert covered, "no case put the banner over the centre"
    shot(page, "audit-indian-banner-over-centre")
    render(page, indian_view(4, "betting"))
    assert page.evaluate(UNDER_BANNER) is None  # (no banner)
    assert page.locator(".center > .under-banner").count() == 0


# the hand-end banner against each seat's marks (선, D, SB, BB, 보스: astride the seat's top edge, outside it)
BANNER_MARKS = _VIEWS_HEAD + r"""    const banner = document.querySelector('.table-main > .banner');
    if (!banner) { out.push(`${label}: no banner`); continue; }
    const b = banner.getBoundingClientRect();
    for (const m of document.querySelectorAll('.seat .marks .mark')) {
      if (hit(b, m.getBoundingClientRect())) out.push(`${label}: ${m.textContent}`);
    }
  }
  return out;
}"""


@pytest.mark.parametrize("size", [{"width": 390, "height": 844}, {"width": 360, "height": 740},
                                  {"width": 320, "height": 568}], ids=["390", "360", "320"])
def test_the_hand_end_banner_covers_no_seats_mark(static_page: Any, size: dict[str, int]) -> None:
    """A spectator's 5- or 6-handed hold'em at 390×844 had the banner over the SB mark of a side seat (it kept
    off the seats' boxes, and a mark sits half outside its seat's)."""
    page = harness(static_page, "holdem_ten_player", size)
    views = [(f"{mode}/{n}/{'spectator' if sp else 'player'}", crowd_view(mode, n, "handEnd", sp))
             for mode, (_, top, *_rest) in MODES.items() for n in range(2, top + 1) for sp in (False, True)]
    problems = sweep(page, BANNER_MARKS, views)
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems[:40])


def test_indian_used_cards_fold_into_a_count_on_a_short_phone(static_page: Any) -> None:
    # 375×600 during a bet with one opponent: no band below the top seat is tall enough for the grid
    # (at 375×667 the short-phone my-area now leaves the grid room enough)
    page = harness(static_page, "indian_betting", {"width": 375, "height": 600})
    page.evaluate("() => { window.foldOk = true; }")
    problems: list[str] = sweep(page, CENTER_CLEAR, [["indian/2/betting", indian_view(2, "betting")]])
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
    problems: list[str] = sweep(page, CHIPS_CLEAR, button_views())
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
    problems: list[str] = sweep(page, POT_CLEAR, views)
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems[:40])
    render(page, crowd_view("sevenHiLo", 6, "betting"))
    shot(page, "audit-side-pots-hilo-six")
    render(page, crowd_view("holdem", 10, "betting", spectator=True))
    shot(page, "audit-side-pots-holdem-ten-spectator")
