"""The split of a dead node's rooms (pokerroom.cluster.succession), as two survivors compute it apart."""

from __future__ import annotations

from pokerroom.cluster.succession import Succession

ROOMS = [f"r{i:02d}" for i in range(11)]
LIVE = {"b", "c"}


def survivors() -> tuple[Succession, Succession]:
    b, c = Succession("b", grace_s=1.0), Succession("c", grace_s=1.0)
    held = {code: "a" for code in ROOMS} | {"x1": "b", "x2": "c"}
    for s in (b, c):
        assert s.observe(held, {"a", "b", "c"}, 0.0) == []  # everything owned: nothing to take
    return b, c


def freed() -> dict[str, str | None]:
    return {code: None for code in ROOMS} | {"x1": "b", "x2": "c"}


def test_the_dead_nodes_rooms_are_split_evenly_and_alike() -> None:
    b, c = survivors()
    # the dead node's heartbeat may still be listed: it is never its own heir
    mine_b = b.observe(freed(), {"a", "b", "c"}, 10.0)
    part_b = [code for code in ROOMS if b.heir(code) == "b"]
    assert mine_b == part_b and len(part_b) == 6  # 11 rooms over 2: b's part is 6, its share
    # both scanned before either took anything: c tries its own 5 first, then one of b's (they race for it
    # at the lease; nobody ends up with more than its share)
    mine_c = c.observe(freed(), LIVE, 10.2)
    assert all(b.heir(code) == c.heir(code) for code in ROOMS)
    assert mine_c[:5] == [code for code in ROOMS if c.heir(code) == "c"] and len(mine_c) == 6
    assert set(mine_b) | set(mine_c) == set(ROOMS)
    # b took its part before c's next scan: c takes its own 5 and nothing of b's
    for code in mine_b:
        b.took(code)
    after = freed() | {code: "b" for code in mine_b}
    assert c.observe(after, LIVE, 10.5) == mine_c[:5]
    assert b.observe(after, LIVE, 10.5) == []  # b has its share: the rest is c's until the grace is over


def test_the_first_to_scan_takes_up_to_its_share_own_part_first() -> None:
    b, c = survivors()
    first = b.observe(freed(), LIVE, 10.0)
    assert len(first) == 6 and all(b.heir(code) == "b" for code in first)
    for code in first:
        b.took(code)
    # c scans once b took its 6: c takes the 5 that are its part, never more than its share
    late = c.observe(freed() | {code: "b" for code in first}, LIVE, 10.3)
    assert sorted(first + late) == ROOMS
    # a lone room is taken by whichever survivor scans first (a share of 1), not only by its heir
    d, e = Succession("d", grace_s=1.0), Succession("e", grace_s=1.0)
    for s in (d, e):
        s.observe({"solo": "a"}, {"a", "d", "e"}, 0.0)
    lone = next(s for s in (d, e) if s.heir("solo") is None)  # (no estate yet: made on the next scan)
    assert lone.observe({"solo": None}, {"d", "e"}, 5.0) == ["solo"]


def b_with_its_share() -> tuple[Succession, list[str], dict[str, str | None]]:
    """b scanned first at 10.0 and took its share: (b, the rooms left to c, the owners b sees after)."""
    b, _c = survivors()
    mine = b.observe(freed(), LIVE, 10.0)
    for code in mine:
        b.took(code)
    return b, [code for code in ROOMS if code not in mine], freed() | {code: "b" for code in mine}


def test_a_part_left_untaken_is_anyones_after_the_grace() -> None:
    b, others, after = b_with_its_share()
    assert 0.9 < b.patience(others[0], LIVE, 10.1) <= 1.0  # b has its share: a socket here waits for c
    assert b.observe(after, LIVE, 10.6) == []  # c (dead too?) still has time
    assert b.observe(after, {"b"}, 11.1) == others  # past the grace, c gone from the registry: b takes it all


def test_a_live_heir_that_is_slow_keeps_its_part_a_while_longer() -> None:
    """Past the grace an heir whose heartbeat is fresh may still be loading its part one room at a time (a
    loaded machine): the others leave it that part until ``SLOW_HEIR_GRACES`` graces have passed."""
    b, others, after = b_with_its_share()
    assert b.observe(after, LIVE, 11.1) == []  # c is live: its part is still its own
    assert b.observe(after, LIVE, 13.9) == []
    assert b.observe(after, LIVE, 14.1) == others  # four graces: a live heir that never took it gives it up
    # once every room has an owner the estate is forgotten: the next death is a new estate
    b.observe({code: "b" for code in ROOMS}, LIVE, 12.0)
    assert b.estates == {} and b.heir(ROOMS[0]) is None


def test_a_socket_takes_a_room_at_once_while_its_node_is_short_of_its_share() -> None:
    b, _c = survivors()
    c_part = next(code for code in ROOMS if b.observe(freed(), LIVE, 10.0) and b.heir(code) == "c")
    assert b.patience(c_part, LIVE, 10.0) == 0.0  # b has taken none of its 6 yet


def test_a_room_nobody_was_seen_holding_is_anyones() -> None:
    fresh = Succession("b", grace_s=1.0)  # just started: it never saw who held what
    assert fresh.observe({"r1": None, "r2": "c"}, LIVE, 0.0) == ["r1"]
    assert fresh.patience("r1", LIVE, 0.0) == 0.0
