"""The browser edge: headers every request must carry and every response gets.

Why an ASGI wrapper around the whole app rather than checks in each endpoint: a refusal must happen before
any route runs (a rebinding page must not even read ``/``), for HTTP and websocket handshakes alike, and
security headers must be on every page, asset and error, including the ones other code adds later.

- ``Host`` must be one of the configured names (:mod:`pokerroom.server.edge.hosts`): DNS rebinding protection.
- ``POST``/``PUT``/``PATCH``/``DELETE`` under ``/api/`` must be ``application/json``: a cross-site form or a
  ``fetch`` with ``text/plain`` needs no CORS preflight, so without this any web page could create rooms
  from a visitor's browser; a JSON body from another origin needs a preflight, which we never answer.
- Responses get a strict Content-Security-Policy (scripts, styles and connections from this origin only,
  no inline script, no framing), ``X-Frame-Options``, ``X-Content-Type-Options`` and ``Referrer-Policy``.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from typing import Any
from urllib.parse import urlsplit

from pokerroom.server.edge.hosts import host_allowed, url_host

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

BAD_HOST = "bad_host"
BAD_CONTENT_TYPE = "bad_content_type"
EDGE_MESSAGES: dict[str, str] = {
    BAD_HOST: "이 주소로는 방 서버에 들어올 수 없어요. 방장이 보낸 초대 링크로 들어와 주세요",
    BAD_CONTENT_TYPE: "요청 형식이 맞지 않아요(JSON으로 보내 주세요)",
}

_UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})


def websocket_sources(public_urls: Iterable[str]) -> list[str]:
    """``ws://``/``wss://`` origins matching the configured public URLs, for ``connect-src``.

    Why: CSP level 3 lets ``'self'`` cover same-host websockets, but older browsers (Safari before 15.4)
    need them spelled out; they come from configuration, never from the request.
    """
    out: list[str] = []
    for url in public_urls:
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            continue
        ws = "wss" if parts.scheme == "https" else "ws"
        port = f":{parts.port}" if parts.port else ""
        src = f"{ws}://{url_host(parts.hostname)}{port}"
        if src not in out:
            out.append(src)
    return out


def content_security_policy(public_urls: Iterable[str] = ()) -> str:
    """The page's policy: nothing by default, then only what the client uses (no inline script or style
    element, images from here or ``data:`` for the favicon, websockets to this origin, no framing)."""
    connect = " ".join(["'self'", *websocket_sources(public_urls)])
    return "; ".join([
        "default-src 'none'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "font-src 'self'",
        f"connect-src {connect}",
        "manifest-src 'self'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ])


def security_headers(public_urls: Iterable[str] = ()) -> list[tuple[bytes, bytes]]:
    """The raw headers added to every HTTP response."""
    pairs = [
        ("content-security-policy", content_security_policy(public_urls)),
        ("x-frame-options", "DENY"),
        ("x-content-type-options", "nosniff"),
        ("referrer-policy", "no-referrer"),
    ]
    return [(k.encode("latin-1"), v.encode("latin-1")) for k, v in pairs]


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key.lower() == name:
            return bytes(value).decode("latin-1")
    return None


def is_json_content_type(value: str | None) -> bool:
    """``application/json`` (parameters such as ``charset`` allowed); anything else, or none, is not."""
    if value is None:
        return False
    return value.split(";", 1)[0].strip().lower() == "application/json"


async def _refuse(send: Send, status: int, code: str, extra: list[tuple[bytes, bytes]]) -> None:
    body = json.dumps({"error": {"code": code, "message": EDGE_MESSAGES[code]}}).encode("utf-8")
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()), *extra]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


class BrowserEdge:
    """ASGI middleware: refuse foreign ``Host`` names and non-JSON API writes; add security headers."""

    def __init__(self, app: ASGIApp, allowed_hosts: frozenset[str], public_urls: Iterable[str] = ()) -> None:
        self.app = app
        self.allowed_hosts = allowed_hosts
        self.headers = security_headers(public_urls)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind == "websocket":
            if not host_allowed(_header(scope, b"host"), self.allowed_hosts):
                await receive()  # websocket.connect
                await send({"type": "websocket.close", "code": 1008})  # before accept: HTTP 403
                return
            await self.app(scope, receive, send)
            return
        if kind != "http":
            await self.app(scope, receive, send)
            return
        if not host_allowed(_header(scope, b"host"), self.allowed_hosts):
            await _refuse(send, 400, BAD_HOST, self.headers)
            return
        path: str = scope.get("path", "")
        if scope.get("method") in _UNSAFE_METHODS and path.startswith("/api/") \
                and not is_json_content_type(_header(scope, b"content-type")):
            await _refuse(send, 415, BAD_CONTENT_TYPE, self.headers)
            return
        extra = self.headers

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                present = {bytes(k).lower() for k, _ in message.get("headers", ())}
                message["headers"] = [*message.get("headers", ()), *(p for p in extra if p[0] not in present)]
            await send(message)

        await self.app(scope, receive, send_with_headers)
