"""Helpers that drive the web client like a person: fill the lobby, join, and play a hand by clicking.

What to click is decided from the page's own ``view`` (``window.__room.view``), exactly what the player
sees, and the click always goes through the UI (buttons, cards), never through the websocket directly.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "artifacts" / "screenshots"
FIXTURES = Path(__file__).resolve().parent / "fixtures"
MOBILE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}


@contextlib.contextmanager
def sockets_through(browser: Any, route: Callable[[Any], None]) -> Iterator[Any]:
    """A phone page of its own browser context whose websockets go through ``route``
    (``page.route_web_socket``): not a pooled page, as a websocket route outlives a test's wipe."""
    ctx = browser.new_context(viewport=MOBILE, locale="ko-KR")
    try:
        page = ctx.new_page()
        page.route_web_socket(re.compile(r".*/ws/.*"), route)
        yield page
    finally:
        ctx.close()


class Links:
    """Every websocket of a page, passed on to the server frame by frame until :meth:`cut`: then the newest
    one passes nothing more, either way, and stays open (new sockets pass as before). :meth:`hold` keeps
    what the page sends until :meth:`release` (a slow link, not a dead one)."""

    def __init__(self) -> None:
        self.cut_ids: set[int] = set()
        self.count = 0
        self.held: list[tuple[Any, Any]] | None = None  # (server side, message) while holding

    def route(self, ws: Any) -> None:
        self.count += 1
        me = self.count
        server = ws.connect_to_server()

        def to_server(message: Any) -> None:
            if me in self.cut_ids:
                return
            if self.held is not None:
                self.held.append((server, message))
            else:
                server.send(message)

        ws.on_message(to_server)
        server.on_message(lambda m: None if me in self.cut_ids else ws.send(m))

    def cut(self) -> int:
        self.cut_ids.add(self.count)
        return self.count

    def hold(self) -> None:
        self.held = []

    def release(self) -> None:
        held, self.held = self.held or [], None
        for server, message in held:
            server.send(message)


def load(name: str) -> dict[str, Any]:
    """A fixture view (tests/web/fixtures/<name>.json)."""
    data: dict[str, Any] = json.loads((FIXTURES / f"{name}.json").read_text(encoding="utf-8"))
    return data


def harness(static_page: Any, name: str, viewport: dict[str, int] | None = None) -> Any:
    """The fixture harness page showing fixture ``name`` (no server), once it has rendered."""
    page = static_page(f"/fixtures/harness.html?f={name}", viewport or MOBILE, name=name)
    page.wait_for_function("() => window.rendered === true")
    return page


#: screenshots are for a person to look at (``make screenshots``); a run nobody looks at (``make test``, CI)
#: skips them: encoding a PNG per step was a fifth of the browser tests' time, and no assertion reads one
TAKE_SHOTS = os.environ.get("POKERROOM_SHOTS", "") not in ("", "0")


def shot(page: Any, name: str) -> None:
    """Save a screenshot under artifacts/screenshots/ (gitignored) when ``POKERROOM_SHOTS`` is set."""
    if not TAKE_SHOTS:
        return
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


PREFERRED_BETS = ["k.check", "k.call", "nl.check", "nl.call", "k.die", "nl.fold"]


def view(page: Any) -> dict[str, Any] | None:
    """The page's current view. Read as one JSON text: Playwright hands a returned object over value by value,
    which cost 4x the CPU (Chromium's and Python's) of the text, and the play loops read the view many times
    a second."""
    v: dict[str, Any] | None = json.loads(page.evaluate(
        "() => JSON.stringify(window.__room ? window.__room.view : null)"))
    return v


def version(page: Any) -> int:
    return int(
        page.evaluate("() => (window.__room && window.__room.conn && window.__room.conn.version) || 0")
    )


def pick_option(page: Any, key: str, value: Any) -> None:
    """Tap an option's choice; an option folded behind "더 보기" is reached by opening it first."""
    val = "true" if value is True else "false" if value is False else str(value)
    label = page.locator(f"input[data-opt='{key}'][value='{val}']").locator("xpath=..")
    if not label.is_visible():
        folded = label.locator("xpath=ancestor::details[not(@open)]")
        if folded.count():
            folded.first.locator("summary").click()
    label.click()


def lobby_dialog(open_page: Any, base: str, name: str) -> Any:
    """A new page (``open_page(name)``) on the lobby with the top bar's ``name`` dialog opened (``rules``,
    ``settings``)."""
    page = open_page(name)
    page.goto(base + "/")
    page.click(f"#btn-{name}")
    return page


def start_heads_up(a: Any, b: Any, base: str, mode: str = "holdem", **options: Any) -> str:
    """``a`` creates a ``mode`` room on ``base`` (with the create form's ``options``), ``b`` joins it, ``a``
    starts the game and both pages wait for the table; returns the room code."""
    code = create_room_ui(a, base, "민수", mode, **options)
    join_ui(b, base, code, "지수")
    wait_members(a, 2)
    a.click("[data-testid=start]")
    for p in (a, b):
        wait_table(p)
    return code


def create_room_ui(page: Any, base: str, nickname: str, mode: str, **options: Any) -> str:
    page.goto(base + "/")
    page.fill("#create-nick", nickname)
    pick_option(page, "mode", mode)
    for key, value in options.items():
        pick_option(page, key, value)
    page.check("#create-adult")
    page.click("[data-testid=create-room]")
    page.wait_for_url("**/r/*")
    page.wait_for_selector("[data-testid=room-code]")
    code: str = page.url.rstrip("/").rsplit("/", 1)[1]
    return code


def join_ui(page: Any, base: str, code: str, nickname: str) -> None:
    page.goto(f"{base}/r/{code}")
    page.fill("#join-nick", nickname)
    page.check("#join-adult")
    page.click("[data-testid=join]")
    page.wait_for_function("() => window.__room && window.__room.lobby && window.__room.playerId")


def spectate_ui(page: Any, base: str, code: str) -> None:
    page.goto(f"{base}/r/{code}")
    page.click("[data-testid=spectate]")
    page.wait_for_function("() => window.__room && window.__room.lobby")


def wait_members(page: Any, n: int) -> None:
    page.wait_for_function(
        "(n) => window.__room && window.__room.lobby"
        " && window.__room.lobby.players.filter(p => p.status !== 'left').length >= n",
        arg=n,
    )


def wait_table(page: Any) -> None:
    page.wait_for_selector(".table-screen", timeout=15000)


def my_card_ids(page: Any) -> list[int]:
    v = view(page)
    if not v or not v.get("me"):
        return []
    me = v["me"]
    cards = list(me.get("hole") or []) + list(me.get("up") or [])
    if v.get("phase") == "choice" and me.get("choice"):
        cards = list(me["choice"])
    return [c["id"] for c in cards if "id" in c]


def secret_ids(page: Any) -> list[int]:
    """Ids of this player's cards that nobody else may see now (private hole cards, choice cards)."""
    v = view(page)
    if not v or not v.get("me"):
        return []
    me = v["me"]
    out = [c["id"] for c in (me.get("hole") or []) if "id" in c]
    if me.get("choice"):
        out += [c["id"] for c in me["choice"] if "id" in c]
    if me.get("discarded"):
        out.append(me["discarded"]["id"])
    up = {c["id"] for c in (me.get("up") or [])}
    return [i for i in out if i not in up]


def dom_card_ids(page: Any) -> set[int]:
    ids: list[str] = page.evaluate(
        "() => [...document.querySelectorAll('[data-card-id]')].map(e => e.dataset.cardId)"
    )
    return {int(x) for x in ids}


def dom_card_labels(page: Any) -> set[str]:
    labels: list[str] = page.evaluate(
        "() => [...document.querySelectorAll('.card:not(.example)')].map(e => e.getAttribute('aria-label'))"
    )
    return set(labels)


def _click_and_wait(page: Any, selector: str, before: int, timeout: float = 15.0) -> None:
    page.click(selector)
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if version(page) > before:
            return
        err = page.locator("[data-testid=toast].error")  # a refusal; info toasts (자리 비움, 복귀) are not
        if err.count():
            raise AssertionError(f"action refused: {err.first.inner_text()}")
        page.wait_for_timeout(50)
    raise AssertionError(f"no new version after clicking {selector}")


def act_once(page: Any, style: dict[str, Any]) -> str | None:
    """Do this player's pending decision through the UI, if any. Returns what was done.

    ``style["no_bets"]`` leaves a betting turn alone: a caller that plays the bets itself, and only wants the
    other decisions done, must not have its turn taken when a stale view turns fresh in between."""
    v = view(page)
    if not v or not v.get("me"):
        return None
    me = v["me"]
    legal = me.get("legalActions") or []
    types = [a["type"] for a in legal]
    phase = v["phase"]
    before = version(page)
    if phase == "choice" and "choose" in types and not me.get("chosen"):
        cards = page.locator("[data-testid=my-cards] .card.selectable")
        cards.nth(0).click()
        assert page.locator("[data-testid=my-cards] .card.discard").count() == 1
        cards.nth(1).click()
        _click_and_wait(page, "[data-action=choose]", before)
        return "choose"
    if phase == "draw" and "draw" in types and me.get("drawPending") is None:
        n = style.get("draw", 0)
        cards = page.locator("[data-testid=my-cards] .card.selectable")
        for i in range(n):
            cards.nth(i).click()
        label = page.locator("[data-action=draw]").inner_text()
        if style.get("lang") == "en":
            assert label == ("Stand pat" if n == 0 else f"Draw {n}"), label
        else:
            assert label == ("패스" if n == 0 else f"{n}장 바꾸기"), label
        _click_and_wait(page, "[data-action=draw]", before)
        return f"draw{n}"
    if phase == "declare" and "declare" in types and not me.get("declare"):
        side = style.get("declare", "high")
        _click_and_wait(page, f"[data-action=declare-{side}]", before)
        return "declare"
    if phase == "rebuy" and "rebuy" in types:
        _click_and_wait(page, "[data-action=rebuy-yes]", before)
        return "rebuy"
    if phase == "betting" and legal and not style.get("no_bets"):
        if style.get("raise_once") and "nl.raise" in types and not style.get("_raised"):
            style["_raised"] = True
            page.click("[data-action='nl.raise']")
            page.wait_for_selector("[data-testid=raise-panel]")
            page.click("[data-quick=min]")
            _click_and_wait(page, "[data-action=raise-confirm]", before)
            return "nl.raise"
        if style.get("ping_once") and "k.ping" in types and not style.get("_pinged"):
            style["_pinged"] = True
            _click_and_wait(page, "[data-action='k.ping']", before)
            return "k.ping"
        for t in PREFERRED_BETS:
            if t in types:
                if t in ("k.die", "nl.fold") and ("k.check" in types or "nl.check" in types):
                    continue
                _click_and_wait(page, f"[data-action='{t}']", before)
                return t
    return None


def play_hand(
    players: list[Any],
    styles: list[dict[str, Any]] | None = None,
    *,
    on_step: Any = None,
    timeout: float = 90.0,
) -> dict[str, Any]:
    """Click through one hand until it ends (phase handEnd/finished). Returns the final view of player 0."""
    styles = styles or [{} for _ in players]
    start_hand = (view(players[0]) or {}).get("handNo")
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        v0 = view(players[0]) or {}
        if v0.get("phase") in ("handEnd", "finished", "rebuy") and v0.get("handNo") == start_hand:
            return v0
        if v0.get("handNo") != start_hand and start_hand is not None:
            return v0
        did = False
        for page, style in zip(players, styles, strict=True):
            done = act_once(page, style)
            if done:
                did = True
                if on_step:
                    on_step(done)
        if not did:
            players[0].wait_for_timeout(100)
    raise AssertionError(f"hand did not end within {timeout}s; last view phase {view(players[0])}")
