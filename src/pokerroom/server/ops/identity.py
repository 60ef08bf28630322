"""The one name of this server process in logs, metrics and the cluster's node list.

Why one function: the node id is printed by ``/healthz``, labels every metric and keys the cluster's node
list and leases, so the serve command, the app's default and a cluster node built without flags must all
name a process the same way.
"""

from __future__ import annotations

import os
import secrets
import socket


def node_id(given: str | None = None, port: int | None = None) -> str:
    """``given`` (``--node-id``), else ``POKERROOM_NODE_ID``, else the host name and ``port``; a process
    with no port of its own (tests, several nodes in one process) gets ``host-pid-random``, unique per
    call."""
    chosen = given or os.environ.get("POKERROOM_NODE_ID")
    if chosen:
        return str(chosen)
    if port is not None:
        return f"{socket.gethostname()}:{port}"
    return f"{socket.gethostname()}-{os.getpid()}-{secrets.token_hex(2)}"
