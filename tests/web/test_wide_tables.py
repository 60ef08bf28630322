"""A laptop's table (1,000 px and wider: the seats on an arc, the side panel beside): no seat over another,
and the centre (pot, side pots, board, Indian's used cards) and the hand-end banner over no seat, for every
mode, player count and phase of the worst-case views (crowd_views.py: every seat marked, badged and, at a
hand's end, shown with the longest hand name); and each seat's bet chip and marks over no other seat, the
centre over no seat with the raise panel open.

Why: the phone's layout was held to this (test_audit_fixes.py) and the wide one was not. At 1,280×800 a
table of nine or ten at a hand's end put its side seats over each other, and an Indian heads-up's pot lay on
the opponent's seat, whose forehead card makes it tall; the seats now spread round the felt's empty bottom
and then take denser forms until none overlap, the centre moves clear of them and the chips go where they
cover no one, as on a phone; and on a screen 900 px tall or less the raise panel takes my cards' place while
it is open, as on a phone (it squeezed the table until the pot lay on a seat).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from crowd_views import MODES, all_crowd_views, button_views, crowd_view, raise_open, render, sweep
from test_audit_fixes import _VIEWS_HEAD, CHIPS_CLEAR, POT_CLEAR
from webplay import harness, shot

pytestmark = pytest.mark.browser

#: every seat against every other, and each part of the centre and the banner against every seat
CLEAR = _VIEWS_HEAD + r"""
    const seats = [...document.querySelectorAll('.seat')]
      .map((e) => [e.dataset.seatId, e.getBoundingClientRect()]);
    for (const [id, r] of seats) if (r.left < 0 || r.right > W) out.push(`${label}: ${id} out`);
    for (let i = 0; i < seats.length; i++) for (let j = i + 1; j < seats.length; j++)
      if (hit(seats[i][1], seats[j][1])) out.push(`${label}: ${seats[i][0]} x ${seats[j][0]}`);
    for (const e of document.querySelectorAll('.table-main > .center > *, .table-main > .banner')) {
      const r = e.getBoundingClientRect();
      if (!r.width || !r.height) continue;
      for (const [id, s] of seats) if (hit(r, s)) out.push(`${label}: ${e.className.split(' ')[0]} x ${id}`);
    }
  }
  return out;
}"""


def _chips_and_raise_clear(static_page: Any, size: dict[str, int]) -> Any:
    """A page of ``size`` where no bet chip or mark of any seat's turn at the button covers another seat and,
    with the raise panel open, no part of the centre covers a seat (every betting mode and player count)."""
    page = harness(static_page, "holdem_ten_player", size)
    problems: list[str] = sweep(page, CHIPS_CLEAR, button_views())
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems[:40])
    problems = sweep(page, POT_CLEAR, _raised())
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems[:40])
    return page


def _raised() -> list[tuple[str, dict[str, Any]]]:
    """The betting views of every betting mode and player count with the raise panel open."""
    return [(f"{mode}/{n}/raise", raise_open(crowd_view(mode, n, "betting")))
            for mode in ("holdem", "omaha", "indian", "indian2") for n in range(2, MODES[mode][1] + 1)]


#: the screens, and two laptops' windows (1,280×720 and 1,366×768 less the browser's bars): the short ones
#: gave 63 and 21 problems before the player's own area took a phone's short-screen forms, the side seats of
#: a crowded arc moved apart up and down, and the centre found the room beside a seat across the middle
@pytest.mark.parametrize("size", [{"width": 1024, "height": 768}, {"width": 1280, "height": 800},
                                  {"width": 1366, "height": 768}, {"width": 1280, "height": 610},
                                  {"width": 1366, "height": 657}],
                         ids=["1024x768", "1280x800", "1366x768", "1280x610", "1366x657"])
def test_a_wide_table_puts_nothing_over_a_seat(static_page: Any, size: dict[str, int]) -> None:
    page = harness(static_page, "seven_six_player", size)
    problems: list[str] = sweep(page, CLEAR, all_crowd_views())
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems[:40])
    render(page, crowd_view("holdem", 10, "handEnd"))
    shot(page, f"wide-holdem-ten-hand-end-{size['width']}")
    render(page, crowd_view("indian", 2, "betting"))
    shot(page, f"wide-indian-heads-up-{size['width']}")


def test_a_wide_tables_chips_marks_and_raise_cover_no_seat(static_page: Any) -> None:
    """At 1,280×800 a chip under a side seat of a table of nine lay on the seat below, and with the raise
    panel open the table was squeezed until an Indian heads-up's pot lay on the opponent's seat."""
    page = _chips_and_raise_clear(static_page, {"width": 1280, "height": 800})
    render(page, raise_open(crowd_view("indian", 2, "betting")))
    page.click("[data-action='nl.raise']")
    shot(page, "wide-indian-heads-up-raise-1280")


def test_a_short_laptop_windows_chips_marks_and_raise_cover_no_seat(static_page: Any) -> None:
    """1,280×610: a 1,280×720 laptop's screen less the browser's bars, where the table has a third less height
    than at 1,280×800; each seat's bet chip and marks still go where they cover no other seat, and with the
    raise panel open (its presets and slider side by side) the centre covers no seat: in three rows the panel
    squeezed an Indian table of ten until its pot lay on the top seat."""
    page = _chips_and_raise_clear(static_page, {"width": 1280, "height": 610})
    render(page, raise_open(crowd_view("holdem", 6, "betting")))
    page.click("[data-action='nl.raise']")
    shot(page, "wide-holdem-six-raise-1280x610")


#: what a player reads from across the room: a board card's width, my card's, a seat's card's height, its text
SIZES = """() => {
  const w = (sel, side = 'width') => document.querySelector(sel).getBoundingClientRect()[side];
  return { board: w('.board .card'), mine: w('.my-cards .card'), seatCard: w('.seat .cards .card', 'height'),
           seatText: parseFloat(getComputedStyle(document.querySelector('.seat')).fontSize) };
}"""


def test_a_big_screen_grows_the_table(static_page: Any) -> None:
    """A TV or a monitor read from across the room (1,920×1,080): the table's cards and words are a fifth or
    more larger than on a laptop's 1,366×768, where they kept the laptop's size before (style.css's
    --scale), and nothing lies on a seat for any mode, player count or phase."""
    sizes: dict[int, dict[str, float]] = {}
    for size in ({"width": 1366, "height": 768}, {"width": 1920, "height": 1080}):
        page = harness(static_page, "seven_six_player", size)
        render(page, crowd_view("holdem", 10, "handEnd"))
        sizes[size["width"]] = page.evaluate(SIZES)
    grown = {k: round(sizes[1920][k] / sizes[1366][k], 2) for k in sizes[1366]}
    assert all(ratio >= 1.2 for ratio in grown.values()), (grown, sizes)
    shot(page, "big-holdem-ten-hand-end-1920")
    problems: list[str] = sweep(page, CLEAR, all_crowd_views())
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems[:40])
