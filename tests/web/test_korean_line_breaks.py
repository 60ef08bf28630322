"""Korean text on the table breaks between words, never inside one, at 390×844, 360×740 and 320×568.

A browser may break Hangul between any two syllables, and it did: the first-hand tip read "스윙은 양쪽 모" /
"두 이겨야 해요", the Hi-Lo swing button "8 투페어 + 8" / "탑". Korean is written with spaces between words,
and a line is broken at those (CSS ``word-break: keep-all``); only a word too long for its line is cut.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from crowd_views import render
from test_button_amounts import PHONES
from webplay import harness, load, shot

pytestmark = pytest.mark.browser

#: Every Hangul word drawn on the table screen over two lines (its glyphs' boxes at two heights).
WORDS_CUT = r"""() => {
  const out = [];
  const root = document.querySelector('.table-screen');
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (!el || !el.getClientRects().length) continue;
    const re = /[^\s·]+/g; // (a middle dot parts a list: "쿼터·하프·풀" may break after one)
    for (let m = re.exec(n.textContent); m; m = re.exec(n.textContent)) {
      if (!/[\uac00-\ud7a3]/.test(m[0])) continue;
      const range = document.createRange();
      range.setStart(n, m.index);
      range.setEnd(n, m.index + m[0].length);
      const boxes = [...range.getClientRects()].filter((b) => b.width > 0);
      // (a digit and a syllable of one line may sit a pixel or two apart: a new line is most of a line lower)
      if (boxes.some((b) => Math.abs(b.top - boxes[0].top) > b.height / 2)) {
        out.push(`${el.className || el.tagName}: ${m[0]}`);
      }
    }
  }
  return out;
}"""


def views() -> list[tuple[str, dict[str, Any]]]:
    """The table's screens with the most Korean on them: each decision with its first-hand tip, the Hi-Lo
    declaration with long hand names on its buttons, showdowns and their banners."""
    names = ("seven_choice", "badugi_draw", "seven_betting_me", "holdem_raise", "holdem_showdown",
             "omaha_hilo_showdown", "indian_betting", "rebuy")
    out = [(name, load(name)) for name in names]
    declare = load("hilo_declare")
    declare["me"].update(handName="8 투페어", rankName="8 투페어", lowName="8탑")
    out.append(("hilo_declare", declare))
    return out


@pytest.mark.parametrize("phone", PHONES, ids=lambda p: f"{p['width']}x{p['height']}")
def test_no_korean_word_is_cut_over_two_lines(static_page: Any, phone: dict[str, int]) -> None:
    page = harness(static_page, "seven_choice", phone)
    page.evaluate("() => { window.tips = true; }")
    cut = []
    for name, view in views():
        render(page, view)
        cut += [f"{name}: {word}" for word in page.evaluate(WORDS_CUT)]
        shot(page, f"korean-lines-{name}-{phone['width']}")
    assert not cut, cut
