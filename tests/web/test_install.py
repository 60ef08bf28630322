"""The room on a home screen: the page names a web manifest Chrome can install (its own installability check
over CDP, every icon fetched and of the size it claims), a real favicon instead of ``data:,``. (The screen
kept awake while a game runs is checked in test_play.py's whole game, from the table to the results.)"""

from __future__ import annotations

import json
import struct
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

pytestmark = pytest.mark.browser

def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


def test_manifest_icons_and_installability(live_server: Any, open_page: Any) -> None:
    base = live_server.http
    page = open_page("install")
    page.goto(base + "/")
    cdp = page.context.new_cdp_session(page)
    manifest = cdp.send("Page.getAppManifest")
    assert manifest["url"] == f"{base}/static/manifest.webmanifest"
    assert manifest["errors"] == [], manifest["errors"]
    data = json.loads(manifest["data"])
    assert data["lang"] == "ko" and data["display"] == "standalone" and data["start_url"] == "/"
    # Chrome's own verdict: nothing of the page's stands between it and "add to home screen" (a test
    # browser's context is incognito, which Chrome names too: the one condition that is the harness's)
    errors = [e["errorId"] for e in cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]]
    assert [e for e in errors if e != "in-incognito"] == []
    for icon in data["icons"]:
        r = httpx.get(base + icon["src"])
        assert r.status_code == 200 and r.headers["content-type"].startswith(icon["type"])
        if icon["type"] == "image/png":
            w, h = (int(x) for x in icon["sizes"].split("x"))
            assert png_size(r.content) == (w, h)
    favicon = page.evaluate("() => document.querySelector('link[rel=icon]').href")
    assert favicon == f"{base}/static/icons/icon.svg" and httpx.get(favicon).status_code == 200
    touch = httpx.get(page.evaluate("() => document.querySelector('link[rel=apple-touch-icon]').href"))
    assert png_size(touch.content) == (180, 180)
    r = httpx.get(f"{base}/static/manifest.webmanifest")
    assert r.headers["content-type"].startswith("application/manifest+json")
