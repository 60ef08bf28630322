"""Every finished hand of a room's night, compressed in memory: what the replayer pages through and replays.

Why a module of its own, and compressed: the room's ``hands`` keep the newest few hands as records (the
recorder and the driver amend the last one), ~29 KB of Python objects each. A night is hundreds of hands;
as records that would be tens of MB per room. Kept here as zlib-compressed JSON they are ~1 KB each (the
JSON is ~5-10 KB), so a room's whole night — up to :data:`pokerroom.server.storage.HANDS_KEPT` hands, the
store's bound (docs/decisions/0044-hand-replayer.md) — is about a megabyte, and a hand is decoded only
when someone asks for it. The store holds the same hands (its ``hands`` table); a restored room refills
this from there.
"""

from __future__ import annotations

import zlib
from collections import OrderedDict
from typing import Any

import orjson

from pokerroom.server.storage import HANDS_KEPT

Stored = dict[str, Any]  # a finished hand as stored (``FinishedHand.to_json``: gameNo, version, record)


class HandArchive:
    """Finished hands by ``seq`` (oldest first), at most :data:`HANDS_KEPT`; an amended hand keeps its place.
    """

    def __init__(self, limit: int = HANDS_KEPT) -> None:
        self.limit = limit
        self._hands: OrderedDict[int, tuple[int, bytes]] = OrderedDict()  # seq -> (version, zlib JSON)
        self.changes = 0  # bumped by every put: what a cached page of this archive was built from

    def __len__(self) -> int:
        return len(self._hands)

    def put(self, seq: int, data: Stored) -> None:
        """A hand as stored: new, or the same ``seq`` amended in place."""
        self._hands[seq] = (int(data["version"]), zlib.compress(orjson.dumps(data), 6))
        self.changes += 1
        while len(self._hands) > self.limit:
            self._hands.popitem(last=False)

    def version(self, seq: int) -> int | None:
        """The version of hand ``seq`` (changes when it is amended), or None when it is not kept."""
        got = self._hands.get(seq)
        return None if got is None else got[0]

    def get(self, seq: int) -> Stored | None:
        got = self._hands.get(seq)
        if got is None:
            return None
        data: Stored = orjson.loads(zlib.decompress(got[1]))
        return data

    def page(self, before: int | None, count: int) -> tuple[list[tuple[int, Stored]], bool]:
        """Up to ``count`` hands older than seq ``before`` (None: the newest), newest first, as
        ``(seq, stored)``, and whether older ones remain."""
        seqs = [s for s in reversed(self._hands) if before is None or s < before]
        out = [(s, data) for s in seqs[:count] if (data := self.get(s)) is not None]
        return out, len(seqs) > count
