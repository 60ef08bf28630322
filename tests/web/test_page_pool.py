"""The page pool's promise (tests/web/page_pool.py): a page given back and taken again is a fresh player —
nothing of the last test's storage, cookies, viewport or listeners — and a context a wipe cannot clean is
closed instead of reused."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from page_pool import PagePool
from webplay import MOBILE

pytestmark = pytest.mark.browser

SMALL = {"width": 320, "height": 568}
#: what the last test could have left behind, read on a plain page of the same origin (no app script)
LEFT_BEHIND = ("() => [localStorage.getItem('who'), sessionStorage.getItem('seat'), document.cookie,"
               " innerWidth, innerHeight]")


@pytest.fixture
def pool(browser: Any) -> Iterator[PagePool]:
    own = PagePool(browser, locale="ko-KR", device_scale_factor=1, has_touch=False)
    yield own
    own.close()


def _dirty_the_storage(page: Any, origin: str) -> None:
    page.goto(f"{origin}/static/no-such-file")  # a plain 404 of the origin: no app script
    page.evaluate("() => { localStorage.setItem('who', 'last test'); sessionStorage.setItem('seat', '3');"
                  " document.cookie = 'token=abc; path=/'; }")
    assert page.evaluate(LEFT_BEHIND) == ["last test", "3", "token=abc", 390, 844]


def test_a_page_given_back_is_a_fresh_player(pool: PagePool, live_server: Any) -> None:
    page = pool.take(MOBILE)
    errors: list[str] = []
    pool.listen(page, "console", lambda msg: errors.append(msg.text))
    _dirty_the_storage(page, live_server.http)
    pool.give_back(page)

    again = pool.take(SMALL)
    assert again is page and (pool.created, pool.reused) == (1, 1)
    again.goto(f"{live_server.http}/static/no-such-file")
    assert again.evaluate(LEFT_BEHIND) == [None, None, "", 320, 568]
    before = len(errors)
    again.evaluate("() => console.error('after the wipe')")
    assert len(errors) == before, "the last test's console listener still hears this page"


@pytest.mark.parametrize("dirt", ["init script", "own listener", "second origin", "second page"])
def test_what_a_wipe_cannot_undo_closes_the_context(pool: PagePool, live_server: Any, dirt: str) -> None:
    page = pool.take(MOBILE)
    _dirty_the_storage(page, live_server.http)
    if dirt == "init script":
        page.add_init_script("window.__leftOver = 1")
    elif dirt == "own listener":
        page.on("dialog", lambda d: d.accept())
    elif dirt == "second origin":
        page.goto(f"{live_server.http.replace('127.0.0.1', 'localhost')}/static/no-such-file")
    else:
        page.context.new_page()
    pool.give_back(page)

    assert page.is_closed() and not pool.idle
    fresh = pool.take(MOBILE)
    assert fresh is not page and (pool.created, pool.reused) == (2, 0)
    fresh.goto(f"{live_server.http}/static/no-such-file")
    assert fresh.evaluate("() => [localStorage.getItem('who'), window.__leftOver]") == [None, None]
