"""Cluster-wide caps, kept in Redis so they hold however many nodes a client spreads its requests over.

Why each shape:

- **room creations per address per minute**: a token bucket (as GCRA: one key per address holds the
  "theoretical arrival time" of its next creation, ``rate:{addr}``), ``per_minute`` creations of burst and
  one more every ``60 / per_minute`` s, the same shape as a single node's bucket. Why not a fixed window per
  minute: a client could create a window's worth at 0:59 and again at 1:00 (twice the cap in two seconds);
- **open rooms per address** and **total rooms**: sets of room codes (``open:{addr}``, ``rooms``), checked
  and added in one script so two nodes cannot both take the last slot; a room's code leaves them when the
  room closes, on whichever node owns it then (``roomaddr`` remembers who created it). These follow the
  rooms, which survive a node's death, so they do not expire;
- **connections per room**: one counter per (room, node), ``PX`` the node TTL and refreshed by the node's
  heartbeat, summed over the live nodes in one script: a dead node's sockets stop counting when its
  counters expire, with no clock comparison.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from pokerroom.cluster.keys import Keys

_CREATE = """
-- KEYS: rate, open:{addr}, rooms, roomaddr; ARGV: code, address, per_minute, per_address, max_rooms, now_ms
local per_minute = tonumber(ARGV[3])
local now = tonumber(ARGV[6])
local interval = 0
local tat = now
if per_minute > 0 then
  -- GCRA: a burst of per_minute, then one creation every interval
  interval = 60000 / per_minute
  tat = math.max(tonumber(redis.call('GET', KEYS[1]) or '0'), now)
  if tat - now > interval * (per_minute - 1) then
    return 'rate'
  end
end
local per_address = tonumber(ARGV[4])
if per_address > 0 and redis.call('SCARD', KEYS[2]) >= per_address then
  return 'address'
end
local max_rooms = tonumber(ARGV[5])
if max_rooms > 0 and redis.call('SCARD', KEYS[3]) >= max_rooms then
  return 'total'
end
if redis.call('SISMEMBER', KEYS[3], ARGV[1]) == 1 then
  return 'taken'
end
if per_minute > 0 then
  local next_tat = tat + interval
  redis.call('SET', KEYS[1], string.format('%d', next_tat), 'PX', math.max(1, math.ceil(next_tat - now)))
end
redis.call('SADD', KEYS[2], ARGV[1])
redis.call('SADD', KEYS[3], ARGV[1])
redis.call('HSET', KEYS[4], ARGV[1], ARGV[2])
return 'ok'
"""

_CLOSED = """
-- KEYS: rooms, roomaddr; ARGV: code, prefix of open:{addr}
redis.call('SREM', KEYS[1], ARGV[1])
local address = redis.call('HGET', KEYS[2], ARGV[1])
if address then
  redis.call('SREM', ARGV[2] .. address, ARGV[1])
  redis.call('HDEL', KEYS[2], ARGV[1])
end
return 1
"""

_CONNECT = """
-- KEYS: this node's counter, then every live node's counter of the room; ARGV: cap, ttl_ms
local total = 0
for i = 2, #KEYS do
  total = total + tonumber(redis.call('GET', KEYS[i]) or '0')
end
local cap = tonumber(ARGV[1])
if cap > 0 and total >= cap then
  return 0
end
redis.call('INCR', KEYS[1])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1
"""

_DISCONNECT = """
local n = redis.call('DECR', KEYS[1])
if n <= 0 then
  redis.call('DEL', KEYS[1])
else
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
end
return n
"""


@dataclass(frozen=True)
class ClusterCaps:
    """The cluster-wide caps (0: no cap)."""

    room_creations_per_minute: int = 10
    rooms_per_address: int = 10
    max_rooms: int = 1000
    connections_per_room: int = 200


class ClusterLimits:
    """Checks and counts of the caps above, for one node."""

    def __init__(self, redis: Any, keys: Keys, node_id: str, caps: ClusterCaps, ttl_s: float) -> None:
        self.redis = redis
        self.keys = keys
        self.node_id = node_id
        self.caps = caps
        self.ttl_ms = max(1, int(ttl_s * 1000))
        self._create = redis.register_script(_CREATE)
        self._closed = redis.register_script(_CLOSED)
        self._connect = redis.register_script(_CONNECT)
        self._disconnect = redis.register_script(_DISCONNECT)
        self.local_conns: dict[str, int] = {}  # room code -> this node's sockets counted in Redis

    async def admit_room(self, code: str, address: str, now_s: float | None = None) -> str:
        """Count a new room of ``address`` if every cap allows it: ``"ok"``, or which cap refused it
        (``"rate"``, ``"address"``, ``"total"``) or ``"taken"`` (the code is an open room's)."""
        now_ms = int((time.time() if now_s is None else now_s) * 1000)
        keys = [self.keys.rate(address), self.keys.open_rooms(address), self.keys.rooms,
                self.keys.room_address]
        args = [code, address, self.caps.room_creations_per_minute, self.caps.rooms_per_address,
                self.caps.max_rooms, now_ms]
        answer = await self._create(keys=keys, args=args)
        return answer.decode() if isinstance(answer, bytes) else str(answer)

    async def room_closed(self, code: str) -> None:
        """A room closed for good: it no longer counts against its address or the total."""
        await self._closed(keys=[self.keys.rooms, self.keys.room_address],
                           args=[code, self.keys.open_rooms("")])

    async def register_rooms(self, codes: list[str]) -> None:
        """Put owned rooms back in the total (after Redis lost its data, the set is rebuilt by owners)."""
        if codes:
            await self.redis.sadd(self.keys.rooms, *codes)

    async def total_rooms(self) -> int:
        return int(await self.redis.scard(self.keys.rooms))

    async def connect(self, code: str, live_nodes: list[str]) -> bool:
        """Count one more socket of this node in room ``code`` if the room's cap allows it."""
        mine = self.keys.room_conns(code, self.node_id)
        others = [self.keys.room_conns(code, n) for n in live_nodes if n != self.node_id]
        ok = await self._connect(keys=[mine, mine, *others],
                                 args=[self.caps.connections_per_room, self.ttl_ms])
        if int(ok):
            self.local_conns[code] = self.local_conns.get(code, 0) + 1
            return True
        return False

    async def disconnect(self, code: str) -> None:
        """One socket of this node left room ``code``."""
        n = self.local_conns.get(code, 0) - 1
        if n <= 0:
            self.local_conns.pop(code, None)
        else:
            self.local_conns[code] = n
        await self._disconnect(keys=[self.keys.room_conns(code, self.node_id)], args=[self.ttl_ms])

    async def refresh(self) -> None:
        """Keep this node's per-room counters alive (heartbeat), re-created if Redis lost them."""
        if not self.local_conns:
            return
        async with self.redis.pipeline(transaction=False) as pipe:
            for code, n in self.local_conns.items():
                pipe.set(self.keys.room_conns(code, self.node_id), n, px=self.ttl_ms)
            await pipe.execute()
