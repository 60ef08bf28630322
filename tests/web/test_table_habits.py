"""Table habits in the browser, on a phone-sized screen: pre-actions chosen by tapping, fired by the server
on my turn without my phone doing anything, and cancelled visibly when someone raises
(docs/decisions/0029-preactions-are-the-rooms.md)."""

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
    # (hold'em's fold button says 폴드, so its pre-action does too; a Korean table's says 체크/다이)
    assert labels[0].strip() == "체크/폴드" and any("아무거나 콜" in t for t in labels)
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
    players, _, _ = open_room(live_server, open_page, "holdem", 3, MOBILE, spectate=False)
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
    # the notice came as my turn did: it neither covers nor takes a tap of what I must read and press now
    assert toast.is_visible()
    covered = second_page.evaluate(COVERED_ACTIONS)
    assert covered == [], covered


#: What the toast hides of my part of the table: the action buttons whose centre a tap would not reach, and
#: whether it overlaps that part at all (my cards, the buttons, the tip that explains them).
COVERED_ACTIONS = """() => {
  const t = document.querySelector('[data-testid=toast]').getBoundingClientRect();
  const meets = (r) => r.left < t.right && t.left < r.right && r.top < t.bottom && t.top < r.bottom;
  const untappable = [...document.querySelectorAll('[data-action]')].filter((b) => {
    const r = b.getBoundingClientRect(); // (a button not drawn, or below the fold, is nobody's tap)
    if (!r.width || r.bottom > innerHeight) return false;
    return !b.contains(document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2));
  }).map((b) => b.innerText.replace(/\\s+/g, ' '));
  const over = [...document.querySelectorAll('.me-area')].some((c) => meets(c.getBoundingClientRect()));
  return over ? [...untappable, 'over my part of the table'] : untappable;
}"""


@pytest.mark.parametrize("viewport", [MOBILE, {"width": 360, "height": 640}], ids=["390x844", "360x640"])
def test_reaction_bubble_over_the_senders_seat_and_chat_is_text(live_server: Any, open_page: Any,
                                                                viewport: dict[str, int]) -> None:
    players, spectator, _ = open_room(live_server, open_page, "holdem", 3, viewport)
    by = _pages_by_id(players)
    host = players[0]
    sender_id = players[1].evaluate("() => window.__room.playerId")
    sender = by[sender_id]
    sender.click("[data-testid=react-open]")
    sender.wait_for_selector("[data-testid=react-palette]")
    assert sender.locator("[data-testid=chat-input]").count() == 0  # chat is off until the host turns it on
    palette = sender.locator("[data-testid=react-palette]").bounding_box()
    assert palette is not None and palette["x"] >= 0 and palette["x"] + palette["width"] <= viewport["width"]
    assert palette["y"] + palette["height"] <= viewport["height"]
    shot(sender, f"reaction-palette-{viewport['width']}")
    sender.click("[data-reaction=nice]")
    bubble = host.locator(f"[data-testid=bubble][data-from='{sender_id}']")
    bubble.wait_for(timeout=5000)
    assert bubble.inner_text() == "나이스!"
    seat = host.locator(f".seat[data-seat-id='{sender_id}']").bounding_box()
    box = bubble.bounding_box()
    assert seat is not None and box is not None
    centre = box["x"] + box["width"] / 2
    assert seat["x"] <= centre <= seat["x"] + seat["width"]  # over that seat, not another one
    bottom = box["y"] + box["height"]
    assert seat["y"] - 2 <= bottom <= seat["y"] + seat["height"]  # just above it, or over its upper part
    top_bar = host.locator("#topbar").bounding_box()
    assert top_bar is not None and box["y"] >= top_bar["y"] + top_bar["height"]  # never under the top bar
    shot(host, f"reaction-bubble-{viewport['width']}")
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
    chat_box = line.bounding_box()
    assert chat_box is not None and chat_box["y"] >= top_bar["y"] + top_bar["height"], chat_box
    shot(host, f"chat-bubble-{viewport['width']}")


AUDIO_STUB = """
(() => {
  const log = { freqs: [], bands: [], sources: 0, vib: [] };
  window.__snd = log;
  const param = (sink) => ({ setValueAtTime(v) { if (sink) sink.push(v); return this; },
    exponentialRampToValueAtTime() { return this; }, linearRampToValueAtTime() { return this; },
    set value(v) { if (sink) sink.push(v); } });
  class Node { connect(n) { return n; } start() {} stop() {} }
  class FakeAudioContext {
    constructor() {
      this.state = "running"; this.currentTime = 0; this.sampleRate = 8000; this.destination = new Node();
    }
    resume() { return Promise.resolve(); }
    createOscillator() { const n = new Node(); n.frequency = param(log.freqs); return n; }
    createGain() { const n = new Node(); n.gain = param(null); return n; }
    createBiquadFilter() {
      const n = new Node(); n.frequency = param(log.bands); n.Q = param(null); return n;
    }
    createBuffer(ch, len, rate) {
      const d = new Float32Array(len); return { sampleRate: rate, getChannelData: () => d };
    }
    createBufferSource() { const n = new Node(); n.start = () => { log.sources += 1; }; return n; }
  }
  window.AudioContext = FakeAudioContext;
  Object.defineProperty(Navigator.prototype, "vibrate", { configurable: true,
    value: function (p) { log.vib.push(p); return true; } });
})();
"""


def _snd(page: Any) -> dict[str, Any]:
    out: dict[str, Any] = page.evaluate("() => JSON.parse(JSON.stringify(window.__snd))")
    return out


def test_sounds_for_turn_bet_cards_and_win_with_vibration(live_server: Any, open_page: Any) -> None:
    a, b = open_page("a", MOBILE), open_page("b", MOBILE)
    for p in (a, b):
        p.context.add_init_script(AUDIO_STUB)
    code = wp.start_heads_up(a, b, live_server.http)
    by = _pages_by_id([a, b])
    first = wp.view(a)["toAct"]  # type: ignore[index]
    second = next(pid for pid in by if pid != first)
    p1, p2 = by[first], by[second]
    # 1. a call moves chips: both hear a bet (chip clicks: 2400 Hz band)
    # 2. it becomes p2's turn: chime + vibration
    p1.wait_for_function("() => window.__snd.freqs.includes(1320)")  # the game started on p1's turn
    assert _snd(p1)["vib"] == [120] and _snd(p2)["vib"] == []
    # the tab's title says whose turn it is too (read from another tab or the phone's app switcher)
    assert (p1.title(), p2.title()) == (f"내 차례! · 포커 방 · {code}", f"포커 방 · {code}")
    p1_turns = _snd(p1)["freqs"].count(1320)
    before = wp.version(p1)
    p1.click("[data-action='nl.call']")
    p2.wait_for_function("(v) => window.__room.conn.version > v", arg=before)
    p2.wait_for_function("() => window.__snd.freqs.includes(1320)")
    for p in (p1, p2):
        p.wait_for_function("() => window.__snd.bands.includes(2400)")
    assert _snd(p2)["vib"] == [120]
    assert _snd(p1)["freqs"].count(1320) == p1_turns and _snd(p1)["vib"] == [120]  # not p1's turn now
    assert (p1.title(), p2.title()) == (f"포커 방 · {code}", f"내 차례! · 포커 방 · {code}")
    # 3. the flop: cards (3200 Hz band) for everyone
    p2.click("[data-action='nl.check']")
    for p in (p1, p2):
        p.wait_for_function("() => window.__snd.bands.includes(3200)")
    # 4. a win: only the winner hears the fanfare (C E G)
    p2.wait_for_function("() => window.__room.view.toAct !== null")
    actor = wp.view(p2)["toAct"]  # type: ignore[index]
    bettor, folder = (p2, p1) if actor == second else (p1, p2)
    bettor.click("[data-action='nl.allIn']")
    folder.wait_for_selector("[data-action='nl.fold']:not([disabled])")
    folder.click("[data-action='nl.fold']")
    bettor.wait_for_function("() => [523, 659, 784].every(f => window.__snd.freqs.includes(f))")
    assert 784 not in _snd(folder)["freqs"]
    folder.wait_for_function("() => window.__room.view.phase === 'handEnd'")
    assert (bettor.title(), folder.title()) == (f"포커 방 · {code}",) * 2  # the hand is over: no one's turn
    # the toggle turns every sound off
    folder.evaluate("() => { window.__snd.freqs.length = 0; window.__snd.bands.length = 0; }")
    folder.click("#btn-settings")
    folder.click("label[for=set-sound]")
    folder.keyboard.press("Escape")
    folder.wait_for_function("() => window.__room.view.handNo >= 2", timeout=15000)
    folder.wait_for_timeout(500)
    assert _snd(folder)["freqs"] == [] and _snd(folder)["bands"] == []


def test_uncalled_winner_shows_cards_with_one_tap(live_server: Any, open_page: Any) -> None:
    players, spectator, _ = open_room(live_server, open_page, "holdem", 2, MOBILE)
    by = _pages_by_id(players)
    folder_id = wp.view(players[0])["toAct"]  # type: ignore[index]
    winner_id = next(pid for pid in by if pid != folder_id)
    folder, winner = by[folder_id], by[winner_id]
    mine = sorted(wp.my_card_ids(winner))
    folder.click("[data-action='nl.fold']")
    winner.wait_for_selector("[data-action=show]", timeout=10000)
    assert folder.locator("[data-action=show]").count() == 0
    # not shown yet: the winner's cards are nowhere on the other screens
    for p in (folder, spectator):
        p.wait_for_function("() => window.__room.view.phase === 'handEnd'")
        assert not set(mine) & wp.dom_card_ids(p)
    shot(winner, "show-offered-390")
    named = wp.view(winner)["me"]["rankName"]  # type: ignore[index]  # what the winner's own cards read
    winner.click("[data-action=show]")
    for p in (folder, spectator):
        p.wait_for_function(
            "(id) => window.__room.view.seats.some(s => s.id === id && s.shown)", arg=winner_id, timeout=5000)
        assert set(mine) <= wp.dom_card_ids(p)
        assert "카드를 보여 줬어요" in p.locator("[data-testid=shown-note]").inner_text()
        # and what they make, on the winner's seat and in the note, as the winner's own cards read (two
        # unpaired cards before the flop make nothing yet: no name, as in the winner's own hint)
        seat = p.locator(f".seat[data-seat-id='{winner_id}']")
        who = seat.locator(".name").inner_text()
        note = p.locator("[data-testid=shown-note]").inner_text()
        if named:
            assert seat.locator(".hand-label").inner_text() == named, named
            assert note == f"모두 폴드했어요 · {who} 님이 카드를 보여 줬어요: {named}", note
        else:
            assert seat.locator(".hand-label").count() == 0
            assert note == f"모두 폴드했어요 · {who} 님이 카드를 보여 줬어요", note
    shot(spectator, "show-spectator-390")


def test_a_fold_question_is_withdrawn_when_my_turn_is_gone(fast_server: Any, open_page: Any) -> None:
    """폴드 with a check free asks first ("체크할 수 있는데 포기할까요?"). Left open while my turn ran out
    (checked for me), the question stayed over the next street, where a check was free again: its 예 would
    have folded that new turn, never decided. The question now goes with its decision; nothing is sent."""
    viewport = {"width": 360, "height": 740}
    host, guest = open_page("민수", viewport), open_page("지수", viewport)
    # a 30 s turn (6 real seconds): the small blind's call comes well inside it, even on a loaded machine
    code = wp.create_room_ui(host, fast_server.http, "민수", "holdem", turnSeconds=30)
    wp.join_ui(guest, fast_server.http, code, "지수")
    wp.wait_members(host, 2)
    host.click("[data-testid=start]")
    wp.wait_table(host)
    wp.wait_table(guest)
    by = _pages_by_id([host, guest])
    host.wait_for_function("() => window.__room.view.phase === 'betting' && !!window.__room.view.toAct")
    v = wp.view(host)
    assert v is not None and v["street"] == 0
    small = by[v["toAct"]]  # heads-up: the button posts the small blind and acts first before the flop
    big = guest if small is host else host
    wp._click_and_wait(small, "[data-action='nl.call']", wp.version(small))
    big.wait_for_function("() => window.__room.view.me.legalActions.some((a) => a.type === 'nl.check')")
    big.click("[data-action='nl.fold']")
    asked = big.locator("#dlg-confirm")
    asked.wait_for(state="visible")
    assert "체크할 수 있는데" in big.locator("#dlg-confirm-text").inner_text()
    shot(big, f"fold-question-{viewport['width']}")
    # nobody answers: the turn's 30 s (6 real seconds) run out, the server checks for me, the flop comes
    big.wait_for_function("() => window.__room.view.street === 1", timeout=15000)
    asked.wait_for(state="hidden", timeout=2000)
    v = wp.view(big)
    assert v is not None
    me = next(s for s in v["seats"] if s["id"] == v["me"]["id"])
    assert not me["folded"] and me["inHand"]
    assert not any("폴드" in e["text"] for e in v["publicLog"]), v["publicLog"]
    # after the flop the big blind acts first, a check free again: asked again, and the game ends under the
    # question (the other player leaves): the table goes, and its question with it
    big.wait_for_function("() => window.__room.view.me.legalActions.some((a) => a.type === 'nl.check')")
    big.click("[data-action='nl.fold']")
    asked.wait_for(state="visible")
    small.click("#btn-settings")
    small.click("[data-testid=leave]")
    small.click("#dlg-confirm-yes")
    big.wait_for_function("() => window.__room.view.phase === 'finished'")
    asked.wait_for(state="hidden", timeout=2000)
