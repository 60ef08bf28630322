"""HTTP side: create a room, public info, the web client's files, health."""

from __future__ import annotations

import httpx
from server_helpers import LiveServer


def test_create_room_and_public_info(server: LiveServer) -> None:
    r = httpx.post(f"{server.http}/api/rooms", json={"nickname": "민수", "options": {"handLimit": 30}})
    assert r.status_code == 201
    data = r.json()
    assert set(data) == {"code", "link", "ws", "playerId", "token"}
    assert data["link"] == f"{server.http}/r/{data['code']}" and data["ws"] == f"/ws/{data['code']}"
    assert len(data["token"]) >= 40  # >= 128 bits of url-safe base64
    info = httpx.get(f"{server.http}/api/rooms/{data['code']}").json()
    assert info["hostId"] == data["playerId"] and info["players"][0]["nickname"] == "민수"
    assert info["options"]["handLimit"] == 30 and info["phase"] == "lobby"
    assert data["token"] not in httpx.get(f"{server.http}/api/rooms/{data['code']}").text


def test_create_room_refusals_are_korean(server: LiveServer) -> None:
    bad = httpx.post(f"{server.http}/api/rooms", json={"nickname": "a", "options": {"startingChips": 5}})
    assert bad.status_code == 400
    assert bad.json()["error"] == {"code": "bad_options",
                                   "message": "옵션 값이 올바르지 않아요: startingChips"}
    # a rule between options is refused with the engine's own Korean sentence
    few = httpx.post(f"{server.http}/api/rooms", json={"nickname": "a", "options": {
        "startingChips": 500, "baseUnit": 50}})
    assert few.status_code == 400
    reason = "시작 칩은 기본 단위의 20배 이상이어야 해요(기본 단위 50이면 1,000칩 이상)"
    assert few.json()["error"] == {"code": "bad_options", "message": reason}
    unknown = httpx.post(f"{server.http}/api/rooms", json={"nickname": "a", "options": {"nope": 1}})
    assert unknown.status_code == 400 and "옵션" in unknown.json()["error"]["message"]
    nick = httpx.post(f"{server.http}/api/rooms", json={"nickname": "   ", "options": {}})
    assert nick.json()["error"]["code"] == "nickname_invalid"
    json_type = {"content-type": "application/json"}
    broken = httpx.post(f"{server.http}/api/rooms", content=b"{", headers=json_type)
    assert broken.json()["error"]["code"] == "bad_json"
    extra = httpx.post(f"{server.http}/api/rooms", json={"nickname": "a", "options": {}, "x": 1})
    assert extra.json()["error"]["code"] == "bad_message"
    big = httpx.post(f"{server.http}/api/rooms", json={"nickname": "a" * 5000})
    assert big.status_code == 413
    missing = httpx.get(f"{server.http}/api/rooms/abcdefghjk")
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "room_not_found"


def test_room_cap(make_server: object) -> None:
    from pokerroom.server.edge.limits import Limits

    srv = make_server(limits=Limits(max_rooms=1))  # type: ignore[operator]
    srv.create_room()
    r = httpx.post(f"{srv.http}/api/rooms", json={"nickname": "b", "options": {}})
    assert r.status_code == 503 and r.json()["error"]["code"] == "too_many_rooms"


def test_static_files_and_health(server: LiveServer, tmp_path: object) -> None:
    assert httpx.get(f"{server.http}/").status_code == 404  # no client yet: a clean 404
    static = server.config.static_dir
    static.mkdir(parents=True, exist_ok=True)
    (static / "index.html").write_text("<!doctype html><title>포커</title>", encoding="utf-8")
    (static / "app.js").write_text("console.log(1)", encoding="utf-8")
    room = server.create_room()
    for path in ("/", f"/r/{room['code']}"):
        page = httpx.get(f"{server.http}{path}")
        assert page.status_code == 200 and "포커" in page.text
    assert httpx.get(f"{server.http}/static/app.js").text == "console.log(1)"
    assert httpx.get(f"{server.http}/static/missing.js").status_code == 404
    assert httpx.get(f"{server.http}/static/..%2f..%2fpyproject.toml").status_code == 404
    health = httpx.get(f"{server.http}/healthz").json()
    assert health["ok"] is True and health["rooms"] == 1


def test_the_clients_files_come_compressed_and_revalidated(make_server: object) -> None:
    """The real client (about fifty text files): gzip-ed to a browser that accepts it, as they are to one
    that does not, never kept without asking (``no-cache``), and a repeat visit answered 304 with no body. The
    ETag is the content's, so two servers (a cluster's nodes) give the same file the same one."""
    from pokerroom.server.app import STATIC_DIR

    first = make_server(static_dir=STATIC_DIR)  # type: ignore[operator]
    second = make_server(static_dir=STATIC_DIR)  # type: ignore[operator]
    names = ["/", "/static/app.js", "/static/style.css", "/static/table/render.js",
             "/static/manifest.webmanifest"]
    raw_total = wire_total = 0
    for name in names:
        plain = httpx.get(f"{first.http}{name}", headers={"accept-encoding": "identity"})
        assert plain.status_code == 200 and "content-encoding" not in plain.headers, name
        disk = STATIC_DIR / ("index.html" if name == "/" else name.removeprefix("/static/"))
        assert plain.content == disk.read_bytes(), name
        packed = httpx.get(f"{first.http}{name}", headers={"accept-encoding": "gzip, deflate"})
        assert packed.headers["content-encoding"] == "gzip" and packed.content == plain.content, name
        assert packed.headers["vary"] == "Accept-Encoding" and packed.headers["cache-control"] == "no-cache"
        raw_total += len(plain.content)
        wire_total += int(packed.headers["content-length"])
        etag = packed.headers["etag"]
        assert httpx.get(f"{second.http}{name}").headers["etag"] == etag, name
        again = httpx.get(f"{first.http}{name}", headers={"if-none-match": etag})
        assert again.status_code == 304 and again.content == b"" and again.headers["etag"] == etag, name
        assert httpx.get(f"{first.http}{name}", headers={"if-none-match": '"other"'}).status_code == 200
    assert wire_total < raw_total / 2, (wire_total, raw_total)
    refused = httpx.get(f"{first.http}/static/app.js", headers={"accept-encoding": "gzip;q=0, identity"})
    assert "content-encoding" not in refused.headers
    assert refused.headers["content-type"].startswith("text/javascript")


def test_a_changed_file_is_served_as_it_now_is(server: LiveServer) -> None:
    """Read once and kept, a file is read again when it changes on disk (a new ETag, its new text)."""
    static = server.config.static_dir
    static.mkdir(parents=True, exist_ok=True)
    (static / "app.js").write_text("console.log(1)", encoding="utf-8")
    before = httpx.get(f"{server.http}/static/app.js")
    (static / "app.js").write_text("console.log(22)", encoding="utf-8")
    after = httpx.get(f"{server.http}/static/app.js", headers={"if-none-match": before.headers["etag"]})
    assert after.status_code == 200 and after.text == "console.log(22)"
    assert after.headers["etag"] != before.headers["etag"]
