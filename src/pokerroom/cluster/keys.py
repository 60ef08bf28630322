"""Every Redis key and pub/sub channel of a cluster, in one place, under ``--redis-prefix``.

Why one module: two deployments (or two tests) sharing one Redis must never see each other's keys, and a
reader of the code should find every key the cluster writes, with its type and lifetime, here:

==========================  ===========  ===============================================================
key                         type         meaning (lifetime)
==========================  ===========  ===============================================================
``P:lease:{code}``          string       owner node id of a room (PX lease TTL, renewed every TTL/3)
``P:fence:{code}``          string/int   takeovers of the room so far (INCR; the fencing token's low bits)
``P:served:{code}``         string/int   Redis TIME in ms of the room's last lease renewal or release: when
                                         it was last surely served (PX 1 day; read by the next owner)
``P:epoch``                 string/int   Redis TIME in ms when the counters started (the token's high
                                         bits: a Redis that lost its data never hands out an older token)
``P:nodes``                 set          node ids that announced themselves (pruned when their key is gone)
``P:node:{id}``             string       a node's heartbeat: JSON ``{rooms, conns}`` (PX node TTL)
``P:ch:{id}``               channel      messages to one node
``P:ch:all``                channel      messages to every node ("room moved")
``P:rooms``                 set          codes of the open rooms (the cluster's total-rooms cap)
``P:open:{addr}``           set          codes of open rooms created from one client address
``P:roomaddr``              hash         room code -> creating address (to release it on close)
``P:rate:{addr}:{minute}``  string/int   rooms created by an address in one minute (EX 120 s)
``P:rc:{code}:{node}``      string/int   one node's sockets in one room (PX node TTL, refreshed)
==========================  ===========  ===============================================================
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Keys:
    """Key names under one prefix (``prefix`` without a trailing colon)."""

    prefix: str = "pokerroom"

    def lease(self, code: str) -> str:
        return f"{self.prefix}:lease:{code}"

    def fence(self, code: str) -> str:
        return f"{self.prefix}:fence:{code}"

    def served(self, code: str) -> str:
        return f"{self.prefix}:served:{code}"

    @property
    def epoch(self) -> str:
        return f"{self.prefix}:epoch"

    @property
    def nodes(self) -> str:
        return f"{self.prefix}:nodes"

    def node(self, node_id: str) -> str:
        return f"{self.prefix}:node:{node_id}"

    def channel(self, node_id: str) -> str:
        return f"{self.prefix}:ch:{node_id}"

    @property
    def broadcast(self) -> str:
        return f"{self.prefix}:ch:all"

    @property
    def rooms(self) -> str:
        return f"{self.prefix}:rooms"

    def open_rooms(self, address: str) -> str:
        return f"{self.prefix}:open:{address}"

    @property
    def room_address(self) -> str:
        return f"{self.prefix}:roomaddr"

    def rate(self, address: str) -> str:
        """The address's room-creation bucket (the time its next creation is due, GCRA)."""
        return f"{self.prefix}:rate:{address}"

    def room_conns(self, code: str, node_id: str) -> str:
        return f"{self.prefix}:rc:{code}:{node_id}"
