"""Fixtures for the browser tests: Debian's chromium through Playwright, and the real room server.

- ``live_server``: ``python -m pokerroom serve`` in a subprocess (tests/serving.py) on a free port with a
  temporary data directory (one per pytest-xdist worker, so workers never share a port or a store).
- ``fast_server``: the same server for one test, its clock five times as fast as the wall's (turns time out).
- ``browser``: one headless chromium per worker (never downloaded: Debian's, see ``needs.chromium``; missing,
  it fails under CI and ``make test``).
- ``open_page``: a page of its own browser context (own localStorage = own player) with a viewport, new or
  wiped since its last test (``page_pool``, tests/web/page_pool.py); every console error and page error is
  recorded and the test fails at teardown if there was any.
- ``static_page``: opens a page of ``src/pokerroom/web/static`` and ``tests/web/fixtures``, served by a plain
  HTTP server in a thread of the worker (``static_origin``), for the fixture-view tests that need no server.
"""

from __future__ import annotations

import http.server
import mimetypes
import os
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

import needs
from serving import ServeProcess

sys.path.insert(0, str(Path(__file__).resolve().parent))

from page_pool import PagePool
from webplay import DESKTOP, MOBILE, SHOTS, shot  # noqa: F401

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "src" / "pokerroom" / "web" / "static"
FIXTURES = Path(__file__).resolve().parent / "fixtures"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    # Chromium takes only the last --disable-features, so Playwright's own list (copied from its launch
    # arguments) is repeated here with two more: the omnibox's WebUI popups. Headless, each new context
    # still loaded both in a renderer of their own: 3.0 s of CPU per new context with them, 1.3 s without
    # (measured in one run, five contexts each), for a popup no test can open
    "--disable-features=" + ",".join([
        "AvoidUnnecessaryBeforeUnloadCheckSync", "DestroyProfileOnBrowserClose", "HttpsUpgrades",
        "HttpsFirstBalancedModeAutoEnable", "LensOverlay", "MediaRouter", "PaintHolding",
        "ThirdPartyStoragePartitioning", "AvoidCorsURLLoaderRestartOnRedirect", "TcpPortRandomizationWin",
        "OptimizationHints", "NetworkTimeServiceQuerying", "AimEnabled", "PreconnectToSearch",
        "WebUIOmniboxPopup", "WebUIOmniboxAimPopup",
    ]),
]


@pytest.fixture(scope="session")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServeProcess]:
    srv = ServeProcess(tmp_path_factory.mktemp("pokerroom-data"), "--host", "127.0.0.1",
                       # every browser of the session comes from 127.0.0.1: no per-address caps (they
                       # would refuse it; docs/decisions/0011-edge-caps.md)
                       "--rooms-per-address", "0", "--room-creations-per-minute", "0",
                       "--connections-per-address", "0", "--bot-delay-ms", "200", warm_up=True).up()
    yield srv
    srv.stop()


@pytest.fixture
def fast_server(tmp_path: Path) -> Iterator[ServeProcess]:
    """This checkout's server with a clock five times faster than the wall's (a 15 s turn: 3 real seconds)."""
    path = os.pathsep.join([str(ROOT / "src"), os.environ.get("PYTHONPATH", "")])
    srv = ServeProcess(tmp_path / "data", "--host", "127.0.0.1", "--rooms-per-address", "0",
                       "--room-creations-per-minute", "0", "--connections-per-address", "0",
                       "--time-scale", "0.2", env={"PYTHONPATH": path}).up()
    yield srv
    srv.stop()


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    chromium = needs.chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS, headless=True)
        yield b
        b.close()


class PageRecorder:
    """A page plus every console/page error it produced."""

    def __init__(self, page: Any, name: str, pool: PagePool) -> None:
        self.page = page
        self.name = name
        self.errors: list[str] = []
        self.allowed: list[str] = []  # substrings of errors a test provokes on purpose
        pool.listen(page, "console", self._console)
        pool.listen(page, "pageerror", lambda exc: self.errors.append(f"pageerror: {exc}"))

    def _console(self, msg: Any) -> None:
        if msg.type == "error" and not any(a in msg.text for a in self.allowed):
            self.errors.append(f"console: {msg.text}")


@pytest.fixture(scope="session")
def page_pool(browser: Any) -> Iterator[PagePool]:
    """The worker's idle browser contexts (tests/web/page_pool.py): each test's pages come from here."""
    pool = PagePool(browser, locale="ko-KR", device_scale_factor=1, has_touch=False)
    yield pool
    pool.close()


@pytest.fixture
def open_page(page_pool: PagePool) -> Iterator[Callable[..., Any]]:
    """``open_page(name, viewport)``: a page of its own browser context (own storage = own player), fresh
    or wiped (tests/web/page_pool.py); every console error and page error fails the test at teardown."""
    recorders: list[PageRecorder] = []

    def make(name: str = "page", viewport: dict[str, int] | None = None) -> Any:
        page = page_pool.take(viewport or MOBILE)
        rec = PageRecorder(page, name, page_pool)
        recorders.append(rec)
        page.recorder = rec
        return page

    yield make
    errors = [f"{r.name}: {e}" for r in recorders for e in r.errors]
    for rec in recorders:
        page_pool.give_back(rec.page)
    assert not errors, "console errors:\n" + "\n".join(errors)


class _StaticFiles(http.server.SimpleHTTPRequestHandler):
    """``/static/…`` from the package and ``/fixtures/…`` from the tests, with the server's content types.

    Why a server and not Playwright's request routing (which served them before): a routed request crosses
    Chromium, Playwright's driver and Python, and routing turns the browser's cache off; a harness page loads
    44 files, and fifteen loads took Chromium 12.3–12.8 s of CPU routed against 4.6 s from this server."""

    def translate_path(self, path: str) -> str:
        path = path.split("?", 1)[0].split("#", 1)[0]
        if path == "/favicon.ico":  # (a browser asks for one on its own: the room's icon)
            path = "/static/icons/icon.svg"
        for prefix, folder in (("/static/", STATIC), ("/fixtures/", FIXTURES)):
            if path.startswith(prefix):
                f = (folder / path[len(prefix):]).resolve()
                if f.is_file() and f.is_relative_to(folder):
                    return str(f)
        return str(FIXTURES / "no such file")  # (a 404)

    def guess_type(self, path: str | os.PathLike[str]) -> str:
        ctype = "text/javascript" if str(path).endswith(".js") else (
            mimetypes.guess_type(str(path))[0] or "application/octet-stream")
        return f"{ctype}; charset=utf-8"

    def log_message(self, format: str, *args: Any) -> None:  # (a test's output is its own)
        pass


@pytest.fixture(scope="session")
def static_origin() -> Iterator[str]:
    """The origin of :class:`_StaticFiles`, one per worker, on a free port of 127.0.0.1."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _StaticFiles)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, name="static-files", daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


@pytest.fixture
def static_page(open_page: Callable[..., Any], static_origin: str) -> Callable[..., Any]:
    """``static_page(path, viewport=...)``: ``/fixtures/...`` of :func:`static_origin` (no room server)."""

    def make(path: str, viewport: dict[str, int] | None = None, name: str = "static") -> Any:
        page = open_page(name, viewport)
        page.goto(f"{static_origin}{path}")
        return page

    return make
