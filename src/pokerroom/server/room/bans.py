"""A kick is a ban from that room until the host lifts it: the kicked seat's token, nickname and client.

Why: a kick that only removed the seat let the griefer come straight back under the same name with a new
``hello``. So the room remembers, beside the kick itself, the kicked seat's token digest (a tab still
holding that token is told it was kicked, not that its token is unknown), the nickname (a look-alike of it is
refused too: ``nicknames.skeleton``) and the client of the kicked sockets (the address group of
``edge/clients.py``): a new ``hello`` from that client, as a player or a spectator, is refused. The client is
not banned when the host shares it (friends behind one home router: kicking one of them must not lock out the
host's own household), and a seat token that is not banned still comes back from a banned client (a member
who was not kicked keeps their seat).

The list is part of the room's stored table (``Table.bans``, in its ``meta``), so a restart or a move to
another cluster node keeps it. The host sees it, by nickname only, in their own ``lobby`` frame
(:func:`host_list`) and lifts one with ``unban``; nobody else is sent it, and no one is sent its digests or
clients.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from pokerroom.server.room.model import Ban, Connection, Member, Room, Table
from pokerroom.server.room.nicknames import looks_like_bot, skeleton
from pokerroom.server.room.tokens import token_digest
from pokerroom.server.wire import protocol as P

#: bans kept per room (the oldest is forgotten past this): the list is stored with every snapshot
MAX_BANS = 64
#: client groups remembered per ban (the sockets the kicked seat had open)
MAX_CLIENTS = 4


def client_of(conn: Any) -> str | None:
    """The client group a socket came from (its ``ClientTag``), None for a connection without one."""
    key = getattr(getattr(conn, "client", None), "key", None)
    return key if isinstance(key, str) else None


def banned(table: Table, member: Member, sockets: Iterable[Connection], host: Connection) -> Table:
    """``table`` with ``member`` banned, as kicked by ``host``: its token, nickname and client (not the
    host's)."""
    host_client = client_of(host)
    clients: list[str] = []
    for conn in sockets:
        key = client_of(conn)
        if key is not None and key != host_client and key not in clients:
            clients.append(key)
    ban = Ban(member.id, member.nickname, member.digest, tuple(clients[:MAX_CLIENTS]))
    kept = tuple(b for b in table.bans if b.id != member.id)
    return table.evolve(bans=(*kept, ban)[-MAX_BANS:])


def lifted(table: Table, player_id: str) -> Table:
    """``table`` without the ban of ``player_id`` (``no_such_ban`` when there is none)."""
    if all(b.id != player_id for b in table.bans):
        raise P.error("no_such_ban")
    return table.evolve(bans=tuple(b for b in table.bans if b.id != player_id))


def host_list(room: Room) -> list[dict[str, str]]:
    """What the host's ``lobby`` shows of the bans: who, by member id and nickname; nothing else."""
    return [{"id": b.id, "nickname": b.nickname} for b in room.table.bans]


def check_hello(room: Room, conn: Connection, token: str | None) -> None:
    """Refuse (``banned``) a ``hello`` with a kicked seat's token, or without a token from a banned client."""
    bans = room.table.bans
    if not bans:
        return
    if token is not None:
        digest = token_digest(token)
        if any(b.digest == digest for b in bans):
            raise P.error("banned")
        return
    key = client_of(conn)
    if key is not None and any(key in b.clients for b in bans):
        raise P.error("banned")


def check_nickname(room: Room, nickname: str) -> None:
    """A human's new nickname: not one that reads as a bot's label, nor a kicked member's (nor a look-alike
    of it)."""
    if looks_like_bot(nickname):
        raise P.error("nickname_bot")
    mine = skeleton(nickname)
    if any(skeleton(b.nickname) == mine for b in room.table.bans):
        raise P.error("nickname_banned")
