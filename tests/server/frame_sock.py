"""A room connection for tests that drive :class:`Rooms` directly (no websocket): it keeps every frame it is
sent, parsed, and the close code it was given. One class for every such test, so what "a socket received"
means is the same in all of them."""

from __future__ import annotations

import json
from typing import Any

from pokerroom.server.room.rooms import Connection


class FrameSock(Connection):
    """Keeps every frame it is sent (parsed) and the close code."""

    def __init__(self) -> None:
        super().__init__()
        self.frames: list[dict[str, Any]] = []
        self.closed: int | None = None

    def send(self, text: str) -> None:
        self.frames.append(json.loads(text))

    def close(self, code: int) -> None:
        self.closed = code

    def last(self, kind: str) -> dict[str, Any] | None:
        """The newest frame of this type (None if none came)."""
        return next((f for f in reversed(self.frames) if f["type"] == kind), None)

    def of(self, kind: str) -> list[dict[str, Any]]:
        """Every frame of this type, oldest first."""
        return [f for f in self.frames if f["type"] == kind]
