"""A short phone (360×640, 320×568): a seat of the top row keeps its turn ring on the table, and my turn is
brought into view once per decision.

The ring reached 2 px above the felt's top edge, and render.js ``placeTable`` (which grows the table until
nothing overlaps or sticks out) grew a three-player badugi table by 120 px, in 24 px steps, for a ring that
did not move; that pushed my cards and the draw buttons below the fold. And a table grown past the screen
scrolls my area into view when my turn comes, but a turn that followed another of mine at once (my draw, then
my bet) was not revealed."""

from __future__ import annotations

import copy
import itertools
import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from crowd_views import render
from webplay import harness, load, shot

pytestmark = pytest.mark.browser

SHORT = [{"width": 360, "height": 640}, {"width": 320, "height": 568}]

#: Whether the table grew, and every turn ring and mark against the table's box.
TABLE = r"""() => {
  const main = document.querySelector('.table-screen .seats').parentElement;
  const o = main.getBoundingClientRect();
  const out = { grown: main.style.flex !== '', outside: [] };
  for (const e of main.querySelectorAll('.seat > .timer-ring, .seat .mark')) {
    const r = e.getBoundingClientRect();
    if (!(r.width > 0)) continue;
    const seat = e.closest('.seat').dataset.seatId;
    const inside = r.top >= o.top - 0.5 && r.left >= o.left - 0.5 && r.right <= o.right + 0.5
      && r.bottom <= o.bottom + 0.5;
    if (!inside) {
      out.outside.push(`${seat} ${e.className}: ${Math.round(r.top - o.top)} from the top`);
    }
  }
  const area = document.querySelector('[data-testid=me-area]').getBoundingClientRect();
  out.areaBelowFold = area.bottom > window.innerHeight + 0.5;
  return out;
}"""


def draw_views() -> list[tuple[str, dict[str, Any]]]:
    """The badugi draw of three players (two opponents on the top row) with every set of seats still to
    draw (each pending seat wears a ring), and the betting round before it with each seat to act."""
    base = load("badugi_draw")
    ids = [s["id"] for s in base["seats"]]
    out = []
    for n in range(1, len(ids) + 1):
        for pending in itertools.combinations(ids, n):
            v = copy.deepcopy(base)
            v["pending"] = list(pending)
            out.append((f"draw, {'+'.join(pending)} to draw", v))
    for pid in ids:
        v = copy.deepcopy(base)
        v["phase"], v["toAct"], v["pending"] = "betting", pid, [pid]
        out.append((f"betting, {pid} to act", v))
    return out


@pytest.mark.parametrize("phone", SHORT, ids=lambda p: f"{p['width']}x{p['height']}")
def test_a_top_seats_ring_stays_on_the_table_and_the_table_keeps_its_size(static_page: Any,
                                                                          phone: dict[str, int]) -> None:
    page = harness(static_page, "badugi_draw", phone)
    for label, view in draw_views():
        render(page, view)
        got = page.evaluate(TABLE)
        assert not got["outside"], (label, got["outside"])
        assert not got["grown"], (label, got)
        assert not got["areaBelowFold"], (label, got)
    shot(page, f"top-edge-ring-{phone['width']}")


AREA = r"""() => {
  const main = document.querySelector('.table-screen .seats').parentElement;
  const area = document.querySelector('[data-testid=me-area]').getBoundingClientRect();
  return { grown: main.style.flex !== '', scrollY: window.scrollY,
           inView: area.bottom <= window.innerHeight + 0.5 && area.top >= -0.5 };
}"""


def test_my_betting_turn_right_after_my_draw_is_brought_into_view(static_page: Any) -> None:
    """A full badugi table fits a 320×568 screen while everyone draws and grows past it when the bets come
    back (each seat's bet chip). My draw that closes the draw and my betting turn that starts with the next
    view are two turns: the second scrolls my area into view (it did not: it was still "my turn" from the
    draw), and another view of the same turn leaves the page where the player scrolled it."""
    from crowd_views import crowd_view

    page = harness(static_page, "badugi_draw", {"width": 320, "height": 568})
    draw = crowd_view("badugi", 6, "draw")
    me = draw["me"]["id"]
    assert me in draw["pending"]
    render(page, draw)
    got = page.evaluate(AREA)
    assert got["inView"] and not got["grown"], got
    betting = crowd_view("badugi", 6, "betting")
    betting["street"] = draw["street"] + 1
    betting["toAct"], betting["pending"] = me, [me]
    render(page, betting)
    got = page.evaluate(AREA)
    assert got["grown"], "the full table no longer grows past this screen: the test needs another view"
    assert got["inView"] and got["scrollY"] > 0, got
    # the same turn again (a seat's connection changed): the page stays where the player scrolled it
    page.evaluate("() => window.scrollTo(0, 0)")
    again = copy.deepcopy(betting)
    again["seats"][1]["away"] = not again["seats"][1]["away"]
    render(page, again)
    got = page.evaluate(AREA)
    assert got["grown"] and got["scrollY"] == 0, got


def test_the_hands_end_leaves_the_result_in_view(static_page: Any) -> None:
    """At the hand's end a short phone's table grows for the result's banner; my "next hand" is no turn the
    table waits for, so the page stays where it was (the top, the banner in view) instead of scrolling to my
    buttons and the banner out of view."""
    page = harness(static_page, "holdem_raise", {"width": 320, "height": 568})
    end = load("holdem_showdown")
    end["pending"] = [end["me"]["id"]]
    page.evaluate("() => window.scrollTo(0, 0)")
    render(page, end)
    got = page.evaluate(AREA)
    banner = page.evaluate("() => { const b = document.querySelector('.banner').getBoundingClientRect();"
                           " return b.top >= 0 && b.bottom <= window.innerHeight; }")
    assert got["scrollY"] == 0 and banner, got
