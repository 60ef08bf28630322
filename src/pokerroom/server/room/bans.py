"""A kick is a ban from that room, for the room's life: the kicked member's seat token, nickname and client.

Why: a kick that only removed the seat let the griefer come straight back under the same name with a new
``hello``. So the room remembers, beside the kick itself, the kicked seat's token digest (a tab still
holding that token is told it was kicked, not that its token is unknown), the nickname's skeleton (so a
look-alike of the name is refused too: ``nicknames.skeleton``) and the client of the kicked sockets (the
address group of ``edge/clients.py``): a new ``hello`` from that client, as a player or a spectator, is
refused. The client is not banned when the host shares it (friends behind one home router: kicking one of
them must not lock out the host's own household), and a seat token that is not banned still comes back
from a banned client (a member who was not kicked keeps their seat).

The list lives with the room in this process (a weak map keyed by the room): it goes when the room is
closed. It is not stored, so a restart (or, on a cluster, the room moving to another node) forgets it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any
from weakref import WeakKeyDictionary

from pokerroom.server.room.model import Connection, Member, Room
from pokerroom.server.room.nicknames import looks_like_bot, skeleton
from pokerroom.server.room.tokens import token_digest
from pokerroom.server.wire import protocol as P


@dataclass
class Bans:
    """Who was kicked from one room."""

    nicknames: set[str] = field(default_factory=set)  # skeletons
    digests: set[str] = field(default_factory=set)  # seat token digests
    clients: set[str] = field(default_factory=set)  # client groups


_BANS: WeakKeyDictionary[Room, Bans] = WeakKeyDictionary()


def of(room: Room) -> Bans | None:
    return _BANS.get(room)


def client_of(conn: Any) -> str | None:
    """The client group a socket came from (its ``ClientTag``), None for a connection without one."""
    key = getattr(getattr(conn, "client", None), "key", None)
    return key if isinstance(key, str) else None


def ban(room: Room, member: Member, sockets: Iterable[Connection], host: Connection) -> None:
    """``member`` was kicked by ``host``: remember its token, nickname and client (not the host's)."""
    bans = _BANS.setdefault(room, Bans())
    bans.nicknames.add(skeleton(member.nickname))
    if member.digest is not None:
        bans.digests.add(member.digest)
    host_client = client_of(host)
    for conn in sockets:
        key = client_of(conn)
        if key is not None and key != host_client:
            bans.clients.add(key)


def check_hello(room: Room, conn: Connection, token: str | None) -> None:
    """Refuse (``banned``) a ``hello`` with a kicked seat's token, or without a token from a banned client."""
    bans = _BANS.get(room)
    if bans is None:
        return
    if token is not None:
        if token_digest(token) in bans.digests:
            raise P.error("banned")
        return
    key = client_of(conn)
    if key is not None and key in bans.clients:
        raise P.error("banned")


def check_nickname(room: Room, nickname: str) -> None:
    """A human's new nickname: not one that reads as a bot's label, nor a kicked member's (nor a look-alike
    of it)."""
    if looks_like_bot(nickname):
        raise P.error("nickname_bot")
    bans = _BANS.get(room)
    if bans is not None and skeleton(nickname) in bans.nicknames:
        raise P.error("nickname_banned")
