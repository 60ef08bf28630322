"""The host's 내보내기 button (docs/decisions/0014-host-kick-and-lookalike-nicknames.md): in the waiting room
and, mid-game, in 설정; the kicked player is told in Korean and loses the seat, the others get a notice."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import webplay as wp
from webplay import shot

pytestmark = pytest.mark.browser

SMALL = {"width": 360, "height": 640}


def test_host_kicks_from_the_waiting_room(live_server: Any, open_page: Any) -> None:
    host = open_page("host")
    guest = open_page("guest", viewport=SMALL)
    third = open_page("third")
    code = wp.create_room_ui(host, live_server.http, "민수", "holdem")
    wp.join_ui(guest, live_server.http, code, "철수")
    wp.join_ui(third, live_server.http, code, "영희")
    wp.wait_members(host, 3)
    assert guest.locator("[data-testid^=kick-]").count() == 0  # host only
    button = host.locator("[data-testid=kick-p2]")
    box = button.bounding_box()
    assert box is not None and box["x"] + box["width"] <= 390 and box["height"] >= 28
    shot(host, "kick-waiting-room-390")
    button.click()
    assert "철수 님을 내보낼까요?" in host.locator("#dlg-confirm-text").inner_text()
    shot(host, "kick-confirm-390")
    host.click("#dlg-confirm-yes")
    guest.wait_for_function("() => document.body.innerText.includes('방장이 나를 방에서 내보냈어요')")
    shot(guest, "kick-kicked-360")
    assert guest.evaluate(f"() => localStorage.getItem('pokerroom:{code}')") is None  # the seat is gone
    toast = third.locator("[data-testid=toast]")
    toast.wait_for()
    assert "방장이 철수 님을 내보냈어요" in toast.inner_text()
    host.wait_for_function("() => window.__room.lobby.players.map((p) => p.nickname).join() === '민수,영희'")


def test_host_kicks_mid_game_from_settings(live_server: Any, open_page: Any) -> None:
    host = open_page("host", viewport=SMALL)
    guest = open_page("guest")
    third = open_page("third")
    code = wp.create_room_ui(host, live_server.http, "민수", "holdem", turnSeconds=60)
    wp.join_ui(guest, live_server.http, code, "철수")
    wp.join_ui(third, live_server.http, code, "영희")
    wp.wait_members(host, 3)
    host.click("[data-testid=start]")
    wp.wait_table(host)
    host.click("#btn-settings")
    kick = host.locator("#dlg-settings [data-testid=kick-p3]")
    kick.wait_for()
    shot(host, "kick-settings-360")
    kick.click()
    assert "남은 판은 자동으로 다이해요" in host.locator("#dlg-confirm-text").inner_text()
    host.click("#dlg-confirm-yes")
    third.wait_for_function("() => document.body.innerText.includes('방장이 나를 방에서 내보냈어요')")
    host.wait_for_function(
        "() => (window.__room.lobby.players || []).some((p) => p.id === 'p3' && p.status === 'left')")


def test_host_lifts_a_ban_from_the_list(live_server: Any, open_page: Any) -> None:
    """A kick is a ban until the host lifts it: the host (and only the host) sees 내보낸 사람 in the waiting
    room and in 설정, and 다시 받기 lets the same nickname join again."""
    host = open_page("host", viewport={"width": 390, "height": 844})
    guest = open_page("guest")
    code = wp.create_room_ui(host, live_server.http, "민수", "holdem")
    wp.join_ui(guest, live_server.http, code, "철수")
    wp.wait_members(host, 2)
    host.click("[data-testid=kick-p2]")
    host.click("#dlg-confirm-yes")
    guest.wait_for_function("() => document.body.innerText.includes('방장이 나를 방에서 내보냈어요')")
    waiting = host.locator("#main [data-testid=ban-list]")
    waiting.wait_for()
    assert "내보낸 사람" in waiting.inner_text() and "철수" in waiting.inner_text()
    box = host.locator("#main [data-testid=unban-p2]").bounding_box()
    assert box is not None and box["x"] + box["width"] <= 390 and box["height"] >= 28
    shot(host, "ban-list-waiting-390")

    guest.goto(f"{live_server.http}/r/{code}")  # the same nickname is refused while banned
    guest.fill("#join-nick", "철수")
    guest.check("#join-adult")
    guest.click("[data-testid=join]")
    guest.wait_for_function("() => document.body.innerText.includes('방장이 내보낸 참가자의 닉네임이에요')")

    host.click("#btn-settings")
    in_settings = host.locator("#dlg-settings [data-testid=ban-list]")
    in_settings.wait_for()
    assert "철수" in in_settings.inner_text()
    shot(host, "ban-list-settings-390")
    host.click("#dlg-settings [data-testid=unban-p2]")
    in_settings.wait_for(state="hidden")  # swapped in place by the new lobby
    host.keyboard.press("Escape")
    assert host.locator("#main [data-testid=ban-list]").is_hidden()
    wp.join_ui(guest, live_server.http, code, "철수")
    wp.wait_members(host, 2)
    assert guest.locator("[data-testid=ban-list]").count() == 0 or guest.locator(
        "[data-testid=ban-list]").is_hidden()
