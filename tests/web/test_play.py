"""End-to-end browser tests against the real server (``pokerroom serve``): every mode is played for a full
hand by clicking the UI on the mobile viewport, with a spectator watching, while the DOM of every other
viewer is checked for cards it must not contain yet.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import webplay as wp
from webplay import DESKTOP, MOBILE, shot

pytestmark = pytest.mark.browser

NAMES = ["민수", "지수", "하늘"]

SNAPSHOT_JS = """async () => {
  // once the render of the newest view is on screen (the table draws on animation frames)
  await new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)));
  const r = window.__room; const v = r && r.view; const me = v && v.me;
  const mine = [];  // my private cards: hole, choice and discard, less the cards I opened
  if (me) {
    const up = new Set((me.up || []).map(c => c.id));
    for (const c of [...(me.hole || []), ...(me.choice || []), ...(me.discarded ? [me.discarded] : [])])
      if (c && c.id != null && !up.has(c.id)) mine.push(c.id);
  }
  const fore = [];  // forehead cards of the other seats this page can see
  for (const s of (v ? v.seats : []))
    if (s.forehead && s.forehead.id != null) fore.push(s.forehead.id);
  return {
    version: (r && r.conn && r.conn.version) || 0,
    phase: v ? v.phase : null,
    handNo: v ? v.handNo : null,
    mine, fore,
    ids: [...document.querySelectorAll('[data-card-id]')].map(e => Number(e.dataset.cardId)),
    labels: [...document.querySelectorAll('.card:not(.example)')].map(e => e.getAttribute('aria-label')),
  };
}"""


AWAKE = "async () => (await import('/static/wake.js')).awake()"

def secrets_of(page: Any) -> tuple[int, set[int], set[int]]:
    """(version, this player's private card ids, forehead ids of the *other* seats it can see)."""
    snap = page.evaluate(SNAPSHOT_JS)
    return snap["version"], set(snap["mine"]), set(snap["fore"])


def same_version(pages: list[Any], timeout: float = 15.0) -> list[dict[str, Any]]:
    """One snapshot of each page (its view and what its screen shows), all of the same room version: waits
    until every page holds the newest version; pages that never agree fail the test."""
    end = time.monotonic() + timeout
    while True:
        snaps = [p.evaluate(SNAPSHOT_JS) for p in pages]
        versions = [s["version"] for s in snaps]
        if len(set(versions)) == 1:
            return snaps
        assert time.monotonic() < end, f"the pages never showed one version within {timeout}s: {versions}"
        pages[0].wait_for_timeout(60)


class SecretChecker:
    """After each step: no viewer's screen holds another player's private card before it is revealed.

    Every step makes one new version, and each call checks the version all pages settled on; ``seen`` keeps
    them, and :meth:`assert_every_version` fails if any version between the first and the last checked was
    never checked (a page skipped it, or something changed the room between two steps)."""

    def __init__(self, players: list[Any], spectator: Any, mode: str) -> None:
        self.players = players
        self.spectator = spectator
        self.mode = mode
        self.checks = 0
        self.seen: set[int] = set()

    def __call__(self, _step: str = "") -> None:
        states = same_version([*self.players, self.spectator])
        version = states[0]["version"]
        self.seen.add(version)
        if any(s["phase"] in ("handEnd", "finished", "rebuy") for s in states):
            return  # the showdown reveals cards to everybody
        private = [set(s["mine"]) for s in states[:-1]]
        for i, mine in enumerate(private):
            for j, st in enumerate(states):
                if j == i:
                    continue
                leaked = mine & set(st["ids"])
                assert not leaked, f"viewer {j} sees private cards {leaked} of player {i} at v{version}"
        if self.mode == "indian":
            # a player's own forehead card (seen by the others) never appears in the player's own screen,
            # and the spectator sees no forehead before the hand ends
            fore = [set(s["fore"]) for s in states[:-1]]
            for i, page_state in enumerate(states[:-1]):
                others = [fore[k] for k in range(len(self.players)) if k != i]
                mine_as_seen = set.intersection(*others) if len(others) > 1 else others[0]
                own_ids = {fid for fid in mine_as_seen if fid not in fore[i]}
                assert not (own_ids & set(page_state["ids"])), f"player {i} sees their own forehead"
                assert (
                    "이마 카드(안 보임)" in page_state["labels"]
                    or "내 이마 카드(안 보임)" in page_state["labels"]
                )
            all_fore = set().union(*fore)
            assert not (all_fore & set(states[-1]["ids"])), "the spectator sees a forehead card"
        self.checks += 1

    def assert_every_version(self) -> None:
        assert self.seen, "nothing was checked"
        missing = set(range(min(self.seen), max(self.seen) + 1)) - self.seen
        assert not missing, f"versions never checked on every page: {sorted(missing)} of {sorted(self.seen)}"


def open_room(
    live_server: Any,
    open_page: Any,
    mode: str,
    n_players: int,
    viewport: dict[str, int] | None = None,
    *,
    spectate: bool = True,
    **options: Any,
) -> tuple[list[Any], Any, str]:
    """A room of ``n_players`` browsers started by the first, plus a spectator's browser unless ``spectate``
    is False (None then: a page less to render at every change, for a test that never looks at it)."""
    vp = viewport or MOBILE
    players = [open_page(f"player{i}", vp) for i in range(n_players)]
    spectator = open_page("spectator", vp) if spectate else None
    code = wp.create_room_ui(players[0], live_server.http, NAMES[0], mode, **options)
    for i in range(1, n_players):
        wp.join_ui(players[i], live_server.http, code, NAMES[i])
    if spectator is not None:
        wp.spectate_ui(spectator, live_server.http, code)
    wp.wait_members(players[0], n_players)
    players[0].click("[data-testid=start]")
    for p in [*players, *([spectator] if spectator is not None else [])]:
        try:
            wp.wait_table(p)
        except Exception as exc:  # the game did not start: show why (the server's log, the page's toast)
            toast = p.locator("[data-testid=toast]")
            note = toast.first.inner_text() if toast.count() else ""
            log = live_server.log.read_text(errors="replace")[-3000:]
            raise AssertionError(f"no table after start; toast={note!r}\nserver log:\n{log}") from exc
    return players, spectator, code


PHONE_360 = {"width": 360, "height": 640}
MODES = [
    ("holdem", 3, [{"raise_once": True}, {}, {}]),
    ("omaha", 2, [{}, {"raise_once": True}]),
    ("sevenPoker", 3, [{"ping_once": True}, {}, {}]),
    ("sevenHiLo", 2, [{"declare": "low"}, {"declare": "swing"}]),
    ("badugi", 2, [{"draw": 1}, {"draw": 0, "ping_once": True}]),
    ("fiveDraw", 2, [{"draw": 2}, {"draw": 0}]),
    ("indian", 2, [{"raise_once": True}, {}]),
]


@pytest.mark.parametrize(("mode", "n", "styles"), MODES, ids=[m[0] for m in MODES])
def test_full_hand_every_mode(
    live_server: Any, open_page: Any, mode: str, n: int, styles: list[dict[str, Any]]
) -> None:
    """One hand per mode played by clicking, on the two phone sizes a person tries: the host on 390×844, the
    second player on 360×640 (with ``POKERROOM_SHOTS``, a screenshot of both after every step:
    artifacts/screenshots/hand-*). No secret reaches another page at any step; the hand's result names the
    winning hand with its rank; the top bar never wraps at either size."""
    players, spectator, _code = open_room(live_server, open_page, mode, n)
    players[1].set_viewport_size(PHONE_360)
    by_size = {"390x844": players[0], "360x640": players[1]}

    def shoot(label: str) -> None:
        if wp.TAKE_SHOTS:
            players[0].wait_for_timeout(150)
            for size, page in by_size.items():
                shot(page, f"hand-{mode}-{size}-{label}")

    checker = SecretChecker(players, spectator, mode)
    players[0].wait_for_timeout(300)
    checker()
    shoot("00-start")
    shot(players[0], f"play-{mode}-p0-start")
    shot(spectator, f"play-{mode}-spectator-start")
    # my cards are drawn large (≥ 96 px) and every card has an aria-label
    box = players[0].locator("[data-testid=my-cards] .card").first.bounding_box()
    assert box and box["height"] >= 96
    steps: list[str] = []

    def on_step(step: str) -> None:
        steps.append(step)
        checker(step)
        shoot(f"{len(steps):02d}-{step}")

    final = wp.play_hand(players, [dict(s) for s in styles], on_step=on_step)
    assert final["phase"] in ("handEnd", "finished", "rebuy") or final["handNo"] > 1
    # the top bar never wraps, and my cards stay on screen, at either size
    for size, page in by_size.items():
        assert page.locator("#topbar").bounding_box()["height"] <= 44.5, size
    if final.get("phase") == "handEnd" and final.get("showdown"):
        names = {e["id"]: e.get("rankName") for e in final["showdown"]}
        assert all(names.values()), names
    assert checker.checks >= 2, steps
    checker.assert_every_version()
    for i, p in enumerate(players):
        p.wait_for_timeout(200)
        shot(p, f"play-{mode}-p{i}-end")
    shot(spectator, f"play-{mode}-spectator-end")
    # the hand result is visible to everyone, the spectator included
    for p in [*players, spectator]:
        # read the view and the DOM in one go: the next hand may start any moment (4 s hand end)
        phase, banner, carry = p.evaluate(
            "() => { const v = window.__room.view; return [v.phase,"
            " document.querySelectorAll('[data-testid=hand-result]').length, v.carryOver]; }"
        )
        if phase == "handEnd":
            assert banner == 1 or carry
    # the spectator never had a "me", and its action area offers nothing
    assert wp.view(spectator)["me"] is None
    assert spectator.locator(".actions button").count() == 0
    if mode == "holdem":
        assert "nl.raise" in steps
    if mode in ("badugi", "fiveDraw"):
        assert any(s.startswith("draw") for s in steps)
    if mode in ("sevenPoker", "sevenHiLo"):
        assert steps.count("choose") == n
    if mode == "sevenHiLo":
        assert steps.count("declare") >= 1 or final["phase"] != "handEnd"


def test_reload_mid_hand_restores_table(live_server: Any, open_page: Any) -> None:
    players, spectator, _code = open_room(live_server, open_page, "sevenPoker", 2)
    b = players[1]
    # get through the choice so there are hidden and open cards
    for p in players:
        wp.act_once(p, {})
    for p in players:  # (each page's own view: b's may still hold its choice's four cards for a moment)
        p.wait_for_function("() => window.__room.view && window.__room.view.phase === 'betting'")
    before = sorted(wp.my_card_ids(b))
    hand = wp.view(b)["handNo"]
    assert before
    b.reload()
    wp.wait_table(b)
    b.wait_for_function("() => window.__room.view && window.__room.view.me")
    assert sorted(wp.my_card_ids(b)) == before
    assert wp.view(b)["handNo"] == hand
    assert set(before) <= wp.dom_card_ids(b)
    assert b.locator("#conn").get_attribute("data-state") == "open"
    shot(b, "reload-after")
    # a spectator reload keeps watching, without a seat
    spectator.reload()
    wp.wait_table(spectator)
    assert wp.view(spectator)["me"] is None
    checker = SecretChecker(players, spectator, "sevenPoker")
    checker()
    final = wp.play_hand(players, on_step=checker)
    checker.assert_every_version()
    assert final["phase"] in ("handEnd", "finished", "rebuy") or final["handNo"] > hand


def test_desktop_layout(live_server: Any, open_page: Any) -> None:
    players, spectator, _ = open_room(live_server, open_page, "holdem", 2, viewport=DESKTOP)
    a = players[0]
    a.wait_for_timeout(300)
    panel = a.locator(".side-panel")
    assert panel.is_visible()
    assert a.locator("[data-testid=hand-log]").is_visible()
    assert a.locator(".side-panel .rank-table").is_visible()
    felt = a.locator(".felt").bounding_box()
    assert felt and felt["width"] > 600
    shot(a, "desktop-holdem-player")
    shot(spectator, "desktop-holdem-spectator")
    wp.play_hand(players)
    a.wait_for_timeout(300)
    shot(a, "desktop-holdem-end")


def test_game_end_result_and_again(live_server: Any, open_page: Any) -> None:
    """lastStanding without rebuy: one all-in hand ends the game; the host starts another from the result."""
    players, spectator, _ = open_room(
        live_server, open_page, "indian", 2, endCondition="lastStanding", rebuy="off"
    )
    a, b = players
    # a running game keeps the phone's screen on (wake.js); the results let it sleep again
    a.wait_for_function(AWAKE)
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        va = wp.view(a) or {}
        if va.get("phase") == "finished" or a.locator("[data-testid=result]").count():
            break
        for p in players:
            v = wp.view(p) or {}
            types = [x["type"] for x in (v.get("me") or {}).get("legalActions") or []]
            before = wp.version(p)
            if "nl.allIn" in types:
                p.click("[data-action='nl.allIn']")
            elif "nl.call" in types:
                p.click("[data-action='nl.call']")
            elif "ready" in types and not any(s["ready"] for s in v["seats"] if s["id"] == v["me"]["id"]):
                p.click("[data-action=ready]")
            else:
                continue
            p.wait_for_function("(v) => window.__room.conn.version > v", arg=before)
        a.wait_for_timeout(100)
    a.wait_for_selector("[data-testid=result]", timeout=15000)
    b.wait_for_selector("[data-testid=result]")
    spectator.wait_for_selector("[data-testid=result]")
    a.wait_for_function(f"async () => !(await ({AWAKE})())")
    text = a.locator("[data-testid=result]").inner_text()
    assert "1위" in text and "칩" in text and "₩" not in text  # chips only, never money
    # the last one standing scores places (점수 2, 1: its own column); nobody could rebuy: no 리바이 of zeros
    heads = a.eval_on_selector_all(".result thead th", "els => els.map((e) => e.innerText.trim())")
    assert heads == ["순위", "닉네임", "점수", "최종 칩", "손익"], heads
    scores = a.eval_on_selector_all(".result td[data-col=score]", "els => els.map((e) => e.innerText.trim())")
    assert scores == ["2", "1"], scores
    shot(a, "result-host")
    shot(spectator, "result-spectator")
    assert b.locator("[data-testid=again]").count() == 0  # only the host restarts
    assert a.locator("[data-testid=edit-options]").count() == 1  # ... or changes the next game's options
    assert b.locator("[data-testid=edit-options]").count() == 0
    a.click("[data-testid=again]")
    for p in players:
        wp.wait_table(p)
        p.wait_for_function("() => window.__room.view && window.__room.view.phase !== 'finished'")


def test_simultaneous_choices_survive_stale_versions(live_server: Any, open_page: Any) -> None:
    """Three players confirm their 7 Poker choice at the same moment: whoever loses the race gets
    stale_version and the client re-sends the (still offered) choice on the newest view by itself."""
    players, _spectator, _code = open_room(live_server, open_page, "sevenPoker", 3, spectate=False)
    for p in players:
        p.wait_for_selector("[data-testid=my-cards] .card.selectable")
        cards = p.locator("[data-testid=my-cards] .card.selectable")
        cards.nth(3).click()
        cards.nth(2).click()
    # fire the three confirms without waiting for any answer in between
    for p in players:
        p.evaluate("() => document.querySelector('[data-action=choose]').click()")
    for p in players:
        p.wait_for_function(
            "() => window.__room.view && window.__room.view.phase === 'betting'", timeout=15000
        )
        assert p.locator("[data-testid=toast]").count() == 0
    opens = [len((wp.view(p) or {})["me"]["up"]) for p in players]
    assert opens == [2, 2, 2]  # the chosen open card and the 4구 card
    retries = sum(p.evaluate("() => window.__room.staleRetries || 0") for p in players)
    print(f"stale_version retries: {retries}")


def test_secret_checker_catches_a_leak(live_server: Any, open_page: Any) -> None:
    """Negative control: a private card planted in the spectator's DOM is reported."""
    players, spectator, _code = open_room(live_server, open_page, "holdem", 2)
    players[0].wait_for_function("() => window.__room.view && window.__room.view.me.hole.length === 2")
    checker = SecretChecker(players, spectator, "holdem")
    checker()
    assert checker.checks == 1
    card_id = wp.view(players[0])["me"]["hole"][0]["id"]
    spectator.evaluate(
        "(id) => { const d = document.createElement('div'); d.dataset.cardId = String(id);"
        " document.querySelector('.table-main').append(d); }",
        card_id,
    )
    with pytest.raises(AssertionError, match="private cards"):
        checker()


PAST_JS = """(handNo) => {
  const item = document.querySelector(`#past-body [data-hand-no="${handNo}"]`);
  const hand = ((window.__room && window.__room.history) || []).find(x => x.handNo === handNo) || null;
  return {
    found: !!item,
    ids: item ? [...item.querySelectorAll('[data-card-id]')].map(e => Number(e.dataset.cardId)) : [],
    mine: item ? [...item.querySelectorAll('[data-testid=past-mine] [data-card-id]')]
      .map(e => Number(e.dataset.cardId)) : [],
    shown: hand ? hand.showdown.flatMap(e => e.cards.map(c => c.id)) : [],
    text: item ? item.innerText : "",
  };
}"""


def test_past_hands_panel(live_server: Any, open_page: Any) -> None:
    """기록 → 지난 판 lists the finished hand: winners, showdown, my own cards; never a hidden opponent's
    card."""
    players, spectator, _code = open_room(live_server, open_page, "sevenPoker", 2)
    private: list[set[int]] = [set(), set()]

    def collect(_step: str = "") -> None:
        for i, p in enumerate(players):
            if (wp.view(p) or {}).get("handNo") == 1:
                private[i] |= secrets_of(p)[1]  # hole, choice and the discarded card, while still secret

    collect()
    wp.play_hand(players, on_step=collect)
    assert all(private)
    for j, page in enumerate([*players, spectator]):
        page.click("#btn-log")
        page.click("[data-testid=tab-past]")
        page.wait_for_selector('#past-body [data-hand-no="1"]', timeout=10000)
        got = page.evaluate(PAST_JS, 1)
        assert got["found"] and "1판" in got["text"] and "승리" in got["text"], got["text"]
        shown = set(got["shown"])
        for i, secret in enumerate(private):
            if i == j:
                continue  # my own cards may be listed
            leaked = (secret - shown) & set(got["ids"])
            assert not leaked, f"viewer {j} sees hidden cards {leaked} of player {i} in 지난 판"
        if j < len(players):
            assert got["mine"], "a player sees their own cards of the hand"
            assert set(got["mine"]) & private[j], "my hidden cards of that hand are listed as mine"
            assert "내 카드" in got["text"]
        else:
            assert not got["mine"] and "내 카드" not in got["text"]
        shot(page, f"past-hands-{'spectator' if j == len(players) else f'p{j}'}")
        page.click("#dlg-log [data-close]")


SKEW_JS = "(() => { const real = Date.now.bind(Date); Date.now = () => real() + 7 * 60 * 1000; })()"


def test_timer_ring_counts_server_time_on_a_phone_whose_clock_is_off(
    live_server: Any, open_page: Any
) -> None:
    """A phone 7 minutes ahead still shows the 20 s turn counting down (server time from ``serverNow``).

    Without the correction every deadline would already be past on that phone: an empty, red ring at 0.
    """
    players, _spectator, _ = open_room(live_server, open_page, "holdem", 2, spectate=False)
    a = players[0]
    a.add_init_script(SKEW_JS)
    a.reload()
    wp.wait_table(a)
    a.wait_for_function("() => window.__room.view && window.__room.view.deadlineAt")
    assert a.evaluate("() => Date.now() - performance.timeOrigin - performance.now()") > 6 * 60 * 1000
    ring = a.locator(".timer-ring text").first
    ring.wait_for()
    a.wait_for_function(
        "() => { const t = document.querySelector('.timer-ring text'); return t && t.textContent !== ''; }")
    first = int(ring.text_content() or "0")
    assert 10 <= first <= 20, first
    assert "urgent" not in (a.locator(".timer-ring").first.get_attribute("class") or "")
    a.wait_for_timeout(2200)
    later = int(a.locator(".timer-ring text").first.text_content() or "0")
    assert 0 < later < first, (first, later)


def test_omaha_hi_lo_hand_on_a_phone(live_server: Any, open_page: Any) -> None:
    """Omaha Hi-Lo from the lobby at 390×844: the switch is offered only for 오마하, the table names the game,
    a hand is played to the showdown by clicking, and every shown seat names its low ("로우 7탑" or "로우
    없음"); the rules page explains the split."""
    page = open_page("lobby", MOBILE)
    page.goto(live_server.http + "/")
    wp.pick_option(page, "mode", "holdem")
    assert page.locator("[data-field=omahaHiLo]").count() == 0
    wp.pick_option(page, "mode", "omaha")
    assert page.locator("[data-field=omahaHiLo]").count() == 1
    assert "8 이하" in page.locator("[data-field=omahaHiLo]").inner_text()
    shot(page, "omaha-hilo-lobby")
    players, spectator, _code = open_room(live_server, open_page, "omaha", 2, omahaHiLo=True)
    assert wp.view(players[0])["options"]["omahaHiLo"] is True
    assert "오마하 하이로우" in players[0].locator("[data-testid=phase-line]").inner_text()
    checker = SecretChecker(players, spectator, "omaha")
    checker()
    final = wp.play_hand(players, [{}, {}], on_step=lambda _step: checker())
    assert checker.checks >= 2
    checker.assert_every_version()
    if final["phase"] == "handEnd" and final["showdown"]:
        labels = spectator.locator(".seat .hand-label").all_inner_texts()
        assert labels and all("로우" in t for t in labels), labels
        sides = {a["side"] for a in final["awards"]}
        assert sides <= {"high", "low", None} and "high" in sides
        for entry in final["showdown"]:
            assert "lowBest" in entry
        shot(players[0], "omaha-hilo-p0-showdown")
        shot(spectator, "omaha-hilo-spectator-showdown")
    players[0].click("#btn-rules")
    body = players[0].locator("#rules-body").inner_text()
    assert "오마하 하이로우" in body and "8 이하" in body and "로우 (8 이하)" in body
    shot(players[0], "omaha-hilo-rules")
