"""Compatibility module: the SQLite store now lives in :mod:`pokerroom.server.storage` (issue #14).

Existing imports (``from pokerroom.server.store import Store, LogRow, GroupWriter, ...``) keep working; new
code imports from :mod:`pokerroom.server.storage`. Never imports psycopg.
"""

from __future__ import annotations

from pokerroom.server.storage.base import (
    HANDS_KEPT,
    Fenced,
    LogRow,
    StoredRoom,
    StoreError,
    StoreUnavailable,
)
from pokerroom.server.storage.sqlite import Store
from pokerroom.server.storage.writer import GroupWriter

__all__ = ["HANDS_KEPT", "Fenced", "GroupWriter", "LogRow", "Store", "StoreError", "StoreUnavailable",
           "StoredRoom"]
