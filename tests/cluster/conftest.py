"""Fixtures of the cluster tests: a Redis key prefix of their own on the real Redis (tests/services.py)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from services import REDIS_URL, redis_prefix


@pytest.fixture
def prefix() -> Iterator[str]:
    """A key prefix of this test's own; its keys are deleted afterwards."""
    with redis_prefix("cl") as p:
        yield p


@pytest.fixture
def redis_url() -> str:
    return REDIS_URL
