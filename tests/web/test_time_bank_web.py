"""The time bank on the seats (docs/decisions/0047-time-bank.md), played through the real server on phones
of 390×844, 360×740 and 320×568: the host turns it on in the create form (30 s, refilled every 5 hands), the
player to act lets the turn's 15 s run out, and every phone shows that seat's bank being spent (the yellow
pill and ring) instead of a timeout; the player then acts and every seat shows the seconds left.

The server's clock runs five times faster (``--time-scale 0.2``: the 15 s turn is 3 real seconds).
"""

from __future__ import annotations

from typing import Any

import pytest
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

SIZES = {"민수": MOBILE, "지수": {"width": 360, "height": 740}, "영희": {"width": 320, "height": 568}}


def pill(page: Any, pid: str) -> Any:
    return page.locator(f".seat[data-seat-id='{pid}'] [data-testid=time-bank]")


def outside(page: Any, selector: str) -> list[str]:
    """What of ``selector`` sticks out of the viewport."""
    return list(page.evaluate("""(sel) => [...document.querySelectorAll(sel)].map((el) => {
      const r = el.getBoundingClientRect();
      return r.left < -0.5 || r.right > innerWidth + 0.5 || r.top < -0.5 || r.bottom > innerHeight + 0.5
        ? `${sel} ${[r.left, r.top, r.right, r.bottom].map(Math.round).join(",")}` : null;
    }).filter(Boolean)""", selector))


def test_the_bank_is_spent_on_the_seat_then_the_seconds_left_show(fast_server: ServeProcess,
                                                                   open_page: Any) -> None:
    base = fast_server.http
    pages = {name: open_page(name, size) for name, size in SIZES.items()}
    host = pages["민수"]
    code = create_room_ui(host, base, "민수", "holdem", turnSeconds=15, timeBank=30, timeBankEvery=5)
    assert "타임뱅크 30초" in host.locator(".opt-summary").first.inner_text()
    join_ui(pages["지수"], base, code, "지수")
    join_ui(pages["영희"], base, code, "영희")
    wait_members(host, 3)
    host.click("[data-testid=start]")
    for p in pages.values():
        wait_table(p)
    v = view(host)
    assert v is not None
    to_act = v["toAct"]
    names = {p: name for name, page in pages.items() if (p := (view(page) or {}).get("me", {}).get("id"))}
    actor = pages[names[to_act]]
    for p in pages.values():  # every seat starts with the whole bank
        for seat in (view(p) or {})["seats"]:
            if seat["id"] != (view(p) or {})["me"]["id"]:
                assert pill(p, seat["id"]).inner_text() == "30"
    assert actor.locator("[data-testid=me-area] [data-testid=time-bank]").inner_text() == "30"
    # nobody acts: after the turn's 15 s (3 real seconds) the bank runs, on every phone
    for p in pages.values():
        if p is actor:
            p.wait_for_selector("[data-testid=me-area] [data-testid=time-bank].on", timeout=8000)
            continue
        p.wait_for_selector(f".seat[data-seat-id='{to_act}'] [data-testid=time-bank].on", timeout=8000)
        p.wait_for_selector(f".seat[data-seat-id='{to_act}'] .timer-ring.bank")
        assert pill(p, to_act).get_attribute("aria-label") == "타임뱅크 30초 쓰는 중"
    for name, p in pages.items():
        shot(p, f"time-bank-running-{name}-{SIZES[name]['width']}")
        assert not outside(p, ".seat, .seat [data-testid=time-bank], [data-testid=me-area]"), name
    log = [e["text"] for e in (view(host) or {})["publicLog"]]
    assert any("타임뱅크 사용 (30초)" in t for t in log) and not any("시간 초과" in t for t in log)
    # the player acts (the screenshots took a few game seconds of the bank)
    legal = {a["type"] for a in (view(actor) or {})["me"]["legalActions"]}
    move = "nl.check" if "nl.check" in legal else "nl.call"
    _click_and_wait(actor, f"[data-action='{move}']", version(actor))
    left = next(s for s in (view(host) or {})["seats"] if s["id"] == to_act)["timeBank"]
    assert 0 < left < 30, left  # 30 minus the whole seconds used: kept for later turns
    mine = "[data-testid=me-area] [data-testid=time-bank]"
    for p in pages.values():
        if p is actor:
            p.wait_for_function("([sel, n]) => document.querySelector(sel)?.textContent === String(n)",
                                arg=[mine, left])
            assert "on" not in (p.locator(mine).get_attribute("class") or "")
            continue
        p.wait_for_function("([id, n]) => document.querySelector(`.seat[data-seat-id='${id}'] "
                            "[data-testid=time-bank]`)?.textContent === String(n)", arg=[to_act, left])
        assert "on" not in (pill(p, to_act).get_attribute("class") or "")
    for name, p in pages.items():
        shot(p, f"time-bank-left-{name}-{SIZES[name]['width']}")
    log = [e["text"] for e in (view(host) or {})["publicLog"]]
    assert any(f"타임뱅크 {30 - left}초 씀 (남은 {left}초)" in t for t in log)
