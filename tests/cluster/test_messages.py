"""The relay's declared messages (no services): every kind reads back what was written, the hot kinds keep
their compact wire form, a bad item costs only itself, a client's message reads on the owner exactly as the
server's parser reads its text, and a welcome is found by the connection's role, not by the frame's text."""

from __future__ import annotations

import typing

import orjson
import pytest

from pokerroom.cluster import messages as M
from pokerroom.server.wire import protocol as P

EXAMPLES: list[M.Message] = [
    M.ClientMsg(3, "node-a", "ABCD", {"type": "ping"}),
    M.ClientMsg(4, "node-a", "ABCD", {"type": "hello", "token": "t0k"}, hops=2, attach=True),
    M.ClientMsg(5, "node-a", "ABCD", '{"type":"setOptions","options":{"n":1}}'),
    M.Frame(3, '{"type":"pong","t":1}'),
    M.Welcome(3, '{"type":"welcome"}', M.Seat("player", "p1", "tok")),
    M.Welcome(3, '{"type":"welcome"}', M.Seat("spectator", None, None)),
    M.Close(3, 4404),
    M.Detached(3, "node-b"),
    M.Gone(3, "ABCD", {"type": "ping"}, 1),
    M.Gone(3, "ABCD", None),
    M.Moved("ABCD", "node-b"),
    M.Moved("ABCD", None),
    M.Probe(),
    M.Request("node-a:1", "node-a", M.CreateRoom({"mode": "holdem"}, "방장", "10.0.0.1")),
    M.Request("node-a:2", "node-a", M.RoomInfo("ABCD")),
    M.Reply("node-a:2", {"code": "ABCD"}),
    M.Reply("node-a:3", None),
]


def test_every_kind_reads_back_what_was_written() -> None:
    kinds = {type(m) for m in EXAMPLES}
    assert kinds == set(typing.get_args(M.Message))  # an example of every declared kind
    asks = {type(m.ask) for m in EXAMPLES if isinstance(m, M.Request)}
    assert asks == set(typing.get_args(M.Ask))
    assert M.decode_batch(M.encode_batch(EXAMPLES)) == EXAMPLES


def test_the_hot_kinds_are_compact_on_the_wire() -> None:
    """Frames and client messages are most of the traffic: one-letter keys, defaults left out, a client's
    message as an object (not a string to decode a second time)."""
    wire = orjson.loads(M.encode_batch([M.Frame(7, "x"), M.ClientMsg(7, "n1", "ABCD", {"type": "ping"})]))
    assert wire == [{"t": "f", "c": 7, "x": "x"},
                    {"t": "m", "c": 7, "o": "n1", "k": "ABCD", "x": {"type": "ping"}}]


def test_a_bad_item_costs_only_itself(caplog: pytest.LogCaptureFixture) -> None:
    data = orjson.dumps([{"t": "f", "c": 1, "x": "a"}, {"t": "nope"}, {"t": "f", "x": "no id"}, 5,
                         {"t": "m", "c": 1, "o": "n", "k": "K", "x": 12}, {"t": "f", "c": 2, "x": "b"}])
    assert M.decode_batch(data) == [M.Frame(1, "a"), M.Frame(2, "b")]
    assert len([r for r in caplog.records if "dropped" in r.getMessage()]) == 4
    with pytest.raises(ValueError):
        M.decode_batch(b'{"t": "f"}')
    with pytest.raises(ValueError):
        M.decode_batch(b"[not json")


@pytest.mark.parametrize("text", [
    '{"type":"ping"}',
    '{"type": "action", "clientMsgId": "c1", "version": 3, "action": {"type": "nl.raise", "to": 200}}',
    '{"type":"hello","nickname":"민수","deltas":true}',
    '{"type":"hello","nickname":"\\ud83c\\udccf"}',  # a surrogate pair: one character
    '{"type":"setOptions","options":{"name":"\\ud800"}}',  # a lone surrogate: orjson refuses it, json not
    '{"type":"setOptions","options":{"startingStack":123456789012345678901234567890}}',  # beyond 64 bits
    '{"type":"setOptions","options":{"x":NaN}}',
    '{"type":"action","type":"ping"}',  # a repeated key: the last one counts, for both
])
def test_a_relayed_message_reads_as_its_text(text: str) -> None:
    msg = P.parse_client_message(text)
    body = M.client_body(msg, text)
    relayed = M.decode_batch(M.encode_batch([M.ClientMsg(1, "n", "ABCD", body)]))
    assert len(relayed) == 1 and isinstance(relayed[0], M.ClientMsg)
    again = M.client_message(relayed[0].body)
    assert type(again) is type(msg) and again.model_dump() == msg.model_dump(), text


def test_relayed_as_an_object_where_that_is_exact() -> None:
    ping = P.parse_client_message('{"type":"ping"}')
    assert M.client_body(ping, '{"type":"ping"}') == {"type": "ping"}
    opts = '{"type":"setOptions","options":{}}'
    assert M.client_body(P.parse_client_message(opts), opts) == opts


def test_an_invalid_relayed_message_gets_the_parser_error() -> None:
    for body in ({"type": "nope"}, {"type": "ping", "extra": 1}, "{bad"):
        with pytest.raises(P.ProtocolError) as got:
            M.client_message(body)
        text = body if isinstance(body, str) else orjson.dumps(body).decode()
        with pytest.raises(P.ProtocolError) as want:
            P.parse_client_message(text)
        assert (got.value.code, got.value.message) == (want.value.code, want.value.message)


def test_a_welcome_is_found_by_the_role_given_not_by_the_text() -> None:
    watch = M.WelcomeWatch()
    welcome = P.dumps(P.welcome_msg("ABCD", "spectator", None, 4))
    # no role given yet: nothing is read (not even text that is no JSON)
    assert watch.check("none", None, "not json") is None
    assert watch.check("none", None, welcome) is None
    # a role given: frames are read until the welcome
    assert watch.check("spectator", None, P.dumps({"type": "error", "code": "x"})) is None
    assert watch.check("spectator", None, welcome) == M.Seat("spectator", None, None)
    # the role welcomed: the next frames are not read, even a welcome's text
    assert watch.check("spectator", None, "not json") is None
    assert watch.check("spectator", None, welcome) is None
    # a spectator becomes a member: its second welcome carries the seat token
    seated = P.dumps(P.welcome_msg("ABCD", "player", "p2", 5, "secret"))
    assert watch.check("player", "p2", seated) == M.Seat("player", "p2", "secret")
    assert watch.check("player", "p2", seated) is None
