"""The web client itself (net.js in Debian's chromium) behind the shipped deploy/nginx-cluster.conf, two
nodes run with ``--route-to-owner``: phones at 390×844, 360×740 and 320×568 come in through the proxy, whose
round robin puts some sockets on the node that does not own the room; those follow ``route`` to the owner
(``?node=``), so every socket ends on the owner, and the table plays on with nobody shown as away."""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import needs

HERE = Path(__file__).resolve().parent
for extra in (HERE, HERE.parent / "cluster", HERE.parent / "server"):
    if str(extra) not in sys.path:
        sys.path.append(str(extra))

import webplay as wp  # noqa: E402
from nodes import Cluster, Node  # noqa: E402
from test_nginx import NAME  # noqa: E402
from test_nodes_nginx import routed_behind_nginx  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.service]

PHONES = [{"width": 390, "height": 844}, {"width": 360, "height": 740}, {"width": 320, "height": 568}]


def owner_and_other(cluster: Cluster, code: str) -> tuple[Node, Node]:
    owner = cluster.wait_owner(code)
    return owner, next(n for n in cluster.nodes if n is not owner)


def sockets_on(node: Node) -> int:
    return int(node.health().get("connections", 0))


@pytest.fixture
def proxied(tmp_path: Path) -> Iterator[tuple[Cluster, str]]:
    """Two nodes behind nginx (TLS, the shipped file, its per-node upstreams named by the nodes' ids)."""
    with routed_behind_nginx(tmp_path) as (cluster, public, _ctx):
        yield cluster, public


def test_phones_follow_the_route_to_the_owner(proxied: tuple[Cluster, str], browser: Any) -> None:
    from conftest import CHROMIUM_ARGS

    cluster, public = proxied
    phones = browser.browser_type.launch(executable_path=needs.chromium(), headless=True, args=[
        *CHROMIUM_ARGS, f"--host-resolver-rules=MAP {NAME} 127.0.0.1", "--ignore-certificate-errors"])
    errors: list[str] = []
    try:

        def phone(viewport: dict[str, int]) -> Any:
            ctx = phones.new_context(viewport=viewport, locale="ko-KR", device_scale_factor=1)
            ctx.set_default_timeout(15000)
            page = ctx.new_page()
            page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            page.on("pageerror", lambda e: errors.append(str(e)))
            return page

        pages = [phone(viewport) for viewport in PHONES]
        host, *guests = pages
        code = wp.create_room_ui(host, public, "민수", "holdem")
        for page, nick in zip(guests, ("지수", "현우"), strict=True):
            wp.join_ui(page, public, code, nick)
        wp.wait_members(host, 3)
        owner, other = owner_and_other(cluster, code)

        def where(*more: Any) -> list[Any]:
            """The node each tab asks the proxy for (``?node=``; None: none)."""
            return [p.evaluate("() => window.__room.conn.node") for p in (*pages, *more)]

        watching: list[Any] = []
        end = time.monotonic() + 15
        while (sockets_on(owner), sockets_on(other)) != (len(pages) + len(watching), 0) or (
                owner.node_id not in where(*watching)):
            assert time.monotonic() < end, (sockets_on(owner), sockets_on(other), where(*watching))
            if sockets_on(other) == 0 and owner.node_id not in where(*watching) and len(watching) < 4:
                # round robin put every socket on the owner so far: one more tab, a spectator's, until one
                # has come through the other node and been routed
                watching.append(phone(PHONES[len(watching) % len(PHONES)]))
                wp.spectate_ui(watching[-1], public, code)
            time.sleep(0.1)
        # a tab that was routed asked for the owner; one that landed there asked for nothing
        assert set(where(*watching)) <= {None, owner.node_id}, where(*watching)
        host.click("[data-testid=start]")
        for page in pages:
            wp.wait_table(page)
        for i, page in enumerate(pages):
            wp.shot(page, f"cluster-route-{PHONES[i]['width']}")
        lobby = host.evaluate("() => window.__room.lobby.players.map(p => p.connected)")
        assert lobby == [True, True, True]
        result = wp.play_hand(pages)
        assert result["phase"] in ("handEnd", "finished")
        for i, page in enumerate(pages):
            wp.shot(page, f"cluster-route-end-{PHONES[i]['width']}")
        assert (sockets_on(owner), sockets_on(other)) == (len(pages) + len(watching), 0)
        assert not errors, errors
    finally:
        phones.close()
