"""Who is in a room: new members and their seat tokens, nickname and capacity checks, the host.

Why a module of its own: joining by ``hello`` and asking for a seat as a spectator (``seating``) admit a
member the same way, and kicks and leaves pick the next host the same way; these rules live once, here.
"""

from __future__ import annotations

from collections.abc import Callable

from pokerroom.server.room.model import Connection, Member, Room, clean_nickname
from pokerroom.server.room.nicknames import confusable_with
from pokerroom.server.room.tokens import new_seat_token, token_digest, token_matches
from pokerroom.server.room.writer import RoomWriter
from pokerroom.server.wire import protocol as P


class RoomMembers(RoomWriter):
    """Members, seat tokens and the host of each room."""

    async def admit_member(self, room: Room, nickname: str, *,
                           asking: Callable[[Room, Member], bool]) -> tuple[Member, str]:
        """A new human member with a seat token of their own, stored before the token is handed out (and
        taken back if the store refuses). ``asking``: whether they ask for a seat in the running game."""
        nick = clean_nickname(nickname)
        self._check_capacity(room, nick)
        member, token = self._new_member(room, nick, bot=False)
        member.asking = asking(room, member)
        host_before = room.host_id
        if room.host_id is None:
            room.host_id = member.id
        try:
            await self._save_meta(room)
        except BaseException:
            del room.members[member.id]
            room.host_id = host_before
            raise
        return member, token

    def _require_host(self, room: Room, conn: Connection) -> None:
        if conn.player_id is None or conn.player_id != room.host_id:
            raise P.error("not_host")

    def _check_capacity(self, room: Room, nick: str) -> None:
        active = [m for m in room.members.values() if m.status != "left"]
        folded = nick.casefold()
        if any(m.nickname.casefold() == folded for m in active):
            raise P.error("nickname_taken")
        if confusable_with(nick, [m.nickname for m in active]) is not None:
            raise P.error("nickname_confusable")
        if len(active) >= room.max_players:
            raise P.error("room_full")

    def _new_member(self, room: Room, nick: str, *, bot: bool) -> tuple[Member, str]:
        token = "" if bot else new_seat_token()
        member = Member(f"p{room.next_seq}", nick, None if bot else token_digest(token), bot,
                        "waiting" if room.phase == "playing" else "seated", room.next_seq)
        room.next_seq += 1
        room.members[member.id] = member
        return member, token

    def _member_by_token(self, room: Room, token: str) -> Member | None:
        found: Member | None = None
        for member in room.members.values():  # compare against every seat: no early exit timing
            if member.digest is not None and token_matches(token, member.digest) and member.status != "left":
                found = member
        return found

    def _fix_host(self, room: Room) -> None:
        current = room.members.get(room.host_id or "")
        if current is not None and current.status != "left" and not current.bot:
            return
        humans = sorted((m for m in room.members.values() if not m.bot and m.status != "left"),
                        key=lambda m: m.seq)
        room.host_id = humans[0].id if humans else None
