"""The invite QR code the server draws (server/invite.py, ``GET /api/rooms/{code}/qr.svg``): the served SVG
itself is read back module by module and decoded with zxing-cpp, so what a phone's camera sees is the room's
link; level M's error correction really is there; the route draws only the link of a room that exists."""

from __future__ import annotations

import re

import httpx
import numpy as np
from server_helpers import LiveServer

import needs
from pokerroom.server.invite import qr_matrix, qr_svg

zxingcpp = needs.module("zxingcpp")

TEXTS = ["http://192.168.0.12:8000/r/k3v9q2mxa7", "https://poker.example/r/abcdefghjk", "a", "한글 링크 ☃",
         "x" * 213]


def decode(rows: list[list[bool]], scale: int = 4) -> list[str]:
    """The texts zxing-cpp reads from a module matrix drawn with a 4-module white border."""
    a = np.pad(np.array(rows, dtype=np.uint8), 4)
    img = ((1 - a) * 255).astype(np.uint8).repeat(scale, 0).repeat(scale, 1)
    return [r.text for r in zxingcpp.read_barcodes(img)]


def svg_modules(svg: bytes) -> list[list[bool]]:
    """The dark modules of segno's SVG, from its one path of horizontal runs ("M4 4.5h7m1 0h3 ... m-29 1h1"):
    each run is a line through the middle of a row of modules, the quiet zone cut off again."""
    text = svg.decode()
    size = int(re.search(r'viewBox="0 0 (\d+) (\d+)"', text).group(1))  # type: ignore[union-attr]
    path = re.search(r'class="qrline"[^>]* d="([^"]+)"', text).group(1)  # type: ignore[union-attr]
    grid = [[False] * size for _ in range(size)]
    x = y = 0.0
    for op, args in re.findall(r"([Mmh])([^Mmh]*)", path):
        nums = [float(n) for n in re.findall(r"-?\d+(?:\.\d+)?", args)]
        if op == "M":
            x, y = nums
        elif op == "m":
            x, y = x + nums[0], y + nums[1]
        else:
            for col in range(int(x), int(x + nums[0])):
                grid[int(y)][col] = True
            x += nums[0]
    return [row[4:size - 4] for row in grid[4:size - 4]]


def test_the_served_svg_holds_the_matrix_and_reads_back() -> None:
    for text in TEXTS:
        rows = svg_modules(qr_svg(text))
        assert rows == qr_matrix(text)
        assert decode(rows) == [text]


def test_level_m_survives_damage() -> None:
    """Level M restores ~15 % of codewords: a few flipped data modules still read back."""
    link = TEXTS[0]
    rows = qr_matrix(link)
    assert len(rows) == 29  # version 3: the smallest that holds 38 bytes at level M
    for x, y in ((12, 12), (14, 20), (20, 14), (22, 25), (16, 28), (27, 18)):
        rows[y][x] = not rows[y][x]
    assert decode(rows) == [link]


def test_route_draws_only_an_existing_rooms_link(server: LiveServer) -> None:
    made = httpx.post(f"{server.http}/api/rooms", json={"nickname": "민수", "options": {}}).json()
    r = httpx.get(f"{server.http}/api/rooms/{made['code']}/qr.svg")
    assert r.status_code == 200 and r.headers["content-type"] == "image/svg+xml"
    assert "private" in r.headers["cache-control"]
    assert decode(svg_modules(r.content)) == [made["link"]]
    for code in ("abcdefghjk", "not-a-code", "ABCDEFGHJK"):
        missing = httpx.get(f"{server.http}/api/rooms/{code}/qr.svg")
        assert missing.status_code == 404 and missing.json()["error"]["code"] == "room_not_found"
