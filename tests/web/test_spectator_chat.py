"""Spectator chat in the browser: off until the host turns on 관전자 채팅 in 설정; then a spectator's 😀 opens
a text field (and no reactions, which stay the host's other switch), and every phone shows the line at the top
of the table tagged "관전자" (docs/decisions/0049-small-phones-and-spectator-chat.md)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from test_play import open_room
from webplay import MOBILE, shot

pytestmark = pytest.mark.browser


def test_spectator_chats_when_the_host_allows_marked_as_a_spectator(live_server: Any, open_page: Any) -> None:
    players, spectator, _ = open_room(live_server, open_page, "holdem", 2, MOBILE)
    host, guest = players
    assert spectator.locator("[data-testid=react-open]").count() == 0  # off by default
    host.click("#btn-settings")
    toggle = host.locator("label[for=social-spectatorChat]")
    assert "관전자 채팅" in toggle.inner_text()
    toggle.click()
    spectator.wait_for_function("() => window.__room.lobby.social?.spectatorChat === true")
    host.keyboard.press("Escape")
    spectator.click("[data-testid=react-open]")
    palette = spectator.locator("[data-testid=react-palette]")
    palette.wait_for()
    assert palette.locator("[data-reaction]").count() == 0  # reactions are the host's other switch (off)
    evil = "<b>힘내요</b> 민수 님"
    spectator.fill("[data-testid=chat-input]", evil)
    spectator.press("[data-testid=chat-input]", "Enter")
    for page in (host, guest, spectator):
        line = page.locator("[data-testid=bubble][data-from='']")
        line.wait_for(timeout=5000)
        assert line.locator(".who").inner_text() == "관전자"
        assert line.inner_text() == "관전자 <b>힘내요</b> 민수 님"
        assert page.locator(".bubble-layer b").count() == 0  # text, never HTML
    box = host.locator("[data-testid=bubble][data-from='']").bounding_box()
    bar = host.locator("#topbar").bounding_box()
    assert box and bar and box["y"] >= bar["y"] + bar["height"] and box["x"] >= 0
    assert box["x"] + box["width"] <= MOBILE["width"]
    shot(host, "spectator-chat-bubble")
    # the players' own chat is still off: their palette has reactions and no text field
    guest.click("[data-testid=react-open]")
    guest.wait_for_selector("[data-testid=react-palette] [data-reaction]")
    assert guest.locator("[data-testid=chat-input]").count() == 0
