"""The event loop ``pokerroom serve`` runs on: asyncio by default, even where uvloop is installed
(the test environment has it), and uvloop with ``--loop uvloop``; a room is played over a websocket on
either."""

from __future__ import annotations

import asyncio
from pathlib import Path

import httpx
import pytest
from server_helpers import Client

import needs
from serving import Serve


def _loaded(pid: int, name: str) -> bool:
    """Whether a file whose path contains ``name`` is mapped into process ``pid`` (a shared object; the
    data directory's SQLite files are mapped too, and its path holds the test's name)."""
    return name in Path(f"/proc/{pid}/maps").read_text(encoding="utf-8", errors="replace")


async def _one_action(http: str) -> int:
    r = httpx.post(f"{http}/api/rooms", json={"nickname": "가", "options": {"mode": "holdem"}}).json()
    url = f"ws://127.0.0.1:{http.rsplit(':', 1)[1]}/ws/{r['code']}"
    a = await Client.open(url, "a")
    await a.hello(token=r["token"])
    b = await Client.open(url, "b")
    await b.hello(nickname="나")
    await a.send({"type": "start"})
    for _ in range(500):  # whoever acts first folds: one action, acknowledged with the version it became
        for c in (a, b):
            held = c.held
            if held and any(x["type"] == "nl.fold" for x in held[1]["me"].get("legalActions") or []):
                await c.send({"type": "action", "clientMsgId": "f", "version": held[0],
                              "action": {"type": "nl.fold"}})
                ack = await c.expect("ack")
                await a.ws.close()
                await b.ws.close()
                return int(ack["version"])
        await asyncio.sleep(0.02)
    raise AssertionError("nobody could fold within 10 s")


@pytest.mark.skipif(not Path("/proc/self/maps").exists(), reason="reads /proc/<pid>/maps")
@pytest.mark.parametrize("loop", [None, "uvloop"])
def test_serve_runs_on_asyncio_by_default_and_on_uvloop_when_asked(
        serve_process: Serve, loop: str | None) -> None:
    needs.module("uvloop")
    srv = serve_process(*(("--loop", loop) if loop else ()))
    assert srv.proc is not None
    assert _loaded(srv.proc.pid, "/uvloop/loop.") == (loop == "uvloop"), "the loop asked for"
    assert asyncio.run(_one_action(srv.http)) > 0
