"""A list parted by middle dots ("노리밋 · 시작 칩 1,000 · 20판") never starts a line with its dot.

A line that begins "· 이번 게임 10판까지" reads as a stray mark: in Korean, as in English, the separator
stays at the end of the line it follows. The client glues each " · " to the word before it (``dom.js``), so a
list breaks after the dot's space and nowhere next to the dot; its text is unchanged ("A · B").
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from crowd_views import render
from test_button_amounts import PHONES
from webplay import create_room_ui, harness, join_ui, load, play_hand, wait_members, wait_table

pytestmark = pytest.mark.browser

#: Every middle dot drawn lower than the last letter before it (the first thing of its line), with its text.
DOTS_FIRST = r"""(sel) => {
  const out = [];
  for (const root of document.querySelectorAll(sel)) {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    const glyphs = []; // [text node, offset] of every visible non-space character, in order
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const el = n.parentElement;
      if (!el || !el.getClientRects().length) continue;
      for (let i = 0; i < n.textContent.length; i++) if (!/\s/.test(n.textContent[i])) glyphs.push([n, i]);
    }
    const box = ([n, i]) => {
      const r = document.createRange();
      r.setStart(n, i);
      r.setEnd(n, i + 1);
      return [...r.getClientRects()].find((b) => b.width > 0);
    };
    for (let k = 1; k < glyphs.length; k++) {
      const [n, i] = glyphs[k];
      if (n.textContent[i] !== "·") continue;
      const dot = box(glyphs[k]), before = box(glyphs[k - 1]);
      if (dot && before && dot.top > before.top + before.height / 2) {
        out.push(`${n.parentElement.className || n.parentElement.tagName}: ${n.textContent.trim()}`);
      }
    }
  }
  return out;
}"""

#: The items of every list of this selector that a line break cuts ("기본 단위" / "10"), as "item: top, top".
ITEMS_CUT = r"""(sel) => {
  const out = [];
  for (const root of document.querySelectorAll(sel)) {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    let item = [], text = "";
    const flush = () => {
      const tops = [...new Set(item.map((b) => Math.round(b.top)))];
      if (tops.length > 1) out.push(`${text.trim()}: ${tops.join(", ")}`);
      item = []; text = "";
    };
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      for (let i = 0; i < n.textContent.length; i++) {
        const ch = n.textContent[i];
        if (ch === "·") { flush(); continue; }
        text += ch;
        if (/\s/.test(ch)) continue;
        const r = document.createRange();
        r.setStart(n, i);
        r.setEnd(n, i + 1);
        const b = [...r.getClientRects()].find((x) => x.width > 0);
        if (b) item.push(b);
      }
    }
    flush();
  }
  return out;
}"""


@pytest.mark.parametrize("phone", PHONES, ids=lambda p: f"{p['width']}x{p['height']}")
def test_no_line_of_the_table_starts_with_a_middle_dot(static_page: Any, phone: dict[str, int]) -> None:
    page = harness(static_page, "seven_choice", phone)
    page.evaluate("() => { window.tips = true; }")
    first = []
    for name in ("seven_choice", "badugi_draw", "seven_betting_me", "holdem_raise", "holdem_showdown",
                 "omaha_hilo_showdown", "indian_betting", "rebuy", "hilo_declare"):
        render(page, load(name))
        first += [f"{name}: {text}" for text in page.evaluate(DOTS_FIRST, ".table-screen")]
    assert not first, first


def test_the_waiting_rooms_options_and_the_ledgers_scope_keep_each_dot_at_a_lines_end(
        live_server: Any, open_page: Any) -> None:
    """The two lists that did start a line with a dot: the waiting room's options at 390×844 ("… 기본 단위 10"
    / "· 20판 …") and the 장부's scope at 320×568 ("이 방의 게임 1개 합계" / "· 이번 게임 1판까지")."""
    a, b = open_page("a", {"width": 390, "height": 844}), open_page("b", {"width": 390, "height": 844})
    code = create_room_ui(a, live_server.http, "방장입니다요", "sevenHiLo")
    join_ui(b, live_server.http, code, "지수")
    wait_members(a, 2)
    summary = a.locator("[data-testid=options-summary]").inner_text()
    assert summary.count(" · ") >= 5, summary  # (the list itself, as written)
    assert a.evaluate(DOTS_FIRST, "main") == []
    # no option is cut by a line break either, at any phone's width ("… 기본 단위" / "10 · 20판 …")
    for width in (390, 375, 360, 344, 320):
        a.set_viewport_size({"width": width, "height": 740})
        assert a.evaluate(ITEMS_CUT, "[data-testid=options-summary]") == [], width
    a.set_viewport_size({"width": 390, "height": 844})
    a.click("[data-testid=start]")
    for page in (a, b):
        wait_table(page)
    play_hand([a, b])
    a.set_viewport_size({"width": 320, "height": 568})
    a.wait_for_function("() => window.__room.ledger && window.__room.ledger.handsPlayed === 1")
    a.click("[data-testid=open-ledger]")
    a.wait_for_selector("#dlg-ledger[open] [data-testid=ledger]")
    scope = a.locator("#dlg-ledger [data-testid=ledger-scope]").inner_text()
    assert scope == "이 방의 게임 1개 합계 · 이번 게임 1판까지", scope
    assert a.evaluate(DOTS_FIRST, "#dlg-ledger") == []
