"""Fixes from the 390×844 UI audit, the controls half: the rebuy ring, no stale pot in the rebuy phase, the
pot-limit quick button, the settings and rules dialogs, the boss crown and the action buttons' text.

Most checks render views (docs/view.md shape) through the fixture harness (no server); the layout half of the
audit (nothing covers a seat) is in test_audit_fixes.py.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from crowd_views import render
from webplay import harness, load, lobby_dialog, shot

pytestmark = pytest.mark.browser


def test_rebuy_decision_shows_a_countdown_ring(static_page: Any) -> None:
    page = harness(static_page, "rebuy")
    view = load("rebuy")
    view["seats"][1].update(stack=0, status="busted")
    view["rebuyPending"] = ["p1", "p2"]
    view["pending"] = ["p1", "p2"]
    view["deadlineAt"] = int(time.time() * 1000) + 7500
    render(page, view)
    page.wait_for_timeout(300)
    mine = page.locator("[data-testid=me-area] .timer-ring")
    assert mine.count() == 1
    assert page.locator(".seat[data-seat-id=p2] .timer-ring").count() == 1
    # the rebuy decision has 15 s: half of it is left, so half of the ring is gone
    offset = float(mine.locator(".fg").get_attribute("stroke-dashoffset") or "0")
    circumference = 2 * 3.141592653589793 * 12
    assert abs(offset / circumference - 0.5) < 0.08
    assert int(mine.locator("text").text_content() or "0") in (7, 8)
    assert "urgent" not in (mine.get_attribute("class") or "")
    shot(page, "audit-rebuy-ring")
    view["deadlineAt"] = int(time.time() * 1000) + 3000
    render(page, view)
    page.wait_for_timeout(300)
    assert "urgent" in (page.locator("[data-testid=me-area] .timer-ring").get_attribute("class") or "")


def test_rebuy_phase_shows_no_stale_pot(static_page: Any) -> None:
    page = harness(static_page, "rebuy")
    view = load("rebuy")
    view["potTotal"] = 2000  # the last hand's pot, already paid out
    view["pots"] = [{"amount": 1500, "eligible": ["p1", "p2"]}, {"amount": 500, "eligible": ["p2"]}]
    render(page, view)
    assert page.locator("[data-testid=pot]").count() == 0  # nothing is in the middle (not even "판돈 0")
    assert page.locator(".center").inner_text().strip() == ""
    assert page.locator(".side-pot").count() == 0


def test_pot_limit_cap_quick_button_is_max_not_all_in(static_page: Any) -> None:
    page = harness(static_page, "holdem_raise")
    page.click("[data-action='nl.raise']")
    assert page.locator("[data-quick=max]").inner_text() == "올인"  # no limit: the top is my whole stack
    view = load("holdem_raise")
    view["options"]["betting"] = "potLimit"
    view["betting"] = "potLimit"
    me = next(s for s in view["seats"] if s["id"] == view["me"]["id"])
    me["stack"] = 1000
    view["me"]["legalActions"] = [
        {"type": "nl.fold"},
        {"type": "nl.call", "amount": 40, "allIn": False},
        {"type": "nl.raise", "min": 80, "max": 310, "isBet": False},
    ]
    render(page, view)  # same turn: the panel stays open
    quick = page.locator("[data-quick=max]")
    assert quick.inner_text() == "최대"
    quick.click()
    assert page.locator("[data-testid=raise-amount]").inner_text() == "레이즈 310까지"
    shot(page, "audit-pot-limit-max")


def test_settings_dialog_outside_a_room_prints_no_null(live_server: Any, open_page: Any) -> None:
    page = lobby_dialog(open_page, live_server.http, "settings")
    body = page.locator("#settings-body")
    assert body.is_visible()
    assert "null" not in body.inner_text()
    assert page.evaluate(
        "() => [...document.querySelector('#settings-body').childNodes].every(n => n.nodeType === 1)"
    )
    assert page.locator("[data-testid=leave]").count() == 0
    shot(page, "audit-settings-lobby")


@pytest.mark.parametrize("mode", ["sevenPoker", "sevenHiLo", "holdem", "badugi"])
def test_rules_ranking_table_is_readable_on_a_phone(live_server: Any, open_page: Any, mode: str) -> None:
    page = lobby_dialog(open_page, live_server.http, "rules")
    page.select_option("#rules-mode", mode)
    dlg = page.locator("#dlg-rules")
    # the width of the element that holds each row's description (the text after the name, not the cards)
    widths: list[float] = page.evaluate(
        """() => [...document.querySelectorAll('#dlg-rules .rank-table tr')].map((tr) => {
          const texts = [];
          const walker = document.createTreeWalker(tr, NodeFilter.SHOW_TEXT);
          for (let n = walker.nextNode(); n; n = walker.nextNode()) {
            if (n.textContent.trim() && !n.parentElement.closest('.ex')) texts.push(n);
          }
          return texts.length > 1 ? texts[texts.length - 1].parentElement.getBoundingClientRect().width : 0;
        })"""
    )
    assert len(widths) >= 6 and min(widths) >= 120, widths
    # nothing sticks out of the dialog sideways
    body = dlg.locator(".dlg-body")
    assert body.evaluate("e => e.scrollWidth <= e.clientWidth + 1")
    if mode == "sevenPoker":
        page.locator("#dlg-rules .rank-table").first.scroll_into_view_if_needed()
        shot(page, "audit-rules-seven")


def test_boss_mark_has_a_crown(static_page: Any) -> None:
    page = harness(static_page, "seven_betting_me")
    boss = page.locator(".seat[data-seat-id=p2] .mark.boss")
    assert boss.count() == 1
    assert boss.get_attribute("aria-label") == "보스"
    assert boss.locator("svg.crown").count() == 1
    box = boss.locator("svg.crown").bounding_box()
    assert box and box["width"] >= 10
    shot(page.locator(".seat[data-seat-id=p2]"), "audit-boss-crown")


BUTTON_TEXT = r"""(sel) => {
  const out = [];
  const W = window.innerWidth;
  for (const b of document.querySelectorAll(sel)) {
    const br = b.getBoundingClientRect();
    if (br.left < 0 || br.right > W) out.push(`button out of screen: ${b.innerText}`);
    if (b.scrollWidth > b.clientWidth + 1) out.push(`overflow: ${b.innerText}`);
    const walker = document.createTreeWalker(b, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      if (!n.textContent.trim()) continue;
      const size = parseFloat(getComputedStyle(n.parentElement).fontSize);
      if (size < 18) out.push(`${size}px: ${n.textContent}`);
      const range = document.createRange();
      range.selectNodeContents(n);
      for (const r of range.getClientRects()) {
        if (r.left < br.left - 0.5 || r.right > br.right + 0.5) out.push(`text outside: ${n.textContent}`);
      }
    }
  }
  return out;
}"""


def test_action_button_texts_are_18px_and_fit(static_page: Any) -> None:
    page = harness(static_page, "seven_betting_me")
    view = load("seven_betting_me")
    view["me"]["legalActions"] = [
        {"type": "k.die", "amount": 0, "allIn": False},
        {"type": "k.call", "amount": 1000, "allIn": False},
        {"type": "k.ddadang", "amount": 2000, "allIn": False},
        {"type": "k.quarter", "amount": 1250, "allIn": False},
        {"type": "k.half", "amount": 2500, "allIn": False},
        {"type": "k.full", "amount": 9990, "allIn": True},
    ]
    render(page, view)
    assert page.locator(".actions.korean button").count() == 8
    assert page.locator("[data-action='k.call']").inner_text().replace("\n", " ") == "콜 (+1,000)"
    problems: list[str] = page.evaluate(BUTTON_TEXT, ".actions button")
    assert not problems, problems
    for b in page.locator(".actions button").all():
        box = b.bounding_box()
        assert box and box["height"] >= 56
    shot(page, "audit-korean-buttons-1000")
    # no limit: call / all-in amounts
    page2 = harness(static_page, "holdem_raise")
    problems = page2.evaluate(BUTTON_TEXT, ".actions button")
    assert not problems, problems
    page2.click("[data-action='nl.raise']")
    problems = page2.evaluate(BUTTON_TEXT, ".actions button, .raise-panel .confirm-row button")
    assert not problems, problems
    # hi-lo: the hand names under 하이 / 로우 / 스윙
    page3 = harness(static_page, "hilo_declare")
    hilo = load("hilo_declare")
    hilo["me"]["handName"] = "백 스트레이트 플러시"
    hilo["me"]["lowName"] = "7탑"
    render(page3, hilo)
    problems = page3.evaluate(BUTTON_TEXT, ".actions button")
    assert not problems, problems
    shot(page3, "audit-hilo-buttons")


def _bust_views() -> tuple[dict[str, Any], dict[str, Any]]:
    """The real engine: heads-up hold'em, both all in, until one busts. Returns the loser's views at hand end
    and in the rebuy phase that follows (the engine's rebuy view still carries the finished hand)."""
    from pokerroom.engine import apply, legal_actions, setup, view

    for seed in range(20):
        s = setup(["p1", "p2"], {"mode": "holdem"}, seed=seed)
        now = 0
        while s.phase == "playing" and s.hand is not None and s.hand.phase != "handEnd":
            pid = next(x.id for x in s.seats if legal_actions(s, x.id))
            kinds = {a["type"] for a in legal_actions(s, pid)}
            now += 100
            kind = next(t for t in ("nl.allIn", "nl.call", "nl.check") if t in kinds)
            s, _ = apply(s, pid, {"type": kind}, now)
        loser = next((x.id for x in s.seats if x.stack == 0), None)
        if loser is None:
            continue
        end = view(s, loser)
        for x in s.seats:
            if any(a["type"] == "ready" for a in legal_actions(s, x.id)):
                s, _ = apply(s, x.id, {"type": "ready"}, now)
        assert s.phase == "rebuy"
        return end, view(s, loser)
    raise AssertionError("nobody busted in 20 seeds")


def test_rebuy_screen_is_a_clean_table_after_a_bust(static_page: Any) -> None:
    """From the hand end of a bust to the rebuy question: the finished hand's board, shown cards, my hand's
    name and its pot leave the table (no "판돈 0"); stacks and the question stay."""
    end, rebuy = _bust_views()
    assert rebuy["board"] and rebuy["me"]["handName"]  # what the engine still sends
    page = harness(static_page, "rebuy")
    render(page, end)
    hand_name = page.locator("[data-testid=hand-name]")
    assert page.locator(".board .card").count() == 5 and hand_name.text_content()
    rebuy["deadlineAt"] = int(time.time() * 1000) + 15000  # (the engine's clock started at 0)
    render(page, rebuy)
    page.wait_for_timeout(700)  # the hand end's chips have flown
    table = page.locator(".table-screen")
    assert page.locator(".board .card").count() == 0
    assert hand_name.text_content() == ""
    assert page.locator("[data-testid=pot]").count() == 0 and "판돈" not in table.inner_text()
    assert page.locator("[data-testid=hand-result]").count() == 0
    assert page.locator(".seat .card, [data-testid=my-cards] .card").count() == 0
    assert "올인" not in table.inner_text()  # the finished hand's all-in marks went with it
    assert page.locator("[data-action=rebuy-yes]").is_visible()
    winner = next(s for s in rebuy["seats"] if s["stack"])
    assert f"{winner['stack']:,}" in page.locator(f".seat[data-seat-id={winner['id']}]").inner_text()
    shot(page, "rebuy-clean-table")
