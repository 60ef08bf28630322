"""The single-node server never loads the cluster's dependencies: ``pokerroom serve`` without
``--database`` must start on a machine without psycopg or redis, and stay exactly as light as before."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src"

PROBE = """
import json, sys
import pokerroom.cli, pokerroom.serve, pokerroom.server.app
import pokerroom.server.storage, pokerroom.server.storage
from pokerroom.server.app import ServerConfig, create_app
from pokerroom.server.storage import open_store
create_app(ServerConfig())
pokerroom.cli.build_parser()
open_store(None).close()
CLUSTER = ("psycopg", "psycopg_binary", "psycopg_c", "psycopg_pool", "redis", "hiredis", "asyncpg")
print(json.dumps(sorted(m for m in sys.modules if m.split(".")[0] in CLUSTER
      or m.startswith(("pokerroom.cluster", "pokerroom.server.storage.postgres")))))
"""


def _loaded(probe: str) -> list[str]:
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    out = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True, timeout=120,
                         check=True)
    loaded: list[str] = json.loads(out.stdout.strip().splitlines()[-1])
    return loaded


def test_the_single_node_server_imports_no_cluster_dependency() -> None:
    assert _loaded(PROBE) == []


def test_the_probe_does_see_a_postgres_store_when_one_is_opened() -> None:
    """The probe above is not blind: importing the PostgreSQL store shows up in the same check."""
    probe = PROBE.replace("open_store(None).close()", "import pokerroom.server.storage.postgres")
    loaded = _loaded(probe)
    assert "psycopg" in loaded and "pokerroom.server.storage.postgres" in loaded
