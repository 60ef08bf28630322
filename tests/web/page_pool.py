"""Browser pages handed from one test to the next, wiped in between: a fresh player without a fresh process.

Why: a new browser context costs Chromium about 0.45 s of CPU and 0.7 s of wall time before it loads
anything (a new renderer process, its fonts and V8 set up again), and the browser tests open several
hundred of them: that was the largest single cost of the suite. A context whose page is wiped is a fresh
player to the next test, the promise ``open_page`` makes ("own localStorage = own player"): its storage
(``localStorage``, IndexedDB, cookies, caches) cleared for every origin it visited, the tab's
``sessionStorage`` cleared from that origin's document (so a page that visited more than one origin is not
reused), the fixture's listeners and routes removed, the page on ``about:blank``, its viewport set again.
The page (the tab) is kept, not replaced: a context without a page loses its renderer process, and a new
one costs most of what a new context does.

A context is only reused when the test did nothing a wipe cannot undo: anything that installs state beyond
storage (an init script, an exposed function, a route, a CDP session, permissions, offline mode, the fake
clock, media emulation, extra headers, a default timeout, a listener of the test's own, a second page)
marks it *dirty* through the wrappers below, and a dirty context is closed as before
(``tests/web/test_page_pool.py`` checks both).

Also here: ``wait_for_function`` polls every 50 ms unless a test asks otherwise. Playwright's default polls
on every animation frame, which keeps a headless Chromium drawing 60 frames a second for as long as a test
waits (about 7 % of a core per waiting page), where no test needs an answer within 50 ms.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

from playwright.sync_api import BrowserContext, Page

#: the poll interval of ``wait_for_function`` when a test gives none (ms)
POLL_MS = 50
_DIRTY = "_pokerroom_dirty"

# methods whose effect outlives a storage wipe: calling one marks the context dirty (closed, not reused)
_PAGE_DIRTYING = ("add_init_script", "expose_function", "expose_binding", "route", "route_from_har",
                  "emulate_media", "set_extra_http_headers", "on", "once", "add_locator_handler",
                  "set_default_timeout", "set_default_navigation_timeout")
_CONTEXT_DIRTYING = ("add_init_script", "expose_function", "expose_binding", "route", "route_from_har",
                     "grant_permissions", "set_offline", "set_geolocation", "set_extra_http_headers",
                     "new_cdp_session", "add_cookies", "on", "once", "new_page")


def _mark(obj: Page | BrowserContext) -> None:
    ctx = obj.context if isinstance(obj, Page) else obj
    setattr(ctx, _DIRTY, True)


def _dirtying(cls: type, name: str) -> None:
    original = getattr(cls, name)

    def wrapper(self: Any, *args: Any, **kwargs: Any) -> Any:
        _mark(self)
        return original(self, *args, **kwargs)

    wrapper.__wrapped__ = original  # type: ignore[attr-defined]
    setattr(cls, name, wrapper)


def _dirtying_property(cls: type, name: str) -> None:
    prop = getattr(cls, name)

    def getter(self: Any) -> Any:
        _mark(self)
        return prop.fget(self)

    setattr(cls, name, property(getter))


def _polling_default(cls: type) -> None:
    original = cls.wait_for_function

    def wait_for_function(self: Any, expression: str, *, arg: Any = None, timeout: float | None = None,
                          polling: float | str | None = None) -> Any:
        return original(self, expression, arg=arg, timeout=timeout,
                        polling=POLL_MS if polling is None else polling)

    cls.wait_for_function = wait_for_function


def install() -> None:
    """Wrap Playwright's classes once per process (idempotent)."""
    if getattr(Page, "_pokerroom_pool", False):
        return
    for name in _PAGE_DIRTYING:
        _dirtying(Page, name)
    for name in _CONTEXT_DIRTYING:
        _dirtying(BrowserContext, name)
    _dirtying_property(Page, "clock")
    _dirtying_property(BrowserContext, "clock")
    _polling_default(Page)
    Page._pokerroom_pool = True  # type: ignore[attr-defined]


def _untracked(obj: Any, name: str) -> Callable[..., Any]:
    """The original (unwrapped) method, for the pool's own listeners and routes."""
    method = getattr(type(obj), name)
    return lambda *a, **kw: getattr(method, "__wrapped__", method)(obj, *a, **kw)


class PagePool:
    """Idle contexts of one browser, each with its one page, wiped and ready for the next test."""

    def __init__(self, browser: Any, **context_options: Any) -> None:
        install()
        self.browser = browser
        self.options = context_options
        self.idle: list[BrowserContext] = []
        self.created = 0
        self.reused = 0

    def take(self, viewport: dict[str, int]) -> Page:
        """A clean page at ``viewport``: an idle one when there is one, else a new context's."""
        if self.idle:
            ctx = self.idle.pop()
            page = ctx.pages[0]
            page.set_viewport_size(viewport)
            self.reused += 1
            return page
        ctx = self.browser.new_context(viewport=viewport, **self.options)
        ctx.set_default_timeout(10000)
        page = _untracked(ctx, "new_page")()
        ctx._pokerroom_origins = set()  # type: ignore[attr-defined]
        _untracked(page, "on")("framenavigated", lambda frame: self._visited(page, frame))
        page._pokerroom_listeners = []  # type: ignore[attr-defined]
        self.created += 1
        return page

    @staticmethod
    def _visited(page: Page, frame: Any) -> None:
        parts = urlsplit(frame.url)
        if parts.scheme in ("http", "https"):
            page.context._pokerroom_origins.add(f"{parts.scheme}://{parts.netloc}")  # type: ignore[attr-defined]

    def listen(self, page: Page, event: str, handler: Callable[..., Any]) -> None:
        """``page.on`` for the fixture's own listeners (a test's own marks the context dirty); they are
        removed when the page is given back."""
        _untracked(page, "on")(event, handler)
        page._pokerroom_listeners.append((event, handler))  # type: ignore[attr-defined]

    def give_back(self, page: Page) -> None:
        """Wipe ``page``'s context and keep it for the next test, or close it when a wipe cannot undo what
        the test did (see the module docstring)."""
        ctx = page.context
        try:
            # one origin at most: the tab's sessionStorage is cleared from that origin's document
            reusable = (not getattr(ctx, _DIRTY, False) and ctx.pages == [page] and not page.is_closed()
                        and len(ctx._pokerroom_origins) <= 1)  # type: ignore[attr-defined]
            if reusable:
                self._wipe(ctx, page)
                self.idle.append(ctx)
                return
        except Exception:  # a page that cannot be wiped is closed: the next test gets a new context
            pass
        ctx.close()

    @staticmethod
    def _wipe(ctx: BrowserContext, page: Page) -> None:
        for event, handler in page._pokerroom_listeners:  # type: ignore[attr-defined]
            page.remove_listener(event, handler)
        page._pokerroom_listeners.clear()  # type: ignore[attr-defined]
        page.unroute_all(behavior="ignoreErrors")
        if page.url.startswith(("http:", "https:")):
            page.evaluate("() => sessionStorage.clear()")
        page.goto("about:blank")
        cdp = _untracked(ctx, "new_cdp_session")(page)
        try:
            for origin in ctx._pokerroom_origins:  # type: ignore[attr-defined]
                cdp.send("Storage.clearDataForOrigin", {"origin": origin, "storageTypes": "all"})
        finally:
            cdp.detach()
        ctx._pokerroom_origins.clear()  # type: ignore[attr-defined]
        ctx.clear_cookies()
        if page.evaluate("() => document.readyState") != "complete":
            raise RuntimeError("about:blank did not settle")

    def close(self) -> None:
        for ctx in self.idle:
            ctx.close()
        self.idle.clear()
