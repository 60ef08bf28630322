"""The host runs the table live in the browser (hostlive.js): 방장 → 일시 정지 shows "일시 정지" to every
player and spectator until 다시 시작; the 방장 menu fits 390×844, 360×740 and 320×568 with nothing
overlapping; stakes from the next hand, 게임 끝내기 with its confirmation, 방장 넘기기."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import webplay as wp
from night_steps import end_game, pause_game, resume_game, set_base_unit
from webplay import shot

pytestmark = pytest.mark.browser

PHONES = [{"width": 390, "height": 844}, {"width": 360, "height": 740}, {"width": 320, "height": 568}]

_BOXES = """(sel) => [...document.querySelectorAll(sel)]
  .filter((e) => e.offsetParent !== null || getComputedStyle(e).position === 'fixed')
  .map((e) => { const r = e.getBoundingClientRect();
                const name = (e.textContent || e.id).trim().slice(0, 24);
                return {l: r.left, t: r.top, r: r.right, b: r.bottom, name}; })
  .filter((b) => b.r > b.l && b.b > b.t)"""


def assert_apart(page: Any, selector: str) -> None:
    """The visible elements of ``selector`` lie inside the viewport's width and none covers another."""
    width = page.viewport_size["width"]
    boxes = page.evaluate(_BOXES, selector)
    assert boxes, selector
    for i, a in enumerate(boxes):
        assert a["l"] >= -0.5 and a["r"] <= width + 0.5, f"{a['name']!r} leaves the screen: {a}"
        for b in boxes[i + 1:]:
            wide = min(a["r"], b["r"]) - max(a["l"], b["l"])
            tall = min(a["b"], b["b"]) - max(a["t"], b["t"])
            assert not (wide > 0.5 and tall > 0.5), f"{a['name']!r} overlaps {b['name']!r}: {a} {b}"


def _room(live_server: Any, open_page: Any, host_size: dict[str, int]) -> tuple[Any, Any, str]:
    host = open_page("host", viewport=host_size)
    guest = open_page("guest", viewport={"width": 360, "height": 740})
    code = wp.create_room_ui(host, live_server.http, "민수", "holdem", turnSeconds=60)
    wp.join_ui(guest, live_server.http, code, "지수")
    wp.wait_members(host, 2)
    return host, guest, code


def test_pause_shows_to_everyone_and_resume_goes_on(live_server: Any, open_page: Any) -> None:
    host, guest, code = _room(live_server, open_page, PHONES[0])
    watcher = open_page("watcher", viewport=PHONES[2])
    wp.spectate_ui(watcher, live_server.http, code)
    host.click("[data-testid=start]")
    for page in (host, guest, watcher):
        wp.wait_table(page)
    assert guest.locator("#btn-host").is_hidden() and watcher.locator("#btn-host").is_hidden()  # host only
    pause_game(host, [host, guest, watcher])
    for page in (host, guest, watcher):
        assert "민수" in page.locator("[data-testid=pause-banner]").inner_text()
        # the layer says who paused; no toast says it again over the top seats (the notice came first)
        toasts = page.locator("[data-testid=toast]")
        assert toasts.count() == 0, toasts.inner_text()
    assert guest.locator("[data-testid=pause-resume]").count() == 0  # only the host may go on
    before, due = wp.version(guest), (wp.view(guest) or {})["deadlineAt"]
    shot(host, "host-live-paused-host-390")
    shot(guest, "host-live-paused-guest-360")
    shot(watcher, "host-live-paused-spectator-320")
    time.sleep(1.5)  # a short real pause: nothing moves
    assert wp.version(guest) == before
    resume_game(host, [host, guest, watcher])
    guest.wait_for_function("(v) => window.__room.conn.version > v", arg=before)
    # the host is told of their own act in their own words, the others by name
    host.locator("[data-testid=toast]", has_text="게임을 다시 시작했어요").wait_for()
    assert "민수" not in host.locator("[data-testid=toast]").inner_text()
    guest.locator("[data-testid=toast]", has_text="민수 님이 게임을 다시 시작했어요").wait_for()
    # the turn resumes with the time it had: its deadline moved by the pause's length
    assert (wp.view(guest) or {})["deadlineAt"] >= due + 1400


def test_host_menu_on_three_phones_then_stakes_end_and_handover(live_server: Any, open_page: Any) -> None:
    host, guest, _ = _room(live_server, open_page, PHONES[0])
    host.click("[data-testid=start]")
    wp.wait_table(host)
    wp.wait_table(guest)
    for size in PHONES:
        host.set_viewport_size(size)
        name = f"{size['width']}x{size['height']}"
        assert_apart(host, "#topbar > *")
        host.click("#btn-host")
        host.locator("#dlg-host[open]").wait_for()
        shot(host, f"host-live-menu-{name}")
        assert_apart(host, "#dlg-host .dlg-head > *, #dlg-host .host-section button, #dlg-host .seg label")
        host.locator("#dlg-host [data-testid=stakes-apply]").scroll_into_view_if_needed()
        shot(host, f"host-live-menu-bottom-{name}")
        host.click("#dlg-host [data-testid=host-pause]")
        host.locator("[data-testid=pause-banner]").wait_for()
        assert_apart(host, "#topbar > *, #pause-layer .pause-box > *")
        shot(host, f"host-live-pause-{name}")
        host.click("[data-testid=pause-resume]")
        host.locator("[data-testid=pause-banner]").wait_for(state="detached")

    # stakes from the next hand: everyone is told, the hand in play keeps its own
    set_base_unit(host, 20)
    # (the resume's own toast may still be up: wait for the one that says the new stakes)
    guest.locator("[data-testid=toast]", has_text="다음 판부터 기본 단위 20").wait_for()
    guest.wait_for_function("() => (window.__room.view.nextStakes || {}).baseUnit === 20")
    assert (wp.view(guest) or {})["baseUnit"] == 10

    # 게임 끝내기 asks first; the hand in play is played out, then the ordinary result screen
    host.click("#btn-host")
    host.click("[data-testid=host-end]")
    assert "게임을 지금 끝낼까요?" in host.locator("#dlg-confirm-text").inner_text()
    shot(host, "host-live-end-confirm-320")
    host.click("#dlg-confirm-yes")
    guest.wait_for_function("() => window.__room.view.endAfterHand === true")
    host.locator("[data-testid=toast]", has_text="이번 판이 끝나면 게임을 마치고").wait_for()
    guest.locator("[data-testid=toast]", has_text="방장이 게임을 마치기로 했어요").wait_for()
    wp.play_hand([host, guest])
    for page in (host, guest):
        page.locator("[data-testid=result]").wait_for(timeout=20000)
    shot(guest, "host-live-result-360")

    # 방장 넘기기 (after the game: the menu has only that)
    host.click("#btn-host")
    assert host.locator("#dlg-host [data-testid=host-pause]").count() == 0
    host.click("[data-testid=transfer-p2]")
    assert "지수 님에게 방장을 넘길까요?" in host.locator("#dlg-confirm-text").inner_text()
    host.click("#dlg-confirm-yes")
    guest.locator("#btn-host").wait_for()
    host.wait_for_function("() => document.querySelector('#btn-host').hidden")
    assert guest.locator("[data-testid=again]").count() == 1  # the new host may start the next game


def test_the_notice_that_the_game_will_end_goes_when_it_has(live_server: Any, open_page: Any) -> None:
    """"이번 판이 끝나면 결과가 나와요" is untrue on the result screen itself: a hand folded at once
    after the host's 게임 끝내기, and both players' 다음 판, brought the results under the notice, which
    stayed over them for the rest of its seconds."""
    host, guest, _ = _room(live_server, open_page, PHONES[2])
    host.click("[data-testid=start]")
    for page in (host, guest):
        wp.wait_table(page)
    end_game(host)
    guest.locator("[data-testid=toast]", has_text="방장이 게임을 마치기로 했어요").wait_for()
    host.locator("[data-testid=toast]", has_text="이번 판이 끝나면 게임을 마치고").wait_for()
    acting = next(p for p in (host, guest)
                  if any(a["type"] == "nl.fold" for a in (wp.view(p) or {})["me"]["legalActions"]))
    acting.click("[data-action='nl.fold']")
    for page in (host, guest):  # 다음 판 on both: the results come at once, not after the hand's 4 s
        page.locator("[data-action=ready]").click()
    for page in (host, guest):
        page.locator("[data-testid=result]").wait_for(timeout=10000)
        said = page.locator("[data-testid=toast]").all_inner_texts()
        assert not any("끝나면" in t or "마치기로" in t for t in said), said

