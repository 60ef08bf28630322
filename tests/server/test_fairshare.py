"""Unit tests of the fair share of a full house (server/edge/fairshare.py) and of the transport guard that
uses it, with stand-in transports. Through a real server: test_abuse.py."""

from __future__ import annotations

from typing import Any

from pokerroom.server.edge.fairshare import ClientSlots, FairShare, full_house_response, ops_request
from pokerroom.server.edge.guard import ConnectionGuard


class FakeTransport:
    def __init__(self, address: str) -> None:
        self.address = address
        self.aborted = False

    def get_extra_info(self, name: str) -> Any:
        return (self.address, 5000) if name == "peername" else None

    def abort(self) -> None:
        self.aborted = True

    def is_closing(self) -> bool:
        return self.aborted


def test_the_largest_group_gives_way_to_a_smaller_one() -> None:
    share = FairShare(10)
    for i in range(8):
        share.add("flood", f"f{i}")
    share.add("friend", "a")
    share.add("friend", "b")
    assert share.victim("newcomer") == "f0"  # its oldest
    assert share.victim("newcomer", prefer={"f3"}) == "f3"  # an idle one first
    assert share.victim("flood") is None  # the largest waits
    assert share.victim("newcomer", spare={"flood"}) == "a"  # a trusted proxy is never the victim
    assert share.share("newcomer") == 3


def test_a_full_guard_evicts_from_the_flood_and_keeps_slots_for_health() -> None:
    guard = ConnectionGuard(total=40, per_address=100, header_timeout_s=0)
    assert guard.cap == 35 and guard.ops_reserve == 5
    flood = [FakeTransport(f"10.0.0.{i % 3}") for i in range(35)]
    assert all(guard.admit(t) for t in flood)
    for t in flood:
        guard.busy(t)  # upgraded websockets: not idle
    newcomer = FakeTransport("192.0.2.1")
    assert guard.admit(newcomer) and not guard.on_probation(newcomer)
    assert sum(t.aborted for t in flood) == 1 and guard.stats()["evicted"] == 1
    # a flood from the health checker's own address: the group holding the most waits, on probation
    same = [FakeTransport("10.0.0.0") for _ in range(6)]
    assert all(guard.admit(t) for t in same[:5]) and all(guard.on_probation(t) for t in same[:5])
    assert not newcomer.aborted  # the newcomer's group is smaller: its socket is not made room of
    guard.spoke(same[1])  # it asked for /healthz
    assert guard.admit(same[5]) and same[0].aborted and not same[1].aborted  # the oldest silent one goes
    guard.release(same[2])
    assert not guard.on_probation(same[2]) and guard.stats()["opsProbation"] == 4


def test_ipv6_is_capped_by_its_64() -> None:
    guard = ConnectionGuard(total=1000, per_address=3, header_timeout_s=0)
    got = [guard.admit(FakeTransport(f"2001:db8:0:1::{i + 1:x}")) for i in range(5)]
    assert got == [True, True, True, False, False]
    assert guard.admit(FakeTransport("2001:db8:0:2::1"))


def test_only_the_operators_paths_pass_on_probation() -> None:
    assert ops_request(b"GET /healthz HTTP/1.1\r\nHost: x\r\n") is True
    assert ops_request(b"HEAD /readyz?full=1 HTTP/1.1\r\n") is True
    assert ops_request(b"GET /metrics HTTP/1.0\n") is True
    assert ops_request(b"GET /ws/ABCDEF HTTP/1.1\r\n") is False
    assert ops_request(b"POST /healthz HTTP/1.1\r\n") is False
    assert ops_request(b"GET /heal") is None  # not sure yet
    assert ops_request(b"G" * 300) is False
    response = full_house_response()
    assert response.startswith(b"HTTP/1.1 503") and b"Retry-After: 5" in response
    assert "5초 후에 다시 해 주세요".encode() in response


def test_client_slots_cap_a_client_and_share_a_half_full_house() -> None:
    slots = ClientSlots(total=20, per_client=6)
    assert [slots.acquire("a", i) for i in range(8)] == [True] * 6 + [False] * 2
    slots = ClientSlots(total=20, per_client=0)
    assert all(slots.acquire("a", i) for i in range(12))  # alone, a may hold more than half
    assert [slots.acquire("b", i) for i in range(11)] == [True] * 10 + [False]  # b's share: 20 // 2
    assert not slots.acquire("a", 99)  # past half full, a holds more than its share: it waits
    slots.release("a", 0)
    assert slots.share.held("a") == 11 and slots.refused == 2
