"""Registering a test folder's shared helper module (``engine_support``, ``betting_support``) under its own
name, for the folder's conftest.

pytest runs with --import-mode=importlib, so a test folder is not on ``sys.path``; the helper is loaded by
path into ``sys.modules`` instead of putting the folder on ``sys.path``, so that another folder's
``import conftest`` never picks up that folder's conftest. One function for every folder that needs it.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path


def register(path: Path) -> None:
    """Import the module at ``path`` as ``path.stem`` (once), so the folder's tests ``import`` it by name."""
    if path.stem in sys.modules:
        return
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[path.stem] = module
    spec.loader.exec_module(module)
