"""The amounts on the action buttons (콜 (+1,000), 올인 (+12,500), 하프 (+2,500)) read whole on every phone:
at 390, 360 and 320 px wide, in no-limit's four buttons and the Korean eight, each number stays on one line
at 18 px or more (poker.md §9), inside its button and the screen. A number cut over two lines ("(+1,000"
then ")", or "+12,50" then "0)") is read as another number."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from crowd_views import render
from webplay import harness, load, shot

pytestmark = pytest.mark.browser

PHONES = [{"width": 390, "height": 844}, {"width": 360, "height": 740}, {"width": 320, "height": 568}]

#: Each word of each button's text (split at spaces): its font size, how many lines it takes, and whether it
#: stays inside its button; a button off the screen's sides is a problem of its own.
WORDS = r"""(sel) => {
  const out = [];
  const W = document.documentElement.clientWidth;
  for (const b of document.querySelectorAll(sel)) {
    const br = b.getBoundingClientRect();
    const button = b.innerText.replace(/\n/g, " ");
    const off = br.left < -0.5 || br.right > W + 0.5;
    if (off) out.push({ word: "", size: 18, lines: 1, screen: false, button });
    const walker = document.createTreeWalker(b, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const text = n.textContent;
      const size = parseFloat(getComputedStyle(n.parentElement).fontSize);
      for (const m of text.matchAll(/\S+/g)) {
        const range = document.createRange();
        range.setStart(n, m.index);
        range.setEnd(n, m.index + m[0].length);
        const rects = [...range.getClientRects()].filter((r) => r.width > 0);
        const lines = new Set(rects.map((r) => Math.round(r.top))).size;
        const inside = rects.every((r) => r.left >= br.left - 0.5 && r.right <= br.right + 0.5);
        out.push({ word: m[0], size, lines, inside, button });
      }
    }
  }
  return out;
}"""


def problems(page: Any) -> list[str]:
    found = []
    for w in page.evaluate(WORDS, ".actions button"):
        if w["size"] < 18:
            found.append(f"{w['word']} at {w['size']}px in {w['button']!r}")
        if w["lines"] > 1:
            found.append(f"{w['word']} cut over {w['lines']} lines in {w['button']!r}")
        if w.get("screen") is False:
            found.append(f"{w['button']!r} sticks out of the screen")
        elif not w["inside"]:
            found.append(f"{w['word']} sticks out of {w['button']!r}")
    return found


def korean_view(amounts: tuple[int, int, int, int, int]) -> dict[str, Any]:
    call, ddadang, quarter, half, full = amounts
    view = load("seven_betting_me")
    view["me"]["legalActions"] = [
        {"type": "k.die", "amount": 0, "allIn": False},
        {"type": "k.call", "amount": call, "allIn": False},
        {"type": "k.ddadang", "amount": ddadang, "allIn": False},
        {"type": "k.quarter", "amount": quarter, "allIn": False},
        {"type": "k.half", "amount": half, "allIn": False},
        {"type": "k.full", "amount": full, "allIn": True},
    ]
    return view


def no_limit_view(call: int, stack: int, call_all_in: bool = False) -> dict[str, Any]:
    view = load("holdem_raise")
    legal = [{"type": "nl.fold"}, {"type": "nl.call", "amount": call, "allIn": call_all_in}]
    if not call_all_in:
        legal += [{"type": "nl.raise", "min": 2 * call, "max": stack, "isBet": False},
                  {"type": "nl.allIn", "amount": stack, "to": stack}]
    view["me"]["legalActions"] = legal
    return view


@pytest.mark.parametrize("phone", PHONES, ids=lambda p: f"{p['width']}x{p['height']}")
def test_every_amount_reads_whole(static_page: Any, phone: dict[str, int]) -> None:
    page = harness(static_page, "holdem_raise", phone)
    seen = []
    for name, view in [
        ("1000", no_limit_view(10, 1_000)),
        ("12500", no_limit_view(2_500, 12_500)),
        ("105000", no_limit_view(25_000, 105_000)),
        ("call-all-in", no_limit_view(12_500, 12_500, call_all_in=True)),
        ("korean", korean_view((1_000, 2_000, 1_250, 2_500, 9_990))),
        ("korean-big", korean_view((12_500, 25_000, 13_750, 27_500, 48_750))),
    ]:
        render(page, view)
        assert page.locator(".actions button").count() >= 3
        found = problems(page)
        seen += [f"{name}: {p}" for p in found]
        shot(page, f"amounts-{phone['width']}-{name}")
    assert not seen, seen


def test_the_amounts_fit_again_when_the_phone_turns(static_page: Any) -> None:
    """Fitted at 390 px (brackets kept), then the screen narrows to 320 px: the row is fitted again."""
    page = harness(static_page, "holdem_raise", PHONES[0])
    render(page, no_limit_view(2_500, 12_500))
    assert page.locator("[data-action='nl.allIn'] small").inner_text() == "(+12,500)"
    page.set_viewport_size({"width": 320, "height": 568})
    page.wait_for_function("() => document.querySelector('.actions').dataset.fit === '320'")
    assert not problems(page), problems(page)
    assert page.locator("[data-action='nl.allIn'] small").inner_text() == "+12,500"

