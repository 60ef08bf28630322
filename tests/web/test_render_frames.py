"""The table's render machinery (issue #15, speed on a phone): views are drawn at most once per animation
frame, and a seat whose content did not change keeps its element (and its place) instead of being rebuilt and
measured again. Mechanisms, not times: the render figures come from benchmarks/render.py.
"""

from __future__ import annotations

import copy
import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from webplay import MOBILE, harness, load, shot

pytestmark = pytest.mark.browser


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
    page.evaluate("() => document.querySelectorAll('.seat').forEach((e) => { e.dataset.mark = 'old'; })")
    v1 = moved_turn(v0, 1)[0]
    page.evaluate("(v) => window.scheduleView(v)", v1)
    marks = page.evaluate(
        "() => Object.fromEntries([...document.querySelectorAll('.seat')]"
        ".map((e) => [e.dataset.seatId, e.dataset.mark ?? 'new']))"
    )
    changed = {v0["toAct"], v1["toAct"]}  # the seat that called and the seat now to act
    assert {pid for pid, m in marks.items() if m == "new"} == changed, marks
    assert len(marks) == 9
    incremental = page.evaluate(SEAT_BOXES)
    shot(page, f"render-incremental-{size['width']}x{size['height']}")
    # exactly where a table drawn from scratch with that view puts every seat and chip
    fresh = harness(static_page, "holdem_ten_player", size)
    fresh.evaluate("(v) => window.renderView(v)", v1)
    assert fresh.evaluate(SEAT_BOXES) == incremental
