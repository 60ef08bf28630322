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
from serving import Serve, free_port

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


def render_site(http_port: int, https_port: int, upstream: int, cert: Path, key: Path) -> str:
    text = SITE.read_text(encoding="utf-8")
    replacements = [
        ("    listen [::]:80;\n", ""),
        ("    listen [::]:443 ssl;\n", ""),
        ("listen 80;", f"listen 127.0.0.1:{http_port};"),
        ("listen 443 ssl;", f"listen 127.0.0.1:{https_port} ssl;"),
        (f"/etc/letsencrypt/live/{NAME}/fullchain.pem", str(cert)),
        (f"/etc/letsencrypt/live/{NAME}/privkey.pem", str(key)),
        ("proxy_pass http://127.0.0.1:8000;", f"proxy_pass http://127.0.0.1:{upstream};"),
    ]
    for old, new in replacements:
        assert old in text, f"deploy/nginx.conf no longer has {old!r}: update this test with it"
        text = text.replace(old, new)
    return text


class Nginx:
    def __init__(self, tmp: Path, site: str) -> None:
        self.tmp = tmp
        (tmp / "site.conf").write_text(site, encoding="utf-8")
        user = "user root;\n" if os.geteuid() == 0 else ""
        temp = "".join(f"    {kind}_temp_path {tmp / kind};\n"
                       for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
        (tmp / "nginx.conf").write_text(
            f"{user}daemon off;\nworker_processes 1;\npid {tmp / 'nginx.pid'};\n"
            f"error_log {tmp / 'error.log'};\n"
            f"events {{ worker_connections 64; }}\n"
            f"http {{\n    access_log off;\n{temp}    include {tmp / 'site.conf'};\n}}\n", encoding="utf-8")
        binary = needs.nginx()
        test = subprocess.run([binary, "-t", "-p", str(tmp), "-e", str(tmp / "error.log"),
                               "-c", str(tmp / "nginx.conf")], capture_output=True, text=True, timeout=30)
        assert test.returncode == 0, test.stderr
        self.proc = subprocess.Popen([binary, "-p", str(tmp), "-e", str(tmp / "error.log"),
                                      "-c", str(tmp / "nginx.conf")], stdout=subprocess.DEVNULL,
                                     stderr=subprocess.PIPE)

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
    http_port, https_port = free_port(), free_port()
    srv = serve_process("--public-url", f"https://{NAME}:{https_port}")
    cert, key = self_signed(tmp_path)
    nginx = Nginx(tmp_path, render_site(http_port, https_port, srv.port, cert, key))
    ctx = ssl.create_default_context(cafile=str(cert))
    try:
        end = time.monotonic() + 20
        while True:
            try:
                if httpx.get(f"https://127.0.0.1:{https_port}/healthz", verify=ctx, timeout=1,
                             headers={"host": f"{NAME}:{https_port}"}).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if nginx.proc.poll() is not None or time.monotonic() > end:
                raise RuntimeError("nginx did not come up: " + (tmp_path / "error.log").read_text())
            time.sleep(0.1)
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
