"""deploy/nginx.conf, tested as shipped: Debian's nginx on loopback ports with a throwaway self-signed
certificate, in front of a real ``pokerroom serve --public-url https://poker.example:<port>``; a page, the
API and a websocket game exchange go through it (``make test`` installs nginx when it is missing).

Only the machine-specific parts of the file are replaced (listen ports, certificate paths, upstream port),
and each replacement must hit, so the file cannot drift from what was tested.
"""

from __future__ import annotations

import asyncio
import json
import os
import ssl
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import websockets

import needs
from serving import Serve, fixed_port

ROOT = Path(__file__).resolve().parents[2]
SITE = ROOT / "deploy" / "nginx.conf"
NAME = "poker.example"


def self_signed(tmp: Path) -> tuple[Path, Path]:
    """A throwaway certificate for poker.example and 127.0.0.1 (openssl, one day)."""
    cert, key = tmp / "cert.pem", tmp / "key.pem"
    subprocess.run(
        [needs.openssl(), "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
         "-subj", f"/CN={NAME}", "-addext", f"subjectAltName=DNS:{NAME},IP:127.0.0.1",
         "-keyout", str(key), "-out", str(cert)],
        check=True, capture_output=True, timeout=60)
    return cert, key


def render(site: Path, http_port: int, https_port: int, cert: Path, key: Path,
           upstreams: list[tuple[str, str]]) -> str:
    """A shipped site file with its machine-specific parts replaced: loopback listen ports, the
    certificate, and ``upstreams`` (each ``(as shipped, replacement)``); every replacement must hit."""
    text = site.read_text(encoding="utf-8")
    replacements = [
        ("    listen [::]:80;\n", ""),
        ("    listen [::]:443 ssl;\n", ""),
        ("listen 80;", f"listen 127.0.0.1:{http_port};"),
        ("listen 443 ssl;", f"listen 127.0.0.1:{https_port} ssl;"),
        (f"/etc/letsencrypt/live/{NAME}/fullchain.pem", str(cert)),
        (f"/etc/letsencrypt/live/{NAME}/privkey.pem", str(key)),
        *upstreams,
    ]
    for old, new in replacements:
        assert old in text, f"{site.relative_to(ROOT)} no longer has {old!r}: update this test with it"
        text = text.replace(old, new)
    return text


class Nginx:
    def __init__(self, tmp: Path, site: str, worker_connections: int = 64) -> None:
        self.tmp = tmp
        (tmp / "site.conf").write_text(site, encoding="utf-8")
        user = "user root;\n" if os.geteuid() == 0 else ""
        temp = "".join(f"    {kind}_temp_path {tmp / kind};\n"
                       for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
        (tmp / "nginx.conf").write_text(
            f"{user}daemon off;\nworker_processes 1;\npid {tmp / 'nginx.pid'};\n"
            f"error_log {tmp / 'error.log'};\n"
            f"events {{ worker_connections {worker_connections}; }}\n"
            f"http {{\n    access_log off;\n{temp}    include {tmp / 'site.conf'};\n}}\n", encoding="utf-8")
        binary = needs.nginx()
        test = subprocess.run([binary, "-t", "-p", str(tmp), "-e", str(tmp / "error.log"),
                               "-c", str(tmp / "nginx.conf")], capture_output=True, text=True, timeout=30)
        assert test.returncode == 0, test.stderr
        self.proc = subprocess.Popen([binary, "-p", str(tmp), "-e", str(tmp / "error.log"),
                                      "-c", str(tmp / "nginx.conf")], stdout=subprocess.DEVNULL,
                                     stderr=subprocess.PIPE)

    def wait(self, url: str, ctx: ssl.SSLContext, host: dict[str, str], timeout: float = 20.0) -> None:
        """Until ``url`` (through this nginx) answers 200."""
        end = time.monotonic() + timeout
        while True:
            try:
                if httpx.get(url, verify=ctx, timeout=1, headers=host).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            if self.proc.poll() is not None or time.monotonic() > end:
                raise RuntimeError("nginx did not come up: " + (self.tmp / "error.log").read_text())
            time.sleep(0.1)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()  # SIGTERM to the master we started: fast shutdown of its workers
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)


@pytest.fixture
def proxied(tmp_path: Path, serve_process: Serve
            ) -> Iterator[tuple[int, int, ssl.SSLContext, Path]]:
    needs.nginx()
    needs.openssl()
    http_port, https_port = fixed_port(), fixed_port()
    srv = serve_process("--public-url", f"https://{NAME}:{https_port}", "--trusted-proxy", "127.0.0.1",
                        "--hello-timeout", "60")
    cert, key = self_signed(tmp_path)
    upstream = [("proxy_pass http://127.0.0.1:8000;", f"proxy_pass http://127.0.0.1:{srv.port};")]
    nginx = Nginx(tmp_path, render(SITE, http_port, https_port, cert, key, upstream), worker_connections=2048)
    ctx = ssl.create_default_context(cafile=str(cert))
    try:
        nginx.wait(f"https://127.0.0.1:{https_port}/healthz", ctx, {"host": f"{NAME}:{https_port}"})
        yield http_port, https_port, ctx, tmp_path
    finally:
        nginx.stop()


def test_nginx_tls_proxy_carries_pages_api_and_websocket_game(
    proxied: tuple[int, int, ssl.SSLContext, Path],
) -> None:
    http_port, https_port, ctx, _ = proxied
    public = f"https://{NAME}:{https_port}"
    host = {"host": f"{NAME}:{https_port}"}
    base = f"https://127.0.0.1:{https_port}"
    page = httpx.get(f"{base}/", headers=host, verify=ctx)
    assert page.status_code == 200 and "포커 방" in page.text
    assert page.headers["x-frame-options"] == "DENY"
    assert f"wss://{NAME}:{https_port}" in page.headers["content-security-policy"]
    assert httpx.get(f"{base}/static/app.js", headers=host, verify=ctx).status_code == 200
    body = {"nickname": "민수", "options": {}}
    created = httpx.post(f"{base}/api/rooms", json=body, headers=host, verify=ctx)
    assert created.status_code == 201, created.text
    room = created.json()
    assert room["link"] == f"{public}/r/{room['code']}"  # the link a friend can open
    # plain http is sent to https
    redirect = httpx.get(f"http://127.0.0.1:{http_port}/r/{room['code']}", headers={"host": NAME})
    assert redirect.status_code == 301 and redirect.headers["location"] == f"https://{NAME}/r/{room['code']}"

    async def play() -> list[dict[str, object]]:
        got: list[dict[str, object]] = []
        async with websockets.connect(f"wss://{NAME}:{https_port}/ws/{room['code']}", ssl=ctx,
                                      host="127.0.0.1", port=https_port, origin=public,
                                      open_timeout=10) as ws:
            await ws.send(json.dumps({"type": "hello", "token": room["token"]}))
            await ws.send(json.dumps({"type": "addBot"}))
            while True:
                msg = json.loads(await asyncio.wait_for(ws.recv(), 10))
                got.append(msg)
                if msg.get("type") == "lobby" and len(msg.get("players", [])) == 2:
                    return got

    messages = asyncio.run(play())
    assert messages[0]["type"] == "welcome"

    # a page of another site cannot open a socket through the proxy either
    async def foreign() -> None:
        async with websockets.connect(f"wss://{NAME}:{https_port}/ws/{room['code']}", ssl=ctx,
                                      host="127.0.0.1", port=https_port,
                                      origin="https://evil.example", open_timeout=10):
            pass

    with pytest.raises(websockets.InvalidStatus) as refused:
        asyncio.run(foreign())
    assert refused.value.response.status_code == 403


def test_nginx_cuts_one_clients_400_sockets_to_the_cap(
    proxied: tuple[int, int, ssl.SSLContext, Path],
) -> None:
    """400 websockets at once from one client through the shipped config: nginx's ``limit_conn`` and
    ``limit_req`` let at most the cap (100) through and answer the rest 429 itself; pokerroom behind it
    never sees them. Before the zones, all 400 reached pokerroom."""
    _http_port, https_port, ctx, _ = proxied
    public = f"https://{NAME}:{https_port}"
    room = httpx.post(f"https://127.0.0.1:{https_port}/api/rooms", json={"nickname": "민수", "options": {}},
                      headers={"host": f"{NAME}:{https_port}"}, verify=ctx).json()

    async def flood() -> tuple[list[int], list[object]]:
        async def one() -> tuple[int, object]:
            try:
                ws = await websockets.connect(f"wss://{NAME}:{https_port}/ws/{room['code']}", ssl=ctx,
                                              host="127.0.0.1", port=https_port, origin=public,
                                              open_timeout=30, ping_interval=None)
            except websockets.InvalidStatus as exc:
                return exc.response.status_code, None
            return 101, ws

        got = await asyncio.gather(*(one() for _ in range(400)))
        statuses = [status for status, _ in got]
        held = [ws for _, ws in got if ws is not None]
        for ws in held:
            await ws.close()  # type: ignore[attr-defined]
        return statuses, held

    statuses, _ = asyncio.run(flood())
    counts = {s: statuses.count(s) for s in set(statuses)}
    print(f"400 sockets through nginx from one client: {counts}")
    assert 0 < counts.get(101, 0) <= 100, counts
    assert counts.get(429, 0) >= 300, counts  # refused by nginx itself


def test_a_household_loads_the_page_together_through_the_proxy(
    proxied: tuple[int, int, ssl.SSLContext, Path],
) -> None:
    """Friends on one Wi-Fi come from one address, and a page load is about 60 requests for the page's own
    files (its modules, style sheets, icons): six phones loading the room at once through the shipped config
    get every file (the files have a zone of their own), where the zone of pages, API calls and sockets
    (burst 100, then 20 a second) refused two thirds of them (232 of 354)."""
    _http_port, https_port, ctx, _ = proxied
    static = ROOT / "src" / "pokerroom" / "web" / "static"
    files = sorted(p.relative_to(static).as_posix() for p in static.rglob("*")
                   if p.suffix in (".js", ".css", ".svg") and "fixtures" not in p.parts)
    assert len(files) >= 55, len(files)

    async def load() -> list[int]:
        limits = httpx.Limits(max_connections=24)
        async with httpx.AsyncClient(verify=ctx, headers={"host": f"{NAME}:{https_port}"}, limits=limits,
                                     timeout=30) as client:
            async def one(name: str) -> int:
                r = await client.get(f"https://127.0.0.1:{https_port}/static/{name}")
                return r.status_code

            return await asyncio.gather(*(one(name) for _phone in range(6) for name in files))

    statuses = asyncio.run(load())
    counts = {s: statuses.count(s) for s in set(statuses)}
    print(f"six page loads' files ({len(statuses)} requests) from one address: {counts}")
    assert counts == {200: len(statuses)}, counts


def test_the_cluster_config_ships_the_same_zones(tmp_path: Path) -> None:
    """deploy/nginx-cluster.conf carries the same per-client zones and passes ``nginx -t`` (its run through
    the real nodes is tests/cluster/test_nodes_nginx.py)."""
    needs.nginx()
    needs.openssl()
    site = ROOT / "deploy" / "nginx-cluster.conf"
    for conf in (SITE, site):
        text = conf.read_text(encoding="utf-8")
        assert "limit_conn_zone" in text and "limit_req_zone" in text, conf.name
        assert "limit_conn pokerroom_conn 100;" in text and "limit_req zone=pokerroom_req" in text, conf.name
        assert "limit_req zone=pokerroom_files burst=600" in text, conf.name
    cert, key = self_signed(tmp_path)
    nginx = Nginx(tmp_path, render(site, fixed_port(), fixed_port(), cert, key, []))  # asserts nginx -t
    nginx.stop()
