"""Getting friends in: the invite link from the server's configuration, the 복사 button on plain http, the
QR code (the server's image, decoded here with zxing-cpp from the screen), the Web Share button, and the page
under its CSP."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import needs
from serving import ServeProcess

sys.path.insert(0, str(Path(__file__).resolve().parent))

import webplay as wp
from webplay import MOBILE, shot

pytestmark = pytest.mark.browser

zxingcpp = needs.module("zxingcpp")

ROOT = Path(__file__).resolve().parents[2]
SMALL = {"width": 360, "height": 640}
# resolved to 127.0.0.1 by the friend browser only: a plain-http, LAN-like origin
FRIEND_HOST = "room.friend.test"


def png_gray(png: bytes) -> np.ndarray:
    """A Playwright screenshot (8-bit RGB/RGBA, non-interlaced PNG) as a grey-level array: a tiny decoder,
    so reading the on-screen QR code needs no imaging library."""
    import struct
    import zlib

    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, header = 8, b"", b""
    while pos < len(png):
        length, kind = struct.unpack(">I4s", png[pos:pos + 8])
        chunk = png[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = chunk
        elif kind == b"IDAT":
            idat += chunk
        pos += 12 + length
    width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", header)
    assert depth == 8 and colour in (2, 6) and interlace == 0
    bpp = 3 if colour == 2 else 4
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows = np.zeros((height, stride), dtype=np.int32)
    prev = np.zeros(stride, dtype=np.int32)
    for y in range(height):
        f = raw[y * (stride + 1)]
        line = np.frombuffer(raw, dtype=np.uint8, count=stride, offset=y * (stride + 1) + 1).astype(np.int32)
        out = line.copy()
        if f == 1 or f == 3 or f == 4:
            for x in range(stride):
                a = out[x - bpp] if x >= bpp else 0
                if f == 1:
                    out[x] = (line[x] + a) & 255
                elif f == 3:
                    out[x] = (line[x] + ((a + prev[x]) >> 1)) & 255
                else:
                    c = prev[x - bpp] if x >= bpp else 0
                    p = a + prev[x] - c
                    pa, pb, pc = abs(p - a), abs(p - prev[x]), abs(p - c)
                    pred = a if pa <= pb and pa <= pc else (prev[x] if pb <= pc else c)
                    out[x] = (line[x] + pred) & 255
        elif f == 2:
            out = (line + prev) & 255
        rows[y] = out
        prev = out
    pixels = rows.reshape(height, width, bpp)[:, :, :3]
    return pixels.mean(axis=2).astype(np.uint8)


def decode_png(png: bytes) -> list[str]:
    """Texts of the QR codes in a screenshot."""
    return [r.text for r in zxingcpp.read_barcodes(png_gray(png))]


# -------------------------------------------------- a friend on plain http (not a secure context)
@pytest.fixture(scope="module")
def friend_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``pokerroom serve --public-url http://room.friend.test:<port>``: a link as a LAN or tunnel gives."""
    srv = ServeProcess(tmp_path_factory.mktemp("friend-data"), "--public-url", f"http://{FRIEND_HOST}:{{port}}",
                       "--bot-delay-ms", "200").up()
    yield f"http://{FRIEND_HOST}:{srv.port}"
    srv.stop()


@pytest.fixture(scope="module")
def friend_browser(browser: Any) -> Iterator[Any]:
    """A second chromium (same Playwright) that resolves room.friend.test to 127.0.0.1, as a phone resolves
    a LAN address: a plain-http page that is not a secure context."""
    from conftest import CHROMIUM_ARGS

    rule = f"--host-resolver-rules=MAP {FRIEND_HOST} 127.0.0.1"
    b = browser.browser_type.launch(executable_path=needs.chromium(), headless=True,
                                    args=[*CHROMIUM_ARGS, rule])
    yield b
    b.close()


def friend_page(browser: Any, viewport: dict[str, int]) -> tuple[Any, Any, list[str]]:
    ctx = browser.new_context(viewport=viewport, locale="ko-KR", device_scale_factor=1)
    ctx.set_default_timeout(10000)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    return ctx, page, errors


@pytest.mark.parametrize("viewport", [MOBILE, SMALL], ids=["390x844", "360x640"])
def test_copy_on_plain_http_qr_and_link_from_configuration(
    friend_server: str, friend_browser: Any, viewport: dict[str, int]
) -> None:
    ctx, page, errors = friend_page(friend_browser, viewport)
    try:
        response = page.goto(friend_server + "/")
        assert response is not None and "script-src 'self'" in response.headers["content-security-policy"]
        code = wp.create_room_ui(page, friend_server, "민수", "holdem")
        link = f"{friend_server}/r/{code}"
        page.wait_for_function(
            "(l) => document.querySelector('[data-testid=invite-link]').value === l", arg=link
        )
        # plain http on a non-loopback name: no Clipboard API, no Web Share; the fallback must copy anyway
        secure = page.evaluate("() => [window.isSecureContext, typeof navigator.clipboard]")
        assert secure == [False, "undefined"]
        assert page.locator("[data-testid=share-link]").count() == 0
        page.evaluate("""() => { window.__copied = []; document.addEventListener('copy',
            () => window.__copied.push(String(document.getSelection()))); }""")
        page.click("[data-testid=copy-link]")
        toast = page.locator("[data-testid=toast]")
        assert toast.inner_text() == "링크를 복사했어요"
        assert page.evaluate("() => window.__copied") == [link]
        assert page.locator("textarea.copy-buffer").count() == 0  # the buffer is gone again
        # the QR code on the screen reads back as the invite link
        qr = page.locator("[data-testid=invite-qr] img")
        page.wait_for_function("() => document.querySelector('[data-testid=invite-qr] img')?.complete")
        box = qr.bounding_box()
        assert box is not None and box["width"] >= 110 and box["x"] >= 0
        assert box["x"] + box["width"] <= viewport["width"]
        assert decode_png(qr.screenshot()) == [link]
        page.wait_for_timeout(200)
        name = "invite-plain-http-" + ("390" if viewport == MOBILE else "360")
        shot(page, name)
        page.evaluate("() => window.scrollTo(0, document.body.scrollHeight)")
        shot(page, name + "-bottom")
        assert not errors, errors
    finally:
        ctx.close()


def test_copy_failure_says_so_in_korean(friend_server: str, friend_browser: Any) -> None:
    ctx, page, errors = friend_page(friend_browser, MOBILE)
    try:
        page.add_init_script("document.execCommand = () => false;")
        wp.create_room_ui(page, friend_server, "민수", "holdem")
        page.click("[data-testid=copy-link]")
        toast = page.locator("[data-testid=toast]").inner_text()
        assert toast == "복사하지 못했어요. 링크를 길게 눌러 복사해 주세요"
        assert page.evaluate("() => document.activeElement.dataset.testid") == "invite-link"
        assert not errors, errors
    finally:
        ctx.close()


# ------------------------------------------------------------------ share sheet and CSP on the usual server
def test_share_button_uses_the_web_share_sheet(live_server: Any, open_page: Any) -> None:
    page = open_page("host")
    page.add_init_script("navigator.share = async (data) => { window.__shared = data; };")
    code = wp.create_room_ui(page, live_server.http, "민수", "holdem")
    link = f"{live_server.http}/r/{code}"
    page.click("[data-testid=share-link]")
    page.wait_for_function("() => !!window.__shared")
    shared = page.evaluate("() => window.__shared")
    assert shared["url"] == link and code in shared["text"]
    assert page.locator("[data-testid=invite-link]").input_value() == link
    for vp, name in ((MOBILE, "390"), (SMALL, "360")):
        page.set_viewport_size(vp)
        row = page.locator(".share").bounding_box()
        assert row is not None and row["x"] + row["width"] <= vp["width"]
        for testid in ("copy-link", "share-link"):
            b = page.locator(f"[data-testid={testid}]").bounding_box()
            assert b is not None and b["x"] + b["width"] <= vp["width"] and b["height"] >= 36
        shot(page, f"invite-share-{name}")


def test_csp_violations_fail_the_browser_tests(live_server: Any, open_page: Any) -> None:
    """The page runs under the server's CSP; an inline script is refused, and the refusal is a console
    error that the open_page fixture turns into a failure (taken back here, as this one is on purpose)."""
    page = open_page("csp")
    response = page.goto(live_server.http + "/")
    assert response is not None and response.headers["x-frame-options"] == "DENY"
    page.wait_for_selector("[data-testid=create-room]")
    page.evaluate("""() => { const s = document.createElement('script');
        s.textContent = 'window.__inline = 1'; document.head.append(s);
        const d = document.createElement('div'); d.setAttribute('style', 'color: red');
        document.body.append(d); }""")
    page.wait_for_timeout(300)
    assert page.evaluate("() => window.__inline") is None
    refused = [e for e in page.recorder.errors if "Content Security Policy" in e]
    assert any("inline script" in e for e in refused), page.recorder.errors
    assert any("inline style" in e for e in refused), page.recorder.errors
    page.recorder.errors[:] = [e for e in page.recorder.errors if e not in refused]
