"""The create form fits a phone (docs/decisions/0007-phone-table-measured.md). The mode and the few options
people change come first, the rest is behind "더 보기", 방 만들기 is always on screen (sticky), and each error
is shown next to its field."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import webplay as wp
from webplay import MOBILE, shot

pytestmark = pytest.mark.browser

MEASURE = """() => { const f = document.querySelector('[data-testid=create-room]').closest('form');
  const b = document.querySelector('[data-testid=create-room]').getBoundingClientRect();
  return { formHeight: f.getBoundingClientRect().height, buttonTop: b.top, buttonBottom: b.bottom,
           pageHeight: document.documentElement.scrollHeight, viewport: innerHeight }; }"""


def test_create_form_button_always_reachable_and_short(live_server: Any, open_page: Any) -> None:
    page = open_page("lobby", MOBILE)
    page.goto(live_server.http + "/")
    m = page.evaluate(MEASURE)
    print(f"\ncreate form at 390x844: {m}")
    # 방 만들기 is on the first screen without scrolling, and stays on screen while the form scrolls
    assert m["buttonBottom"] <= m["viewport"], m
    for y in (400, 900, 2000):
        page.evaluate("(y) => window.scrollTo(0, y)", y)
        box = page.locator("[data-testid=create-room]").bounding_box()
        assert box and 0 <= box["y"] and box["y"] + box["height"] <= m["viewport"] + 0.5, (y, box)
    page.evaluate("() => window.scrollTo(0, 0)")
    # the mode, the nickname and the main options come first; the rest is folded behind 더 보기
    more = page.locator("details.more-options")
    assert more.count() == 1 and more.get_attribute("open") is None
    assert more.locator("summary").inner_text().startswith("더 보기")
    for key in ("startingChips", "baseUnit", "endCondition", "handLimit"):
        assert page.locator(f"input[data-opt='{key}']").first.is_visible(), key
    for key in ("betting", "rebuy", "turnSeconds", "dealerRule", "hints", "blindUpEvery"):
        assert not page.locator(f"input[data-opt='{key}']").first.is_visible(), key
    assert m["formHeight"] <= 1.3 * m["viewport"], m
    # a mode card cuts its blurb on a phone: the chosen mode's whole line and seat limit are under the cards
    line = page.locator("[data-testid=mode-line]")
    chosen = page.locator("input[data-opt='mode']:checked").get_attribute("value")
    assert (chosen, line.inner_text()) == ("sevenPoker", "7포커 · 한국식 초이스 세븐 스터드 · 최대 6명")
    wp.pick_option(page, "mode", "indian")
    assert line.inner_text() == "인디언 포커 · 이마 카드, 남의 패만 보임 · 최대 6명" and line.is_visible()
    wp.pick_option(page, "mode", chosen)
    shot(page, "lobby-create-short")
    # a house rule added to OPTION_DEFS without "main" lands behind 더 보기 (the form is data-driven)
    page.click("details.more-options summary")
    assert page.locator("input[data-opt='rebuy']").first.is_visible()
    shot(page, "lobby-create-more")


def test_create_errors_appear_next_to_their_fields(live_server: Any, open_page: Any) -> None:
    page = open_page("lobby", MOBILE)
    page.goto(live_server.http + "/")
    wp.pick_option(page, "startingChips", 500)
    wp.pick_option(page, "baseUnit", 50)
    page.click("[data-testid=create-room]")
    checks = {
        "nickname": ("#create-nick", "닉네임을 입력해 주세요"),
        "adult": ("#create-adult", "성인용 카드 게임 확인에 체크해 주세요"),
        "baseUnit": ("input[data-opt='baseUnit']", "시작 칩이 기본 단위의 20배 이상이어야 해요"),
    }
    for key, (selector, text) in checks.items():
        err = page.locator(f"[data-error-for={key}]")
        assert err.inner_text() == text, key
        # right below its field: within 60 px of the field's bottom
        field = page.locator(f"[data-field={key}]")
        fb, eb = field.bounding_box(), err.bounding_box()
        assert fb and eb and fb["y"] <= eb["y"] <= fb["y"] + fb["height"] + 2, (key, fb, eb)
        assert page.locator(selector).first.count() == 1
    # the first field in error is brought into view
    nick = page.locator("#create-nick").bounding_box()
    assert nick and 0 <= nick["y"] <= MOBILE["height"]
    shot(page, "lobby-create-errors")
