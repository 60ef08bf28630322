"""A whole night in one room, on phones of 390×844: the host (민수), two friends (지수, 영희) and a bot play
three games of hold'em with the time bank on. In the first game 영희 goes all-in and busts and takes chips
again (a rebuy); in the next hand a friend lets the turn's clock run out, so their time bank runs on every
phone, and the host pauses the game right then for 30 s of server time (no clock moves: no version, no
deadline, no bank second) and sets the next hand's base unit; after the resume the friend acts and keeps the
bank's unused seconds; the next hand is dealt at the new base unit, during which the host ends the game. Two
more short games follow (한 판 더, then 게임 끝내기). Then a hand of the night is replayed and its link shared
with a friend, whose phone opens the same hand; and the ledger is downloaded: its nets sum to zero, and every
money figure on the screens (the result tables of each game, the 장부 dialog) equals the ledger's.

The server is the real one with the stacked deck of tests/web/money_engine.py (only the first hand of a
game is stacked: the bust) and a clock five times as fast as the wall's (``--time-scale 0.2``: the pause's
30 s take 6 real seconds, a 15 s turn 3).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from night_steps import (
    bust_yeonghui,
    check_down,
    close_ledger,
    end_game,
    fold_to_the_blind,
    ledger_csv,
    nets_of,
    pause_game,
    play_hand,
    read_ledger,
    resume_game,
    set_base_unit,
    signed,
    stacked_serve,
)
from webplay import (
    MOBILE,
    _click_and_wait,
    create_room_ui,
    join_ui,
    shot,
    version,
    view,
    wait_members,
    wait_table,
)

from serving import ServeProcess

pytestmark = pytest.mark.browser

SCALE = 0.2  # game seconds per real second: 1 / SCALE
HUMANS = ("민수", "지수", "영희")


@pytest.fixture
def night_server(tmp_path: Path) -> Iterator[ServeProcess]:
    srv = stacked_serve(tmp_path / "data", SCALE, "--bot-delay-ms", "1000")
    yield srv
    srv.stop()


def result_rows(page: Any) -> dict[str, dict[str, int]]:
    """The result table as shown, by nickname: final chips, net (손익), rebuys (its column is shown only where
    someone rebought: 0 without it)."""
    page.wait_for_selector("[data-testid=result]")
    rows = page.evaluate("""() => [...document.querySelectorAll('.result tbody tr')].map((tr) =>
      Object.fromEntries([...tr.children].map((td) => [td.dataset.col, td.innerText.trim()])))""")
    return {row["name"]: {"chips": signed(row["chips"]), "net": signed(row["net"]),
                          "rebuys": int(row.get("rebuys", "0"))} for row in rows}


def result_heads(page: Any) -> list[str]:
    """The result table's column titles."""
    heads: list[str] = page.eval_on_selector_all(".result thead th",
                                                 "els => els.map((e) => e.innerText.trim())")
    return heads


def finish_game(pages: dict[str, Any], hand_no: int, rule: Any) -> dict[str, dict[str, int]]:
    """The hand in play is played out by ``rule``; every phone shows the same result. Returns it."""
    play_hand(pages, hand_no, rule)
    tables = [result_rows(page) for page in pages.values()]
    assert all(t == tables[0] for t in tables), tables
    return tables[0]


def check_against_ledger(page: Any, result: dict[str, dict[str, int]], before: dict[str, int],
                         hands: int) -> dict[str, int]:
    """The 장부 dialog after a game: each final chip count of the result screen is its 지금 칩, each 손익 of
    the game is what the ledger's net moved by, and the nets sum to zero. Returns the ledger's nets."""
    ledger = read_ledger(page, hands)
    close_ledger(page)
    nets = nets_of(ledger)
    assert sum(nets.values()) == 0, nets
    for who, row in result.items():
        assert signed(ledger[who]["stack"].split("\n")[0]) == row["chips"], (who, ledger[who], row)
        assert nets[who] - before.get(who, 0) == row["net"], (who, nets, before, row)
    return nets


def test_a_whole_night(night_server: ServeProcess, open_page: Any) -> None:
    base = night_server.http
    pages = {name: open_page(name, MOBILE) for name in HUMANS}
    a, b, c = pages["민수"], pages["지수"], pages["영희"]
    code = create_room_ui(a, base, "민수", "holdem", turnSeconds=15, timeBank=30, timeBankEvery=5)
    join_ui(b, base, code, "지수")
    join_ui(c, base, code, "영희")
    wait_members(a, 3)
    a.click("[data-testid=add-bot]")
    wait_members(a, 4)
    a.click("[data-testid=start]")
    for page in pages.values():
        wait_table(page)
    names = {p["id"]: p["nickname"] for p in a.evaluate("() => window.__room.lobby.players")}
    assert [names[f"p{i}"] for i in (1, 2, 3)] == list(HUMANS)  # the stacked deck deals by these ids
    bot = names["p4"]

    # ---- game 1, hand 1: 영희 all-in with nothing, 지수's kings call: 영희 busts and takes chips again
    play_hand(pages, 1, bust_yeonghui)
    a.wait_for_function("() => window.__room.ledger && window.__room.ledger.handsPlayed === 1")
    hand1 = {r["nickname"]: r["net"] for r in a.evaluate("() => window.__room.ledger.rows")}
    assert hand1["영희"] == -1000 and hand1["지수"] >= 1000 and sum(hand1.values()) == 0, hand1
    c.wait_for_selector("[data-action=rebuy-yes]", timeout=10000)
    _click_and_wait(c, "[data-action=rebuy-yes]", version(c))
    c.wait_for_function("() => window.__room.ledger.rows.some((r) => r.nickname === '영희' && r.rebuys)")

    # ---- hand 2: the first friend to act lets the 15 s run out: their bank runs on every phone
    play_hand(pages, 2, check_down, until=lambda v: v.get("handNo") == 2 and v.get("phase") == "betting"
              and v.get("toAct") in ("p1", "p2", "p3"))
    staller = names[(view(a) or {})["toAct"]]
    sp = pages[staller]
    pid = next(k for k, v in names.items() if v == staller)
    for page in pages.values():
        page.wait_for_function("(id) => window.__room.view.seats.some((s) => s.id === id && s.timeBankInUse)",
                               arg=pid, timeout=10000)
    sp.wait_for_selector("[data-testid=me-area] [data-testid=time-bank].on")
    # ---- the host pauses right then, for 30 s of server time: nothing moves, the bank neither
    pause_game(a, list(pages.values()))
    set_base_unit(a, 20)  # the next hand's stakes, told to everyone at once
    b.wait_for_function("() => (window.__room.view.nextStakes || {}).baseUnit === 20")
    frozen = {name: (version(p), (view(p) or {})["deadlineAt"]) for name, p in pages.items()}
    shot(sp, "night-paused-bank-390x844")
    mine = sp.locator("[data-testid=me-area] [data-testid=time-bank]")
    paused_label = mine.get_attribute("aria-label")
    # the bank ran from the turn's end until the pause (a second or more on a loaded machine), then stopped
    assert re.fullmatch(r"타임뱅크 (30|[12][0-9])초 쓰는 중", paused_label or ""), paused_label
    a.wait_for_timeout(30_000 * SCALE)
    for name, p in pages.items():
        assert (version(p), (view(p) or {})["deadlineAt"]) == frozen[name], name  # no clock moved
    assert mine.get_attribute("aria-label") == paused_label  # 30 s of pause took nothing from it
    resume_game(a, list(pages.values()))
    sp.wait_for_function("(d) => window.__room.view.deadlineAt >= d + 30000", arg=frozen[staller][1])
    legal = {x["type"] for x in (view(sp) or {})["me"]["legalActions"]}
    _click_and_wait(sp, f"[data-action='{check_down(staller, legal)}']", version(sp))
    left = next(s for s in (view(a) or {})["seats"] if s["id"] == pid)["timeBank"]
    assert 0 < left < 30, left  # the bank's unused seconds stay (the pause took none)
    for page in pages.values():
        if page is not sp:
            page.wait_for_function("([id, n]) => document.querySelector(`.seat[data-seat-id='${id}'] "
                                   "[data-testid=time-bank]`)?.textContent === String(n)", arg=[pid, left])
    log = [e["text"] for e in (view(a) or {})["publicLog"]]
    # what the bank held when this turn's clock ran out ("타임뱅크 사용 (30초)"; less where a slow machine let
    # an earlier turn of this player's run out too): the seconds used are counted from it
    held = int(re.findall(rf"{pid} 타임뱅크 사용 \((\d+)초\)", "\n".join(log))[-1])
    assert 0 < left < held <= 30, (left, held)
    assert any(f"{pid} 타임뱅크 {held - left}초 씀 (남은 {left}초)" in t for t in log), log[-5:]
    assert (view(a) or {})["baseUnit"] == 10  # the hand in play keeps its stakes
    play_hand(pages, 2, check_down)

    # ---- hand 3 is dealt at the new base unit; the host ends the game during it
    for page in pages.values():
        page.wait_for_function("() => window.__room.view.handNo === 3")
        assert "기본 20" in page.locator("[data-testid=phase-line]").inner_text()
    assert (view(a) or {})["baseUnit"] == 20 and "nextStakes" not in (view(a) or {})
    shot(b, "night-new-blinds-390x844")
    end_game(a)
    game1 = finish_game(pages, 3, fold_to_the_blind)
    assert game1["영희"]["rebuys"] == 1
    # 점수 is the chips less the rebuys' here
    assert result_heads(a) == ["순위", "닉네임", "점수", "최종 칩", "손익", "리바이"]
    shot(a, "night-result-game1-390x844")
    nets = check_against_ledger(a, game1, {}, 3)

    # ---- games 2 and 3: 한 판 더, and the host ends each during its first hand
    for game in (2, 3):
        a.click("[data-testid=again]")
        for page in pages.values():
            page.wait_for_function("(g) => window.__room.lobby.gameNo === g && window.__room.view"
                                   " && window.__room.view.phase !== 'finished'", arg=game)
            wait_table(page)
        end_game(a)
        result = finish_game(pages, 1, fold_to_the_blind)
        nets = check_against_ledger(pages[HUMANS[game - 1]], result, nets, 1)
        # no rebuy in this game: each score is the final chips, each rebuy count 0; neither column repeats
        assert result_heads(a) == ["순위", "닉네임", "최종 칩", "손익"]
    shot(c, "night-result-game3-390x844")

    # ---- a hand of the night replayed (the bust), its link shared: 지수's phone opens the same hand
    a.context.grant_permissions(["clipboard-read", "clipboard-write"])
    a.click("#btn-log")
    a.click("[data-testid=tab-past]")
    a.wait_for_selector("[data-testid=past-hand][data-seq='1']")
    a.click("[data-testid=past-hand][data-seq='1'] [data-testid=replay-open]")
    a.wait_for_selector("[data-testid=replay-caption]")
    assert a.inner_text("#replay-title") == "1판 다시 보기" and "1번째 게임" in a.inner_text(".replay-sub")
    a.click("[data-testid=replay-link]")
    a.wait_for_selector("[data-testid=toast]")
    link = a.evaluate("() => navigator.clipboard.readText()")
    assert link.endswith(f"/r/{code}?hand=1"), link
    b.goto(link)
    b.wait_for_selector("[data-testid=replay-caption]")
    assert b.inner_text("#replay-title") == "1판 다시 보기"
    to_end = "e => { e.value = e.max; e.dispatchEvent(new Event('input')); }"
    for page, me in ((a, "민수"), (b, "지수")):
        page.eval_on_selector("[data-testid=replay-slider]", to_end)
        # the hand's figures in the replay are the ledger's for that hand: 지수's net, not the pot
        assert page.inner_text("[data-testid=replay-caption]") == f"결과 · 지수 +{hand1['지수']:,}"
        shown = page.locator("#dlg-replay [data-testid=hand-net]").all_inner_texts()
        figures = {t.rsplit(" ", 1)[0].replace("나", me): signed(t.rsplit(" ", 1)[1]) for t in shown}
        assert figures == {k: v for k, v in hand1.items() if k in figures} and "지수" in figures, figures
    shot(b, "night-replay-shared-390x844")
    a.click("[data-testid=replay-close]")
    a.click("#dlg-log [data-close]")

    # ---- the ledger downloaded: the nets sum to zero and equal every figure shown
    body = ledger_csv(a, code)
    assert {r[0]: int(r[7]) for r in body} == nets
    assert {r[0]: int(r[1]) for r in body} == {**{n: 3 for n in HUMANS}, bot: 3}
    assert {r[0]: int(r[3]) for r in body}["영희"] == 1
    assert {r[0]: int(r[6]) for r in body} == {who: row["chips"] for who, row in result.items()}
