"""The English switch (docs/decisions/0048-english-switch.md): both catalogs hold the same keys, the
server's Korean is worded again in English (the golden files' every Korean string, every refusal code), and
a hand of each of the seven modes played on a phone in English leaves no Hangul anywhere in the page: text,
placeholders, titles, aria-labels, the hint tags CSS draws.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import webplay as wp
from crowd_views import all_crowd_views, sweep
from test_wide_tables import CLEAR
from webplay import MOBILE, shot

from pokerroom.rejections import ALREADY_CHOSE, ALREADY_FOLDED, CANNOT_CHECK, CANNOT_RAISE, NOT_YOUR_TURN
from pokerroom.server.wire.protocol import MESSAGES

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
HANGUL = re.compile(r"[\uAC00-\uD7A3\u3131-\u318E]")
PHONES: list[dict[str, int]] = [MOBILE, {"width": 360, "height": 740}, {"width": 320, "height": 568}]

#: every place a person could read Korean: text nodes (SVG titles included), the attributes a screen reader or
#: a form shows, the page title, and the words CSS draws on hinted cards
HANGUL_JS = r"""() => {
  const H = /[\uAC00-\uD7A3\u3131-\u318E]/;
  const out = [];
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walk.nextNode()) {
    const t = walk.currentNode.nodeValue;
    const p = walk.currentNode.parentElement;
    if (H.test(t)) out.push(`${t.trim()} @${p ? p.tagName + "." + p.className : "?"}`);
  }
  for (const el of document.body.querySelectorAll("*")) {
    for (const a of ["placeholder", "title", "aria-label", "alt", "aria-valuetext", "value", "content"]) {
      const v = el.getAttribute(a);
      if (v && H.test(v)) out.push(`${a}=${v} @${el.tagName}`);
    }
  }
  if (H.test(document.title)) out.push(`document.title=${document.title}`);
  for (const el of document.querySelectorAll(".card")) {
    const c = getComputedStyle(el, "::before").content;
    if (c && H.test(c)) out.push(`::before ${c}`);
  }
  return out;
}"""

#: what overflows its box on a phone: the page sideways, or a button, badge or line whose text is cut
OVERFLOW_JS = r"""() => {
  const out = [];
  // anything with words that sticks out of the screen (my cards' fan may bleed off the edges by design)
  for (const el of document.querySelectorAll("body *")) {
    if (!el.offsetParent || !el.textContent.trim()) continue;
    if (el.closest(".card, .my-cards, dialog:not([open])")) continue;
    const r = el.getBoundingClientRect();
    if (r.width && (r.right > window.innerWidth + 1 || r.left < -1))
      out.push(`${el.className} "${el.textContent.trim().slice(0, 40)}" ${r.left}..${r.right}`);
  }
  const sel = "button, .badge, .hand-name, .instruction, .waiting-line, #topbar > *, .seat .name, .why";
  for (const el of document.querySelectorAll(sel)) {
    if (!el.offsetParent || el.closest("dialog:not([open])")) continue;
    const cs = getComputedStyle(el);
    if (cs.overflow === "visible" && cs.textOverflow !== "ellipsis") continue;
    if (el.scrollWidth > el.clientWidth + 1 && cs.textOverflow !== "ellipsis")
      out.push(`${el.className} "${el.textContent.trim().slice(0, 40)}" ${el.scrollWidth}>${el.clientWidth}`);
  }
  return out;
}"""


def resize(page: Any, size: dict[str, int]) -> None:
    """A new phone size, once the table has been laid out again for it (geometry.js measures on resize)."""
    page.set_viewport_size(size)
    page.wait_for_timeout(150)
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")


def no_hangul(page: Any, where: str) -> None:
    found: list[str] = page.evaluate(HANGUL_JS)
    assert not found, f"Korean left in English mode ({where}):\n" + "\n".join(found[:20])


def words_page(static_page: Any) -> Any:
    page = static_page("/fixtures/blank.html?lang=en")
    page.evaluate("async () => { window.__w = await import('/static/words.js'); }")
    return page


def test_both_catalogs_have_the_same_keys_and_placeholders(static_page: Any) -> None:
    page = static_page("/fixtures/blank.html")
    ko, en = page.evaluate(
        "async () => [(await import('/static/i18n/ko.js')).default,"
        " (await import('/static/i18n/en.js')).default]"
    )
    assert len(ko) > 900
    assert sorted(set(ko) - set(en)) == [] and sorted(set(en) - set(ko)) == []
    holes = re.compile(r"\{\w+\}")
    differ = [k for k in ko if sorted(holes.findall(ko[k])) != sorted(holes.findall(en[k]))]
    assert differ == []
    assert [k for k, v in en.items() if HANGUL.search(v) and k != "lang.ko"] == []


def test_the_rules_of_every_mode_and_house_rule_read_in_english(static_page: Any) -> None:
    page = static_page("/fixtures/blank.html?lang=en")
    left: list[str] = page.evaluate("""async () => {
      const { rulesContent } = await import('/static/rules.js');
      const H = /[\\uAC00-\\uD7A3\\u3131-\\u318E]/;
      const house = { rule491: true, betCap: 20, badugiHigh: true, jacksOrBetter: true, ante: 'bigBlind',
        antePercent: 100, straddle: true, runItTwice: true, omahaHiLo: true, betting: 'korean' };
      const out = [];
      for (const mode of ['holdem', 'omaha', 'sevenPoker', 'sevenHiLo', 'badugi', 'fiveDraw', 'indian'])
        for (const opts of [{}, house]) {
          const el = rulesContent(mode, opts);
          const at = el.textContent.search(H);
          if (at >= 0) out.push(`${mode}: ${el.textContent.slice(Math.max(0, at - 30), at + 30)}`);
          for (const x of el.querySelectorAll('[aria-label], [title]'))
            if (H.test(x.getAttribute('aria-label') || '') || H.test(x.getAttribute('title') || ''))
              out.push(`${mode}: ${x.outerHTML.slice(0, 80)}`);
        }
      return out;
    }""")
    assert left == []


def test_every_korean_string_of_the_golden_files_is_worded_in_english(static_page: Any) -> None:
    found: set[str] = set()

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)
        elif isinstance(node, str) and HANGUL.search(node):
            found.add(node)

    for f in sorted((ROOT / "tests" / "golden").glob("*.jsonl")):
        for line in f.read_text(encoding="utf-8").splitlines():
            walk(json.loads(line))
    assert len(found) > 300
    page = words_page(static_page)
    said: dict[str, str] = page.evaluate(
        "(xs) => Object.fromEntries(xs.map((x) => [x, window.__w.words(x)]))", sorted(found)
    )
    left = {k: v for k, v in said.items() if HANGUL.search(v)}
    assert left == {}
    # a few read as a player would say them
    assert said["에이스 투페어"] == "Ace two pair"
    assert said["K탑"] == "K-high"
    assert said["9 베이스가 p1의 투베이스를 이김"] == "9 base beats p1's two base"
    assert said["p1 레이즈 40까지"] == "p1 Raise to 40"
    assert said["아침: p0 2장, p1 2장, p2 2장"] == "Morning draw: p0 drew 2, p1 drew 2, p2 drew 2"


def test_a_low_is_named_as_a_low_in_english(static_page: Any) -> None:
    """The server names a high card and a low alike ("K탑", "9탑"); in English a low is "9-low" (it read
    "Low 9-high"), told apart by where it stands: a view's lowName, a low half's award, after " / 로우 "."""
    page = words_page(static_page)
    lines = ["쇼다운: p2 트리플 / 로우 8탑, p0 원페어 / 로우 없음",
             "p0 114칩 획득: 로우 Q탑, 혼자 로우를 선언해 로우 몫을 가져감", "K탑", "K탑이 p1의 Q탑을 이김"]
    said = page.evaluate("(xs) => xs.map((x) => window.__w.words(x))", lines)
    assert said == ["Showdown: p2 trips / 8-low, p0 pair / no low",
                    "p0 wins 114 chips: Q-low: the only one declaring low, takes the low half",
                    "K-high", "K-high beats p1's Q-high"], said
    view = page.evaluate("""() => window.__w.wordView({ me: { lowName: '9탑', rankName: 'K탑' }, awards: [
      { side: 'low', hand: '8탑', why: '8탑이 p1의 9탑을 이김' },
      { side: 'high', hand: 'K탑', why: null }] })""")
    assert view["me"] == {"lowName": "9-low", "rankName": "K-high"}
    assert view["awards"][0] == {"side": "low", "hand": "8-low", "why": "8-low beats p1's 9-low"}
    assert view["awards"][1]["hand"] == "K-high"
    # the log's line has no side: the server calls both lows so ("8탑이 p0의 J탑을 이김" read "8-high …")
    lines = ["p2 15칩 획득: 로우 8탑이 p0의 로우 J탑을 이김", "p1 8칩 획득: 로우 8·6탑 동점으로 나눔"]
    logged = page.evaluate("(xs) => xs.map((x) => window.__w.words(x))", lines)
    assert logged == ["p2 wins 15 chips: 8-low beats p0's J-low",
                      "p1 wins 8 chips: 8·6-low: tie, split"], logged


def test_one_is_singular(static_page: Any) -> None:
    """"1 cards sent. Waiting for the others…" after drawing one card, and a room of one rebuy summed up as
    "1 rebuys": in English one of a thing is said in the singular (Korean has one form: "1장", "1회")."""
    page = static_page("/fixtures/harness.html?f=badugi_draw&lang=en", name="en")
    page.wait_for_function("() => window.rendered === true")
    waiting = []
    for pending in ([12], [12, 2]):
        page.evaluate("""(ids) => fetch('/fixtures/badugi_draw.json').then((r) => r.json()).then((v) => {
          v.me.drawPending = ids; v.me.legalActions = []; window.renderView(v); })""", pending)
        line = page.locator(".waiting-line").filter(has_text="sent")
        line.wait_for()
        waiting.append(line.inner_text())
    assert waiting == [f"{n} sent. Waiting for the others…" for n in ("1 card", "2 cards")], waiting
    page.evaluate("async () => { window.__o = await import('/static/options.js'); }")
    rebuys = page.evaluate("""() => [1, 2].map((n) => window.__o.optionItems({ ...window.__o.defaultOptions(),
      rebuy: 'limited', rebuyLimit: n }).find((x) => /rebuy/.test(x)))""")
    assert rebuys == ["1 rebuy", "2 rebuys"], rebuys


#: Each declaration button's hand names ("Q pair + Q-low": split at " + ") whose letters run over two lines.
NAMES_CUT = r"""() => [...document.querySelectorAll('[data-action^=declare-] .sub')].flatMap((sub) => {
  const glyphs = []; // [character, its line's top] of every character of the button's names, in order
  const walker = document.createTreeWalker(sub, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    for (let i = 0; i < n.textContent.length; i++) {
      const r = document.createRange();
      r.setStart(n, i);
      r.setEnd(n, i + 1);
      const b = [...r.getClientRects()].find((x) => x.width > 0);
      glyphs.push([n.textContent[i], b ? Math.round(b.top) : null]);
    }
  }
  const names = glyphs.map(([c]) => c).join('').split(' + ');
  let at = 0;
  return names.filter((name) => {
    const drawn = glyphs.slice(at, at + name.length).filter(([c, top]) => !/\s/.test(c) && top !== null);
    const tops = new Set(drawn.map(([, top]) => top));
    at += name.length + 3;
    return tops.size > 1;
  });
})"""


def test_a_hi_lo_declarations_hand_names_never_break_inside(static_page: Any) -> None:
    """The three declaration buttons are a third of the screen wide: the swing's "Q pair + Q-low" broke its
    low as "Q-" / "low" (at 390 px too). A name may go to the next line, whole, after the "+"."""
    for size in ({"width": 390, "height": 844}, {"width": 360, "height": 740}, {"width": 320, "height": 568}):
        page = static_page("/fixtures/harness.html?f=hilo_declare&lang=en", size, name=str(size["width"]))
        page.wait_for_function("() => window.rendered === true")
        page.evaluate("async () => { window.__w = await import('/static/words.js'); }")
        v = wp.load("hilo_declare")
        v["me"].update(handName="원페어", rankName="Q 원페어", lowName="Q탑")
        page.evaluate("(v) => window.renderView(window.__w.wordView(v), 'player')", v)
        swing = page.locator("[data-action=declare-swing] .sub").inner_text()
        assert swing.replace("\n", " ").split(" + ") == ["Q pair", "Q-low"], swing
        assert page.evaluate(NAMES_CUT) == [], size


def test_refusals_are_worded_from_their_code(static_page: Any) -> None:
    page = words_page(static_page)
    pairs = [[code, text] for code, text in MESSAGES.items()]
    pairs += [list(p) for p in (NOT_YOUR_TURN, ALREADY_FOLDED, CANNOT_CHECK, CANNOT_RAISE, ALREADY_CHOSE)]
    pairs += [["raise_too_small", "최소 벳은 1,250이에요"], ["some_new_code", "새로 생긴 거절이에요"]]
    said: list[str] = page.evaluate("(ps) => ps.map(([c, m]) => window.__w.serverMessage(c, m))", pairs)
    assert [s for s in said if HANGUL.search(s)] == []
    assert said[-2] == "The minimum is 1,250"
    assert said[-1] == "Request refused (some_new_code)"
    # a notice keeps its sentence (a nickname in it), not the meaning of its code
    kicked = page.evaluate("() => window.__w.serverMessage('kicked', '방장이 Bob 님을 내보냈어요', true)")
    assert kicked == "The host removed Bob"


#: (mode, styles of the host and the guest): two players, short hands that reach a showdown
MODES: list[tuple[str, list[dict[str, Any]]]] = [
    ("holdem", [{"raise_once": True}, {}]),
    ("omaha", [{}, {"raise_once": True}]),
    ("sevenPoker", [{"ping_once": True}, {}]),
    ("sevenHiLo", [{"declare": "low"}, {"declare": "swing"}]),
    ("badugi", [{"draw": 1}, {"draw": 0, "ping_once": True}]),
    ("fiveDraw", [{"draw": 2}, {"draw": 0}]),
    ("indian", [{"raise_once": True}, {}]),
]


#: Every word (two letters or more, Latin or Hangul) of this selector's text that a line break cuts inside it.
WORDS_CUT = r"""(sel) => {
  const out = new Set();
  for (const root of document.querySelectorAll(sel)) {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const el = n.parentElement;
      if (!el || !el.getClientRects().length || el.closest('.card, .sr-only')) continue;
      const re = /[A-Za-z가-힣]{2,}/g;
      for (let m = re.exec(n.textContent); m; m = re.exec(n.textContent)) {
        const tops = new Set();
        for (let i = m.index; i < m.index + m[0].length; i++) {
          const r = document.createRange();
          r.setStart(n, i);
          r.setEnd(n, i + 1);
          const b = [...r.getClientRects()].find((x) => x.width > 0);
          if (b) tops.add(Math.round(b.top));
        }
        if (tops.size > 1) out.add(`${el.className || el.tagName}: ${m[0]}`);
      }
    }
  }
  return [...out];
}"""


def test_no_word_of_a_table_breaks_inside_on_the_narrowest_phone(static_page: Any) -> None:
    """A Korean table's buttons are a quarter of the screen wide: at 320 px "Quarter" broke as "Quarte" /
    "r". No word of a table (either language, large text or not) is cut by a line break."""
    cut: list[str] = []
    phone = {"width": 320, "height": 568}
    fixtures = ("seven_choice", "badugi_draw", "seven_betting_me", "seven_six_player", "holdem_raise",
                "holdem_showdown", "omaha_hilo_showdown", "indian_betting", "rebuy", "hilo_declare",
                "holdem_run_twice_ask", "holdem_antes")
    for lang in ("en", "ko"):
        page = static_page(f"/fixtures/harness.html?f=seven_choice&lang={lang}", phone, name=lang)
        page.wait_for_function("() => window.rendered === true")
        for large in (False, True):
            page.evaluate("(on) => document.body.classList.toggle('large-text', on)", large)
            for name in fixtures:
                page.evaluate("(v) => window.renderView(v, v.me ? 'player' : 'spectator')", wp.load(name))
                where = f"{lang} {'large ' if large else ''}{name}"
                cut += [f"{where}: {w}" for w in page.evaluate(WORDS_CUT, "body")]
    assert not cut, "\n".join(cut)


def test_seven_modes_in_english_leave_no_korean_on_a_phone(live_server: Any, open_page: Any) -> None:
    base = live_server.http
    host, guest = open_page("host", MOBILE), open_page("guest", MOBILE)
    # the switch itself: Korean by default, English from settings, remembered across the reload it makes
    host.goto(base + "/")
    assert host.evaluate("document.documentElement.lang") == "ko"
    host.click("#btn-settings")
    with host.expect_navigation():
        host.click("[data-testid=lang-en] + span")
    host.wait_for_selector("#create-nick")
    assert host.evaluate("document.documentElement.lang") == "en"
    no_hangul(host, "lobby")
    for size in PHONES:
        resize(host, size)
        shot(host, f"english-lobby-{size['width']}")
        assert host.evaluate(OVERFLOW_JS) == []
    host.click(".create-form details summary")  # the folded options (betting, rebuys, time ...)
    no_hangul(host, "create form's more options")
    for size in PHONES[1:]:
        resize(host, size)
        shot(host, f"english-create-more-{size['width']}")
        assert host.evaluate(OVERFLOW_JS) == []
    resize(host, MOBILE)
    guest.goto(base + "/?lang=en")  # a shared link: remembered like the switch

    for mode, styles in MODES:
        extra = {"timeBank": 30} if mode == "holdem" else {}  # the seats' time-bank pills
        code = wp.create_room_ui(host, base, "Ann", mode, **extra)
        guest.goto(f"{base}/r/{code}")
        guest.fill("#join-nick", "Bob")
        guest.check("#join-adult")
        guest.click("[data-testid=join]")
        wp.wait_members(host, 2)
        if mode == "sevenPoker":  # a bot's name is the server's Korean too ("봇 1")
            host.click("[data-testid=add-bot]")
            wp.wait_members(host, 3)
        no_hangul(host, f"{mode} waiting room")
        if mode == "holdem":
            resize(host, PHONES[2])
            shot(host, "english-waiting-room-320")
            assert host.evaluate(OVERFLOW_JS) == []
            resize(host, MOBILE)
        host.click("[data-testid=start]")
        for p in (host, guest):
            wp.wait_table(p)
        no_hangul(guest, f"{mode} table")
        if mode == "omaha":  # a reaction's words come from its code, in the reader's language
            guest.click("[data-testid=react-open]")
            guest.wait_for_selector("[data-testid=react-palette]")
            no_hangul(guest, "reaction palette")
            guest.click("[data-reaction=nice]")
            bubble = host.locator("[data-testid=bubble]")
            bubble.wait_for(timeout=5000)
            assert bubble.inner_text() == "Nice!"
        # the host ends the game after this hand: the hand ends straight into the result screen
        if mode == "holdem":
            resize(host, PHONES[2])
        host.click("#btn-host")
        if mode == "holdem":  # the host menu's long English lines on the smallest phone
            host.locator("#dlg-host[open]").wait_for()
            shot(host, "english-host-menu-320")
            assert host.evaluate(OVERFLOW_JS) == []
            resize(host, MOBILE)
        host.click("[data-testid=host-end]")
        no_hangul(host, f"{mode} host menu and its confirmation")
        host.click("#dlg-confirm-yes")
        guest.wait_for_function("() => window.__room.view.endAfterHand === true")
        steps: list[str] = []

        def check(step: str, steps: list[str] = steps, mode: str = mode) -> None:
            steps.append(step)
            if len(steps) in (1, 3, 5):
                no_hangul(host, f"{mode} after {steps}")
                no_hangul(guest, f"{mode} after {steps}")
            if mode == "sevenPoker" and len(steps) == 4:  # eight Korean-betting buttons in English words
                for size in PHONES:
                    for i, p in enumerate((host, guest)):
                        p.evaluate("() => document.querySelectorAll('.toast').forEach((t) => t.remove())")
                        resize(p, size)
                        shot(p, f"english-{mode}-betting-p{i}-{size['width']}")
                        assert p.evaluate(OVERFLOW_JS) == [], (mode, size)
                        resize(p, MOBILE)

        final = wp.play_hand([host, guest], [{**s, "lang": "en"} for s in styles], on_step=check)
        if final["phase"] == "handEnd":
            for p in (host, guest):
                no_hangul(p, f"{mode} hand result")
            shot(host, f"english-{mode}-hand-end-390")
            if mode in ("sevenPoker", "badugi", "holdem"):
                for size in PHONES[1:]:
                    resize(host, size)
                    shot(host, f"english-{mode}-hand-end-{size['width']}")
                    assert host.evaluate(OVERFLOW_JS) == [], mode
                resize(host, MOBILE)
            for p in (host, guest):  # both ready: no wait for the next hand (it may already be gone)
                p.evaluate("() => document.querySelector('[data-action=ready]:not([disabled])')?.click()")
        for p in (host, guest):
            p.locator("[data-testid=result]").wait_for(timeout=15000)
            no_hangul(p, f"{mode} game result")
        if mode == "holdem":
            for size in PHONES[1:]:
                resize(guest, size)
                shot(guest, f"english-{mode}-result-{size['width']}")
                assert guest.evaluate(OVERFLOW_JS) == []
            resize(guest, MOBILE)
            host.click("#btn-log")  # the public log, worded from the engine's Korean lines
            host.locator("#dlg-log[open]").wait_for()
            no_hangul(host, "hand log")
            host.click("[data-testid=tab-past]")  # the past hands, and the hand replayed step by step
            host.wait_for_selector("[data-testid=past-hand]")
            no_hangul(host, "past hands")
            # each is headed by its number ("6판" is hand 6, not six hands)
            heads = host.locator("[data-testid=past-hand] .ph-head > b").all_inner_texts()
            numbers = host.eval_on_selector_all("[data-testid=past-hand]",
                                                "els => els.map((e) => e.dataset.handNo)")
            assert heads == [f"Hand {n}" for n in numbers], heads
            host.click("[data-testid=past-hand] [data-testid=replay-open]")
            host.wait_for_selector("[data-testid=replay-caption]")
            for _ in range(4):
                no_hangul(host, "replayer")
                host.click("[data-testid=replay-next]")
            shot(host, "english-replayer-390")
            resize(host, PHONES[2])
            shot(host, "english-replayer-320")
            assert host.evaluate(OVERFLOW_JS) == []
            resize(host, MOBILE)
            host.click("[data-testid=replay-close]")
            host.click("#dlg-log [data-close]")
            # the ledger's five columns, the rules and the settings on the smallest phone
            resize(host, PHONES[2])
            for name in ("ledger", "rules", "settings"):
                button, dialog = f"#btn-{name}", f"#dlg-{name}"
                host.click(button)
                host.locator(f"{dialog}[open]").wait_for()
                no_hangul(host, dialog)
                shot(host, f"english-{dialog[5:]}-320")
                assert host.evaluate(OVERFLOW_JS) == [], dialog
                host.click(f"{dialog} [data-close]")
            resize(host, MOBILE)
        shot(guest, f"english-{mode}-result-390")


def test_an_english_table_puts_nothing_over_a_seat(static_page: Any) -> None:
    """The crowded views of every mode, player count and phase (crowd_views.py) in English at 360×740: no seat
    over another, and nothing of the centre or the banner over a seat, as in Korean. English words run
    longer: Indian poker's used-card line ("4 cards used · 14 left in deck") lay over the side seats of a
    table of eight to ten there; it now says as much as the Korean one in as little room ("4 used · 14 in
    deck"). (At 320×568 the same sweep found nothing before the change either, and took 30 s of a CI
    worker: left to the Korean sweeps of that size.)"""
    page = static_page("/fixtures/harness.html?f=seven_six_player&lang=en", PHONES[1], name="en")
    page.wait_for_function("() => window.rendered === true")
    problems: list[str] = sweep(page, f"""async (views) => {{
      const w = await import('/static/words.js');  // as net.js hands a view over: in English
      for (const [, v] of views) w.wordView(v);
      return ({CLEAR})(views); }}""", all_crowd_views())
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems[:40])
