"""Small pure pieces: tokens, the origin check, the rate limiter, the store, message parsing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pokerroom.server.edge.limits import TokenBucket, origin_allowed
from pokerroom.server.room.timers import Clock
from pokerroom.server.room.tokens import (
    CODE_LENGTH,
    is_room_code,
    new_room_code,
    new_seat_token,
    token_digest,
    token_matches,
)
from pokerroom.server.storage import LogRow, Store
from pokerroom.server.wire import protocol as P


def test_codes_and_tokens() -> None:
    codes = {new_room_code() for _ in range(2000)}
    assert len(codes) == 2000 and all(is_room_code(c) and len(c) == CODE_LENGTH for c in codes)
    token = new_seat_token()
    assert len(token) >= 43  # 256 bits, url-safe base64
    assert token_matches(token, token_digest(token))
    assert not token_matches(token + "x", token_digest(token))
    assert token not in token_digest(token)


@pytest.mark.parametrize(("origin", "ok"), [
    (None, True), ("http://127.0.0.1:8000", True), ("http://LOCALHOST:8000", False),
    ("https://evil.example", False), ("null", False), ("file://", False), ("http://127.0.0.1:9000", False),
    ("https://friends.example", True),
])
def test_origin_allowed(origin: str | None, ok: bool) -> None:
    assert origin_allowed(origin, "127.0.0.1:8000", ("https://friends.example",)) is ok


def test_token_bucket() -> None:
    bucket = TokenBucket(rate=10, burst=5)
    bucket._last = 0.0
    assert [bucket.allow(0.0) for _ in range(6)] == [True] * 5 + [False]
    bucket._last = 0.0
    assert bucket.allow(0.1) and not bucket.allow(0.1)


def test_clock_scale_and_monotonic_restore() -> None:
    clock = Clock(time_scale=0.01)
    assert clock.real_seconds(20_000) == pytest.approx(0.2)
    future = clock.now_ms() + 60_000
    clock.not_before(future)
    assert clock.now_ms() >= future


def test_store_roundtrip(tmp_path: Path) -> None:
    store = Store(tmp_path / "db" / "x.sqlite3")
    store.save("room1", {"m": 1}, "state-1", 1, 10, LogRow(1, "action", "p1", "c1", {"type": "k.call"}, 10))
    store.save("room1", {"m": 2}, "state-2", 2, 20, LogRow(2, "timeout", None, None, None, 20))
    store.close()
    again = Store(tmp_path / "db" / "x.sqlite3")
    (room,) = again.load_all()
    assert (room.meta, room.state, room.version, room.updated_ms) == ({"m": 2}, "state-2", 2, 20)
    assert again.recent_acks("room1") == [("p1", "c1", 1)]
    assert [r.kind for r in again.log("room1")] == ["action", "timeout"]
    again.delete("room1")
    assert again.load_all() == [] and again.log("room1") == []


def test_store_keeps_the_nights_hands_and_deletes_them_with_the_room(tmp_path: Path) -> None:
    """Every hand of the night (the bound is the store contract's test), gone with the room."""
    store = Store(tmp_path / "h.sqlite3")
    for seq in range(1, 14):
        store.save("room1", {"m": seq}, None, seq, seq, None, [(seq, {"handNo": seq})])
    store.save("room2", {"m": 0}, None, 1, 1, None, [(1, {"handNo": 1})])
    assert [(seq, data["handNo"]) for seq, data in store.hands("room1")] == [(s, s) for s in range(1, 14)]
    store.delete("room1")
    assert store.hands("room1") == [] and len(store.hands("room2")) == 1
    store.close()


def test_parse_client_message() -> None:
    msg = P.parse_client_message('{"type":"action","clientMsgId":"a","version":3,'
                                 '"action":{"type":"nl.raise","to":50}}')
    assert isinstance(msg, P.ActionMsg) and P.action_dict(msg) == {"type": "nl.raise", "to": 50}
    # run it twice (docs/rules-extensions.md): a yes/no that commutes like the other simultaneous answers
    twice = P.parse_client_message('{"type":"action","clientMsgId":"b","version":4,'
                                   '"action":{"type":"runTwice","agree":true}}')
    assert isinstance(twice, P.ActionMsg) and P.action_dict(twice) == {"type": "runTwice", "agree": True}
    assert P.commutes(P.action_dict(twice))
    cases = [('{"type":"action","clientMsgId":"c","version":4,"action":{"type":"runTwice","agree":1}}',
              "bad_message"),("{", "bad_json"), ("[]", "bad_message"), ('{"type":1}', "unknown_type"),
             ('{"type":"hello"}', "bad_message"), ('{"type":"hello","spectate":false}', "bad_message")]
    for text, code in cases:
        with pytest.raises(P.ProtocolError) as info:
            P.parse_client_message(text)
        assert info.value.code == code


def test_shared_encoder_matches_plain_encoding() -> None:
    log = [{"handNo": 1, "type": "action", "text": "민수 콜 20"}] * 3
    views = [{"phase": "betting", "me": {"id": p}, "publicLog": list(log)} for p in ("a", "b")]
    views.append({"phase": "betting", "me": None, "publicLog": [*log, {"text": "다른"}]})
    views.append({"publicLog": log})
    enc = P.SharedEncoder()
    for view in views:
        text = enc.view_text(7, view, 1_700_000_000_123)
        assert json.loads(text) == P.view_msg(7, view, 1_700_000_000_123)


def test_a_peer_that_stops_reading_is_dropped_and_forgotten() -> None:
    """A socket whose peer never reads (its sends never complete) nor writes: once its queue is full it is
    closed with 1008 and the room forgets it at once, although the peer keeps the connection open."""
    import asyncio

    from pokerroom.server.edge.limits import Limits
    from pokerroom.server.websocket import WsConnection, serve_connection

    class StuckSocket:
        """send_text, close and receive never return (a frozen peer with a full TCP window)."""

        def __init__(self) -> None:
            self.sent = 0

        async def send_text(self, text: str) -> None:
            self.sent += 1
            await asyncio.Event().wait()

        async def close(self, code: int = 1000) -> None:
            await asyncio.Event().wait()

        async def receive(self) -> dict[str, object]:
            await asyncio.Event().wait()
            return {}

    class RoomsStub:
        def __init__(self) -> None:
            self.detached: list[object] = []

        async def detach(self, conn: object) -> None:
            self.detached.append(conn)

    async def main() -> None:
        limits = Limits(send_queue=8)
        ws = StuckSocket()
        conn = WsConnection(ws, limits)  # type: ignore[arg-type]
        rooms = RoomsStub()
        released: list[bool] = []
        task = asyncio.get_running_loop().create_task(
            serve_connection(rooms, object(), conn, limits, lambda: released.append(True)))  # type: ignore[arg-type]
        await asyncio.sleep(0.05)
        assert not task.done() and rooms.detached == []  # a quiet but healthy socket stays
        for i in range(20):  # the room keeps broadcasting; the peer reads nothing
            conn.send(f"frame {i}")
        assert conn.closing
        await asyncio.wait_for(task, timeout=5.0)
        assert rooms.detached == [conn] and released == [True]

    asyncio.run(main())


def test_an_oversized_room_request_is_refused_before_it_is_read() -> None:
    """POST /api/rooms with a body over the limit: 413 from the declared length, and from the bytes read
    when the client sends no length (chunked), without holding the whole body."""
    import asyncio

    from pokerroom.server.app import _read_body

    class Req:
        def __init__(self, headers: dict[str, str], chunks: list[bytes]) -> None:
            self.headers = headers
            self.chunks = chunks
            self.read = 0

        async def stream(self):  # type: ignore[no-untyped-def]
            for c in self.chunks:
                self.read += 1
                yield c

    async def main() -> None:
        declared = Req({"content-length": str(300 * 1024 * 1024)}, [b"x" * 1024] * 10)
        with pytest.raises(P.ProtocolError) as info:
            await _read_body(declared, 4096)  # type: ignore[arg-type]
        assert info.value.status == 413 and declared.read == 0
        chunked = Req({}, [b"x" * 1024] * 1000)
        with pytest.raises(P.ProtocolError):
            await _read_body(chunked, 4096)  # type: ignore[arg-type]
        assert chunked.read == 5  # stopped at the first chunk past 4 KiB
        small = Req({"content-length": "7"}, [b'{"a":1}'])
        assert await _read_body(small, 4096) == b'{"a":1}'  # type: ignore[arg-type]

    asyncio.run(main())
