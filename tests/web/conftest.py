"""Fixtures for the browser tests: Debian's chromium through Playwright, and the real room server.

- ``live_server``: ``python -m pokerroom serve`` in a subprocess (tests/serving.py) on a free port with a
  temporary data directory (one per pytest-xdist worker, so workers never share a port or a store).
- ``fast_server``: the same server for one test, its clock five times as fast as the wall's (turns time out).
- ``browser``: one headless chromium per worker (never downloaded: Debian's, see ``needs.chromium``; missing,
  it fails under CI and ``make test``).
- ``open_page``: a page of its own browser context (own localStorage = own player) with a viewport, new or
  wiped since its last test (``page_pool``, tests/web/page_pool.py); every console error and page error is
  recorded and the test fails at teardown if there was any.
- ``static_page``: serves ``src/pokerroom/web/static`` and ``tests/web/fixtures`` under a fake origin through
  request routing, for the fixture-view tests that need no server.
"""

from __future__ import annotations

import mimetypes
import os
import sys
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
FAKE_ORIGIN = "http://pokerroom.test"


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


def _route_static(route: Any) -> None:
    path = route.request.url.split("?", 1)[0][len(FAKE_ORIGIN) :]
    if path.startswith("/static/"):
        f = STATIC / path[len("/static/") :]
    elif path.startswith("/fixtures/"):
        f = FIXTURES / path[len("/fixtures/") :]
    else:
        route.fulfill(status=404, body="not found")
        return
    if not f.is_file():
        route.fulfill(status=404, body="not found")
        return
    ctype = (
        "text/javascript"
        if f.suffix == ".js"
        else (mimetypes.guess_type(str(f))[0] or "application/octet-stream")
    )
    route.fulfill(status=200, body=f.read_bytes(), headers={"content-type": f"{ctype}; charset=utf-8"})


@pytest.fixture
def static_page(open_page: Callable[..., Any], page_pool: PagePool) -> Callable[..., Any]:
    """``static_page(path, viewport=...)`` opens ``/fixtures/...`` of the fake origin (no server)."""

    def make(path: str, viewport: dict[str, int] | None = None, name: str = "static") -> Any:
        page = open_page(name, viewport)
        page_pool.route(page, f"{FAKE_ORIGIN}/**", _route_static)
        page.goto(f"{FAKE_ORIGIN}{path}")
        return page

    return make
