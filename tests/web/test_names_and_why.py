"""Reading a hand's end, in the browser (docs/decisions/0006-hands-named-and-explained.md): ranked hand names
and why a pot was won, the fold called as the table's button calls it, my open cards marked, the hi-lo low
five highlighted, the raise wording, and the pot figure of the banner.

The checks render synthetic views (docs/view.md shape) through the fixture harness (no server).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from test_audit_fixes import crowd_view, render
from webplay import harness, load, shot

pytestmark = pytest.mark.browser


def test_showdown_names_and_why_use_ranks_and_nicknames(static_page: Any) -> None:
    page = harness(static_page, "holdem_showdown")
    v = load("holdem_showdown")
    for e in v["showdown"]:
        e["rankName"] = {"p1": "에이스 플러시", "p2": "퀸 트리플", "p4": "9 트리플"}[e["id"]]
    why = "에이스 플러시가 p2의 퀸 트리플을 이김"
    v["awards"] = [dict(a, hand="에이스 플러시", why=why) for a in v["awards"]]
    render(page, v)
    banner = page.locator("[data-testid=hand-result]").inner_text()
    assert "민수 +180 · 에이스 플러시" in banner
    assert page.locator("[data-testid=why]").inner_text() == "민수: 에이스 플러시가 지수의 퀸 트리플을 이김"
    labels = page.locator(".seat .hand-label").all_inner_texts()
    assert "퀸 트리플" in labels and "9 트리플" in labels
    shot(page, "reading-why-holdem")
    # my own hint names the rank too
    page2 = harness(static_page, "seven_betting_me")
    v2 = load("seven_betting_me")
    v2["me"]["handName"] = "원페어"
    v2["me"]["rankName"] = "K 원페어"
    render(page2, v2)
    assert page2.locator("[data-testid=hand-name]").inner_text() == "지금: K 원페어"


def test_a_fold_is_called_as_the_tables_button_calls_it(static_page: Any) -> None:
    """A no-limit table's fold button and badges say 폴드, a Korean table's 다이: so do the line under my
    cards once I folded and the note of a hand that everyone else folded."""
    page = harness(static_page, "holdem_raise")
    for name, word in (("holdem_raise", "폴드"), ("seven_betting_me", "다이")):
        v = load(name)
        me = v["me"]["id"]
        others = [s["id"] for s in v["seats"] if s["id"] != me]
        v["toAct"], v["me"]["legalActions"] = others[0], []
        for seat in v["seats"]:
            seat["folded"] = seat["folded"] or seat["id"] == me
        render(page, v)
        assert page.locator(".controls .muted-line").inner_text() == f"이번 판은 {word}했어요", name
        winner = others[0]
        v.update(phase="handEnd", toAct=None, showdown=[],
                 awards=[{"to": winner, "amount": v["potTotal"], "potIndex": 0, "hand": None, "why": None}])
        v["me"]["legalActions"] = [{"type": "ready"}]
        render(page, v)
        note = page.locator("[data-testid=shown-note]").inner_text()
        assert note == f"모두 {word}해서 카드를 공개하지 않아요", (name, note)


def test_cards_shown_after_a_fold_are_named_on_the_seat_and_in_the_note(static_page: Any) -> None:
    """The winner of an uncalled pot who shows: their seat reads what the cards make (the view's
    ``shownName``) and so does the note, "모두 폴드했어요 · 민수 님이 카드를 보여 줬어요: 에이스 원페어"; in
    English too ("Everyone else folded · 민수 showed Ace pair")."""
    for lang, expect in (("ko", "모두 폴드했어요 · {who} 님이 카드를 보여 줬어요: 에이스 원페어"),
                         ("en", "Everyone else folded · {who} showed Ace pair")):
        page = static_page(f"/fixtures/harness.html?f=holdem_raise&lang={lang}", name=f"shown-{lang}")
        page.wait_for_function("() => window.rendered === true")
        v = load("holdem_raise")
        me = v["me"]["id"]
        winner = next(s["id"] for s in v["seats"] if s["id"] != me)
        v.update(phase="handEnd", toAct=None, showdown=[],
                 awards=[{"to": winner, "amount": v["potTotal"], "potIndex": 0, "hand": None, "why": None}])
        v["me"]["legalActions"] = [{"type": "ready"}]
        for seat in v["seats"]:
            seat["folded"] = seat["id"] != winner
            if seat["id"] == winner:
                seat.update(shown=True, shownName="에이스 원페어")
        # as net.js hands a view over: the engine's Korean words in the page's language
        page.evaluate("async (v) => { (await import('/static/words.js')).wordView(v);"
                      " window.renderView(v, 'player'); }", v)
        seat = page.locator(f".seat[data-seat-id='{winner}']")
        assert seat.locator(".hand-label").inner_text() == ("에이스 원페어" if lang == "ko" else "Ace pair")
        who = seat.locator(".name").inner_text()
        note = page.locator("[data-testid=shown-note]").inner_text()
        assert note == expect.format(who=who), note
        assert all(page.locator(f".seat[data-seat-id='{s['id']}'] .hand-label").count() == 0
                   for s in v["seats"] if s["id"] != winner)
        line = "p1 카드 공개: A♣ A◆ (에이스 원페어)"  # the log's line of the show
        said = page.evaluate("async (t) => (await import('/static/words.js')).words(t)", line)
        assert said == {"ko": line, "en": "p1 shows A♣ A◆ (Ace pair)"}[lang], said


def test_a_replayed_muck_is_told_as_a_muck(static_page: Any) -> None:
    """An imported hand whose loser threw the cards away at the showdown (the replay's seat ``mucked``):
    the seat says 덮음 rather than 폴드, and the note says who showed and who mucked, not that everyone
    folded (with no one shown, only who mucked)."""
    page = harness(static_page, "holdem_raise")
    v = load("holdem_raise")
    winner, loser = (s["id"] for s in v["seats"][:2])
    v.update(phase="handEnd", toAct=None, showdown=[], me=None,
             awards=[{"to": winner, "amount": v["potTotal"], "potIndex": 0, "hand": None, "why": None}])
    for seat in v["seats"]:
        seat["folded"] = seat["id"] != winner
        seat["mucked"] = seat["id"] == loser
        seat["shown"] = seat["id"] == winner
    render(page, v)
    names = {s["id"]: page.locator(f".seat[data-seat-id='{s['id']}'] .name").inner_text() for s in v["seats"]}
    note = page.locator("[data-testid=shown-note]").inner_text()
    assert note == f"{names[winner]} 님이 카드를 보여 줬고 {names[loser]} 님은 덮었어요", note
    badges = page.locator(f".seat[data-seat-id='{loser}'] .badge").all_inner_texts()
    assert "덮음" in badges and "폴드" not in badges, badges
    others = [s["id"] for s in v["seats"] if s["id"] not in (winner, loser)]
    assert "폴드" in page.locator(f".seat[data-seat-id='{others[0]}'] .badge").all_inner_texts()
    v["seats"][0]["shown"] = False
    render(page, v)
    assert page.locator("[data-testid=shown-note]").inner_text() == f"{names[loser]} 님이 카드를 덮었어요"


#: the action grid's box, and each button's visibility and the line's box inside it
SPENT_BOX = r"""() => {
  const grid = document.querySelector('.controls .actions');
  const line = document.querySelector('.controls .muted-line').getBoundingClientRect();
  const box = grid.getBoundingClientRect();
  return { top: box.top, height: box.height, seen: [...grid.querySelectorAll('.act')]
    .map((b) => getComputedStyle(b).visibility), line: [line.top, line.bottom], lines: document
    .querySelectorAll('.controls .muted-line').length };
}"""


@pytest.mark.parametrize("name", ["seven_betting_me", "holdem_raise"])
def test_a_folded_or_all_in_seat_keeps_the_buttons_room_but_not_the_dead_buttons(static_page: Any,
                                                                                  name: str) -> None:
    """Waiting for my turn, my greyed buttons say what is coming; folded or all in, nothing is coming this
    hand: the eight (or four) dead buttons are not drawn, the line saying why stands in their room, and that
    room keeps its size, so the table does not move when I fold or when the next hand deals me in."""
    page = harness(static_page, name)
    v = load(name)
    me = v["me"]["id"]
    v["toAct"] = next(s["id"] for s in v["seats"] if s["id"] != me)
    v["me"]["legalActions"] = []
    render(page, v)
    waiting = page.evaluate(SPENT_BOX)
    assert set(waiting["seen"]) == {"visible"} and waiting["lines"] == 1
    for state in ("folded", "allIn"):
        for seat in v["seats"]:
            if seat["id"] == me:
                seat["folded"], seat["allIn"] = state == "folded", state == "allIn"
        render(page, v)
        spent = page.evaluate(SPENT_BOX)
        assert set(spent["seen"]) == {"hidden"}, (name, state)
        assert (spent["top"], spent["height"]) == (waiting["top"], waiting["height"]), (name, state)
        assert spent["lines"] == 1
        assert spent["top"] <= spent["line"][0] and spent["line"][1] <= spent["top"] + spent["height"]
        shot(page, f"spent-{name}-{state}")
    assert page.locator(".controls .muted-line").inner_text() == "올인했어요"


def test_a_break_even_is_read_in_the_texts_colour_not_as_a_gain(static_page: Any) -> None:
    """장부: a gain is green, a loss red, and a net of 0칩 neither (in green it read as a win)."""
    page = harness(static_page, "holdem_raise")
    colours = page.evaluate("""async () => {
      const m = await import('/static/ledger.js');
      const row = (id, net) => ({ id, nickname: id, games: 1, buyIn: 1000, rebuys: 0, rebuyChips: 0,
                                  closed: 0, stack: 1000 + net, net });
      const led = { rows: [row('p1', 0), row('p2', 50), row('p3', -50)], games: 1, handsPlayed: 3 };
      document.body.append(m.ledgerView(led, 'p1', () => {}));
      const ink = getComputedStyle(document.documentElement).getPropertyValue('--ink').trim();
      const probe = document.createElement('span'); probe.style.color = ink; document.body.append(probe);
      const cells = [...document.querySelectorAll('[data-testid=ledger-net]')];
      return { ink: getComputedStyle(probe).color,
               nets: cells.map((td) => [td.textContent, getComputedStyle(td).color]) };
    }""")
    (zero, zero_colour), (gain, gain_colour), (loss, loss_colour) = colours["nets"]
    assert (zero, gain, loss) == ("0칩", "+50칩", "−50칩")
    assert zero_colour == colours["ink"]
    assert len({zero_colour, gain_colour, loss_colour}) == 3


def test_the_first_chips_of_a_street_read_bet_and_a_raise_over_them_raise(static_page: Any) -> None:
    """poker.md §5.3: into a round with nothing to call it is a 벳, over one a 레이즈. The view names both
    "nl.raise"; the seat's badge says which, as the raise button and the log do."""
    page = harness(static_page, "holdem_raise")
    v = load("holdem_raise")  # the flop, p1 (me) to act

    def badge(pid: str) -> Any:
        return page.locator(f".seat[data-seat-id={pid}] .badge.last")

    seats = {s["id"]: s for s in v["seats"]}
    for s in v["seats"]:
        s.update(lastAction=None, committedRound=0, allIn=False, folded=False)
    v.update(currentBet=0, toAct="p2")
    v["me"]["legalActions"] = []
    render(page, v)

    def act(pid: str, to: int, nxt: str) -> None:
        seats[pid].update(lastAction="nl.raise", committedRound=to)
        seats[pid]["stack"] -= to
        v.update(currentBet=to, toAct=nxt)
        render(page, v)

    act("p2", 40, "p3")
    assert badge("p2").inner_text() == "벳"
    act("p3", 120, "p4")
    assert (badge("p2").inner_text(), badge("p3").inner_text()) == ("벳", "레이즈")
    act("p2", 360, "p3")  # p2 raises again: its 벳 is gone
    assert badge("p2").inner_text() == "레이즈"
    # the turn: the round starts again with nothing to call
    for s in v["seats"]:
        s.update(lastAction=None, committedRound=0)
    v.update(street=2, streetName="턴", currentBet=0)
    render(page, v)
    act("p3", 50, "p4")
    assert badge("p3").inner_text() == "벳"
    # the river, seen only after a bet and a raise over it (a view skipped): no guess, both read 레이즈
    for s in v["seats"]:
        s.update(lastAction=None, committedRound=0)
    v.update(street=3, streetName="리버", currentBet=0)
    render(page, v)
    seats["p2"].update(lastAction="nl.raise", committedRound=30)
    act("p3", 90, "p4")
    assert (badge("p2").inner_text(), badge("p3").inner_text()) == ("레이즈", "레이즈")


def test_a_replays_and_a_past_hands_lines_say_bet_and_raise_to_as_the_log_does(static_page: Any) -> None:
    """The replayer's caption and a past hand's lines come from the hand's events: an opening nl.raise (the
    event's ``bet``) reads "벳 20", a raise "레이즈 60까지" (the total, as the live log says; the chips it
    moved were 50 for a seat with 10 in), a Korean action and an event without those fields as before."""
    page = harness(static_page, "holdem_raise")
    said = page.evaluate("""async (events) => {
      const m = await import('/static/history.js');
      return events.map((e) => m.stepText(e, (id) => id));
    }""", [
        {"type": "action", "player": "p1", "action": {"type": "nl.raise", "to": 20}, "amount": 20,
         "bet": True},
        {"type": "action", "player": "p2", "action": {"type": "nl.raise", "to": 60}, "amount": 50,
         "bet": False},
        {"type": "action", "player": "p3", "action": {"type": "k.half"}, "amount": 40},
        {"type": "action", "player": "p4", "action": {"type": "nl.raise"}, "amount": 30},
    ])
    assert said == ["p1 벳 20", "p2 레이즈 60까지", "p3 하프 40", "p4 레이즈 30"]


def test_my_open_cards_are_marked_and_hidden_ones_are_not(static_page: Any) -> None:
    page = harness(static_page, "seven_betting_me")
    v = load("seven_betting_me")
    me = v["me"]
    assert me["up"] and me["hole"]
    render(page, v)
    info = page.evaluate(
        """() => [...document.querySelectorAll('[data-testid=my-cards] .card')].map((c) => ({
          id: Number(c.dataset.cardId), tag: c.querySelector('.open-tag')?.textContent ?? null,
          shadow: getComputedStyle(c).boxShadow, label: c.getAttribute('aria-label') }))"""
    )
    up = {c["id"] for c in me["up"]}
    for c in info:
        if c["id"] in up:
            assert c["tag"] == "공개" and c["shadow"] != "none" and c["label"].endswith("(공개)"), c
        else:
            assert c["tag"] is None and c["shadow"] == "none", c
    tag = page.locator(".open-tag").first.bounding_box()
    first_up = page.locator("[data-testid=my-cards] .card.open-card").first.bounding_box()
    assert tag and first_up and tag["height"] >= 12
    assert first_up["y"] <= tag["y"] and tag["y"] + tag["height"] <= first_up["y"] + first_up["height"]
    shot(page, "reading-seven-open-cards-marked")


LIT = "(id) => [...document.querySelectorAll(`.seat[data-seat-id=${id}] .card.best`)]" \
    ".map(c => +c.dataset.cardId)"


def test_hi_lo_low_winner_highlights_the_low_five(static_page: Any) -> None:
    page = harness(static_page, "hilo_declare")
    v = crowd_view("sevenHiLo", 3, "handEnd")
    hi_id, lo_id = v["seats"][1]["id"], v["seats"][2]["id"]
    cards = {s["id"]: s["hole"] + s["up"] for s in v["seats"]}
    for e in v["showdown"]:
        c = cards[e["id"]]
        e["cards"] = c
        e["best"] = c[:5]
        e["lowBest"] = c[2:7]
        e["declare"] = "high" if e["id"] == hi_id else "low"
    v["awards"] = [
        {"potIndex": 0, "to": hi_id, "amount": 500, "side": "high"},
        {"potIndex": 0, "to": lo_id, "amount": 500, "side": "low"},
    ]
    render(page, v)
    lit = page.evaluate(LIT, lo_id)
    assert sorted(lit) == sorted(c["id"] for c in cards[lo_id][2:7])
    lit_hi = page.evaluate(LIT, hi_id)
    assert sorted(lit_hi) == sorted(c["id"] for c in cards[hi_id][:5])
    shot(page, "reading-hilo-low-five")


def test_raise_panel_says_what_the_log_says(static_page: Any) -> None:
    page = harness(static_page, "holdem_raise")
    page.click("[data-action='nl.raise']")
    page.click("[data-quick=min]")
    text = page.locator("[data-testid=raise-amount]").inner_text()
    v = load("holdem_raise")
    raise_entry = next(a for a in v["me"]["legalActions"] if a["type"] == "nl.raise")
    label = "벳" if raise_entry.get("isBet") else "레이즈"
    want = f"벳 {raise_entry['min']:,}" if label == "벳" else f"레이즈 {raise_entry['min']:,}까지"
    assert text == want  # the engine logs "p1 레이즈 80까지" (tests/engine/test_table_reading.py)




def test_an_indian_penalty_is_not_counted_in_the_pot(static_page: Any) -> None:
    """A 10 folded in Indian poker pays its penalty to the winner apart from the pot (poker.md §5.4.7): the
    banner read "민수 +160 · 판돈 190" beside the centre's "판돈 90". The pot figure is the pot's; the penalty
    has its own line, and the net adds both (90 + 100 − 30 of mine)."""
    page = harness(static_page, "indian_betting")
    v = load("indian_betting")
    v.update(phase="handEnd", toAct=None, deadlineAt=None, potTotal=90, currentBet=0,
             pots=[{"amount": 90, "eligible": ["p1", "p2", "p3"]}],
             awards=[{"potIndex": 0, "to": "p1", "amount": 90, "side": None, "hand": None, "why": None},
                     {"potIndex": -1, "to": "p1", "amount": 100, "side": None}],
             penalties=[{"from": "p2", "amount": 100}], handNet={"p1": 160, "p2": -130, "p3": -30})
    v["me"]["legalActions"] = [{"type": "ready"}]
    render(page, v)
    winner = page.locator("[data-testid=winner-line]").inner_text()
    assert winner.startswith("민수 +160") and winner.endswith("판돈 90"), winner
    assert "지수 10 다이 벌칙 100" in page.locator("[data-testid=hand-result]").inner_text()
    assert page.locator("[data-testid=pot]").inner_text().replace("\n", " ").endswith("90")


@pytest.mark.parametrize("side", ["high", "low", "swing"])
def test_my_hi_lo_hand_at_the_end_names_the_side_i_declared(static_page: Any, side: str) -> None:
    """7 Poker Hi-Lo: the line over my cards at the hand's end names the hand I competed with, as my seat's
    label does for the others: 하이 declared, my high alone ("A탑 / 로우 6탑" read as if my low played too);
    로우, my low alone; 스윙, both."""
    page = harness(static_page, "seven_six_player", {"width": 360, "height": 740})
    v = crowd_view("sevenHiLo", 4, "handEnd")
    me = v["me"]["id"]
    for seat in v["seats"]:
        seat["declare"] = side
    v["me"]["declare"] = side
    for sd in v["showdown"]:
        sd.update(handName="원페어", rankName="7 원페어", lowName="J탑")
    render(page, v)
    text = page.locator("[data-testid=hand-name]").inner_text()
    want = {"high": "7 원페어", "low": "로우 J탑", "swing": "7 원페어 / 로우 J탑"}[side]
    assert text == want, (me, side, text)


PAST_ITEM_JS = """async ([hand, myId]) => {
  const m = await import('/static/history.js');
  const el = m.pastHandsView([hand], { names: { me: '민수', p2: '봇 1' }, myId, currentGame: 1 });
  document.body.append(el);
  const item = el.querySelector('[data-testid=past-hand]');
  const ids = (sel) => [...item.querySelectorAll(`${sel} [data-card-id]`)]
    .map((c) => Number(c.dataset.cardId));
  const rows = [...item.querySelectorAll('[data-testid=past-showdown] .ph-row')]
    .map((r) => r.innerText.trim());
  const out = { all: ids(''), mine: ids('[data-testid=past-mine]'), rows, text: item.innerText };
  el.remove();
  return out;
}"""


def _cards(*ids: int) -> list[dict[str, Any]]:
    return [{"id": i, "rank": i % 13 + 2, "suit": "SHDC"[i // 13]} for i in ids]


@pytest.mark.parametrize("case", ["draw", "seven", "alone"])
def test_a_past_hand_shows_my_cards_once(static_page: Any, case: str) -> None:
    """기록 → 지난 판: my hand was listed twice when I went to the showdown, once as 내 카드 (with its name
    and my net) and again as the showdown's "나" row with the very same cards (five of them in a draw game).
    The showdown lists the others then; my row stays where it says more (7 Poker: 내 카드 holds my discarded
    card too), and a hand where I alone showed is not called one without a showdown."""
    page = harness(static_page, "holdem_raise")
    mine = _cards(0, 14, 28, 42, 5, 6, 7, 8) if case == "seven" else _cards(0, 14, 28, 42, 5)
    theirs = _cards(20, 33, 46, 11, 24)
    showdown = [{"id": "me", "cards": mine[:7], "handName": "에이스 하이"}]
    if case != "alone":
        showdown.append({"id": "p2", "cards": theirs, "handName": "9 트리플"})
    hand = {"handNo": 2, "gameNo": 1, "mode": "fiveDraw", "seq": 0, "board": [], "mine": mine,
            "mineName": "에이스 하이", "showdown": showdown,
            "awards": [{"to": "me" if case == "alone" else "p2", "amount": 120}],
            "startingStacks": {"me": 1000, "p2": 1000}, "finishingStacks": {"me": 970, "p2": 1090},
            "actions": []}
    got = page.evaluate(PAST_ITEM_JS, [hand, "me"])
    assert got["mine"] == [c["id"] for c in mine], got
    assert "에이스 하이" in got["text"] and "−30칩" in got["text"], got["text"]
    assert "한 명만 남았어요" not in got["text"], got["text"]
    if case == "seven":  # 내 카드 holds a card the showdown does not: both rows stay
        assert [r.split()[0] for r in got["rows"]] == ["나", "봇"], got["rows"]
    else:
        listed = [*mine, *(theirs if case == "draw" else [])]
        assert sorted(got["all"]) == sorted(c["id"] for c in listed), got
        assert not any(r.startswith("나") for r in got["rows"]), got["rows"]
    if case != "alone":
        assert any(r.startswith("봇 1") and "9 트리플" in r for r in got["rows"]), got["rows"]


#: my hand's name and the top of my raised best cards' outline (3 px round the card, style.css ``used-best``)
NAME_OVER_BEST = """() => {
  const name = document.querySelector('[data-testid=hand-name]').getBoundingClientRect();
  const best = [...document.querySelectorAll('.my-cards .card.used-best')]
    .map((e) => e.getBoundingClientRect().top - 3);
  return { name: name.bottom, best: Math.min(...best), n: best.length };
}"""


@pytest.mark.parametrize("size", [{"width": 320, "height": 568}, {"width": 360, "height": 740},
                                  {"width": 390, "height": 844}, {"width": 1280, "height": 610}],
                         ids=["320x568", "360x740", "390x844", "1280x610"])
def test_my_raised_best_cards_leave_my_hand_name_whole(static_page: Any, size: dict[str, int]) -> None:
    """At a hand's end my best cards rise with an outline under my hand's name; on a short screen (my cards
    10 px under the name, not 16) the rise and its outline reached 5 px into the name, over an English
    name's descenders ("K straight"). A short screen raises them less."""
    page = harness(static_page, "holdem_showdown", size)
    got = page.evaluate(NAME_OVER_BEST)
    assert got["n"] == 2 and got["best"] >= got["name"] - 0.5, got  # (the board holds the other three)


def test_a_past_hands_lines_name_each_street(static_page: Any) -> None:
    """A past hand's steps say which street each board card or 7 Poker open card opened, as the live log does
    ("플랍 …", "턴 …", "5구: p1 K♠, p2 9◆", "7구: 히든 카드 한 장씩"), where every board read "보드" and a 7
    Poker street had no line at all."""
    page = harness(static_page, "holdem_raise")

    def card(rank: int, suit: str) -> dict[str, Any]:
        return {"id": "SDHC".index(suit) * 13 + rank - 2, "rank": rank, "suit": suit}

    said = page.evaluate("""async (events) => {
      const m = await import('/static/history.js');
      return events.map((e) => m.stepText(e, (id) => id));
    }""", [
        {"type": "board", "street": 1, "cards": [card(13, "C"), card(2, "H"), card(9, "D")]},
        {"type": "board", "street": 2, "cards": [card(7, "S")]},
        {"type": "board", "street": 3, "cards": [card(3, "D")]},
        {"type": "board", "street": 3, "run": 2, "cards": [card(4, "D")]},
        {"type": "street", "streetName": "5구", "up": {"p1": [card(13, "S")], "p2": [card(9, "D")]}},
        {"type": "street", "streetName": "7구", "up": {}},
    ])
    assert said[3].startswith("두 번째 보드 "), said
    assert [s.split(" ")[0] for s in said[:3]] == ["플랍", "턴", "리버"], said
    assert said[4] == "5구: p1 K♠, p2 9◆" and said[5] == "7구: 히든 카드 한 장씩", said
