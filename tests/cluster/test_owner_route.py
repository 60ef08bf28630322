"""``--route-to-owner``: a node that relays a socket to its room's owner tells the client which node that is
(``route``), so a proxy that sends ``?node=<id>`` to that node can take the relay off the socket's path; and
every new socket is told its node and the other live ones (``node``), so a client that finds its node stopped
can ask the proxy for another. Two in-process nodes on the real Redis and PostgreSQL."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from cluster_inproc import start_node
from server_helpers import Client, LiveServer


def _routes(c: Client) -> list[dict[str, Any]]:
    return [f for f in c.frames if f["type"] == "route"]


def _nodes(c: Client) -> list[dict[str, Any]]:
    return [f for f in c.frames if f["type"] == "node"]


async def _settled(*clients: Client) -> None:
    """Every frame a join sets off has arrived (a view of the room: the lobby is the last of a join)."""
    for c in clients:
        await c.expect("lobby", timeout=10)
    await asyncio.sleep(0.3)


def _on(srv: LiveServer, code: str) -> int:
    """How many sockets the owner's room ``code`` holds, its own and those relayed to it (0: not its room)."""
    room = srv.rooms.get(code)
    return 0 if room is None else len(room.connections)


def test_a_relayed_socket_is_told_the_owner_and_comes_back_to_it(tmp_path: Path, prefix: str,
                                                                 database: str) -> None:
    a = start_node("A", database, prefix, tmp_path, route=True)
    b = start_node("B", database, prefix, tmp_path, route=True)
    try:
        made = a.create_room("방장", mode="holdem", hints=False)
        code = made["code"]

        async def main() -> None:
            host = await Client.open(a.ws_url(code), "host")  # on the owner: nothing to route
            await host.hello(token=made["token"])
            guest = await Client.open(b.ws_url(code), "guest")  # on B: relayed to A, told so after welcome
            welcome = await guest.hello(nickname="손님")
            route = await guest.expect("route", timeout=5)
            assert route == {"type": "route", "node": "A"}
            assert guest.frames.index(route) > guest.frames.index(welcome)
            # each socket was told first which node it is on, and the others (B started after A: it knows A)
            assert guest.frames[0] == {"type": "node", "node": "B", "others": ["A"]}
            assert host.frames[0]["type"] == "node" and host.frames[0]["node"] == "A"
            assert set(host.frames[0]["others"]) <= {"B"}
            spectator = await Client.open(b.ws_url(code), "spec")  # spectators too: the same relay
            await spectator.hello(spectate=True)
            assert (await spectator.expect("route", timeout=5))["node"] == "A"
            # it asked the proxy for A and still came to B (a proxy that does not route by it): not again,
            # it would only come back here
            asked = await Client.open(f"{b.ws_url(code)}?node=A", "asked")
            await asked.hello(nickname="다시")
            await _settled(host, guest, asked)
            assert _routes(host) == [] and _routes(asked) == []
            assert len(_routes(guest)) == 1  # once per owner, whatever else the room sends meanwhile
            assert [len(_nodes(c)) for c in (host, guest, spectator, asked)] == [1, 1, 1, 1]
            # the guest follows it, as the web client does: a new socket to A, then the old one closed
            back = await Client.open(f"{a.ws_url(code)}?node=A", "back")
            again = await back.hello(token=guest.token)
            assert again["playerId"] == guest.player_id and again["role"] == "player"
            await guest.close()
            await _settled(back)
            assert _routes(back) == []
            # the owner holds the host and the guest's new socket, plus B's two relayed ones; B now relays
            # only the spectator's and the one that asked for A
            assert _on(a, code) == 4
            assert len(b.config.topology.sockets.by_room.get(code, ())) == 2
            for c in (host, spectator, asked, back):
                await c.close()

        asyncio.run(main())
    finally:
        a.stop()
        b.stop()


def test_without_the_flag_no_socket_is_told(tmp_path: Path, prefix: str, database: str) -> None:
    """The default: a node behind a round-robin proxy (which cannot send a socket anywhere in particular)
    keeps its sockets and sends no ``route``."""
    a = start_node("A", database, prefix, tmp_path)
    b = start_node("B", database, prefix, tmp_path)
    try:
        made = a.create_room("방장", mode="holdem", hints=False)
        code = made["code"]

        async def main() -> None:
            guest = await Client.open(b.ws_url(code), "guest")
            await guest.hello(nickname="손님")
            await _settled(guest)
            assert _routes(guest) == [] and _nodes(guest) == []
            await guest.close()

        asyncio.run(main())
    finally:
        a.stop()
        b.stop()
