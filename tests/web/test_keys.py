"""Playing from a computer's keyboard (table/keys.js): the digit keys press the action buttons in the order
they are drawn, never while the player types, under a dialog, with a modifier, or on a greyed button; a fold
with a free check still asks; the digits show on the buttons where the pointer is a mouse, not on a phone."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from crowd_views import render
from webplay import DESKTOP, harness, load

pytestmark = pytest.mark.browser

#: the ::after content of each action button, in the order the keys count them
DIGITS = """() => [...document.querySelectorAll('.controls .actions > button')]
  .map((b) => [b.dataset.action, getComputedStyle(b, '::after').content])"""


def _sent_after(page: Any, view: dict[str, Any], keys: list[str]) -> list[dict[str, Any]]:
    """What the table sends when ``keys`` are pressed on a fresh render of ``view`` (controls unlocked)."""
    view["version"] = view.get("version", 0) + 1
    page.evaluate("() => { window.sent = []; window.confirms = []; }")
    render(page, view)
    for key in keys:
        page.keyboard.press(key)
    page.wait_for_timeout(50)
    sent: list[dict[str, Any]] = page.evaluate("() => window.sent")
    return sent


def test_digit_keys_press_the_action_buttons_in_the_order_they_are_drawn(static_page: Any) -> None:
    page = harness(static_page, "seven_betting_me", DESKTOP)
    view = load("seven_betting_me")  # 다이 콜 따당 쿼터 하프 legal; 체크 삥 풀 greyed
    digits = page.evaluate(DIGITS)
    assert [a for a, _ in digits] == ["k.die", "k.check", "k.ping", "k.call", "k.ddadang", "k.quarter",
                                      "k.half", "k.full"]
    assert all(c == "counter(act-key)" for _, c in digits), digits  # a mouse: each shows its digit
    assert _sent_after(page, view, ["4"]) == [{"type": "k.call"}]
    assert _sent_after(page, view, ["Numpad7"]) == [{"type": "k.half"}]
    assert _sent_after(page, view, ["1"]) == [{"type": "k.die"}]  # no free check: nothing to ask
    # a greyed button's key, a modifier held, a key past the last button: nothing
    assert _sent_after(page, view, ["2", "3", "8", "9", "Control+4", "Alt+4", "Shift+Digit4"]) == []
    # typing (a chat line): the digit goes into the text
    page.evaluate("() => { const i = document.createElement('input'); i.id = 'typing';"
                  " document.body.append(i); i.focus(); }")
    assert _sent_after(page, view, ["4", "5"]) == []
    assert page.input_value("#typing") == "45"
    page.evaluate("() => { document.getElementById('typing').remove(); document.activeElement?.blur(); }")
    # under an open dialog (the settings, the fold question): nothing
    page.evaluate("() => { const d = document.createElement('dialog'); d.id = 'open-dialog';"
                  " d.textContent = '설정'; document.body.append(d); d.showModal(); }")
    assert _sent_after(page, view, ["4"]) == []
    page.evaluate("() => document.getElementById('open-dialog').remove()")
    assert _sent_after(page, view, ["4"]) == [{"type": "k.call"}]
    # a fold with a free check asks first, as a tap does: answered no, nothing is sent
    view["me"]["legalActions"].append({"type": "k.check", "amount": 0, "allIn": False})
    page.evaluate("() => { window.confirmAnswer = false; }")
    assert _sent_after(page, view, ["1"]) == []
    assert page.evaluate("() => window.confirms") == ["체크할 수 있는데 포기할까요?"]
    assert _sent_after(page, view, ["2"]) == [{"type": "k.check"}]
    # no longer my turn: the buttons are greyed, so no key plays
    view["toAct"], view["me"]["legalActions"] = "p2", []
    assert _sent_after(page, view, ["1", "2", "4"]) == []


def test_the_keys_stylesheet_is_linked_once_however_often_a_table_is_drawn(static_page: Any) -> None:
    """A part's own sheet (dom.js useSheet) comes with the part, once: a table drawn again, or the part asked
    again, adds no second link."""
    page = harness(static_page, "seven_betting_me", DESKTOP)
    links = "(href) => document.querySelectorAll(`link[rel=stylesheet][href='${href}']`).length"
    assert page.evaluate(links, "/static/keys.css") == 1
    render(page, load("holdem_raise"))
    page.evaluate("async () => { const m = await import('/static/dom.js');"
                  " m.useSheet('keys'); m.useSheet('keys'); }")
    assert page.evaluate(links, "/static/keys.css") == 1
    assert page.evaluate(links, "/static/replay.css") == 0  # (a part not drawn brings nothing)


#: the ::after content of each card I may pick, left to right
CARD_LETTERS = """() => [...document.querySelectorAll('[data-testid=my-cards] .card.selectable')]
  .map((c) => getComputedStyle(c, '::after').content)"""


def test_the_home_rows_letters_pick_my_cards_and_the_digits_confirm(static_page: Any) -> None:
    """7 Poker's choice and a draw: A S D F … pick my cards left to right, as a tap does (the first picked of
    the four is thrown away, the second shown); each card shows its letter where the pointer is a mouse."""
    page = harness(static_page, "seven_choice", DESKTOP)
    # A♠ 7♦ 7♣ J♥
    letter = "counter(card-key, card-key)"  # (keys.css: the card-key style's symbols are A S D F G H J)
    assert page.evaluate(CARD_LETTERS) == [letter] * 4
    page.keyboard.press("d")  # 7♣ away
    page.keyboard.press("a")  # A♠ shown
    assert page.locator("[data-testid=my-cards] .card.discard").get_attribute("aria-label") == "클로버 7"
    assert page.locator("[data-testid=my-cards] .card.raised").get_attribute("aria-label") == "스페이드 A"
    assert page.evaluate(CARD_LETTERS) == [letter, letter, '"✕"', letter]  # (the card thrown away: its ✕)
    page.evaluate("() => { window.sent = []; }")
    page.keyboard.press("Digit2")  # 되돌리기, 확인
    page.wait_for_timeout(50)
    assert page.evaluate("() => window.sent") == [{"type": "choose", "discardId": 44, "openId": 12}]
    # a draw: S and F pick 4♠ and 7♥; G (a fifth card's key, of four) and a letter while typing pick nothing
    page = harness(static_page, "badugi_draw", DESKTOP)
    for key in ("s", "f", "g"):
        page.keyboard.press(key)
    assert page.locator("[data-action=draw]").inner_text() == "2장 바꾸기"
    page.evaluate("() => { const i = document.createElement('input'); document.body.append(i); i.focus(); }")
    page.keyboard.press("a")
    assert page.locator("[data-testid=my-cards] .card.raised").count() == 2


def test_the_raise_panel_opens_steps_raises_and_closes_by_key(static_page: Any) -> None:
    page = harness(static_page, "holdem_raise", DESKTOP)
    view = load("holdem_raise")  # 폴드 콜 레이즈(80~880) 올인; base unit 10
    unit = view["baseUnit"]
    amount = page.locator("[data-testid=raise-amount]")
    assert _sent_after(page, view, ["3"]) == [] and amount.is_visible()  # 레이즈 opens the panel
    assert amount.inner_text() == "레이즈 80까지"
    assert _sent_after(page, view, ["ArrowRight", "ArrowRight", "ArrowLeft", "Enter"]) == [
        {"type": "nl.raise", "to": 80 + unit}]
    panel = page.locator("[data-testid=raise-panel]")
    assert panel.is_visible()  # (the same view drawn again: the panel stays open)
    assert _sent_after(page, view, ["Escape"]) == [] and panel.count() == 0
    assert _sent_after(page, view, ["Enter"]) == []  # the panel closed: Enter is nobody's
    assert _sent_after(page, view, ["2"]) == [{"type": "nl.call"}]


def test_a_phone_shows_no_digits_on_its_buttons(browser: Any, static_origin: str) -> None:
    # the pool's pages have no touch screen: a phone's context of its own, served as static_page serves
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True,
                              device_scale_factor=1)
    try:
        page = ctx.new_page()
        page.goto(f"{static_origin}/fixtures/harness.html?f=seven_betting_me")
        page.wait_for_function("() => window.rendered === true")
        digits = page.evaluate(DIGITS)
        assert len(digits) == 8 and all(c == "none" for _, c in digits), digits
        page.goto(f"{static_origin}/fixtures/harness.html?f=seven_choice")
        page.wait_for_function("() => window.rendered === true")
        assert page.evaluate(CARD_LETTERS) == ["none"] * 4  # (a phone's cards: no letter)
    finally:
        ctx.close()
