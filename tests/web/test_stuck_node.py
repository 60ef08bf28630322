"""A node that stops answering (paused, cut off) behind the proxy must not hold a phone forever.

Three ways it used to: a reroute (``route``, docs/protocol.md §2.2) to such a node was given up after 5 s, but
the new socket asked for the same node again, and again; a socket whose handshake a stopped node never
answers stays "connecting" for as long as the proxy waits (an hour in deploy/), the browser never giving up
on it; and a socket found silent on a stopped node was replaced by one to any node, which a balancing proxy
sends to the stopped node again as often as not. Now a reroute given up goes to any node and ``route`` is not
followed for a minute, a socket not open within 10 s is given up and another made, given 20 s if it is stuck
too (src/pokerroom/web/static/net.js, CONNECT_MS), and a socket given up asks for another node its node
named (``node``), not following a ``route`` back to the stopped one for a minute.

All are made in the browser itself: a page's websockets are routed through the test
(``page.route_web_socket``), which opens a ``?node=`` socket and never answers it, or tells each socket its
node and stops passing one's frames; another page's first sockets are sent (by a wrapped ``WebSocket``) to a
port that accepts and never answers, so they stay connecting. The page's clock is the test's
(``page.clock``), so the seconds pass at once.
"""

from __future__ import annotations

import json
import socket
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import webplay as wp
from webplay import MOBILE

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]

WELCOMED = "() => !!(window.__room && window.__room.conn && window.__room.conn.welcomed)"
#: welcomed on a socket that asked for no node, no reroute under way
WELCOMED_ANYWHERE = ("() => { const c = window.__room.conn;"
                     " return c.welcomed && c.retiring === null && !c.ws.url.includes('node='); }")


class StuckOwner:
    """The page's websockets: one asking for a node (``?node=``) opens and never answers (a stopped owner);
    the others reach the server. Once :meth:`arm` is called, the newest of those is sent a ``route`` to that
    node, and so is every later one when it is welcomed, as a node run with ``--route-to-owner`` tells a
    socket it relays."""

    def __init__(self) -> None:
        self.asked: list[str] = []  # the URLs of the sockets that asked for a node
        self.plain: list[Any] = []  # the sockets that reached the server (their routes, page side)
        self.routes = 0  # ``route`` messages sent to the page
        self.armed = False

    def route(self, ws: Any) -> None:
        if "node=" in ws.url:
            self.asked.append(ws.url)  # mocked: open, and silent
            return
        self.plain.append(ws)
        server = ws.connect_to_server()
        ws.on_message(server.send)

        def to_page(message: str | bytes) -> None:
            ws.send(message)
            if self.armed and isinstance(message, str) and json.loads(message).get("type") == "welcome":
                self._route(ws)

        server.on_message(to_page)

    def arm(self) -> None:
        self.armed = True
        self._route(self.plain[-1])

    def _route(self, ws: Any) -> None:
        self.routes += 1
        ws.send(json.dumps({"type": "route", "node": "n9"}))


@pytest.fixture
def stuck_owner(browser: Any) -> Iterator[tuple[Any, StuckOwner]]:
    """A phone page whose websockets go through :class:`StuckOwner`."""
    owner = StuckOwner()
    with wp.sockets_through(browser, owner.route) as page:
        yield page, owner


def test_a_reroute_to_a_node_that_never_answers_is_given_up_for_any_node(
        live_server: Any, stuck_owner: tuple[Any, StuckOwner]) -> None:
    page, owner = stuck_owner
    page.clock.install()
    wp.create_room_ui(page, live_server.http, "민수", "holdem")
    page.wait_for_function(WELCOMED)
    # the relayed socket is told its owner: a new socket asks for it, the old one stays open meanwhile and the
    # page still says it is connected
    owner.arm()
    page.wait_for_function("() => window.__room.conn.retiring !== null")
    assert len(owner.asked) == 1 and "node=n9" in owner.asked[0] and len(owner.plain) == 1
    assert page.get_attribute("#conn", "data-state") == "open"
    # 5 s without a welcome: given up, and the next socket asks for any node, not for n9 again
    page.clock.run_for(6000)
    page.wait_for_function(WELCOMED_ANYWHERE)
    assert len(owner.plain) == 2 and owner.routes == 2
    assert page.evaluate("() => window.__room.conn.node") is None
    # the route that came with that welcome is not followed: the page stays where it is, connected (30 s, in
    # steps shorter than a ping's 10 s to be answered: the pong takes real time)
    for _ in range(4):
        page.clock.run_for(7500)
        page.wait_for_timeout(300)
    assert len(owner.asked) == 1 and len(owner.plain) == 2
    assert page.get_attribute("#conn", "data-state") == "open"
    assert page.evaluate("() => window.__room.lobby.players.length") == 1


class TwoNodes(wp.Links):
    """The page's websockets all reach the server, but each is first told, as a node run with
    ``--route-to-owner`` tells it, which node it is on (``node``: the one it asked for, else ``n1``) and the
    other live one. Once :meth:`cut` is called, the newest socket passes nothing more, either way, and stays
    open: its node stopped."""

    NODES = ("n1", "n2")

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []
        self.page_sides: list[Any] = []

    def route(self, ws: Any) -> None:
        self.urls.append(ws.url)
        self.page_sides.append(ws)
        here = next((n for n in self.NODES if f"node={n}" in ws.url), "n1")
        ws.send(json.dumps({"type": "node", "node": here, "others": [n for n in self.NODES if n != here]}))
        super().route(ws)


def test_a_node_that_stops_answering_is_found_and_another_asked_for(browser: Any, live_server: Any) -> None:
    nodes = TwoNodes()
    with wp.sockets_through(browser, nodes.route) as page:
        page.clock.install()
        wp.create_room_ui(page, live_server.http, "민수", "holdem")
        page.wait_for_function(WELCOMED)
        assert page.evaluate("() => [window.__room.conn.here, window.__room.conn.others]") == ["n1", ["n2"]]
        nodes.cut()  # n1 stops: the socket stays open, nothing answers
        page.clock.run_for(9000)
        page.wait_for_timeout(300)
        assert len(nodes.urls) == 1
        # the next ping (at most 20 s on) is not answered within 10 s: a new socket, asking for the other node
        # (in steps shorter than a new socket's 10 s to open: its handshake takes real time)
        for step in (5000, 5000, 5000, 5000, 2000):
            if len(nodes.urls) > 1:
                break
            page.clock.run_for(step)
            page.wait_for_timeout(300)
        page.wait_for_function(WELCOMED)
        assert len(nodes.urls) == 2 and "node=n2" in nodes.urls[1]
        assert page.get_attribute("#conn", "data-state") == "open"
        # a node that still believes the stopped one owns the room names it: not followed for a minute
        nodes.page_sides[1].send(json.dumps({"type": "route", "node": "n1"}))
        page.wait_for_timeout(500)
        assert len(nodes.urls) == 2 and page.evaluate("() => window.__room.conn.node") == "n2"
        assert page.evaluate("() => window.__room.lobby.players.length") == 1


@pytest.fixture
def silent_port() -> Iterator[int]:
    """A port that accepts connections and never answers them (a stopped node behind a proxy that waits)."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    held: list[socket.socket] = []
    stop = threading.Event()

    def hold() -> None:
        listener.settimeout(0.2)
        while not stop.is_set():
            try:
                held.append(listener.accept()[0])
            except TimeoutError:
                continue

    thread = threading.Thread(target=hold, daemon=True)
    thread.start()
    yield int(listener.getsockname()[1])
    stop.set()
    thread.join(timeout=2)
    for conn in held:
        conn.close()
    listener.close()


#: the page's first ``count`` websockets go to ``port`` instead of the server (the rest as the page asks)
FIRST_SOCKETS_TO = """([port, count]) => {
  const Real = window.WebSocket;
  let made = 0;
  window.WebSocket = class extends Real {
    constructor(url, protocols) {
      made += 1;
      super(made <= count ? url.replace(/\\/\\/[^/]+/, `//127.0.0.1:${port}`) : url, protocols);
    }
  };
}"""


@pytest.mark.parametrize("stuck", [1, 2])
def test_a_socket_that_never_opens_is_given_up_after_10_seconds_then_20(
        live_server: Any, browser: Any, silent_port: int, stuck: int) -> None:
    # (bypass_csp: the page's policy lets it reach its own origin only, and the stopped node is another port)
    ctx = browser.new_context(viewport=MOBILE, locale="ko-KR", bypass_csp=True)
    try:
        page = ctx.new_page()
        page.add_init_script(f"({FIRST_SOCKETS_TO})([{silent_port}, {stuck}])")
        page.clock.install()
        page.goto(live_server.http + "/")
        page.fill("#create-nick", "민수")
        page.check("#create-adult")
        page.click("[data-testid=create-room]")
        page.wait_for_url("**/r/*")
        page.wait_for_function("() => window.__room && window.__room.conn && window.__room.conn.ws")
        assert page.evaluate("() => window.__room.conn.ws.readyState") == 0  # CONNECTING, to the silent port
        page.clock.run_for(5000)
        page.wait_for_timeout(300)
        assert page.evaluate("() => window.__room.conn.welcomed") is False
        assert page.get_attribute("#conn", "data-state") == "connecting"  # not a frozen "connected"
        page.clock.run_for(6000)  # 11 s: given up, and the next socket made
        if stuck == 2:  # ...to the silent port again, and given 20 s this time (a slow network's chance)
            page.wait_for_timeout(300)
            assert page.evaluate("() => window.__room.conn.ws.readyState") == 0
            page.clock.run_for(15_000)
            page.wait_for_timeout(300)
            assert page.evaluate("() => window.__room.conn.welcomed") is False
            page.clock.run_for(6000)
        page.wait_for_function(WELCOMED)
        page.wait_for_selector("[data-testid=room-code]")
        assert page.evaluate("() => window.__room.lobby.players.length") == 1
        assert page.get_attribute("#conn", "data-state") == "open"
    finally:
        ctx.close()
