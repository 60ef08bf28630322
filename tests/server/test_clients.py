"""Unit tests of the per-client rates (server/edge/clients.py): who a client is, buckets that say when, and a
byte budget."""

from __future__ import annotations

from pokerroom.server.edge.clients import ByteBudget, KeyedBuckets, client_group, whole_seconds
from pokerroom.server.edge.guard import client_address


def test_a_client_is_an_ipv4_address_or_an_ipv6_64() -> None:
    assert client_group("203.0.113.7") == "203.0.113.7"
    assert client_group("203.0.113.8") != client_group("203.0.113.7")
    a, b = client_group("2001:db8:1:2::1"), client_group("2001:db8:1:2:ffff:ffff:ffff:ffff")
    assert a == b == "2001:db8:1:2::/64"
    assert client_group("2001:db8:1:3::1") != a
    assert client_group("::ffff:198.51.100.1") == "198.51.100.1"
    assert client_group("not an address") == "not an address"


def test_the_forwarded_address_counts_only_behind_a_trusted_proxy() -> None:
    assert client_address("127.0.0.1", "10.0.0.9", ()) == "127.0.0.1"
    assert client_address("10.1.1.1", "10.0.0.9", ("10.1.1.1",)) == "10.0.0.9"


def test_keyed_buckets_say_how_long_to_wait() -> None:
    buckets = KeyedBuckets(rate=2.0, burst=3.0)
    now = 100.0
    assert [buckets.take("a", now) for _ in range(3)] == [0.0, 0.0, 0.0]
    wait = buckets.take("a", now)
    assert 0.49 < wait <= 0.5 and whole_seconds(wait) == 1
    assert buckets.take("b", now) == 0.0  # another client has its own
    assert buckets.take("a", now + wait) == 0.0
    assert KeyedBuckets(rate=0, burst=1).take("a") == 0.0  # 0: no limit


def test_full_buckets_are_forgotten_first() -> None:
    buckets = KeyedBuckets(rate=1.0, burst=2.0, max_keys=4)
    for key in "abc":
        buckets.take(key, 0.0)
    buckets.take("d", 0.0)
    buckets.take("d", 0.0)  # d is empty: it must be kept
    buckets.take("e", 1.5)  # a, b, c (one token spent) are full again by now, d (two spent) is not
    assert set(buckets.buckets) == {"d", "e"}
    assert buckets.take("d", 1.5) == 0.0


def test_byte_budget_holds_answers_once_spent() -> None:
    budget = ByteBudget(per_second=1000)
    t = budget._last
    assert budget.wait(t) == 0.0
    budget.spend(3000, t)  # one big answer may overdraw
    wait = budget.wait(t)
    assert 1.9 < wait < 2.1
    assert budget.wait(t + 2.1) == 0.0
    assert ByteBudget(0).wait() == 0.0
