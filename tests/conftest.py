"""Puts this folder on ``sys.path`` (after each folder's own), so every test imports the suite-wide helpers
``needs`` (what a test requires from the machine), ``services`` (Redis, PostgreSQL) and ``serving`` (free
ports and the server process harness) by name, under ``--import-mode=importlib``."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

HERE = str(Path(__file__).resolve().parent)
if HERE not in sys.path:
    sys.path.append(HERE)

from serving import Serve, ServeProcess  # noqa: E402

# every server of the suite is forked from its worker's warm parent (tests/forked_serve.py)
ServeProcess.fork = True


@pytest.fixture
def serve_process(tmp_path: Path) -> Iterator[Serve]:
    """``serve_process(*extra, data=None, wait=True, **kw)``: a started ``pokerroom serve`` (tests/serving.py)
    in ``data`` (default: a fresh folder under ``tmp_path``); every one is stopped at teardown."""
    started: list[ServeProcess] = []

    def start(*extra: str, data: Path | None = None, wait: bool = True, **kw: Any) -> ServeProcess:
        srv = ServeProcess(data or tmp_path / f"serve{len(started)}", *extra, **kw)
        started.append(srv)
        srv.start()
        return srv.wait() if wait else srv

    yield start
    for srv in started:
        srv.stop()


#: files of long runs (statistical play, many random games, timing under attack, real-engine full games): the
#: whole suite runs them, the inner loop (``make check``) does not
LONG_RUNS = frozenset({
    "engine/test_properties.py", "engine/test_seating.py", "bots/test_play_style.py", "bots/test_bots.py",
    "oracle/test_pokerkit_differential.py", "hands/test_omaha_hilo.py", "server/test_hardening.py",
    "server/test_real_engine.py", "server/test_edge.py", "server/test_kick.py", "server/test_clock_pause.py",
    "server/test_abuse.py",
})


#: browser-test files with a test of a minute or more on a loaded machine, longest first: they start the
#: browser block, so the suite does not end on one worker still playing a whole night while the others wait
LONG_BROWSER_FILES = ("web/test_money.py", "web/test_english.py", "web/test_play.py", "web/test_moving.py",
                      "web/test_whole_night.py")


def _needs_a_service(rel: str, nodeid: str) -> bool:
    """Does this test talk to Redis, PostgreSQL or nginx? ``make check`` (the inner loop) leaves those out."""
    return (rel.startswith(("cluster/", "storage/test_pg_")) or rel == "server/test_nginx.py"
            or "postgres" in nodeid)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark the tests that need a service (``-m "not service"`` leaves them out) and the long runs.

    The file order is kept on purpose, browser tests last: Playwright's sync API leaves an event loop running
    in its worker's thread, so a test calling ``asyncio.run()`` after a browser test on that worker fails."""
    for item in items:
        rel = Path(str(item.fspath)).resolve().relative_to(HERE).as_posix()
        if _needs_a_service(rel, item.nodeid):
            item.add_marker(pytest.mark.service)
        if rel in LONG_RUNS:
            item.add_marker(pytest.mark.slow)
    items[:] = _long_browser_files_first(items)


def _long_browser_files_first(items: list[pytest.Item]) -> list[pytest.Item]:
    """The same items, the files of :data:`LONG_BROWSER_FILES` moved to the start of the browser tests (whole
    files, so module fixtures stay together; every browser test still comes after every other test)."""
    def rank(item: pytest.Item) -> int:
        rel = Path(str(item.fspath)).resolve().relative_to(HERE).as_posix()
        return LONG_BROWSER_FILES.index(rel) if rel in LONG_BROWSER_FILES else len(LONG_BROWSER_FILES)

    first = next((i for i, item in enumerate(items) if item.get_closest_marker("browser")), len(items))
    rest = items[first:]
    if any(not item.get_closest_marker("browser") for item in rest):
        return items  # a selection that mixes them some other way keeps its order
    return items[:first] + sorted(rest, key=rank)  # sorted() is stable: the other files keep their order
