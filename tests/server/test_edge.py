"""The browser edge of a real ``pokerroom serve``: printed addresses, invite links from configuration only,
the Host allow-list (DNS rebinding), JSON-only API writes (cross-site creation) and security headers."""

from __future__ import annotations

import socket
from pathlib import Path

import httpx

from pokerroom.server.edge.hosts import resolve_addresses
from serving import Serve, ServeProcess

KOREAN_BAD_HOST = "이 주소로는 방 서버에 들어올 수 없어요. 방장이 보낸 초대 링크로 들어와 주세요"


def raw_handshake(port: int, path: str, host: str, origin: str | None = None) -> int:
    """Send a websocket upgrade with exactly this ``Host`` (and ``Origin``) and return the HTTP status."""
    lines = [f"GET {path} HTTP/1.1", f"Host: {host}", "Upgrade: websocket", "Connection: Upgrade",
             "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==", "Sec-WebSocket-Version: 13"]
    if origin is not None:
        lines.append(f"Origin: {origin}")
    with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
        s.sendall(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1"))
        head = b""
        while b"\r\n" not in head:
            chunk = s.recv(1024)
            if not chunk:
                break
            head += chunk
    return int(head.split(b" ", 2)[1])


def create(srv: ServeProcess, host: str | None = None) -> httpx.Response:
    headers = {"host": host} if host else {}
    return httpx.post(f"{srv.http}/api/rooms", json={"nickname": "민수", "options": {}}, headers=headers)


def test_default_is_loopback_and_prints_where_to_open_and_share(serve_process: Serve) -> None:
    srv = serve_process()
    out = srv.output()
    assert f"이 컴퓨터에서 열기  http://127.0.0.1:{srv.port}" in out
    assert f"친구에게 보낼 주소  http://127.0.0.1:{srv.port}" in out
    assert "--host 0.0.0.0" in out  # says how to let friends in
    room = create(srv).json()
    assert room["link"] == f"http://127.0.0.1:{srv.port}/r/{room['code']}"
    assert httpx.get(f"{srv.http}/api/rooms/{room['code']}").json()["link"] == room["link"]


def test_foreign_host_is_refused_on_http_and_websocket(serve_process: Serve) -> None:
    srv = serve_process()
    code = create(srv).json()["code"]
    for path in ("/", f"/r/{code}", "/static/app.js", f"/api/rooms/{code}", "/healthz"):
        r = httpx.get(f"{srv.http}{path}", headers={"host": f"evil.example:{srv.port}"})
        assert r.status_code == 400, path
        assert r.json()["error"] == {"code": "bad_host", "message": KOREAN_BAD_HOST}
    assert create(srv, host="evil.example").status_code == 400
    assert httpx.get(f"{srv.http}/healthz").json()["rooms"] == 1  # the refused POST created nothing
    # DNS rebinding: the attacker's page has Host and Origin of its own name; the handshake must not open
    evil = f"evil.example:{srv.port}"
    assert raw_handshake(srv.port, f"/ws/{code}", evil, f"http://{evil}") == 403
    assert raw_handshake(srv.port, f"/ws/{code}", evil) == 403
    for name in (f"127.0.0.1:{srv.port}", f"localhost:{srv.port}"):
        assert raw_handshake(srv.port, f"/ws/{code}", name, f"http://{name}") == 101
    assert raw_handshake(srv.port, f"/ws/{code}", f"[::1]:{srv.port}") == 101
    # loopback names are ours, but the link still comes from configuration, not from Host
    room = create(srv, host=f"localhost:{srv.port}").json()
    assert room["link"] == f"http://127.0.0.1:{srv.port}/r/{room['code']}"


def test_cross_site_text_plain_post_is_refused(serve_process: Serve) -> None:
    srv = serve_process()
    body = '{"nickname": "민수", "options": {}}'.encode()
    for ctype in ("text/plain", "text/plain;charset=UTF-8", "application/x-www-form-urlencoded",
                  "multipart/form-data; boundary=x", None):
        headers = {"origin": "https://evil.example"}
        if ctype:
            headers["content-type"] = ctype
        r = httpx.post(f"{srv.http}/api/rooms", content=body, headers=headers)
        assert r.status_code == 415, ctype
        assert r.json()["error"] == {"code": "bad_content_type",
                                     "message": "요청 형식이 맞지 않아요(JSON으로 보내 주세요)"}
    assert httpx.get(f"{srv.http}/healthz").json()["rooms"] == 0
    ok = httpx.post(f"{srv.http}/api/rooms", content=body,
                    headers={"content-type": "application/json; charset=utf-8"})
    assert ok.status_code == 201


def test_public_url_sets_links_and_its_host_is_accepted(serve_process: Serve) -> None:
    srv = serve_process("--public-url", "https://Poker.Example/", "--allowed-host", "my-laptop.local")
    assert "친구에게 보낼 주소  https://poker.example" in srv.output()
    room = create(srv, host="poker.example").json()
    assert room["link"] == f"https://poker.example/r/{room['code']}"
    # the Host a request came with never leaks into a link
    assert create(srv, host=f"127.0.0.1:{srv.port}").json()["link"].startswith("https://poker.example/r/")
    assert httpx.get(f"{srv.http}/", headers={"host": "my-laptop.local:8000"}).status_code != 400
    assert httpx.get(f"{srv.http}/", headers={"host": "other.example"}).status_code == 400
    # behind the proxy the browser's Origin is the public URL: the websocket opens
    code = room["code"]
    assert raw_handshake(srv.port, f"/ws/{code}", "poker.example", "https://poker.example") == 101
    assert raw_handshake(srv.port, f"/ws/{code}", "poker.example", "https://evil.example") == 403


def test_public_url_from_the_environment_and_bad_values(serve_process: Serve, tmp_path: Path) -> None:
    srv = serve_process(env={"POKERROOM_PUBLIC_URL": "http://192.168.0.77:8000"})
    assert create(srv).json()["link"].startswith("http://192.168.0.77:8000/r/")
    bad = serve_process("--public-url", "ftp://x.example/", wait=False)
    assert bad.proc is not None and bad.proc.wait(timeout=30) == 2
    assert "--public-url must start with http:// or https://" in bad.output()


def test_all_interfaces_share_the_lan_address(serve_process: Serve) -> None:
    srv = serve_process("--host", "0.0.0.0")
    expected = resolve_addresses("0.0.0.0", srv.port)
    out = srv.output()
    assert f"이 컴퓨터에서 열기  http://127.0.0.1:{srv.port}" in out
    assert f"친구에게 보낼 주소  {expected.share_url}" in out
    room = create(srv).json()
    assert room["link"] == f"{expected.share_url}/r/{room['code']}"
    if not expected.lan_fallback:  # this machine has a LAN address: it is answered, a foreign name is not
        lan_host = expected.share_url.split("//", 1)[1]
        assert httpx.get(f"{srv.http}/healthz", headers={"host": lan_host}).status_code == 200
    else:
        assert "LAN 주소를 찾지 못해" in out
    assert httpx.get(f"{srv.http}/healthz", headers={"host": "evil.example"}).status_code == 400


SECURITY = {
    "x-frame-options": "DENY",
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
}


def test_security_headers_on_pages_assets_and_api(serve_process: Serve) -> None:
    srv = serve_process()
    code = create(srv).json()["code"]
    for path in ("/", f"/r/{code}", "/static/app.js", "/static/style.css", f"/api/rooms/{code}",
                 "/api/rooms/abcdefghjk", "/static/missing.js", "/healthz"):
        r = httpx.get(f"{srv.http}{path}")
        for name, value in SECURITY.items():
            assert r.headers.get(name) == value, (path, name)
        csp = r.headers["content-security-policy"]
        directives = {d.split()[0]: d.split()[1:] for d in csp.split("; ")}
        assert directives["default-src"] == ["'none'"]
        assert directives["script-src"] == ["'self'"]  # no inline script, no eval
        assert directives["frame-ancestors"] == ["'none'"]
        assert directives["connect-src"][0] == "'self'"
        assert f"ws://127.0.0.1:{srv.port}" in directives["connect-src"]
        assert "'unsafe-inline'" not in csp and "'unsafe-eval'" not in csp
    refused = httpx.get(f"{srv.http}/", headers={"host": "evil.example"})
    assert refused.headers.get("x-frame-options") == "DENY"
