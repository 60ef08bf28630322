"""The table's render machinery (speed on a phone: docs/decisions/0033-render-keeps-what-did-not-change.md):
views are drawn at most once per animation frame, and a seat whose content did not change keeps its element
(and its place) instead of being rebuilt and measured again. Mechanisms, not times: the render figures come
from benchmarks/render.py.
"""

from __future__ import annotations

import copy
import sys
import time
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from webplay import MOBILE, harness, load, shot

pytestmark = pytest.mark.browser


def frame_done(page: Any) -> None:
    """Wait until the table's scheduler has painted its last render, so the next view is drawn at once
    rather than queued for the next frame (a fixed wait was not always a frame on a loaded machine)."""
    page.wait_for_function("() => !window.ui.frameBusy")


def moved_turn(v: dict[str, Any], steps: int) -> list[dict[str, Any]]:
    """`steps` views after `v`: each, the player to act calls 20 and the turn passes to the next live seat."""
    out = []
    cur = copy.deepcopy(v)
    live = [s["id"] for s in cur["seats"] if not s["folded"]]
    for _ in range(steps):
        cur = copy.deepcopy(cur)
        seat = next(s for s in cur["seats"] if s["id"] == cur["toAct"])
        seat["committedRound"] = 20
        seat["lastAction"] = "nl.call"
        seat["stack"] -= 20
        cur["potTotal"] += 20
        cur["toAct"] = live[(live.index(cur["toAct"]) + 1) % len(live)]
        cur["pending"] = [cur["toAct"]]
        out.append(cur)
    return out


def test_views_arriving_in_one_frame_render_once(static_page: Any) -> None:
    page = harness(static_page, "holdem_ten_player")
    views = moved_turn(load("holdem_ten_player"), 5)
    counts = page.evaluate(
        """async (views) => {
      const ui = window.ui;
      const start = ui.renders;
      for (const v of views) window.scheduleView(v);  // five views in one task: one frame
      const now = ui.renders - start;
      const perFrame = [];
      for (let i = 0; i < 6; i++) {
        const before = ui.renders;
        await new Promise((r) => requestAnimationFrame(() => r()));
        perFrame.push(ui.renders - before);
      }
      return { now, total: ui.renders - start, perFrame };
    }""",
        views,
    )
    # the first is drawn at once (no added delay); the other four wait for a later frame and only the newest
    # of them is drawn
    assert counts["now"] == 1
    assert counts["total"] == 2, counts
    assert max(counts["perFrame"]) <= 1
    last = views[-1]
    assert page.locator(".seat.to-act").get_attribute("data-seat-id") == last["toAct"]
    assert page.locator("[data-testid=pot]").inner_text().endswith(str(last["potTotal"]))
    # a view arriving in a later, quiet frame is drawn at once again
    more = moved_turn(last, 1)[0]
    assert (
        page.evaluate(
            "(v) => { const n = window.ui.renders; window.scheduleView(v); return window.ui.renders - n; }",
            more,
        )
        == 1
    )


SEAT_BOXES = """() => Object.fromEntries([...document.querySelectorAll('.seat')].map((e) => {
  const r = e.getBoundingClientRect();
  const chip = e.querySelector('.bet-chip')?.getBoundingClientRect();
  return [e.dataset.seatId, [r.x, r.y, r.width, r.height, chip ? [chip.x, chip.y] : null]];
}))"""


@pytest.mark.parametrize("size", [MOBILE, {"width": 360, "height": 640}], ids=["390x844", "360x640"])
def test_unchanged_seats_keep_their_element_and_place(static_page: Any, size: dict[str, int]) -> None:
    page = harness(static_page, "holdem_ten_player", size)
    v0 = load("holdem_ten_player")
    # marks as JS properties (an attribute would itself be a change the render undoes)
    page.evaluate(
        """() => document.querySelectorAll('.seat').forEach((e) => {
      e.__old = true;
      for (const n of e.querySelectorAll('.name, .card')) n.__old = true;
    })"""
    )
    v1 = moved_turn(v0, 1)[0]
    page.evaluate("(v) => window.scheduleView(v)", v1)
    marks = page.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll('.seat')].map((e) => [e.dataset.seatId,
      [!!e.__old, [...e.querySelectorAll('.name, .card')].every((n) => n.__old)]]))"""
    )
    changed = {v0["toAct"], v1["toAct"]}  # the seat that called and the seat now to act
    assert len(marks) == 9
    # no seat is rebuilt: the two that changed keep their box, name and cards too (only what changed is new)
    assert all(kept and inner for kept, inner in marks.values()), marks
    assert page.locator(".seat.to-act").get_attribute("data-seat-id") == v1["toAct"]
    caller = page.locator(f".seat[data-seat-id='{v0['toAct']}']")
    assert caller.locator(".bet-chip").inner_text() == "20"
    assert caller.locator(".badge.last").inner_text() == "콜"
    assert changed <= set(marks)
    incremental = page.evaluate(SEAT_BOXES)
    shot(page, f"render-incremental-{size['width']}x{size['height']}")
    # exactly where a table drawn from scratch with that view puts every seat and chip
    fresh = harness(static_page, "holdem_ten_player", size)
    fresh.evaluate("(v) => window.renderView(v)", v1)
    assert fresh.evaluate(SEAT_BOXES) == incremental


MY_AREA = """() => {
  const area = document.querySelector('[data-testid=me-area]');
  return { cards: [...area.querySelectorAll('[data-testid=my-cards] .card')].map((n) => !!n.__old),
    name: !!area.querySelector('.me-line .name').__old, area: !!area.__old,
    buttons: [...area.querySelectorAll('.actions button')].map((b) => [b.dataset.action, b.disabled]) };
}"""


def test_my_area_keeps_its_nodes_across_views(static_page: Any) -> None:
    page = harness(static_page, "holdem_ten_player")
    v0 = load("holdem_ten_player")
    page.evaluate(
        """() => {
      const area = document.querySelector('[data-testid=me-area]');
      area.__old = true;
      for (const n of area.querySelectorAll('.card, .me-line .name')) n.__old = true;
    }"""
    )
    views = moved_turn(v0, 2)
    for v in views:
        page.evaluate("(v) => window.scheduleView(v)", v)
        page.evaluate("() => new Promise((r) => requestAnimationFrame(() => r()))")
    # others acting: my cards, my name and my area are the same nodes (nothing of mine was rebuilt)
    kept = page.evaluate(MY_AREA)
    assert kept["area"] and kept["name"] and kept["cards"] == [True, True], kept
    # my turn: the buttons come alive, the cards stay the same nodes
    mine = copy.deepcopy(views[-1])
    mine["toAct"] = "p1"
    mine["pending"] = ["p1"]
    mine["me"]["legalActions"] = [
        {"type": "nl.fold"},
        {"type": "nl.call", "amount": 20},
        {"type": "nl.raise", "min": 40, "max": 990},
        {"type": "nl.allIn", "amount": 990, "to": 1000},
    ]
    mine["me"]["toCall"] = 20
    page.evaluate("(v) => window.scheduleView(v)", mine)
    now = page.evaluate(MY_AREA)
    assert now["cards"] == [True, True], now
    assert ["nl.call", False] in now["buttons"] and ["nl.fold", False] in now["buttons"], now
    page.locator("[data-action='nl.call']").click()
    assert page.evaluate("() => window.sent") == [{"type": "nl.call"}]
    # a new hand: new cards are drawn (the old nodes do not linger)
    nxt = copy.deepcopy(v0)
    nxt["handNo"] = v0["handNo"] + 1
    nxt["me"]["hole"] = [{"id": 0, "rank": 2, "suit": "S"}, {"id": 1, "rank": 3, "suit": "S"}]
    page.evaluate("(v) => window.scheduleView(v)", nxt)
    page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r())))")
    labels = page.locator("[data-testid=my-cards] .card").evaluate_all(
        "(ns) => ns.map((n) => n.dataset.cardId)"
    )
    assert labels == ["0", "1"]
    assert page.evaluate(MY_AREA)["cards"] == [False, False]


# layout reads during one render, by what was read: a seat's card (fitSeatCards measuring a row), a seat,
# the table area (main / the seat layer), the banner. Counted, not timed: each read after a write is a layout
COUNT_READS = """async (v) => {
  const counts = { card: 0, seat: 0, table: 0, banner: 0 };
  const kind = (e) => e.closest?.('.cards') ? 'card' : e.classList?.contains('seat') ? 'seat'
    : e.classList?.contains('table-main') || e.classList?.contains('seats') ? 'table'
    : e.classList?.contains('banner') ? 'banner' : null;
  const P = Element.prototype;
  const rect = P.getBoundingClientRect;
  P.getBoundingClientRect = function () {
    const k = kind(this); if (k) counts[k] += 1; return rect.call(this); };
  const props = ['clientWidth', 'clientHeight'].map((n) => [n, Object.getOwnPropertyDescriptor(P, n)]);
  for (const [n, d] of props) Object.defineProperty(P, n, { configurable: true, get() {
    const k = kind(this); if (k) counts[k] += 1; return d.get.call(this); } });
  try { window.scheduleView(v); } finally {
    P.getBoundingClientRect = rect;
    for (const [n, d] of props) Object.defineProperty(P, n, d);
  }
  return counts;
}"""


@pytest.mark.parametrize("size", [MOBILE, {"width": 360, "height": 640}], ids=["390x844", "360x640"])
def test_seven_poker_turn_reads_only_the_changed_seats(static_page: Any, size: dict[str, int]) -> None:
    """A turn passing on a 7 Poker table changes two seats and nothing about their cards: their fanned card
    rows are replayed (no card measured), the short phone's grown table is checked from the boxes it placed
    (no seat, table or centre read back), and every seat ends exactly where a fresh render puts it."""
    page = harness(static_page, "seven_six_player", size)
    v0 = load("seven_six_player")
    views = moved_turn(v0, 3)
    page.evaluate("(v) => window.scheduleView(v)", views[0])  # the table's caches see this table once
    frame_done(page)
    page.evaluate("(v) => window.scheduleView(v)", views[1])
    frame_done(page)
    reads = page.evaluate(COUNT_READS, views[2])
    assert page.evaluate("() => window.ui.queued") is None  # drawn in that call, not queued for a frame
    # layoutMobile measures the two changed seats (width, box: two reads each) in one batch; nothing else
    assert reads["card"] == 0, reads
    assert reads["seat"] <= 4, reads
    assert reads["table"] <= 3, reads  # the seat layer and the centre, read in that same batch
    squeezed = page.locator(".seat .cards.squeezed").count()
    assert squeezed >= 1  # the fixture's open cards do not fit their seats: rows are fanned
    incremental = page.evaluate(SEAT_BOXES)
    fans = page.evaluate(
        "() => [...document.querySelectorAll('.seat .cards')].map((r) => [r.className, "
        "[...r.children].map((c) => c.style.marginLeft)])"
    )
    shot(page, f"render-seven-{size['width']}x{size['height']}")
    fresh = harness(static_page, "seven_six_player", size)
    fresh.evaluate("(v) => window.renderView(v)", views[2])
    assert fresh.evaluate(SEAT_BOXES) == incremental
    assert (
        fresh.evaluate(
            "() => [...document.querySelectorAll('.seat .cards')].map((r) => [r.className, "
            "[...r.children].map((c) => c.style.marginLeft)])"
        )
        == fans
    )


def test_timer_ring_redraws_once_a_second(static_page: Any) -> None:
    """The clock ticks four times a second, but the ring's arc moves only with its number (each change
    repaints the ring): sampled across a second boundary, the arc changes exactly when the number does."""
    page = harness(static_page, "holdem_raise")
    view = load("holdem_raise")
    view["deadlineAt"] = int(time.time() * 1000) + 12000
    page.evaluate("(v) => window.renderView(v)", view)
    samples = page.evaluate(
        """async () => {
      const out = [];
      for (let i = 0; i < 10; i++) {
        await new Promise((r) => setTimeout(r, 130));
        const ring = document.querySelector('[data-testid=me-area] .timer-ring');
        const fg = ring.querySelector('.fg');
        out.push([ring.querySelector('text').textContent, fg.getAttribute('stroke-dashoffset')]);
      }
      return out;
    }"""
    )
    assert len({t for t, _ in samples}) >= 2, samples  # 1.3 s: the number changed at least once
    by_text: dict[str, set[str]] = {}
    for text, offset in samples:
        by_text.setdefault(text, set()).add(offset)
    assert all(len(offsets) == 1 for offsets in by_text.values()), samples
    assert len({next(iter(o)) for o in by_text.values()}) == len(by_text)


BANNER_BOX = """() => { const b = document.querySelector('[data-testid=hand-result]').getBoundingClientRect();
  return [b.x, b.y, b.width, b.height]; }"""


def test_hand_end_banner_is_not_measured_again_for_a_ready_mark(static_page: Any) -> None:
    """At hand end the ready marks come in one view each and leave the banner's text as it was: its size is
    known from the first placing (no read of the banner, no layout for it) and it stays where a fresh render
    puts it."""
    page = harness(static_page, "holdem_showdown")
    v = load("holdem_showdown")
    views = []
    for pid in ("p2", "p3"):
        v = copy.deepcopy(v)
        next(s for s in v["seats"] if s["id"] == pid)["ready"] = True
        views.append(v)
    page.evaluate("(v) => window.scheduleView(v)", views[0])
    frame_done(page)
    reads = page.evaluate(COUNT_READS, views[1])
    assert page.evaluate("() => window.ui.queued") is None  # drawn in that call, not queued for a frame
    assert reads["banner"] == 0, reads
    box = page.evaluate(BANNER_BOX)
    fresh = harness(static_page, "holdem_showdown")
    fresh.evaluate("(v) => window.renderView(v)", views[1])
    assert fresh.evaluate(BANNER_BOX) == box
