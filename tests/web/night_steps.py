"""Steps of a night at the table that several browser tests take: the stacked-deck server at a chosen clock
speed, playing a hand by a rule per player, reading the 장부 dialog and its CSV, and the host's live controls
(pause, resume, the next hand's stakes, ending the game).

Why a module: test_money.py (the night's numbers on three phones), test_host_live.py (the host's menu) and
test_whole_night.py (a whole night end to end) take the same steps; each is written once, here, the way a
person does it: through the page's buttons, reading what the page shows.
"""

from __future__ import annotations

import csv
import io
import os
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from webplay import _click_and_wait, view

from serving import ServeProcess

ROOT = Path(__file__).resolve().parents[2]


def stacked_serve(data: Path, time_scale: float, *extra: str) -> ServeProcess:
    """This checkout's server (its own ``src`` first on the path) with the stacked engine
    (tests/web/money_engine.py) and a clock ``1 / time_scale`` times as fast as the wall's."""
    path = os.pathsep.join([str(ROOT / "src"), str(ROOT / "tests" / "web"), os.environ.get("PYTHONPATH", "")])
    return ServeProcess(data, "--host", "127.0.0.1", "--rooms-per-address", "0",
                        "--room-creations-per-minute", "0", "--connections-per-address", "0",
                        "--engine", "money_engine:factory", "--time-scale", str(time_scale), *extra,
                        env={"PYTHONPATH": path}).up()


def signed(text: str) -> int:
    """A figure as the screen writes it: "+1,020", "−480" (a real minus), "±0", "0칩"."""
    m = re.fullmatch(r"([+−-]?)([\d,]+)칩?", text.strip().replace("±", ""))
    assert m, f"not a signed figure: {text!r}"
    value = int(m.group(2).replace(",", ""))
    return -value if m.group(1) in ("−", "-") else value


def read_ledger(page: Any, hands: int | None = None) -> dict[str, dict[str, str]]:
    """The 장부 dialog as shown, by nickname (the dialog is left open: :func:`close_ledger`). ``hands``: wait
    until the ledger counts that many hands (its frame follows the view that ended the hand)."""
    if hands is not None:
        page.wait_for_function("(n) => window.__room.ledger && window.__room.ledger.handsPlayed === n",
                               arg=hands)
    page.click("[data-testid=open-ledger]")
    page.wait_for_selector("#dlg-ledger[open] [data-testid=ledger]")
    rows = page.evaluate("""() => [...document.querySelectorAll('#dlg-ledger [data-testid=ledger-row]')]
      .map((tr) => [...tr.children].map((td) => td.innerText.trim()))""")
    out = {}
    for who, buy_in, rebuys, stack, net in rows:
        out[who.replace("(나)", "").strip()] = {"buyIn": buy_in, "rebuys": rebuys, "stack": stack, "net": net}
    return out


def close_ledger(page: Any) -> None:
    page.click("#dlg-ledger [data-close]")
    page.wait_for_selector("#dlg-ledger[open]", state="detached")


def nets_of(ledger: dict[str, dict[str, str]]) -> dict[str, int]:
    return {name: signed(row["net"]) for name, row in ledger.items()}


def ledger_csv(page: Any, code: str) -> list[list[str]]:
    """The 장부's CSV download (the dialog opened, downloaded, closed), checked as a sheet: named for the
    room, UTF-8 with a BOM (a spreadsheet reads the Korean), each net = closed + stack − buy-in − rebuy chips,
    the 합계 row the column sums with nets summing to zero. Returns its body rows (header and total off)."""
    with page.expect_download() as info:
        page.click("[data-testid=open-ledger]")
        page.click("#dlg-ledger [data-testid=ledger-csv]")
    download = info.value
    assert download.suggested_filename == f"장부-{code}.csv"
    text = Path(download.path()).read_bytes().decode("utf-8")
    assert text.startswith("\ufeff")
    table = list(csv.reader(io.StringIO(text.lstrip("\ufeff"))))
    assert table[0] == ["닉네임", "게임 수", "바이인", "리바이 횟수", "리바이 칩", "지난 게임에서 끝낸 칩",
                        "지금 칩", "손익"]
    body, total = table[1:-1], table[-1]
    assert total[0] == "합계" and int(total[7]) == 0 == sum(int(r[7]) for r in body)
    for r in body:
        assert int(r[7]) == int(r[5]) + int(r[6]) - int(r[2]) - int(r[4]), r
    for col in (2, 4, 5, 6):
        assert int(total[col]) == sum(int(r[col]) for r in body), col
    close_ledger(page)
    return body


def fits(page: Any, selector: str) -> list[str]:
    """What of ``selector`` sticks out of the viewport or scrolls sideways."""
    return list(page.evaluate("""(sel) => {
      const out = [];
      for (const el of document.querySelectorAll(sel)) {
        const r = el.getBoundingClientRect();
        if (r.left < -0.5 || r.right > window.innerWidth + 0.5) out.push(`${sel} ${r.left}..${r.right}`);
        if (el.scrollWidth > el.clientWidth + 1) out.push(`${sel} scrolls: ${el.scrollWidth}`);
      }
      if (document.documentElement.scrollWidth > window.innerWidth) out.push('page scrolls sideways');
      return out; }""", selector))


Rule = Callable[[str, set[str]], str]


def play_hand(pages: dict[str, Any], hand_no: int, rule: Rule, timeout: float = 90.0,
              until: Callable[[dict[str, Any]], bool] | None = None) -> None:
    """Each player, on their turn, clicks what ``rule(nickname, legal types)`` says, until the hand ends (or
    ``until(view)`` holds first)."""
    end = time.monotonic() + timeout
    first = next(iter(pages.values()))
    while time.monotonic() < end:
        v = view(first) or {}
        if until is not None and until(v):
            return
        if (v.get("handNo") == hand_no and v.get("phase") in ("handEnd", "rebuy", "finished")) \
                or (v.get("handNo") or 0) > hand_no:
            return
        acted = False
        for name, page in pages.items():
            v = view(page) or {}
            me = v.get("me") or {}
            types = {a["type"] for a in me.get("legalActions") or []}
            if v.get("handNo") == hand_no and v.get("phase") == "betting" and v.get("toAct") == me.get("id") \
                    and types:
                _click_and_wait(page, f"[data-action='{rule(name, types)}']", int(page.evaluate(
                    "() => window.__room.conn.version")))
                acted = True
        if not acted:
            first.wait_for_timeout(50)
    raise AssertionError(f"hand {hand_no} did not end")


def next_hand(pages: dict[str, Any]) -> None:
    """Everyone presses 다음 판 (those who still have it)."""
    for page in pages.values():
        button = page.locator("[data-action=ready]")
        if button.count() and button.first.is_enabled():
            button.first.click()


def check_down(name: str, types: set[str]) -> str:
    return "nl.check" if "nl.check" in types else "nl.call"


def bust_yeonghui(name: str, types: set[str]) -> str:
    """영희 goes all-in, 지수 calls her, 민수 lets them (the stacked deck makes 지수's kings win)."""
    if name == "영희":
        return "nl.allIn"
    if name == "민수":
        return "nl.fold" if "nl.call" in types else "nl.check"
    return "nl.call" if "nl.call" in types else "nl.check"


def fold_to_the_blind(name: str, types: set[str]) -> str:
    return "nl.check" if "nl.check" in types else "nl.fold"


# ---------------------------------------------------------------------------------------------------------
# the host's live controls (방장 menu, hostlive.js)


def pause_game(host: Any, pages: list[Any]) -> None:
    """방장 → 일시 정지; every page shows the pause banner naming who paused."""
    host.click("#btn-host")
    host.click("[data-testid=host-pause]")
    for page in pages:
        banner = page.locator("[data-testid=pause-banner]")
        banner.wait_for()
        assert "일시 정지" in banner.inner_text()


def resume_game(host: Any, pages: list[Any]) -> None:
    """다시 시작 on the host's banner; the banner leaves every page."""
    host.click("[data-testid=pause-resume]")
    for page in pages:
        page.locator("[data-testid=pause-banner]").wait_for(state="detached")


def set_base_unit(host: Any, base_unit: int) -> None:
    """방장 → the next hand's base unit → 다음 판부터 적용."""
    host.click("#btn-host")
    host.click(f"#dlg-host input[data-stake=baseUnit][value='{base_unit}'] + span")
    host.click("[data-testid=stakes-apply]")


def end_game(host: Any) -> None:
    """방장 → 게임 끝내기, confirmed: the hand in play is played out, then the result."""
    host.click("#btn-host")
    host.click("[data-testid=host-end]")
    assert "게임을 지금 끝낼까요?" in host.locator("#dlg-confirm-text").inner_text()
    host.click("#dlg-confirm-yes")
