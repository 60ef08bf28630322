"""deploy/nginx-cluster.conf, tested as shipped: Debian's nginx on loopback
ports in front of two real nodes, round-robin with no sticky sessions, carries a whole game over websockets
(TLS, as the file deploys it). The players' sockets land on both nodes, so the game also crosses the relay.

Only the machine-specific parts of the file are replaced (listen ports, certificate paths, the two upstream
ports), and each replacement must hit, so the file cannot drift from what was tested.
"""

from __future__ import annotations

import asyncio
import contextlib
import ssl
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
from nodes import Cluster, Node, running_cluster
from server_helpers import Client
from table import Person, Table, run_game
from test_nginx import NAME, Nginx, render, self_signed

import needs
from serving import fixed_port

ROOT = Path(__file__).resolve().parents[2]
SITE = ROOT / "deploy" / "nginx-cluster.conf"


def cluster_site(cluster: Cluster, http_port: int, https_port: int, cert: Path, key: Path) -> str:
    """The shipped site in front of a two-node ``cluster``: its ports, and its ids in the ``?node=`` map."""
    a, b = cluster.nodes
    return render(SITE, http_port, https_port, cert, key, [
        ("server 127.0.0.1:8001 ", f"server 127.0.0.1:{a.port} "),
        ("server 127.0.0.1:8002 ", f"server 127.0.0.1:{b.port} "),
        ("    a pokerroom_node_a;", f"    {a.node_id} pokerroom_node_a;"),
        ("    b pokerroom_node_b;", f"    {b.node_id} pokerroom_node_b;")])


@contextlib.contextmanager
def routed_behind_nginx(tmp_path: Path) -> Iterator[tuple[Cluster, str, ssl.SSLContext]]:
    """Two nodes run with ``--route-to-owner`` behind the shipped site (TLS, its ``?node=`` map naming
    them); yields the cluster, its public origin and a TLS context that trusts the proxy."""
    needs.nginx()
    needs.openssl()
    http_port, https_port = fixed_port(), fixed_port()
    public = f"https://{NAME}:{https_port}"
    with running_cluster(tmp_path, 2, "--public-url", public, "--route-to-owner") as (cluster, _db):
        cert, key = self_signed(tmp_path)
        nginx = Nginx(tmp_path, cluster_site(cluster, http_port, https_port, cert, key))
        ctx = ssl.create_default_context(cafile=str(cert))
        try:
            nginx.wait(f"https://127.0.0.1:{https_port}/readyz", ctx, {"host": f"{NAME}:{https_port}"})
            yield cluster, public, ctx
        finally:
            nginx.stop()


class ProxiedTable(Table):
    """A table whose people connect through nginx (wss), never to a node directly."""

    def __init__(self, cluster: Cluster, code: str, https_port: int, ctx: ssl.SSLContext, **kw: Any) -> None:
        super().__init__(cluster, code, **kw)
        self.https_port = https_port
        self.ctx = ctx

    async def _connect(self, person: Person, node: Node, hello: dict[str, Any]) -> None:
        public = f"https://{NAME}:{self.https_port}"
        c = await Client.open(f"wss://{NAME}:{self.https_port}/ws/{self.code}", person.name, ssl=self.ctx,
                              host="127.0.0.1", port=self.https_port, origin=public, open_timeout=10)
        person.clients.append(c)
        welcome = await self.hello(c, hello)
        if "spectate" not in hello:
            person.player_id = welcome["playerId"]
            person.token = c.token


def test_nginx_round_robin_carries_a_whole_game(tmp_path: Path) -> None:
    needs.nginx()
    needs.openssl()
    http_port, https_port = fixed_port(), fixed_port()
    public = f"https://{NAME}:{https_port}"
    with running_cluster(tmp_path, 2, "--public-url", public, "--time-scale", "0.25") as (cluster, _db):
        cert, key = self_signed(tmp_path)
        nginx = Nginx(tmp_path, cluster_site(cluster, http_port, https_port, cert, key))
        ctx = ssl.create_default_context(cafile=str(cert))
        base, host = f"https://127.0.0.1:{https_port}", {"host": f"{NAME}:{https_port}"}
        try:
            nginx.wait(f"{base}/readyz", ctx, host)
            options = {"mode": "sevenPoker", "turnSeconds": 60, "hints": False, "handLimit": 10,
                       "rebuy": "off"}
            created = httpx.post(f"{base}/api/rooms", json={"nickname": "민수", "options": options},
                                 headers=host, verify=ctx)
            assert created.status_code == 201, created.text
            room = created.json()
            assert room["link"] == f"{public}/r/{room['code']}"

            async def play() -> tuple[dict[str, Any], list[int]]:
                table = ProxiedTable(cluster, room["code"], https_port, ctx)
                node = cluster.nodes[0]
                await table.seat("host", node, token=room["token"])
                for i, nick in enumerate(("지수", "현우")):
                    await table.seat(f"p{i}", node, nickname=nick)
                await table.seat("watch", node, spectate=True)
                spread = [int(n.health().get("connections", 0)) for n in cluster.nodes]
                await table.people[0].client.send({"type": "start"})
                result = await table.finish(timeout=150)
                await table.close()
                return result, spread

            result, spread = run_game(play())
            assert result["type"] == "result"
            assert all(n > 0 for n in spread), f"round robin put sockets on both nodes: {spread}"
        finally:
            nginx.stop()


def test_nginx_sends_a_socket_to_the_node_it_asks_for(tmp_path: Path) -> None:
    """Nodes run with ``--route-to-owner`` behind the shipped file: a socket relayed by the node round robin
    gave it is told the owner (``route``), and the same socket again with ``?node=<owner>``, as the web client
    makes it, lands on the owner; one that asks for a node that is down lands on another (its backup)."""
    with routed_behind_nginx(tmp_path) as (cluster, public, ctx):
        https_port = int(public.rsplit(":", 1)[1])
        nodes = cluster.nodes
        room = cluster.create_room(nodes[0], mode="holdem", hints=False)
        code = room["code"]
        owner = cluster.wait_owner(code)
        other = nodes[1] if owner is nodes[0] else nodes[0]

        def on_each() -> list[int]:
            return [int(n.health().get("connections", 0)) for n in (owner, other)]

        async def open_(query: str) -> Client:
            return await Client.open(f"wss://{NAME}:{https_port}/ws/{code}{query}", "c", ssl=ctx,
                                     host="127.0.0.1", port=https_port, origin=public, open_timeout=10)

        async def main() -> None:
            host_ = await open_(f"?node={owner.node_id}")
            await host_.hello(token=room["token"])
            assert on_each() == [1, 0]
            # round robin: one of two sockets lands on the other node, is relayed and told the owner
            pair = [await open_(""), await open_("")]
            for c in pair:
                await c.hello(spectate=True)
            assert on_each() == [2, 1]
            await asyncio.sleep(0.5)
            told = [c for c in pair if any(f["type"] == "route" for f in c.frames)]
            assert len(told) == 1, [[f["type"] for f in c.frames] for c in pair]
            route = next(f for f in told[0].frames if f["type"] == "route")
            assert route == {"type": "route", "node": owner.node_id}
            moved = await open_(f"?node={route['node']}")  # as the web client follows it
            await moved.hello(spectate=True)
            await told[0].close()
            await asyncio.sleep(0.3)
            assert on_each() == [3, 0]  # every socket on the owner: nothing relayed
            assert not any(f["type"] == "route" for f in moved.frames + host_.frames)
            other.terminate()
            stray = await open_(f"?node={other.node_id}")  # its node is down: its backup, the owner
            await stray.hello(spectate=True)
            assert int(owner.health().get("connections", 0)) == 4
            for c in (host_, *pair, moved, stray):
                if c is not told[0]:
                    await c.close()

        run_game(main())
