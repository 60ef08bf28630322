"""The server goes away on purpose (SIGTERM: sockets closed with 4012) and comes back on the same address:
the page says so in a small toast, reconnects by itself with its seat token, keeps its seat and cards, and
the hand plays on (a phone, 390x844)."""

from __future__ import annotations

import signal
import sys
from pathlib import Path
from typing import Any

import pytest

from serving import ServeProcess

sys.path.insert(0, str(Path(__file__).resolve().parent))

import webplay as wp
from webplay import MOBILE, shot

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]


def start_node(data: Path) -> ServeProcess:
    """``pokerroom serve`` that a test stops with SIGTERM and starts again on the same address, warming its
    bot and hint tables at start-up as a deployed server does (without it, the first hint after the restart
    builds them on the spot, which on a busy machine outlasts the test's wait for the next view)."""
    return ServeProcess(data, "--rooms-per-address", "0", "--room-creations-per-minute", "0",
                        "--connections-per-address", "0", log_level="info", warm_up=True).up()


def _heads_up(open_page: Any, node: ServeProcess, viewport: dict[str, int]) -> tuple[Any, Any]:
    """Two phones at a hold'em table on ``node``, the hand dealt. The turn is 60 s: a restart on a busy
    machine must not run the acting player's clock out (the clock is not what these tests are about)."""
    a, b = open_page("a", viewport), open_page("b", viewport)
    for p in (a, b):  # the refused reconnects while the server is down are expected
        p.recorder.allowed.append("WebSocket connection to")
    wp.start_heads_up(a, b, node.http, turnSeconds=60)
    return a, b


def _wait_reconnected(pages: tuple[Any, ...], version: int) -> None:
    for p in pages:
        p.wait_for_function("(v) => document.querySelector('#conn').dataset.state === 'open'"
                            " && window.__room.conn.version >= v && window.__room.view", arg=version,
                            timeout=20000)


def test_server_moving_reconnects_keeps_the_seat_and_plays_on(open_page: Any, tmp_path: Path) -> None:
    node = start_node(tmp_path)
    try:
        a, b = _heads_up(open_page, node, MOBILE)
        for p in (a, b):  # one decision each, so the hand has history
            wp.act_once(p, {})
        v0 = max(wp.version(a), wp.version(b))
        seats = [p.evaluate("() => window.__room.playerId") for p in (a, b)]
        cards = [sorted(wp.my_card_ids(p)) for p in (a, b)]
        assert all(cards)

        node.signal(signal.SIGTERM)
        for p in (a, b):
            p.wait_for_selector("[data-testid=toast]:has-text('서버를 옮기는 중')", timeout=5000)
        shot(b, "moving-toast")
        assert node.proc.wait(timeout=10) == 0
        node.up()  # the same address: the room comes back from the store

        _wait_reconnected((a, b), v0)
        assert [p.evaluate("() => window.__room.playerId") for p in (a, b)] == seats, "the same seats"
        assert [sorted(wp.my_card_ids(p)) for p in (a, b)] == cards, "the same cards"
        assert min(wp.version(a), wp.version(b)) >= v0
        shot(b, "moving-reconnected")
        hand = wp.view(a)["handNo"]  # type: ignore[index]
        final = wp.play_hand([a, b])
        assert final["phase"] in ("handEnd", "finished", "rebuy") or final["handNo"] > hand
        assert a.locator("[data-testid=toast].error").count() == 0
        shot(b, "moving-played-on")
    finally:
        node.kill()


def test_a_pre_action_survives_the_server_moving_and_fires(open_page: Any, tmp_path: Path) -> None:
    """A pre-action is stored in the room's own small row, not in a snapshot (the room owns it:
    docs/decisions/0015-action-log-snapshot-per-hand.md, 0029-preactions-are-the-rooms.md); after a SIGTERM
    and a restart the waiting phone still shows it chosen, and it fires on that seat's turn (a 360x640
    phone)."""
    node = start_node(tmp_path)
    try:
        a, b = _heads_up(open_page, node, {"width": 360, "height": 640})
        v = wp.view(a)
        assert v is not None and v["phase"] == "betting"
        ids = {p.evaluate("() => window.__room.playerId"): p for p in (a, b)}
        actor = ids[v["toAct"]]
        waiter_id = next(pid for pid in ids if pid != v["toAct"])
        waiter = ids[waiter_id]
        waiter.wait_for_selector("[data-preaction=callAny]")
        waiter.click("[data-preaction=callAny]")
        waiter.wait_for_selector("[data-preaction=callAny][aria-pressed=true]")
        v0 = wp.version(waiter)

        node.signal(signal.SIGTERM)
        assert node.proc is not None and node.proc.wait(timeout=10) == 0
        node.up()
        _wait_reconnected((a, b), v0)
        waiter.wait_for_selector("[data-preaction=callAny][aria-pressed=true]")
        shot(waiter, "moving-preaction-kept-360")
        before = wp.version(actor)
        actor.click("[data-action='nl.call']")
        waiter.wait_for_function("(v) => window.__room.conn.version >= v + 2", arg=before, timeout=10000)
        # the server acted for the waiting phone: its check (the big blind's call was free) closed the round
        log = wp.view(waiter)["publicLog"]  # type: ignore[index]
        mine = [e["text"] for e in log if e["type"] == "action" and e["text"].startswith(f"{waiter_id} ")]
        assert mine == [f"{waiter_id} 체크"], log
        assert waiter.locator("[data-preaction][aria-pressed=true]").count() == 0
        shot(waiter, "moving-preaction-fired-360")
    finally:
        node.kill()
