"""deploy/nginx-cluster.conf, tested as shipped: Debian's nginx on loopback
ports in front of two real nodes, round-robin with no sticky sessions, carries a whole game over websockets
(TLS, as the file deploys it). The players' sockets land on both nodes, so the game also crosses the relay.

Only the machine-specific parts of the file are replaced (listen ports, certificate paths, the two upstream
ports), and each replacement must hit, so the file cannot drift from what was tested.
"""

from __future__ import annotations

import ssl
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
        ports = [n.port for n in cluster.nodes]
        nginx = Nginx(tmp_path, render(SITE, http_port, https_port, cert, key, [
            ("server 127.0.0.1:8001 ", f"server 127.0.0.1:{ports[0]} "),
            ("server 127.0.0.1:8002 ", f"server 127.0.0.1:{ports[1]} ")]))
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
