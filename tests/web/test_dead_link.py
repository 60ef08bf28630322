"""A link that dies without closing: a phone that slept or changed networks keeps its socket "open" while
nothing passes, and so does a node that stopped with the room's sockets on it; the table stood still under a
green dot until the browser gave up, minutes later. The page now holds every ping (one every 20 s) to an
answer within 10 s, and within 4 s when it comes back (shown again, online again) or when an action of its
own has had no answer for 3 s; a socket that does not answer is taken for dead, and the page connects again at
once with its seat token and gets the table as it now is (an unanswered action sent again, applied once).

The dead link is made in the browser itself: its websockets are routed through the test
(``page.route_web_socket``, :class:`webplay.Links`), which stops passing a socket's frames either way
without closing it.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import webplay as wp
from webplay import MOBILE, Links

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]

#: a page has the server's version ``v`` (or a later one)
CAUGHT_UP = "(v) => window.__room.conn.version >= v"


@pytest.fixture
def routed(browser: Any) -> Iterator[tuple[Any, Links]]:
    """A phone page whose websockets go through :class:`Links`."""
    links = Links()
    with wp.sockets_through(browser, links.route) as page:
        yield page, links


def _stale_after_a_cut(live_server: Any, open_page: Any, page: Any, links: Links) -> tuple[Any, int]:
    """Heads-up hold'em, ``page`` the guest: its link is cut while the host acts, so the guest's table is
    behind. Returns the host's page and the version the server is at."""
    host = open_page("민수", MOBILE)
    wp.start_heads_up(host, page, live_server.http, turnSeconds=60)
    v = wp.view(host)
    assert v is not None and v["street"] == 0
    host_id = host.evaluate("() => window.__room.playerId")
    if v["toAct"] == host_id:  # the host has the button and acts first: a call, then the guest's turns
        wp._click_and_wait(host, "[data-action='nl.call']", wp.version(host))
    return host, _host_moves_while_cut(host, page, links)


def _check_or_call(page: Any) -> None:
    """The page's player checks (or calls, when nothing is free) through its button."""
    legal = {a["type"] for a in (wp.view(page) or {})["me"]["legalActions"]}
    move = "nl.check" if "nl.check" in legal else "nl.call"
    wp._click_and_wait(page, f"[data-action='{move}']", wp.version(page))


def _heads_up_to_the_guests_turn(live_server: Any, open_page: Any, page: Any) -> tuple[Any, str]:
    """Heads-up hold'em (60 s turns), ``page`` the guest, played to the guest's first turn: (host page, the
    guest's player id)."""
    host = open_page("민수", MOBILE)
    wp.start_heads_up(host, page, live_server.http, turnSeconds=60)
    guest_id: str = page.evaluate("() => window.__room.playerId")
    if (wp.view(host) or {}).get("toAct") != guest_id:
        _check_or_call(host)
    page.wait_for_function("(id) => window.__room.view.toAct === id", arg=guest_id)
    return host, guest_id


def _to_the_hosts_turn(host: Any, page: Any) -> None:
    """The guest (its link alive) checks or calls until the host is to act."""
    host_id = host.evaluate("() => window.__room.playerId")
    page.wait_for_function(CAUGHT_UP, arg=wp.version(host))
    while (wp.view(page) or {}).get("toAct") != host_id:
        _check_or_call(page)
        page.wait_for_function(CAUGHT_UP, arg=wp.version(page))
    host.wait_for_function("(id) => window.__room.view.toAct === id", arg=host_id)


def _host_moves_while_cut(host: Any, page: Any, links: Links) -> int:
    """The guest plays to the host's turn, its newest link is cut, the host acts: the guest's table stays
    behind (a heads-up hand has turns enough for three cuts, whoever has the button). Returns the version
    the server is at."""
    _to_the_hosts_turn(host, page)
    before = wp.version(page)
    links.cut()
    _check_or_call(host)
    page.wait_for_timeout(300)
    assert wp.version(page) == before  # the cut link brought nothing
    return wp.version(host)


def test_a_dead_link_is_found_when_the_page_comes_back_or_by_an_unanswered_ping(
        live_server: Any, open_page: Any, routed: tuple[Any, Links]) -> None:
    page, links = routed
    page.clock.install()  # (time runs as usual until the test moves it on)
    host, now = _stale_after_a_cut(live_server, open_page, page, links)
    # the page is shown again, then comes back online: each time a ping goes unanswered for 4 s and a new
    # socket brings the table as it now is
    for n, (target, event) in enumerate([("document", "visibilitychange"), ("window", "online")], start=2):
        page.evaluate(f"() => {target}.dispatchEvent(new Event('{event}'))")
        page.wait_for_function(CAUGHT_UP, arg=now, timeout=12000)
        assert links.count == n, event
        v = wp.view(page)
        assert v is not None and v["me"]["hole"] and v["street"] >= 1, v
        if n == 2:  # cut the new link too, and let the host move on again
            now = _host_moves_while_cut(host, page, links)
    # without any event, the next ping (at most 20 s after the cut) goes unanswered for 10 s
    now = _host_moves_while_cut(host, page, links)
    page.clock.run_for(9000)
    page.wait_for_timeout(300)
    assert links.count == 3  # 9 s: no ping can have waited 10 s yet
    # to 31 s after the cut, in steps shorter than a new socket's 10 s to open (its handshake takes real time)
    for step in (5000, 5000, 5000, 5000, 2000):
        if links.count == 4:
            break
        page.clock.run_for(step)
        page.wait_for_timeout(300)
    page.wait_for_function(CAUGHT_UP, arg=now, timeout=12000)
    assert links.count == 4


def test_an_action_nothing_answers_finds_the_dead_link_and_is_applied_on_the_next(
        live_server: Any, open_page: Any, routed: tuple[Any, Links]) -> None:
    page, links = routed
    page.clock.install()
    host, guest_id = _heads_up_to_the_guests_turn(live_server, open_page, page)
    before = wp.version(host)
    street = (wp.view(host) or {})["street"]
    cut = links.cut()  # the node stops answering this socket (a paused node, a link cut on the way)
    legal = {a["type"] for a in (wp.view(page) or {})["me"]["legalActions"]}
    page.click("[data-action='nl.check']" if "nl.check" in legal else "[data-action='nl.call']")
    page.clock.run_for(2500)
    page.wait_for_timeout(300)
    assert links.count == cut and wp.version(host) == before  # 2.5 s: an ack may still come
    assert page.get_attribute("#conn", "data-state") == "open"
    # 3 s without an answer: the page says it is checking, and a ping goes
    page.clock.run_for(1000)
    page.wait_for_timeout(300)
    assert page.get_attribute("#conn", "data-state") == "connecting"
    assert page.inner_text("#conn") == "연결 확인 중…"
    # unanswered for 4 s: a new socket, and the action goes again on it
    page.clock.run_for(4000)
    host.wait_for_function("(v) => window.__room.conn.version > v", arg=before, timeout=12000)
    page.wait_for_function(CAUGHT_UP, arg=wp.version(host), timeout=12000)
    assert links.count == cut + 1
    v = wp.view(host)
    assert v is not None and (v["toAct"] != guest_id or v["street"] > street)  # the guest's move was made
    assert page.locator("[data-testid=toast].error").count() == 0


def test_a_slow_answer_to_an_action_is_only_a_check_not_a_new_link(
        live_server: Any, open_page: Any, routed: tuple[Any, Links]) -> None:
    """An action whose answer is slow (3 s) makes the page say it is checking; the answer, in time, puts it
    back to connected on the same socket."""
    page, links = routed
    page.clock.install()
    host, _guest = _heads_up_to_the_guests_turn(live_server, open_page, page)
    before, sockets = wp.version(host), links.count
    links.hold()
    legal = {a["type"] for a in (wp.view(page) or {})["me"]["legalActions"]}
    page.click("[data-action='nl.check']" if "nl.check" in legal else "[data-action='nl.call']")
    page.clock.run_for(3500)
    page.wait_for_timeout(300)
    assert page.get_attribute("#conn", "data-state") == "connecting"
    links.release()  # the action and the ping reach the server: their answers come
    page.wait_for_function("() => document.querySelector('#conn').dataset.state === 'open'")
    assert page.inner_text("#conn") == "연결됨"
    host.wait_for_function("(v) => window.__room.conn.version > v", arg=before)
    page.clock.run_for(4000)  # past the ping's 4 s: it was answered, the socket stays
    page.wait_for_timeout(300)
    assert links.count == sockets


def test_a_deadline_passing_with_no_new_view_finds_the_dead_link(
        live_server: Any, open_page: Any, routed: tuple[Any, Links]) -> None:
    """The server always moves the table at a deadline: a page whose table's deadline passed 1 s ago with no
    newer view asks whether its socket is alive (a player whose link died while another was to act is found
    before their own turn, which starts by then, runs out)."""
    page, links = routed
    page.clock.install()
    host = open_page("민수", MOBILE)
    wp.start_heads_up(host, page, live_server.http, turnSeconds=15)
    _to_the_hosts_turn(host, page)
    page.wait_for_function(CAUGHT_UP, arg=wp.version(host))
    cut = links.cut()
    page.evaluate("() => clearInterval(window.__room.conn.pingTimer)")  # (their own rule: above)
    left = page.evaluate("() => window.__room.view.deadlineAt - Date.now()")
    assert 0 < left <= 15_000
    page.clock.run_for(left + 1500)
    page.wait_for_timeout(300)
    assert links.count == cut  # 1.5 s past the deadline: its ping went at 1 s, and has 4 s to be answered
    page.clock.run_for(3500 + 300)  # unanswered: a new socket
    page.wait_for_function(CAUGHT_UP, arg=wp.version(host), timeout=12000)
    assert links.count == cut + 1


def test_a_ping_due_sooner_is_not_pushed_back_by_a_later_one(
        live_server: Any, routed: tuple[Any, Links]) -> None:
    """The page comes back (a ping due in 4 s) just as the regular ping goes (due in 10 s): the dead link is
    still found after 4 s."""
    page, links = routed
    page.clock.install()
    wp.create_room_ui(page, live_server.http, "민수", "holdem")
    page.wait_for_function("() => window.__room.conn.welcomed")
    cut = links.cut()
    page.evaluate("() => { const c = window.__room.conn; c.probe(); c.beat(c.ws); }")
    page.clock.run_for(3500)
    page.wait_for_timeout(300)
    assert links.count == cut
    page.clock.run_for(1000)
    page.wait_for_function("() => window.__room.conn.welcomed")
    assert links.count == cut + 1
