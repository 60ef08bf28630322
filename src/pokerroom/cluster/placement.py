"""The live nodes of a cluster and where a new room goes.

Why Redis keys with a TTL and no clock: a node announces itself by ``SET node:{id} {rooms, conns} PX ttl``
every heartbeat and adds its id to the ``nodes`` set; a node that died stops refreshing and its key
expires, so "live" needs no comparison of two machines' clocks. The ``nodes`` set only says which keys to
read; ids whose key is gone are pruned from it.

``pick()``: the live node with the fewest rooms (ties: the fewest connections, then the id), so new rooms
spread over the cluster; the caller asks that node to create the room.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import orjson

from pokerroom.cluster.keys import Keys


@dataclass(frozen=True)
class NodeInfo:
    """One live node as its last heartbeat described it."""

    node_id: str
    rooms: int
    conns: int


class Registry:
    """Heartbeats of this node and the view of every live node."""

    def __init__(self, redis: Any, keys: Keys, node_id: str, ttl_s: float) -> None:
        self.redis = redis
        self.keys = keys
        self.node_id = node_id
        self.ttl_ms = max(1, int(ttl_s * 1000))
        self.live: list[NodeInfo] = []  # as of the last refresh

    async def heartbeat(self, rooms: int, conns: int) -> None:
        """Announce this node alive (until the TTL) with its load."""
        body = orjson.dumps({"rooms": rooms, "conns": conns})
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.set(self.keys.node(self.node_id), body, px=self.ttl_ms)
            pipe.sadd(self.keys.nodes, self.node_id)
            await pipe.execute()

    async def leave(self) -> None:
        """Say this node is gone (graceful shutdown): no new room is placed on it."""
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.delete(self.keys.node(self.node_id))
            pipe.srem(self.keys.nodes, self.node_id)
            await pipe.execute()

    async def refresh(self) -> list[NodeInfo]:
        """Read every live node (and prune the dead ones from the set)."""
        ids = sorted(_text(x) for x in await self.redis.smembers(self.keys.nodes))
        if not ids:
            self.live = []
            return []
        values = await self.redis.mget([self.keys.node(i) for i in ids])
        live: list[NodeInfo] = []
        dead: list[str] = []
        for node_id, value in zip(ids, values, strict=True):
            if value is None:
                dead.append(node_id)
                continue
            try:
                data = orjson.loads(value)
                live.append(NodeInfo(node_id, int(data["rooms"]), int(data["conns"])))
            except (ValueError, KeyError, TypeError):
                dead.append(node_id)
        if dead:
            await self.redis.srem(self.keys.nodes, *dead)
        self.live = live
        return live

    async def pick(self) -> str:
        """The node a new room should go to: the live one with the fewest rooms (this node if none)."""
        live = await self.refresh()
        if not live:
            return self.node_id
        best = min(live, key=lambda n: (n.rooms, n.conns, n.node_id != self.node_id, n.node_id))
        return best.node_id


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)
