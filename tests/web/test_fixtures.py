"""The table UI on fixed views (tests/web/fixtures/*.json, docs/view.md shape), without a server.

The harness page imports ``/static/table.js`` and records the actions the UI would send in ``window.sent``.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from crowd_views import render
from webplay import DESKTOP, MOBILE, harness, load, shot

pytestmark = pytest.mark.browser



def sent(page: Any) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = page.evaluate("() => window.sent")
    return out


def test_card_gallery_every_card_drawn_and_labelled(static_page: Any) -> None:
    page = static_page("/fixtures/gallery.html", MOBILE, name="gallery")
    page.wait_for_function("() => window.rendered === true")
    labels = page.evaluate(
        "() => [...document.querySelectorAll('.card')].map(e => e.getAttribute('aria-label'))"
    )
    assert len(labels) == 52 + 20 + 2
    assert (
        "스페이드 A" in labels and "하트 10" in labels and "다이아몬드 Q" in labels and "클로버 2" in labels
    )
    assert labels.count("스페이드 A") == 2  # the 52-card ace and the d20 ace (rank 1)
    assert labels[-2:] == ["뒷면 카드", "내 이마 카드(안 보임)"]
    ids = page.evaluate(
        "() => [...document.querySelectorAll('[data-card-id]')].map(e => Number(e.dataset.cardId))"
    )
    assert sorted(ids[:52]) == list(range(52)) and sorted(ids[52:]) == list(range(20))
    # every face card carries an SVG with the suit letter in its corner (colour + shape + letter)
    letters = page.evaluate(
        "() => [...document.querySelectorAll('.card[data-suit] .corner-letter')].map(e => e.textContent)"
    )
    assert set(letters) == {"S", "D", "H", "C"}
    page.set_viewport_size({"width": 980, "height": 900})
    shot(page, "cards-gallery")


def test_korean_buttons_all_shown_amounts_and_hint(static_page: Any) -> None:
    page = harness(static_page, "seven_betting_me")
    buttons = page.locator(".actions.korean button")
    assert buttons.count() == 8
    texts = [t.replace("\n", " ") for t in buttons.all_inner_texts()]
    assert texts == ["다이", "체크", "삥", "콜 (+10)", "따당 (+20)", "쿼터 (+22)", "하프 (+35)", "풀"]
    enabled = [buttons.nth(i).is_enabled() for i in range(8)]
    assert enabled == [True, False, False, True, True, True, True, False]
    assert "hint" in (page.locator("[data-action='k.half']").get_attribute("class") or "")
    for i in range(8):
        box = buttons.nth(i).bounding_box()
        assert box and box["height"] >= 56
        size = buttons.nth(i).evaluate("e => parseFloat(getComputedStyle(e).fontSize)")
        assert size >= 18
    # my cards are large, the current hand name is shown, marks and discarded card are visible
    box = page.locator("[data-testid=my-cards] .card").first.bounding_box()
    assert box and box["height"] >= 96
    assert page.locator("[data-testid=hand-name]").inner_text() == "지금: 원페어"
    assert page.locator(".seat[data-seat-id=p2] .mark.boss").count() == 1
    assert "버린 카드" in page.locator("[data-testid=me-area]").inner_text()
    # die with a call pending needs no confirmation; a call is sent as is
    page.click("[data-action='k.call']")
    assert sent(page) == [{"type": "k.call"}]
    shot(page, "fixture-korean-buttons")


def test_fold_when_check_is_free_asks_first(static_page: Any) -> None:
    page = harness(static_page, "indian_betting")
    page.evaluate("() => { window.confirmAnswer = false; }")
    page.click("[data-action='nl.fold']")
    page.wait_for_function("() => window.confirms.length === 1")
    assert page.evaluate("() => window.confirms[0]") == "체크할 수 있는데 포기할까요?"
    assert sent(page) == []
    page.evaluate("() => { window.confirmAnswer = true; }")
    page.click("[data-action='nl.fold']")
    page.wait_for_function("() => window.sent.length === 1")
    assert sent(page) == [{"type": "nl.fold"}]


def test_raise_panel_slider_quick_buttons_steps_and_confirm(static_page: Any) -> None:
    page = harness(static_page, "holdem_raise")
    assert page.locator("[data-testid=raise-panel]").count() == 0
    page.click("[data-action='nl.raise']")
    panel = page.locator("[data-testid=raise-panel]")
    assert panel.is_visible()
    amount = page.locator("[data-testid=raise-amount]")
    assert amount.inner_text() == "레이즈 80까지"
    page.click("[data-step='+']")
    assert amount.inner_text() == "레이즈 90까지"
    page.click("[data-step='-']")
    page.click("[data-step='-']")
    assert amount.inner_text() == "레이즈 80까지"  # never below the minimum
    page.click("[data-quick=pot]")
    # pot = current bet 40 + (pot 190 + to call 40) = 270
    assert amount.inner_text() == "레이즈 270까지"
    page.click("[data-quick=half]")
    assert amount.inner_text() == "레이즈 155까지"
    page.click("[data-quick=max]")
    assert amount.inner_text() == "레이즈 880까지"
    page.click("[data-quick=min]")
    shot(page, "fixture-raise-panel")
    page.click("[data-action=raise-confirm]")
    assert sent(page) == [{"type": "nl.raise", "to": 80}]


def test_seven_poker_choice_discard_open_undo_confirm(static_page: Any) -> None:
    page = harness(static_page, "seven_choice")
    cards = page.locator("[data-testid=my-cards] .card")
    assert cards.count() == 4
    assert page.locator("[data-testid=instruction]").inner_text() == "버릴 카드를 누르세요"
    assert page.locator("[data-action=choose]").is_disabled()
    # the recommended pick (me.hint) is shown on the cards and in words
    assert page.locator(".card.hint-discard").get_attribute("aria-label") == "클로버 7"
    assert page.locator(".card.hint-open").get_attribute("aria-label") == "스페이드 A"
    assert page.locator("[data-testid=hint-line]").inner_text() == "추천: 7♣ 버리고 A♠ 보여 주기"
    cards.nth(2).click()
    assert page.locator("[data-testid=my-cards] .card.discard").get_attribute("aria-label") == "클로버 7"
    assert page.locator("[data-testid=instruction]").inner_text() == "보여 줄 카드를 누르세요"
    cards.nth(0).click()
    assert page.locator("[data-testid=my-cards] .card.raised").get_attribute("aria-label") == "스페이드 A"
    page.click("[data-action=undo]")
    assert page.locator("[data-testid=my-cards] .card.raised").count() == 0
    assert page.locator("[data-testid=my-cards] .card.discard").count() == 1
    cards.nth(3).click()
    shot(page, "fixture-choice")
    page.click("[data-action=choose]")
    assert sent(page) == [{"type": "choose", "discardId": 44, "openId": 35}]


def test_badugi_draw_selection_label_and_clash_hint(static_page: Any) -> None:
    page = harness(static_page, "badugi_draw")
    button = page.locator("[data-action=draw]")
    assert button.inner_text() == "패스"
    # As 4s share a suit, 7d 7h share a rank: every card clashes
    assert page.locator("[data-testid=my-cards] .card.clash").count() == 4
    assert page.locator("[data-testid=hint-line]").inner_text() == "추천: 2장 바꾸기 (4♠ 7♥)"
    cards = page.locator("[data-testid=my-cards] .card")
    cards.nth(1).click()
    cards.nth(3).click()
    assert button.inner_text() == "2장 바꾸기"
    assert page.locator("[data-testid=my-cards] .card.raised").count() == 2
    cards.nth(3).click()
    assert button.inner_text() == "1장 바꾸기"
    shot(page, "fixture-badugi-draw")
    button.click()
    assert sent(page) == [{"type": "draw", "cardIds": [2]}]


def test_badugi_hand_end_marks_only_the_cards_of_my_hand(static_page: Any) -> None:
    """At the hand's end my badugi's cards are raised (used-best); the draw's clash outline, drawn in the same
    yellow, would mark the cards my hand does not use as if they were in it."""
    page = harness(static_page, "badugi_draw")
    view = load("badugi_draw")
    me = view["seats"][0]
    best = [me["hole"][0], me["hole"][2]]  # A♠ 7♦: a two-card badugi
    view.update(phase="handEnd", awards=[{"potIndex": 0, "to": "p1", "amount": 80}],
                showdown=[{"id": "p1", "cards": me["hole"], "best": best, "handName": "7 투베이스"}])
    view["me"].update(legalActions=[{"type": "ready"}], hint=None)
    render(page, view)
    page.wait_for_selector("[data-action=ready]")
    assert page.locator("[data-testid=my-cards] .card.used-best").count() == 2
    assert page.locator("[data-testid=my-cards] .card.clash").count() == 0


def test_hilo_declare_shows_my_high_and_low(static_page: Any) -> None:
    page = harness(static_page, "hilo_declare")
    high = page.locator("[data-action=declare-high]")
    low = page.locator("[data-action=declare-low]")
    swing = page.locator("[data-action=declare-swing]")
    assert "하이" in high.inner_text() and "탑" in high.inner_text()
    assert "로우" in low.inner_text() and "6탑" in low.inner_text()
    assert "스윙" in swing.inner_text()
    assert "hint" in (low.get_attribute("class") or "")
    shot(page, "fixture-hilo-declare")
    low.click()
    assert sent(page) == [{"type": "declare", "side": "low"}]


def test_indian_question_mark_big_cards_and_used_panel(static_page: Any) -> None:
    page = harness(static_page, "indian_betting")
    me = page.locator("[data-testid=my-cards] .card-question")
    assert me.count() == 1 and me.get_attribute("aria-label") == "내 이마 카드(안 보임)"
    other = page.locator(".seat[data-seat-id=p2] .card[data-card-id]")
    box = other.bounding_box()
    assert box and box["height"] >= 96  # others' cards large
    assert other.get_attribute("aria-label") == "스페이드 7"
    assert page.locator("[data-testid=used-panel] td.used").count() == 4
    assert "벳" in page.locator("[data-action='nl.raise']").inner_text()
    shot(page, "fixture-indian")


def test_spectator_sees_no_hidden_card(static_page: Any) -> None:
    page = harness(static_page, "seven_betting_spectator")
    ids = page.evaluate(
        "() => [...document.querySelectorAll('[data-card-id]')].map(e => Number(e.dataset.cardId))"
    )
    view = load("seven_betting_spectator")
    public = {c["id"] for s in view["seats"] for c in s["up"]}
    assert set(ids) == public  # open cards only
    assert page.locator(".actions button").count() == 0


@pytest.mark.parametrize(
    ("name", "count"), [("holdem_ten_spectator", 10), ("holdem_ten_player", 9), ("seven_six_player", 5)]
)
def test_crowded_tables_fit_without_overlap(static_page: Any, name: str, count: int) -> None:
    page = harness(static_page, name)
    seats = page.locator(".seat")
    assert seats.count() == count
    boxes = [seats.nth(i).bounding_box() for i in range(count)]
    for b in boxes:
        assert b and b["x"] >= 0 and b["x"] + b["width"] <= MOBILE["width"] + 1
    for i in range(count):
        for j in range(i + 1, count):
            a, b = boxes[i], boxes[j]
            assert a and b
            overlap_x = min(a["x"] + a["width"], b["x"] + b["width"]) - max(a["x"], b["x"])
            overlap_y = min(a["y"] + a["height"], b["y"] + b["height"]) - max(a["y"], b["y"])
            assert overlap_x <= 4 or overlap_y <= 4, f"seats {i} and {j} overlap"
    # every seat's cards stay inside the screen
    cards = page.locator(".seat .card")
    for i in range(cards.count()):
        box = cards.nth(i).bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= MOBILE["width"] + 1
    shot(page, f"fixture-{name}")


def test_rebuy_choice(static_page: Any) -> None:
    page = harness(static_page, "rebuy")
    assert "남은 횟수 2" in page.locator("[data-testid=me-area]").inner_text()
    page.click("[data-action=rebuy-yes]")
    assert sent(page) == [{"type": "rebuy", "accept": True}]


def test_indian_two_cards_hand_card_only_for_me(static_page: Any) -> None:
    page = harness(static_page, "indian_two_cards")
    mine = page.locator("[data-testid=my-cards] .card")
    assert [mine.nth(i).get_attribute("aria-label") for i in range(mine.count())] == [
        "내 이마 카드(안 보임)",
        "하트 3",
    ]
    other = page.locator(".seat[data-seat-id=p2] .card")
    assert [other.nth(i).get_attribute("aria-label") for i in range(other.count())] == [
        "스페이드 9",
        "뒷면 카드",
    ]


def test_showdown_banner_best_cards_and_side_pots(static_page: Any) -> None:
    page = harness(static_page, "holdem_showdown")
    assert page.locator("[data-testid=hand-result]").inner_text() == "민수 +180 · 플러시 판돈 320"
    assert page.locator(".side-pot").count() == 2
    assert page.locator(".board .card.best").count() == 3
    assert page.locator("[data-testid=my-cards] .card.used-best").count() == 2
    assert page.locator(".seat[data-seat-id=p2] .hand-label").inner_text() == "트리플"
    # the folded player's cards stay hidden
    assert page.locator(".seat[data-seat-id=p3] [data-card-id]").count() == 0
    page.click("[data-action=ready]")
    assert sent(page) == [{"type": "ready"}]


def test_timer_ring_turns_red_under_five_seconds(static_page: Any) -> None:
    page = harness(static_page, "holdem_raise")
    view = load("holdem_raise")
    view["deadlineAt"] = int(time.time() * 1000) + 12000
    page.evaluate("(v) => window.renderView(v)", view)
    ring = page.locator("[data-testid=me-area] .timer-ring")
    page.wait_for_timeout(300)
    assert "urgent" not in (ring.get_attribute("class") or "")
    view["deadlineAt"] = int(time.time() * 1000) + 3000
    page.evaluate("(v) => window.renderView(v)", view)
    page.wait_for_timeout(300)
    assert "urgent" in (page.locator("[data-testid=me-area] .timer-ring").get_attribute("class") or "")


def test_first_hand_tip_can_be_closed(static_page: Any) -> None:
    page = static_page("/fixtures/harness.html", MOBILE, name="tips")
    page.evaluate("() => { window.tips = true; }")
    page.wait_for_function("() => typeof window.renderView === 'function'")
    page.evaluate("(v) => window.renderView(v)", load("seven_betting_me"))
    tip = page.locator("[data-testid=tip]")
    assert tip.count() == 1 and "삥" in tip.inner_text()
    tip.get_by_text("닫기").click()
    assert page.locator("[data-testid=tip]").count() == 0


def test_desktop_fixture_layout_has_side_panel(static_page: Any) -> None:
    page = harness(static_page, "seven_betting_me", DESKTOP)
    assert page.locator(".side-panel").is_visible()
    assert page.locator(".side-panel .rank-table tr").count() >= 13  # Korean ranking table
    log = page.locator("[data-testid=hand-log]").inner_text()
    assert "지수 삥 10" in log  # ids replaced by nicknames
    shot(page, "fixture-desktop-seven")


def test_a_long_log_on_a_wide_screen_keeps_its_heading_and_past_hands(static_page: Any) -> None:
    """A wide screen has no 기록 button in the top bar: the side panel's log heading holds the way to past
    hands (지난 판). A night's log is longer than its room, and the log scrolls to its newest line; the
    heading and its button stay in sight above the lines (they scrolled away with them), the newest line is
    in sight, and the log has at least a third of the panel (the rankings below it scroll in their own
    room)."""
    page = harness(static_page, "seven_betting_me", DESKTOP)
    v = load("seven_betting_me")
    v["publicLog"] = [{"handNo": 1 + k // 10, "text": f"p2 삥 {10 * (k + 1)}"} for k in range(60)]
    page.evaluate("(v) => window.renderView(v, 'player')", v)
    page.wait_for_timeout(50)  # (the log scrolls to its end in a microtask)
    boxes = page.evaluate("""() => {
      const box = (e) => { const r = e.getBoundingClientRect(); return [r.top, r.bottom]; };
      const button = document.querySelector('[data-testid=open-past]');
      const r = button.getBoundingClientRect();
      const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      const lines = [...document.querySelectorAll('[data-testid=hand-log] li')];
      const list = document.querySelector('[data-testid=hand-log]');
      return { hit: hit === button, panel: box(document.querySelector('.side-panel')), list: box(list),
               last: box(lines[lines.length - 1]), log: box(document.querySelector('.side-panel .log')) };
    }""")
    assert boxes["hit"], boxes
    assert boxes["last"][1] <= boxes["list"][1] + 1 and boxes["last"][0] >= boxes["list"][0] - 1, boxes
    panel_h = boxes["panel"][1] - boxes["panel"][0]
    assert boxes["log"][1] - boxes["log"][0] >= panel_h / 3, boxes


@pytest.mark.parametrize("size", [MOBILE, {"width": 360, "height": 640}], ids=["390x844", "360x640"])
def test_omaha_hi_lo_showdown_names_the_low_and_marks_each_half(static_page: Any,
                                                               size: dict[str, int]) -> None:
    """Omaha Hi-Lo hand end: every shown seat names its low ("로우 없음" too), the banner says which half each
    winner took, the winning cards are marked per half (the high five for the high, the low five for the low),
    and the phase line names the game."""
    page = harness(static_page, "omaha_hilo_showdown", size)
    labels = {
        pid: page.locator(f".seat[data-seat-id={pid}] .hand-label").inner_text() for pid in ("p1", "p4")
    }
    assert labels == {"p1": "플러시 / 로우 없음", "p4": "스트레이트 / 로우 5탑"}
    banner = page.locator("[data-testid=hand-result]").inner_text()
    # each winner's net (what came back less what went in), then their part of the pot
    assert "+55 · 플러시 판돈 310 중 155" in banner and "\u221222 · 로우 5탑 판돈 310 중 78" in banner
    assert "\u221223 · 로우 5탑 판돈 310 중 77" in banner
    assert "오마하 하이로우" in page.locator("[data-testid=phase-line]").inner_text()
    assert page.locator("[data-testid=hand-name]").inner_text() == "스트레이트 / 로우 5탑"
    board = page.evaluate(
        "() => [...document.querySelectorAll('.board .card')].map(e => [e.getAttribute('aria-label'),"
        " e.classList.contains('best')])"
    )
    marked = {label for label, best in board if best}
    # high: A♥ K♥ Q♥ 5♥ 2♥ (2♥ 5♥ K♥ on the board); low: 5-4-3-2-A (2♥ 5♥ 3♠): 8♣ is in neither
    assert marked == {"하트 2", "하트 5", "하트 K", "스페이드 3"}, board
    # p1 won only the high: its Q♥ and A♥ are marked, not K♦/J♣; p4 won only the low: A♣ 4♣, not the 9s
    p1 = page.locator(".seat[data-seat-id=p1] .best").count()
    p4 = page.locator(".seat[data-seat-id=p4] .best").count()
    assert (p1, p4) == (2, 2)
    shot(page, f"fixture-omaha-hilo-showdown-{size['width']}x{size['height']}")


@pytest.mark.parametrize("size", [(390, 844), (360, 640)], ids=["390x844", "360x640"])
def test_raised_winning_cards_never_cover_the_name_line(static_page: Any, size: tuple[int, int]) -> None:
    """A winner's best cards are raised (.card.best): in a seat box they stay below its name and stack."""
    page = harness(static_page, "holdem_showdown", {"width": size[0], "height": size[1]})
    view = load("holdem_showdown")
    view["me"] = None  # a spectator: the winner (p1) is a seat box on the table, not my area
    page.evaluate("(v) => window.renderView(v, 'spectator')", view)
    page.wait_for_timeout(100)
    gaps = page.evaluate("""() => [...document.querySelectorAll('.seat')]
      .filter((s) => s.querySelector('.card.best'))
      .map((s) => {
        const line = Math.max(...[...s.querySelectorAll(
          ':scope > .name, :scope > .stack, :scope > * > .name, :scope > * > .stack')]
          .map((e) => e.getBoundingClientRect().bottom));
        const top = Math.min(...[...s.querySelectorAll('.card.best')]
          .map((e) => e.getBoundingClientRect().top));
        return [s.dataset.seatId, top - line];
      })""")
    assert [sid for sid, _ in gaps] == ["p1"], gaps
    # (the line was found: a seat without one would give an infinite gap)
    assert all(0 <= gap < 40 for _, gap in gaps), f"a raised card covers the name line: {gaps} px"
    shot(page, f"showdown-spectator-{size[0]}x{size[1]}")
