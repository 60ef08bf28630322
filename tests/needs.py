"""What a test needs from the machine (a browser, nginx, Redis, PostgreSQL, an optional package) and what
happens when it is missing: one place decides.

Why: a skipped test is a passed suite. On a developer's partial machine a missing component may skip its
tests, but where the suite is meant to be whole — CI (``CI=true``) or ``make test``, which installs every
component first and sets ``POKERROOM_TESTS_REQUIRE=all`` — a missing component fails the test with a
sentence naming it and how to get it, so a broken install can never look like a green run.

``POKERROOM_TESTS_REQUIRE`` is ``all`` or a comma-separated list of component names (``chromium``,
``nginx``, ``openssl``, ``redis``, ``redis-server``, ``postgres``, ``phh-hands`` or a Python module's
name). The paths and addresses looked at can be moved with environment variables
(``POKERROOM_TEST_CHROMIUM``, ``POKERROOM_TEST_NGINX``, ``POKERROOM_TEST_REDIS``, ``POKERROOM_TEST_PG``,
``POKERROOM_TEST_PHH_HANDS``), which is also how a run proves that a missing component fails rather than
skips.

The rules engine is deliberately not a component: a server test that cannot import it errors.
"""

from __future__ import annotations

import importlib
import os
import shutil
from pathlib import Path
from types import ModuleType
from typing import NoReturn

import pytest

REQUIRE_ENV = "POKERROOM_TESTS_REQUIRE"
REDIS_URL = os.environ.get("POKERROOM_TEST_REDIS", "redis://127.0.0.1:6379/0")
PG_ADMIN_URL = os.environ.get("POKERROOM_TEST_PG", "postgresql://postgres@127.0.0.1:5432/postgres")


def required(component: str) -> bool:
    """True where a missing ``component`` must fail: CI, or ``POKERROOM_TESTS_REQUIRE`` names it."""
    if os.environ.get("CI", "").strip().lower() in ("true", "1", "yes"):
        return True
    wanted = {w.strip() for w in os.environ.get(REQUIRE_ENV, "").split(",") if w.strip()}
    return "all" in wanted or component in wanted


def missing(component: str, what: str, fix: str) -> NoReturn:
    """Fail (where the component is required) or skip, with the same sentence."""
    sentence = f"{what} ({fix})"
    if required(component):
        pytest.fail(f"{sentence}: this run requires {component} (CI or {REQUIRE_ENV})", pytrace=False)
    pytest.skip(sentence, allow_module_level=True)


def module(name: str, fix: str = "pip install -e '.[test,bench]'") -> ModuleType:
    """``pytest.importorskip`` that fails where the module is required."""
    try:
        return importlib.import_module(name)
    except ImportError as exc:
        missing(name, f"Python module {name} does not import: {exc}", fix)


def executable(component: str, env: str, *candidates: str, fix: str) -> str:
    """The path of a program: ``$env`` if set (it must then be that file), else the first of ``candidates``
    found on PATH or as an absolute path."""
    given = os.environ.get(env)
    if given:
        if os.access(given, os.X_OK):
            return given
        missing(component, f"{component} is not at {given} (${env})", fix)
    for candidate in candidates:
        found = shutil.which(candidate) if "/" not in candidate else (
            candidate if os.access(candidate, os.X_OK) else None)
        if found:
            return found
    missing(component, f"{component} is not installed", fix)


def chromium() -> str:
    """Debian's chromium (never a downloaded browser)."""
    return executable("chromium", "POKERROOM_TEST_CHROMIUM", "/usr/bin/chromium", fix="make chromium")


def nginx() -> str:
    return executable("nginx", "POKERROOM_TEST_NGINX", "nginx", "/usr/sbin/nginx", fix="make nginx")


def openssl() -> str:
    return executable("openssl", "POKERROOM_TEST_OPENSSL", "openssl", fix="apt-get install openssl")


def redis_server() -> str:
    """The redis-server program (a test's private Redis it may kill and restart)."""
    return executable("redis-server", "POKERROOM_TEST_REDIS_SERVER", "redis-server", "/usr/bin/redis-server",
                      fix="make services")


def redis(url: str = REDIS_URL) -> None:
    """The test Redis answers PING."""
    import redis as redis_py

    client = redis_py.Redis.from_url(url, socket_timeout=5, socket_connect_timeout=5)
    try:
        client.ping()
    except redis_py.RedisError as exc:
        missing("redis", f"Redis is not reachable at {url} ({exc})", "make services")
    finally:
        client.close()


def postgres(url: str = PG_ADMIN_URL) -> None:
    """The test PostgreSQL accepts a connection."""
    import psycopg

    try:
        psycopg.connect(url, connect_timeout=5).close()
    except psycopg.OperationalError as exc:
        missing("postgres", f"PostgreSQL is not reachable at {url} ({exc})", "make services")


def phh_hands() -> Path:
    """The shared real hands in PHH (158 files of the PHH dataset: hold'em and Omaha) the PHH import and
    export are checked against: ``$POKERROOM_TEST_PHH_HANDS``, or the shared folder of this workplace."""
    folder = Path(os.environ.get("POKERROOM_TEST_PHH_HANDS", "/work/shared/phh_hands"))
    if not any(folder.glob("*.phh")):
        missing("phh-hands", f"no PHH hands in {folder}",
                "set POKERROOM_TEST_PHH_HANDS to a folder of .phh files")
    return folder
