"""The web client on view deltas (docs/protocol.md §2.8): it opts in, rebuilds whole views from
``viewDelta`` frames, renders the table once per change of its own action, and after a played hand its
table is exactly what a fresh reload (one whole view) shows."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import webplay as wp
from test_play import NAMES, SecretChecker
from webplay import MOBILE, shot

pytestmark = pytest.mark.browser

TABLE_JS = """() => {
  const r = window.__room;
  const felt = document.querySelector('.table-screen').cloneNode(true);
  felt.querySelectorAll('.timer-ring').forEach((e) => e.remove());  // counts down between the two reads
  return {version: r.conn.version, view: JSON.stringify(r.view), table: felt.innerText};
}"""


COUNT_RENDERS_JS = """() => {
  const t = window.__room.table; const render = t.render.bind(t); window.__renders = [];
  t.render = () => { window.__renders.push(window.__room.conn.version); render(); };
}"""


COUNT_EVENTS_JS = """() => {
  const c = window.__room.conn; const on = c.h.onMessage; window.__events = 0;
  c.h.onMessage = (m) => { if (m.type === 'events') window.__events += 1; on(m); };
}"""


def frame_types(page: Any) -> list[str]:
    """Record the type of every websocket frame the page receives (call before it connects)."""
    seen: list[str] = []

    def on_ws(ws: Any) -> None:
        def received(payload: Any) -> None:
            if isinstance(payload, str):
                seen.append(json.loads(payload).get("type", "?"))
        ws.on("framereceived", received)

    page.on("websocket", on_ws)
    return seen


def settled(page: Any) -> dict[str, Any]:
    """The table at a quiet moment: a betting round waiting for a player (whose deadline is far away)."""
    page.wait_for_function(
        "() => { const v = window.__room.view; return v && v.toAct && v.phase === 'betting'; }",
        timeout=30000)
    page.wait_for_timeout(500)
    return dict(page.evaluate(TABLE_JS))


def test_hand_on_deltas_matches_a_fresh_reload(live_server: Any, open_page: Any) -> None:
    players = [open_page(f"player{i}", MOBILE) for i in range(2)]
    spectator = open_page("spectator", MOBILE)
    kinds = [frame_types(p) for p in [*players, spectator]]
    code = wp.create_room_ui(players[0], live_server.http, NAMES[0], "holdem")
    wp.join_ui(players[1], live_server.http, code, NAMES[1])
    wp.spectate_ui(spectator, live_server.http, code)
    wp.wait_members(players[0], 2)
    players[0].click("[data-testid=start]")
    for p in [*players, spectator]:
        wp.wait_table(p)
    for p in [*players, spectator]:
        p.evaluate(COUNT_EVENTS_JS)
    checker = SecretChecker(players, spectator, "holdem")
    checker()
    wp.play_hand(players, [{"raise_once": True}, {}], on_step=checker)
    assert checker.checks >= 2
    checker.assert_every_version()
    for seen in kinds:  # one whole view per socket, then deltas; my own acks rode on my view frames
        assert seen.count("view") == 1 and seen.count("viewDelta") >= 5, seen
    # the events rode on the view frames too, and the app still got each change's events (sounds)
    for p, seen in zip([*players, spectator], kinds, strict=True):
        assert "events" not in seen, seen
        assert p.evaluate("() => window.__events") >= 5
    assert "ack" not in kinds[0] and "ack" not in kinds[1]
    # one render per change of my own action (the ack no longer re-renders the table): the versions the
    # table rendered after my click are distinct
    page = players[0]
    before = settled(page)
    if json.loads(before["view"])["toAct"] != wp.view(page)["me"]["id"]:
        page = players[1]
    page.evaluate(COUNT_RENDERS_JS)
    version = int(page.evaluate("() => window.__room.conn.version"))
    assert wp.act_once(page, {}) is not None
    page.wait_for_function(f"() => window.__room.conn.version > {version} && !window.__room.pending")
    page.wait_for_timeout(300)
    rendered = [v for v in page.evaluate("() => window.__renders") if v > version]
    assert rendered and len(rendered) == len(set(rendered)), rendered
    # the table built from deltas equals the table of a fresh reload (one whole view)
    for p, name in ((players[0], "p0"), (players[1], "p1"), (spectator, "spectator")):
        built = settled(p)
        p.reload()
        wp.wait_table(p)
        fresh = settled(p)
        assert fresh["version"] == built["version"]
        assert json.loads(fresh["view"]) == json.loads(built["view"])
        assert fresh["table"] == built["table"]
        shot(p, f"deltas-{name}-reloaded")
