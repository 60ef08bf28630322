"""Make ``betting_support`` (the shared helpers of this folder) importable under --import-mode=importlib.

It is registered in ``sys.modules`` by path instead of putting this folder on ``sys.path``, so that other
folders' ``import conftest`` never picks up this file.
"""

import importlib.util
import sys
from pathlib import Path

if "betting_support" not in sys.modules:
    _path = Path(__file__).with_name("betting_support.py")
    _spec = importlib.util.spec_from_file_location("betting_support", _path)
    assert _spec is not None and _spec.loader is not None
    _module = importlib.util.module_from_spec(_spec)
    sys.modules["betting_support"] = _module
    _spec.loader.exec_module(_module)
