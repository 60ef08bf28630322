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

from crowd_views import crowd_view, render
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


#: Each seat the phase line ("7포커 하이로우 · 1/20판 · 초이스 · 기본 10") is written over, by how many px.
UNDER_PHASE = r"""() => {
  const p = document.querySelector('[data-testid=phase-line]').getBoundingClientRect();
  return [...document.querySelectorAll('.seat')].map((s) => [s.dataset.seatId, s.getBoundingClientRect()])
    .filter(([, r]) => Math.min(r.right, p.right) - Math.max(r.left, p.left) > 0.5
      && Math.min(r.bottom, p.bottom) - Math.max(r.top, p.top) > 0.5)
    .map(([id, r]) => `${id} by ${(Math.min(r.bottom, p.bottom) - Math.max(r.top, p.top)).toFixed(1)} px`);
}"""


@pytest.mark.parametrize("size", SHORT, ids=["360x640", "320x568"])
def test_the_phase_line_is_written_over_no_seat(static_page: Any, size: dict[str, int]) -> None:
    """At 320×568 a four-player 7 Poker Hi-Lo choice with one pot (the common case) stacked the side seats
    below the top one, down into the phase line's band: "7포커 하이로우 · 1/20판" lay over their 선택 완료
    badges by up to 21 px (with the first hands' tips open). The table was still "clear" (inside its box), so
    it neither tried narrower seats nor grew. And a spectator's bottom seat, placed on the band's edge, met
    the line by a pixel, by four in large text (a taller line than the 32 px band). Every mode, two to six
    players, each phase, one pot, tips open or not, large text, a spectator's full table: no seat under the
    phase line."""
    page = harness(static_page, "seven_six_player", size)
    seven, others = ["sevenPoker", "sevenHiLo"], ["badugi", "holdem", "indian"]
    crowd = ["sevenPoker", "holdem"]
    tables = [*itertools.product(seven, range(2, 7), ["betting", "choice", "handEnd"], [False]),
              *itertools.product(others, range(2, 7), ["betting", "handEnd"], [False]),
              *itertools.product(crowd, range(2, 7), ["betting", "handEnd"], [True])]  # (spectators)
    under = []
    for tips, large in ((False, False), (True, False), (False, True)):
        page.evaluate(f"window.tips = {'true' if tips else 'false'}")
        page.evaluate(f"document.body.classList.toggle('large-text', {'true' if large else 'false'})")
        how = f"{'/tips' if tips else ''}{'/large' if large else ''}"
        for mode, n, phase, spectator in tables:
            v = crowd_view(mode, n, phase, spectator)
            me = v["me"]
            v["pots"] = [{"amount": 40, "eligible": [s["id"] for s in v["seats"]]}]
            v["potTotal"] = 40
            for k, seat in enumerate(v["seats"]):  # the dealer (선) on the seat after mine, as a deal puts it
                seat.update(sun=k == 1 and v["betting"] == "korean", dealer=k == 1, allIn=False, away=False)
            if phase == "choice" and me:
                ids = [c["id"] for c in me["choice"]]
                me.update(legalActions=[{"type": "choose", "cardIds": ids}], handName="원페어",
                          hint={"type": "choose", "discardId": ids[0], "openId": ids[1]})
                v["pending"] = [me["id"]]
                for seat in v["seats"][1:]:
                    seat["choiceDone"] = True
            render(page, v)
            who = f"{mode}/{n}/{phase}{how}{'/spectator' if spectator else ''}"
            under += [f"{who}: {s}" for s in page.evaluate(UNDER_PHASE)]
    assert not under, under
