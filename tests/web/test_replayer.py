"""The hand replayer in a real browser against the real server: 지난 판 lists every hand of the night with its
다시 보기; the replay is drawn by the live table's own regions step by step (이전 · 다음 · 재생 · the slider);
a ``/r/<code>?hand=<seq>`` link opens the hand for a spectator with the spectator's view; a hand downloads as
PHH and a PHH file imports. Every step's DOM holds only cards that viewer may see; screenshots at 390×844,
360×740 and 320×568 (artifacts/screenshots/replay-*.png), with nothing overlapping or off the screen.

The hands themselves are played by two scripted websocket players (safe moves: check, call, ready), so a
dozen hands take a second; what the test touches in the browser is the replayer."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

sys.path.insert(0, str(Path(__file__).resolve().parent))

from webplay import MOBILE, shot

import needs

pytestmark = pytest.mark.browser

SAFE = ("ready", "nl.check", "nl.call", "k.check", "k.call")


def _play(base: str, hands: int, mode: str = "holdem", bots: int = 0) -> dict[str, Any]:
    """A room of 민수 (host), 지수 and ``bots`` bots playing ``hands`` hands, the two people with safe
    moves over websockets; returns the room's code and both seat tokens."""
    options = {"mode": mode, "handLimit": 20}
    room = httpx.post(f"{base}/api/rooms", json={"nickname": "민수", "options": options}).json()
    code = room["code"]
    ws_url = base.replace("http", "ws") + f"/ws/{code}"
    tokens = {"a": room["token"], "b": None}
    with connect(ws_url, origin=base) as a, connect(ws_url, origin=base) as b:
        a.send(json.dumps({"type": "hello", "token": room["token"]}))
        b.send(json.dumps({"type": "hello", "nickname": "지수"}))
        b.recv(timeout=10)  # its welcome: seated before the start
        for _ in range(bots):  # (handled in order: seated before the start too)
            a.send(json.dumps({"type": "addBot"}))
        a.send(json.dumps({"type": "start"}))
        acted = {"a": -1, "b": -1}  # once per version, like a person (the socket's rate is 20 a second)
        last = {"a": 0.0, "b": 0.0}
        sent = 0
        done = False
        while not done:
            for name, ws in (("a", a), ("b", b)):
                try:
                    msg = json.loads(ws.recv(timeout=0.05))
                except TimeoutError:
                    continue
                if msg["type"] == "welcome" and msg.get("token"):
                    tokens[name] = msg["token"]
                if msg["type"] != "view":
                    continue
                view = msg["view"]
                if view["phase"] == "handEnd" and view["handNo"] >= hands:
                    done = True
                    break
                kinds = [x["type"] for x in (view.get("me") or {}).get("legalActions") or []]
                kind = next((k for k in SAFE if k in kinds), None)
                if kind is not None and msg["version"] > acted[name]:
                    acted[name] = msg["version"]
                    sent += 1
                    time.sleep(max(0.0, last[name] + 0.07 - time.monotonic()))  # under 20 messages a second
                    last[name] = time.monotonic()
                    ws.send(json.dumps({"type": "action", "clientMsgId": f"{name}{sent}",
                                        "version": msg["version"], "action": {"type": kind}}))
    return {"code": code, **tokens}


@pytest.fixture(scope="module")
def night(live_server: Any) -> dict[str, Any]:
    """Eleven hands of hold'em: more than the list's first page."""
    return _play(live_server.http, 11)


def _as_player(open_page: Any, base: str, night: dict[str, Any], viewport: dict[str, int]) -> Any:
    page = open_page("player", viewport)
    page.goto(base + "/")
    page.evaluate("([k, t]) => localStorage.setItem(k, t)", [f"pokerroom:{night['code']}", night["a"]])
    page.goto(f"{base}/r/{night['code']}")
    return page


def _step_ids(page: Any) -> set[int]:
    ids = page.eval_on_selector_all("#dlg-replay [data-card-id]",
                                    "els => els.map(e => Number(e.dataset.cardId))")
    return set(ids)


def _allowed(hand: dict[str, Any], mine: bool) -> set[int]:
    """Every card id the list says this viewer may see of a hand: public cards, plus their own."""
    ids = {c["id"] for c in hand["board"]} | {c["id"] for e in hand["showdown"] for c in e["cards"]}
    ids |= {c["id"] for cards in hand["open"].values() for c in cards}
    ids |= {c["id"] for cards in hand["shown"].values() for c in cards}
    return ids | ({c["id"] for c in hand["mine"] or []} if mine else set())


def _fits(page: Any, name: str) -> None:
    """Nothing of the replayer off the screen, the controls clear of the table, no control over another."""
    box = page.evaluate("""() => {
      const r = (sel) => { const e = document.querySelector(sel); const b = e.getBoundingClientRect();
        return [b.left, b.top, b.right, b.bottom]; };
      const buttons = [...document.querySelectorAll(
        '#dlg-replay .btn:not([hidden]), #dlg-replay .replay-slider, #replay-title')]
        .map((e) => { const b = e.getBoundingClientRect(); return [b.left, b.top, b.right, b.bottom]; });
      return { w: innerWidth, h: innerHeight, head: r('#dlg-replay .replay-head'),
        table: r('#dlg-replay .replay-table'),
        bar: r('#dlg-replay .replay-bar'), buttons,
        close: r('[data-testid=replay-close]'), title: r('#replay-title') };
    }""")
    w, h = box["w"], box["h"]
    for key in ("head", "table", "bar", "close", "title"):
        left, top, right, bottom = box[key]
        inside = left >= 0 and top >= 0 and right <= w + 0.5 and bottom <= h + 0.5
        assert inside, f"{name}: {key} off screen {box}"
    assert box["table"][3] <= box["bar"][1] + 0.5 and box["head"][3] <= box["table"][1] + 0.5, name
    assert box["close"][3] - box["close"][1] < 48, f"{name}: 닫기 wrapped"
    buttons = box["buttons"]
    for i, a in enumerate(buttons):
        assert a[0] >= 0 and a[2] <= w + 0.5, f"{name}: a control off screen"
        for b in buttons[i + 1:]:
            apart = a[2] <= b[0] + 0.5 or b[2] <= a[0] + 0.5 or a[3] <= b[1] + 0.5 or b[3] <= a[1] + 0.5
            assert apart, f"{name}: controls overlap {a} {b}"


def test_a_player_replays_a_hand_of_the_night(open_page: Any, live_server: Any,
                                              night: dict[str, Any]) -> None:
    page = _as_player(open_page, live_server.http, night, MOBILE)
    page.click("#btn-log")
    page.click("[data-testid=tab-past]")
    page.wait_for_selector("[data-testid=past-hand]")
    assert page.locator("[data-testid=past-hand]").count() == 10
    page.click("[data-testid=past-more]")  # the night's older hands, a page at a time
    page.wait_for_function("() => document.querySelectorAll('[data-testid=past-hand]').length === 11")
    hands = page.evaluate("() => window.__room.history")
    assert [h["seq"] for h in hands] == list(range(11, 0, -1))
    hand = next(h for h in hands if h["showdown"])  # a hand that went to the showdown
    assert all(e["rankName"] for e in hand["showdown"]) and hand["mineName"]
    page.click(f"[data-testid=past-hand][data-seq='{hand['seq']}'] [data-testid=replay-open]")
    page.wait_for_selector("[data-testid=replay-caption]")
    assert page.url.endswith(f"?hand={hand['seq']}")
    allowed = _allowed(hand, mine=True)
    steps = int(page.eval_on_selector("[data-testid=replay-slider]", "e => Number(e.max)")) + 1
    assert page.inner_text("[data-testid=replay-count]") == f"프리플랍 · 1 / {steps}"
    assert {c["id"] for c in hand["mine"]} <= _step_ids(page)  # my cards from the deal on
    captions = []
    odds = []  # the shown hands' equity: from the showdown on only
    for i in range(steps):
        assert _step_ids(page) <= allowed, f"step {i + 1}: a card this player did not see"
        captions.append(page.inner_text("[data-testid=replay-caption]"))
        odds.append(page.is_visible("[data-testid=replay-equity]"))
        if i == 2:
            shot(page, "replay-player-390x844")
            _fits(page, "390x844")
        if i < steps - 1:
            page.click("[data-testid=replay-next]")
    assert captions[0].startswith("카드를 받았어요") and captions[-1].startswith("결과")
    shown_at = next(i for i, c in enumerate(captions) if c.startswith("쇼다운"))
    assert odds == [i >= shown_at for i in range(steps)]
    assert "프리플랍 → 플랍 → 턴 → 리버" in page.inner_text("[data-testid=replay-equity]")
    assert page.is_disabled("[data-testid=replay-next]")
    shot(page, "replay-player-end-390x844")
    page.click("[data-testid=replay-first]")
    page.click("[data-testid=replay-play]")  # plays a step every 1.4 s
    second = "() => document.querySelector('[data-testid=replay-count]').textContent.includes(' 2 /')"
    page.wait_for_function(second, timeout=5000)
    page.click("[data-testid=replay-play]")
    with page.expect_download() as got:
        page.click("[data-testid=replay-phh]")
    text = Path(got.value.path()).read_text(encoding="utf-8")
    assert got.value.suggested_filename == f"pokerroom-{night['code']}-{hand['seq']}.phh"
    assert text.startswith('variant = "NT"') and "민수" in text and "지수" in text
    assert "".join("23456789TJQKA"[c["rank"] - 2] + c["suit"].lower() for c in hand["mine"]) in text
    page.click("[data-testid=replay-close]")
    page.wait_for_function(f"() => location.search === '' && location.pathname === '/r/{night['code']}'")


_IN_VIEW = """(sels) => {
  const host = document.querySelector('#dlg-replay .replay-table').getBoundingClientRect();
  return sels.map((sel) => {
    const e = document.querySelector(sel);
    if (!e) return [sel, 'missing'];
    const r = e.getBoundingClientRect();
    const inside = r.top >= host.top - 0.5 && r.bottom <= host.bottom + 0.5;
    return [sel, inside ? 'in' : `${r.top}-${r.bottom} not in ${host.top}-${host.bottom}`];
  });
}"""
_FRAMES = "() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))"


def test_a_short_phone_follows_the_replay(open_page: Any, live_server: Any) -> None:
    """At 320×568 a table of five is taller than the replayer leaves it (it scrolls inside the dialog): each
    step scrolls it to what the step is about. The hand's end showed the top seats while the result banner and
    my own cards lay under the controls."""
    five = _play(live_server.http, 1, bots=3)
    page = _as_player(open_page, live_server.http, five, {"width": 320, "height": 568})
    page.click("#btn-log")
    page.click("[data-testid=tab-past]")
    page.click("[data-testid=past-hand] [data-testid=replay-open]")
    page.wait_for_selector("[data-testid=replay-caption]")
    table = "#dlg-replay .replay-table"
    steps = int(page.eval_on_selector("[data-testid=replay-slider]", "e => Number(e.max)")) + 1
    seats = page.eval_on_selector_all(
        f"{table} .seat[data-seat-id]",
        "els => els.map(e => [e.dataset.seatId, e.getAttribute('aria-label').replace(/ 자리$/, '')])")
    followed = 0
    for i in range(steps - 1):  # an action's seat is in view (the seat that acted: its caption names it)
        caption = page.inner_text("[data-testid=replay-caption]")
        page.evaluate(_FRAMES)
        acted = [sid for sid, name in seats if caption.startswith(name + " ") and "보드" not in caption]
        if acted:
            followed += 1
            where = page.evaluate(_IN_VIEW, [f'{table} .seat[data-seat-id="{acted[0]}"]'])
            assert where[0][1] == "in", f"step {i + 1} ({caption}): {where}"
        page.click("[data-testid=replay-next]")
    assert followed >= 3
    page.evaluate(_FRAMES)
    assert page.inner_text("[data-testid=replay-caption]").startswith("결과")
    grown = page.eval_on_selector(table, "e => e.scrollHeight > e.clientHeight + 40")
    assert grown, "the table fits the window: nothing to follow"
    where = page.evaluate(_IN_VIEW, [f"{table} .banner", f"{table} [data-testid=my-cards]"])
    assert all(w == "in" for _, w in where), where
    shot(page, "replay-follows-end-320x568")


@pytest.mark.parametrize("size", [{"width": 360, "height": 740}, {"width": 320, "height": 568}],
                         ids=["360x740", "320x568"])
def test_a_link_opens_the_hand_for_a_spectator(open_page: Any, live_server: Any, night: dict[str, Any],
                                               size: dict[str, int]) -> None:
    """Someone in the room by the link, as a spectator: the hand opens with the spectator's view (no
    hidden card anywhere) and the same controls."""
    page = open_page("spectator", size)
    page.goto(f"{live_server.http}/r/{night['code']}?hand=2")
    page.click("[data-testid=spectate]")
    page.wait_for_selector("[data-testid=replay-caption]")
    hand = httpx_hand(live_server, night, 2)
    allowed = _allowed(hand, mine=False)
    steps = int(page.eval_on_selector("[data-testid=replay-slider]", "e => Number(e.max)")) + 1
    assert "관전자 화면" in page.inner_text(".replay-sub")
    for i in range(steps):
        assert _step_ids(page) <= allowed, f"step {i + 1}: a hidden card shown to a spectator"
        if i == 2:
            name = f"{size['width']}x{size['height']}"
            shot(page, f"replay-spectator-{name}")
            _fits(page, name)
        if i < steps - 1:
            page.keyboard.press("ArrowRight")
    assert page.inner_text("[data-testid=replay-count]").endswith(f"{steps} / {steps}")
    # the link's notice is seen over the replayer (a modal dialog), not under its backdrop
    page.click("[data-testid=replay-link]")
    page.locator("[data-testid=toast]").wait_for()
    assert page.evaluate(ON_TOP, "[data-testid=toast]"), "the toast is under the replayer"


#: Is the element of this selector what a tap at its centre reaches (not under a modal dialog, not inert)?
ON_TOP = """(sel) => { const e = document.querySelector(sel); const r = e.getBoundingClientRect();
  return e.contains(document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2)); }"""


def httpx_hand(live_server: Any, night: dict[str, Any], seq: int) -> dict[str, Any]:
    """Hand ``seq`` of the night as a spectator's list shows it (a websocket of its own)."""
    base = live_server.http
    with connect(base.replace("http", "ws") + f"/ws/{night['code']}", origin=base) as ws:
        ws.send(json.dumps({"type": "hello", "spectate": True}))
        ws.send(json.dumps({"type": "history", "before": seq + 1}))
        while True:
            msg = json.loads(ws.recv(timeout=10))
            if msg["type"] == "history":
                hand: dict[str, Any] = next(h for h in msg["hands"] if h["seq"] == seq)
                return hand


def test_a_phh_file_imports_into_the_replayer(open_page: Any, live_server: Any,
                                              night: dict[str, Any]) -> None:
    hand_file = needs.phh_hands() / "dwan-ivey-2009.phh"
    page = _as_player(open_page, live_server.http, night, MOBILE)
    page.click("#btn-log")
    page.click("[data-testid=tab-past]")
    with page.expect_file_chooser() as chooser:
        page.click("[data-testid=phh-import]")
    chooser.value.set_files(str(hand_file))
    page.wait_for_selector("[data-testid=replay-caption]")
    assert "불러온 판" in page.inner_text("#replay-title")
    assert "Phil Ivey" in page.inner_text("#dlg-replay .replay-table")
    to_end = "e => { e.value = e.max; e.dispatchEvent(new Event('input')); }"
    page.eval_on_selector("[data-testid=replay-slider]", to_end)
    assert page.inner_text("[data-testid=replay-caption]").startswith("결과 · Tom Dwan")
    shot(page, "replay-import-390x844")
    assert page.is_hidden("[data-testid=replay-link]")  # a file's hand belongs to no room
