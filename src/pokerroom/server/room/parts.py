"""What a handler of a client message is given: the rooms' parts it may use, and nothing else.

Why a value of its own: a handler (``handlers``, ``seating``) is a plain function, not a method, so it
names what it works with. It gets the engine and the clock (to compute a change), the limits (to refuse
one), the driver (to carry a change out: store, swap, publish) and the views (to answer the sender or
tell the room), not the registry of rooms nor its lifecycle.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pokerroom.server.edge.limits import Limits
    from pokerroom.server.engine_port import GameEngine
    from pokerroom.server.room.driver import RoomDriver
    from pokerroom.server.room.timers import Clock
    from pokerroom.server.room.views import RoomViews


@dataclass(frozen=True, slots=True)
class Parts:
    """The rooms' parts a handler uses (built once by ``Rooms``)."""

    engine: GameEngine
    clock: Clock
    limits: Limits
    driver: RoomDriver
    views: RoomViews
