"""A dead node's rooms spread over the survivors: thirty rooms over three node processes, the node with the
most rooms is SIGKILLed, and no survivor takes more than its share + 1 of them (its share: the dead node's
rooms over the survivors). Then the node comes back and another dies: the rule holds again.

Why a test of its own: before, whichever survivor scanned first after the leases ran out took every room it
found, so one survivor could end up with the whole dead node's load while another took none.
"""

from __future__ import annotations

import time
from pathlib import Path

from nodes import TAKEOVER_BUDGET, Cluster, Node, running_cluster
from test_nodes_failover import owned_count
from test_nodes_play import OPTIONS

ROOMS = 30


def owners(cluster: Cluster, codes: list[str]) -> dict[str, Node | None]:
    return {code: cluster.owner(code) for code in codes}


def kill_and_count(cluster: Cluster, codes: list[str], victim: Node) -> dict[str, int]:
    """SIGKILL ``victim``, wait until every one of its rooms has a new owner; the rooms each survivor took."""
    moving = [code for code, o in owners(cluster, codes).items() if o is victim]
    assert moving, f"{victim.node_id} owns no room"
    victim.kill()
    for code in moving:
        cluster.wait_owner(code, not_=victim, timeout=TAKEOVER_BUDGET + 8)
    time.sleep(0.5)  # any late racer has lost by now
    after = owners(cluster, moving)
    survivors = [n for n in cluster.nodes if n is not victim]
    took = {n.node_id: sum(o is n for o in after.values()) for n in survivors}
    assert sum(took.values()) == len(moving), (took, len(moving))
    # every survivor serves exactly the rooms its leases say (nothing taken twice, nothing lost)
    every = owners(cluster, codes)
    for n in survivors:
        assert owned_count(n) == sum(o is n for o in every.values()), n.node_id
    return took


def test_a_dead_nodes_rooms_spread_over_the_survivors(tmp_path: Path) -> None:
    with running_cluster(tmp_path, 3) as (cluster, _db):
        codes = [cluster.create_room(via=cluster.nodes[i % 3], mode="holdem", **OPTIONS)["code"]
                 for i in range(ROOMS)]
        for _round in range(2):
            held = owners(cluster, codes)
            victim = max(cluster.nodes, key=lambda n: sum(o is n for o in held.values()))
            dead_rooms = sum(o is victim for o in held.values())
            took = kill_and_count(cluster, codes, victim)
            share = dead_rooms / len(took)
            print(f"{victim.node_id} died with {dead_rooms} rooms: the survivors took {took}")
            assert max(took.values()) <= share + 1, \
                f"{dead_rooms} rooms of {victim.node_id} taken as {took} (share {share:.1f} each)"
            victim.start().wait_ready()
