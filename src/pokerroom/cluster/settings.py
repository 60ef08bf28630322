"""A cluster node's settings, as ``pokerroom serve --redis ... --database ...`` reads them from its flags.

Why apart from the node: the flags' checks (Redis answers, a lease long enough to renew) run before
any of the node's machinery exists, and the node's module is about what a running node does.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from pokerroom.cluster.limits import ClusterCaps
from pokerroom.server.ops import identity

CREATE_TIMEOUT_S = 2.0  # a remote "create this room" unanswered this long is created here instead


@dataclass(frozen=True)
class NodeSettings:
    """A node's cluster configuration (the CLI fills it from flags and environment)."""

    redis_url: str
    database_url: str
    node_id: str = field(default_factory=identity.node_id)
    prefix: str = "pokerroom"
    lease_ttl_s: float = 5.0
    caps: ClusterCaps = field(default_factory=ClusterCaps)
    create_timeout_s: float = CREATE_TIMEOUT_S
    store_gather_s: float | None = None  # the store's group-commit window (None: PgStore's default)
    route_to_owner: bool = False  # tell relayed sockets their room's owner, each socket its node (sockets.py)


def settings_from_args(args: Any, node_id: str) -> NodeSettings:
    """The settings ``pokerroom serve --redis ... --database ...`` gives its node (cli.run's flags); checks
    that Redis answers, so a wrong URL fails at once with a sentence."""
    import redis

    if args.lease_ttl <= 0.3:
        raise ValueError("--lease-ttl must be more than 0.3 s")
    try:
        client = redis.Redis.from_url(args.redis, socket_timeout=3, socket_connect_timeout=3)
        client.ping()
        client.close()
    except (redis.RedisError, ValueError) as exc:
        raise RuntimeError(f"Redis at {args.redis} does not answer ({exc})") from None
    caps = ClusterCaps(room_creations_per_minute=math.ceil(args.room_creations_per_minute),
                       rooms_per_address=args.rooms_per_address, max_rooms=args.max_rooms,
                       connections_per_room=args.connections_per_room)
    gather = getattr(args, "store_gather_ms", None)
    return NodeSettings(args.redis, args.database, node_id=node_id, prefix=args.redis_prefix,
                        lease_ttl_s=args.lease_ttl, caps=caps, route_to_owner=args.route_to_owner,
                        store_gather_s=None if gather is None else gather / 1000)
