"""Who takes a dead node's rooms: an even split of its rooms over the survivors, the same on every node.

Why: every node scans the store for rooms whose lease is gone and takes them; left at that, the survivor
whose scan came first after the dead node's leases ran out took nearly all of its rooms (they all expire at
once: one renewal renews them all), so one survivor carried the dead node's whole load while another got
none. Instead each node remembers, from its own scans, which node held each room (``last_owner``); when a
node's rooms lose their lease, the node that held them is the *deceased* and its rooms its *estate*. Every
survivor splits the estate the same way, with no message between them: the estate's rooms in code order,
dealt round-robin to the survivors in id order (the live nodes of the registry, the deceased left out). Each
survivor takes up to its share at once, its own part first and then what another heir has not taken yet (so
a lone room goes to whichever survivor scans first, not to a chosen one that may scan later); what is left
after ``grace_s`` is anyone's once an heir has left the registry (it died too), and after
``SLOW_HEIR_GRACES`` graces in any case (an heir that is alive but slow, still loading its part on a loaded
machine, keeps it meanwhile; one that cannot take it, say cut off from the store, gives it up then). Nothing
here is needed for safety: two nodes racing for a room still meet at the lease's ``SET NX`` and the fencing
token.

The split is computed from what each node saw, so two survivors agree as long as they saw the same owners
and the same live nodes: both scan every ``ttl/4`` and read the same registry, and a room of the estate the
deceased took in its very last moments, or a node that joined during the takeover, costs at most that room
a wait of ``grace_s``.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

#: How many graces an heir that is still live (its heartbeat fresh) keeps its part: on a loaded machine an
#: heir takes its rooms one at a time, each loaded from the store, and may still be at it when the grace
#: runs out; an heir gone from the registry leaves its part to anyone once the grace is over.
SLOW_HEIR_GRACES = 4


@dataclass(frozen=True)
class Estate:
    """The rooms a node held when its leases ran out, the survivors that share them, and when it was seen."""

    rooms: tuple[str, ...]  # sorted
    heirs: tuple[str, ...]  # sorted node ids
    seen: float  # monotonic seconds when this node first saw one of the rooms without an owner

    @property
    def share(self) -> int:
        """The most rooms of the estate one heir takes before the grace is over: its rooms over the heirs,
        rounded up (so no heir takes more than its share + 1)."""
        return -(-len(self.rooms) // len(self.heirs))

    def heir(self, code: str) -> str | None:
        try:
            index = self.rooms.index(code)
        except ValueError:
            return None
        return self.heirs[index % len(self.heirs)]


class Succession:
    """One node's view of which room each node holds, and of the estates of nodes whose leases ran out."""

    def __init__(self, node_id: str, grace_s: float) -> None:
        self.node_id = node_id
        self.grace_s = grace_s
        self.last_owner: dict[str, str] = {}  # room code -> the node that held its lease when last seen
        self.estates: dict[str, Estate] = {}  # deceased node id -> its estate

    def observe(self, owners: dict[str, str | None], live: set[str], now: float) -> list[str]:
        """A scan's findings: every stored room's lease holder (None: free) and the live nodes' ids. Returns
        the free rooms this node should take now: of each estate, up to this node's share (its own part
        first, then what another heir has not taken yet), all of it once the grace is over; and any free room
        no estate claims."""
        free = [code for code, owner in owners.items() if owner is None]
        for code in free:
            self._estate_of(code, live, now)
        for code, owner in owners.items():
            if owner is not None:
                self.last_owner[code] = owner
        for code in [c for c in self.last_owner if c not in owners]:
            del self.last_owner[code]  # closed for good
        for dead, estate in list(self.estates.items()):
            if not any(owners.get(code, "") is None for code in estate.rooms):
                del self.estates[dead]  # every room of it has an owner again (or is gone)
        take = [code for code in free if self._estate(code) is None]
        for estate in self.estates.values():
            left = [code for code in estate.rooms if owners.get(code, "") is None]
            waited = now - estate.seen
            heirs_live = all(h in live or h == self.node_id for h in estate.heirs)
            if waited < self.grace_s or (heirs_live and waited < SLOW_HEIR_GRACES * self.grace_s):
                mine = [code for code in left if estate.heir(code) == self.node_id]
                room = max(0, estate.share - self._held(estate))
                left = (mine + [code for code in left if code not in mine])[:room]
            take += left
        return take

    def took(self, code: str) -> None:
        """This node just took ``code`` over (it counts toward its share before the next scan sees it)."""
        self.last_owner[code] = self.node_id

    def heir(self, code: str) -> str | None:
        """The node whose part the free room ``code`` is (None: no estate says; anyone may take it)."""
        estate = self._estate(code)
        return None if estate is None else estate.heir(code)

    def patience(self, code: str, live: set[str], now: float) -> float:
        """Seconds this node should leave the free room ``code`` to its heir before taking it itself (a
        socket here needs the room now): 0 when no estate names an heir, this node is the heir or still
        short of its share, or the heir had its time."""
        estate = self._estate_of(code, live, now)
        if estate is None or estate.heir(code) == self.node_id or self._held(estate) < estate.share:
            return 0.0
        return max(0.0, self.grace_s - (now - estate.seen))

    async def heir_took(self, code: str, live: set[str],
                        owner_of: Callable[[str], Awaitable[str | None]]) -> str | None:
        """Wait, at most the :meth:`patience` this node owes the free room's heir, for the heir to take it
        (``owner_of``: the room's lease holder now): its new owner, or None if it is still free."""
        end = time.monotonic() + self.patience(code, live, time.monotonic())
        while time.monotonic() < end:
            await asyncio.sleep(min(0.1, end - time.monotonic()))
            owner = await owner_of(code)
            if owner is not None:
                return owner
        return None

    def _estate_of(self, code: str, live: set[str], now: float) -> Estate | None:
        """The estate ``code`` belongs to, made the first time one of the deceased's rooms is seen free."""
        dead = self.last_owner.get(code)
        if dead is None:
            return None
        estate = self.estates.get(dead)
        if estate is None:
            rooms = tuple(sorted(c for c, owner in self.last_owner.items() if owner == dead))
            heirs = tuple(sorted((live | {self.node_id}) - {dead}))
            estate = self.estates[dead] = Estate(rooms, heirs, now)
        return estate

    def _estate(self, code: str) -> Estate | None:
        dead = self.last_owner.get(code)
        return None if dead is None else self.estates.get(dead)

    def _held(self, estate: Estate) -> int:
        return sum(1 for code in estate.rooms if self.last_owner.get(code) == self.node_id)
