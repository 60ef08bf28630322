"""The table touches only the slices of the screen whose part of the view changed (speed on a phone:
docs/decisions/0033-render-keeps-what-did-not-change.md): a seat, my area or the centre whose inputs are the
same is neither built again nor written to.
Mechanisms, counted (DOM mutations, card drawings copied), not timed: the figures come from
benchmarks/render.py.
"""

from __future__ import annotations

import copy
import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from test_render_frames import moved_turn
from webplay import MOBILE, harness, load, shot

pytestmark = pytest.mark.browser

SHORT = {"width": 360, "height": 640}

# every DOM mutation one view causes, by where it happened: a seat (its id), the pot, the board, my area,
# or elsewhere (the element's tag and class). Recorded from the view handed over until two frames later
# (anything placed after the first paint counts too).
MUTATIONS = """async (v) => {
  const host = document.getElementById('host');
  const out = [];
  const where = (n) => {
    const e = n.nodeType === 1 ? n : n.parentElement;
    const seat = e?.closest('.seat');
    if (seat) return 'seat:' + seat.dataset.seatId;
    if (e?.closest('[data-testid=pot]')) return 'pot';
    if (e?.closest('.board')) return 'board';
    if (e?.closest('[data-testid=me-area]')) return 'me';
    return 'other:' + e?.tagName + '.' + e?.className;
  };
  const obs = new MutationObserver((list) => {
    for (const m of list) out.push([where(m.target), m.type, m.attributeName]);
  });
  obs.observe(host, { subtree: true, childList: true, attributes: true, characterData: true });
  window.scheduleView(v);
  await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r())));
  out.push(...obs.takeRecords().map((m) => [where(m.target), m.type, m.attributeName]));
  obs.disconnect();
  return out;
}"""


def quiet(v: dict[str, Any]) -> dict[str, Any]:
    """The view without a turn clock (the ring's ticking would be a mutation of its own)."""
    v = copy.deepcopy(v)
    v["deadlineAt"] = None
    return v


@pytest.mark.parametrize("size", [MOBILE, SHORT], ids=["390x844", "360x640"])
def test_a_turn_passing_touches_only_the_two_seats(static_page: Any, size: dict[str, int]) -> None:
    """A player calls and the turn passes: the caller's seat and the seat now to act change, and the pot.
    Every other seat is not written to at all (no position, chip or ring rewritten with the same value)."""
    page = harness(static_page, "holdem_ten_player", size)
    v0 = quiet(load("holdem_ten_player"))
    page.evaluate("(v) => window.renderView(v)", v0)
    page.wait_for_timeout(50)
    v1 = moved_turn(v0, 1)[0]
    muts = page.evaluate(MUTATIONS, v1)
    seats = {w for w, _, _ in muts if w.startswith("seat:")}
    assert seats <= {f"seat:{v0['toAct']}", f"seat:{v1['toAct']}"}, muts
    assert f"seat:{v0['toAct']}" in seats  # (the caller's bet chip and badge did change)
    assert not [m for m in muts if m[0] == "board"], muts  # the board's cards are the same
    # the seat now to act: only its class (a turn passing changes its colour and nothing of its size)
    assert {(t, a) for w, t, a in muts if w == f"seat:{v1['toAct']}"} == {("attributes", "class")}, muts
    assert page.locator(".seat.to-act").get_attribute("data-seat-id") == v1["toAct"]
    shot(page, f"slices-turn-{size['width']}x{size['height']}")


@pytest.mark.parametrize("size", [MOBILE, SHORT], ids=["390x844", "360x640"])
def test_one_bet_mutates_only_that_seat_and_the_pot(static_page: Any, size: dict[str, int]) -> None:
    """A view whose only change is one seat's bet (its stack, its chip, its last action) and the pot: the
    DOM mutations are all inside that seat and the pot, and the table still ends where a fresh render puts
    it."""
    page = harness(static_page, "holdem_ten_player", size)
    v0 = quiet(load("holdem_ten_player"))
    page.evaluate("(v) => window.renderView(v)", v0)
    page.wait_for_timeout(50)
    v1 = copy.deepcopy(v0)
    seat = next(s for s in v1["seats"] if s["id"] == v1["toAct"])
    seat["committedRound"] += 30
    seat["stack"] -= 30
    seat["lastAction"] = "nl.raise"
    v1["potTotal"] += 30
    muts = page.evaluate(MUTATIONS, v1)
    where = {w for w, _, _ in muts}
    assert where <= {f"seat:{seat['id']}", "pot"}, muts
    # and only what changed was built: the seat's badge row and chip, the pot (not my area, the board or
    # the seat's name and cards, to be merged into the ones on screen)
    seat["committedRound"] += 30
    seat["stack"] -= 30
    v1["potTotal"] += 30
    assert page.evaluate(BUILT, v1) <= 4
    assert "pot" in where and f"seat:{seat['id']}" in where
    assert page.locator("[data-testid=pot]").inner_text().endswith(f"{v1['potTotal']:,}")
    boxes = """() => [...document.querySelectorAll('.seat, .seat .bet-chip, .center > *')].map((e) => {
      const r = e.getBoundingClientRect(); return [e.className, r.x, r.y, r.width, r.height]; })"""
    incremental = page.evaluate(boxes)
    fresh = harness(static_page, "holdem_ten_player", size)
    fresh.evaluate("(v) => window.renderView(v)", v1)
    assert fresh.evaluate(boxes) == incremental


# elements made (createElement, or copied from a drawing) while one view is drawn
BUILT = """(v) => {
  const make = Document.prototype.createElement;
  const clone = Node.prototype.cloneNode;
  let n = 0;
  Document.prototype.createElement = function (...a) { n += 1; return make.apply(this, a); };
  Node.prototype.cloneNode = function (deep) { n += 1; return clone.call(this, deep); };
  try { window.renderView(v); } finally {
    Document.prototype.createElement = make;
    Node.prototype.cloneNode = clone;
  }
  return n;
}"""


# card drawings copied (cards.js copies one SVG per card drawn) while one view is drawn
COPIES = """(v) => {
  const clone = Node.prototype.cloneNode;
  let n = 0;
  Node.prototype.cloneNode = function (deep) {
    if (this.classList?.contains('card-svg')) n += 1;
    return clone.call(this, deep);
  };
  try { window.renderView(v); } finally { Node.prototype.cloneNode = clone; }
  return n;
}"""


def test_no_card_is_drawn_again_while_others_act(static_page: Any) -> None:
    """Others betting change neither my cards nor the board: no card drawing is made for them (the part is
    not built at all), and my cards stay the same nodes; a new street draws the board again."""
    page = harness(static_page, "holdem_ten_player")
    v0 = quiet(load("holdem_ten_player"))
    assert v0["board"] and v0["me"]["hole"]  # the fixture shows a board and my two cards
    page.evaluate("(v) => window.renderView(v)", v0)
    page.evaluate(
        "() => document.querySelectorAll('[data-testid=my-cards] .card, .board .card')"
        ".forEach((n) => { n.__old = true; })"
    )
    for v in moved_turn(v0, 3):
        assert page.evaluate(COPIES, v) == 0
    assert page.evaluate(
        "() => [...document.querySelectorAll('[data-testid=my-cards] .card, .board .card')]"
        ".every((n) => n.__old)"
    )
    if len(v0["board"]) < 5:
        nxt = copy.deepcopy(v0)
        nxt["board"] = [*v0["board"], {"id": 51, "rank": 14, "suit": "C"}]
        assert page.evaluate(COPIES, nxt) >= 1
        labels = page.locator(".board .card").evaluate_all("(ns) => ns.map((n) => n.dataset.cardId)")
        assert labels[-1] == "51"


def test_buttons_locked_by_my_action_come_back_on_my_next_turn(static_page: Any) -> None:
    """My action disables my buttons at once (straight in the page, no render); the next view where it is my
    turn with the same options draws them enabled again: a kept slice must not keep the locked buttons."""
    page = harness(static_page, "holdem_ten_player")
    v = quiet(load("holdem_ten_player"))
    v["toAct"] = "p1"
    v["pending"] = ["p1"]
    v["me"]["legalActions"] = [
        {"type": "nl.fold"},
        {"type": "nl.check"},
        {"type": "nl.raise", "min": 40, "max": 990},
        {"type": "nl.allIn", "amount": 990, "to": 1000},
    ]
    page.evaluate("(v) => window.renderView(v)", v)
    page.locator("[data-action='nl.check']").click()
    assert page.evaluate("() => window.sent") == [{"type": "nl.check"}]
    assert page.locator("[data-action='nl.check']").is_disabled()
    page.evaluate("(v) => window.renderView(v)", v)  # the answer: my turn again, the same options
    assert page.locator("[data-action='nl.check']").is_enabled()
    page.locator("[data-action='nl.check']").click()
    assert page.evaluate("() => window.sent") == [{"type": "nl.check"}, {"type": "nl.check"}]
