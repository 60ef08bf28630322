"""Small phones (360×740 and 320×568) with a full table: 7 Poker and 7 Poker Hi-Lo showdowns (six seats, the
most those modes allow, poker.md §2.1) show every card whole, the turn ring of a ten-seat hold'em table leaves
the acting player's stack readable, and the host's 방장 button leaves the room's code readable in the top bar
(docs/decisions/0049-small-phones-and-spectator-chat.md). Everything is checked by element boxes.

What "no card overlaps another beyond the intended fan" means (table/fan.js, mycards.js): cards of one row
(a seat's ``.cards``, my cards, the board) on the same line may overlap left to right only as a fan, where
each card leaves at least the left strip of the card before it uncovered (14 px for a face, which holds its
rank and suit, 4 px for a back; at least that much of every card stays in view whatever comes after it);
cards of a row's two lines (a wrapped seat) and cards of different rows never overlap at all. "Clipped": a
card's box reaches past the screen's left or right edge, past its seat's box, past an ancestor that hides or
scrolls its overflow, or (a seat's card or mine) under the hand-end banner.
"""

from __future__ import annotations

import itertools
import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from crowd_views import crowd_view, render, sweep
from test_play import open_room
from webplay import SHOTS, harness, load, shot

from pokerroom.server.room.tokens import CODE_ALPHABET, CODE_LENGTH

pytestmark = pytest.mark.browser

SMALL = [{"width": 360, "height": 740}, {"width": 320, "height": 568}]
IDS = ["360x740", "320x568"]

CARD_PROBLEMS = r"""() => {
  const out = [];
  const W = document.documentElement.clientWidth;
  const top = document.getElementById('topbar').getBoundingClientRect().bottom + window.scrollY;
  const cards = [...document.querySelectorAll('.table-screen .card')]
    .filter((c) => c.getClientRects().length);
  const rowOf = (c) => c.closest('.cards, .my-cards, .board, .banner, .discarded-note') ?? c.parentElement;
  const isBack = (c) => c.classList.contains('card-back') || c.classList.contains('stacked');
  const name = (c) => `${c.closest('[data-seat-id]')?.dataset.seatId ?? rowOf(c).className.split(' ')[0]}`
    + `:${c.getAttribute('aria-label')}`;
  const box = (c) => c.getBoundingClientRect();
  // a wrapped seat row (fan.js): the cards after its .row-break are its second line
  const lineOf = (c) => {
    let n = 0;
    for (let e = c.previousElementSibling; e; e = e.previousElementSibling) {
      n += e.classList.contains('row-break');
    }
    return n;
  };
  for (let i = 0; i < cards.length; i++) {
    const a = cards[i], ra = box(a);
    // clipped by the screen (sideways; up and down: the page, which scrolls on a short phone, render.js
    // placeTable, and starts under the top bar), the seat's box, or an ancestor that cuts its overflow
    if (ra.left < -0.5 || ra.right > W + 0.5) out.push(`${name(a)} off screen ${ra.left}..${ra.right}`);
    const pageTop = ra.top + window.scrollY;
    if (pageTop < top - 0.5 || ra.bottom + window.scrollY > document.documentElement.scrollHeight + 0.5) {
      out.push(`${name(a)} off the page ${pageTop}`);
    }
    const seat = a.closest('.seat');
    if (seat) {
      const s = seat.getBoundingClientRect();
      if (ra.left < s.left - 0.5 || ra.right > s.right + 0.5
          || ra.top < s.top - 0.5 || ra.bottom > s.bottom + 0.5) {
        out.push(`${name(a)} sticks out of its seat`);
      }
    }
    // a seat's card or mine hidden under the hand-end banner (nearly opaque; the board it may cover when
    // nothing else is free, banner.js placeBanner)
    const banner = document.querySelector('.table-screen .banner');
    if (banner && !banner.contains(a) && !a.closest('.board')) {
      const r = banner.getBoundingClientRect();
      if (Math.min(ra.right, r.right) - Math.max(ra.left, r.left) > 0.5
          && Math.min(ra.bottom, r.bottom) - Math.max(ra.top, r.top) > 0.5) {
        out.push(`${name(a)} under the banner`);
      }
    }
    for (let p = a.parentElement; p && p !== document.body; p = p.parentElement) {
      const st = getComputedStyle(p);
      if (st.overflowX === 'visible' && st.overflowY === 'visible') continue;
      const r = p.getBoundingClientRect();
      const cutX = st.overflowX !== 'visible' && (ra.left < r.left - 0.5 || ra.right > r.right + 0.5);
      const cutY = st.overflowY !== 'visible' && (ra.top < r.top - 0.5 || ra.bottom > r.bottom + 0.5);
      if (cutX || cutY) out.push(`${name(a)} cut by .${p.className}`);
    }
    for (let j = i + 1; j < cards.length; j++) {
      const b = cards[j], rb = box(b);
      const x = Math.min(ra.right, rb.right) - Math.max(ra.left, rb.left);
      const y = Math.min(ra.bottom, rb.bottom) - Math.max(ra.top, rb.top);
      if (x <= 0.5 || y <= 0.5) continue;
      const sameLine = rowOf(a) === rowOf(b) && lineOf(a) === lineOf(b);
      if (!sameLine) {
        out.push(`${name(a)} x ${name(b)} overlap ${Math.round(x)}x${Math.round(y)}`);
        continue;
      }
      const [l, r] = ra.left <= rb.left ? [a, b] : [b, a];
      const shown = box(r).left - box(l).left;
      if (shown < (isBack(l) ? 4 : 14) - 0.5) {
        out.push(`${name(l)} shows ${shown.toFixed(1)} px under ${name(r)}`);
      }
    }
  }
  return [cards.length, out];
}"""


LOWS = """() => [...document.querySelectorAll('.seat .hand-label .part:last-child')].map((e) => {
  const r = e.getBoundingClientRect(), label = e.parentElement.getBoundingClientRect();
  return [e.textContent, r.width > 0 && r.left >= label.left - 0.5 && r.right <= label.right + 0.5];
})"""


@pytest.mark.parametrize("size", SMALL, ids=IDS)
def test_full_table_showdowns_show_every_card_whole(static_page: Any, size: dict[str, int]) -> None:
    """Every seat's seven cards at hand end (a Hi-Lo seat also names its declaration and low), then the
    ten-seat hold'em and Omaha showdowns (two and four cards a seat, the board)."""
    page = harness(static_page, "seven_six_player", size)
    # mode, seats, cards drawn in all (every seat's, mine among them, and the board)
    for mode, n, total in [("sevenPoker", 6, 6 * 7), ("sevenHiLo", 6, 6 * 7), ("holdem", 10, 10 * 2 + 5),
                           ("omaha", 10, 10 * 4 + 5)]:
        for spectator in (False, True):
            v = crowd_view(mode, n, "handEnd", spectator=spectator)
            render(page, v)
            page.wait_for_timeout(50)
            who = "spectator" if spectator else "player"
            if n == 6:
                shot(page, f"small-{mode}-showdown-{who}-{size['width']}")
            count, problems = page.evaluate(CARD_PROBLEMS)
            label = f"{mode} {who} {size['width']}"
            assert count == total, (label, count)
            assert not problems, f"{label}: {len(problems)} problems:\n" + "\n".join(problems[:30])
            if mode == "sevenHiLo":  # each seat's low is read whole, however long its high
                lows = page.evaluate(LOWS)
                assert len(lows) == (5 if not spectator else 6) and all(whole for _, whole in lows), lows
                assert {text for text, _ in lows} == {"7탑"}


MY_CARDS = """() => [...document.querySelectorAll('[data-testid=my-cards] .card')].map((e) => {
  const r = e.getBoundingClientRect(); return [r.left, r.right]; })"""


@pytest.mark.parametrize("size", SMALL, ids=IDS)
def test_my_seven_cards_fan_again_when_the_phone_turns(static_page: Any, size: dict[str, int]) -> None:
    """My seven cards drawn on a wider screen, then the screen narrows (a phone turned back upright, a window
    resized) with no new view: the row fans to the new width by itself, every card on screen with at least
    its left strip (rank and suit) uncovered."""
    page = harness(static_page, "seven_six_player", {"width": 600, "height": 900})
    render(page, crowd_view("sevenPoker", 6, "handEnd"))
    page.set_viewport_size(size)
    page.wait_for_timeout(100)
    boxes = page.evaluate(MY_CARDS)
    assert len(boxes) == 7, boxes
    assert boxes[0][0] >= -0.5 and boxes[-1][1] <= size["width"] + 0.5, (size, boxes)
    assert all(b[0] - a[0] >= 14 for a, b in itertools.pairwise(boxes)), boxes


def test_the_card_check_sees_a_card_too_far_under_another(static_page: Any) -> None:
    """The check above is not blind: cards fanned closer than the strip, under the banner, or pushed off their
    seat, it complains."""
    page = harness(static_page, "seven_six_player", SMALL[1])
    render(page, crowd_view("sevenPoker", 6, "handEnd", spectator=True))
    page.add_style_tag(content=".seat .cards .card + .card { margin-left: -18px !important; }")
    _, problems = page.evaluate(CARD_PROBLEMS)
    assert any("px under" in p for p in problems), problems
    page.add_style_tag(content=".table-screen .banner { top: 0 !important; bottom: 0 !important; }")
    _, problems = page.evaluate(CARD_PROBLEMS)
    assert any("under the banner" in p for p in problems), problems
    page.add_style_tag(content=".seat .cards { margin-left: -400px !important; }")
    _, problems = page.evaluate(CARD_PROBLEMS)
    assert any("off screen" in p for p in problems), problems
    assert any("out of its seat" in p for p in problems), problems


RING_OVER_STACK = r"""(views) => {
  const out = [];
  // the ring is a circle (r 12 + half its 4 px stroke, of a 30-unit box): does it reach into the box of the
  // text itself (a range over the glyphs, not the block that holds them)?
  const hit = (ring, b) => {
    const k = ring.width / 30, cx = ring.left + ring.width / 2, cy = ring.top + ring.height / 2;
    const dx = Math.max(b.left - cx, 0, cx - b.right), dy = Math.max(b.top - cy, 0, cy - b.bottom);
    return Math.hypot(dx, dy) < 14 * k - 0.5;
  };
  const glyphs = (el) => {
    const r = document.createRange();
    r.selectNodeContents(el);
    return r.getBoundingClientRect();
  };
  for (const v of views) {
    window.renderView(v, v.me ? 'player' : 'spectator');
    const mine = v.me && v.toAct === v.me.id;
    const area = mine ? document.querySelector('[data-testid=me-area]')
      : document.querySelector(`.seat[data-seat-id=${v.toAct}]`);
    const rings = area.querySelectorAll('.timer-ring');
    const label = `${v.me ? 'player' : 'spectator'} toAct ${v.toAct}`;
    if (rings.length !== 1) { out.push(`${label}: ${rings.length} rings`); continue; }
    const ring = rings[0].getBoundingClientRect();
    const stack = glyphs(area.querySelector(mine ? '[data-testid=my-stack]' : '.stack'));
    const nameBox = glyphs(area.querySelector('.name'));
    if (hit(ring, stack)) out.push(`${label}: the ring covers the stack`);
    if (hit(ring, nameBox)) out.push(`${label}: the ring covers the name`);
    if (ring.left < 0 || ring.right > window.innerWidth) out.push(`${label}: ring off screen`);
  }
  return out;
}"""


@pytest.mark.parametrize("size", SMALL, ids=IDS)
def test_turn_ring_leaves_the_acting_stack_readable_at_ten_seats(static_page: Any,
                                                                 size: dict[str, int]) -> None:
    """Ten-seat hold'em, each seat acting in turn (as a spectator sees it, and as the player of seat 1 does):
    the ring never lies over the acting player's stack or name."""
    page = harness(static_page, "holdem_ten_player", size)
    views = []
    for spectator in (False, True):
        for k in range(10):
            v = crowd_view("holdem", 10, "betting", spectator=spectator)
            v["toAct"] = v["seats"][k]["id"]
            v["pending"] = [v["toAct"]]
            views.append(v)
    problems = sweep(page, RING_OVER_STACK, views)
    assert not problems, problems
    for k in (5, 8):  # a top-row seat (the ring under it) and a side one (in its corner towards the middle)
        page.evaluate("(v) => { window.renderView(v, 'spectator'); window.scrollTo(0, 0); }", views[10 + k])
        shot(page, f"small-holdem-ten-ring-{size['width']}-seat{k + 1}")


TOP_BAR = r"""() => {
  const bar = document.getElementById('topbar').getBoundingClientRect();
  const title = document.getElementById('title');
  const code = title.querySelector('small');
  const t = title.getBoundingClientRect(), c = code.getBoundingClientRect();
  const buttons = [...document.querySelectorAll('#topbar button')].filter((b) => !b.hidden && b.offsetWidth)
    .map((b) => [b.textContent, b.getBoundingClientRect()]);
  const hit = (a, b) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > 0.5
    && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 0.5;
  return {
    code: code.textContent, buttons: buttons.map(([text]) => text),
    // the code is drawn whole: inside the title's box, which cuts nothing off (no ellipsis), on the bar
    codeWhole: c.width > 0 && c.left >= t.left - 0.5 && c.right <= t.right + 0.5
      && title.scrollWidth <= title.clientWidth + 0.5 && c.right <= bar.right,
    covered: buttons.filter(([, r]) => hit(r, c) || hit(r, t)).map(([text]) => text),
    offBar: buttons.filter(([, r]) => r.left < bar.left - 0.5 || r.right > bar.right + 0.5)
      .map(([text]) => text),
  };
}"""


@pytest.mark.parametrize("size", SMALL, ids=IDS)
def test_host_button_leaves_the_room_code_readable(live_server: Any, open_page: Any,
                                                   size: dict[str, int]) -> None:
    """In a game, the host's bar holds 방장, 기록, 장부, 규칙 and 설정: the room's code (what friends type to
    join) stays whole beside them."""
    players, _, code = open_room(live_server, open_page, "holdem", 2, size)
    host = players[0]
    host.wait_for_selector("[data-testid=host-menu]:not([hidden])")
    bar = host.evaluate(TOP_BAR)
    assert bar["code"] == code
    assert {"방장", "기록", "장부", "규칙", "설정"} <= set(bar["buttons"]), bar
    assert bar["codeWhole"] and not bar["covered"] and not bar["offBar"], bar
    host.screenshot(path=str(SHOTS / f"small-top-bar-host-{size['width']}.png"),
                    clip={"x": 0, "y": 0, "width": size["width"], "height": 44})
    # a code is 10 random letters of the code alphabet: the widest and the narrowest take the same room
    widths = []
    for letter in ("m", "w", "i", "2"):
        assert letter in CODE_ALPHABET
        host.evaluate("(t) => { document.querySelector('#title small').textContent = t; }",
                      letter * CODE_LENGTH)
        other = host.evaluate(TOP_BAR)
        assert other["codeWhole"] and not other["covered"] and not other["offBar"], (letter, other)
        widths.append(host.evaluate(
            "() => document.querySelector('#title small').getBoundingClientRect().width"))
    assert max(widths) - min(widths) < 0.5, widths


#: The acting seat's open cards whose corner index (rank over suit: the card's top-left 12×24 px) the turn
#: ring's circle reaches into.
RING_OVER_INDEX = r"""(id) => {
  const seat = document.querySelector(`.seat[data-seat-id=${id}]`);
  const ring = seat.querySelector('.timer-ring').getBoundingClientRect();
  const k = ring.width / 30, cx = ring.left + ring.width / 2, cy = ring.top + ring.height / 2;
  return [...seat.querySelectorAll('.card:not(.card-back):not(.stacked)')].filter((c) => {
    const r = c.getBoundingClientRect();
    const dx = Math.max(r.left - cx, 0, cx - (r.left + 12)), dy = Math.max(r.top - cy, 0, cy - (r.top + 24));
    return Math.hypot(dx, dy) < 14 * k - 0.5;
  }).map((c) => c.getAttribute('aria-label'));
}"""


#: Whether the acting seat's turn ring is on the table (inside its box) and over no other seat.
INSIDE_TABLE = r"""(id) => {
  const main = document.querySelector('.table-screen .seats').parentElement.getBoundingClientRect();
  const r = document.querySelector(`.seat[data-seat-id=${id}] > .timer-ring`).getBoundingClientRect();
  const apart = (a, b) => Math.min(a.right, b.right) - Math.max(a.left, b.left) <= 0.5
    || Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) <= 0.5;
  return r.top >= main.top - 0.5 && r.left >= main.left - 0.5 && r.right <= main.right + 0.5
    && r.bottom <= main.bottom + 0.5
    && [...document.querySelectorAll(`.seat:not([data-seat-id=${id}])`)]
      .every((s) => apart(r, s.getBoundingClientRect()));
}"""


@pytest.mark.parametrize("size", [{"width": 360, "height": 740}, {"width": 390, "height": 844}],
                         ids=["360x740", "390x844"])
def test_a_full_seven_poker_tables_turn_ring_leaves_every_open_cards_rank_and_suit(
        static_page: Any, size: dict[str, int]) -> None:
    """Six at 7 Poker: a top-row seat has no room beside or under it for its ring, which went into its
    bottom-right corner over its newest open card, the rank left and the suit hidden; it now sits half under
    that corner, in the gap above the next row, and every open card's rank and suit stay in view. (At 320 px
    the rows are too close for that: the next test.)"""
    page = harness(static_page, "seven_six_player", size)
    covered = []
    for k in range(1, 6):
        v = crowd_view("sevenPoker", 6, "betting")
        for s in v["seats"]:  # (a betting round just opened: no bet chips, badges or last actions yet)
            s.update(committedRound=0, lastAction=None, away=False, allIn=False)
        v["toAct"] = v["seats"][k]["id"]
        v["pending"] = [v["toAct"]]
        render(page, v)
        covered += [f"seat {k + 1}: {label}" for label in page.evaluate(RING_OVER_INDEX, v["toAct"])]
    shot(page, f"small-seven-six-ring-{size['width']}")
    assert not covered, covered


def test_a_top_row_turn_ring_of_a_full_seven_poker_table_at_320_px_sits_astride_the_seats_edge(
        static_page: Any) -> None:
    """At 320×568 the rows of six 7 Poker seats are too close for a ring half under a seat: a top corner
    seat's ring went inside its bottom-right corner, over the suit of its newest open card (하늘's 9♦,
    서연's 10♥). It now sits astride the seat's right edge, right of that card's rank and suit, or, with no
    room there, its left edge, over the hidden cards the row starts with. (The left seat of the middle row,
    under the 보스 badge, still has its ring in the corner: a side pot's row is where it would go.)"""
    page = harness(static_page, "seven_six_player", {"width": 320, "height": 568})
    covered = []
    for k in (2, 3, 4):  # the top row
        v = crowd_view("sevenPoker", 6, "betting")
        for s in v["seats"]:
            s.update(committedRound=0, lastAction=None, away=False, allIn=False)
        v["toAct"] = v["seats"][k]["id"]
        v["pending"] = [v["toAct"]]
        render(page, v)
        covered += [f"seat {k + 1}: {label}" for label in page.evaluate(RING_OVER_INDEX, v["toAct"])]
        assert page.evaluate(INSIDE_TABLE, v["toAct"]), k
    shot(page, "small-seven-six-ring-320")
    assert not covered, covered


#: Each hi-lo seat label's two parts: (text of the high, its shown width, the low, whether it is shown whole).
HILO_PARTS = """() => [...document.querySelectorAll('.seat .hand-label.split')].map((e) => {
  const [high, low] = e.querySelectorAll('.part'), label = e.getBoundingClientRect();
  const h = high.getBoundingClientRect(), l = low.getBoundingClientRect();
  return [high.textContent, Math.min(h.right, label.right) - h.left, low.textContent,
          l.width > 0 && l.left >= label.left - 0.5 && l.right <= label.right + 0.5];
})"""


@pytest.mark.parametrize("size", SMALL, ids=IDS)
def test_a_hi_lo_seats_label_keeps_some_of_its_high_in_english_too(static_page: Any,
                                                                   size: dict[str, int]) -> None:
    """The low of a hi-lo seat's label is kept whole and the high cut to fit: the room the low needs was
    counted at 1em a character, right for Hangul, but an English low ("Low 7-high", ten characters of about
    .6em) was given more than the seat's width, and the label read "/ Low 7-high", its high cut to nothing.
    Now each character counts as wide as it is, and a high keeps at least its first letters."""
    names = {"ko": ("J 원페어", "Q탑"), "en": ("J pair", "Q-high")}  # (as the client words them)
    for lang, (high_name, low_name) in names.items():
        page = static_page(f"/fixtures/harness.html?f=seven_six_player&lang={lang}", size, name=lang)
        page.wait_for_function("() => window.rendered === true")
        for n in (3, 6):
            v = crowd_view("sevenHiLo", n, "handEnd", spectator=True)
            for sd in v["showdown"]:
                sd.update(handName=high_name, lowName=low_name, lowBest=[])
            render(page, v)
            page.wait_for_timeout(50)
            parts = page.evaluate(HILO_PARTS)
            assert len(parts) == n, parts
            for high, shown, low, whole in parts:
                assert high == high_name and low.endswith(low_name), (high, low)
                assert shown >= 12, (lang, n, high, shown, low)  # a letter and the ellipsis at least
                if lang == "ko":
                    assert whole, (n, high, low)
            shot(page, f"small-hilo-labels-{lang}-{n}-{size['width']}")


#: Each hi-lo seat label without a low: (text of the high, whether the high is shown whole).
NO_LOW_HIGHS = """() => [...document.querySelectorAll('.seat .hand-label.split.no-low')].map((e) => {
  const high = e.querySelector('.part'), label = e.getBoundingClientRect(), h = high.getBoundingClientRect();
  return [high.textContent, h.width > 0 && h.left >= label.left - 0.5 && h.right <= label.right + 0.5,
          high.scrollWidth <= high.clientWidth + 0.5];
})"""


@pytest.mark.parametrize("size", SMALL, ids=IDS)
def test_a_hi_lo_seat_without_a_low_keeps_its_high_whole(static_page: Any, size: dict[str, int]) -> None:
    """A seat whose hand has no low plays for the high alone: its label keeps the high whole and lets
    "로우 없음" give way (a spectator's Omaha Hi-Lo seats at 390 px read "잭 … / 로우 없음")."""
    names = {"ko": "J 투페어", "en": "Jacks and tens"}  # (a long English high: the label's worst case)
    for lang, high_name in names.items():
        page = static_page(f"/fixtures/harness.html?f=seven_six_player&lang={lang}", size, name=lang)
        page.wait_for_function("() => window.rendered === true")
        for n in (3, 6):
            v = crowd_view("sevenHiLo", n, "handEnd", spectator=True)
            for sd in v["showdown"]:
                sd.update(handName=high_name, rankName=high_name, lowName=None, lowBest=[])
            render(page, v)
            page.wait_for_timeout(50)
            highs = page.evaluate(NO_LOW_HIGHS)
            assert len(highs) == n, highs
            for high, inside, uncut in highs:
                assert high == high_name and inside and uncut, (lang, n, high, inside, uncut)
            shot(page, f"small-hilo-no-low-{lang}-{n}-{size['width']}")


@pytest.mark.parametrize("size", SMALL, ids=IDS)
def test_a_hi_lo_seat_that_declared_one_side_names_that_sides_hand_whole(static_page: Any,
                                                                          size: dict[str, int]) -> None:
    """A seat that declared 하이 competes with its high alone, 로우 with its low: its label names that
    hand, whole (at 360 px a six-seat table read "7 원… / 로우 J탑" for a player who declared 하이); a swing
    names both."""
    page = harness(static_page, "seven_six_player", size)
    v = crowd_view("sevenHiLo", 6, "handEnd", spectator=True)
    sides = ["high", "low", "swing", "high", "low", "swing"]
    for seat, side in zip(v["seats"], sides, strict=True):
        seat["declare"] = side
    for sd in v["showdown"]:
        sd.update(handName="원페어", rankName="7 원페어", lowName="J탑", lowBest=[])
    render(page, v)
    page.wait_for_timeout(50)
    labels = page.evaluate("""() => [...document.querySelectorAll('.seat')].map((s) => {
      const l = s.querySelector('.hand-label');
      return [s.dataset.seatId, l.textContent, l.scrollWidth <= l.clientWidth + 0.5]; })""")
    side_of = {seat["id"]: side for seat, side in zip(v["seats"], sides, strict=True)}
    want = {"high": "7 원페어", "low": "로우 J탑", "swing": "7 원페어 / 로우 J탑"}
    for pid, text, whole in labels:
        assert text == want[side_of[pid]], (pid, side_of[pid], text)
        if side_of[pid] != "swing":
            assert whole, (pid, text)
    shot(page, f"small-hilo-declared-{size['width']}")


#: Each open card of a seat whose rank (its corner's text) runs under the next card of the row, by how much.
RANKS_UNDER = r"""() => {
  const out = [];
  for (const row of document.querySelectorAll('.seat .cards')) {
    const cards = [...row.querySelectorAll('.card')];
    for (let i = 0; i + 1 < cards.length; i++) {
      const b = cards[i].querySelector('b');
      if (!b) continue;
      const r = b.getBoundingClientRect(), next = cards[i + 1].getBoundingClientRect();
      if (next.left > r.left && r.right - next.left > 0.5 && next.top < r.bottom) {
        out.push(`${b.textContent} under by ${(r.right - next.left).toFixed(1)} px`);
      }
    }
  }
  return out;
}"""


@pytest.mark.parametrize("size", [*SMALL, {"width": 390, "height": 844}], ids=[*IDS, "390x844"])
def test_a_ten_in_a_fanned_row_of_a_seat_reads_10(static_page: Any, size: dict[str, int]) -> None:
    """A seat's row of 7 Poker cards shows each card's first 14 px: a one-letter rank fits, but "10" was
    18 px wide and its 0 ran under the next card ("1(", up to 5 px under at 320 to 390 px). A ten's rank is
    narrowed to fit."""
    page = harness(static_page, "seven_six_player", size)
    under = []
    for n in (3, 5, 6):
        for phase in ("betting", "handEnd"):
            v = crowd_view("sevenPoker", n, phase)
            for k, seat in enumerate(v["seats"]):  # every open card but the last a ten
                for j in range(len(seat["up"]) - 1):
                    seat["up"][j] = {"id": 8 + 13 * ((j + k) % 4), "rank": 10, "suit": "SDHC"[(j + k) % 4]}
            render(page, v)
            page.wait_for_timeout(30)
            under += [f"{n} seats, {phase}: {x}" for x in page.evaluate(RANKS_UNDER)]
    shot(page, f"small-seven-tens-{size['width']}")
    assert not under, under


#: Every bet chip over a seat's badge (its last action, 올인, 자리 비움, a draw's counts) and anything of a
#: seat over the centre (the pot, the board), and whether the table grew past its height.
CHIPS_OVER_BADGES = r"""() => {
  const out = [];
  const over = (a, b) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > 0.5
    && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 0.5;
  for (const c of document.querySelectorAll('.seat > .bet-chip')) {
    if (!(c.getBoundingClientRect().width > 0)) continue;
    for (const b of document.querySelectorAll('.seat .badge')) {
      if (over(c.getBoundingClientRect(), b.getBoundingClientRect())) {
        const [who, whose] = [c, b].map((e) => e.closest('.seat').dataset.seatId);
        out.push(`${who}'s chip over ${whose}'s ${b.textContent}`);
      }
    }
  }
  for (const c of document.querySelectorAll('.center > *')) {  // (nor over the pot or the board)
    if (!(c.getBoundingClientRect().width > 0)) continue;
    for (const e of document.querySelectorAll('.seat, .seat > .bet-chip, .seat > .timer-ring, .seat .mark')) {
      if (over(c.getBoundingClientRect(), e.getBoundingClientRect())) {
        out.push(`${e.className} over ${c.className}`);
      }
    }
  }
  return [out, document.querySelector('.table-screen .seats').parentElement.style.flex !== ''];
}"""


def test_a_bet_chip_at_a_small_table_on_a_short_phone_leaves_its_seats_last_action(static_page: Any) -> None:
    """Two or three players at 320×568, a bet in front of each: the pot sat right under the top row, so a
    chip found no room below its seat and went over the seat's own bottom edge, over its last action
    (레이즈, 하프) and 올인. The centre goes down where it has room, and the chip goes under the seat."""
    page = harness(static_page, "seven_six_player", {"width": 320, "height": 568})
    covered = []
    for mode, n in (("holdem", 2), ("holdem", 3), ("badugi", 2), ("sevenPoker", 3)):
        v = crowd_view(mode, n, "betting")
        v["pots"] = v["pots"][:1]  # (no side pot: a second row of pots takes the room)
        render(page, v)
        page.wait_for_timeout(30)
        over, grown = page.evaluate(CHIPS_OVER_BADGES)
        covered += [f"{mode} {n}: {x}" for x in over]
        assert not grown, (mode, n)
    shot(page, "small-chips-320")
    assert not covered, covered


def test_a_bet_chip_over_its_own_seat_sits_in_the_corner_beside_its_one_badge(static_page: Any) -> None:
    """Six at 7 Poker at 360×740, each having called 10: a top corner seat has no room outside for its chip,
    which then sat centred on the seat's bottom edge, over its 콜. It now sits in the corner that leaves the
    seat's badges in view (a seat with two badges, 올인 and 콜, still loses part of one)."""
    page = harness(static_page, "seven_six_player", {"width": 360, "height": 740})
    v = crowd_view("sevenPoker", 6, "betting")
    for s in v["seats"]:
        s.update(committedRound=10, lastAction="k.call", allIn=False, away=False)
    v["pots"] = v["pots"][:1]
    render(page, v)
    page.wait_for_timeout(30)
    over, grown = page.evaluate(CHIPS_OVER_BADGES)
    assert page.locator(".seat > .bet-chip").count() == 5  # (mine is under my own area)
    assert not over and not grown, over
    shot(page, "small-chips-corner-360")


#: (the text over the table, whether a tap at the screen's centre lands on the table screen's own overlay)
ROTATE_NOTE = """() => { const s = document.querySelector('.table-screen');
  const c = getComputedStyle(s, '::after').content;
  const hit = document.elementFromPoint(innerWidth / 2, innerHeight / 2);
  return [c === 'none' ? '' : c.slice(1, -1), hit === s]; }"""


def test_a_phone_held_sideways_is_asked_to_turn_upright(static_page: Any) -> None:
    """A phone on its side (844×390) left the table a strip 40 px high under my cards, every seat over the
    pot and the others: the table is laid out for portrait (the installed app is locked to it), so sideways
    it says so over the table. A desktop window as short is not a phone held sideways (no touch): no note."""
    page = harness(static_page, "holdem_raise", {"width": 844, "height": 390})
    assert page.evaluate(ROTATE_NOTE) == ["", False]  # (no touch screen: a short desktop window)
    cdp = page.context.new_cdp_session(page)
    cdp.send("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 5})
    try:
        render(page, load("holdem_raise"))
        text, covers = page.evaluate(ROTATE_NOTE)
        assert text == "휴대폰을 세로로 돌려 주세요. 테이블은 세로 화면에 맞춰져 있어요." and covers
        shot(page, "sideways-844x390")
        page.set_viewport_size({"width": 390, "height": 844})  # turned upright: the table, as usual
        render(page, load("holdem_raise"))
        assert page.evaluate(ROTATE_NOTE)[0] == ""
    finally:
        cdp.send("Emulation.setTouchEmulationEnabled", {"enabled": False})
        cdp.detach()


#: My line's parts that reach past the screen's edges: (class, left, right).
MY_LINE_OUT = """() => [...document.querySelectorAll('.me-line > *, .me-right > *')]
  .map((e) => [e.getAttribute('class') ?? '', e.getBoundingClientRect()])
  .filter(([, r]) => r.width && (r.left < -0.5 || r.right > innerWidth + 0.5))
  .map(([c, r]) => [c, Math.round(r.left), Math.round(r.right)])"""


@pytest.mark.parametrize("size", SMALL, ids=IDS)
def test_my_line_keeps_my_turns_ring_and_reactions_on_the_screen(static_page: Any,
                                                                  size: dict[str, int]) -> None:
    """My line (mark, name, chips, this round's bet; badges, 😀, my turn's ring): in English at 320 px with
    two badges ("First", "1,000 chips", "Bet 1,000", "Half", "Drew 2·1") the 😀 and the ring of my own turn
    were past the screen's edge. The right part now goes under the left where both do not fit."""
    out: list[str] = []
    for lang in ("ko", "en"):
        page = static_page(f"/fixtures/harness.html?f=seven_betting_me&lang={lang}", size, name=lang)
        page.wait_for_function("() => window.rendered === true")
        for large in (False, True):
            page.evaluate("(on) => document.body.classList.toggle('large-text', on)", large)
            for mode in ("sevenPoker", "badugi", "holdem"):
                v = crowd_view(mode, 6, "betting")
                me = v["me"]["id"]
                v["toAct"], v["pending"] = me, [me]
                render(page, v)
                assert page.locator(".me-line .timer-ring").count() == 1
                where = f"{lang}{' large' if large else ''} {mode}"
                out += [f"{where}: {part}" for part in page.evaluate(MY_LINE_OUT)]
    assert not out, out

