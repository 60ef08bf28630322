"""Room stores: one interface (:mod:`.base`), two backends, one group-commit writer.

- :mod:`.base`: stored shapes (``LogRow``, ``StoredRoom``), errors (``StoreError``, ``StoreUnavailable``,
  ``Fenced``), prepared operations and the ``RoomStore`` protocol;
- :mod:`.sqlite`: the embedded single-node ``Store`` (the default: ``make run`` needs no service);
- :mod:`.postgres`: ``PgStore`` for a cluster of nodes (imports psycopg, so it is only imported by
  :func:`open_store` or the cluster: the single-node server never loads it);
- :mod:`.writer`: ``GroupWriter``, the thread that commits every room's writes in batches.
"""

from __future__ import annotations

from pathlib import Path

from pokerroom.server.storage.base import (
    HANDS_KEPT,
    Fenced,
    LogRow,
    RoomStore,
    StoredRoom,
    StoreError,
    StoreUnavailable,
)
from pokerroom.server.storage.sqlite import Store
from pokerroom.server.storage.writer import GroupWriter

__all__ = ["HANDS_KEPT", "Fenced", "GroupWriter", "LogRow", "RoomStore", "Store", "StoreError",
           "StoreUnavailable", "StoredRoom", "open_store"]


def open_store(where: str | Path | None, **options: object) -> RoomStore:
    """A PostgreSQL store for a ``postgresql://`` (or ``postgres://``) URL, else the SQLite file at ``where``
    (``None``: in memory). ``options`` go to the backend's constructor."""
    if isinstance(where, str) and where.startswith(("postgresql://", "postgres://")):
        from pokerroom.server.storage.postgres import PgStore

        return PgStore(where, **options)  # type: ignore[arg-type]
    return Store(where, **options)  # type: ignore[arg-type]
