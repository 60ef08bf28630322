"""In-process cluster nodes for the cluster unit tests: two (or more) apps on their own ports in this
process, on one Redis key prefix and one PostgreSQL database (tests/services.py), so a test can look at
each node's rooms directly. (The process-level failure tests are test_nodes_*.py.)"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
for extra in (HERE.parent / "server", HERE.parent):
    if str(extra) not in sys.path:
        sys.path.insert(0, str(extra))

from server_helpers import LiveServer  # noqa: E402

from pokerroom.cluster.node import ClusterNode  # noqa: E402
from pokerroom.cluster.settings import NodeSettings  # noqa: E402
from pokerroom.server.app import ServerConfig  # noqa: E402
from pokerroom.server.edge.limits import Limits  # noqa: E402
from services import REDIS_URL  # noqa: E402

FAST = Limits(rate_per_second=5000, rate_burst=5000, history_rate_per_second=5000, history_burst=5000)


def start_node(node_id: str, database: str, prefix: str, tmp: Path, *, ttl: float = 2.0,
               limits: Limits = FAST, route: bool = False, **config: Any) -> LiveServer:
    """One node (app + cluster node, the real rules engine) serving on a free port; ``srv.config.topology`` is
    its ClusterNode. ``route``: ``--route-to-owner``."""
    node = ClusterNode(NodeSettings(REDIS_URL, database, node_id=node_id, prefix=prefix, lease_ttl_s=ttl,
                                    route_to_owner=route), limits)
    cfg = ServerConfig(limits=limits, static_dir=tmp / "static", warm_up=False,
                       engine=None, **config)
    node.configure(cfg)
    return LiveServer(cfg).start()
