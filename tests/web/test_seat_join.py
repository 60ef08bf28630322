"""A friend arrives after 게임 시작 (docs/decisions/0005-seats-change-between-hands.md): they open the link,
watch, ask for a seat, the host taps 수락, and they are dealt into the next hand; sitting out (자리 비움) and
복귀 from the same screens.
At 390×844 and 360×640, with screenshots."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import webplay as wp
from webplay import shot

pytestmark = pytest.mark.browser

SEAT_OF = "(window.__room.view.seats.find(s => s.id === id) || {})"
SEAT_JS = "(id) => " + SEAT_OF
ME_IS = "(id) => window.__room && window.__room.view && (window.__room.view.me || {}).id === id"
SIZES = [pytest.param({"width": 390, "height": 844}, id="390x844"),
         pytest.param({"width": 360, "height": 640}, id="360x640")]


def inside(page: Any, selector: str) -> dict[str, float]:
    """The element's box, asserted to be fully on screen."""
    box = page.locator(selector).first.bounding_box()
    assert box is not None, selector
    vp = page.viewport_size
    assert box["x"] >= 0 and box["y"] >= 0, (selector, box)
    assert box["x"] + box["width"] <= vp["width"] + 0.5 and box["y"] + box["height"] <= vp["height"] + 0.5, (
        selector, box, vp)
    return box


def seat_view(page: Any, pid: str) -> dict[str, Any] | None:
    v = wp.view(page) or {}
    return next((s for s in v.get("seats") or [] if s["id"] == pid), None)


@pytest.mark.parametrize("size", SIZES)
def test_friend_after_start_asks_is_accepted_and_dealt_in(live_server: Any, open_page: Any,
                                                          size: dict[str, int]) -> None:
    tag = f"{size['width']}x{size['height']}"
    base = live_server.http
    host = open_page("host", size)
    code = wp.create_room_ui(host, base, "방장", "holdem", turnSeconds=60)
    p2 = open_page("p2", size)
    wp.join_ui(p2, base, code, "민수")
    wp.wait_members(host, 2)
    host.click("[data-testid=start]")
    wp.wait_table(host)
    wp.wait_table(p2)
    hand_no = wp.view(host)["handNo"]  # type: ignore[index]

    # the friend opens the link after the start, watches, and asks for a seat (taps counted)
    friend = open_page("friend", size)
    friend.goto(f"{base}/r/{code}")
    taps = 0
    friend.click("[data-testid=spectate]")
    taps += 1
    wp.wait_table(friend)
    bar = friend.locator("[data-testid=seat-bar]")
    bar.wait_for()
    inside(friend, "[data-testid=seat-bar]")
    shot(friend, f"seat-join-{tag}-1-spectator")
    friend.fill("[data-testid=seat-nick]", "지각생")
    taps += 1
    friend.click("[data-testid=request-seat]")
    taps += 1
    assert "성인용 카드 게임" in friend.locator("#dlg-confirm-text").inner_text()  # as the join form asks
    shot(friend, f"seat-join-{tag}-2a-adult-confirm")
    friend.click("#dlg-confirm-yes")
    taps += 1
    friend.wait_for_selector("[data-testid=seat-asking]")
    assert friend.evaluate("() => window.__room.role") == "player"
    friend_id = friend.evaluate("() => window.__room.playerId")
    token = friend.evaluate("(c) => localStorage.getItem('pokerroom:' + c)", code)
    assert token  # the new seat's reconnect token is kept
    shot(friend, f"seat-join-{tag}-2-asking")

    # the host sees the request and taps 수락; 민수 (not the host) sees no prompt
    host.wait_for_selector("[data-testid=seat-request]")
    assert "지각생" in host.locator("[data-testid=seat-request]").inner_text()
    accept = inside(host, "[data-testid=seat-accept]")
    deny = inside(host, "[data-testid=seat-deny]")
    assert accept["height"] >= 36 and deny["height"] >= 36
    assert p2.locator("[data-testid=seat-request]").count() == 0
    shot(host, f"seat-join-{tag}-3-host-prompt")
    # a notice at that moment (both sit under the top bar at a table) goes below the prompt, not over 수락
    host.evaluate("() => import('/static/dialogs.js').then((m) => m.toast('다음 판부터 쉬어요', 'info'))")
    host.locator("[data-testid=toast]").wait_for()
    assert host.evaluate(TOAST_CLEAR_OF, "#seat-requests"), "the toast covers the seat request"
    host.click("[data-testid=seat-accept]")
    host.wait_for_selector("[data-testid=seat-request]", state="detached")
    friend.wait_for_function(ME_IS, arg=friend_id)
    assert friend.locator("[data-testid=seat-bar]").count() == 0
    assert (wp.view(friend) or {})["me"]["inHand"] is False  # the hand in progress is not theirs
    assert friend.locator("[data-testid=next-hand-line]").inner_text() == "다음 판부터 참가해요."
    assert friend.locator(".actions button").count() == 0  # no dead buttons while waiting
    shot(friend, f"seat-join-{tag}-4-seated-waiting")

    # the rest of this hand, then the next one deals the friend in (two cards, one big blind)
    wp.play_hand([host, p2])
    friend.wait_for_function("(n) => window.__room.view && window.__room.view.handNo === n + 1", arg=hand_no,
                             timeout=20000)
    v = wp.view(friend) or {}
    assert v["me"]["inHand"] is True and len(v["me"]["hole"]) == 2
    mine = seat_view(friend, friend_id)
    assert mine is not None and mine["committedTotal"] == 10
    friend.wait_for_selector("[data-testid=my-cards] .card")
    assert friend.locator("[data-testid=my-cards] .card").count() == 2
    inside(friend, "[data-testid=my-cards]")
    assert host.locator(f"[data-seat-id='{friend_id}']").count() == 1  # the others see the new seat
    inside(host, f"[data-seat-id='{friend_id}']")
    shot(friend, f"seat-join-{tag}-5-dealt-in")
    shot(host, f"seat-join-{tag}-6-host-sees-friend")
    assert taps == 4  # link opened → 관전하기, 닉네임, 자리 요청, 성인 확인 (then the host's one tap: 수락)

    # a reload keeps the seat (token)
    friend.reload()
    friend.wait_for_function(ME_IS, arg=friend_id)

    # a second late friend confirms the adult notice on the join form, then watches first: asking for a
    # seat does not ask the same question again
    late = open_page("late", size)
    late.goto(f"{base}/r/{code}")
    late.check("#join-adult")
    late.click("[data-testid=spectate]")
    wp.wait_table(late)
    late.fill("[data-testid=seat-nick]", "늦은친구")
    late.click("[data-testid=request-seat]")
    late.wait_for_selector("[data-testid=seat-asking]")
    assert late.evaluate("() => document.querySelector('#dlg-confirm').open") is False


#: Does the toast stay clear of this element (no overlap)?
TOAST_CLEAR_OF = """(sel) => {
  const t = document.querySelector('[data-testid=toast]').getBoundingClientRect();
  const r = document.querySelector(sel).getBoundingClientRect();
  return r.bottom <= t.top || t.bottom <= r.top || r.right <= t.left || t.right <= r.left; }"""


@pytest.mark.parametrize("size", SIZES)
def test_sit_out_and_come_back(live_server: Any, open_page: Any, size: dict[str, int]) -> None:
    tag = f"{size['width']}x{size['height']}"
    base = live_server.http
    host = open_page("host", size)
    code = wp.create_room_ui(host, base, "방장", "sevenPoker", turnSeconds=60)
    others = []
    for name in ("민수", "지수"):
        page = open_page(name, size)
        wp.join_ui(page, base, code, name)
        others.append(page)
    wp.wait_members(host, 3)
    host.click("[data-testid=start]")
    for page in (host, *others):
        wp.wait_table(page)
    resting = others[1]
    pid = resting.evaluate("() => window.__room.playerId")
    resting.click("#btn-settings")
    resting.click("[data-testid=settings-sit-out]")
    resting.wait_for_function(SEAT_JS + ".sittingOut === true", arg=pid)
    host.wait_for_selector(f"[data-seat-id='{pid}'] [data-testid=sitting-out]")
    assert "쉬는 중" in host.locator(f"[data-seat-id='{pid}']").inner_text()
    resting.wait_for_selector("[data-testid=sit-in]")
    inside(resting, "[data-testid=sit-in]")
    shot(resting, f"sit-out-{tag}-1-resting")
    shot(host, f"sit-out-{tag}-2-others-see")
    resting.click("[data-testid=sit-in]")
    resting.wait_for_function(SEAT_JS + ".sittingOut === false", arg=pid)
    assert resting.locator("[data-testid=sit-in]").count() == 0
    host.wait_for_selector(f"[data-seat-id='{pid}'] [data-testid=sitting-out]", state="detached")

    # between hands, 쉬기 sits out from the next hand, beside 다음 판
    other = others[0]
    other_id = other.evaluate("() => window.__room.playerId")
    wp.play_hand([host, *others], [{}, {}, {}])
    other.wait_for_selector("[data-testid=sit-out]", timeout=5000)
    inside(other, "[data-testid=sit-out]")
    shot(other, f"sit-out-{tag}-3-between-hands")
    other.click("[data-testid=sit-out]")
    host.wait_for_selector(f"[data-seat-id='{other_id}'] [data-testid=sitting-out]")
    host.wait_for_function("(id) => window.__room.view.phase !== 'handEnd' && !" + SEAT_JS[8:] + ".inHand",
                           arg=other_id, timeout=15000)
    other.wait_for_selector("[data-testid=next-hand-line]")
    assert "쉬는 중" in other.locator("[data-testid=next-hand-line]").inner_text()
    shot(other, f"sit-out-{tag}-4-next-hand-resting")
