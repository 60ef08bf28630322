"""The room's ledger as figures: the closed games (room/ledger.py) plus the game in play, read from the
engine's accounts — what every connection of the room is sent (docs/protocol.md §2.10), and the fold of the
game in play into the closed totals when the next game starts.

Apart from the stored data so that the table (room/model.py) holds a ledger without the ledger's readers
depending back on the table.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from pokerroom.server.room.ledger import Entry, Ledger
from pokerroom.server.room.model import Table

if TYPE_CHECKING:
    from pokerroom.server.engine_port import GameEngine


def _nickname(table: Table, ledger: Ledger, pid: str) -> str:
    member = table.members.get(pid)
    if member is not None:
        return member.nickname
    return dict(ledger.names).get(pid) or next((e.nickname for e in ledger.entries if e.id == pid), pid)


def closed_with_current(table: Table, engine: GameEngine) -> Ledger:
    """The table's ledger with its current game (if any) folded in: what the next game starts from."""
    ledger = table.ledger
    if table.state is None:
        return ledger
    entries = {e.id: e for e in ledger.entries}
    for a in engine.accounts(table.state)["seats"]:
        pid = str(a["playerId"])
        old = entries.get(pid) or Entry(pid, pid)
        entries[pid] = replace(old, nickname=_nickname(table, ledger, pid), games=old.games + 1,
                               buy_in=old.buy_in + int(a["buyIn"]), rebuys=old.rebuys + int(a["rebuys"]),
                               rebuy_chips=old.rebuy_chips + int(a["rebuyChips"]),
                               closed=old.closed + int(a["stack"]))
    return Ledger(ledger.games + 1, tuple(entries.values()))


def ledger_json(table: Table, engine: GameEngine) -> dict[str, Any] | None:
    """What every connection of the room is sent (docs/protocol.md §2.10), or None before any game."""
    ledger = table.ledger
    if table.state is None:
        if not ledger.entries:
            return None
        live: dict[str, Any] = {"seats": [], "handsPlayed": 0, "running": False, "unowned": 0}
    else:
        live = engine.accounts(table.state)
    current = {str(a["playerId"]): a for a in live["seats"]}
    closed = {e.id: e for e in ledger.entries}
    rows: list[dict[str, Any]] = []
    for pid in [*closed, *(pid for pid in current if pid not in closed)]:
        e = closed.get(pid) or Entry(pid, pid)
        a = current.get(pid)
        buy_in = e.buy_in + (int(a["buyIn"]) if a else 0)
        rebuys = e.rebuys + (int(a["rebuys"]) if a else 0)
        rebuy_chips = e.rebuy_chips + (int(a["rebuyChips"]) if a else 0)
        stack = int(a["stack"]) if a else None
        rows.append({"id": pid, "nickname": _nickname(table, ledger, pid) if a else e.nickname,
                     "games": e.games + (1 if a else 0), "buyIn": buy_in, "rebuys": rebuys,
                     "rebuyChips": rebuy_chips, "closed": e.closed, "stack": stack,
                     "net": e.closed + (stack or 0) - buy_in - rebuy_chips})
    in_play = table.state is not None
    return {"games": ledger.games + (1 if in_play else 0), "current": table.game_no if in_play else None,
            "handsPlayed": int(live["handsPlayed"]), "running": bool(live["running"]),
            "unowned": int(live["unowned"]), "rows": rows}
