"""Table habits of issue #15 in the browser, on a phone-sized screen: pre-actions chosen by tapping, fired by
the server on my turn without my phone doing anything, and cancelled visibly when someone raises."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import webplay as wp
from test_play import open_room
from webplay import MOBILE, shot

pytestmark = pytest.mark.browser


def _pages_by_id(players: list[Any]) -> dict[str, Any]:
    return {p.evaluate("() => window.__room.playerId"): p for p in players}


def _seat(page: Any, pid: str) -> dict[str, Any]:
    v = wp.view(page)
    assert v is not None
    return next(s for s in v["seats"] if s["id"] == pid)


def _order(players: list[Any]) -> tuple[Any, Any, Any, str, str]:
    """(page to act, the page acting after them, the third page, their ids) on a 3-handed hold'em table."""
    by = _pages_by_id(players)
    v = wp.view(players[0])
    assert v is not None and v["phase"] == "betting"
    first = v["toAct"]
    seats = sorted(v["seats"], key=lambda s: s["seat"])
    i = next(k for k, s in enumerate(seats) if s["id"] == first)
    second = seats[(i + 1) % 3]["id"]
    third = seats[(i + 2) % 3]["id"]
    return by[first], by[second], by[third], first, second


@pytest.mark.parametrize("viewport", [MOBILE, {"width": 360, "height": 640}], ids=["390x844", "360x640"])
def test_pre_action_fires_on_my_turn_without_my_phone(live_server: Any, open_page: Any,
                                                      viewport: dict[str, int]) -> None:
    players, spectator, _ = open_room(live_server, open_page, "holdem", 3, viewport)
    first_page, second_page, _, _, second = _order(players)
    second_page.wait_for_selector("[data-testid=pre-actions]")
    labels = second_page.locator("[data-preaction]").all_inner_texts()
    assert labels[0].strip() == "체크/다이" and any("아무거나 콜" in t for t in labels)
    second_page.click("[data-preaction=callAny]")
    second_page.wait_for_selector("[data-preaction=callAny][aria-pressed=true]")
    # nobody else (not the spectator either) gets pre-action buttons or learns of my choice
    assert spectator.locator("[data-testid=pre-actions]").count() == 0
    assert first_page.locator("[data-preaction][aria-pressed=true]").count() == 0
    w = viewport["width"]
    shot(second_page, f"preaction-chosen-{w}")
    box = second_page.locator("[data-testid=pre-actions]").bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= w + 0.5
    assert box["y"] + box["height"] <= viewport["height"] + 0.5
    # the phone of the pre-actor is frozen from here: it sends nothing, the server acts for it
    second_page.evaluate("() => { window.__room.conn.send = () => { throw new Error('sent'); }; }")
    before = wp.version(first_page)
    first_page.click("[data-action='nl.call']")
    second_page.wait_for_function(
        "(v) => window.__room.conn.version >= v + 2", arg=before, timeout=10000)
    assert _seat(second_page, second)["lastAction"] in ("nl.call", "nl.check")
    shot(second_page, f"preaction-fired-{w}")


def test_call_pre_action_cancelled_by_a_raise_shows_a_notice(live_server: Any, open_page: Any) -> None:
    players, _, _ = open_room(live_server, open_page, "holdem", 3, MOBILE)
    first_page, second_page, _, _, second = _order(players)
    second_page.wait_for_selector("[data-preaction=call]")
    assert "콜" in second_page.locator("[data-preaction=call]").inner_text()
    second_page.click("[data-preaction=call]")
    second_page.wait_for_selector("[data-preaction=call][aria-pressed=true]")
    first_page.click("[data-action='nl.allIn']")
    toast = second_page.locator("[data-testid=toast]")
    toast.wait_for(timeout=10000)
    assert "레이즈해서 '콜' 예약이 취소됐어요" in toast.inner_text()
    shot(second_page, "preaction-cancelled-390")
    # not applied: it is my turn now, with my own buttons
    second_page.wait_for_selector("[data-action='nl.fold']:not([disabled])")
    v = wp.view(second_page)
    assert v is not None and v["toAct"] == second


def test_reaction_bubble_over_the_senders_seat_and_chat_is_text(live_server: Any, open_page: Any) -> None:
    players, spectator, _ = open_room(live_server, open_page, "holdem", 3, MOBILE)
    by = _pages_by_id(players)
    host = players[0]
    sender_id = players[1].evaluate("() => window.__room.playerId")
    sender = by[sender_id]
    sender.click("[data-testid=react-open]")
    sender.wait_for_selector("[data-testid=react-palette]")
    assert sender.locator("[data-testid=chat-input]").count() == 0  # chat is off until the host turns it on
    shot(sender, "reaction-palette-390")
    sender.click("[data-reaction=nice]")
    bubble = host.locator(f"[data-testid=bubble][data-from='{sender_id}']")
    bubble.wait_for(timeout=5000)
    assert bubble.inner_text() == "나이스!"
    seat = host.locator(f".seat[data-seat-id='{sender_id}']").bounding_box()
    box = bubble.bounding_box()
    assert seat is not None and box is not None
    centre = box["x"] + box["width"] / 2
    assert seat["x"] <= centre <= seat["x"] + seat["width"]  # over that seat, not another one
    assert abs((box["y"] + box["height"]) - (seat["y"] + 4)) < 6
    shot(host, "reaction-bubble-390")
    # the spectator sees it too, but may not react until the host allows it
    spectator.locator(f"[data-testid=bubble][data-from='{sender_id}']").wait_for(timeout=5000)
    assert spectator.locator("[data-testid=react-open]").count() == 0
    # the host turns chat on in 설정; a chat line is shown as text, never as HTML
    host.click("#btn-settings")
    host.click("label[for=social-chat]")
    sender.wait_for_function("() => window.__room.lobby.social && window.__room.lobby.social.chat")
    host.keyboard.press("Escape")
    sender.click("[data-testid=react-open]")
    evil = "<img src=x onerror=window.__pwned=1>"
    sender.fill("[data-testid=chat-input]", evil)
    sender.press("[data-testid=chat-input]", "Enter")
    line = host.locator(f"[data-testid=bubble][data-from='{sender_id}']")
    host.wait_for_function("(t) => [...document.querySelectorAll('.bubble')].some(b => b.textContent === t)",
                           arg=evil[:40])
    assert host.locator(".bubble-layer img").count() == 0
    assert host.evaluate("() => window.__pwned === undefined")
    assert line.count() == 1
