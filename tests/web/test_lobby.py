"""The lobby, the waiting room, dialogs, settings and the connection against the real server."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import webplay as wp
from webplay import lobby_dialog, shot

pytestmark = pytest.mark.browser


def checked(page: Any, key: str) -> str | None:
    value: str | None = page.evaluate(
        "(k) => { const e = document.querySelector(`input[data-opt='${k}']:checked`);"
        " return e ? e.value : null; }",
        key,
    )
    return value


def shown(page: Any, key: str) -> bool:
    return bool(page.locator(f"input[data-opt='{key}']").count())


def test_create_form_defaults_mode_options_and_recommendations(live_server: Any, open_page: Any) -> None:
    page = open_page("lobby")
    page.goto(live_server.http + "/")
    notice = page.locator(".notice").first.inner_text()
    assert "성인용 카드 게임" in notice and "가상 칩" in notice
    defaults = {
        "mode": "sevenPoker",
        "betting": "auto",
        "startingChips": "1000",
        "baseUnit": "10",
        "koreanMaxRaise": "half",
        "endCondition": "hands",
        "handLimit": "20",
        "blindUpEvery": "0",
        "rebuy": "unlimited",
        "turnSeconds": "20",
        "dealerRule": "rotate",
        "hints": "true",
    }
    for key, value in defaults.items():
        assert checked(page, key) == value, key
    for key in (
        "hiLoLow",
        "hiLoQualifier",
        "drawLimit",
        "indianCards",
        "indianDeck",
        "indianFoldPenalty",
        "indianTie",
        "indianReshuffle",
        "rebuyLimit",
    ):
        assert not shown(page, key), key
    shot(page, "lobby-default")
    wp.pick_option(page, "mode", "sevenHiLo")
    assert shown(page, "hiLoLow") and shown(page, "hiLoQualifier") and not shown(page, "drawLimit")
    assert checked(page, "hiLoLow") == "korean" and checked(page, "hiLoQualifier") == "none"
    wp.pick_option(page, "mode", "fiveDraw")
    assert shown(page, "drawLimit") and checked(page, "drawLimit") == "any" and not shown(page, "hiLoLow")
    wp.pick_option(page, "mode", "indian")
    for key, value in {
        "indianCards": "1",
        "indianDeck": "d20",
        "indianFoldPenalty": "true",
        "indianTie": "carry",
        "indianReshuffle": "whenEmpty",
    }.items():
        assert checked(page, key) == value, key
    assert not shown(page, "koreanMaxRaise")  # Indian bets no-limit by default
    assert page.locator("[data-field=indianName]").is_visible()
    shot(page, "lobby-indian")
    wp.pick_option(page, "mode", "holdem")
    assert not shown(page, "koreanMaxRaise") and not shown(page, "indianCards")
    wp.pick_option(page, "betting", "korean")
    assert shown(page, "koreanMaxRaise")
    # lastStanding: the UI recommends blindUpEvery 10 and rebuy off, and hides the hand count
    wp.pick_option(page, "endCondition", "lastStanding")
    assert checked(page, "blindUpEvery") == "10" and checked(page, "rebuy") == "off"
    assert not shown(page, "handLimit")
    assert "추천" in page.locator("[data-testid=recommend-note]").inner_text()
    wp.pick_option(page, "rebuy", "limited")
    assert checked(page, "rebuyLimit") == "1"


def test_create_validation_messages_in_korean(live_server: Any, open_page: Any) -> None:
    page = open_page("lobby")
    page.goto(live_server.http + "/")
    wp.pick_option(page, "startingChips", 500)
    wp.pick_option(page, "baseUnit", 50)
    errors = page.locator("[data-testid=create-errors]")
    assert "시작 칩이 기본 단위의 20배 이상이어야 해요" in errors.inner_text()
    page.click("[data-testid=create-room]")
    text = errors.inner_text()
    assert "닉네임을 입력해 주세요" in text and "성인용 카드 게임 확인에 체크해 주세요" in text
    assert page.url.rstrip("/") == live_server.http
    shot(page, "lobby-validation")


def test_server_error_message_is_shown(live_server: Any, open_page: Any) -> None:
    page = open_page("lobby")
    page.recorder.allowed.append("status of 503")  # the browser logs the refused request itself
    body = json.dumps({"error": {"code": "too_many_rooms", "message": "지금은 방을 더 만들 수 없어요"}})
    page.route(
        "**/api/rooms",
        lambda route: route.fulfill(status=503, body=body, headers={"content-type": "application/json"}),
    )
    page.goto(live_server.http + "/")
    page.fill("#create-nick", "민수")
    page.check("#create-adult")
    page.click("[data-testid=create-room]")
    page.wait_for_function(
        "() => document.querySelector('[data-testid=create-errors]').innerText.includes('없어요')"
    )
    assert "지금은 방을 더 만들 수 없어요" in page.locator("[data-testid=create-errors]").inner_text()


def test_join_taken_nickname_shows_server_message(live_server: Any, open_page: Any) -> None:
    room = live_server.create_room("민수", mode="badugi")
    page = open_page("joiner")
    page.goto(f"{live_server.http}/r/{room['code']}")
    assert "바둑이" in page.locator("form").inner_text()
    page.fill("#join-nick", "민수")
    page.check("#join-adult")
    page.click("[data-testid=join]")
    page.wait_for_selector("[data-testid=join-errors]:not(:empty)")
    message = page.locator("[data-testid=join-errors]").inner_text()
    assert any(0xAC00 <= ord(ch) <= 0xD7A3 for ch in message)  # the server's Korean reason
    assert page.locator("#join-nick").count() == 1  # still on the join form, nothing joined


def test_created_options_reach_the_server_and_waiting_room(live_server: Any, open_page: Any) -> None:
    page = open_page("host")
    code = wp.create_room_ui(
        page,
        live_server.http,
        "민수",
        "holdem",
        startingChips=2000,
        turnSeconds=30,
        dealerRule="winner",
        hints=False,
    )
    info = httpx.get(f"{live_server.http}/api/rooms/{code}", timeout=5).json()
    opts = info["options"]
    assert (opts["mode"], opts["startingChips"], opts["turnSeconds"], opts["dealerRule"], opts["hints"]) == (
        "holdem",
        2000,
        30,
        "winner",
        False,
    )
    assert page.locator("[data-testid=room-code]").inner_text() == code
    assert page.locator("[data-testid=invite-link]").input_value().endswith(f"/r/{code}")
    assert page.locator("[data-testid=start]").is_disabled()  # alone in the room
    assert page.evaluate(f"() => localStorage.getItem('pokerroom:{code}')")
    page.click("[data-testid=add-bot]")
    page.wait_for_function("() => window.__room.lobby.players.length === 2")
    assert page.locator("[data-testid=start]").is_enabled()
    # the host chooses how the bot plays: 쉬움 at first, 보통 with a tap (the server keeps it)
    level = page.locator("[data-testid=bot-level]")
    assert level.locator("[aria-pressed=true]").inner_text() == "쉬움"
    level.locator("[data-level=normal]").click()
    page.wait_for_function("() => window.__room.lobby.players.some((p) => p.bot && p.level === 'normal')")
    assert level.locator("[aria-pressed=true]").inner_text() == "보통"
    members = httpx.get(f"{live_server.http}/api/rooms/{code}", timeout=5).json()["players"]
    assert [m["level"] for m in members if m["bot"]] == ["normal"]
    shot(page, "waiting-room")
    # a reload comes back to the same seat through the stored token
    pid = page.evaluate("() => window.__room.playerId")
    page.reload()
    page.wait_for_function("() => window.__room && window.__room.playerId")
    assert page.evaluate("() => window.__room.playerId") == pid
    # leaving from the settings dialog forgets the seat and goes back to the lobby
    page.click("#btn-settings")
    page.click("[data-testid=leave]")
    assert page.locator("#dlg-confirm-yes").inner_text() == "나가기"
    page.click("#dlg-confirm-yes")
    page.wait_for_selector("[data-testid=create-room]")
    assert page.evaluate(f"() => localStorage.getItem('pokerroom:{code}')") is None


def test_join_by_code_from_the_lobby(live_server: Any, open_page: Any) -> None:
    room = live_server.create_room("민수", mode="fiveDraw")
    page = open_page("joiner")
    page.goto(live_server.http + "/")
    page.fill("#join-code", f"{live_server.http}/r/{room['code']}")
    page.click("[data-testid=go-room]")
    page.wait_for_url(f"**/r/{room['code']}")
    page.fill("#join-nick", "지수")
    page.check("#join-adult")
    page.click("[data-testid=join]")
    page.wait_for_function("() => window.__room && window.__room.playerId")
    assert page.locator("[data-testid=members]").inner_text().count("지수") == 1


def test_a_stale_link_says_what_became_of_the_room_and_offers_a_new_one(live_server: Any,
                                                                         open_page: Any) -> None:
    page = open_page("stale")
    page.recorder.allowed.append("status of 404")  # the browser logs the room's 404 itself
    # a link to a room that is gone, then the same with a seat token kept from when the player was in it
    for token in (None, "t" * 32):
        page.goto(live_server.http + "/")
        if token:
            page.evaluate("(t) => localStorage.setItem('pokerroom:zzzzzzzzzz', t)", token)
        page.goto(live_server.http + "/r/zzzzzzzzzz")
        card = page.locator("[data-testid=cannot-enter]")
        card.wait_for()
        text = card.inner_text()
        gone = "링크가 틀렸거나 이미 닫힌 방이에요. 방이 닫히면 칩과 기록도 함께 사라져요."
        assert gone in text, (token, text)
        assert "방에 들어갈 수 없어요" in text and "방을 찾을 수 없어요" in text, text
        card.get_by_role("button", name="새 방 만들기").click()
        page.wait_for_url(live_server.http + "/")
        assert page.locator("[data-testid=create-room]").is_visible()


def test_imapoker_display_name(live_server: Any, open_page: Any) -> None:
    page = open_page("host")
    page.goto(live_server.http + "/")
    wp.pick_option(page, "mode", "indian")
    page.locator("input[name=indian-display][value='이마 포커']").locator("xpath=..").click()
    assert "이마 포커" in page.locator(".mode-grid").inner_text()
    assert "인디언 포커" not in page.locator(".mode-grid").inner_text()
    page.fill("#create-nick", "민수")
    page.check("#create-adult")
    page.click("[data-testid=create-room]")
    page.wait_for_selector("[data-testid=room-code]")
    assert "이마 포커" in page.locator("main").inner_text()
    assert "인디언" not in page.locator("main").inner_text()


def test_rules_dialog_and_settings(live_server: Any, open_page: Any) -> None:
    page = lobby_dialog(open_page, live_server.http, "rules")
    dlg = page.locator("#dlg-rules")
    assert dlg.is_visible()
    text = dlg.inner_text()
    for term in ("삥", "따당", "쿼터", "하프", "풀", "마운틴", "백 스트레이트"):
        assert term in text, term
    page.select_option("#rules-mode", "badugi")
    assert "골프" in dlg.inner_text() and "메이드" in dlg.inner_text()
    shot(page, "rules-badugi")
    dlg.locator("[data-close]").click()
    # settings: 4-colour deck and large text persist in localStorage
    page.click("#btn-settings")
    page.check("#set-fourColour")
    page.check("#set-largeText")
    assert page.evaluate("() => document.body.classList.contains('four-colour')")
    diamond = page.evaluate("() => getComputedStyle(document.body).getPropertyValue('--suit-D').trim()")
    assert diamond.lower() == "#1f5fd1"
    page.reload()
    assert page.evaluate(
        "() => document.body.classList.contains('four-colour') && "
        "document.body.classList.contains('large-text')"
    )
    page.click("#btn-settings")
    assert page.locator("#set-sound").is_checked()
    page.uncheck("#set-sound")
    assert page.evaluate("() => JSON.parse(localStorage.getItem('pokerroom:settings')).sound") is False


def test_connection_state_and_automatic_reconnect(live_server: Any, open_page: Any) -> None:
    room = live_server.create_room("민수", mode="holdem")
    page = open_page("spectator")
    page.goto(f"{live_server.http}/r/{room['code']}")
    page.click("[data-testid=spectate]")
    conn = page.locator("#conn")
    page.wait_for_function("() => document.querySelector('#conn').dataset.state === 'open'")
    assert conn.inner_text() == "연결됨"
    # drop the socket under the client's feet: it shows the state and reconnects by itself
    page.evaluate("() => window.__room.conn.ws.close(4000)")
    page.wait_for_function("() => document.querySelector('#conn').dataset.state !== 'open'")
    page.wait_for_function("() => document.querySelector('#conn').dataset.state === 'open'", timeout=10000)
    assert page.evaluate("() => window.__room.role") == "spectator"
    # a spectator reload keeps watching
    page.reload()
    page.wait_for_function("() => window.__room && window.__room.role === 'spectator'")


def test_host_changes_options_between_games(live_server: Any, open_page: Any) -> None:
    """설정 바꾸기: the host edits the next game's options in the waiting room; the guest is told; the game
    starts with them. Local validation stops a bad choice before anything is sent."""
    host = open_page("host")
    guest = open_page("guest")
    code = wp.create_room_ui(host, live_server.http, "민수", "holdem")
    wp.join_ui(guest, live_server.http, code, "지수")
    wp.wait_members(host, 2)
    assert guest.locator("[data-testid=edit-options]").count() == 0  # host only
    host.click("[data-testid=edit-options]")
    dialog = host.locator("#dlg-options")
    assert dialog.is_visible()
    assert host.locator("#dlg-options input[data-opt=mode][value=holdem]").is_checked()  # the room's options
    wp.pick_option(host, "mode", "badugi")
    wp.pick_option(host, "baseUnit", 50)
    wp.pick_option(host, "startingChips", 500)
    errors = host.locator("[data-testid=options-errors]")
    assert "시작 칩이 기본 단위의 20배 이상이어야 해요" in errors.inner_text()
    sent_before = host.evaluate("() => window.__room.lobby.options.mode")
    host.click("[data-testid=save-options]")
    assert dialog.is_visible() and sent_before == "holdem"
    wp.pick_option(host, "startingChips", 2000)
    assert errors.inner_text().strip() == ""
    shot(host, "options-dialog")
    host.click("[data-testid=save-options]")
    dialog.wait_for(state="hidden")
    summary = host.locator("[data-testid=options-summary]")
    host.wait_for_function("() => window.__room.lobby.options.mode === 'badugi'")
    assert "바둑이" in summary.inner_text() and "기본 단위 50" in summary.inner_text()
    guest.wait_for_function("() => window.__room.lobby.options.mode === 'badugi'")
    assert "방장이 다음 게임 설정을 바꿨어요" in guest.locator("[data-testid=toast]").first.inner_text()
    assert "시작 칩 2,000" in guest.locator("[data-testid=options-summary]").inner_text()
    info = httpx.get(f"{live_server.http}/api/rooms/{code}", timeout=5).json()
    assert (info["options"]["mode"], info["options"]["baseUnit"], info["options"]["startingChips"]) == (
        "badugi", 50, 2000)
    host.click("[data-testid=start]")
    wp.wait_table(guest)
    guest.wait_for_function("() => window.__room.view && window.__room.view.options.mode === 'badugi'")


#: Each member row of the waiting room: does its content stay inside it, and does a name run under the row's
#: badge or button? And the room's big code: one line, inside its box.
ROWS = r"""() => {
  const rows = [...document.querySelectorAll('[data-testid=members] li')].map((li) => {
    const [name, side] = li.children;
    const range = document.createRange();
    range.selectNodeContents(name); // (the glyphs: a name too long for its box runs past the box)
    const n = range.getBoundingClientRect(), s = side.getBoundingClientRect(), r = li.getBoundingClientRect();
    const panel = li.closest('.card-box').getBoundingClientRect();
    return { inside: r.right <= panel.right + 0.5 && n.right <= r.right + 0.5 && s.right <= r.right + 0.5,
             apart: n.right <= s.left + 0.5 || n.bottom <= s.top + 0.5 };
  });
  const code = document.querySelector('.code-big');
  const c = code.getBoundingClientRect(), box = code.parentElement.getBoundingClientRect();
  const line = parseFloat(getComputedStyle(code).fontSize) * 1.6;
  return { rows, code: { oneLine: c.height < line, inside: c.right <= box.right + 0.5 } };
}"""


@pytest.mark.parametrize("size", [{"width": 320, "height": 568}, {"width": 390, "height": 844}],
                         ids=["320", "390"])
def test_long_nicknames_and_the_code_fit_the_waiting_room(live_server: Any, open_page: Any,
                                                          size: dict[str, int]) -> None:
    """Twelve letters of Hangul (the longest nickname) without a space: a member's name wraps inside its row
    (Korean breaks only between words, decision 0067, so a name would otherwise run under the host's 내보내기
    button), and the room's code, ten letters as wide as its alphabet allows, stays on one line."""
    host, guest = open_page("host", size), open_page("guest", size)
    code = wp.create_room_ui(host, live_server.http, "가나다라마바사아자차카타", "holdem")
    wp.join_ui(guest, live_server.http, code, "타카차자아사바마라다나가")
    wp.wait_members(host, 2)
    host.evaluate("() => { document.querySelector('.code-big').textContent = 'mwmwmwmwmw'; }")
    got = host.evaluate(ROWS)
    shot(host, f"lobby-long-names-{size['width']}")
    assert got["rows"] == [{"inside": True, "apart": True}] * 2, got
    assert got["code"] == {"oneLine": True, "inside": True}, got


def test_an_already_joined_answer_tells_the_player_nothing(live_server: Any, open_page: Any) -> None:
    """A hello answered "already joined" means the socket is in the room (a cluster node could say a socket's
    hello twice on its way to the room's owner): no toast; any other refusal is still shown."""
    page = open_page("joined")
    room = live_server.create_room("방장", mode="holdem")
    page.goto(f"{live_server.http}/r/{room['code']}")
    page.evaluate("([c, t]) => localStorage.setItem(`pokerroom:${c}`, t)", [room["code"], room["token"]])
    page.reload()
    page.wait_for_selector("[data-testid=room-code]")
    say = "(m) => window.__room.onMessage(m)"
    page.evaluate(say, {"type": "error", "code": "already_hello", "message": "이미 입장했어요"})
    page.wait_for_timeout(100)
    assert page.locator("[data-testid=toast]").count() == 0
    page.evaluate(say, {"type": "error", "code": "not_host", "message": "방장만 할 수 있어요"})
    assert page.locator("[data-testid=toast]").first.inner_text() == "방장만 할 수 있어요"
