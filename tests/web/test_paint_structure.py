"""What the browser must do per frame on a slow phone: structural properties of the client's drawing, not
times (the render figures come from benchmarks/render.py; why:
docs/decisions/0033-render-keeps-what-did-not-change.md).

- A card's drawing is a few nodes with no transformed shapes and no filter: every SVG transform is a node of
  the browser's paint property trees and a filter an offscreen pass, redone on each frame that paints a card.
- Nothing animates a property the compositor cannot run (only transform and opacity): any other property
  animates on the main thread, one style + layout/paint frame after another.
- The table area is a layout containment boundary of a size its content does not set, and each seat and the
  centre contain their layout: what changes inside one is laid out there, not across my area and the page.
- The sound's audio context sleeps once the table is quiet: a running one plays silence for as long as the
  page lives.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from webplay import MOBILE, harness

pytestmark = pytest.mark.browser

CARD_SHAPES = """() => [...document.querySelectorAll('.card-svg')].map((svg) => {
  const shapes = svg.querySelectorAll('.suit-shape');
  const box = (e) => { const b = e.getBBox(); return [b.x, b.y, b.x + b.width, b.y + b.height]; };
  const all = shapes.length ? [...shapes].map(box) : [];
  return {
    card: svg.parentElement.getAttribute('aria-label'),
    back: ['card-back', 'card-question'].some((k) => svg.parentElement.classList.contains(k)),
    nodes: svg.querySelectorAll('*').length,
    transformed: [...svg.querySelectorAll('[transform]')].map((e) => e.tagName),
    lines: svg.querySelectorAll('line').length,
    filter: getComputedStyle(svg).filter,
    shadow: getComputedStyle(svg).boxShadow,
    shapes: shapes.length,
    extent: all.length ? [Math.min(...all.map((b) => b[0])), Math.min(...all.map((b) => b[1])),
      Math.max(...all.map((b) => b[2])), Math.max(...all.map((b) => b[3]))] : null,
  };
})"""


def test_card_drawings_are_flat(static_page: Any) -> None:
    page = static_page("/fixtures/gallery.html", MOBILE, name="gallery")
    page.wait_for_function("() => window.rendered === true")
    cards = page.evaluate(CARD_SHAPES)
    faces = [c for c in cards if not c["back"]]
    backs = [c for c in cards if c["back"]]
    assert len(faces) == 52 + 20 and backs
    for c in faces:
        # only the two texts of the turned corner keep a transform (text cannot be turned in its coordinates)
        assert c["transformed"] == ["text", "text"], c
        assert c["filter"] == "none" and c["shadow"] != "none", c
        # the suit shapes: one path (court cards: the corners under the picture's frame, the picture's suit)
        assert c["shapes"] == (2 if "K" in c["card"] or "Q" in c["card"] or "J" in c["card"] else 1), c
        # ...placed as the turned shapes were: in the upper corner (its box from x 3.5; a club's arcs bulge a
        # little) and, each card being the same turned 180° about the centre (30, 42), as far from the right
        # and bottom as from the left and top
        x0, y0, x1, y1 = c["extent"]
        assert 3.3 <= x0 < 5 and abs(x0 + x1 - 60) < 0.3 and abs(y0 + y1 - 84) < 0.3, c
        assert c["nodes"] <= 14, c
    for c in backs:
        assert c["lines"] == 0 and c["transformed"] == [] and c["nodes"] <= 6, c
        assert c["filter"] == "none", c


COMPOSITED = {"transform", "opacity"}

ANIMATED = """() => {
  const out = [];
  const walk = (rules) => {
    for (const r of rules) {
      if (r.cssRules && !(r instanceof CSSKeyframesRule)) walk(r.cssRules);
      if (r instanceof CSSKeyframesRule) {
        for (const k of r.cssRules) for (const p of k.style) out.push(['keyframes ' + r.name, p]);
      } else if (r.style) {
        const tp = r.style.getPropertyValue('transition-property');
        const dur = r.style.getPropertyValue('transition-duration');
        if (tp && !/^0s(, 0s)*$/.test(dur) && r.style.getPropertyValue('transition') !== 'none')
          for (const p of tp.split(',')) out.push([r.selectorText, p.trim()]);
      }
    }
  };
  for (const sheet of document.styleSheets) walk(sheet.cssRules);
  return out;
}"""


def test_nothing_animates_a_property_the_compositor_cannot_run(static_page: Any) -> None:
    page = harness(static_page, "holdem_ten_player")
    animated = page.evaluate(ANIMATED)
    assert animated, "the stylesheet's transitions were not found"
    assert any(sel.startswith("keyframes") for sel, _ in animated)
    wrong = [(sel, p) for sel, p in animated if p not in COMPOSITED]
    assert not wrong, wrong


CONTAIN = """() => ({
  main: getComputedStyle(document.querySelector('.table-main')).contain,
  seats: [...document.querySelectorAll('.seat')].map((e) => getComputedStyle(e).contain),
  center: getComputedStyle(document.querySelector('.center')).contain,
  mainKids: [...document.querySelector('.table-main').children].map((e) => getComputedStyle(e).position),
})"""


@pytest.mark.parametrize("size", [MOBILE, {"width": 360, "height": 640}], ids=["390x844", "360x640"])
def test_seats_and_the_table_contain_their_layout(static_page: Any, size: dict[str, int]) -> None:
    page = harness(static_page, "holdem_ten_player", size)
    c = page.evaluate(CONTAIN)
    assert "size" in c["main"] and "layout" in c["main"], c
    # size containment is right only while nothing in the table area sets its size (all of it is placed)
    assert set(c["mainKids"]) <= {"absolute", "fixed"}, c
    assert len(c["seats"]) == 9 and all("layout" in s for s in c["seats"]), c
    assert "layout" in c["center"], c
    # no paint containment on a seat: its timer ring and bet chip stick out of its box
    assert all("paint" not in s and s != "strict" and s != "content" for s in c["seats"]), c


def test_the_sound_sleeps_when_the_table_is_quiet(static_page: Any) -> None:
    """A running audio context keeps the audio output open, playing silence, all night (a phone's audio
    hardware never sleeps): five quiet seconds after the last sound or tap it is suspended, and the next
    sound wakes it without a tap."""
    page = harness(static_page, "holdem_ten_player", MOBILE)
    page.evaluate("""async () => {
      window.snd = await import('/static/sound.js');
      document.addEventListener('pointerdown', () => window.snd.unlockAudio());
    }""")
    assert page.evaluate("() => window.snd.audioState()") == "none"
    page.mouse.click(5, 5)  # (a tap: the browser lets audio start)
    page.wait_for_function("() => window.snd.audioState() === 'running'", timeout=3000)
    page.wait_for_timeout(3000)
    assert page.evaluate("() => window.snd.playSound('card')") is True  # (a sound starts the wait again)
    page.wait_for_timeout(3000)
    assert page.evaluate("() => window.snd.audioState()") == "running"
    page.wait_for_function("() => window.snd.audioState() === 'suspended'", timeout=4000)
    assert page.evaluate("() => window.snd.playSound('turn')") is True  # no tap: the sound wakes it
    page.wait_for_function("() => window.snd.audioState() === 'running'", timeout=3000)
