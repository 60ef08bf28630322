"""The night's numbers as a player reads them: three friends play hold'em on phones of 390×844, 360×740 and
320×568, a spectator watches on 390×844, and every figure is read off the screen — the hand banner after a
win, a loss, a split pot, the hand that busts a player, that player's rebuy, the result screen after the
game and the 장부 dialog all along — and checked against each other and against the ledger's CSV download.

The server is the real one (``pokerroom serve``) with the real engine; only the deck of the first three hands
is stacked (tests/web/money_engine.py), so that the split pot and the bust happen when the test needs them.
Its clock runs three times slower (``--time-scale 3``: a hand's end shows for 12 s, not 4), so reading three
pages never races the next hand; the players press 다음 판 once the numbers are read.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from night_steps import (
    bust_yeonghui,
    check_down,
    close_ledger,
    fits,
    fold_to_the_blind,
    ledger_csv,
    nets_of,
    next_hand,
    play_hand,
    read_ledger,
    signed,
    stacked_serve,
)
from webplay import (
    MOBILE,
    _click_and_wait,
    create_room_ui,
    join_ui,
    shot,
    spectate_ui,
    wait_members,
    wait_table,
)

from serving import ServeProcess

pytestmark = pytest.mark.browser

SIZES = {"민수": MOBILE, "지수": {"width": 360, "height": 740}, "영희": {"width": 320, "height": 568}}


@pytest.fixture
def stacked_server(tmp_path: Path) -> Iterator[ServeProcess]:
    """This checkout's server, the stacked engine, a 3x slower clock."""
    srv = stacked_serve(tmp_path / "data", 3)
    yield srv
    srv.stop()


def banner_nets(page: Any, me: str) -> dict[str, int]:
    """Every net the hand banner shows on this page, by nickname ("나" is this page's player)."""
    page.wait_for_selector("[data-testid=hand-result]")
    out: dict[str, int] = {}
    for text in page.locator("[data-testid=hand-result] [data-testid=hand-net]").all_inner_texts():
        name, figure = text.rsplit(" ", 1)
        out[me if name == "나" else name] = signed(figure)
    return out


def test_a_nights_numbers_on_three_phones(stacked_server: ServeProcess, open_page: Any) -> None:
    base = stacked_server.http
    pages = {name: open_page(name, size) for name, size in SIZES.items()}
    a, b, c = pages["민수"], pages["지수"], pages["영희"]
    code = create_room_ui(a, base, "민수", "holdem", startingChips=500, handLimit=10)
    join_ui(b, base, code, "지수")
    join_ui(c, base, code, "영희")
    watcher = open_page("관전", MOBILE)
    spectate_ui(watcher, base, code)
    wait_members(a, 3)
    assert a.locator("#btn-ledger").is_hidden()  # no game yet, no ledger
    a.click("[data-testid=start]")
    for page in (*pages.values(), watcher):
        wait_table(page)
    assert a.evaluate("() => window.__room.playerId") == "p1"  # the stacked deck deals by these ids

    before = nets_of(read_ledger(watcher, 0))
    close_ledger(watcher)
    assert before == {"민수": 0, "지수": 0, "영희": 0}

    # ---- hand 1: a win and two losses (everyone checks or calls to the river: 10 each, aces win 30)
    play_hand(pages, 1, check_down)
    seen = {name: banner_nets(page, name) for name, page in pages.items()}
    assert seen["민수"] == {"민수": 20}, seen  # the winner sees the net, never the pot (30)
    assert seen["지수"] == {"민수": 20, "지수": -10} and seen["영희"] == {"민수": 20, "영희": -10}, seen
    banner = a.locator("[data-testid=hand-result] [data-testid=winner-line]").inner_text()
    assert banner.startswith("민수 +20 · ") and banner.endswith("판돈 30"), banner
    assert b.locator("[data-testid=my-net]").inner_text() == "나 −10"
    for name, page in pages.items():
        assert not fits(page, "[data-testid=hand-result]"), name
        size = f"{SIZES[name]['width']}x{SIZES[name]['height']}"
        shot(page, f"money-hand1-{'win' if name == '민수' else 'loss'}-{size}")
    ledger = read_ledger(a, 1)
    shot(a, "money-ledger-after-hand1-390x844")
    close_ledger(a)
    after = nets_of(ledger)
    assert after == {"민수": 20, "지수": -10, "영희": -10}
    assert {k: after[k] - before[k] for k in after} == {"민수": 20, "지수": -10, "영희": -10}
    next_hand(pages)

    # ---- hand 2: a split pot (both straights), the nines lose
    play_hand(pages, 2, check_down)
    seen = {name: banner_nets(page, name) for name, page in pages.items()}
    assert seen["민수"] == {"민수": 5, "지수": 5} == seen["지수"], seen
    assert seen["영희"] == {"민수": 5, "지수": 5, "영희": -10}, seen
    lines = a.locator("[data-testid=hand-result] [data-testid=winner-line]").all_inner_texts()
    assert len(lines) == 2 and all(line.endswith("판돈 30 중 15") for line in lines), lines
    assert sorted(line.split(" · ")[0] for line in lines) == ["민수 +5", "지수 +5"], lines  # each half: +5
    for name, page in pages.items():
        assert not fits(page, "[data-testid=hand-result]"), name
        shot(page, f"money-hand2-split-{SIZES[name]['width']}x{SIZES[name]['height']}")
    before, after = after, nets_of(read_ledger(b, 2))
    close_ledger(b)
    assert {k: after[k] - before[k] for k in after} == {"민수": 5, "지수": 5, "영희": -10}
    next_hand(pages)

    # ---- hand 3: 영희 all-in with nothing, 지수's kings call, 민수 folds (his blind, if any, is lost)
    play_hand(pages, 3, bust_yeonghui)
    seen = {name: banner_nets(page, name) for name, page in pages.items()}
    union = {**seen["민수"], **seen["지수"], **seen["영희"]}
    assert union["영희"] == -480 and union["지수"] >= 480 and sum(union.values()) == 0, seen
    assert c.locator("[data-testid=my-net]").inner_text() == "나 −480"
    shot(c, "money-hand3-bust-320x568")
    before, after = after, nets_of(read_ledger(c, 3))
    close_ledger(c)
    moved = {k: after[k] - before[k] for k in after if after[k] != before[k]}
    assert moved == union, (moved, union)
    next_hand(pages)

    # ---- the rebuy: 영희 takes 500 chips again; nobody's net moves, her rebuy shows in the ledger
    c.wait_for_selector("[data-action=rebuy-yes]")
    shot(c, "money-rebuy-320x568")
    _click_and_wait(c, "[data-action=rebuy-yes]", int(c.evaluate("() => window.__room.conn.version")))
    c.wait_for_function("() => window.__room.ledger.rows.some((r) => r.rebuys === 1)")
    for name, page in pages.items():
        ledger = read_ledger(page, 3)
        assert nets_of(ledger) == after
        want = {"buyIn": "500", "rebuys": "1회\n500", "stack": "500", "net": "\u2212500칩"}
        assert ledger["영희"] == want, ledger
        assert not fits(page, "#dlg-ledger .ledger-scroll"), name
        shot(page, f"money-ledger-after-rebuy-{SIZES[name]['width']}x{SIZES[name]['height']}")
        close_ledger(page)
    assert nets_of(read_ledger(watcher, 3)) == after  # the spectator's ledger is the same
    close_ledger(watcher)

    # ---- hands 4-10: everyone folds to the big blind; each banner still agrees with the ledger
    for hand_no in range(4, 11):
        play_hand(pages, hand_no, fold_to_the_blind)
        shown = {}
        for name, page in pages.items():
            shown.update(banner_nets(page, name))
        a.wait_for_function("(n) => window.__room.ledger.handsPlayed === n", arg=hand_no)
        now = {r["nickname"]: r["net"] for r in a.evaluate("() => window.__room.ledger.rows")}
        assert {k: now[k] - after[k] for k in now if now[k] != after[k]} == shown, (hand_no, shown)
        after = now
        next_hand(pages)

    # ---- the result: the headline names the winner's net (손익), the score keeps its own column, no "+"
    for page in pages.values():
        page.wait_for_selector("[data-testid=result]")
    final = nets_of(read_ledger(a, 10))
    close_ledger(a)
    assert final == after and sum(final.values()) == 0
    top = max(final, key=lambda k: final[k])
    for name, page in pages.items():
        headline = page.locator(".result .summary").inner_text()
        assert headline == f"10판 종료. 1위 {top}(손익 +{final[top]:,}칩)", headline  # (the top net is > 0)
        rows = page.evaluate("""() => [...document.querySelectorAll('.result tbody tr')].map((tr) =>
          [...tr.children].map((td) => td.innerText.trim()))""")
        for _rank, who, score, chips, net, _rebuys in rows:
            assert signed(net) == final[who], (who, net)
            rebought = 500 if who == "영희" else 0
            assert not score.startswith("+") and signed(chips) == signed(score) + rebought
        assert not fits(page, ".result table"), name
        shot(page, f"money-result-{SIZES[name]['width']}x{SIZES[name]['height']}")

    # ---- 기록 opens on the public log with its newest line in view (the log outgrew the dialog by now)
    a.click("#btn-log")
    a.locator("#dlg-log[open]").wait_for()
    seen = a.evaluate("""() => {
      const dlg = document.getElementById('dlg-log'), body = dlg.querySelector('.dlg-body');
      const last = document.querySelector('#log-body li:last-child').getBoundingClientRect();
      const box = dlg.getBoundingClientRect(); // (the dialog scrolls; its body is as tall as the log)
      return { overflows: body.scrollHeight > body.clientHeight || dlg.scrollHeight > dlg.clientHeight,
               lastInView: last.top >= box.top - 0.5 && last.bottom <= box.bottom + 0.5 };
    }""")
    assert seen == {"overflows": True, "lastInView": True}, seen
    # ---- 기록 → 지난 판 names each winner's net too, not the pot collected
    a.click("[data-testid=tab-past]")
    a.wait_for_selector("[data-testid=past-hand][data-hand-no='2']")
    item = "[data-testid=past-hand][data-hand-no='{}'] [data-testid=past-winners]"
    past = {n: a.locator(item.format(n)).inner_text() for n in (1, 2, 3)}
    assert past[1] == "승리: 민수 +20칩", past
    assert sorted(past[2].removeprefix("승리: ").split(", ")) == ["민수 +5칩", "지수 +5칩"], past
    assert past[3].startswith("승리: 지수 +") and not past[3].endswith("+960칩"), past
    a.click("#dlg-log [data-close]")

    # ---- the CSV: the same rows as the dialog, the nets summing to zero
    body = ledger_csv(a, code)
    assert {r[0]: int(r[7]) for r in body} == final
    assert sum(int(r[6]) for r in body) == 1500 + 500  # every chip given: 3 buy-ins, 1 rebuy

    # ---- 한 판 더: a new game in the same room; the ledger carries the night on
    a.click("[data-testid=again]")
    for page in (*pages.values(), watcher):
        wait_table(page)
    watcher.wait_for_function("() => window.__room.ledger && window.__room.ledger.games === 2")
    ledger = read_ledger(watcher, 0)
    assert nets_of(ledger) == final
    assert all(row["stack"].startswith("500") and row["buyIn"] == "1,000" for row in ledger.values()), ledger
    # beside the new stack, the chips each ended the first game with: the net's arithmetic stays visible
    assert {name: row["stack"] for name, row in ledger.items()} == {
        name: f"500\n지난 게임 {500 + final[name] + (500 if name == '영희' else 0):,}" for name in final}
    assert "게임 2개 합계" in watcher.locator("#dlg-ledger [data-testid=ledger-scope]").inner_text()
    shot(watcher, "money-ledger-second-game-spectator-390x844")
    close_ledger(watcher)
