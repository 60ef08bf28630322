"""The room's ledger (장부): every player's buy-ins, rebuys, chips and net over every game of the room.

Why the room keeps it: "한 판 더" starts a new game in the same room, and the engine's state knows one game
only; friends want the whole night's figures. So the room stores the *closed* games' totals with its table
(``Table.ledger``, in the snapshot's meta like every other part of the room: a restart keeps it, the room's
deletion takes it away, poker.md §12) and adds the game in play, read from the engine's accounts
(:mod:`pokerroom.engine.accounts`, the same figures as the view's ``handNet`` and the result's ``net``).

Rules:
- A game is folded into the closed totals when the next game starts (``start``), never before: until then
  its state is the room's, and reading it live gives the same figures as folding it would.
- A row per player who has sat in any game of the room, in the order first seen, with the nickname they had
  (a player who left keeps their row and name). ``buyIn``: startingChips once per game sat in (a late
  joiner too); ``rebuyChips``: startingChips per rebuy; ``closed``: the chips they ended the earlier games
  with; ``stack``: their settled chips in the current game (null when not in it); ``net`` = closed + stack −
  buyIn − rebuyChips. The nets sum to minus ``unowned`` (a carried pot nobody owns yet), so to 0 between
  games and whenever nothing is carried.
- Chips stay virtual: the ledger only counts this room's chips and moves none anywhere (poker.md §12).

This module is the stored data (part of the room's table); room/ledger_figures.py reads a table into the
figures its sockets are sent.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any


@dataclass(frozen=True, slots=True)
class Entry:
    """One player's totals over the room's closed games."""

    id: str
    nickname: str
    games: int = 0
    buy_in: int = 0
    rebuys: int = 0
    rebuy_chips: int = 0
    closed: int = 0  # chips they ended those games with

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "nickname": self.nickname, "games": self.games, "buyIn": self.buy_in,
                "rebuys": self.rebuys, "rebuyChips": self.rebuy_chips, "closed": self.closed}

    @staticmethod
    def from_json(data: dict[str, Any]) -> Entry:
        return Entry(str(data["id"]), str(data["nickname"]), int(data["games"]), int(data["buyIn"]),
                     int(data["rebuys"]), int(data["rebuyChips"]), int(data["closed"]))


@dataclass(frozen=True, slots=True)
class Ledger:
    """The closed games of a room: how many, and each player's totals (first seen first). ``names``: the
    nicknames of players of the game in play who are no longer members (removed when a game starts), so a
    row never loses its name."""

    games: int = 0
    entries: tuple[Entry, ...] = ()
    names: tuple[tuple[str, str], ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"games": self.games, "entries": [e.to_json() for e in self.entries],
                "names": [list(n) for n in self.names]}

    @staticmethod
    def from_json(data: dict[str, Any] | None) -> Ledger:
        if not data:
            return Ledger()
        return Ledger(int(data["games"]), tuple(Entry.from_json(e) for e in data.get("entries") or ()),
                      tuple((str(i), str(n)) for i, n in data.get("names") or ()))

    def remembering(self, names: dict[str, str]) -> Ledger:
        """This ledger also knowing ``names`` (id -> nickname) of members about to be forgotten."""
        if not names:
            return self
        known = dict(self.names)
        known.update(names)
        return replace(self, names=tuple(known.items()))
