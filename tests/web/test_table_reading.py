"""Reading the table, in the browser: text sizes and contrast measured from computed styles, opponents' open
cards at least 40 px tall, the net result, first-hand tips that cover nothing and stay closed, and every mode
on small phones (360×640, 320×568) checked with bounding boxes (the hands' names and why a pot was won:
test_names_and_why.py).

Most checks render synthetic views (docs/view.md shape) through the fixture harness (no server).
"""

from __future__ import annotations

import copy
import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from crowd_views import sweep
from test_audit_fixes import (
    _VIEWS_HEAD,
    CHIPS_CLEAR,
    MEASURE_SEATS,
    MODES,
    POT_CLEAR,
    crowd_view,
    raise_open,
    render,
)
from test_english import OVERFLOW_JS
from webplay import create_room_ui, harness, load, shot

pytestmark = pytest.mark.browser

PHONES = {"360x640": {"width": 360, "height": 640}, "320x568": {"width": 320, "height": 568}}
MOBILE = {"width": 390, "height": 844}


def card(rank: int, suit: str) -> dict[str, Any]:
    return {"id": "SDHC".index(suit) * 13 + rank - 2, "rank": rank, "suit": suit}


# ------------------------------------------------------------------------------ text size and contrast

# every text node of the table (seats, centre, banner, phase line, my area): its computed font size, and its
# contrast against the background it is drawn on (backgrounds composited up to the felt, whose lightest
# colour is the worst case; opacity of the ancestors applied). Folded seats' cards are left out (faded on
# purpose: not in play), and so are the SVG card faces (scaled drawings, not text) and disabled buttons.
TEXT_AUDIT = r"""(views) => {
  const FELT = [23, 128, 79];  // #17804f, the centre of the felt gradient
  const BODY = [11, 29, 20];
  const parse = (s) => {
    const m = s.match(/rgba?\(([^)]+)\)/);
    if (!m) return null;
    const p = m[1].split(/[ ,/]+/).filter(Boolean).map(Number);
    return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
  };
  const over = (top, base) => [0, 1, 2].map((i) => top[i] * top[3] + base[i] * (1 - top[3]));
  const lum = (c) => {
    const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]);
  };
  const ratio = (a, b) => {
    const x = lum(a), y = lum(b);
    return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05);
  };
  const out = { problems: [], minSize: 99, minContrast: 99, worst: '' };
  for (const [label, v] of views) {
    window.renderView(v, v.me ? 'player' : 'spectator');
    const roots = document.querySelectorAll('.table-main, .me-area');
    for (const root of roots) {
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        const el = n.parentElement;
        // disabled buttons are inactive controls (WCAG 1.4.3 exempts them): their grey says "not now"
        const skip = 'svg, .sr-only, .seat.folded .cards, button:disabled';
        if (!n.textContent.trim() || el.closest(skip)) continue;
        const r = el.getBoundingClientRect();
        if (!r.width || !r.height) continue;
        const cs = getComputedStyle(el);
        if (cs.visibility === 'hidden' || cs.display === 'none') continue;
        const size = parseFloat(cs.fontSize);
        // the background: own and ancestors' colours, composited from the felt (table) or the page up
        const layers = [];
        let opacity = 1;
        let base = BODY;
        for (let e = el; e && e !== document.body; e = e.parentElement) {
          const s = getComputedStyle(e);
          opacity *= parseFloat(s.opacity);
          const bg = parse(s.backgroundColor);
          if (bg && bg[3] > 0) layers.push(bg);
          if (bg && bg[3] >= 1) { base = null; break; }
          if (e.classList.contains('table-main')) { base = FELT; break; }
        }
        let bg = base ?? [0, 0, 0];
        for (let i = layers.length - 1; i >= 0; i--) {
          bg = layers[i][3] >= 1 ? layers[i].slice(0, 3) : over(layers[i], bg);
        }
        const fg = parse(cs.color);
        let col = over(fg, bg);
        col = over([...col, opacity], bg);
        const c = ratio(col, bg);
        const what = `${label}: "${n.textContent.trim().slice(0, 16)}" (${el.className || el.tagName})`;
        if (size < out.minSize) out.minSize = size;
        if (c < out.minContrast) { out.minContrast = c; out.worst = what; }
        if (size < 11.95) out.problems.push(`${what} ${size}px`);
        if (c < 4.5) out.problems.push(`${what} contrast ${c.toFixed(2)}`);
      }
    }
  }
  return out;
}"""


def audit_views() -> list[tuple[str, dict[str, Any]]]:
    out = []
    for mode, (_, top, _h, _u, extra) in MODES.items():
        for n in sorted({2, 4, top}):
            for phase in ["betting", "handEnd", "rebuy", *extra]:
                for spectator in (False, True):
                    v = crowd_view(mode, n, phase, spectator)
                    if n == top and phase == "betting":
                        v["seats"][1]["folded"] = True
                    out.append((f"{mode}/{n}/{phase}/{'spectator' if spectator else 'player'}", v))
    return out


@pytest.mark.parametrize("size", ["390x844", *PHONES])
def test_table_text_is_at_least_12px_with_contrast_4_5(static_page: Any, size: str) -> None:
    viewport = PHONES.get(size, MOBILE)
    page = harness(static_page, "seven_six_player", viewport)
    result: dict[str, Any] = sweep(page, TEXT_AUDIT, audit_views())
    low = f"{result['minContrast']:.2f} ({result['worst']})"
    print(f"\n{size}: min text {result['minSize']}px, min contrast {low}")
    problems = result["problems"]
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(sorted(set(problems))[:40])
    assert result["minSize"] >= 12 and result["minContrast"] >= 4.5


def test_opponents_open_cards_are_40px_tall_in_seven_poker(static_page: Any) -> None:
    for size, viewport in [("390x844", MOBILE), *PHONES.items()]:
        page = harness(static_page, "seven_six_player", viewport)
        heights: list[float] = sweep(
            page,
            """(views) => views.flatMap((v) => { window.renderView(v, v.me ? 'player' : 'spectator');
              return [...document.querySelectorAll('.seat .card.mini.up')]
                .map((c) => c.getBoundingClientRect().height); })""",
            [crowd_view(mode, n, phase, sp) for mode in ("sevenPoker", "sevenHiLo") for n in range(2, 7)
             for phase in ("betting", "handEnd") for sp in (False, True)],
        )
        assert heights and min(heights) >= 40, (size, min(heights))
        render(page, crowd_view("sevenPoker", 6, "betting"))
        shot(page, f"reading-seven-six-open-cards-{size}")


# ------------------------------------------------------------------------------------------- result


def test_result_shows_each_players_net_beside_final_chips(live_server: Any, open_page: Any) -> None:
    page = open_page("result", MOBILE)
    room = live_server.create_room("방장입니다요", mode="holdem")
    page.goto(f"{live_server.http}/r/{room['code']}")
    page.evaluate("([c, t]) => localStorage.setItem(`pokerroom:${c}`, t)", [room["code"], room["token"]])
    page.reload()
    page.wait_for_selector("[data-testid=room-code]")
    # the finished game of the issue: the host lost 94 (906 of 1,000), the other won 94
    page.evaluate(
        """() => { const r = window.__room;
          r.lobby = { ...r.lobby, phase: 'finished' };
          r.result = { summary: '20판 종료. 1위 p2(+1,094칩)', stats: { handsPlayed: 20 }, ranking: [
            { playerId: 'p2', rank: 1, score: 1094, finalChips: 1094, rebuys: 0, net: 94 },
            { playerId: r.playerId, rank: 2, score: 906, finalChips: 906, rebuys: 0, net: -94 } ] };
          r.render(); }"""
    )
    page.wait_for_selector("[data-testid=result]")
    nets = page.locator("[data-testid=net]").all_inner_texts()
    assert nets == ["+94칩", "−94칩"]
    mine = page.locator(".me-row").inner_text()
    assert "906" in mine and "−94칩" in mine and "+906" not in mine
    shot(page, "reading-result-net")
    # the narrowest phone: the host's 한 판 더 is read on one line (squeezed between 설정 바꾸기 and 나가기 it
    # went down letter by letter; it goes under them instead), in large text as well
    page.set_viewport_size({"width": 320, "height": 568})
    lines = ("(b) => { const r = document.createRange(); r.selectNodeContents(b);"
             " return r.getClientRects().length; }")
    assert page.locator("[data-testid=again]").evaluate(lines) == 1
    # large text on the narrowest phone: six columns are wider than the screen; the table's own box scrolls
    # sideways, the page does not, and my net is in view
    page.evaluate("() => { document.body.classList.add('large-text'); window.__room.render(); }")
    page.wait_for_selector("[data-testid=result]")
    assert page.locator("[data-testid=again]").evaluate(lines) == 1
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 320
    net = page.locator(".me-row [data-testid=net]").bounding_box()
    assert net is not None and net["x"] + net["width"] <= 320, net


# ------------------------------------------------------------------------------------------- tips

TIP_CLEAR = _VIEWS_HEAD + r"""    const tip = document.querySelector('[data-testid=tip]');
    if (!tip) { out.push(`${label}: no tip`); continue; }
    const t = tip.getBoundingClientRect();
    // the tip sits below the whole table area (where seats, pot and banner are) and beside my cards and
    // buttons; a seat pushed out of the table on a too-small phone is the small-phone test's business
    const areas = '.table-main, .center > *, .banner, [data-testid=my-cards] .card, .actions';
    for (const e of document.querySelectorAll(areas)) {
      const r = e.getBoundingClientRect();
      if (r.width && hit(t, r)) out.push(`${label}: tip covers ${e.className}`);
    }
  }
  return out;
}"""


def first_hand(v: dict[str, Any], my_turn: bool = True) -> dict[str, Any]:
    v = copy.deepcopy(v)
    v["handNo"] = 1
    if my_turn:
        me = v["me"]["id"]
        v["toAct"] = me
        call = {"type": "k.call", "amount": 10, "allIn": False}
        korean = [{"type": "k.die", "amount": 0, "allIn": False}, call]
        nl = [{"type": "nl.fold"}, {"type": "nl.call", "amount": 10, "allIn": False}]
        v["me"]["legalActions"] = korean if v["betting"] == "korean" else nl
    return v


def test_first_hand_tips_cover_nothing_and_stay_closed(static_page: Any) -> None:
    for size, viewport in [("390x844", MOBILE), *PHONES.items()]:
        page = harness(static_page, "seven_betting_me", viewport)
        page.evaluate("() => { window.tips = true; }")
        views = [(f"{mode}/{n}", first_hand(crowd_view(mode, n, "betting")))
                 for mode, (_, top, *_r) in MODES.items() for n in (2, top)]
        views += [(f"{mode}/choice", first_hand(crowd_view(mode, n, "choice"), my_turn=False))
                  for mode in ("sevenPoker", "sevenHiLo") for n in (2, 6)]
        for label, v in views:
            if "choice" in label:
                ids = [c["id"] for c in v["me"]["choice"]]
                v["me"]["legalActions"] = [{"type": "choose", "cardIds": ids}]
        problems: list[str] = sweep(page, TIP_CLEAR, views)
        assert not problems, f"{size}: " + "\n".join(problems[:30])
        render(page, views[0][1])
        shot(page, f"reading-tip-{size}")
        # on a short phone the tip is one line until asked: the table keeps its room
        with_tip = page.evaluate("() => document.querySelector('.table-main').getBoundingClientRect().height")
        page.evaluate("() => { window.tips = false; }")
        render(page, views[0][1])
        without = page.evaluate("() => document.querySelector('.table-main').getBoundingClientRect().height")
        page.evaluate("() => { window.tips = true; }")
        if viewport["height"] <= 700:
            assert without - with_tip <= 40, (size, without, with_tip)
            render(page, views[0][1])
            page.click("[data-testid=tip] .tip-toggle")
            assert page.locator("[data-testid=tip] .tip-text").is_visible()
            shot(page, f"reading-tip-open-{size}")
    # closed once: gone on the next render, and after a reload
    page = harness(static_page, "seven_betting_me")
    page.evaluate("() => { window.tips = true; }")
    v = first_hand(load("seven_betting_me"))
    render(page, v)
    assert page.locator("[data-testid=tip]").count() == 1
    page.locator("[data-testid=tip] button", has_text="닫기").click()
    assert page.locator("[data-testid=tip]").count() == 0
    render(page, v)
    assert page.locator("[data-testid=tip]").count() == 0
    page.reload()
    page.wait_for_function("() => window.rendered === true")
    page.evaluate("() => { window.tips = true; }")
    render(page, v)
    assert page.locator("[data-testid=tip]").count() == 0


def test_no_tip_for_a_decision_that_is_not_mine(static_page: Any) -> None:
    """A folded seat makes no draw or declaration, yet the first hand's "바꿀 카드를 …" tip showed on its
    phone while the others drew. A tip is for a decision of mine: with it offered, it shows; folded, not."""
    page = harness(static_page, "badugi_draw")
    page.evaluate("() => { window.tips = true; }")
    for fixture in ("badugi_draw", "hilo_declare"):
        v = first_hand(load(fixture), my_turn=False)
        render(page, v)
        assert page.locator("[data-testid=tip]").count() == 1, fixture
        v["me"]["legalActions"] = []
        mine = next(s for s in v["seats"] if s["id"] == v["me"]["id"])
        mine["folded"] = True
        render(page, v)
        assert page.locator("[data-testid=tip]").count() == 0, fixture


# ------------------------------------------------------------------------------------- small phones

# my cards and the action bar against every seat, chip, ring, mark, the centre and the banner
ME_CLEAR = _VIEWS_HEAD + r"""    const mine = [...document.querySelectorAll('[data-testid=my-cards] .card')]
      .map((e) => e.getBoundingClientRect());
    const table = document.querySelector('.table-main').getBoundingClientRect();
    const others = [...document.querySelectorAll(
      '.seat, .seat > .bet-chip, .seat > .timer-ring, .seat .mark, .center > *, .banner')];
    for (const e of others) {
      const r = e.getBoundingClientRect();
      if (!r.width) continue;
      if (r.bottom > table.bottom + 0.5) {
        out.push(`${label}: ${e.className} below the table ${r.bottom} > ${table.bottom}`);
      }
      for (const m of mine) if (hit(r, m)) out.push(`${label}: ${e.className} covers my cards`);
    }
    // the centre (pot, board) against the banner, chips and rings
    for (const c of document.querySelectorAll('.center > *')) {
      const r = c.getBoundingClientRect();
      if (!r.width) continue;
      for (const e of document.querySelectorAll('.seat > .bet-chip, .seat > .timer-ring, .seat .mark')) {
        if (hit(r, e.getBoundingClientRect())) out.push(`${label}: ${e.className} covers ${c.className}`);
      }
    }
  }
  return out;
}"""

# the hand-end banner against every seat, the pot and the board (no banner covers the board or pot:
# docs/decisions/0007-phone-table-measured.md)
BANNER_CLEAR = _VIEWS_HEAD + r"""    const banner = document.querySelector('[data-testid=hand-result]');
    if (!banner) continue;
    const b = banner.getBoundingClientRect();
    if (b.left < 0 || b.right > W) out.push(`${label}: banner out`);
    for (const s of document.querySelectorAll('.seat')) {
      if (hit(b, s.getBoundingClientRect())) out.push(`${label}: banner covers ${s.dataset.seatId}`);
    }
    for (const c of document.querySelectorAll('.center > *')) {
      const r = c.getBoundingClientRect();
      if (r.width && hit(b, r)) out.push(`${label}: banner covers ${c.className}`);
    }
  }
  return out;
}"""


def phone_views(mode: str) -> list[tuple[str, dict[str, Any]]]:
    _, top, _h, _u, extra = MODES[mode]
    out = []
    for phase in ["betting", "handEnd", "rebuy", *extra]:
        for sp in (False, True):
            label = f"{mode}/{top}/{phase}/{'spectator' if sp else 'player'}"
            out.append((label, crowd_view(mode, top, phase, sp)))
    if mode in ("holdem", "omaha", "indian", "indian2"):
        out.append((f"{mode}/{top}/raise", raise_open(crowd_view(mode, top, "betting"))))
    return out


# Not yet: cases whose layout still fails (strict xfail, so a fix shows up). None left: on short phones my
# area gives the table what it can spare, seat card rows fan within their seat (or wrap to two lines), and a
# full table that still does not fit grows the table area (the page scrolls) rather than cover anything.
NOT_YET: set[tuple[str, str]] = set()


def phone_cases() -> list[Any]:
    return [
        pytest.param(mode, size, marks=[pytest.mark.xfail(strict=True, reason="small-phone layout not done")]
                     if (mode, size) in NOT_YET else [])
        for size in PHONES for mode in MODES
    ]


@pytest.mark.parametrize(("mode", "size"), phone_cases())
def test_small_phones_every_mode_nothing_covers_anything(static_page: Any, mode: str, size: str) -> None:
    page = harness(static_page, MODES[mode][0], PHONES[size])
    views = phone_views(mode)
    problems: list[str] = []
    for script in (MEASURE_SEATS, CHIPS_CLEAR, POT_CLEAR, ME_CLEAR, BANNER_CLEAR):
        problems += sweep(page, script, views)
    for label, v in views[:4]:
        render(page, v)
        if v.get("openRaise"):
            page.click("[data-action='nl.raise']")
        shot(page, f"phone-{size}-{label.replace('/', '-')}")
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems[:40])


def test_an_open_raise_panel_leaves_the_table_its_room_on_every_phone(static_page: Any) -> None:
    """The raise panel (quick amounts, slider, confirm) opens under the buttons; on a phone 700 px high or
    less it took the place of my cards, but at 360×740, 412×732 or 390×844 with the first hand's tip the
    table kept only what was left, and its pot and board went under six seats. On any phone the panel now
    takes the place of my cards, hand name and tip while it is open."""
    problems: list[str] = []
    for size in ({"width": 360, "height": 740}, {"width": 412, "height": 732}, {"width": 390, "height": 844}):
        page = harness(static_page, "holdem_raise", size)
        for tips in (False, True):
            page.evaluate("(on) => { window.tips = on; }", tips)
            views = []
            for n in (2, 6):  # (a ten-seat crowd view offers no raise)
                v = crowd_view("holdem", n, "betting")
                v = first_hand(v) if tips else v
                label = f"{size['width']}x{size['height']} {'tip ' if tips else ''}holdem/{n}"
                # (each raise view after a closed one: a render keeps the panel open, a click would close it)
                views += [(label, v), (f"{label}/raise", raise_open(v))]
            for script in (MEASURE_SEATS, CHIPS_CLEAR, POT_CLEAR, ME_CLEAR):
                problems += sweep(page, script, views)
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems[:40])


def test_large_text_on_the_smallest_phone_covers_nothing_either(static_page: Any) -> None:
    """큰 글씨 (settings) makes every seat, badge and pot taller: at 320×568 a ten-seat spectator's table
    needed more growth than the table was allowed (side pots and board under the side seats)."""
    page = harness(static_page, MODES["holdem"][0], PHONES["320x568"])
    page.evaluate("() => document.body.classList.add('large-text')")
    problems: list[str] = []
    for mode in MODES:
        views = phone_views(mode)
        for script in (MEASURE_SEATS, CHIPS_CLEAR, POT_CLEAR, ME_CLEAR, BANNER_CLEAR):
            problems += sweep(page, script, views)
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems[:40])
    # nor does any line stick out of the screen, in either language (the phase line ran off both edges:
    # "스 홀덤 · 1/20판 · 런 잇 트와이스 · 기본 10 · 앤")
    for lang in ("ko", "en"):
        page = static_page(f"/fixtures/harness.html?f=seven_choice&lang={lang}", PHONES["320x568"], name=lang)
        page.wait_for_function("() => window.rendered === true")
        page.evaluate("() => document.body.classList.add('large-text')")
        for name in ("seven_choice", "badugi_draw", "seven_betting_me", "holdem_raise", "holdem_showdown",
                     "omaha_hilo_showdown", "indian_betting", "rebuy", "hilo_declare", "holdem_run_twice_ask",
                     "holdem_antes"):
            render(page, load(name))
            problems += [f"{lang} {name}: {x}" for x in page.evaluate(OVERFLOW_JS)]
    assert not problems, "\n".join(problems[:40])


def test_a_full_table_on_320x568_scrolls_keeps_its_place_and_shows_my_turn(static_page: Any) -> None:
    """Ten at 320×568 do not fit above my area: the table grows and the page scrolls; a new view keeps the
    reader's scroll position, and my turn brings my area (cards and buttons) into view once."""
    page = harness(static_page, "holdem_ten_player", PHONES["320x568"])
    waiting = crowd_view("holdem", 10, "betting")
    render(page, waiting)
    size = page.evaluate("() => [document.documentElement.scrollHeight, window.innerHeight]")
    assert size[0] > size[1] + 24, size
    page.evaluate("() => window.scrollTo(0, 60)")
    render(page, waiting)
    assert page.evaluate("() => window.scrollY") == 60
    page.evaluate("() => window.scrollTo(0, 0)")
    render(page, raise_open(waiting))
    area = page.locator("[data-testid=me-area]").bounding_box()
    assert area and area["y"] + area["height"] <= 568.5
    shot(page, "phone-320x568-holdem-10-my-turn")
    render(page, raise_open(waiting))  # still my turn: the reader's scroll is left alone
    page.evaluate("() => window.scrollTo(0, 0)")
    render(page, raise_open(waiting))
    assert page.evaluate("() => window.scrollY") == 0


@pytest.mark.parametrize("size", list(PHONES))
def test_top_bar_never_wraps_letter_by_letter(static_page: Any, size: str) -> None:
    page = harness(static_page, "seven_six_player", PHONES[size])
    page.evaluate(
        """() => { const bar = document.getElementById('topbar');
          bar.innerHTML = '<div class="title" id="title">포커 방<small>ABCD1234</small></div>'
            + '<span class="conn" data-state="connecting">다시 연결 중…</span>'
            + '<button class="icon-btn">기록</button><button class="icon-btn">규칙</button>'
            + '<button class="icon-btn">설정</button>'; }"""
    )
    lines: list[Any] = page.evaluate(
        """() => { const out = [];
          const walker = document.createTreeWalker(document.getElementById('topbar'), NodeFilter.SHOW_TEXT);
          for (let n = walker.nextNode(); n; n = walker.nextNode()) {
            if (!n.textContent.trim()) continue;
            const r = document.createRange(); r.selectNodeContents(n);
            const tops = new Set([...r.getClientRects()].map((x) => Math.round(x.top)));
            out.push([n.textContent, tops.size, n.parentElement.getBoundingClientRect().height]);
          }
          return out; }"""
    )
    for text, n, _height in lines:
        assert n == 1, f"{text!r} wraps onto {n} lines"
    bar = page.locator("#topbar").bounding_box()
    assert bar and bar["height"] <= 44.5
    shot(page, f"phone-{size}-topbar")


def test_the_hosts_top_bar_keeps_all_five_buttons_on_a_320_px_screen_in_large_text(
        live_server: Any, open_page: Any) -> None:
    """In a game the host's bar holds 기록 장부 방장 규칙 설정 beside the room's code; with 큰 글씨 on, 설정
    (where large text is turned off) went past the screen's edge and the page scrolled sideways."""
    page = open_page("host", {"width": 320, "height": 568})
    page.add_init_script("localStorage.setItem('pokerroom:settings', JSON.stringify({largeText: true}))")
    create_room_ui(page, live_server.http, "민수", "sevenPoker")
    page.click("[data-testid=add-bot]")
    page.wait_for_function("() => window.__room.lobby.players.length >= 2")
    page.click("[data-testid=start]")
    page.wait_for_selector(".table-screen")
    assert page.evaluate("() => document.body.classList.contains('large-text')")
    shown = page.evaluate("""() => [...document.querySelectorAll('#topbar > *')].filter((e) => e.offsetParent)
      .map((e) => [e.id, e.getBoundingClientRect().left, e.getBoundingClientRect().right])""")
    assert [s[0] for s in shown if s[0].startswith("btn-")] == [
        "btn-log", "btn-ledger", "btn-host", "btn-rules", "btn-settings"], shown
    assert all(left >= 0 and right <= 320 for _, left, right in shown), shown
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 320




def split_pot_end(players: int) -> dict[str, Any]:
    """Hold'em's hand end with ``players`` seats and the pot split between two of them by a long reason each:
    the banner's six lines, taller than the room between the top seats and the pot."""
    v = load("holdem_showdown")
    v["seats"] = v["seats"][:players]
    ids = [s["id"] for s in v["seats"]]
    why = "4 투페어, 퀸 키커가 상대의 4 투페어, 잭 키커를 이김"
    v["awards"] = [{"potIndex": 0, "to": pid, "amount": 30, "hand": "4 투페어, 퀸 키커", "why": why}
                   for pid in ids[:2]]
    v["pots"], v["potTotal"] = [{"amount": 60, "eligible": ids}], 60
    v["showdown"] = [e for e in v["showdown"] if e["id"] in ids]
    v["handNet"] = {pid: 10 if k < 2 else -20 for k, pid in enumerate(ids)}
    return v


TALL = [{"width": 390, "height": 844}, {"width": 360, "height": 740}]


@pytest.mark.parametrize("size", [*TALL, *PHONES.values()], ids=lambda s: f"{s['width']}x{s['height']}")
def test_a_tall_banner_of_a_small_table_covers_neither_pot_nor_board(static_page: Any,
                                                                      size: dict[str, int]) -> None:
    """Three players, a split pot: the banner did not fit between the top seats and the pot, and a tall
    phone's table does not grow, so it covered the pot and the board's top edge (the cards' ranks). The centre
    now goes down towards the phase line and the banner fits above it; the winners' shared reason is said
    once."""
    page = harness(static_page, "holdem_showdown", size)
    views = [(f"{n} players", split_pot_end(n)) for n in (2, 3, 4)]
    problems = sweep(page, BANNER_CLEAR, views)
    render(page, views[1][1])
    shot(page, f"split-pot-banner-{size['width']}x{size['height']}")
    assert not problems, problems
    # the two winners' one reason is one line, both names before it
    whys = page.locator("[data-testid=why]").all_inner_texts()
    assert whys == ["민수, 지수: 4 투페어, 퀸 키커가 상대의 4 투페어, 잭 키커를 이김"], whys


@pytest.mark.parametrize("size", [*TALL, *PHONES.values()], ids=lambda s: f"{s['width']}x{s['height']}")
def test_a_bet_beside_a_wide_seat_stays_clear_of_the_moved_pot(static_page: Any,
                                                                size: dict[str, int]) -> None:
    """7 Poker's sixth card, four players: every seat shows four open cards, the side seats are wide, the
    pot's usual place is taken and the centre moves. The boss's bet chip was placed against the usual place
    (beside its seat, at its bottom) and the moved pot went over it: at 360×740 with the first hand's tips
    open, "판돈 130" hid the "10" of the bet. Tips open and closed, every phone: no chip covers the pot or a
    seat, and the pot covers no seat."""
    page = harness(static_page, "seven_sixth_side_bet", size)
    v = load("seven_sixth_side_bet")
    problems: list[str] = []
    for tips in (True, False):
        page.evaluate("(on) => { window.tips = on; }", tips)
        views = [(f"tips {'open' if tips else 'closed'}", v)]
        for script in (CHIPS_CLEAR, POT_CLEAR, ME_CLEAR):
            problems += sweep(page, script, views)
        render(page, v)
        assert page.locator(".seat > .bet-chip").all_inner_texts() == ["10"]
        shot(page, f"side-bet-{size['width']}x{size['height']}-tips-{tips}")
    assert not problems, problems


def test_the_logs_street_lines_stand_out(static_page: Any) -> None:
    """The side panel's log: a hand's start, its boards, a 7 Poker street's cards ("5구: 민수 K♠ …") and a
    draw's exchange are bold, where one street's bets end and the next's begin; the bets between them are
    not."""
    page = harness(static_page, "seven_six_player", {"width": 1280, "height": 800})
    v = load("seven_six_player")
    lines = [("handStart", "2번째 판 시작 (선: p1, 기본 단위 10)"),
             ("reveal", "오픈 카드 공개: p0 4◆, p1 K◆"), ("street", "4구: p0 6♣, p1 Q♥"),
             ("action", "p1 삥 10"), ("action", "p0 콜 10"),
             ("street", "5구: p0 K♣, p1 2♥"), ("action", "p1 체크"), ("board", "플랍: K♣ 2♥ 9◆"),
             ("drawn", "아침: p0 2장, p1 1장"), ("showdown", "쇼다운: p0 K 원페어, p1 A탑")]
    v["publicLog"] = [{"handNo": 2, "type": kind, "text": text} for kind, text in lines]
    render(page, v)
    weights = page.evaluate("""() => [...document.querySelectorAll('[data-testid=hand-log] li')]
      .map((li) => [li.dataset.kind, Number(getComputedStyle(li).fontWeight)])""")
    assert [kind for kind, _ in weights] == [kind for kind, _ in lines], weights
    bold = ("handStart", "street", "board", "drawn")
    assert all((weight >= 700) == (kind in bold) for kind, weight in weights), weights
