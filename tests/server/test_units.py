"""Small pure pieces: tokens, the origin check, the rate limiter, the store, message parsing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pokerroom.server import protocol as P
from pokerroom.server.limits import TokenBucket, origin_allowed
from pokerroom.server.store import LogRow, Store
from pokerroom.server.timers import Clock
from pokerroom.server.tokens import (
    CODE_LENGTH,
    is_room_code,
    new_room_code,
    new_seat_token,
    token_digest,
    token_matches,
)


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


def test_store_keeps_last_hands_and_deletes_them_with_the_room(tmp_path: Path) -> None:
    store = Store(tmp_path / "h.sqlite3")
    for seq in range(1, 14):
        store.save("room1", {"m": seq}, None, seq, seq, None, [(seq, {"handNo": seq})])
    store.save("room2", {"m": 0}, None, 1, 1, None, [(1, {"handNo": 1})])
    assert [(seq, data["handNo"]) for seq, data in store.hands("room1")] == [(s, s) for s in range(4, 14)]
    store.delete("room1")
    assert store.hands("room1") == [] and len(store.hands("room2")) == 1
    store.close()


def test_parse_client_message() -> None:
    msg = P.parse_client_message('{"type":"action","clientMsgId":"a","version":3,'
                                 '"action":{"type":"nl.raise","to":50}}')
    assert isinstance(msg, P.ActionMsg) and P.action_dict(msg) == {"type": "nl.raise", "to": 50}
    cases = [("{", "bad_json"), ("[]", "bad_message"), ('{"type":1}', "unknown_type"),
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
