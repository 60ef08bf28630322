"""Who is in a room: new members and their seat tokens, nickname and capacity checks, the host.

Why a module of its own: joining by ``hello`` and asking for a seat as a spectator (``seating``) admit a
member the same way, and kicks and leaves pick the next host the same way; these rules live once, here.
Plain functions of a room or a table; only :func:`admit_member` stores something (through the driver).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

from pokerroom.server.room import bans
from pokerroom.server.room.model import BotLevel, Connection, Member, Room, Table, clean_nickname
from pokerroom.server.room.nicknames import confusable_with
from pokerroom.server.room.tokens import new_seat_token, token_digest, token_matches
from pokerroom.server.wire import protocol as P

if TYPE_CHECKING:
    from pokerroom.server.room.driver import RoomDriver


async def admit_member(driver: RoomDriver, room: Room, nickname: str, *,
                       asking: Callable[[Room, Member], bool]) -> tuple[Member, str]:
    """A new human member with a seat token of their own, stored before the token is handed out (a
    refused write leaves the room as it was). ``asking``: whether they ask for a seat in the running
    game."""
    nick = clean_nickname(nickname)
    bans.check_nickname(room, nick)  # not a bot's label, not a kicked member's name (room/bans.py)
    check_capacity(room, nick)
    member, token, after = new_member(room.table, nick, bot=False)
    if asking(room, member):
        member = replace(member, asking=True)
        after = after.with_member(member)
    if after.host_id is None:
        after = after.evolve(host_id=member.id)
    await driver.save(room, after)
    return member, token


def require_host(room: Room, conn: Connection) -> None:
    if conn.player_id is None or conn.player_id != room.host_id:
        raise P.error("not_host")


def check_capacity(room: Room, nick: str) -> None:
    active = [m for m in room.members.values() if m.status != "left"]
    folded = nick.casefold()
    if any(m.nickname.casefold() == folded for m in active):
        raise P.error("nickname_taken")
    if confusable_with(nick, [m.nickname for m in active]) is not None:
        raise P.error("nickname_confusable")
    if len(active) >= room.max_players:
        raise P.error("room_full")


def new_member(table: Table, nick: str, *, bot: bool, level: BotLevel = "easy") -> tuple[Member, str, Table]:
    """A new member (and their seat token; bots have none) and the table with them in it."""
    token = "" if bot else new_seat_token()
    member = Member(f"p{table.next_seq}", nick, None if bot else token_digest(token), bot,
                    "waiting" if table.phase == "playing" else "seated", table.next_seq, level=level)
    return member, token, table.with_member(member).evolve(next_seq=table.next_seq + 1)


def member_by_token(room: Room, token: str) -> Member | None:
    found: Member | None = None
    for member in room.members.values():  # compare against every seat: no early exit timing
        if member.digest is not None and token_matches(token, member.digest) and member.status != "left":
            found = member
    return found


def with_host_fixed(table: Table) -> Table:
    """``table`` with a host who is still here: the current one, else the earliest human left."""
    current = table.members.get(table.host_id or "")
    if current is not None and current.status != "left" and not current.bot:
        return table
    humans = sorted((m for m in table.members.values() if not m.bot and m.status != "left"),
                    key=lambda m: m.seq)
    host = humans[0].id if humans else None
    return table if host == table.host_id else table.evolve(host_id=host)
