"""Unit tests of the link/host logic (pokerroom.server.edge.hosts) and the edge's pure helpers."""

from __future__ import annotations

import socket
from typing import Any, ClassVar

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pokerroom.server.edge import hosts
from pokerroom.server.edge.headers import content_security_policy, is_json_content_type, websocket_sources
from pokerroom.server.edge.hosts import (
    PublicUrlError,
    host_allowed,
    normalize_public_url,
    resolve_addresses,
    split_host_header,
)


def test_loopback_default_shares_loopback_and_answers_loopback_names_only() -> None:
    a = resolve_addresses("127.0.0.1", 8000)
    assert a.open_url == a.share_url == "http://127.0.0.1:8000"
    assert a.allowed_hosts == {"localhost", "127.0.0.1", "::1"}
    assert not a.lan_fallback
    assert resolve_addresses("::1", 8000).share_url == "http://[::1]:8000"


def test_all_interfaces_share_the_first_lan_address() -> None:
    a = resolve_addresses("0.0.0.0", 8000, lan=["192.168.0.12", "fd00::5"])
    assert a.open_url == "http://127.0.0.1:8000"
    assert a.share_url == "http://192.168.0.12:8000"
    assert {"192.168.0.12", "fd00::5", "localhost", "127.0.0.1", "::1"} <= a.allowed_hosts
    v6 = resolve_addresses("::", 8080, lan=["fd00::5"])
    assert v6.share_url == "http://[fd00::5]:8080" and v6.open_url == "http://[::1]:8080"


def test_all_interfaces_without_a_lan_address_falls_back_to_loopback() -> None:
    a = resolve_addresses("0.0.0.0", 8000, lan=[])
    assert a.share_url == "http://127.0.0.1:8000" and a.lan_fallback


def test_public_url_replaces_the_share_address_and_is_allowed() -> None:
    a = resolve_addresses("127.0.0.1", 8000, "https://Poker.Example:443/", ["Extra.Example."])
    assert a.share_url == "https://poker.example" and a.open_url == "http://127.0.0.1:8000"
    assert {"poker.example", "extra.example", "localhost"} <= a.allowed_hosts
    assert resolve_addresses("0.0.0.0", 80, "http://tunnel.example:8443", lan=[]).lan_fallback is False
    assert resolve_addresses("192.168.0.9", 8000).allowed_hosts == {"192.168.0.9"}


@pytest.mark.parametrize("bad", ["ftp://x", "poker.example", "https://", "https://x/app", "https://x/?a=1",
                                 "https://u:p@x", "https://x:99999"])
def test_bad_public_urls_are_refused_with_a_reason(bad: str) -> None:
    with pytest.raises(PublicUrlError, match="--public-url"):
        normalize_public_url(bad)


def test_normalized_public_urls() -> None:
    assert normalize_public_url("http://x.example:80") == "http://x.example"
    assert normalize_public_url("https://x.example:8443/") == "https://x.example:8443"
    assert normalize_public_url("http://[fd00::1]:8000") == "http://[fd00::1]:8000"


def test_host_header_parsing() -> None:
    assert split_host_header("Example.COM:8000") == "example.com"
    assert split_host_header("example.com.") == "example.com"
    assert split_host_header("[::1]:8000") == "::1"
    assert split_host_header("[::1]") == "::1"
    for bad in ("", "a b", "x:y", "[::1", "[::1]x", "evil.example/x", "u@evil.example"):
        assert split_host_header(bad) is None, bad
    allowed = frozenset({"localhost", "127.0.0.1"})
    assert host_allowed("localhost:1", allowed) and host_allowed("127.0.0.1", allowed)
    assert not host_allowed(None, allowed) and not host_allowed("evil.example", allowed)
    assert not host_allowed("localhost.evil.example", allowed)
    assert host_allowed("anything", frozenset({"*"}))


@given(st.text(max_size=40))
def test_only_listed_names_ever_pass(header: str) -> None:
    allowed = frozenset({"localhost", "127.0.0.1", "::1"})
    if host_allowed(header, allowed):
        assert split_host_header(header) in allowed


class FakeSocket:
    """Records what a probe does: it may ``connect`` and ask its address, never send."""

    calls: ClassVar[list[str]] = []

    def __init__(self, family: int, kind: int) -> None:
        self.family = family
        assert kind == socket.SOCK_DGRAM

    def __enter__(self) -> FakeSocket:
        return self

    def __exit__(self, *exc: Any) -> None:
        return None

    def connect(self, target: tuple[str, int]) -> None:
        FakeSocket.calls.append("connect")
        if self.family == socket.AF_INET6:
            raise OSError("no IPv6 route")

    def getsockname(self) -> tuple[str, int]:
        FakeSocket.calls.append("getsockname")
        return ("10.1.2.3", 40000)

    def __getattr__(self, name: str) -> Any:  # send, sendto, ...: a probe must never transmit
        raise AssertionError(f"the LAN probe called socket.{name}")


def test_lan_probe_sends_nothing_and_falls_back_gracefully(monkeypatch: pytest.MonkeyPatch) -> None:
    FakeSocket.calls = []
    monkeypatch.setattr(hosts.socket, "socket", FakeSocket)
    monkeypatch.setattr(hosts.socket, "getaddrinfo", lambda *a, **k: [])
    assert hosts.lan_addresses() == ["10.1.2.3"]
    assert set(FakeSocket.calls) == {"connect", "getsockname"}

    def broken(*a: Any, **k: Any) -> Any:
        raise OSError("network is unreachable")

    monkeypatch.setattr(hosts.socket, "socket", broken)
    monkeypatch.setattr(hosts.socket, "getaddrinfo", broken)
    assert hosts.lan_addresses() == []
    assert resolve_addresses("0.0.0.0", 8000).lan_fallback


def test_lan_addresses_skip_loopback_and_link_local(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(hosts, "_probe", lambda family, target: None)
    infos = [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (a, 0)) for a in ("127.0.1.1", "169.254.1.1")]
    infos += [(socket.AF_INET6, socket.SOCK_STREAM, 6, "", ("fe80::1%eth0", 0, 0, 2)),
              (socket.AF_INET6, socket.SOCK_STREAM, 6, "", ("fd00::7", 0, 0, 0)),
              (socket.AF_INET, socket.SOCK_STREAM, 6, "", ("192.168.1.20", 0))]
    monkeypatch.setattr(hosts.socket, "getaddrinfo", lambda *a, **k: infos)
    assert hosts.lan_addresses() == ["192.168.1.20", "fd00::7"]


def test_csp_and_json_content_type_helpers() -> None:
    assert websocket_sources(["https://poker.example", "http://192.168.0.5:8000"]) == [
        "wss://poker.example", "ws://192.168.0.5:8000"]
    csp = content_security_policy(["https://poker.example"])
    assert "connect-src 'self' wss://poker.example" in csp and "script-src 'self';" in csp
    assert is_json_content_type("application/json")
    assert is_json_content_type("Application/JSON; charset=utf-8")
    for bad in (None, "", "text/plain", "application/jsonx", "application/x-www-form-urlencoded"):
        assert not is_json_content_type(bad)
