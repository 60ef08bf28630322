"""Every message that crosses between cluster nodes, declared: one class per kind, each with its one encoder
(``to_wire``) and its one decoder (``from_wire``), and the batch the relay publishes.

Why declared in one file: what travels over Redis between processes is an interface, like the client
protocol; a reader finds here every kind, what each field means and how it is written, and the relay, the
owner's side (:mod:`~pokerroom.cluster.remote`) and the socket's side (:mod:`~pokerroom.cluster.sockets`)
hold typed values instead of picking fields out of dicts. A kind added here without a handler is a type
error in the node's dispatch, not a silently ignored dict.

The classes are plain slotted dataclasses, not frozen ones (a frozen one costs several times as much to
build, once per frame); a message is a value all the same: nothing changes one after it is made.

Wire format (compact: frames and client messages are most of a node's traffic): one ``PUBLISH`` carries a
JSON array of items; an item is an object whose ``t`` names its kind, its frequent keys one letter each.
Nodes of one cluster run the same version (a rolling restart replaces every node's code; the format is not
versioned).

What a client's message looks like on the relay (:func:`client_body`): decoded, as a JSON object inside the
item, so the owner reads the relay's JSON once and validates the object (:func:`client_message`) instead of
decoding a string found inside it a second time.

The one frame of the room the cluster reads is ``welcome`` (how a socket says hello again after its room
moves depends on it): :class:`WelcomeWatch` finds it by the connection's role, never by the frame's text.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, ClassVar

import orjson

from pokerroom.server.wire import protocol as P

log = logging.getLogger("pokerroom.cluster")

Wire = dict[str, Any]
#: A client's message on the relay: its JSON decoded (an object), or its text where decoding it here could
#: read it differently from the server's parser (see :func:`client_body`).
ClientBody = dict[str, Any] | str


# --- between the socket's node and the room's owner ------------------------------------------------------


@dataclass(slots=True)
class ClientMsg:
    """``m``: a client's message, from the node holding its socket to the room's owner."""

    kind: ClassVar[str] = "m"
    cid: int  # c: the socket's id on its node
    origin: str  # o: that node
    code: str  # k: the room
    body: ClientBody  # x: the message (see client_body)
    hops: int = 0  # h: how many times it was re-routed after a "gone"
    attach: bool = False  # a: a re-attach hello, which replaces whatever connection the socket had there

    def to_wire(self) -> Wire:
        item: Wire = {"t": "m", "c": self.cid, "o": self.origin, "k": self.code, "x": self.body}
        if self.hops:
            item["h"] = self.hops
        if self.attach:
            item["a"] = 1
        return item

    @classmethod
    def from_wire(cls, item: Wire) -> ClientMsg:
        return cls(int(item["c"]), str(item["o"]), str(item["k"]), _body(item["x"]), int(item.get("h", 0)),
                   bool(item.get("a")))


@dataclass(slots=True)
class Frame:
    """``f``: a frame the owner built for a socket of another node (its text, sent as is)."""

    kind: ClassVar[str] = "f"
    cid: int  # c
    text: str  # x

    def to_wire(self) -> Wire:
        return {"t": "f", "c": self.cid, "x": self.text}

    @classmethod
    def from_wire(cls, item: Wire) -> Frame:
        return cls(int(item["c"]), str(item["x"]))


@dataclass(slots=True)
class Seat:
    """What a ``welcome`` frame tells a socket: its role, its player id and, once, its seat token."""

    role: str
    player_id: str | None
    token: str | None


@dataclass(slots=True)
class Welcome:
    """``w``: the room's ``welcome`` frame for a socket of another node, with what it says, decoded once by
    the owner (the socket's node remembers the seat token to say hello again after the room moves)."""

    kind: ClassVar[str] = "w"
    cid: int  # c
    text: str  # x: the frame, sent as is
    seat: Seat  # role, pid, tok

    def to_wire(self) -> Wire:
        return {"t": "w", "c": self.cid, "x": self.text, "role": self.seat.role, "pid": self.seat.player_id,
                "tok": self.seat.token}

    @classmethod
    def from_wire(cls, item: Wire) -> Welcome:
        return cls(int(item["c"]), str(item["x"]), Seat(str(item["role"]), _opt_str(item.get("pid")),
                                                         _opt_str(item.get("tok"))))


@dataclass(slots=True)
class Close:
    """``x``: the owner closes a socket of another node (with this websocket close code)."""

    kind: ClassVar[str] = "x"
    cid: int  # c
    code: int  # n

    def to_wire(self) -> Wire:
        return {"t": "x", "c": self.cid, "n": self.code}

    @classmethod
    def from_wire(cls, item: Wire) -> Close:
        return cls(int(item["c"]), int(item["n"]))


@dataclass(slots=True)
class Detached:
    """``d``: a socket relayed to the owner closed on its node."""

    kind: ClassVar[str] = "d"
    cid: int  # c
    origin: str  # o

    def to_wire(self) -> Wire:
        return {"t": "d", "c": self.cid, "o": self.origin}

    @classmethod
    def from_wire(cls, item: Wire) -> Detached:
        return cls(int(item["c"]), str(item["o"]))


@dataclass(slots=True)
class Gone:
    """``g``: the node a message went to does not own the room (any more). ``body``: the message, for the
    socket's node to route again; None when the owner dropped the room (no message: look for the new one)."""

    kind: ClassVar[str] = "g"
    cid: int  # c
    code: str  # k
    body: ClientBody | None  # x
    hops: int = 0  # h

    def to_wire(self) -> Wire:
        item: Wire = {"t": "g", "c": self.cid, "k": self.code, "x": self.body}
        if self.hops:
            item["h"] = self.hops
        return item

    @classmethod
    def from_wire(cls, item: Wire) -> Gone:
        body = item.get("x")
        return cls(int(item["c"]), str(item["k"]), None if body is None else _body(body),
                   int(item.get("h", 0)))


# --- to every node -------------------------------------------------------------------------------------


@dataclass(slots=True)
class Moved:
    """``moved`` (broadcast): a room's owner changed; ``owner`` None: it was handed over and has none yet."""

    kind: ClassVar[str] = "moved"
    code: str  # k
    owner: str | None  # n

    def to_wire(self) -> Wire:
        return {"t": "moved", "k": self.code, "n": self.owner}

    @classmethod
    def from_wire(cls, item: Wire) -> Moved:
        return cls(str(item["k"]), _opt_str(item.get("n")))


@dataclass(slots=True)
class Probe:
    """``probe``: a node's message to itself, proving its subscription still reads (see ``Relay.check``)."""

    kind: ClassVar[str] = "probe"

    def to_wire(self) -> Wire:
        return {"t": "probe"}

    @classmethod
    def from_wire(cls, item: Wire) -> Probe:
        return cls()


# --- requests and their replies ------------------------------------------------------------------------


@dataclass(slots=True)
class CreateRoom:
    """``create``: create a room on the node asked (it has the fewest rooms); replied with the creation's
    answer (``{code, playerId, token}``) or ``{"err": {code, message, status}}``."""

    kind: ClassVar[str] = "create"
    options: dict[str, Any]  # opt
    nickname: str  # nick
    address: str  # addr: the creator's address (the per-address cap)

    def to_wire(self) -> Wire:
        return {"t": "create", "opt": self.options, "nick": self.nickname, "addr": self.address}

    @classmethod
    def from_wire(cls, item: Wire) -> CreateRoom:
        return cls(dict(item["opt"]), str(item["nick"]), str(item["addr"]))


@dataclass(slots=True)
class RoomInfo:
    """``info``: a room's public info, from its owner; replied with it, or None."""

    kind: ClassVar[str] = "info"
    code: str  # k

    def to_wire(self) -> Wire:
        return {"t": "info", "k": self.code}

    @classmethod
    def from_wire(cls, item: Wire) -> RoomInfo:
        return cls(str(item["k"]))


Ask = CreateRoom | RoomInfo
_ASKS: dict[str, Callable[[Wire], Ask]] = {
    CreateRoom.kind: CreateRoom.from_wire, RoomInfo.kind: RoomInfo.from_wire,
}


@dataclass(slots=True)
class Request:
    """A question to one node, written as its ``ask`` plus ``r`` (request id) and ``o`` (the asking node)."""

    rid: str  # r
    origin: str  # o
    ask: Ask

    def to_wire(self) -> Wire:
        item = self.ask.to_wire()
        item["r"] = self.rid
        item["o"] = self.origin
        return item

    @classmethod
    def from_wire(cls, item: Wire) -> Request:
        return cls(str(item["r"]), str(item["o"]), _ASKS[item["t"]](item))


@dataclass(slots=True)
class Reply:
    """``reply``: the answer to a request (``body``: plain JSON)."""

    kind: ClassVar[str] = "reply"
    rid: str  # r
    body: Any  # b

    def to_wire(self) -> Wire:
        return {"t": "reply", "r": self.rid, "b": self.body}

    @classmethod
    def from_wire(cls, item: Wire) -> Reply:
        return cls(str(item["r"]), item.get("b"))


#: What the relay hands the node (it answers probes and replies itself).
Routed = ClientMsg | Frame | Welcome | Close | Detached | Gone | Moved | Request
Message = Routed | Probe | Reply

_KINDS: dict[str, Callable[[Wire], Message]] = {
    ClientMsg.kind: ClientMsg.from_wire, Frame.kind: Frame.from_wire, Welcome.kind: Welcome.from_wire,
    Close.kind: Close.from_wire, Detached.kind: Detached.from_wire, Gone.kind: Gone.from_wire,
    Moved.kind: Moved.from_wire, Probe.kind: Probe.from_wire, Reply.kind: Reply.from_wire,
    CreateRoom.kind: Request.from_wire, RoomInfo.kind: Request.from_wire,
}


def encode_batch(messages: Iterable[Message]) -> bytes:
    """One ``PUBLISH`` payload: the items of ``messages``, in order."""
    return orjson.dumps([m.to_wire() for m in messages])


def decode_batch(data: bytes | str) -> list[Message]:
    """The messages of one ``PUBLISH`` payload, in order. An item that is not a known, well-formed message is
    dropped (logged); a payload that is not a JSON array raises ``ValueError``."""
    items = orjson.loads(data)
    if not isinstance(items, list):
        raise ValueError("a relay payload is a JSON array")
    out: list[Message] = []
    for item in items:
        decode = _KINDS.get(str(item.get("t"))) if isinstance(item, dict) else None
        if decode is None:
            log.warning("relay: unknown item dropped: %.80r", item)
            continue
        try:
            out.append(decode(item))
        except (KeyError, TypeError, ValueError) as exc:
            log.warning("relay: malformed %r item dropped (%s: %s)", item.get("t"), type(exc).__name__, exc)
    return out


def _body(value: Any) -> ClientBody:
    if isinstance(value, dict | str):
        return value
    raise TypeError(f"a client message is an object or its text, not {type(value).__name__}")


def _opt_str(value: Any) -> str | None:
    return None if value is None else str(value)


# --- a client's message on the relay ---------------------------------------------------------------------


def client_body(msg: P.ClientMessage, text: str) -> ClientBody:
    """How the socket's node relays a message its receive loop parsed from ``text`` (``msg``): decoded, so
    the owner reads JSON once. As the text itself where orjson could read it differently from the server's
    parser: orjson refuses what ``json`` accepts (NaN, a lone surrogate in a string) and reads an integer
    beyond 64 bits as a float. A valid message holds none of these (its strings refuse lone surrogates, its
    numbers are bounded integers) except ``setOptions``, whose options are free-form JSON."""
    if type(msg) is P.SetOptions:  # (not isinstance: pydantic's metaclass makes that slow on a hot path)
        return text
    try:
        data = orjson.loads(text)
    except orjson.JSONDecodeError:
        return text
    return data if isinstance(data, dict) else text


def client_message(body: ClientBody) -> P.ClientMessage:
    """The owner's reading of a relayed client message (a typed :class:`~P.ProtocolError` if invalid)."""
    if isinstance(body, str):
        return P.parse_client_message(body)
    return P.client_message_from(body)


# --- the room's welcome ----------------------------------------------------------------------------------


def read_welcome(text: str) -> Seat | None:
    """The seat a ``welcome`` frame announces, or None if ``text`` is another frame."""
    try:
        data = orjson.loads(text)
    except orjson.JSONDecodeError:
        return None
    if not isinstance(data, dict) or data.get("type") != "welcome":
        return None
    return Seat(str(data.get("role")), _opt_str(data.get("playerId")), _opt_str(data.get("token")) or None)


class WelcomeWatch:
    """Finds a connection's ``welcome`` among the frames the room sends it, without reading every frame.

    The room gives a connection its role (and player id) and then welcomes it with them — on ``hello``, and
    when a spectator becomes a member — and changes neither otherwise. So only a frame sent while the
    connection's role differs from the one last welcomed (and is not ``"none"``) can be the welcome: just
    those frames are decoded, until the welcome is found.
    """

    __slots__ = ("seen",)

    def __init__(self) -> None:
        self.seen: tuple[str, str | None] = ("none", None)

    def check(self, role: str, player_id: str | None, text: str) -> Seat | None:
        """The seat, if ``text`` (about to be sent to a connection of this role) is its welcome."""
        if role == "none" or (role, player_id) == self.seen:
            return None
        seat = read_welcome(text)
        if seat is not None:
            self.seen = (role, player_id)
        return seat
